//! The position a game starts from: the standard position, or the `FEN` tag
//! (with `SetUp`), in standard chess or Chess960.

use shakmaty::{CastlingMode, Chess, fen::Fen};

/// How a game starts.
#[derive(Clone, Debug)]
pub struct Start {
    /// The starting position.
    pub position: Chess,
    /// Castling follows the Chess960 rules.
    pub chess960: bool,
}

/// Why a game cannot be replayed from its tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The FEN tag is not a valid FEN, or not a legal position.
    BadFen(String),
    /// The Variant tag names a game other than chess or Chess960.
    UnsupportedVariant(String),
}

/// Is this `Variant` tag value Chess960 (Fischer random, freestyle)?
pub fn is_chess960(variant: &str) -> bool {
    let v: String = variant
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(
        v.as_str(),
        "chess960"
            | "960"
            | "fischerandom"
            | "fischerrandom"
            | "frc"
            | "dfrc"
            | "freestyle"
            | "doublechess960"
            | "fischerrandomchess"
    )
}

/// Is this `Variant` tag value ordinary chess?
pub fn is_standard(variant: &str) -> bool {
    let v = variant.trim().to_ascii_lowercase();
    matches!(
        v.as_str(),
        "" | "standard"
            | "chess"
            | "normal"
            | "from position"
            | "fromposition"
            | "classical"
            | "rapid"
            | "blitz"
            | "bullet"
            | "correspondence"
            | "ultrabullet"
            | "standard chess"
    )
}

/// The start of a game from its `Variant` and `FEN` tag values.
///
/// A FEN whose castling rights only make sense in Chess960 (X-FEN or
/// Shredder-FEN rights for rooks not in the corners) is read as Chess960
/// even without a Variant tag.
pub fn start(variant: Option<&str>, fen: Option<&str>) -> Result<Start, SetupError> {
    let mut chess960 = false;
    if let Some(v) = variant {
        if is_chess960(v) {
            chess960 = true;
        } else if !is_standard(v) {
            return Err(SetupError::UnsupportedVariant(v.trim().to_owned()));
        }
    }
    let Some(fen) = fen.map(str::trim).filter(|f| !f.is_empty()) else {
        return Ok(Start {
            position: Chess::default(),
            chess960,
        });
    };
    let parsed = Fen::from_ascii(fen.as_bytes())
        .map_err(|e| SetupError::BadFen(format!("`{fen}` is not a valid FEN: {e}")))?;
    let first = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    match parsed.clone().into_position::<Chess>(first) {
        Ok(position) => Ok(Start { position, chess960 }),
        Err(err) if !chess960 => match parsed.into_position::<Chess>(CastlingMode::Chess960) {
            Ok(position) => Ok(Start {
                position,
                chess960: true,
            }),
            Err(_) => Err(SetupError::BadFen(format!(
                "`{fen}` is not a legal position: {err}"
            ))),
        },
        Err(err) => Err(SetupError::BadFen(format!(
            "`{fen}` is not a legal position: {err}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    #[test]
    fn standard_start_without_tags() {
        let s = start(None, None).unwrap();
        assert!(!s.chess960);
        assert_eq!(s.position, Chess::default());
    }

    #[test]
    fn xfen_from_tcec_frc_is_chess960() {
        // TCEC Season 20 FRC start with X-FEN castling rights.
        let s = start(
            None,
            Some("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"),
        )
        .unwrap();
        assert!(s.chess960);
        assert_eq!(s.position.legal_moves().len(), 20);
    }

    #[test]
    fn bad_fen_is_reported() {
        assert!(matches!(
            start(None, Some("rnbqkbnr/pppppppp/8/8")),
            Err(SetupError::BadFen(_))
        ));
        assert!(matches!(
            start(None, Some("8/8/8/8/8/8/8/8 w - - 0 1")),
            Err(SetupError::BadFen(_))
        ));
    }

    #[test]
    fn variants_other_than_chess_are_refused() {
        assert!(matches!(
            start(Some("Crazyhouse"), None),
            Err(SetupError::UnsupportedVariant(_))
        ));
        assert!(start(Some("Chess960"), None).unwrap().chess960);
        assert!(!start(Some("Standard"), None).unwrap().chess960);
    }
}
