//! A game as plain text, one move a line.

use super::moves::Moves;
use super::numbering::itoa_buf;
use super::writer::{DRAIN_AT, result_marker};
use crate::text::GameText;
use crate::{Game, TokenKind};

/// Writes `game` as plain text, one move a line: a line with its players
/// (`White - Black`, from its tags), each converted move numbered
/// (`1. Knight g1 to f3`, `1... Knight g8 to f6`), the moves of a variation
/// indented by two spaces a level (up to 16 levels), and the result; then
/// an empty line. For moves that are words (spoken moves) and for reading
/// aloud. Comments, NAGs and words that are no converted move are left out.
///
/// # Errors
/// The first error of `out`.
///
/// ```
/// use pgnkit_pgn::text::GameText;
/// use pgnkit_pgn::write::{Moves, write_move_lines};
/// use pgnkit_pgn::{Game, Reader, TokenKind};
///
/// let pgn = b"[White \"Anna\"]\n[Black \"Boris\"]\n\n1. e4 (1. d4) e5 1-0\n";
/// let mut game = Game::default();
/// assert!(Reader::new(pgn).read_game(&mut game));
/// let mut moves = Moves::new(true);
/// let words: Vec<usize> = (0..game.tokens.len())
///     .filter(|&i| game.tokens.kind(i) == Some(TokenKind::Word))
///     .collect();
/// // e4, d4 (in the variation), e5: as a converter would write them.
/// for (&i, (text, white)) in words.iter().zip([("pawn e4", true), ("pawn d4", true), ("pawn e5", false)]) {
///     moves.push_with(i, 1, white, |out, _| out.push_str(text));
/// }
/// let mut out = Vec::new();
/// write_move_lines(&mut out, &game, &GameText::new(pgn, game.span.clone()), &moves)?;
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "Anna - Boris\n1. pawn e4\n  1. pawn d4\n1... pawn e5\n1-0\n\n"
/// );
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_move_lines<W: std::io::Write + ?Sized>(
    out: &mut W,
    game: &Game<'_>,
    source: &GameText<'_>,
    moves: &Moves,
) -> std::io::Result<()> {
    let player = |name: &str| {
        game.tag(name)
            .map(|t| source.decode(&t.value()).trim().to_owned())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "?".to_owned())
    };
    // Written in pieces: a game of millions of moves is never held whole.
    let mut buf = format!("{} - {}\n", player("White"), player("Black")).into_bytes();
    let mut depth = 0usize;
    let mut cursor = 0usize;
    for (i, kind) in game.tokens.kinds().enumerate() {
        match kind {
            TokenKind::OpenVariation => depth = depth.saturating_add(1),
            TokenKind::CloseVariation => depth = depth.saturating_sub(1),
            TokenKind::Word => {
                if let Some(m) = moves.get_next(i, &mut cursor) {
                    // Deeper than a reader can follow: no deeper indent.
                    let indent = depth.min(MAX_INDENT) * 2;
                    buf.resize(buf.len().saturating_add(indent), b' ');
                    buf.extend_from_slice(itoa_buf(m.number).as_slice());
                    buf.extend_from_slice(if m.white { b". " } else { b"... " });
                    buf.extend_from_slice(m.text.as_bytes());
                    buf.push(b'\n');
                    if buf.len() >= DRAIN_AT {
                        out.write_all(&buf)?;
                        buf.clear();
                    }
                }
            }
            _ => {}
        }
    }
    buf.extend_from_slice(result_marker(game, source).as_bytes());
    buf.extend_from_slice(b"\n\n");
    out.write_all(&buf)
}

/// The deepest level of variations [`write_move_lines`] indents.
const MAX_INDENT: usize = 16;
