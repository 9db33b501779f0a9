//! Baselines: the problems a database is known to have, so that a CI gate
//! fails only on new ones (`check --write-baseline FILE`, then
//! `check --baseline FILE`).
//!
//! A problem is known by its file and its fingerprint
//! ([`crate::fingerprint`]: the game's identity, the code, the ply, the
//! token), never by its line or byte, so games added or removed before it
//! and lines wrapped anew leave it known. Identical problems (identical
//! games) are counted. A game's problems beyond the ones it keeps
//! ([`pgnkit_replay::diagnostic::MAX_PER_GAME`]) are known by their count.
//!
//! The file is JSON, sorted by file and game, one problem a line:
//!
//! ```json
//! {"pgnkit_baseline":1,"problems":[
//! {"file":"games.pgn","fingerprint":"e3be947ac5c357ac","code":"illegal-move","game":3,"count":1,"message":"…"}
//! ]}
//! ```
//!
//! ```
//! use pgnkit_report::baseline::{Baseline, Problem};
//!
//! let mut written = Baseline::default();
//! written.add(Problem::new("a.pgn", 0xabc, "illegal-move", 3, "no knight reaches f3"));
//! let mut text = Vec::new();
//! written.write(&mut text).unwrap();
//! let mut known = Baseline::read(&text).unwrap();
//! assert!(known.take("./a.pgn", 0xabc)); // known: not reported
//! assert!(!known.take("a.pgn", 0xabc)); // a second one is new
//! assert!(known.stale().is_empty());
//! ```

use std::collections::HashMap;
use std::io::{self, Write};

use pgnkit_extsort::{Record, Sorter};
use pgnkit_replay::{Omitted, Severity};
use serde::{Deserialize, Serialize};

use crate::fingerprint::GameIdentity;
use crate::render::Located;

/// The version of the file's layout.
pub const VERSION: u32 = 1;

/// The `baseline` member of `check`'s summary record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Problems the baseline knew: not reported, not counted.
    pub known: u64,
    /// Problems of the baseline not found any more.
    pub stale: u64,
}

/// A known problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The file, as named on the command line (without a leading `./`).
    pub file: String,
    /// The fingerprint, 16 hexadecimal digits.
    pub fingerprint: String,
    /// The code (`omitted` for the problems past a game's limit).
    pub code: String,
    /// The game's number when the baseline was written (for people; not
    /// used to match).
    pub game: u64,
    /// How many identical problems.
    pub count: u32,
    /// The message when the baseline was written (for people).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

