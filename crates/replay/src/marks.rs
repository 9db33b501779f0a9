//! Check and mate marks: `+`, `#` and `++` as written against what the move
//! did. A mark is judged once the next token of its line is read: a mark
//! written as a word of its own (`Nf3 +`) may still come, and whether a
//! check mated is known only when a move follows it (it did not) or the
//! line ends (it is looked at then).

use std::ops::Range;

use pgnkit_notation::Suffix;
use shakmaty::Color;

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use pgnkit_notation::Line as Play;

/// The mark of a move just played, waiting to be judged.
pub(crate) struct Mark<'a> {
    /// The move's word as written.
    pub text: &'a [u8],
    pub span: Range<usize>,
    /// The mark written, in the word or as a word of its own after it.
    pub written: Suffix,
    /// The mark written in the move's own word.
    pub own: Suffix,
    pub check: bool,
    /// `None` until known (a check followed by nothing in its line).
    pub mate: Option<bool>,
    /// The move gives check with two pieces (looked at for `++` only).
    pub double: bool,
    pub ply: u32,
    pub move_number: u32,
    pub side: Color,
    pub variation: bool,
}

impl Mark<'_> {
    /// A mark written as a word of its own after the move (`Nf3 +`).
    pub fn add(&mut self, annotation: pgnkit_notation::Annotation) {
        use pgnkit_notation::Annotation;
        match annotation {
            Annotation::Check if self.written == Suffix::None => self.written = Suffix::Check,
            Annotation::DoubleCheck if self.written == Suffix::None => {
                self.written = Suffix::DoubleCheck
            }
            Annotation::Mate => self.written = Suffix::Mate,
            _ => {}
        }
    }

    /// What is wrong with the mark, the line's position after the move
    /// being `pos` (for deciding mate where that is not known yet): the
    /// problem in words and the right mark; `None` when it is right.
    #[inline]
    pub fn problem(&self, pos: Option<&Play>) -> Option<Problem> {
        let mate = self
            .mate
            .unwrap_or_else(|| pos.is_some_and(Play::is_checkmate));
        // UCI and ICCF numeric never mark checks: no warning for a missing mark.
        if self.written == Suffix::None && (self.check || mate) && is_uci(self.text) {
            return None;
        }
        mark_problem(self.written, self.check, self.double, mate)
    }
}

/// What is wrong with a mark, in words, and the right mark.
pub(crate) type Problem = (&'static str, &'static str);

/// Reports the `problem` of `p`'s mark into `diagnostics` (rare: out of
/// the replay loop's line).
#[cold]
#[inline(never)]
pub(crate) fn report(p: Mark<'_>, (what, mark): Problem, diagnostics: &mut Diagnostics) {
    // The word rewritten with the right mark, where the mark is the word's
    // own (a mark written as a word of its own is left as it is).
    // (The word's text is its whole span, so that the rewrite replaces it.)
    let rewrite = (p.written == p.own && p.text.len() == p.span.len())
        .then(|| std::str::from_utf8(p.text).ok())
        .flatten()
        .and_then(|word| {
            let rest = word.trim_start_matches(['.', '…']);
            let dots = word.get(..word.len() - rest.len())?;
            let suffix = match mark {
                "+" => Suffix::Check,
                "#" => Suffix::Mate,
                _ => Suffix::None,
            };
            pgnkit_notation::with_suffix(rest, suffix).map(|w| format!("{dots}{w}"))
        });
    if !diagnostics.has_room(Code::CheckMark) {
        diagnostics.count(Code::CheckMark);
        return;
    }
    let mut d = Diagnostic::new(Code::CheckMark, p.span, format!("the move {what}"));
    d.help.push(if mark.is_empty() {
        "write the move without `+` or `#`".to_owned()
    } else {
        format!("write the move with `{mark}`")
    });
    d.ply = Some(p.ply);
    d.move_number = Some(p.move_number);
    d.side = Some(p.side);
    d.variation = p.variation;
    d.rewrite = rewrite;
    d.token = Some(
        String::from_utf8_lossy(p.text)
            .trim_start_matches(['.', '…'])
            .to_owned(),
    );
    diagnostics.push(d);
}

/// Is `b` a UCI move (`e2e4`, `e7e8q`) or an ICCF numeric one (`5254`,
/// `27281`)? Neither notation marks checks, so a missing mark on one is no
/// problem.
pub(crate) fn is_uci(b: &[u8]) -> bool {
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    ((b.len() == 4 || (b.len() == 5 && matches!(b[4], b'q' | b'r' | b'b' | b'n')))
        && square(b[0], b[1])
        && square(b[2], b[3]))
        || pgnkit_notation::token::is_iccf(b)
}

/// What is wrong with the check or mate mark `written` on a move that gives
/// check (`check`; by two pieces: `double`) and mates (`mate`): the problem
/// in words and the right mark; `None` when the mark is right.
pub(crate) fn mark_problem(
    written: Suffix,
    check: bool,
    double: bool,
    mate: bool,
) -> Option<Problem> {
    match written {
        Suffix::Mate if !mate && check => Some(("marks mate, but the move only gives check", "+")),
        Suffix::Mate if !mate => Some(("marks mate, but the move gives no check", "")),
        Suffix::Check if mate => Some(("marks check, but the move mates", "#")),
        Suffix::Check if !check => Some(("marks check, but the move gives no check", "")),
        Suffix::DoubleCheck if !check => Some(("marks check, but the move gives no check", "")),
        Suffix::DoubleCheck if !double && !mate => {
            Some(("marks double check, but only one piece gives check", "+"))
        }
        Suffix::None if mate => Some(("is missing the mate mark", "#")),
        Suffix::None if check => Some(("is missing the check mark", "+")),
        _ => None,
    }
}
