//! ICCF numeric notation (`5254`: e2-e4), the one rule for which words of
//! digits are moves.

use shakmaty::{File, Rank, Role};

use super::move_token::{Body, Coords, MoveToken, PieceMark};

/// Whether `word` is a move in ICCF numeric notation: four digits `1`-`8`
/// (file then rank of the origin, then of the destination: `5254` is
/// e2-e4), or five whose move goes from the seventh rank to the eighth or
/// from the second to the first and whose last digit is a promotion (`1`
/// queen, `2` rook, `3` bishop, `4` knight: `27281` is b7-b8=Q). The PGN
/// lexer reads such a word as a move, not as a move number without its dot.
///
/// ```
/// use pgnkit_notation::token::is_iccf;
///
/// assert!(is_iccf(b"5254"));
/// assert!(is_iccf(b"27281"));
/// assert!(!is_iccf(b"1990")); // a 0 is no file or rank
/// assert!(!is_iccf(b"52541")); // no promotion from the second rank to the fourth
/// assert!(!is_iccf(b"12"));
/// ```
pub fn is_iccf(word: &[u8]) -> bool {
    let square = |d: u8| (b'1'..=b'8').contains(&d);
    match *word {
        [a, b, c, d] => square(a) && square(b) && square(c) && square(d),
        [a, b, c, d, p] => {
            square(a)
                && square(c)
                && matches!((b, d), (b'7', b'8') | (b'2', b'1'))
                && (b'1'..=b'4').contains(&p)
        }
        _ => false,
    }
}

/// ICCF numeric notation ([`is_iccf`]): coordinates of any piece (castling
/// is the king's move, `5171`), the promotion as a piece.
pub(super) fn parse_iccf(s: &[char]) -> Option<MoveToken> {
    let mut bytes = [0u8; 5];
    if s.len() > bytes.len() {
        return None;
    }
    for (b, c) in bytes.iter_mut().zip(s) {
        *b = u8::try_from(*c).ok()?;
    }
    let bytes = &bytes[..s.len()];
    if !is_iccf(bytes) {
        return None;
    }
    let file = |b: u8| File::try_from(u32::from(b - b'1')).ok();
    let rank = |b: u8| Rank::try_from(u32::from(b - b'1')).ok();
    let coords = Coords {
        from_file: Some(file(bytes[0])?),
        from_rank: Some(rank(bytes[1])?),
        capture: false,
        to_file: file(bytes[2])?,
        to_rank: Some(rank(bytes[3])?),
    };
    let mut token = MoveToken::new(Body::Coords(coords));
    if let Some(&p) = bytes.get(4) {
        token.promotion = PieceMark::Role(match p {
            b'1' => Role::Queen,
            b'2' => Role::Rook,
            b'3' => Role::Bishop,
            _ => Role::Knight,
        });
    }
    Some(token)
}
