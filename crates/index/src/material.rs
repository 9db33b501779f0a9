//! Material balance patterns, as pgn-extract's `-z` reads them: what
//! `search --material` looks for in the positions of a game's main line.
//!
//! A pattern is `[N] SIDE1 SIDE2`: each side is a list of piece letters
//! (`Q R B N P`, and `L` for a minor piece, knight or bishop), each
//! optionally followed by a count and a relation:
//!
//! | written | meaning for that piece on that side |
//! |---|---|
//! | `r`, `r2` | exactly 1, exactly 2 |
//! | `r*` | any number, none included |
//! | `r+`, `r2+` | 1 or more, 2 or more |
//! | `r2-` | 2 or fewer |
//! | `r=`, `r#` | as many as the other side, not as many |
//! | `r>`, `r2>` | at least 1 (2) more than the other side |
//! | `r<`, `r2<` | at least 1 (2) fewer than the other side |
//! | `r>=`, `r2>=` | exactly 1 (2) more than the other side |
//! | `r<=`, `r2<=` | exactly 1 (2) fewer than the other side |
//!
//! A piece a side does not list is absent from that side (kings are never
//! listed). The optional leading number `N` is how many consecutive
//! main-line positions the balance must last (2 by default, so that the
//! middle of an exchange does not match). The pattern matches with SIDE1
//! as White or as Black.
//!
//! ```
//! use pgnkit_index::material::Material;
//!
//! // Bishop pair against knight pair, queens, rooks and pawns balanced.
//! let m = Material::parse("q*r*p*b2n2< q=r=p=b2<n2").unwrap();
//! // White: Q, 2 R, 2 B, 6 P; Black: Q, 2 R, 2 N, 6 P.
//! assert!(m.holds(&[6, 0, 2, 2, 1], &[6, 2, 0, 2, 1]));
//! assert!(m.holds(&[6, 2, 0, 2, 1], &[6, 0, 2, 2, 1]));
//! assert!(!m.holds(&[6, 1, 1, 2, 1], &[6, 2, 0, 2, 1]));
//! assert!(Material::parse("rx").is_err());
//! ```

use shakmaty::{Board, Color, Role};

/// Piece counts of one side: pawns, knights, bishops, rooks, queens.
pub type Counts = [u32; 5];

/// How a count compares.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Relation {
    Exactly(u32),
    Any,
    AtLeast(u32),
    AtMost(u32),
    Same,
    Different,
    MoreBy(u32),
    FewerBy(u32),
    ExactlyMore(u32),
    ExactlyFewer(u32),
}

/// What one piece letter stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Piece(usize),
    Minor,
}

/// One side's material pattern.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Side {
    terms: Vec<(Kind, Relation)>,
}

/// A material balance pattern (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Material {
    first: Side,
    second: Side,
    /// How many consecutive positions the balance must last.
    pub stability: u32,
}

fn count(kind: Kind, c: &Counts) -> u32 {
    match kind {
        Kind::Piece(i) => c[i],
        Kind::Minor => c[1] + c[2],
    }
}

impl Side {
    fn parse(text: &str) -> Result<Side, String> {
        let b = text.as_bytes();
        let mut terms: Vec<(Kind, Relation)> = Vec::new();
        let mut i = 0;
        while i < b.len() {
            let kind = match b[i].to_ascii_lowercase() {
                b'p' => Kind::Piece(0),
                b'n' => Kind::Piece(1),
                b'b' => Kind::Piece(2),
                b'r' => Kind::Piece(3),
                b'q' => Kind::Piece(4),
                b'l' => Kind::Minor,
                b'k' => {
                    i += 1;
                    continue;
                }
                _ => {
                    return Err(format!(
                        "`{}` is no piece letter (use Q R B N P, L for a minor piece)",
                        char::from(b[i])
                    ));
                }
            };
            i += 1;
            let digit = match b.get(i) {
                Some(d) if d.is_ascii_digit() => {
                    i += 1;
                    Some(u32::from(d - b'0'))
                }
                _ => None,
            };
            let n = digit.unwrap_or(1);
            let next = b.get(i).copied();
            let after = b.get(i + 1).copied();
            let (relation, used) = match (next, after) {
                (Some(b'*'), _) if digit.is_none() => (Relation::Any, 1),
                (Some(b'+'), _) => (Relation::AtLeast(n), 1),
                (Some(b'-'), _) if digit.is_some() => (Relation::AtMost(n), 1),
                (Some(b'='), _) if digit.is_none() => (Relation::Same, 1),
                (Some(b'#'), _) if digit.is_none() => (Relation::Different, 1),
                (Some(b'>'), Some(b'=')) => (Relation::ExactlyMore(n), 2),
                (Some(b'<'), Some(b'=')) => (Relation::ExactlyFewer(n), 2),
                (Some(b'>'), _) => (Relation::MoreBy(n), 1),
                (Some(b'<'), _) => (Relation::FewerBy(n), 1),
                (Some(c), _) if c.is_ascii_alphabetic() => (Relation::Exactly(n), 0),
                (None, _) => (Relation::Exactly(n), 0),
                (Some(c), _) => {
                    return Err(format!("`{}` cannot follow a piece here", char::from(c)));
                }
            };
            i += used;
            if terms.iter().any(|(k, _)| *k == kind) {
                return Err("a piece letter is given twice for one side".to_owned());
            }
            terms.push((kind, relation));
        }
        Ok(Side { terms })
    }