impl Problem {
    /// One problem of `file` with `fingerprint`.
    pub fn new(file: &str, fingerprint: u64, code: &str, game: u64, message: &str) -> Problem {
        Problem {
            file: normal(file).to_owned(),
            fingerprint: crate::fingerprint::hex(fingerprint),
            code: code.to_owned(),
            game,
            count: 1,
            message: message.to_owned(),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct BaselineFile {
    pgnkit_baseline: u32,
    problems: Vec<Problem>,
}

/// A file name as matched: without a leading `./`.
fn normal(file: &str) -> &str {
    let mut f = file;
    while let Some(rest) = f.strip_prefix("./") {
        f = rest;
    }
    f
}

/// Problems a baseline knew in one game, by severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Known {
    /// Errors known.
    pub errors: u64,
    /// Warnings known.
    pub warnings: u64,
}

/// Known problems, by file and fingerprint.
#[derive(Debug, Default)]
pub struct Baseline {
    problems: Vec<Problem>,
    index: HashMap<(String, String), usize>,
}

impl Baseline {
    /// Reads a baseline file's bytes.
    ///
    /// # Errors
    /// When it is not a baseline of this version: the message says why.
    pub fn read(bytes: &[u8]) -> Result<Baseline, String> {
        let file: BaselineFile =
            serde_json::from_slice(bytes).map_err(|e| format!("not a pgnkit baseline: {e}"))?;
        check_version(file.pgnkit_baseline)?;
        let mut b = Baseline::default();
        for p in file.problems {
            b.add(p);
        }
        Ok(b)
    }

    /// Adds a problem (counted with an identical one already there).
    pub fn add(&mut self, p: Problem) {
        let key = (normal(&p.file).to_owned(), p.fingerprint.clone());
        match self.index.get(&key) {
            Some(&i) => {
                if let Some(q) = self.problems.get_mut(i) {
                    q.count = q.count.saturating_add(p.count);
                }
            }
            None => {
                self.index.insert(key, self.problems.len());
                self.problems.push(p);
            }
        }
    }

    /// Whether a problem of `file` with `fingerprint` is known; if so it
    /// is taken (a second identical problem needs a second entry).
    pub fn take(&mut self, file: &str, fingerprint: u64) -> bool {
        self.take_many(file, fingerprint, 1) == 1
    }

    /// The known problems not taken: fixed since the baseline was written.
    pub fn stale(&self) -> Vec<&Problem> {
        self.problems.iter().filter(|p| p.count > 0).collect()
    }

    /// How many problems it holds (identical ones counted).
    pub fn len(&self) -> u64 {
        self.problems.iter().map(|p| u64::from(p.count)).sum()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes it as a baseline file, sorted by file, game and fingerprint.
    ///
    /// # Errors
    /// Those of writing.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut sorted: Vec<&Problem> = self.problems.iter().filter(|p| p.count > 0).collect();
        sorted.sort_by(|a, b| {
            (&a.file, a.game, &a.fingerprint).cmp(&(&b.file, b.game, &b.fingerprint))
        });
        write_problems(out, sorted.into_iter().map(Ok)).map(|_| ())
    }
}

/// What knows problems by file and fingerprint: a [`Baseline`], or the
/// [`Index`] of a baseline file.
pub trait Knows {
    /// Takes up to `n` known problems of `file` with `fingerprint` and
    /// says how many were known.
    fn take_many(&mut self, file: &str, fingerprint: u64, n: u32) -> u32;

    /// Leaves out of one game's problems (`diagnostics`, those it kept,
    /// and `omitted`, those it counted; `game` names it) the ones known,
    /// and says how many of each severity.
    fn drop_known(
        &mut self,
        file: &str,
        game: GameIdentity,
        diagnostics: &mut Vec<Located>,
        omitted: &mut Omitted,
    ) -> Known {
        let mut known = Known::default();
        diagnostics.retain(|l| {
            if self.take_many(file, l.fingerprint, 1) != 1 {
                return true;
            }
            match l.diagnostic.severity {
                Severity::Error => known.errors += 1,
                Severity::Warning => known.warnings += 1,
            }
            false
        });
        if !omitted.is_empty() {
            let all = omitted.errors.saturating_add(omitted.warnings);
            let n = u64::from(self.take_many(
                file,
                crate::fingerprint::omitted(game),
                u32::try_from(all).unwrap_or(u32::MAX),
            ));
            let errors = n.min(omitted.errors);
            let warnings = (n - errors).min(omitted.warnings);
            omitted.errors -= errors;
            omitted.warnings -= warnings;
            known.errors += errors;
            known.warnings += warnings;
        }
        known
    }
}

/// Takes up to `n` of the `left` known problems and says how many.
fn take_from(left: &mut u32, n: u32) -> u32 {
    let taken = (*left).min(n);
    *left -= taken;
    taken
}

impl Knows for Baseline {
    fn take_many(&mut self, file: &str, fingerprint: u64, n: u32) -> u32 {
        let key = (
            normal(file).to_owned(),
            crate::fingerprint::hex(fingerprint),
        );
        let Some(&i) = self.index.get(&key) else {
            return 0;
        };
        self.problems
            .get_mut(i)
            .map_or(0, |p| take_from(&mut p.count, n))
    }
}

impl Knows for Index {
    fn take_many(&mut self, file: &str, fingerprint: u64, n: u32) -> u32 {
        self.keys
            .file(file)
            .and_then(|file| count_left(&mut self.counts, (file, false, fingerprint)))
            .map_or(0, |left| take_from(left, n))
    }
}

/// The error of a baseline of another version than [`VERSION`].
fn check_version(version: u32) -> Result<(), String> {
    if version == VERSION {
        return Ok(());
    }
    Err(format!(
        "a baseline of version {version}, and this pgnkit reads version {VERSION}: write it again with --write-baseline"
    ))
}

/// The problems of one game as a baseline holds them: (fingerprint, code,
/// message, count) for each one it kept, and one entry for those it
/// counted past them.
fn game_problems(
    game: GameIdentity,
    diagnostics: &[Located],
    omitted: Omitted,
) -> impl Iterator<Item = (u64, &'static str, &str, u32)> {
    let kept = diagnostics.iter().map(|l| {
        let d = &l.diagnostic;
        (l.fingerprint, d.code.as_str(), d.message.as_str(), 1)
    });
    let past = (!omitted.is_empty()).then(|| {
        (
            crate::fingerprint::omitted(game),
            "omitted",
            "problems past the ones a game keeps",
            u32::try_from(omitted.errors.saturating_add(omitted.warnings)).unwrap_or(u32::MAX),
        )
    });
    kept.chain(past)
}

/// Writes a baseline file of `problems`, in the order given, and says how
/// many problems they count.
fn write_problems<P: std::borrow::Borrow<Problem>>(
    out: &mut dyn Write,
    problems: impl Iterator<Item = io::Result<P>>,
) -> io::Result<u64> {
    write!(out, "{{\"pgnkit_baseline\":{VERSION},\"problems\":[")?;
    let mut counted = 0u64;
    for (i, p) in problems.enumerate() {
        let p = p?;
        out.write_all(if i == 0 { b"\n" } else { b",\n" })?;
        serde_json::to_writer(&mut *out, p.borrow())?;
        counted += u64::from(p.borrow().count);
    }
    writeln!(out, "\n]}}")?;
    Ok(counted)
}

/// A baseline being written (`check --write-baseline`) in a fixed budget
/// of memory, whatever the number of problems: what [`Baseline::add`] and
/// [`Baseline::write`] do, with the problems kept in an external sort
/// ([`pgnkit_extsort`]) and their codes and messages in a temporary file.
/// The file written is the same, byte for byte.
///
/// ```
/// use pgnkit_report::baseline::{Baseline, Problem, Writer};
///
/// let mut held = Baseline::default();
/// let mut sorted = Writer::new(0).unwrap(); // a run to disk every few problems
/// for (file, fingerprint, game) in [("b.pgn", 7, 1), ("a.pgn", 9, 2), ("a.pgn", 3, 5), ("a.pgn", 9, 8)] {
///     held.add(Problem::new(file, fingerprint, "illegal-move", game, "no king reaches e3"));
///     sorted.add(file, fingerprint, "illegal-move", game, "no king reaches e3", 1).unwrap();
/// }
/// let (mut a, mut b) = (Vec::new(), Vec::new());
/// held.write(&mut a).unwrap();
/// assert_eq!(sorted.write(&mut b).unwrap(), 4);
/// assert_eq!(a, b);
/// ```
pub struct Writer {
    /// The files' names (without a leading `./`), by number.
    files: Vec<String>,
    numbers: HashMap<String, u32>,
    /// Every problem's code and message, one after the other.
    texts: io::BufWriter<std::fs::File>,
    texts_len: u64,
    found: Sorter<Row>,
    /// Problems added so far: the first of identical ones wins.
    added: u64,
    dir: std::path::PathBuf,
    /// The bytes each sort keeps in memory before a run goes to disk.
    memory: u64,
}

/// The bytes of problems sorted in memory before a run goes to disk.
pub const WRITER_MEMORY: u64 = 4 << 20;

/// A problem in one of the writer's two sorts, ordered by its fields in
/// turn. First as added: by file number and fingerprint, then in the
/// order added (`keys`: fingerprint, order), so that identical problems
/// come together, the first one first. Then one entry per problem, as
/// [`Baseline::write`] sorts: by the file's place among the names in
/// order, the game and the fingerprint (`keys`: game, fingerprint).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Row {
    file: u32,
    keys: [u64; 2],
    game: u64,
    count: u32,
    text: Text,
}

/// Where a problem's code and message are in the temporary file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Text {
    at: u64,
    code: u32,
    message: u32,
}

