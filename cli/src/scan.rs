//! `pgnkit search` without an index: every game is read (in parallel, like
//! `check`) and tested by the same [`Query`] the index answers, replayed
//! only when a filter, the order or the output needs it.
//!
//! With `--sort`, the matches are kept (their bytes, or their facts for
//! JSON) until the end of the file, then sorted: index the file to sort
//! very large results in bounded memory.

use pgnkit_index::GameFacts;
use pgnkit_index::Query;
use pgnkit_index::order::SortKey;
use pgnkit_index::scan::{Keep, scan};
use pgnkit_report::search::{GameRecord, Output, Printer};

use crate::input::Input;
use crate::search::{SearchArgs, search_options};
use pgnkit_driver::{Driver, Progress};

/// The scan stopped because `--limit` was reached.
#[derive(Debug)]
struct LimitReached;

impl std::fmt::Display for LimitReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("limit reached")
    }
}

impl std::error::Error for LimitReached {}

/// A match kept for sorting: its key, number, and what is printed.
struct Kept {
    key: SortKey,
    number: u64,
    bytes: Vec<u8>,
    facts: Option<GameFacts<'static>>,
}

/// Scans `args.file` for the games `query` selects: prints them (after
/// `--offset`, at most `--limit`, in `--sort` order) with `printer`, and
/// the others with `rest` (`--non-matching`).
pub fn search_scan(
    args: &SearchArgs,
    query: &Query,
    printer: &mut Printer<'_>,
    mut rest: Option<&mut Printer<'_>>,
) -> anyhow::Result<()> {
    let limit = args.limit.unwrap_or(u64::MAX);
    if limit == 0 && rest.is_none() {
        return Ok(());
    }
    let input = Input::open(&args.file)?;
    let name = input.name.clone();
    let progress = Progress::new(args.quiet, input.len);
    let driver = Driver::new(args.jobs)?;
    let options = search_options(args, query);
    let json = printer.output() == Output::Json;
    let keep = Keep {
        facts: json,
        order: args.sort,
        misses: rest.is_some(),
    };
    let stop_early = args.sort.is_none() && rest.is_none();
    let mut games_before = 0u64;
    let mut selected = 0u64;
    let mut kept: Vec<Kept> = Vec::new();
    let result = driver.run(
        input,
        &progress,
        |chunk| {
            let data: &[u8] = &chunk.data;
            scan(data, chunk.range.clone(), chunk.base, query, &options, keep)
        },
        |chunk, found| {
            if let Some(r) = rest.as_deref_mut() {
                for span in found.misses {
                    r.pgn(chunk.data.get(span).unwrap_or_default())?;
                }
            }
            for hit in found.hits {
                let number = games_before + hit.index + 1;
                let bytes = chunk.data.get(hit.span).unwrap_or_default();
                if let Some(key) = hit.key {
                    kept.push(Kept {
                        key,
                        number,
                        bytes: if json { Vec::new() } else { bytes.to_vec() },
                        facts: hit.facts,
                    });
                    continue;
                }
                selected += 1;
                if selected <= args.offset || selected - args.offset > limit {
                    continue;
                }
                match &hit.facts {
                    Some(f) => printer.json(&GameRecord::from_facts(&name, number, f))?,
                    None => printer.pgn(bytes)?,
                }
                if stop_early && printer.matched() >= limit {
                    return Err(LimitReached.into());
                }
            }
            games_before += found.games;
            progress.games(games_before);
            Ok(())
        },
    );
    progress.finish();
    match result {
        Err(e) if e.is::<LimitReached>() => {}
        other => other?,
    }
    kept.sort_by(|a, b| (&a.key, a.number).cmp(&(&b.key, b.number)));
    let skip = usize::try_from(args.offset).unwrap_or(usize::MAX);
    let take = usize::try_from(limit).unwrap_or(usize::MAX);
    for k in kept.into_iter().skip(skip).take(take) {
        match &k.facts {
            Some(f) => printer.json(&GameRecord::from_facts(&name, k.number, f))?,
            None => printer.pgn(&k.bytes)?,
        }
    }
    Ok(())
}
