//! Reading an index through a memory map: checks on open, game records and
//! names where they lie, position keys by binary search.

use std::borrow::Cow;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use pgnkit_atomic::Mapped;
use pgnkit_facts::{Date, Eco, GameFacts, TextTag};
use pgnkit_opening::Opening;
use pgnkit_pgn::{Game, GameResult, Reader};
use pgnkit_replay::{Options, Status, replay_game};
use rayon::prelude::*;

use crate::filter::{Filter, Query, Slot, Subject};
use crate::fingerprint::Fingerprint;
use crate::layout::{
    self, GAME_SIZE, HEADER_SIZE, MAGIC, POSITION_SIZE, VERSION, crc, header, status_of, u16_at,
    u32_at, u64_at,
};
use crate::needle::Needle;

/// Why an index cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// There is no index file.
    #[error("there is no index `{}`", .0.display())]
    Missing(PathBuf),
    /// The file is not an index, or not one this version reads.
    #[error("`{}` is not a pgnkit index{}", .path.display(), .detail)]
    NotAnIndex {
        /// The file.
        path: PathBuf,
        /// What was found.
        detail: String,
    },
    /// The index is truncated or its checksums do not match.
    #[error("the index `{}` is corrupted: {}", .path.display(), .detail)]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// The PGN file changed since it was indexed.
    #[error("the index `{}` is stale: `{}` changed since it was indexed ({})", .path.display(), .pgn.display(), .detail)]
    Stale {
        /// The index file.
        path: PathBuf,
        /// The PGN file.
        pgn: PathBuf,
        /// What changed.
        detail: String,
    },
    /// Reading failed.
    #[error("cannot read the index `{}`: {}", .path.display(), .error)]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: io::Error,
    },
}

/// An open index.
pub struct Index {
    path: PathBuf,
    map: Mapped,
    games: u64,
    strings: u64,
    positions: u64,
    bits: u32,
    games_at: usize,
    strings_at: usize,
    data_at: usize,
    positions_at: usize,
    directory_at: usize,
    games_ok: OnceLock<bool>,
    strings_ok: OnceLock<bool>,
    directory_ok: OnceLock<bool>,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("path", &self.path)
            .field("games", &self.games)
            .field("strings", &self.strings)
            .field("positions", &self.positions)
            .finish()
    }
}

/// The name of the index of `pgn`: `FILE.pgnkit-index` beside it.
pub fn index_path(pgn: &Path) -> PathBuf {
    let mut name = pgn.as_os_str().to_owned();
    name.push(".pgnkit-index");
    PathBuf::from(name)
}