impl Record for Row {
    const SIZE: usize = 48;
    fn encode(&self, out: &mut [u8]) {
        let fields: [&[u8]; 8] = [
            &self.file.to_le_bytes(),
            &self.keys[0].to_le_bytes(),
            &self.keys[1].to_le_bytes(),
            &self.game.to_le_bytes(),
            &self.count.to_le_bytes(),
            &self.text.at.to_le_bytes(),
            &self.text.code.to_le_bytes(),
            &self.text.message.to_le_bytes(),
        ];
        let mut at = 0;
        for f in fields {
            if let Some(place) = out.get_mut(at..at + f.len()) {
                place.copy_from_slice(f);
            }
            at += f.len();
        }
    }
    fn decode(b: &[u8]) -> Row {
        let bytes = |at: usize| -> [u8; 8] {
            let mut field = [0u8; 8];
            let end = (at + 8).min(b.len());
            if let Some(from) = b.get(at..end) {
                field[..from.len()].copy_from_slice(from);
            }
            field
        };
        let u64_at = |at| u64::from_le_bytes(bytes(at));
        // Little-endian: the first four of eight bytes are the u32.
        let u32_at = |at| u64_at(at) as u32;
        Row {
            file: u32_at(0),
            keys: [u64_at(4), u64_at(12)],
            game: u64_at(20),
            count: u32_at(28),
            text: Text {
                at: u64_at(32),
                code: u32_at(40),
                message: u32_at(44),
            },
        }
    }
}

