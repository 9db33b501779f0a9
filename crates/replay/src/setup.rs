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
    /// Why no game can reach the position, where it is set up all the
    /// same: more material than promotions can give (a composed position,
    /// such as a study's or a test's). Its moves follow the Laws as ever.
    pub unreachable: Option<String>,
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
            unreachable: None,
        });
    };
    let parsed = Fen::from_ascii(fen.as_bytes())
        .map_err(|e| SetupError::BadFen(format!("`{fen}` is not a valid FEN: {e}")))?;
    let first = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    // The error's words, where the position cannot be set up in `mode`.
    let set_up = |mode: CastlingMode| -> Result<Start, String> {
        let chess960 = mode == CastlingMode::Chess960;
        match parsed.clone().into_position::<Chess>(mode) {
            Ok(position) => Ok(Start {
                position,
                chess960,
                unreachable: None,
            }),
            Err(err) => {
                let why = err.to_string();
                err.ignore_too_much_material()
                    .map(|position| Start {
                        position,
                        chess960,
                        unreachable: Some(why.clone()),
                    })
                    .map_err(|_| why)
            }
        }
    };
    match set_up(first) {
        Ok(start) => Ok(start),
        Err(err) if !chess960 => set_up(CastlingMode::Chess960)
            .map_err(|_| SetupError::BadFen(format!("`{fen}` is not a legal position: {err}"))),
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
    fn too_much_material_is_set_up_and_said() {
        // From CHA's test vectors (testdata/dead/cha-test-vectors.txt): four
        // bishops of one colour beside eight pawns, which promotions cannot
        // give; python-chess sets it up, and so does pgnkit, saying why no
        // game reaches it.
        let s = start(
            None,
            Some("7k/8/1p6/1Pp5/2Pp4/pB1Pp1p1/P1B1P1P1/1B1B2K1 b - - 0 1"),
        )
        .unwrap();
        // python-chess: 3 legal moves, the king's (Kg8, Kg7, Kh7).
        assert_eq!(s.position.legal_moves().len(), 3);
        assert!(s.unreachable.unwrap().contains("too much material"));
        assert!(start(None, None).unwrap().unreachable.is_none());
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