impl Index {
    /// Opens the index at `path` for the PGN file at `pgn`, whose
    /// fingerprint is now `now`. Refuses a file that is no index, a
    /// truncated or corrupted header, and a stale index.
    pub fn open(path: &Path, pgn: &Path, now: &Fingerprint) -> Result<Index, IndexError> {
        let io_err = |error: io::Error| IndexError::Io {
            path: path.to_owned(),
            error,
        };
        // Opened without waiting (a named pipe at the index's name would
        // block an open for reading until a writer came) and used only if it
        // is a regular file.
        let file = match pgnkit_atomic::open_regular(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(IndexError::Missing(path.to_owned()));
            }
            Err(e) if e.kind() == io::ErrorKind::InvalidInput => {
                return Err(IndexError::NotAnIndex {
                    path: path.to_owned(),
                    detail: ": it is not a regular file".to_owned(),
                });
            }
            Err(e) => return Err(io_err(e)),
        };
        // Another process that truncates the index while it is mapped is
        // reported by name (see `Mapped`); pgnkit itself only ever replaces
        // an index by renaming a new file over it, which leaves this mapping
        // intact.
        let map = Mapped::new(&file, &path.to_string_lossy()).map_err(io_err)?;
        let corrupt = |detail: String| IndexError::Corrupt {
            path: path.to_owned(),
            detail,
        };
        if map.len() < 12 || map[..8] != MAGIC {
            return Err(IndexError::NotAnIndex {
                path: path.to_owned(),
                detail: String::new(),
            });
        }
        let version = u32_at(&map, header::VERSION);
        if version != VERSION {
            return Err(IndexError::NotAnIndex {
                path: path.to_owned(),
                detail: format!(
                    " of version {VERSION}: it is of version {version}, written by another \
                     pgnkit; rebuild it with `pgnkit index`"
                ),
            });
        }
        if map.len() < HEADER_SIZE {
            return Err(corrupt(format!("it is truncated ({} bytes)", map.len())));
        }
        if crc(&map[..header::HEADER_CRC]) != u32_at(&map, header::HEADER_CRC) {
            return Err(corrupt("the header checksum does not match".to_owned()));
        }
        let openings = u32_at(&map, header::OPENINGS);
        if openings != pgnkit_opening::table_digest() {
            return Err(IndexError::NotAnIndex {
                path: path.to_owned(),
                detail: format!(
                    " with this pgnkit's opening table: its games were named with another \
                     (digest {openings:08x}); rebuild it with `pgnkit index`"
                ),
            });
        }
        let size = u64_at(&map, header::FILE_SIZE);
        if size != map.len() as u64 {
            return Err(corrupt(format!(
                "it has {} bytes where it should have {size} (truncated or appended to)",
                map.len()
            )));
        }
        let games = u64_at(&map, header::GAMES);
        let strings = u64_at(&map, header::STRINGS);
        let positions = u64_at(&map, header::POSITIONS);
        let bits = u32_at(&map, header::BUCKET_BITS);
        let at = |field: usize| usize::try_from(u64_at(&map, field)).unwrap_or(usize::MAX);
        let index = Index {
            path: path.to_owned(),
            games,
            strings,
            positions,
            bits,
            games_at: at(header::GAMES_AT),
            strings_at: at(header::STRINGS_AT),
            data_at: at(header::STRING_DATA_AT),
            positions_at: at(header::POSITIONS_AT),
            directory_at: at(header::DIRECTORY_AT),
            games_ok: OnceLock::new(),
            strings_ok: OnceLock::new(),
            directory_ok: OnceLock::new(),
            map,
        };
        let len = index.map.len() as u128;
        let fits = |start: usize, bytes: u128| (start as u128) + bytes <= len;
        let buckets = 1u128 << bits.min(layout::MAX_BUCKET_BITS);
        if bits > layout::MAX_BUCKET_BITS
            || !fits(index.games_at, u128::from(games) * GAME_SIZE as u128)
            || !fits(index.strings_at, (u128::from(strings) + 1) * 8)
            || !fits(
                index.positions_at,
                u128::from(positions) * POSITION_SIZE as u128,
            )
            || !fits(index.directory_at, (buckets + 1) * 8 + buckets * 4)
            || games > u64::from(u32::MAX)
        {
            return Err(corrupt("its sections do not fit in the file".to_owned()));
        }
        let indexed = Fingerprint {
            size: u64_at(&index.map, header::PGN_SIZE),
            mtime_secs: u64_at(&index.map, header::PGN_MTIME_SECS) as i64,
            mtime_nanos: u32_at(&index.map, header::PGN_MTIME_NANOS),
            head_crc: u32_at(&index.map, header::PGN_HEAD_CRC),
            tail_crc: u32_at(&index.map, header::PGN_TAIL_CRC),
        };
        if let Some(detail) = now.difference(&indexed) {
            return Err(IndexError::Stale {
                path: path.to_owned(),
                pgn: pgn.to_owned(),
                detail,
            });
        }
        Ok(index)
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Number of strings in the name table (a name may be stored more than
    /// once: see [`NAME_CACHE`](crate::writer::NAME_CACHE)).
    pub fn strings(&self) -> u64 {
        self.strings
    }

    /// Number of (position, game) pairs.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    fn check(
        &self,
        cell: &OnceLock<bool>,
        range: std::ops::Range<usize>,
        crc_field: usize,
        what: &str,
    ) -> Result<(), IndexError> {
        let ok = *cell.get_or_init(|| {
            self.map
                .get(range)
                .is_some_and(|b| crc(b) == u32_at(&self.map, crc_field))
        });
        if ok {
            Ok(())
        } else {
            Err(IndexError::Corrupt {
                path: self.path.clone(),
                detail: format!("the checksum of the {what} does not match"),
            })
        }
    }