impl Writer {
    /// A writer that sorts about `memory` bytes of problems at a time
    /// ([`WRITER_MEMORY`] in `check`), in the temporary folder.
    ///
    /// # Errors
    /// When the temporary file cannot be made.
    pub fn new(memory: u64) -> io::Result<Writer> {
        let dir = std::env::temp_dir();
        Ok(Writer {
            files: Vec::new(),
            numbers: HashMap::new(),
            texts: io::BufWriter::with_capacity(1 << 16, tempfile::tempfile_in(&dir)?),
            texts_len: 0,
            found: Sorter::new(memory, &dir),
            added: 0,
            dir,
            memory,
        })
    }

    /// Adds `count` identical problems of `file` with `fingerprint`, found
    /// in game `game` (what [`Baseline::add`] does with a [`Problem`]).
    ///
    /// # Errors
    /// Those of writing the temporary files.
    pub fn add(
        &mut self,
        file: &str,
        fingerprint: u64,
        code: &str,
        game: u64,
        message: &str,
        count: u32,
    ) -> io::Result<()> {
        let name = normal(file);
        let file = match self.numbers.get(name) {
            Some(&n) => n,
            None => {
                let n = u32::try_from(self.files.len()).unwrap_or(u32::MAX);
                self.files.push(name.to_owned());
                self.numbers.insert(name.to_owned(), n);
                n
            }
        };
        let text = Text {
            at: self.texts_len,
            code: u32::try_from(code.len()).unwrap_or(u32::MAX),
            message: u32::try_from(message.len()).unwrap_or(u32::MAX),
        };
        self.texts.write_all(code.as_bytes())?;
        self.texts.write_all(message.as_bytes())?;
        self.texts_len += (code.len() + message.len()) as u64;
        self.found.push(Row {
            file,
            keys: [fingerprint, self.added],
            game,
            count,
            text,
        })?;
        self.added += 1;
        Ok(())
    }

    /// Adds the problems of game number `number` of `file` (named `game`):
    /// those it kept, and those it counted past them as one entry.
    ///
    /// # Errors
    /// Those of writing the temporary files.
    pub fn add_game(
        &mut self,
        file: &str,
        number: u64,
        game: GameIdentity,
        diagnostics: &[Located],
        omitted: Omitted,
    ) -> io::Result<()> {
        for (fingerprint, code, message, count) in game_problems(game, diagnostics, omitted) {
            self.add(file, fingerprint, code, number, message, count)?;
        }
        Ok(())
    }

    /// Writes the baseline file, as [`Baseline::write`] would have, and
    /// says how many problems it holds (identical ones counted).
    ///
    /// # Errors
    /// Those of writing `out` and of the temporary files.
    pub fn write(self, out: &mut dyn Write) -> io::Result<u64> {
        let Writer {
            files,
            texts,
            found,
            dir,
            memory,
            ..
        } = self;
        let texts = texts.into_inner().map_err(io::IntoInnerError::into_error)?;
        // Each file's place among the names in order.
        let mut by_name: Vec<usize> = (0..files.len()).collect();
        by_name.sort_by(|&a, &b| files[a].cmp(&files[b]));
        let mut place = vec![0u32; files.len()];
        for (k, &n) in by_name.iter().enumerate() {
            place[n] = u32::try_from(k).unwrap_or(u32::MAX);
        }
        // Identical problems as one entry: the first one's game and
        // message, their counts added.
        let found = found.finish()?;
        let mut reader = found.reader()?;
        let mut entries = Sorter::<Row>::new(memory, &dir);
        let mut last: Option<Row> = None;
        let mut keep = |e: Row| if e.count > 0 { entries.push(e) } else { Ok(()) };
        // `last` is a found problem's entry: its fingerprint is `keys[1]`.
        while let Some(f) = reader.next()? {
            let place = place.get(f.file as usize).copied().unwrap_or(u32::MAX);
            match &mut last {
                Some(e) if (e.file, e.keys[1]) == (place, f.keys[0]) => {
                    e.count = e.count.saturating_add(f.count);
                }
                _ => {
                    let entry = Row {
                        file: place,
                        keys: [f.game, f.keys[0]],
                        ..f
                    };
                    if let Some(e) = last.replace(entry) {
                        keep(e)?;
                    }
                }
            }
        }
        if let Some(e) = last {
            keep(e)?;
        }
        let entries = entries.finish()?;
        let mut reader = entries.reader()?;
        let problems = std::iter::from_fn(|| reader.next().transpose()).map(|e| {
            let e = e?;
            let mut text = vec![0u8; e.text.code as usize + e.text.message as usize];
            std::os::unix::fs::FileExt::read_exact_at(&texts, &mut text, e.text.at)?;
            let (code, message) = text.split_at(e.text.code as usize);
            Ok(Problem {
                file: by_name
                    .get(e.file as usize)
                    .and_then(|&n| files.get(n))
                    .cloned()
                    .unwrap_or_default(),
                fingerprint: crate::fingerprint::hex(e.keys[1]),
                code: String::from_utf8_lossy(code).into_owned(),
                game: e.game,
                count: e.count,
                message: String::from_utf8_lossy(message).into_owned(),
            })
        });
        write_problems(out, problems)
    }
}

