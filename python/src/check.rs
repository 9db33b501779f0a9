//! `pgnkit.check`: `pgnkit check --format json` over files and directories
//! ([`pgnkit_driver::files::run`], [`check_chunk`]), its records written
//! by [`pgnkit_report`]'s printer into a buffer that Python reads line by
//! line. Settings files are not read (as with `--no-config`).

use std::io::Write;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use pgnkit_driver::files::{At, Inputs, Sink, run};
use pgnkit_replay::{Detail, Selection};
use pgnkit_report::Format;
use pgnkit_report::printer::{Printer, ReportFormat, Settings};
use pgnkit_report::summary::{Summary, Totals};
use pgnkit_source::Chunk;
use pgnkit_work::check::{ChunkOut, check_chunk};

/// Writes the records of each chunk into `out`.
struct Records {
    out: Vec<u8>,
    printer: Printer,
}

impl Sink<ChunkOut> for Records {
    type Totals = Totals;

    fn chunk(&mut self, at: &At<'_>, _: &Chunk, c: ChunkOut) -> anyhow::Result<(Totals, usize)> {
        for g in c.games {
            let number = at.game(g.index);
            for mut l in g.diagnostics {
                l.place(number, |n| at.line(n));
                self.printer.diagnostic(&mut self.out, at.name, &l)?;
            }
            if let Some(omitted) = g.omitted {
                self.printer
                    .omitted(&mut self.out, at.name, number, *omitted)?;
            }
            if let Some(f) = g.facts {
                self.printer.game(
                    &mut self.out,
                    at.name,
                    number,
                    g.byte,
                    g.name.as_deref(),
                    &f,
                )?;
            }
        }
        Ok((c.totals, c.lines))
    }

    fn failure(&mut self, path: &str, _: Option<&str>, e: &anyhow::Error) -> std::io::Result<()> {
        self.printer
            .failure(&mut self.out, &mut std::io::sink(), path, &format!("{e:#}"))
    }
}

/// The NDJSON records of `pgnkit check --format json [--games] [-j jobs]
/// [--input-lang lang] [--illegal-moves stand] paths`, the summary last, as `bytes`.
#[pyfunction]
#[pyo3(signature = (paths, jobs=None, games=false, lang="auto", illegal_moves="stop"))]
pub fn check_records<'py>(
    py: Python<'py>,
    paths: Vec<String>,
    jobs: Option<usize>,
    games: bool,
    lang: &str,
    illegal_moves: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut options = crate::replay_options(lang, illegal_moves)?;
    if games {
        options.detail = Detail::Full;
    }
    let out = py.detach(|| -> anyhow::Result<Vec<u8>> {
        let selection = Selection::default();
        let inputs = Inputs {
            files: &paths,
            jobs,
            quiet: true,
            ..Inputs::default()
        };
        let mut records = Records {
            out: Vec::new(),
            printer: Printer::new(ReportFormat::Json, Settings::default()),
        };
        let work =
            |chunk: &Chunk| check_chunk(chunk, &options, &selection, Format::Json, games, false);
        let done = run(&inputs, work, &mut records)?;
        let mut out = records.out;
        let summary = Summary::new(done.files, done.totals, done.bytes, done.seconds);
        serde_json::to_writer(&mut out, &summary)?;
        out.write_all(b"\n")?;
        Ok(out)
    });
    let out = out.map_err(|e| crate::read_error(py, &format!("{e:#}"), "", None, None))?;
    Ok(PyBytes::new(py, &out))
}
