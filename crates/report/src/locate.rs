//! Where a game's diagnostics are: from byte spans to line, column, byte
//! offset, the game's name and (for humans) the source line with the token.

use std::ops::Range;

use pgnkit_pgn::Game;
use pgnkit_pgn::location::Cursor;
use pgnkit_replay::{Diagnostic, Encoding, GameReport};

use crate::fingerprint::{GameIdentity, fingerprint};
use crate::{Format, Located, render};

/// Locates the diagnostics of the games of one chunk, game after game: a
/// forward-only [`Cursor`], so locating stays linear in the chunk.
pub struct Locator<'a> {
    data: &'a [u8],
    base: usize,
    cursor: Cursor<'a>,
    /// The cursor at the end of the last game passed ([`Locator::pass`]):
    /// a diagnostic behind the cursor but in a later game is counted from
    /// there, not from the chunk's start.
    mark: Cursor<'a>,
    /// The end of the last game passed, which the cursor may not have
    /// reached yet: it is moved there when a later game has something to
    /// locate, or the chunk's lines are asked for.
    passed: usize,
    format: Format,
    max_line: usize,
}

impl<'a> Locator<'a> {
    /// A locator over the chunk of `data` that starts at `start`; `base` is
    /// the offset of `data[0]` in the input (added to byte offsets). The
    /// source line is kept only for [`Format::Human`].
    pub fn new(data: &'a [u8], start: usize, base: usize, format: Format) -> Locator<'a> {
        Locator {
            data,
            base,
            cursor: Cursor::new(data, start),
            mark: Cursor::new(data, start),
            passed: start,
            format,
            max_line: Locator::MAX_LINE,
        }
    }

    /// Bytes of the longest line shown: a line longer (binary junk, a whole
    /// game on one line of megabytes) is named by its line and column only,
    /// so that showing it costs no more than a short one.
    pub const MAX_LINE: usize = 16 << 10;

    /// Lines longer than `bytes` (by default [`Locator::MAX_LINE`]) are
    /// named by their line and column only, without the source line.
    pub fn max_line(mut self, bytes: usize) -> Locator<'a> {
        self.max_line = bytes;
        self
    }

    /// Moves past `end`, the end of a game just read (after locating its
    /// diagnostics): the next game's diagnostics are located from there.
    /// The lines of the games passed are counted only when a later game has
    /// diagnostics, or the chunk's lines are asked for ([`Locator::lines_to`]):
    /// in one count over many games, not one a game.
    pub fn pass(&mut self, end: usize) {
        self.passed = end;
    }

    /// Moves the cursor to the end of the last game passed, where it is
    /// behind it, and keeps it there as the mark.
    fn catch_up(&mut self) {
        if self.passed > self.cursor.position() {
            self.cursor.advance(self.passed, false);
            self.mark = self.cursor.clone();
        }
    }

    /// The line breaks from the chunk's start to `end`
    /// ([`pgnkit_pgn::location::count_lines`] of them), counted from the
    /// last game passed.
    pub fn lines_to(&mut self, end: usize) -> usize {
        if end >= self.passed {
            self.catch_up();
        }
        if end < self.cursor.position() {
            self.cursor = self.mark.clone();
        }
        self.cursor.lines_to(end)
    }

    /// The diagnostics of `report` that `keep` keeps, located: game `index`
    /// (in the chunk), lines counted from the chunk's start (0-based; the
    /// caller adds the lines before the chunk and 1).
    pub fn locate(
        &mut self,
        game: &Game<'_>,
        report: &GameReport,
        index: u64,
        keep: impl Fn(&Diagnostic) -> bool,
    ) -> Vec<Located> {
        let name = game_name(game, report);
        let identity = GameIdentity::of(game);
        let chars = report.encoding == Encoding::Utf8;
        let kept: Vec<&Diagnostic> = report.diagnostics.iter().filter(|d| keep(d)).collect();
        let offsets: Vec<usize> = kept.iter().map(|d| d.span.start).collect();
        let first = offsets.iter().copied().min().unwrap_or(usize::MAX);
        if first >= self.passed {
            self.catch_up();
        }
        if first < self.cursor.position() && first >= self.mark.position() {
            self.cursor = self.mark.clone();
        }
        let places = self.cursor.locate_many(&offsets, chars);
        kept.into_iter()
            .zip(places)
            .map(|(d, place)| {
                let showable = place.line_range.len() <= self.max_line;
                let source = (self.format == Format::Human && showable)
                    .then(|| source_line(self.data, &place.line_range, &d.span, report.encoding));
                let token = self.data.get(d.span.clone()).unwrap_or_default();
                let (end_line, end_column) = end_of(token, place.line, place.column, chars);
                Located {
                    diagnostic: d.clone(),
                    game: index,
                    line: place.line,
                    column: place.column,
                    byte: self.base.saturating_add(d.span.start),
                    end_line,
                    end_column,
                    fingerprint: fingerprint(identity, d),
                    source,
                    game_name: name.clone(),
                }
            })
            .collect()
    }
}

/// The line and column just after `token`, which starts at `line` and
/// `column` (columns in characters when `chars`, else bytes): linear in the
/// token.
fn end_of(token: &[u8], line: usize, column: usize, chars: bool) -> (usize, usize) {
    let count = |b: &[u8]| {
        if chars {
            b.iter().filter(|&&c| c & 0xC0 != 0x80).count()
        } else {
            b.len()
        }
    };
    let breaks = pgnkit_pgn::location::count_lines(token);
    if breaks == 0 {
        return (line, column.saturating_add(count(token)));
    }
    let last = memchr::memrchr2(b'\n', b'\r', token).map_or(0, |i| i + 1);
    (
        line.saturating_add(breaks),
        count(&token[last..]).saturating_add(1),
    )
}