/// A baseline file read for `check --baseline`, in little memory whatever
/// its size: the count of each known problem by file and fingerprint (24
/// bytes a problem), the rest read again from the file, which is kept
/// open, when the stale problems are listed ([`Index::stale`]). It knows
/// what [`Baseline::read`] knows, and refuses what it refuses with the
/// same message.
///
/// ```
/// use std::io::{Seek, Write};
/// use pgnkit_report::baseline::{Baseline, Index, Knows, Problem};
///
/// let mut written = Baseline::default();
/// written.add(Problem::new("a.pgn", 0xabc, "illegal-move", 3, "no knight reaches f3"));
/// written.add(Problem::new("a.pgn", 0xdef, "check-mark", 4, "no check"));
/// let mut file = tempfile::tempfile().unwrap();
/// written.write(&mut file).unwrap();
/// let mut known = Index::read(file).unwrap();
/// assert_eq!(known.take_many("./a.pgn", 0xabc, 2), 1); // one known: not reported
/// let stale = known.stale().unwrap();
/// assert_eq!(stale.len(), 1);
/// assert_eq!(stale[0].code, "check-mark");
/// ```
pub struct Index {
    file: std::fs::File,
    keys: Keys,
    /// The known problems' keys and counts, sorted by key.
    counts: Vec<(Key, u32)>,
}

/// The numbers of a baseline's files and odd fingerprints.
#[derive(Default)]
struct Keys {
    /// The files' names (without a leading `./`).
    files: HashMap<String, u32>,
    /// Fingerprints not written as pgnkit writes them (16 lowercase
    /// hexadecimal digits): never matched, only listed as stale.
    odd: HashMap<(u32, String), u64>,
}

/// A known problem's file and fingerprint (`true`: a number in
/// [`Keys::odd`] rather than a fingerprint).
type Key = (u32, bool, u64);

impl Keys {
    /// The number of `file`, if the baseline has problems of it.
    fn file(&self, file: &str) -> Option<u32> {
        self.files.get(normal(file)).copied()
    }

    /// The key of a problem of `file` with `fingerprint` (with `add`, a new
    /// file or odd fingerprint gets a number; without, none has a key).
    fn key(&mut self, file: &str, fingerprint: &str, add: bool) -> Option<Key> {
        let file = match self.file(file) {
            Some(n) => n,
            None if add => {
                let n = u32::try_from(self.files.len()).unwrap_or(u32::MAX);
                self.files.insert(normal(file).to_owned(), n);
                n
            }
            None => return None,
        };
        if let Ok(fp) = u64::from_str_radix(fingerprint, 16)
            && crate::fingerprint::hex(fp) == fingerprint
        {
            return Some((file, false, fp));
        }
        let odd = (file, fingerprint.to_owned());
        let next = self.odd.len() as u64;
        match self.odd.get(&odd) {
            Some(&n) => Some((file, true, n)),
            None if add => {
                self.odd.insert(odd, next);
                Some((file, true, next))
            }
            None => None,
        }
    }
}