    /// Checks the game table's checksum (once).
    pub fn verify_games(&self) -> Result<(), IndexError> {
        let end = self.games_at + self.games as usize * GAME_SIZE;
        self.check(
            &self.games_ok,
            self.games_at..end,
            header::GAMES_CRC,
            "game table",
        )
    }

    /// Checks the name table's checksum (once).
    pub fn verify_strings(&self) -> Result<(), IndexError> {
        let end = u64_at(&self.map, self.strings_at + self.strings as usize * 8) as usize;
        let end = self.data_at.saturating_add(end);
        if end > self.map.len() || self.data_at != self.strings_at + (self.strings as usize + 1) * 8
        {
            return Err(IndexError::Corrupt {
                path: self.path.clone(),
                detail: "the name table does not fit in the file".to_owned(),
            });
        }
        self.check(
            &self.strings_ok,
            self.strings_at..end,
            header::STRINGS_CRC,
            "name table",
        )
    }

    fn directory_len(&self) -> usize {
        let buckets = 1usize << self.bits;
        (buckets + 1) * 8 + buckets * 4
    }

    /// Checks the bucket directory's checksum (once).
    pub fn verify_directory(&self) -> Result<(), IndexError> {
        let end = self.directory_at + self.directory_len();
        self.check(
            &self.directory_ok,
            self.directory_at..end,
            header::DIRECTORY_CRC,
            "position directory",
        )
    }

