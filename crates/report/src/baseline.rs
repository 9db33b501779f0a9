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
        if file.pgnkit_baseline != VERSION {
            return Err(format!(
                "a baseline of version {}, and this pgnkit reads version {VERSION}: write it again with --write-baseline",
                file.pgnkit_baseline
            ));
        }
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

    /// Takes up to `n` known problems of `file` with `fingerprint` and
    /// says how many were known.
    pub fn take_many(&mut self, file: &str, fingerprint: u64, n: u32) -> u32 {
        let key = (
            normal(file).to_owned(),
            crate::fingerprint::hex(fingerprint),
        );
        let Some(&i) = self.index.get(&key) else {
            return 0;
        };
        let Some(p) = self.problems.get_mut(i) else {
            return 0;
        };
        let taken = p.count.min(n);
        p.count -= taken;
        taken
    }

    /// Leaves out of one game's problems (`diagnostics`, those it kept,
    /// and `omitted`, those it counted; `game` names it) the ones this
    /// baseline knows, and says how many of each severity.
    pub fn drop_known(
        &mut self,
        file: &str,
        game: GameIdentity,
        diagnostics: &mut Vec<Located>,
        omitted: &mut Omitted,
    ) -> Known {
        let mut known = Known::default();
        diagnostics.retain(|l| {
            if !self.take(file, l.fingerprint) {
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

    /// Adds the problems of game number `number` of `file` (named `game`):
    /// those it kept, and those it counted past them as one entry.
    pub fn add_game(
        &mut self,
        file: &str,
        number: u64,
        game: GameIdentity,
        diagnostics: &[Located],
        omitted: Omitted,
    ) {
        for (fingerprint, code, message, count) in game_problems(game, diagnostics, omitted) {
            let mut p = Problem::new(file, fingerprint, code, number, message);
            p.count = count;
            self.add(p);
        }
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

/// The problems of one game as a baseline holds them: (fingerprint, code,
/// message, count) for each one it kept, and one entry for those it
/// counted past them.
fn game_problems<'a>(
    game: GameIdentity,
    diagnostics: &'a [Located],
    omitted: Omitted,
) -> impl Iterator<Item = (u64, &'static str, &'a str, u32)> {
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
/// of memory, whatever the number of problems: what [`Baseline::add_game`]
/// and [`Baseline::write`] do, with the problems kept in an external sort
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
    found: Sorter<Found>,
    /// Problems added so far: the first of identical ones wins.
    added: u64,
    dir: std::path::PathBuf,
}

/// The bytes of problems sorted in memory before a run goes to disk.
pub const WRITER_MEMORY: u64 = 4 << 20;

/// A problem as added: sorted by file and fingerprint, then in the order
/// added, so that identical problems come together, the first one first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Found {
    file: u32,
    fingerprint: u64,
    added: u64,
    game: u64,
    count: u32,
    text: Text,
}

/// A problem as written: sorted by the file's name, the game and the
/// fingerprint, as [`Baseline::write`] sorts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    /// The file's place among the names in order.
    file: u32,
    game: u64,
    fingerprint: u64,
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

/// Fields read and written one after the other, little-endian.
struct Fields<'a>(&'a [u8]);

impl Fields<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut field = [0u8; N];
        if let Some((head, tail)) = self.0.split_at_checked(N) {
            field.copy_from_slice(head);
            self.0 = tail;
        }
        field
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
    fn text(&mut self) -> Text {
        Text {
            at: self.u64(),
            code: self.u32(),
            message: self.u32(),
        }
    }
}

/// Writes `fields` into `out`, one after the other.
fn put(out: &mut [u8], fields: &[&[u8]]) {
    let mut at = 0;
    for f in fields {
        if let Some(place) = out.get_mut(at..at + f.len()) {
            place.copy_from_slice(f);
        }
        at += f.len();
    }
}

impl Text {
    const SIZE: usize = 16;
    fn bytes(&self) -> [u8; Text::SIZE] {
        let mut b = [0u8; Text::SIZE];
        put(
            &mut b,
            &[
                &self.at.to_le_bytes(),
                &self.code.to_le_bytes(),
                &self.message.to_le_bytes(),
            ],
        );
        b
    }
}

impl Record for Found {
    const SIZE: usize = 32 + Text::SIZE;
    fn encode(&self, out: &mut [u8]) {
        put(
            out,
            &[
                &self.file.to_le_bytes(),
                &self.fingerprint.to_le_bytes(),
                &self.added.to_le_bytes(),
                &self.game.to_le_bytes(),
                &self.count.to_le_bytes(),
                &self.text.bytes(),
            ],
        );
    }
    fn decode(b: &[u8]) -> Found {
        let mut f = Fields(b);
        Found {
            file: f.u32(),
            fingerprint: f.u64(),
            added: f.u64(),
            game: f.u64(),
            count: f.u32(),
            text: f.text(),
        }
    }
}

impl Record for Entry {
    const SIZE: usize = 24 + Text::SIZE;
    fn encode(&self, out: &mut [u8]) {
        put(
            out,
            &[
                &self.file.to_le_bytes(),
                &self.game.to_le_bytes(),
                &self.fingerprint.to_le_bytes(),
                &self.count.to_le_bytes(),
                &self.text.bytes(),
            ],
        );
    }
    fn decode(b: &[u8]) -> Entry {
        let mut f = Fields(b);
        Entry {
            file: f.u32(),
            game: f.u64(),
            fingerprint: f.u64(),
            count: f.u32(),
            text: f.text(),
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
        self.found.push(Found {
            file,
            fingerprint,
            added: self.added,
            game,
            count,
            text,
        })?;
        self.added += 1;
        Ok(())
    }

    /// Adds the problems of game number `number` of `file` (named `game`),
    /// as [`Baseline::add_game`] does.
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
        let mut entries = Sorter::<Entry>::new(WRITER_MEMORY, &dir);
        let mut last: Option<(Found, Entry)> = None;
        let mut keep = |e: Entry| if e.count > 0 { entries.push(e) } else { Ok(()) };
        while let Some(f) = reader.next()? {
            match &mut last {
                Some((first, e)) if (first.file, first.fingerprint) == (f.file, f.fingerprint) => {
                    e.count = e.count.saturating_add(f.count);
                }
                _ => {
                    let entry = Entry {
                        file: place.get(f.file as usize).copied().unwrap_or(u32::MAX),
                        game: f.game,
                        fingerprint: f.fingerprint,
                        count: f.count,
                        text: f.text,
                    };
                    if let Some((_, e)) = last.replace((f, entry)) {
                        keep(e)?;
                    }
                }
            }
        }
        if let Some((_, e)) = last {
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
                fingerprint: crate::fingerprint::hex(e.fingerprint),
                code: String::from_utf8_lossy(code).into_owned(),
                game: e.game,
                count: e.count,
                message: String::from_utf8_lossy(message).into_owned(),
            })
        });
        write_problems(out, problems)
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
        let mut written = Baseline::default();
        written.add_game("a.pgn", 1, game, &[], omitted);
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
                held.add_game(file, k, game, &[], omitted);
                sorted.add_game(file, k, game, &[], omitted).unwrap();
            }
        }
        assert!(sorted.found.runs() > 100, "the problems went to disk");
        let (mut a, mut b) = (Vec::new(), Vec::new());
        held.write(&mut a).unwrap();
        assert_eq!(sorted.write(&mut b).unwrap(), held.len());
        assert_eq!(String::from_utf8(b).unwrap(), String::from_utf8(a).unwrap());
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