impl Index {
    /// Reads the baseline file `file`.
    ///
    /// # Errors
    /// Those of reading it, and [`Baseline::read`]'s when it is no baseline
    /// of this version.
    pub fn read(file: std::fs::File) -> Result<Index, String> {
        let mut keys = Keys::default();
        let mut counts = Vec::new();
        each_problem(&file, |p| {
            if let Some(key) = keys.key(&p.file, &p.fingerprint, true) {
                counts.push((key, p.count));
            }
        })?;
        counts.sort_unstable_by_key(|&(key, _)| key);
        counts.dedup_by(|later, first| {
            if later.0 != first.0 {
                return false;
            }
            first.1 = first.1.saturating_add(later.1);
            true
        });
        counts.shrink_to_fit();
        Ok(Index { file, keys, counts })
    }

    /// The known problems not taken, in the file's order with their counts
    /// left (as [`Baseline::stale`]): read again from the file.
    ///
    /// # Errors
    /// Those of reading the file again.
    pub fn stale(&mut self) -> Result<Vec<Problem>, String> {
        let Index { file, keys, counts } = self;
        let mut stale = Vec::new();
        each_problem(file, |mut p| {
            if let Some(left) = keys
                .key(&p.file, &p.fingerprint, false)
                .and_then(|key| count_left(counts, key))
                && *left > 0
            {
                p.count = *left;
                // Identical problems are one entry: the first.
                *left = 0;
                stale.push(p);
            }
        })?;
        Ok(stale)
    }
}

/// The count left of `key` in `counts` (sorted by key).
fn count_left(counts: &mut [(Key, u32)], key: Key) -> Option<&mut u32> {
    let at = counts.binary_search_by_key(&key, |&(k, _)| k).ok()?;
    counts.get_mut(at).map(|(_, n)| n)
}

/// The largest broken baseline read again whole for [`Baseline::read`]'s
/// message.
const REREAD_LIMIT: u64 = 16 << 20;

/// Calls `each` on every problem of the baseline file `file`, in order,
/// reading it from its start, and checks its version.
///
/// # Errors
/// Those of reading it, and [`Baseline::read`]'s when it is no baseline
/// of this version.
fn each_problem(mut file: &std::fs::File, mut each: impl FnMut(Problem)) -> Result<(), String> {
    use std::io::{BufReader, Read, Seek};
    file.rewind().map_err(|e| e.to_string())?;
    let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(1 << 16, file));
    let read = serde::de::DeserializeSeed::deserialize(BaselineSeed(&mut each), &mut de)
        .and_then(|version| de.end().map(|()| version));
    match read {
        Ok(version) => check_version(version),
        // The message of [`Baseline::read`], which reads the whole file:
        // for a file of ordinary size (a broken one of gigabytes, a full
        // disk's, gets the streaming reader's message, in bounded memory).
        Err(e) if file.metadata().map_or(true, |m| m.len() > REREAD_LIMIT) => {
            Err(format!("not a pgnkit baseline: {e}"))
        }
        Err(e) => {
            let mut bytes = Vec::new();
            file.rewind()
                .and_then(|()| file.read_to_end(&mut bytes))
                .map_err(|e| e.to_string())?;
            Baseline::read(&bytes)
                .map(|_| ())
                .and(Err(format!("not a pgnkit baseline: {e}")))
        }
    }
}

/// A baseline file read problem by problem: gives its version.
struct BaselineSeed<'a>(&'a mut dyn FnMut(Problem));

impl<'de> serde::de::DeserializeSeed<'de> for BaselineSeed<'_> {
    type Value = u32;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<u32, D::Error> {
        d.deserialize_struct("BaselineFile", &["pgnkit_baseline", "problems"], self)
    }
}

impl<'de> serde::de::Visitor<'de> for BaselineSeed<'_> {
    type Value = u32;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("struct BaselineFile")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<u32, A::Error> {
        use serde::de::Error;
        let (mut version, mut problems) = (None, false);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "pgnkit_baseline" if version.is_none() => version = Some(map.next_value()?),
                "problems" if !problems => {
                    map.next_value_seed(Problems(&mut *self.0))?;
                    problems = true;
                }
                "pgnkit_baseline" | "problems" => return Err(A::Error::custom("duplicate field")),
                _ => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        if !problems {
            return Err(A::Error::missing_field("problems"));
        }
        version.ok_or_else(|| A::Error::missing_field("pgnkit_baseline"))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<u32, A::Error> {
        use serde::de::Error;
        let version = seq
            .next_element()?
            .ok_or_else(|| A::Error::invalid_length(0, &self))?;
        seq.next_element_seed(Problems(&mut *self.0))?
            .ok_or_else(|| A::Error::invalid_length(1, &"struct BaselineFile"))?;
        Ok(version)
    }
}

