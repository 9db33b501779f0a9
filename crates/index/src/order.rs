//! The orders `search --sort` prints matching games in. Ties keep file
//! order; games without the field sort last.
//!
//! ```
//! use pgnkit_index::order::Order;
//! use pgnkit_index::{GameFacts, Date};
//! use pgnkit_pgn::{Game, Reader};
//!
//! let pgn = b"[White \"b\"]\n[Date \"1990.01.01\"]\n\n1. e4 *\n\n[White \"A\"]\n\n1. d4 *\n";
//! let mut reader = Reader::new(pgn);
//! let (mut g1, mut g2) = (Game::default(), Game::default());
//! assert!(reader.read_game(&mut g1) && reader.read_game(&mut g2));
//! let (f1, f2) = (GameFacts::new(pgn, 0, &g1, None), GameFacts::new(pgn, 0, &g2, None));
//! assert!(Order::White.key(&f2) < Order::White.key(&f1));
//! assert!(Order::Date.key(&f1) < Order::Date.key(&f2), "no date: last");
//! assert_eq!(Order::parse("elo"), Ok(Order::Elo));
//! ```

use pgnkit_facts::{GameFacts, TextTag};

/// A sort order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Earliest date first (a partial date sorts as its first day).
    Date,
    /// White's name, ignoring case.
    White,
    /// Highest mean rating of the two players first (a game with one
    /// rating: that one).
    Elo,
    /// Fewest main-line plies first.
    Plies,
}

/// A game's place in an order: compare keys to sort.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SortKey {
    /// A number (smaller first).
    Number(u64),
    /// Whether the text is missing (the games without it last), then the
    /// text (in code point order).
    Text(bool, String),
}

impl Order {
    /// Reads `date`, `white`, `elo` or `plies`.
    pub fn parse(text: &str) -> Result<Order, String> {
        Ok(match text.trim().to_ascii_lowercase().as_str() {
            "date" => Order::Date,
            "white" => Order::White,
            "elo" => Order::Elo,
            "plies" => Order::Plies,
            _ => return Err(format!("bad order `{text}`: use date, white, elo or plies")),
        })
    }

    /// Whether the order needs the replay (the plies).
    pub fn needs_replay(self) -> bool {
        self == Order::Plies
    }

    /// The key of a game in this order.
    pub fn key(self, f: &GameFacts<'_>) -> SortKey {
        match self {
            Order::Date if f.date.is_known() => SortKey::Number(u64::from(f.date.0)),
            Order::Date => SortKey::Number(u64::MAX),
            Order::White => {
                let w = f.text(TextTag::White).trim();
                SortKey::Text(w.is_empty(), w.to_lowercase())
            }
            Order::Elo => {
                let (w, b) = (u64::from(f.white_elo), u64::from(f.black_elo));
                let rated = u64::from(w > 0) + u64::from(b > 0);
                match rated {
                    0 => SortKey::Number(u64::MAX),
                    n => SortKey::Number(u64::from(u16::MAX) * 2 - (w + b) * 2 / n),
                }
            }
            Order::Plies => SortKey::Number(u64::from(f.plies)),
        }
    }
}
