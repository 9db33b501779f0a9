//! Plain ASCII SAN (`Nf3`, `exd5`, `e8=Q+`, `O-O`), read without
//! allocation: the common shapes by hand, the rest by shakmaty's parser.

use shakmaty::{CastlingSide, File, Rank, Role, Square, san::San};

use super::body::parse_general;
use super::marks::glyph_nag;
use super::move_token::{Body, MoveToken};
use super::{MAX_TOKEN_CHARS, ParseError, Suffix};

/// Parses the common shapes of plain ASCII SAN (`e4`, `Nf3`, `exd5`,
/// `Nbd7`, `R1e2`, `Qxf7#`, `e8=Q+`, `O-O`), with at most a `+` or `#`
/// after them, from bytes; `None` for anything else, including forms
/// [`parse_move`] reads in other ways (`Nf3!`, `Ng1f3`, `e2-e4`, `Кf3`).
///
/// For what it accepts it gives exactly what the rest of [`parse_move`]
/// gives (tested over every string of up to five SAN characters), faster:
/// [`parse_move`] tries it first.
#[inline(always)]
pub(crate) fn parse_plain_san(bytes: &[u8]) -> Option<MoveToken> {
    let (suffix, body) = split_check_mark(bytes);
    let mut token = MoveToken::new(Body::San(plain_san_body(body)?, false));
    token.marks.set_suffix(suffix);
    Some(token)
}

/// The SAN of a word [`parse_plain_san`] reads, without its check mark.
#[inline(always)]
pub(crate) fn plain_san(bytes: &[u8]) -> Option<San> {
    plain_san_body(split_check_mark(bytes).1)
}

/// A trailing `+` or `#`, and the word without it.
#[inline(always)]
pub(super) fn split_check_mark(bytes: &[u8]) -> (Suffix, &[u8]) {
    match bytes.split_last() {
        Some((b'+', body)) => (Suffix::Check, body),
        Some((b'#', body)) => (Suffix::Mate, body),
        _ => (Suffix::None, bytes),
    }
}

/// The SAN of `body` for the shapes [`parse_plain_san`] reads, as
/// shakmaty's `San::from_ascii` would give it.
#[inline(always)]
fn plain_san_body(body: &[u8]) -> Option<San> {
    let file = |b: u8| File::from_char(char::from(b));
    let rank = |b: u8| Rank::from_char(char::from(b));
    // A table, not a `match`: which piece moves is no branch a processor
    // predicts well.
    let role = |b: u8| PIECE_LETTERS[usize::from(b)];
    let square = |f: u8, r: u8| Some(Square::from_coords(file(f)?, rank(r)?));
    let normal = |role, file, rank, capture, to, promotion| San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    };
    Some(match *body {
        [f, r] => normal(Role::Pawn, None, None, false, square(f, r)?, None),
        [b'O', b'-', b'O'] => San::Castle(CastlingSide::KingSide),
        [b'O', b'-', b'O', b'-', b'O'] => San::Castle(CastlingSide::QueenSide),
        [p, f, r] => normal(role(p)?, None, None, false, square(f, r)?, None),
        [f, r, b'=', q] => normal(
            Role::Pawn,
            None,
            None,
            false,
            square(f, r)?,
            Some(promotion(q)?),
        ),
        [p, b'x', f, r] => match role(p) {
            Some(role) => normal(role, None, None, true, square(f, r)?, None),
            None => normal(Role::Pawn, Some(file(p)?), None, true, square(f, r)?, None),
        },
        [p, d, f, r] => {
            let role = role(p)?;
            let to = square(f, r)?;
            match (file(d), rank(d)) {
                (Some(d), _) => normal(role, Some(d), None, false, to, None),
                (_, Some(d)) => normal(role, None, Some(d), false, to, None),
                _ => return None,
            }
        }
        [p, b'x', f, r, b'=', q] => normal(
            Role::Pawn,
            Some(file(p)?),
            None,
            true,
            square(f, r)?,
            Some(promotion(q)?),
        ),
        _ => return None,
    })
}

/// The piece of each uppercase letter of plain SAN (`N`, `B`, `R`, `Q`,
/// `K`), by byte; `None` for every other byte (a pawn's file, `P`, which is
/// left to shakmaty's parser).
static PIECE_LETTERS: [Option<Role>; 256] = {
    let mut table = [None; 256];
    table[b'N' as usize] = Some(Role::Knight);
    table[b'B' as usize] = Some(Role::Bishop);
    table[b'R' as usize] = Some(Role::Rook);
    table[b'Q' as usize] = Some(Role::Queen);
    table[b'K' as usize] = Some(Role::King);
    table
};

/// A promotion letter of plain SAN (`=Q`); shakmaty also reads lowercase
/// and `P`/`K`, which are left to it.
#[inline]
fn promotion(b: u8) -> Option<Role> {
    match b {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        _ => None,
    }
}

#[inline(never)]
pub(super) fn parse_other(text: &str) -> Result<MoveToken, ParseError> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return Err(ParseError::Empty);
    }
    if bytes.len() <= MAX_TOKEN_CHARS
        && let Some(token) = parse_ascii_san(bytes)
    {
        return Ok(token);
    }
    parse_general(text)
}

/// The token for SAN that shakmaty parsed from `bytes` (with an optional `+`/`#`).
#[inline]
pub(super) fn token_from_san(san: San, bytes: &[u8]) -> Option<MoveToken> {
    let (suffix, body) = match bytes.split_last() {
        Some((b'+', body)) => (Suffix::Check, body),
        Some((b'#', body)) => (Suffix::Mate, body),
        _ => (Suffix::None, bytes),
    };
    let mut t = MoveToken::new(match san {
        San::Normal { .. } | San::Castle(_) => Body::San(san, body.first() == Some(&b'P')),
        San::Null => Body::Null,
        San::Put { .. } => return None,
    });
    t.marks.set_suffix(suffix);
    Some(t)
}

/// The fast path: plain SAN with trailing `+ # ! ?` marks, parsed by shakmaty.
#[inline]
fn parse_ascii_san(bytes: &[u8]) -> Option<MoveToken> {
    let mut end = bytes.len();
    let mut suffix = Suffix::None;
    let mut nag_end = 0;
    let mut nag_start = 0;
    while end > 0 {
        match bytes[end - 1] {
            b'+' if suffix == Suffix::None => {
                if end >= 2 && bytes[end - 2] == b'+' {
                    suffix = Suffix::DoubleCheck;
                    end -= 1;
                } else {
                    suffix = Suffix::Check;
                }
            }
            b'#' if suffix == Suffix::None => suffix = Suffix::Mate,
            b'!' | b'?' if nag_end == 0 => {
                nag_end = end;
                if end >= 2 && matches!(bytes[end - 2], b'!' | b'?') {
                    end -= 1;
                }
                nag_start = end - 1;
            }
            _ => break,
        }
        end -= 1;
    }
    let nag = if nag_end > 0 {
        Some(glyph_nag(&bytes[nag_start..nag_end])?)
    } else {
        None
    };
    let body = &bytes[..end];
    let san = San::from_ascii(body).ok()?;
    let mut token = token_from_san(san, body)?;
    token.marks.set_suffix(suffix);
    token.marks.set_nag(nag);
    Some(token)
}