/// The `problems` of a baseline file, each given to the function.
struct Problems<'a>(&'a mut dyn FnMut(Problem));

impl<'de> serde::de::DeserializeSeed<'de> for Problems<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Problems<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a sequence of problems")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(p) = seq.next_element::<Problem>()? {
            (self.0)(p);
        }
        Ok(())
    }
}

/// Writes the JSON record of a baseline entry no longer found.
///
/// # Errors
/// Those of writing.
pub fn write_stale(out: &mut dyn Write, p: &Problem) -> io::Result<()> {
    #[derive(Serialize)]
    struct Stale<'a> {
        r#type: &'static str,
        #[serde(flatten)]
        problem: &'a Problem,
    }
    serde_json::to_writer(
        &mut *out,
        &Stale {
            r#type: "stale",
            problem: p,
        },
    )?;
    out.write_all(b"\n")
}

/// For humans: "baseline: 12 known problems not reported; 2 no longer found
/// (fixed?): …", with the first ten stale entries.
pub fn note(known: u64, stale: &[&Problem]) -> String {
    let mut line = format!("baseline: {known} known problems not reported");
    if stale.is_empty() {
        return line;
    }
    let n: u64 = stale.iter().map(|p| u64::from(p.count)).sum();
    line.push_str(&format!(
        "; {n} no longer found (fixed?): write it again with --write-baseline to shrink it"
    ));
    for p in stale.iter().take(10) {
        line.push_str(&format!(
            "\n  {} game {} (then): {} {}",
            p.file, p.game, p.code, p.message
        ));
    }
    if stale.len() > 10 {
        line.push_str(&format!("\n  … and {} more", stale.len() - 10));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_problems_are_counted_and_stale_ones_found() {
        let mut b = Baseline::default();
        b.add(Problem::new("a.pgn", 1, "illegal-move", 3, ""));
        b.add(Problem::new("a.pgn", 1, "illegal-move", 9, ""));
        b.add(Problem::new("b.pgn", 2, "check-mark", 1, ""));
        let mut text = Vec::new();
        b.write(&mut text).unwrap();
        let mut b = Baseline::read(&text).unwrap();
        assert_eq!(b.len(), 3);
        assert!(b.take("a.pgn", 1) && b.take("a.pgn", 1) && !b.take("a.pgn", 1));
        assert!(!b.take("a.pgn", 2), "matched by file too");
        let stale = b.stale();
        assert_eq!(stale.len(), 1);
        assert_eq!(stale[0].code, "check-mark");
    }

    #[test]
    fn problems_past_a_games_limit_are_known_by_their_count() {
        use pgnkit_replay::Code;
        let game = GameIdentity::of(&pgnkit_pgn::Game::default());
        let mut omitted = Omitted::default();
        omitted.add(Code::UnparsableMove, Severity::Error, 150);
        let mut written = Writer::new(WRITER_MEMORY).unwrap();
        written.add_game("a.pgn", 1, game, &[], omitted).unwrap();
        let mut text = Vec::new();
        written.write(&mut text).unwrap();
        let mut known = Baseline::read(&text).unwrap();
        // Ten more of them now, and two warnings: those are new.
        let mut now = Omitted::default();
        now.add(Code::UnparsableMove, Severity::Error, 160);
        now.add(Code::CheckMark, Severity::Warning, 2);
        let found = known.drop_known("a.pgn", game, &mut Vec::new(), &mut now);
        assert_eq!(
            found,
            Known {
                errors: 150,
                warnings: 0
            }
        );
        assert_eq!((now.errors, now.warnings), (10, 2));
        assert!(known.stale().is_empty());
    }

    #[test]
    fn the_writer_writes_what_the_baseline_held_in_a_budget_of_memory() {
        use pgnkit_replay::Code;
        let game = GameIdentity::of(&pgnkit_pgn::Game::default());
        let mut held = Baseline::default();
        // Runs of a few problems each: hundreds of them, merged.
        let mut sorted = Writer::new(0).unwrap();
        let files = ["./b.pgn", "a.pgn", "c/d.pgn", "a.pgn", "b.pgn"];
        for k in 0..3_000u64 {
            let file = files[(k % 5) as usize];
            // Identical problems in far-apart games, a few messages.
            let fingerprint = (k * 7919) % 1_000;
            let message = format!("message {}", k % 3);
            held.add(Problem::new(file, fingerprint, "illegal-move", k, &message));
            sorted
                .add(file, fingerprint, "illegal-move", k, &message, 1)
                .unwrap();
            if k % 500 == 0 {
                let mut omitted = Omitted::default();
                omitted.add(Code::CheckMark, Severity::Warning, k + 1);
                for (fingerprint, code, message, count) in game_problems(game, &[], omitted) {
                    let mut p = Problem::new(file, fingerprint, code, k, message);
                    p.count = count;
                    held.add(p);
                }
                sorted.add_game(file, k, game, &[], omitted).unwrap();
            }
        }
        assert!(sorted.found.runs() > 100, "the problems went to disk");
        let (mut a, mut b) = (Vec::new(), Vec::new());
        held.write(&mut a).unwrap();
        assert_eq!(sorted.write(&mut b).unwrap(), held.len());
        assert_eq!(String::from_utf8(b).unwrap(), String::from_utf8(a).unwrap());
    }

    /// A temporary file holding `bytes`.
    fn file_of(bytes: &[u8]) -> std::fs::File {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(bytes).unwrap();
        file
    }

    #[test]
    fn the_index_knows_and_finds_stale_what_the_baseline_does() {
        let text = br#"{"pgnkit_baseline":1,"extra":[1,2],"problems":[
{"file":"./a.pgn","fingerprint":"00000000000000aa","code":"illegal-move","game":1,"count":2,"message":"first"},
{"file":"b.pgn","fingerprint":"00000000000000aa","code":"illegal-move","game":2,"count":1},
{"file":"a.pgn","fingerprint":"00000000000000aa","code":"illegal-move","game":9,"count":1,"message":"again"},
{"file":"a.pgn","fingerprint":"ABC","code":"check-mark","game":3,"count":4,"message":"odd"},
{"file":"a.pgn","fingerprint":"ABC","code":"check-mark","game":5,"count":1,"message":"odd again"},
{"file":"a.pgn","fingerprint":"0000000000000abc","code":"check-mark","game":4,"count":1}
]}"#;
        let mut held = Baseline::read(text).unwrap();
        let mut index = Index::read(file_of(text)).unwrap();
        for (file, fingerprint, n) in [
            ("a.pgn", 0xaa, 2),
            ("./a.pgn", 0xaa, 5),
            ("b.pgn", 0xaa, 0),
            ("c.pgn", 0xaa, 1),
            ("a.pgn", 0xabc, 1),
            ("a.pgn", 0xabc, 1),
        ] {
            assert_eq!(
                index.take_many(file, fingerprint, n),
                held.take_many(file, fingerprint, n),
                "{file} {fingerprint:x} {n}"
            );
        }
        let stale: Vec<Problem> = held.stale().into_iter().cloned().collect();
        assert_eq!(index.stale().unwrap(), stale);
        assert_eq!(stale.len(), 2, "b.pgn's, and the odd fingerprint's");
        assert_eq!(stale[1].count, 5);
    }

    #[test]
    fn the_index_refuses_what_the_baseline_refuses_with_its_message() {
        for text in [
            &b"{}"[..],
            b"",
            b"[1]",
            br#"{"pgnkit_baseline":7,"problems":[]}"#,
            br#"{"pgnkit_baseline":1,"problems":[{"file":"a.pgn"}]}"#,
            br#"{"pgnkit_baseline":1,"problems":[],"problems":[]}"#,
            br#"{"pgnkit_baseline":1,"problems":[]} trailing"#,
        ] {
            let Err(message) = Baseline::read(text) else {
                panic!("{}", String::from_utf8_lossy(text));
            };
            assert_eq!(Index::read(file_of(text)).err(), Some(message));
        }
        // The forms a derived reader takes: an array, fields in any order.
        for text in [&br#"[1,[]]"#[..], br#"{"problems":[],"pgnkit_baseline":1}"#] {
            assert!(Baseline::read(text).is_ok());
            assert!(Index::read(file_of(text)).is_ok());
        }
    }

    #[test]
    fn other_files_are_refused_with_a_reason() {
        assert!(
            Baseline::read(b"{}")
                .unwrap_err()
                .contains("not a pgnkit baseline")
        );
        let e = Baseline::read(br#"{"pgnkit_baseline":7,"problems":[]}"#).unwrap_err();
        assert!(e.contains("version 7"));
    }
}
