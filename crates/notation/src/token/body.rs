//! The general reader: any move that is not plain SAN, its marks peeled
//! off, its body read as ICCF, castling, a null move, coordinates with
//! piece letters or figurines and a promotion, descriptive notation, or
//! spoken words.

use shakmaty::{CastlingSide, File, Rank, Role};

use super::chars::{Buf, is_figurine, is_piece_letter};
use super::iccf::parse_iccf;
use super::marks::{Peeled, peel_marks};
use super::move_token::{Body, Coords, Letters, Marks, MoveToken, PieceMark};
use super::spoken;
use super::{MAX_TOKEN_CHARS, ParseError, Suffix};

/// The longest spoken move read, in bytes (a spoken move is several words
/// and longer than [`MAX_TOKEN_CHARS`]).
const MAX_SPOKEN_BYTES: usize = 512;

pub(super) fn parse_general(text: &str) -> Result<MoveToken, ParseError> {
    // Spoken moves are read from the words as written: the look-alike
    // normalization below (Cyrillic х as a capture mark) is for letters.
    let words = text.trim();
    if words.len() <= MAX_SPOKEN_BYTES
        && words.contains(char::is_whitespace)
        && let Some(token) = spoken::parse(words)
    {
        return Ok(token);
    }
    let buf = Buf::from_str(text)?;
    let mut s = buf.as_slice();
    // trim whitespace at both ends
    while s.first().is_some_and(|c| c.is_whitespace()) {
        s = &s[1..];
    }
    if s.is_empty() {
        return Err(ParseError::Empty);
    }

    let marks = peel_marks(s)?;
    let Peeled {
        body,
        suffix,
        nag,
        draw_offer,
        en_passant,
        trailing_capture,
        ..
    } = marks;
    let s = &s[..body];
    if s.is_empty() {
        return Err(if text.trim().is_empty() {
            ParseError::Empty
        } else {
            ParseError::Unparsable
        });
    }
    let mut token = match parse_body(s) {
        Ok(token) => token,
        Err(e) => parse_descriptive(s).ok_or(e)?,
    };
    if suffix != Suffix::None {
        token.marks.set_suffix(suffix);
    }
    if nag.is_some() {
        token.marks.set_nag(nag);
    }
    token.marks.set(Marks::DRAW, draw_offer);
    token.marks.set(Marks::EP, en_passant);
    if trailing_capture {
        token.marks.set(Marks::CAPTURE, true);
        if let Body::Coords(c) = &mut token.body {
            c.capture = true;
        }
    }
    Ok(token)
}

