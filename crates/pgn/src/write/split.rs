//! The lines of a game as games of their own (`convert --split-variations`).

use std::ops::Range;

use super::moves::Moves;
use super::words::draw_offer_at;
use crate::{Game, TokenKind};

/// One line of a game while [`SplitLines::new`] reads it.
#[derive(Debug)]
struct SplitLine {
    /// The line's own tokens, its variations' left out.
    segments: Vec<Range<usize>>,
    /// The nearest line above it that has tokens to write before the cut
    /// below it (the move of that line this one replaces, or its `(` when
    /// it has none), with that cut: the lines in between add nothing that
    /// is written (move numbers at most), and [`SplitLines::ranges`] skips
    /// them (a variation nested a million
    /// deep, each replacing its parent's first move, is no walk of a
    /// million lines).
    link: Option<(usize, usize)>,
}

/// A line [`SplitLines::new`] is inside of while it reads the tokens.
#[derive(Debug)]
struct OpenLine {
    /// Index in the lines.
    line: usize,
    /// Where its current segment starts (`usize::MAX` inside a variation).
    start: usize,
    /// Its last move so far.
    last: Option<usize>,
    /// It has a token that is written (anything but a move number).
    written: bool,
    /// It had one before its last move.
    written_before_last: bool,
}

impl OpenLine {
    fn new(line: usize, start: usize) -> OpenLine {
        OpenLine {
            line,
            start,
            last: None,
            written: false,
            written_before_last: false,
        }
    }
}

/// The lines of a game as games of their own (pgn-extract's
/// `--splitvariants`): the main line, then each variation in the order it
/// opens, as the game's tokens from its start up to the move the variation
/// replaces, then the variation's own. Each line is the token ranges
/// [`Writer::write_line`](super::Writer::write_line) writes; in none of them is there a variation.
///
/// Reading the structure takes one pass, without recursion; the ranges of
/// one line are made when they are asked for, so that the memory held is
/// that of the game and of one line (a line nested `d` deep is made of the
/// pieces of `d` lines).
///
/// ```
/// use pgnkit_pgn::text::GameText;
/// use pgnkit_pgn::write::{Layout, Moves, SplitLines, Writer};
/// use pgnkit_pgn::{Game, Reader, TokenKind};
///
/// let pgn = b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// // The words as a replay would write them (move number, White).
/// let mut moves = Moves::new(true);
/// let places = [(1, true), (1, false), (1, false), (2, true), (2, true)];
/// let words = (0..game.tokens.len()).filter(|&i| game.tokens.kind(i) == Some(TokenKind::Word));
/// for (i, (n, white)) in words.zip(places) {
///     let text = String::from_utf8_lossy(game.tokens.get(i).unwrap().text).into_owned();
///     moves.push_with(i, n, white, |t, _| t.push_str(&text));
/// }
/// let lines = SplitLines::new(&game, &moves);
/// let source = GameText::new(pgn, game.span.clone());
/// let (mut ranges, mut out) = (Vec::new(), Vec::new());
/// for line in 0..lines.len() {
///     lines.ranges(line, &mut ranges);
///     Writer::with_layout(Layout::default()).write_line(&mut out, pgn, &game, &source, &moves, Some(&ranges));
/// }
/// assert_eq!(out, b"1. e4 e5 2. Nf3 *\n\n1. e4 c5 2. Nf3 *\n\n");
/// ```
#[derive(Debug)]
pub struct SplitLines {
    lines: Vec<SplitLine>,
}

impl SplitLines {
    /// The lines of `game`, whose replayed moves are in `moves`.
    pub fn new(game: &Game<'_>, moves: &Moves) -> SplitLines {
        let main = SplitLine {
            segments: Vec::new(),
            link: None,
        };
        let mut lines = vec![main];
        let mut open: Vec<OpenLine> = vec![OpenLine::new(0, 0)];
        let mut cursor = 0usize;
        let mut i = 0usize;
        while let Some(kind) = game.tokens.kind(i) {
            match kind {
                TokenKind::OpenVariation if draw_offer_at(game, i) => {
                    // `(=)`, written as a comment.
                    if let Some(o) = open.last_mut() {
                        o.written = true;
                    }
                    i += 3;
                    continue;
                }
                TokenKind::OpenVariation => {
                    if let Some(o) = open.last_mut()
                        && let Some(l) = lines.get_mut(o.line)
                    {
                        l.segments.push(o.start..i);
                        // Inside the variation: no segment of its own
                        // until the variation closes.
                        o.start = usize::MAX;
                        // The variation replaces the line's last move, or
                        // follows all of it when it has none.
                        let (cut, adds) = match o.last {
                            Some(last) => (last, o.written_before_last),
                            None => (i, o.written),
                        };
                        let link = if adds { Some((o.line, cut)) } else { l.link };
                        lines.push(SplitLine {
                            segments: Vec::new(),
                            link,
                        });
                        open.push(OpenLine::new(lines.len() - 1, i + 1));
                    }
                }
                TokenKind::CloseVariation if open.len() > 1 => {
                    if let Some(o) = open.pop()
                        && let Some(l) = lines.get_mut(o.line)
                    {
                        l.segments.push(o.start..i);
                    }
                    if let Some(o) = open.last_mut() {
                        o.start = i + 1;
                    }
                }
                // Move numbers are written anew, never as read.
                TokenKind::MoveNumber { .. } => {}
                kind => {
                    if let Some(o) = open.last_mut() {
                        if kind == TokenKind::Word && moves.get_next(i, &mut cursor).is_some() {
                            o.written_before_last = o.written;
                            o.last = Some(i);
                        }
                        o.written = true;
                    }
                }
            }
            i += 1;
        }
        let end = game.tokens.len();
        // Unclosed variations end with the game (their parents with them).
        while let Some(o) = open.pop() {
            if let Some(l) = lines.get_mut(o.line)
                && o.start != usize::MAX
            {
                l.segments.push(o.start..end);
            }
        }
        for l in &mut lines {
            l.segments.retain(|r| !r.is_empty());
        }
        SplitLines { lines }
    }

    /// The number of lines (1 for a game without variations).
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether there is no line at all (never: the main line is one).
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Puts into `out` the token ranges of line `line` (0 for the main
    /// line), in order.
    pub fn ranges(&self, line: usize, out: &mut Vec<Range<usize>>) {
        out.clear();
        // The line and the lines above it that add tokens, each with the
        // cut below it, from the line up; then laid out from the main line
        // down.
        let mut chain: Vec<(usize, usize)> = vec![(line, usize::MAX)];
        let mut next = self.lines.get(line).and_then(|l| l.link);
        while let Some((l, cut)) = next {
            chain.push((l, cut));
            next = self.lines.get(l).and_then(|l| l.link);
        }
        for &(l, cut) in chain.iter().rev() {
            let Some(line) = self.lines.get(l) else {
                continue;
            };
            for r in &line.segments {
                if r.start >= cut {
                    break;
                }
                out.push(r.start..r.end.min(cut));
            }
        }
    }
}