    /// Game `n` (0-based). Call [`Index::verify_games`] first to trust it.
    pub fn game(&self, n: u32) -> GameEntry<'_> {
        let at = self.games_at + n as usize * GAME_SIZE;
        GameEntry {
            index: self,
            bytes: self
                .map
                .get(at..at + GAME_SIZE)
                .unwrap_or(&[0u8; GAME_SIZE]),
        }
    }

    /// String `id` of the name table (empty when out of range or not
    /// UTF-8). Call [`Index::verify_strings`] first to trust it.
    pub fn string(&self, id: u32) -> &str {
        if u64::from(id) >= self.strings {
            return "";
        }
        let off = |i: u64| u64_at(&self.map, self.strings_at + i as usize * 8) as usize;
        let (a, b) = (off(u64::from(id)), off(u64::from(id) + 1));
        self.map
            .get(self.data_at.saturating_add(a)..self.data_at.saturating_add(b))
            .and_then(|s| std::str::from_utf8(s).ok())
            .unwrap_or("")
    }

    /// The games (0-based, ascending) whose main line contains the
    /// position with Zobrist key `key`.
    pub fn games_with_position(&self, key: u64) -> Result<Vec<u32>, IndexError> {
        self.verify_directory()?;
        let bucket = layout::bucket(key, self.bits);
        let dir = |i: usize| u64_at(&self.map, self.directory_at + i * 8) as usize;
        let (start, end) = (dir(bucket), dir(bucket + 1));
        let corrupt = |detail: &str| IndexError::Corrupt {
            path: self.path.clone(),
            detail: detail.to_owned(),
        };
        if start > end || end as u64 > self.positions {
            return Err(corrupt("the position directory is inconsistent"));
        }
        let bytes = self
            .map
            .get(self.positions_at + start * POSITION_SIZE..self.positions_at + end * POSITION_SIZE)
            .ok_or_else(|| corrupt("the position table is truncated"))?;
        let crcs_at = self.directory_at + ((1usize << self.bits) + 1) * 8;
        if crc(bytes) != u32_at(&self.map, crcs_at + bucket * 4) {
            return Err(corrupt("the checksum of a position bucket does not match"));
        }
        let want = layout::key_bits(key, self.bits);
        let n = bytes.len() / POSITION_SIZE;
        let bits_of = |i: usize| u32_at(bytes, i * POSITION_SIZE);
        // partition_point over the sorted key bits.
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if bits_of(mid) < want {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut games = Vec::new();
        let mut i = lo;
        while i < n && bits_of(i) == want {
            let g = u32_at(bytes, i * POSITION_SIZE + 4);
            if u64::from(g) < self.games && games.last() != Some(&g) {
                games.push(g);
            }
            i += 1;
        }
        Ok(games)
    }

    /// The games (0-based, in file order) that pass `filter`, at most
    /// `limit` of them: [`Index::search_query`] of the one filter, without
    /// the PGN file (a filter with a [`Probe`](crate::Probe) to test then
    /// matches nothing).
    pub fn search(&self, filter: &Filter, limit: Option<u64>) -> Result<Vec<u32>, IndexError> {
        self.search_query(&Query::of(filter.clone()), None, &Options::default(), limit)
    }

    /// The games (0-based, in file order) that `query` matches, at most
    /// `limit` of them. The index answers the stored filters; a group
    /// that tests the game itself ([`Query::needs_game`]) reads the games
    /// that pass the rest of it from `pgn`, the PGN file's bytes, and
    /// replays them with `options` where needed (with `pgn` `None`, such a
    /// group matches nothing).
    pub fn search_query(
        &self,
        query: &Query,
        pgn: Option<&[u8]>,
        options: &Options,
        limit: Option<u64>,
    ) -> Result<Vec<u32>, IndexError> {
        let limit = limit.unwrap_or(u64::MAX);
        let mut found = Vec::new();
        if limit == 0 {
            return Ok(found);
        }
        let stored = query
            .groups
            .iter()
            .any(|g| g.has_tag_filters() || !g.probe.is_empty());
        if stored || query.invert {
            self.verify_games()?;
        }
        let names = query.groups.iter().any(|f| {
            f.white.is_some()
                || f.black.is_some()
                || f.player.is_some()
                || f.event.is_some()
                || f.site.is_some()
                || f.round.is_some()
        });
        if names {
            self.verify_strings()?;
        }
        let mut with_position: Vec<Vec<u32>> = Vec::with_capacity(query.groups.len());
        for g in &query.groups {
            with_position.push(match g.position {
                Some(key) => self.games_with_position(key)?,
                None => Vec::new(),
            });
        }
        // Without inversion, a query whose every group has a position can
        // only match the games that have one of them.
        let candidates: Option<Vec<u32>> = (!query.invert
            && !query.groups.is_empty()
            && query.groups.iter().all(|g| g.position.is_some()))
        .then(|| {
            let mut all: Vec<u32> = with_position.iter().flatten().copied().collect();
            all.sort_unstable();
            all.dedup();
            all
        });
        let mut memo = Memo::new(self.strings as usize);
        let all: Box<dyn Iterator<Item = u32>> = match candidates {
            Some(list) => Box::new(list.into_iter()),
            None => Box::new(0..self.games as u32),
        };
        let mut all = all.peekable();
        // In blocks: the stored filters from the index, in order; then the
        // games whose answer needs their probes, read and tested in parallel.
        while all.peek().is_some() && (found.len() as u64) < limit {
            let mut block: Vec<(u32, Option<bool>, u64)> = Vec::with_capacity(PROBE_BLOCK);
            for n in all.by_ref().take(PROBE_BLOCK) {
                let mut subject = Tested {
                    game: self.game(n),
                    memo: &mut memo,
                    group: 0,
                };
                let passing = query.passing(&mut subject, |i, _| {
                    with_position[i].binary_search(&n).is_ok()
                });
                let known = (!query.needs_probe(passing)).then(|| query.finish(passing, |_| false));
                block.push((n, known, passing));
            }
            let probed: Vec<Result<bool, IndexError>> = block
                .par_iter()
                .map(|&(n, known, passing)| match known {
                    Some(hit) => Ok(hit),
                    None => self.probe(n, query, passing, pgn, options),
                })
                .collect();
            for (&(n, _, _), hit) in block.iter().zip(probed) {
                if hit? {
                    found.push(n);
                    if found.len() as u64 >= limit {
                        break;
                    }
                }
            }
        }
        Ok(found)
    }
}

