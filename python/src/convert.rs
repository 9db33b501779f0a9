//! `pgnkit.convert` and `Game.pgn()`: `pgnkit convert`'s work
//! ([`convert_chunk`]) on an input's chunks, written to a string or a file.

use std::io::Write;
use std::path::Path;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use pgnkit_driver::output::OutputFile;
use pgnkit_driver::{Buffers, Driver, Progress};
use pgnkit_notation::{Language, Style};
use pgnkit_pgn::write::Layout;
use pgnkit_replay::positions::PositionFormat;
use pgnkit_replay::{Detail, Options};
use pgnkit_report::Format;
use pgnkit_source::Chunk;
use pgnkit_work::convert::{Config, OutputFormat, convert_bytes, convert_chunk};

/// The settings of `pgnkit convert --to to --lang lang --format format`.
fn config(to: &str, lang: &str, format: &str, illegal_moves: &str) -> PyResult<Config> {
    let language = Language::parse(lang).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let positions = match to.trim().to_ascii_lowercase().as_str() {
        "fen" => Some((PositionFormat::Fen, false)),
        "epd" => Some((PositionFormat::Epd, false)),
        _ => None,
    };
    let style = Style::from_name(to, language)
        .or(positions.map(|_| Style::SAN))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown notation {to:?}: use one of {} fen epd",
                Style::NAMES.join(" ")
            ))
        })?;
    let format = match format {
        "pgn" => OutputFormat::Pgn,
        "text" => OutputFormat::Text,
        "line" => OutputFormat::Line,
        other => {
            return Err(PyValueError::new_err(format!(
                "format must be \"pgn\", \"text\" or \"line\", not {other:?} \
                 (pgnkit.read gives each game's data)"
            )));
        }
    };
    Ok(Config {
        style,
        options: Options {
            detail: Detail::Errors,
            ..crate::replay_options("auto", illegal_moves)?
        },
        format,
        skip_invalid: false,
        diagnostics: Format::Json,
        opening: None,
        layout: Layout::default(),
        split_variations: false,
        fen_comments: false,
        clocks: None,
        plycount: false,
        positions,
        per_game: false,
    })
}

/// `data` converted to PGN in `to`, English letters (one game's text, for
/// `Game.pgn()`).
pub fn to_text(data: &[u8], to: &str, illegal_moves: &str) -> PyResult<String> {
    let config = config(to, "en", "pgn", illegal_moves)?;
    let converted =
        convert_bytes(data, &config).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(String::from_utf8_lossy(&converted.out).into_owned())
}

/// Converts `source` as `pgnkit convert
/// --to to --lang lang --format format` does, into the file `output`
/// (written whole or not at all) or, without one, into the string returned.
#[pyfunction]
#[pyo3(signature = (source, to="san", lang="en", format="pgn", output=None, jobs=None, illegal_moves="stop"))]
#[allow(clippy::too_many_arguments)]
pub fn convert_input(
    py: Python<'_>,
    source: crate::Source,
    to: &str,
    lang: &str,
    format: &str,
    output: Option<String>,
    jobs: Option<usize>,
    illegal_moves: &str,
) -> PyResult<Option<String>> {
    let config = config(to, lang, format, illegal_moves)?;
    let input = crate::open_input(py, source)?;
    let input_name = input.name.clone();
    let converted = py.detach(|| -> anyhow::Result<Option<Vec<u8>>> {
        let buffers = Buffers::default();
        let mut file = output
            .as_deref()
            .map(|o| OutputFile::create(Path::new(o)))
            .transpose()?;
        let mut text = Vec::new();
        let work = |chunk: &Chunk| convert_chunk(chunk, &config, &buffers);
        Driver::new(jobs)?.run(input, &Progress::new(true, None), work, |_, out| {
            let out = out?;
            let mut reader = out.out.into_reader()?;
            match file.as_mut() {
                Some(f) => reader.copy_rest(f)?,
                None => reader.copy_rest(&mut text)?,
            }
            buffers.give(reader.into_buffer());
            Ok(())
        })?;
        match file {
            Some(mut f) => {
                f.flush()?;
                f.commit()?;
                Ok(None)
            }
            None => Ok(Some(text)),
        }
    });
    match converted {
        Ok(text) => Ok(text.map(|t| String::from_utf8_lossy(&t).into_owned())),
        Err(e) => Err(crate::read_error(
            py,
            &format!("{e:#}"),
            &input_name,
            None,
            None,
        )),
    }
}