    /// Whether `own` against `other` fits this side's pattern.
    fn holds(&self, own: &Counts, other: &Counts) -> bool {
        let minor = self.terms.iter().any(|(k, _)| *k == Kind::Minor);
        for (piece, &n) in own.iter().enumerate() {
            let listed = self.terms.iter().any(|(k, _)| *k == Kind::Piece(piece));
            let covered = minor && (piece == 1 || piece == 2);
            if !listed && !covered && n != 0 {
                return false;
            }
        }
        self.terms.iter().all(|&(kind, relation)| {
            let (a, b) = (count(kind, own), count(kind, other));
            match relation {
                Relation::Exactly(n) => a == n,
                Relation::Any => true,
                Relation::AtLeast(n) => a >= n,
                Relation::AtMost(n) => a <= n,
                Relation::Same => a == b,
                Relation::Different => a != b,
                Relation::MoreBy(n) => a >= b.saturating_add(n),
                Relation::FewerBy(n) => b >= a.saturating_add(n),
                Relation::ExactlyMore(n) => a == b.saturating_add(n),
                Relation::ExactlyFewer(n) => b == a.saturating_add(n),
            }
        })
    }
}

impl Material {
    /// Reads a pattern: `[N] SIDE1 SIDE2`.
    pub fn parse(text: &str) -> Result<Material, String> {
        let bad = |why: String| format!("bad material pattern `{}`: {why}", text.trim());
        let words: Vec<&str> = text.split_whitespace().collect();
        let (stability, sides) = match words.as_slice() {
            [n, a, b] => {
                let n: u32 = n
                    .parse()
                    .map_err(|_| bad(format!("`{n}` is no number of positions")))?;
                (n.max(1), [*a, *b])
            }
            [a, b] => (2, [*a, *b]),
            _ => return Err(bad("give the material of both sides, e.g. `rp nb`".into())),
        };
        Ok(Material {
            first: Side::parse(sides[0]).map_err(bad)?,
            second: Side::parse(sides[1]).map_err(bad)?,
            stability,
        })
    }

    /// Whether White's and Black's counts fit, either side as the first.
    pub fn holds(&self, white: &Counts, black: &Counts) -> bool {
        (self.first.holds(white, black) && self.second.holds(black, white))
            || (self.first.holds(black, white) && self.second.holds(white, black))
    }

    /// The counts of both sides on a board.
    pub fn counts(board: &Board) -> (Counts, Counts) {
        let side = |color: Color| -> Counts {
            let of = |role: Role| (board.by_color(color) & board.by_role(role)).count() as u32;
            [
                of(Role::Pawn),
                of(Role::Knight),
                of(Role::Bishop),
                of(Role::Rook),
                of(Role::Queen),
            ]
        };
        (side(Color::White), side(Color::Black))
    }

    /// Whether the balance lasts for [`Material::stability`] consecutive
    /// boards of `boards` (the main line's positions, in order).
    pub fn found<'b>(&self, boards: impl IntoIterator<Item = &'b Board>) -> bool {
        let mut run = 0u32;
        for board in boards {
            let (w, b) = Material::counts(board);
            if self.holds(&w, &b) {
                run += 1;
                if run >= self.stability {
                    return true;
                }
            } else {
                run = 0;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relations_read_as_pgn_extract_documents_them() {
        let m = Material::parse("r2p* r=p1>=").unwrap();
        assert!(m.holds(&[5, 0, 0, 2, 0], &[4, 0, 0, 2, 0]));
        assert!(!m.holds(&[5, 0, 0, 2, 0], &[3, 0, 0, 2, 0]));
        assert!(
            !m.holds(&[5, 0, 0, 2, 0], &[4, 1, 0, 2, 0]),
            "no knight listed"
        );
        let minor = Material::parse("q*r+l*p+ q=r1<=l2>=p1<").unwrap();
        // White gave a rook and a pawn for two minor pieces.
        assert!(minor.holds(&[5, 2, 2, 1, 1], &[6, 1, 1, 2, 1]));
        assert_eq!(Material::parse("10 R2P+ R=P*").unwrap().stability, 10);
        assert!(Material::parse("r").is_err());
        assert!(Material::parse("rr q").is_err());
        assert!(Material::parse("r? q").is_err());
    }

    #[test]
    fn a_fleeting_balance_does_not_last() {
        let m = Material::parse("2 q* q*").unwrap();
        let start = Board::default();
        let (w, b) = Material::counts(&start);
        assert_eq!(w, [8, 2, 2, 2, 1]);
        assert_eq!(b, w);
        assert!(!m.found([&start, &start]));
        let bare: Board = "4k3/8/8/8/8/8/8/3QK3".parse().unwrap();
        assert!(!m.found([&bare, &start, &bare]));
        assert!(m.found([&start, &bare, &bare]));
    }
}