impl Index {
    /// Whether game `n`, whose `passing` groups need their probes, matches
    /// `query`: the game is read from `pgn` (and replayed with `options`
    /// where a probe needs it) once.
    fn probe(
        &self,
        n: u32,
        query: &Query,
        passing: u64,
        pgn: Option<&[u8]>,
        options: &Options,
    ) -> Result<bool, IndexError> {
        let Some(pgn) = pgn else {
            return Ok(query.finish(passing, |_| false));
        };
        let entry = self.game(n);
        let start = usize::try_from(entry.offset()).unwrap_or(usize::MAX);
        let end = start.saturating_add(entry.length() as usize);
        let Some(bytes) = pgn.get(start..end) else {
            return Err(IndexError::Corrupt {
                path: self.path.clone(),
                detail: format!(
                    "game {} lies past the end of the PGN file",
                    u64::from(n) + 1
                ),
            });
        };
        let mut game = Game::default();
        let read = Reader::new(bytes).read_game(&mut game);
        let mut report = None;
        Ok(query.finish(passing, |f| {
            if !read {
                return false;
            }
            if f.probe.needs_replay() && report.is_none() {
                report = Some(replay_game(bytes, &game, options));
            }
            f.probe.matches(bytes, &game, report.as_ref(), f.position)
        }))
    }
}

/// Games tested a block at a time, the probes of a block in parallel.
const PROBE_BLOCK: usize = 1024;

/// Answers of the name filters per string id, so that each name is
/// compared once per search (per group of a query and slot).
struct Memo {
    slots: Vec<Vec<u8>>,
    strings: usize,
    /// Per group, the answer of `--opening` per opening id.
    openings: Vec<Vec<u8>>,
}

impl Memo {
    fn new(strings: usize) -> Memo {
        Memo {
            slots: Vec::new(),
            strings,
            openings: Vec::new(),
        }
    }
}

struct Tested<'i, 'm> {
    game: GameEntry<'i>,
    memo: &'m mut Memo,
    group: usize,
}

impl Subject for Tested<'_, '_> {
    fn text_has(&mut self, tag: TextTag, slot: Slot, needle: &Needle) -> bool {
        let id = self.game.text_id(tag) as usize;
        let strings = self.memo.strings;
        let at = self.group.saturating_mul(5).saturating_add(slot as usize);
        if self.memo.slots.len() <= at {
            self.memo.slots.resize_with(at + 1, Vec::new);
        }
        let memo = &mut self.memo.slots[at];
        if memo.is_empty() {
            memo.resize(strings.max(1), 0);
        }
        match memo.get(id).copied() {
            Some(1) => false,
            Some(2) => true,
            _ => {
                let yes = needle.is_in(self.game.index.string(id as u32));
                if let Some(m) = memo.get_mut(id) {
                    *m = if yes { 2 } else { 1 };
                }
                yes
            }
        }
    }
    fn date(&self) -> Date {
        self.game.date()
    }
    fn eco(&self) -> Option<Eco> {
        self.game.eco()
    }
    fn opening(&self) -> Option<Opening> {
        self.game.opening()
    }
    fn opening_has(&mut self, needle: &Needle) -> bool {
        // Answers per opening id, per group: each name is compared once.
        let id = u16_at(self.game.bytes, layout::game::OPENING);
        let Some(at) = id.checked_sub(1).map(usize::from) else {
            return false;
        };
        if self.memo.openings.len() <= self.group {
            self.memo.openings.resize_with(self.group + 1, Vec::new);
        }
        let memo = &mut self.memo.openings[self.group];
        if memo.len() <= at {
            memo.resize(at + 1, 0);
        }
        match memo[at] {
            1 => false,
            2 => true,
            _ => {
                let yes = self.game.opening().is_some_and(|o| needle.is_in(o.name()));
                memo[at] = if yes { 2 } else { 1 };
                yes
            }
        }
    }
    fn elos(&self) -> (u16, u16) {
        (self.game.white_elo(), self.game.black_elo())
    }
    fn outcome(&self) -> Option<GameResult> {
        self.game.outcome()
    }
    fn text(&self, tag: TextTag) -> &str {
        self.game.text(tag)
    }
    fn plies(&self) -> u32 {
        self.game.plies()
    }
    fn status(&self) -> Option<Status> {
        self.game.status()
    }
    fn errors(&self) -> u32 {
        self.game.errors()
    }
    fn enter_group(&mut self, group: usize) {
        self.group = group;
    }
}

