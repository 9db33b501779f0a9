//! `pgnkit diff`: compare two records of the same games (both players'
//! scoresheets).
//!
//! Games are paired by their tags, else by order
//! ([`pgnkit_diff::pairing`]). For each pair, both records are
//! replayed side by side from the start: where they name the same move
//! (however written) they agree; where they differ, the difference is
//! reported with which version is legal at that point. A merged game takes
//! the legal version wherever exactly one is; a move that one record left out
//! (the other record's next move fits there) is taken from the other. Where
//! both or neither are legal, the difference is reported and the merged game
//! stops there: nothing is guessed. The remaining differences are still
//! listed, by position in the records.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use pgnkit_diff::pairing::{Pair as Paired, pair};
use pgnkit_diff::records::{Record, compare_records, number, read_records, write_merged};
use pgnkit_driver::output::OutputFile;
use pgnkit_pgn::location::Places;
use pgnkit_pgn::write::Writer;
use pgnkit_report::Format;
use pgnkit_report::compare::{Counts, Pair, Side, write_pair, write_unpaired};
use pgnkit_source::{Compression, Input};

use crate::exit::{EXIT_OK, EXIT_PROBLEMS};
use crate::flags::DiffArgs;

/// The record as the printer of a pair sees it (`file`: its file's name;
/// `index`: the record's index in it).
fn side<'a>(
    record: &'a Record,
    file: &'a str,
    index: usize,
    places: &'a dyn Fn(Option<usize>) -> (Option<usize>, Option<usize>),
) -> Side<'a> {
    Side {
        file,
        game: number(index),
        identity: record.identity(),
        places,
    }
}

/// One file's games.
struct File<'a> {
    name: &'a str,
    bytes: &'a [u8],
    records: Vec<Record>,
}

/// Runs `pgnkit diff`.
pub fn run(args: &DiffArgs) -> anyhow::Result<u8> {
    let format = args.format.get();
    let language = args.lang.forced();
    let bytes_a = read_input(&args.a)?;
    let bytes_b = read_input(&args.b)?;
    let fa = File {
        name: &args.a,
        bytes: &bytes_a,
        records: read_records(&bytes_a, language),
    };
    let fb = File {
        name: &args.b,
        bytes: &bytes_b,
        records: read_records(&bytes_b, language),
    };
    // The pairs, as indices into the two files' records (in range: `pair`
    // pairs the records it is given).
    let mut pairing = pair(&fa.records, &fb.records);
    pairing
        .pairs
        .retain(|p| p.a < fa.records.len() && p.b < fb.records.len());
    let mut out = BufWriter::new(io::stdout().lock());
    // The merged games go straight to the output file, pair after pair.
    let mut merged_out = match &args.output {
        Some(path) => Some(OutputFile::create(Path::new(path))?),
        None => None,
    };
    let mut merged = Vec::new();
    let mut writer = Writer::new();
    let mut counts = Counts::default();
    // Lines and columns of the differences, found as they are printed
    // (pairs by tags may visit B's games in any order).
    let (places_a, places_b) = (Places::new(fa.bytes), Places::new(fb.bytes));
    let at_a = |o| places_a.line_col(o);
    let at_b = |o| places_b.line_col(o);
    // Each pair is compared, printed and merged, then forgotten: memory
    // holds the two files and their records, not every comparison.
    for &Paired { a: i, b: j, by } in &pairing.pairs {
        let (ra, rb) = (&fa.records[i], &fb.records[j]);
        let compared = compare_records((fa.bytes, ra), (fb.bytes, rb));
        let (c, style) = &compared;
        counts.add(c);
        let pair = Pair {
            a: side(ra, fa.name, i, &at_a),
            b: side(rb, fb.name, j, &at_b),
            by,
            comparison: c,
            start: &ra.start(),
            style: *style,
        };
        write_pair(&mut out, format, &pair)?;
        if let Some(file) = merged_out.as_mut() {
            merged.clear();
            write_merged(ra, fa.bytes, &compared, &mut writer, &mut merged);
            file.write_all(&merged)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.path().display()))?;
        }
    }
    counts.unpaired = pairing.unpaired_a.len() + pairing.unpaired_b.len();
    for &i in &pairing.unpaired_a {
        write_unpaired(&mut out, format, fa.name, number(i))?;
    }
    for &j in &pairing.unpaired_b {
        write_unpaired(&mut out, format, fb.name, number(j))?;
    }
    if format == Format::Json {
        counts.write_summary(&mut out)?;
    }
    out.flush()?;
    if let Some(file) = merged_out {
        file.commit()?;
    }
    if !args.quiet.quiet && format != Format::Json {
        eprintln!("{}", counts.line());
    }
    Ok(if counts.differences > 0 || counts.unpaired > 0 {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// The whole of one input, read as every command reads it: a file, `-` for
/// standard input, or a compressed file (zstd, gzip, bzip2); binary data
/// is refused there ([`pgnkit_source::binary_at`]).
fn read_input(name: &str) -> anyhow::Result<Vec<u8>> {
    let input = Input::open(name)?;
    // A plain file's size is known: no buffer grown by doubling.
    let exact = (input.compression == Compression::None)
        .then_some(input.len)
        .flatten();
    let mut bytes = Vec::with_capacity(exact.map_or(0, |n| usize::try_from(n).unwrap_or(0)));
    for chunk in input.chunks(1 << 22) {
        let chunk = chunk?;
        bytes.extend_from_slice(chunk.bytes());
        // The mapped pages are copied: the system may take them back.
        chunk.release();
    }
    Ok(bytes)
}
