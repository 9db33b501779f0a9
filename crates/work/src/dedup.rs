//! `dedup`'s work: every game of every input replayed once into a
//! [`GameRecord`], handed to a [`Deduper`] (or, to find prefixes, a
//! [`PrefixDeduper`], which reads the inputs twice), which sorts the
//! records in a memory budget (spilling sorted runs to temporary files
//! beyond it) and forms the clusters; then, if asked, the games copied
//! byte for byte to the file of the kept games or of the duplicates.
//! The known databases (`--against`) are read from their index when they
//! have a fresh one.

use std::io::Write;
use std::path::Path;

use anyhow::bail;
use pgnkit_dedup::GameRecord;
use pgnkit_dedup::bounded::{Deduper, Found};
use pgnkit_dedup::cluster::Options as Kinds;
use pgnkit_dedup::prefix::PrefixDeduper;
use pgnkit_driver::output::OutputFile;
use pgnkit_driver::{Driver, Progress};
use pgnkit_index::{Fingerprint, Index, index_path};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};
use pgnkit_source::{CHUNK_SIZE, Chunk, Input};

/// A search for duplicates: the inputs, what counts as a duplicate, and
/// how the games are read.
pub struct Dedup<'a> {
    /// The inputs as given (in the report): the known databases first.
    pub names: &'a [String],
    /// Where to read each of them (standard input: its copy in a file,
    /// when the inputs are read more than once).
    pub paths: &'a [String],
    /// How many of the inputs are known databases (`--against`).
    pub against: usize,
    /// The kinds of duplicates looked for.
    pub kinds: Kinds,
    /// How the games are replayed.
    pub options: Options,
    /// The memory of the records, beyond which sorted runs are spilled.
    pub budget: u64,
    /// Where the sorted runs go.
    pub dir: &'a Path,
    /// No progress bar.
    pub quiet: bool,
}

impl Dedup<'_> {
    /// The clusters of duplicates, and the games read in each input.
    ///
    /// # Errors
    /// An input or a known database that cannot be read, and the errors of
    /// the temporary files.
    pub fn find(&self, driver: &Driver) -> anyhow::Result<(Found, Vec<u64>)> {
        let mut games_in: Vec<u64> = vec![0; self.names.len()];
        let found = if self.kinds.prefix {
            for name in self.names.iter().take(self.against) {
                known_index(name, false)?;
            }
            self.with_prefixes(driver, &mut games_in)?
        } else {
            let depth = self.kinds.fuzzy_depth;
            let mut deduper = Deduper::new(&self.kinds, self.budget, self.dir);
            let work = |chunk: &Chunk| records_of(chunk, &self.options, depth);
            for (i, name) in self.names.iter().enumerate() {
                let file = u32::try_from(i)?;
                if i < self.against
                    && let Some(index) = known_index(name, depth.is_none())?
                {
                    // Both tables the records come from, as `search` checks them.
                    index
                        .verify_games()
                        .and_then(|()| index.verify_strings())
                        .map_err(|e| anyhow::anyhow!("{e}: rebuild it with `pgnkit index`"))?;
                    for n in 0..u32::try_from(index.games())? {
                        let mut r = GameRecord::of_facts(&index.game(n).facts());
                        number(&mut r, file, &mut games_in, self.against);
                        deduper.push(r)?;
                    }
                    continue;
                }
                let one = std::slice::from_ref(&self.paths[i]);
                read_all(one, i, driver, self.quiet, work, |file, _, batch| {
                    for mut r in batch {
                        number(&mut r, file, &mut games_in, self.against);
                        deduper.push(r)?;
                    }
                    Ok(())
                })?;
            }
            deduper.finish()?
        };
        Ok((found, games_in))
    }

    /// The clusters with `--prefix`, in the `--memory` budget
    /// ([`PrefixDeduper`]): the inputs are read and replayed twice, the second
    /// time for the prefixes of each game's line that may be a kept game's.
    fn with_prefixes(&self, driver: &Driver, games_in: &mut [u64]) -> anyhow::Result<Found> {
        let (names, options) = (self.paths, &self.options);
        let depth = self.kinds.fuzzy_depth;
        let mut deduper = PrefixDeduper::new(&self.kinds, self.budget, self.dir);
        let work = |chunk: &Chunk| records_of(chunk, options, depth);
        read_all(names, 0, driver, self.quiet, work, |file, _, batch| {
            for mut r in batch {
                number(&mut r, file, games_in, self.against);
                deduper.push(r)?;
            }
            Ok(())
        })?;
        let (mut grouped, lines) = deduper.group()?;
        let lines = &lines;
        let work = |chunk: &Chunk| {
            replayed(chunk, options, |data, game, report| {
                let r = GameRecord::new(data, chunk.base, game, report, None);
                (lines.prefixes(&report.keys), r.plies, r.tags)
            })
        };
        read_all(names, 0, driver, true, work, |_, _, found| {
            for (prefixes, plies, tags) in found {
                grouped.push(&prefixes, plies, &tags)?;
            }
            Ok(())
        })?;
        Ok(grouped.finish()?)
    }

    /// Copies every game of the inputs (not the known ones) to `-o` when it is
    /// kept or has no duplicate, else to `--duplicates`: the games are
    /// numbered as they were read, and the duplicates' numbers come sorted.
    ///
    /// # Errors
    /// Those of reading the inputs and of writing the files.
    pub fn write_games(
        &self,
        found: &Found,
        games_in: &[u64],
        output: Option<&str>,
        duplicates_to: Option<&str>,
    ) -> anyhow::Result<()> {
        let mut duplicates = found.duplicates.reader()?;
        let mut next_duplicate = duplicates.next()?.map(|d| d.0);
        let open = |p: Option<&str>| p.map(|p| OutputFile::create(Path::new(p))).transpose();
        let (mut unique, mut dups) = (open(output)?, open(duplicates_to)?);
        let mut index: u64 = games_in.iter().take(self.against).sum();
        for name in self.paths.iter().skip(self.against) {
            let input = Input::open(name)?;
            for chunk in input.chunks(CHUNK_SIZE) {
                let chunk = chunk?;
                let data: &[u8] = &chunk.data;
                let mut reader = Reader::with_range(data, chunk.range.clone());
                let mut game = Game::default();
                while reader.read_game(&mut game) {
                    if game.is_comment_only() {
                        continue;
                    }
                    while next_duplicate.is_some_and(|d| d < index) {
                        next_duplicate = duplicates.next()?.map(|d| d.0);
                    }
                    let to = if next_duplicate == Some(index) {
                        dups.as_mut()
                    } else {
                        unique.as_mut()
                    };
                    index += 1;
                    if let Some(out) = to {
                        out.write_all(data.get(game.span.clone()).unwrap_or_default())?;
                        out.write_all(b"\n\n")?;
                    }
                }
                chunk.release();
            }
        }
        for out in [unique, dups].into_iter().flatten() {
            out.commit()?;
        }
        Ok(())
    }
}