/// The name of a game for humans: "White - Black (Event)".
pub fn game_name(game: &Game<'_>, report: &GameReport) -> Option<String> {
    let tag = |n: &str| {
        game.tag(n)
            .map(|t| report.encoding.decode(&t.value()).trim().to_owned())
            .filter(|v| !v.is_empty() && v != "?")
    };
    let (w, b, e) = (tag("White"), tag("Black"), tag("Event"));
    if w.is_none() && b.is_none() && e.is_none() {
        return None;
    }
    let mut s = format!(
        "{} - {}",
        w.as_deref().unwrap_or("?"),
        b.as_deref().unwrap_or("?")
    );
    if let Some(e) = e {
        s.push_str(&format!(" ({e})"));
    }
    Some(s)
}

/// The source line `line` of `data` decoded, and the range of the token
/// `span` in it (clamped to the line: no offset can panic or wrap).
pub fn source_line(
    data: &[u8],
    line: &Range<usize>,
    span: &Range<usize>,
    encoding: Encoding,
) -> (String, Range<usize>) {
    let text = data.get(line.clone()).unwrap_or_default();
    let token_start = span.start.saturating_sub(line.start).min(text.len());
    let token_end = span
        .end
        .min(line.end)
        .saturating_sub(line.start)
        .clamp(token_start, text.len());
    let pre = encoding
        .decode(text.get(..token_start).unwrap_or_default())
        .len();
    let tok = encoding
        .decode(text.get(token_start..token_end).unwrap_or_default())
        .len();
    let decoded = encoding.decode(text).into_owned();
    render::source_window(&decoded, pre..pre.saturating_add(tok))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use pgnkit_pgn::location::count_lines;
    use pgnkit_pgn::{Game, Reader};
    use pgnkit_replay::{Options, replay_game};

    use super::Locator;
    use crate::Format;

    /// Passing each game as it is read ([`Locator::pass`]) locates every
    /// diagnostic where a locator that never passes does (also when only
    /// one game in three is located, the lines of the others counted
    /// later in one go), and counts the
    /// lines of the whole and of every first part ending at a game's start
    /// as `count_lines` does: on the real games with problems of
    /// `testdata/check/` (`\n`, `\r\n` and `\r`-only files among them), and
    /// on each again with its line ends made `\r\n` and `\r`.
    #[test]
    fn games_passed_one_by_one_are_located_and_counted_as_the_whole() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/check");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("testdata/check")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect();
        files.sort();
        assert!(files.len() > 20, "{} files", files.len());
        let mut located = 0usize;
        for path in &files {
            let text = std::fs::read(path).expect("a test file");
            let lf: Vec<u8> = text.iter().copied().filter(|&b| b != b'\r').collect();
            let crlf: Vec<u8> = lf
                .iter()
                .flat_map(|&b| {
                    if b == b'\n' {
                        vec![b'\r', b'\n']
                    } else {
                        vec![b]
                    }
                })
                .collect();
            let cr: Vec<u8> = lf
                .iter()
                .map(|&b| if b == b'\n' { b'\r' } else { b })
                .collect();
            for data in [&text, &crlf, &cr] {
                let mut passing = Locator::new(data, 0, 0, Format::Json);
                let mut still = Locator::new(data, 0, 0, Format::Json);
                let mut parts = Locator::new(data, 0, 0, Format::Json);
                // Passes every game, locates one in three: the lines of the
                // games between are counted only when the next is located.
                let mut sparse = Locator::new(data, 0, 0, Format::Json);
                let mut reader = Reader::new(data);
                let mut game = Game::default();
                let mut index = 0u64;
                while reader.read_game(&mut game) {
                    let report = replay_game(data, &game, &Options::default());
                    let by_passing = passing.locate(&game, &report, index, |_| true);
                    let by_still = still.locate(&game, &report, index, |_| true);
                    let places = |l: &[crate::Located]| -> Vec<(usize, usize, usize, usize)> {
                        l.iter()
                            .map(|l| (l.line, l.column, l.end_line, l.end_column))
                            .collect()
                    };
                    assert_eq!(
                        places(&by_passing),
                        places(&by_still),
                        "{path:?} game {index}"
                    );
                    located += by_passing.len();
                    if index % 3 == 2 {
                        let by_sparse = sparse.locate(&game, &report, index, |_| true);
                        assert_eq!(
                            places(&by_sparse),
                            places(&by_still),
                            "{path:?} game {index}, located after games only passed"
                        );
                    }
                    // The lines before this game, counted by a locator that
                    // goes on passing games after it has counted them.
                    assert_eq!(
                        parts.lines_to(game.span.start),
                        count_lines(&data[..game.span.start]),
                        "{path:?} game {index}"
                    );
                    parts.pass(game.span.end);
                    passing.pass(game.span.end);
                    sparse.pass(game.span.end);
                    index += 1;
                }
                assert_eq!(passing.lines_to(data.len()), count_lines(data), "{path:?}");
                assert_eq!(sparse.lines_to(data.len()), count_lines(data), "{path:?}");
            }
        }
        assert!(located > 100, "{located} diagnostics located");
    }
}