fn parse_castling(s: &[char]) -> Option<CastlingSide> {
    let mut count = 0;
    let mut dash_last = true;
    let mut dashes = 0;
    for &c in s {
        match c {
            'O' | 'o' | '0' => {
                count += 1;
                dash_last = false;
            }
            '-' if !dash_last => {
                dashes += 1;
                dash_last = true;
            }
            _ => return None,
        }
    }
    if dash_last || (dashes != 0 && dashes + 1 != count) {
        return None;
    }
    match count {
        2 => Some(CastlingSide::KingSide),
        3 => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Castling as books print it in descriptive notation: `Castles` (either
/// side), with the side after it (`Castles(QR)`, `Castles QR`,
/// `Castles (Q)`, `CastlesQR`, `Castles-Q`, `Castles(K)`).
fn parse_castles(s: &[char]) -> Option<Body> {
    let rest = match s {
        ['C' | 'c', 'a', 's', 't', 'l', 'e', rest @ ..] => rest,
        _ => return None,
    };
    let side = match rest {
        [] | ['s'] => return Some(Body::Castles),
        ['s', side @ ..] => side,
        _ => return None,
    };
    // `Castles QR`: the side may follow after spaces.
    let spaces = side.iter().take_while(|c| c.is_whitespace()).count();
    let side = &side[spaces..];
    let side = match side {
        ['(', inner @ .., ')'] | ['-', inner @ ..] => inner,
        side => side,
    };
    match side {
        ['K'] | ['K', 'R'] => Some(Body::Castle(CastlingSide::KingSide)),
        ['Q'] | ['Q', 'R'] => Some(Body::Castle(CastlingSide::QueenSide)),
        _ => None,
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Elem {
    File(File),
    Rank(Rank),
}

fn file_of(c: char) -> Option<File> {
    match c {
        'a'..='h' => File::from_char(c),
        _ => None,
    }
}

fn rank_of(c: char) -> Option<Rank> {
    match c {
        '1'..='8' => Rank::from_char(c),
        _ => None,
    }
}

fn parse_body(s: &[char]) -> Result<MoveToken, ParseError> {
    if let Some(token) = parse_iccf(s) {
        return Ok(token);
    }
    if let Some(side) = parse_castling(s) {
        return Ok(MoveToken::new(Body::Castle(side)));
    }
    if let Some(body) = parse_castles(s) {
        return Ok(MoveToken::new(body));
    }
    if matches!(s, ['-', '-'] | ['Z', '0'] | ['0', '0', '0', '0']) {
        return Ok(MoveToken::new(Body::Null));
    }
    let mut i = 0;
    // the piece
    let piece = if let Some(role) = is_figurine(s[0]) {
        i = 1;
        if role == Role::Pawn {
            PieceMark::None
        } else {
            PieceMark::Role(role)
        }
    } else if is_piece_letter(s[0]) && s[0] != 'X' {
        i = 1;
        let second = (s.len() > 1
            && s[1].is_alphabetic()
            && s[1].is_lowercase()
            && file_of(s[1]).is_none()
            && s[1] != 'x')
            .then(|| s[1]);
        if second.is_some() {
            i = 2;
        }
        PieceMark::Letters(Letters::new(s[0], second).ok_or(ParseError::Unparsable)?)
    } else {
        PieceMark::None
    };

    // coordinates
    let mut elems = [Elem::Rank(Rank::First); 4];
    let mut n = 0;
    let mut sep: Option<(usize, bool)> = None; // (position, is_capture)
    while i < s.len() {
        let c = s[i];
        let elem = if n == 4 && c == 'b' {
            break;
        } else if let Some(f) = file_of(c) {
            Elem::File(f)
        } else if let Some(r) = rank_of(c) {
            Elem::Rank(r)
        } else if matches!(c, 'x' | 'X' | ':' | '-') {
            if sep.is_some() || (n == 0 && (piece == PieceMark::None || c == '-')) {
                return Err(ParseError::Unparsable);
            }
            sep = Some((n, c != '-'));
            i += 1;
            continue;
        } else {
            break;
        };
        if n == 4 {
            return Err(ParseError::Unparsable);
        }
        elems[n] = elem;
        n += 1;
        i += 1;
    }
    use Elem::{File as F, Rank as R};
    let sep_at = sep.map(|(p, _)| p);
    let capture = sep.is_some_and(|(_, c)| c);
    let coords = match elems[..n] {
        [F(tf), R(tr)] if sep_at.is_none() || sep_at == Some(0) => Coords {
            from_file: None,
            from_rank: None,
            capture,
            to_file: tf,
            to_rank: Some(tr),
        },
        [F(ff), F(tf), R(tr)] if sep_at.is_none() || sep_at == Some(1) => Coords {
            from_file: Some(ff),
            from_rank: None,
            capture,
            to_file: tf,
            to_rank: Some(tr),
        },
        [R(fr), F(tf), R(tr)] if sep_at.is_none() || sep_at == Some(1) => Coords {
            from_file: None,
            from_rank: Some(fr),
            capture,
            to_file: tf,
            to_rank: Some(tr),
        },
        [F(ff), R(fr), F(tf), R(tr)] if sep_at.is_none() || sep_at == Some(2) => Coords {
            from_file: Some(ff),
            from_rank: Some(fr),
            capture,
            to_file: tf,
            to_rank: Some(tr),
        },
        // A pawn captures on a neighbouring file: `ed`, never `ch` (a
        // book's check written as a word of its own).
        [F(ff), F(tf)]
            if piece == PieceMark::None
                && ff.distance(tf) == 1
                && (sep_at.is_none() || (sep_at == Some(1) && capture)) =>
        {
            Coords {
                from_file: Some(ff),
                from_rank: None,
                capture,
                to_file: tf,
                to_rank: None,
            }
        }
        _ => return Err(ParseError::Unparsable),
    };

    // promotion
    let mut rest = &s[i..];
    let mut promotion = PieceMark::None;
    if !rest.is_empty() {
        if coords.to_rank.is_none() {
            return Err(ParseError::Unparsable);
        }
        if matches!(rest[0], '=' | '/') {
            rest = &rest[1..];
        }
        let inner = match rest {
            ['(', c, ')'] => *c,
            [c] => *c,
            _ => return Err(ParseError::Unparsable),
        };
        promotion = if let Some(role) = is_figurine(inner) {
            PieceMark::Role(role)
        } else if let Some(role @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) = inner
            .is_ascii_lowercase()
            .then(|| Role::from_char(inner))
            .flatten()
        {
            PieceMark::Role(role)
        } else if is_piece_letter(inner) {
            PieceMark::Letters(Letters::new(inner, None).ok_or(ParseError::Unparsable)?)
        } else {
            return Err(ParseError::Unparsable);
        };
    }
    let mut token = MoveToken::new(Body::Coords(coords));
    token.piece = piece;
    token.promotion = promotion;
    Ok(token)
}

/// The common shape of descriptive notation, `P-K4`, `NxP(Q5)`, `Q-R5ch`
/// (a plain move with at most `ch` after it), read from its bytes; `None`
/// for anything else (which the general reading then looks at).
#[inline]
pub(super) fn parse_plain_descriptive(bytes: &[u8]) -> Option<MoveToken> {
    if !bytes
        .first()
        .is_some_and(|&b| crate::descriptive::may_start(b))
    {
        return None;
    }
    let (suffix, body) = match bytes {
        [body @ .., b'c', b'h'] | [body @ .., b'+'] => (Suffix::Check, body),
        _ => (Suffix::None, bytes),
    };
    let mut token = MoveToken::new(Body::Descriptive(crate::descriptive::Readings::parse(
        body,
    )?));
    token.marks.set_suffix(suffix);
    Some(token)
}

/// A move in descriptive notation ([`crate::descriptive`]).
fn parse_descriptive(s: &[char]) -> Option<MoveToken> {
    let mut bytes = [0u8; MAX_TOKEN_CHARS];
    let bytes = bytes.get_mut(..s.len())?;
    for (b, c) in bytes.iter_mut().zip(s) {
        *b = u8::try_from(*c).ok()?;
    }
    crate::descriptive::Readings::parse(bytes).map(|r| MoveToken::new(Body::Descriptive(r)))
}

/// Builds a token from the spoken reader's parts.
pub(crate) fn spoken_token(
    body: Body,
    piece: Option<Role>,
    promotion: Option<Role>,
    suffix: Suffix,
    en_passant: bool,
) -> MoveToken {
    let mut t = MoveToken::new(body);
    t.piece = match piece {
        Some(Role::Pawn) | None => PieceMark::None,
        Some(r) => PieceMark::Role(r),
    };
    t.promotion = promotion.map_or(PieceMark::None, PieceMark::Role);
    t.marks.set_suffix(suffix);
    t.marks.set(Marks::EP, en_passant);
    t
}