/// The games of one chunk, each replayed once: (its index in the chunk, record).
fn records_of(chunk: &Chunk, options: &Options, depth: Option<u32>) -> Vec<GameRecord> {
    replayed(chunk, options, |data, game, report| {
        GameRecord::new(data, chunk.base, game, report, depth)
    })
}

/// `f` of each game of `chunk` (`%` lines and lone comments between games
/// are none), replayed, in order.
fn replayed<T>(
    chunk: &Chunk,
    options: &Options,
    mut f: impl FnMut(&[u8], &Game<'_>, &pgnkit_replay::GameReport) -> T,
) -> Vec<T> {
    let data: &[u8] = &chunk.data;
    let mut reader = Reader::with_range(data, chunk.range.clone());
    let mut game = Game::default();
    let mut out = Vec::new();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let report = replay_game(data, &game, options);
        out.push(f(data, &game, &report));
    }
    out
}

/// Calls `each` with every chunk of every input of `names` (`first`: the
/// number of the first), in order, with the work's result.
fn read_all<T: Send>(
    names: &[String],
    first: usize,
    driver: &Driver,
    quiet: bool,
    work: impl Fn(&Chunk) -> T + Sync,
    mut each: impl FnMut(u32, &Chunk, T) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for (i, name) in names.iter().enumerate() {
        let file = u32::try_from(first + i)?;
        let input = Input::open(name)?;
        let progress = Progress::new(quiet, input.len);
        driver.run(input, &progress, &work, |chunk, t| each(file, chunk, t))?;
        progress.finish();
    }
    Ok(())
}

/// The index to read the known games of `name` from: `name` itself when
/// it is a `.pgnkit-index` (refused when it cannot be used, or when
/// `usable` is false: `--fuzzy-depth` and `--prefix` need the games'
/// positions), else the index beside the PGN file `name` when there is a
/// fresh one and `usable`.
fn known_index(name: &str, usable: bool) -> anyhow::Result<Option<Index>> {
    let Some(pgn) = name.strip_suffix(".pgnkit-index") else {
        if !usable || name == "-" {
            return Ok(None);
        }
        let pgn = Path::new(name);
        let Ok(now) = Fingerprint::of(pgn) else {
            return Ok(None);
        };
        return Ok(Index::open(&index_path(pgn), pgn, &now).ok());
    };
    if !usable {
        bail!(
            "--against `{name}`: --fuzzy-depth and --prefix need the positions of the known games: give its PGN file"
        );
    }
    let pgn = Path::new(pgn);
    let now = Fingerprint::of(pgn).map_err(|e| {
        anyhow::anyhow!(
            "cannot read `{}`, the PGN file of the index `{name}`: {e}",
            pgn.display()
        )
    })?;
    match Index::open(Path::new(name), pgn, &now) {
        Ok(index) => Ok(Some(index)),
        Err(e) => bail!("{e}\nrebuild it with `pgnkit index {}`", pgn.display()),
    }
}

/// Numbers the record of the next game of input `file` (its games counted
/// in `games_in`; the first `against` inputs are the known databases).
fn number(r: &mut GameRecord, file: u32, games_in: &mut [u64], against: usize) {
    if let Some(n) = games_in.get_mut(file as usize) {
        *n = n.saturating_add(1);
        r.source.game = *n;
    }
    r.source.file = file;
    r.known = (file as usize) < against;
}
