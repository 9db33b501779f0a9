//! Board patterns: a FEN board with wildcards, what `search --fen-pattern`
//! looks for in the positions of a game's main line (pgn-extract's
//! `FENPattern`).
//!
//! Eight ranks from the 8th to the 1st, separated by `/`, as in FEN; on
//! each rank, from the a-file:
//! - a piece letter (`KQRBNP` White, `kqrbnp` Black): that piece;
//! - a digit `1`-`8`: that many empty squares; `_`: one empty square;
//! - `?`: any one square, empty or not;
//! - `!`: any piece; `A`: any White piece, `a`: any Black piece;
//! - `*`: any number of squares (none included), whatever they hold.
//!
//! A rank must cover its eight squares exactly. Only the board is
//! compared: side to move, castling rights and counters are not.
//!
//! ```
//! use pgnkit_index::pattern::BoardPattern;
//! use shakmaty::Board;
//!
//! // A knight on e4 supported by a pawn on d3.
//! let p = BoardPattern::parse("*/*/*/*/???pN???/???P????/*/*").unwrap();
//! let board: Board = "r1bqkb1r/pppp1ppp/2n5/8/3pN3/3P4/PPP2PPP/R1BQKBNR".parse().unwrap();
//! assert!(p.matches(&board));
//! assert!(!p.matches(&Board::default()));
//! assert!(BoardPattern::parse("8/8/8").is_err());
//! ```

use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

/// What one pattern square accepts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Cell {
    Piece(Piece),
    Empty,
    Any,
    AnyOf(Color),
    Occupied,
}

/// A cell of one letter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Inner {
    Piece(Piece),
    Empty,
    AnyOf(Color),
}

/// One item of a rank pattern.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Item {
    Cell(Cell),
    Stretch,
}

/// A board pattern (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardPattern {
    /// The ranks, 8th first.
    ranks: Vec<Vec<Item>>,
}

fn inner(c: u8) -> Option<Inner> {
    if c == b'_' {
        return Some(Inner::Empty);
    }
    if c == b'A' {
        return Some(Inner::AnyOf(Color::White));
    }
    if c == b'a' {
        return Some(Inner::AnyOf(Color::Black));
    }
    let role = Role::from_char(char::from(c.to_ascii_lowercase()))?;
    let color = Color::from_white(c.is_ascii_uppercase());
    Some(Inner::Piece(Piece { color, role }))
}

fn accepts(cell: Cell, square: Option<Piece>) -> bool {
    match cell {
        Cell::Piece(p) => square == Some(p),
        Cell::Empty => square.is_none(),
        Cell::Any => true,
        Cell::AnyOf(c) => square.is_some_and(|p| p.color == c),
        Cell::Occupied => square.is_some(),
    }
}

/// Whether `items` cover `squares` exactly (a stretch covers any run).
/// Dynamic programming over (item, square): at most 9 squares a rank.
fn rank_matches(items: &[Item], squares: &[Option<Piece>]) -> bool {
    // can[j]: the items so far can cover exactly the first j squares.
    let n = squares.len();
    let mut can = vec![false; n + 1];
    can[0] = true;
    for item in items {
        let mut next = vec![false; n + 1];
        match item {
            Item::Stretch => {
                let mut reach = false;
                for j in 0..=n {
                    reach |= can[j];
                    next[j] = reach;
                }
            }
            Item::Cell(cell) => {
                for j in 0..n {
                    if can[j] && accepts(*cell, squares[j]) {
                        next[j + 1] = true;
                    }
                }
            }
        }
        can = next;
    }
    can[n]
}

impl BoardPattern {
    /// Reads a pattern (a FEN's board field with wildcards; anything after
    /// the first space is ignored).
    pub fn parse(text: &str) -> Result<BoardPattern, String> {
        let board = text.split_whitespace().next().unwrap_or("");
        let bad = |why: &str| format!("bad board pattern `{board}`: {why}");
        let mut ranks = Vec::new();
        for rank in board.split('/') {
            let b = rank.as_bytes();
            let mut items = Vec::new();
            let (mut squares, mut stretch) = (0usize, false);
            let mut i = 0;
            while i < b.len() {
                let c = b[i];
                i += 1;
                let cell = match c {
                    b'*' => {
                        items.push(Item::Stretch);
                        stretch = true;
                        continue;
                    }
                    b'1'..=b'8' => {
                        for _ in 0..(c - b'0') {
                            items.push(Item::Cell(Cell::Empty));
                        }
                        squares += usize::from(c - b'0');
                        continue;
                    }
                    b'?' => Cell::Any,
                    b'!' => Cell::Occupied,
                    _ => match inner(c) {
                        Some(Inner::Piece(p)) => Cell::Piece(p),
                        Some(Inner::Empty) => Cell::Empty,
                        Some(Inner::AnyOf(color)) => Cell::AnyOf(color),
                        None => {
                            return Err(bad(&format!(
                                "`{}` is no piece letter, digit or wildcard",
                                char::from(c)
                            )));
                        }
                    },
                };
                items.push(Item::Cell(cell));
                squares += 1;
            }
            if squares > 8 || (!stretch && squares != 8) {
                return Err(bad("a rank must cover exactly 8 squares"));
            }
            ranks.push(items);
        }
        if ranks.len() != 8 {
            return Err(bad("give 8 ranks separated by `/`"));
        }
        Ok(BoardPattern { ranks })
    }

    /// Whether `board` fits the pattern.
    pub fn matches(&self, board: &Board) -> bool {
        self.ranks.iter().enumerate().all(|(row, items)| {
            let rank = Rank::new(7 - row as u32);
            let squares: Vec<Option<Piece>> = File::ALL
                .iter()
                .map(|&file| board.piece_at(Square::from_coords(file, rank)))
                .collect();
            rank_matches(items, &squares)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_cover_what_they_say() {
        let start = Board::default();
        for yes in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "*/*/*/*/*/*/*/*",
            "r*r/*/8/*/8/*/A*A/!*",
            "????????/*p/*/_*_/*/*/*/R*R",
            "*k*/*/*/*/*/*/*/*K*",
        ] {
            assert!(BoardPattern::parse(yes).unwrap().matches(&start), "{yes}");
        }
        for no in [
            "*/*/*/*/4P3/*/*/*",
            "*/*/*/*/*/*/*/*!_*",
            "*/*/*/*/*/*/*/*q*",
            "a*/*/*/*/*/*/*/a*",
        ] {
            assert!(!BoardPattern::parse(no).unwrap().matches(&start), "{no}");
        }
        for bad in [
            "*/*/*/*/*/*/*",
            "9/*/*/*/*/*/*/*",
            "7/*/*/*/*/*/*/*",
            "x*/*/*/*/*/*/*/*",
        ] {
            assert!(BoardPattern::parse(bad).is_err(), "{bad}");
        }
    }
}
