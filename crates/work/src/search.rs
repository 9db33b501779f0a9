//! `search`'s work: the games a [`Query`] selects, found by the index of
//! the file or by a scan of it (every game read, in parallel, like `check`,
//! and tested by the same query the index answers, replayed only when a
//! filter, the order or the output needs it), printed by
//! [`pgnkit_report::search`].
//!
//! With an order, a scan keeps the matches (their bytes, or their facts
//! for JSON) until the end of the file, then sorts them: index the file to
//! sort very large results in bounded memory.

use std::fs::File;
use std::path::Path;

use anyhow::{Context, bail};
use pgnkit_atomic::Mapped;
use pgnkit_driver::{Driver, Progress};
use pgnkit_index::order::{Order, SortKey};
use pgnkit_index::scan::{Keep, scan};
use pgnkit_index::{GameFacts, Index, Query};
use pgnkit_notation::Language;
use pgnkit_replay::{Detail, IllegalMoves, Options};
use pgnkit_report::search::{GameRecord, Output, Printer};
use pgnkit_source::Input;

/// A search: what it selects, how the games are replayed, and which of
/// the matches are printed.
pub struct Search<'a> {
    /// The filters.
    pub query: &'a Query,
    /// How games are replayed when a filter reads them ([`options`]).
    pub options: Options,
    /// The order of the matches (none: file order).
    pub order: Option<Order>,
    /// Matches skipped (after sorting).
    pub offset: u64,
    /// The most matches printed.
    pub limit: Option<u64>,
    /// Worker threads of a scan (none: one a core).
    pub jobs: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
}

/// The replay options of a search with `language` forced (none: detected
/// per game) and illegal moves treated as `illegal` says: those of the index ([`crate::index::options`]), with the
/// draw claims kept when a filter of `query` asks for them.
pub fn options(language: Option<Language>, illegal: IllegalMoves, query: &Query) -> Options {
    let mut options = crate::index::options(language, illegal);
    if query.needs_claims() {
        options.detail = Detail::Full;
    }
    options
}

/// The bytes of game `g` of `index` in the mapped PGN file.
fn game_bytes<'m>(index: &Index, map: &'m [u8], file: &str, g: u32) -> anyhow::Result<&'m [u8]> {
    let entry = index.game(g);
    let start = usize::try_from(entry.offset()).unwrap_or(usize::MAX);
    let end = start.saturating_add(entry.length() as usize);
    match map.get(start..end) {
        Some(bytes) => Ok(bytes),
        None => bail!(
            "the index of `{file}` points past its end (game {}); rebuild it with `pgnkit index {file}`",
            u64::from(g) + 1
        ),
    }
}

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

impl Search<'_> {
    /// Searches the PGN file `pgn` with its `index`: prints the games the
    /// query selects (after the offset, at most the limit, in the order) with
    /// `printer`, and the others with `rest` (`--non-matching`).
    ///
    /// # Errors
    /// Those of the index ([`pgnkit_index::IndexError`], which the caller
    /// may tell apart), of reading the PGN file and of writing.
    pub fn with_index(
        &self,
        index: &Index,
        pgn: &Path,
        printer: &mut Printer<'_>,
        rest: Option<&mut Printer<'_>>,
    ) -> anyhow::Result<()> {
        let query = self.query;
        let file = pgn.to_string_lossy();
        let output = printer.output();
        let needs_map = output == Output::Pgn || rest.is_some() || query.needs_game();
        let map = if needs_map && index.games() > 0 {
            let f = File::open(pgn).with_context(|| format!("cannot read `{file}`"))?;
            // Only the pages of the games read are touched; a truncation by
            // another program meanwhile is reported by name (see `Mapped`).
            let map = Mapped::new(&f, &file).with_context(|| format!("cannot map `{file}`"))?;
            Some(map)
        } else {
            None
        };
        let map: &[u8] = map.as_deref().unwrap_or_default();
        let early = self.order.is_none() && rest.is_none();
        let limit = self
            .limit
            .filter(|_| early)
            .map(|l| l.saturating_add(self.offset));
        let mut found = index.search_query(query, Some(map), &self.options, limit)?;
        if let Some(r) = rest {
            index.verify_games()?;
            let mut next = found.iter().copied().peekable();
            for g in 0..index.games() as u32 {
                if next.peek() == Some(&g) {
                    next.next();
                } else {
                    r.pgn(game_bytes(index, map, &file, g)?)?;
                }
            }
        }
        if let Some(order) = self.order {
            index.verify_games()?;
            index.verify_strings()?;
            found.sort_by_cached_key(|&g| (order.key(&index.game(g).facts()), g));
        }
        let selected = found
            .into_iter()
            .skip(usize::try_from(self.offset).unwrap_or(usize::MAX))
            .take(usize::try_from(self.limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX));
        match output {
            Output::Count => printer.count(selected.count() as u64),
            Output::Json => {
                index.verify_games()?;
                index.verify_strings()?;
                for g in selected {
                    let facts = index.game(g).facts();
                    printer.json(&GameRecord::from_facts(&file, u64::from(g) + 1, &facts))?;
                }
            }
            Output::Pgn => {
                index.verify_games()?;
                for g in selected {
                    printer.pgn(game_bytes(index, map, &file, g)?)?;
                }
            }
        }
        Ok(())
    }

    /// Scans `file` (every game read, in parallel) for the games the query
    /// selects: prints them (after the offset, at most the limit, in the
    /// order) with `printer`, and the others with `rest` (`--non-matching`).
    ///
    /// # Errors
    /// Those of reading `file` and of writing.
    pub fn scan(
        &self,
        file: &str,
        printer: &mut Printer<'_>,
        mut rest: Option<&mut Printer<'_>>,
    ) -> anyhow::Result<()> {
        let query = self.query;
        let limit = self.limit.unwrap_or(u64::MAX);
        if limit == 0 && rest.is_none() {
            return Ok(());
        }
        let input = Input::open(file)?;
        let name = input.name.clone();
        let progress = Progress::new(self.quiet, input.len);
        let driver = Driver::new(self.jobs)?;
        let options = &self.options;
        let json = printer.output() == Output::Json;
        let keep = Keep {
            facts: json,
            order: self.order,
            misses: rest.is_some(),
        };
        let stop_early = self.order.is_none() && rest.is_none();
        let mut games_before = 0u64;
        let mut selected = 0u64;
        let mut kept: Vec<Kept> = Vec::new();
        let result = driver.run(
            input,
            &progress,
            |chunk| {
                let data: &[u8] = &chunk.data;
                scan(data, chunk.range.clone(), chunk.base, query, options, keep)
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
                    if selected <= self.offset || selected - self.offset > limit {
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
        let skip = usize::try_from(self.offset).unwrap_or(usize::MAX);
        let take = usize::try_from(limit).unwrap_or(usize::MAX);
        for k in kept.into_iter().skip(skip).take(take) {
            match &k.facts {
                Some(f) => printer.json(&GameRecord::from_facts(&name, k.number, f))?,
                None => printer.pgn(&k.bytes)?,
            }
        }
        Ok(())
    }
}
