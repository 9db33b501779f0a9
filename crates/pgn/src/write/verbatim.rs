//! The text of a line that is not converted (from its first word that is
//! no move of the [`Moves`](super::Moves)), kept verbatim in comments.

use crate::{Game, Token, TokenKind};

/// Index of the token that ends the line that token `i` (at variation
/// depth `depth`, 0 for the main line) belongs to: its closing `)`, or for
/// the main line the game's result token (or the end).
pub fn line_end(game: &Game<'_>, i: usize, depth: usize) -> usize {
    let mut d = depth;
    for (j, t) in game.tokens.range(i..usize::MAX).enumerate() {
        let j = i + j;
        match t.kind {
            TokenKind::OpenVariation => d += 1,
            TokenKind::CloseVariation if d > 0 => {
                if d == depth {
                    return j;
                }
                d -= 1;
            }
            TokenKind::Result(_) if depth == 0 && game.result_token == Some(j) => return j,
            _ => {}
        }
    }
    game.tokens.len()
}

/// The pieces of the verbatim text of tokens `from..to`: runs of movetext
/// (raw, trimmed, `}` dropped) and the comments inside, in order.
pub fn verbatim_pieces<'t>(
    input: &'t [u8],
    game: &'t Game<'t>,
    from: usize,
    to: usize,
    mut piece: impl FnMut(VerbatimPiece<'t>),
) {
    let mut run_start: Option<usize> = None;
    let mut run_end = 0usize;
    let flush = |start: Option<usize>, end: usize, piece: &mut dyn FnMut(VerbatimPiece<'t>)| {
        if let Some(s) = start
            && let Some(raw) = input.get(s..end)
        {
            let raw = raw.trim_ascii();
            if !raw.is_empty() {
                piece(VerbatimPiece::Text(raw));
            }
        }
    };
    for t in game.tokens.range(from..to) {
        if t.kind == TokenKind::Comment {
            flush(run_start.take(), run_end, &mut piece);
            piece(VerbatimPiece::Comment(t));
        } else {
            if run_start.is_none() {
                run_start = Some(t.span.start);
            }
            run_end = t.span.end;
        }
    }
    flush(run_start, run_end, &mut piece);
}

/// A piece of verbatim movetext.
pub enum VerbatimPiece<'t> {
    /// Raw movetext (may hold `}` and line breaks).
    Text(&'t [u8]),
    /// A comment token.
    Comment(Token<'t>),
}
