//! Move notations the peer can write: long algebraic and UCI.

use std::io::{self, Write};

use shakmaty::{CastlingMode, Move, Role};

/// An output notation for `--convert`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// Long algebraic: `e2-e4`, `Ng1-f3`, `e4xd5`, `e7-e8=Q`, `O-O`.
    Lan,
    /// UCI: `e2e4`, `e7e8q`, castling as king to its target square.
    Uci,
}

impl Notation {
    /// Parses a notation name as given on the command line.
    pub fn from_name(name: &str) -> Option<Notation> {
        match name {
            "lan" => Some(Notation::Lan),
            "uci" => Some(Notation::Uci),
            _ => None,
        }
    }

    /// Writes `m` in this notation.
    pub fn write(self, m: Move, out: &mut impl Write) -> io::Result<()> {
        match self {
            Notation::Uci => write!(out, "{}", m.to_uci(CastlingMode::Standard)),
            Notation::Lan => write_lan(m, out),
        }
    }
}

fn write_lan(m: Move, out: &mut impl Write) -> io::Result<()> {
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            if role != Role::Pawn {
                write!(out, "{}", role.upper_char())?;
            }
            let sep = if capture.is_some() { 'x' } else { '-' };
            write!(out, "{from}{sep}{to}")?;
            if let Some(promotion) = promotion {
                write!(out, "={}", promotion.upper_char())?;
            }
            Ok(())
        }
        Move::EnPassant { from, to } => write!(out, "{from}x{to}"),
        Move::Castle { king, rook } => {
            if rook.file() > king.file() {
                out.write_all(b"O-O")
            } else {
                out.write_all(b"O-O-O")
            }
        }
        Move::Put { role, to } => write!(out, "{}@{to}", role.upper_char()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position, san::San};

    /// Plays `sans` from the start and returns each move in `notation`.
    fn convert(sans: &[&str], notation: Notation) -> Vec<String> {
        let mut pos = Chess::default();
        let mut written = Vec::new();
        for san in sans {
            let m = San::from_ascii(san.as_bytes())
                .ok()
                .and_then(|san| san.to_move(&pos).ok());
            let Some(m) = m else {
                panic!("test line has an illegal move {san}");
            };
            let mut buf = Vec::new();
            assert!(notation.write(m, &mut buf).is_ok());
            written.push(String::from_utf8_lossy(&buf).into_owned());
            pos.play_unchecked(m);
        }
        written
    }

    // The Berlin Defence, open variation (a standard opening line), and a
    // constructed line with en passant, promotion and long castling.
    const LINE: [&str; 9] = ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O", "Nxe4", "Re1"];

    #[test]
    fn writes_long_algebraic() {
        assert_eq!(
            convert(&LINE, Notation::Lan),
            [
                "e2-e4", "e7-e5", "Ng1-f3", "Nb8-c6", "Bf1-b5", "Ng8-f6", "O-O", "Nf6xe4", "Rf1-e1"
            ]
        );
    }

    #[test]
    fn writes_uci_with_standard_castling() {
        assert_eq!(
            convert(&LINE, Notation::Uci),
            [
                "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "g8f6", "e1g1", "f6e4", "f1e1"
            ]
        );
    }

    #[test]
    fn writes_en_passant_promotion_and_long_castling() {
        let line = [
            "d4", "a6", "d5", "e5", "dxe6", "Qh4", "exf7+", "Kd8", "fxg8=N", "a5", "Bf4", "a4",
            "Nc3", "a3", "Qd2", "b6", "O-O-O",
        ];
        let lan = convert(&line, Notation::Lan);
        assert_eq!(lan[4], "d5xe6");
        assert_eq!(lan[6], "e6xf7");
        assert_eq!(lan[8], "f7xg8=N");
        assert_eq!(lan[16], "O-O-O");
        let uci = convert(&line, Notation::Uci);
        assert_eq!(uci[8], "f7g8n");
        assert_eq!(uci[16], "e1c1");
    }
}