/// One game record, read where it lies.
#[derive(Copy, Clone)]
pub struct GameEntry<'a> {
    index: &'a Index,
    bytes: &'a [u8],
}

impl<'a> GameEntry<'a> {
    /// Byte offset of the game in the PGN file.
    pub fn offset(&self) -> u64 {
        u64_at(self.bytes, layout::game::OFFSET)
    }
    /// Length of the game in bytes.
    pub fn length(&self) -> u32 {
        u32_at(self.bytes, layout::game::LENGTH)
    }
    /// Main-line plies.
    pub fn plies(&self) -> u32 {
        u32_at(self.bytes, layout::game::PLIES)
    }
    /// The string id of a text tag.
    pub fn text_id(&self, tag: TextTag) -> u32 {
        u32_at(self.bytes, layout::game::TEXTS + 4 * tag as usize)
    }
    /// A text tag (empty when missing).
    pub fn text(&self, tag: TextTag) -> &'a str {
        self.index.string(self.text_id(tag))
    }
    /// The date, sortable.
    pub fn date(&self) -> Date {
        Date(u32_at(self.bytes, layout::game::DATE))
    }
    /// White's rating (0: none).
    pub fn white_elo(&self) -> u16 {
        u16_at(self.bytes, layout::game::WHITE_ELO)
    }
    /// Black's rating (0: none).
    pub fn black_elo(&self) -> u16 {
        u16_at(self.bytes, layout::game::BLACK_ELO)
    }
    /// The ECO tag's code.
    pub fn eco(&self) -> Option<Eco> {
        let e = u16_at(self.bytes, layout::game::ECO);
        (e < 500).then_some(Eco(e))
    }
    /// The opening the main line reaches ([`GameFacts::opening`]).
    pub fn opening(&self) -> Option<Opening> {
        let id = u16_at(self.bytes, layout::game::OPENING).checked_sub(1)?;
        pgnkit_opening::table().get(id)
    }
    /// The Result tag's result (`None`: none).
    pub fn outcome(&self) -> Option<GameResult> {
        GameResult::from_code(self.bytes.get(layout::game::RESULT).copied().unwrap_or(0))
    }
    /// The status per the Laws.
    pub fn status(&self) -> Option<Status> {
        status_of(self.bytes.get(layout::game::STATUS).copied().unwrap_or(0))
    }
    /// Errors the replay found.
    pub fn errors(&self) -> u32 {
        u32::from(u16_at(self.bytes, layout::game::ERRORS))
    }
    /// The fingerprint of the main line replayed
    /// ([`GameFacts::line`]).
    pub fn line(&self) -> u128 {
        let at = layout::game::LINE;
        let lo = u64_at(self.bytes, at);
        let hi = u64_at(self.bytes, at + 8);
        (u128::from(hi) << 64) | u128::from(lo)
    }
    /// Tags with a value ([`GameFacts::tagged`]).
    pub fn tagged(&self) -> u32 {
        u32_at(self.bytes, layout::game::TAGGED)
    }
    /// Comments, NAGs and variations ([`GameFacts::annotation`]).
    pub fn annotation(&self) -> u32 {
        u32_at(self.bytes, layout::game::ANNOTATION)
    }
    /// The game's facts as the index keeps them, its strings borrowed from
    /// the index: those the game was indexed from ([`GameFacts::new`]),
    /// but that `errors` stops at 65,535 (see the [crate example](crate)).
    pub fn facts(&self) -> GameFacts<'a> {
        GameFacts {
            offset: self.offset(),
            length: self.length(),
            texts: TextTag::ALL.map(|tag| Cow::Borrowed(self.text(tag))),
            date: self.date(),
            eco: self.eco(),
            opening: self.opening(),
            white_elo: self.white_elo(),
            black_elo: self.black_elo(),
            outcome: self.outcome(),
            plies: self.plies(),
            status: self.status(),
            errors: self.errors(),
            line: self.line(),
            tagged: self.tagged(),
            annotation: self.annotation(),
        }
    }
}
