//! Pairing the records of the same games in two files (both players'
//! scoresheets of a round, a transcription and its original), as
//! `pgnkit diff` does.
//!
//! A game is known by its Round, White and Black tags: two records with the
//! same three are the same game, and where several games share them (a
//! match of several games with one Round tag), by their Date: the same
//! day first, else a record whose day is not known, in file order. The records left over in both files are then
//! paired in file order where at least one of the two lacks those tags
//! (a scoresheet typed without a tag section); such a pair whose players
//! are both named and differ is marked, for a warning. The rest has no
//! counterpart.
//!
//! ```
//! use pgnkit_diff::pairing::{Identity, pair};
//!
//! let game = |round: &str, white: &str, black: &str| Identity {
//!     round: Some(round.into()),
//!     white: Some(white.into()),
//!     black: Some(black.into()),
//!     date: None,
//! };
//! let a = [game("1", "Carlsen", "Nakamura"), game("2", "Nakamura", "Carlsen")];
//! let b = [game("2", "Nakamura", "Carlsen"), game("1", "Carlsen", "Nakamura")];
//! let pairing = pair(&a, &b);
//! assert_eq!(pairing.pairs.iter().map(|p| (p.a, p.b)).collect::<Vec<_>>(), [(0, 1), (1, 0)]);
//! assert!(pairing.unpaired_a.is_empty() && pairing.unpaired_b.is_empty());
//! ```

use std::collections::{HashMap, VecDeque};

use pgnkit_pgn::Game;
use pgnkit_pgn::text::GameText;

/// The tags that tell which game a record is (their values, trimmed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// The Round tag.
    pub round: Option<String>,
    /// The White tag.
    pub white: Option<String>,
    /// The Black tag.
    pub black: Option<String>,
    /// The Date tag.
    pub date: Option<String>,
}

impl AsRef<Identity> for Identity {
    fn as_ref(&self) -> &Identity {
        self
    }
}

impl Identity {
    /// The identity of `game`, its tags decoded from `text`.
    pub fn of_game(game: &Game<'_>, text: &GameText<'_>) -> Identity {
        let tag = |name: &str| {
            game.tag(name)
                .map(|t| text.decode(&t.value()).trim().to_owned())
        };
        Identity {
            round: tag("Round"),
            white: tag("White"),
            black: tag("Black"),
            date: tag("Date"),
        }
    }

    /// Whether no tag of the four is there.
    pub fn is_empty(&self) -> bool {
        self.round.is_none() && self.white.is_none() && self.black.is_none() && self.date.is_none()
    }

    /// Round, White and Black, when the three are known (not empty, `?`
    /// nor `-`).
    fn key(&self) -> Option<(&str, &str, &str)> {
        Some((
            known(&self.round)?,
            known(&self.white)?,
            known(&self.black)?,
        ))
    }

    /// The date, when it is known (not empty and not all `?`).
    fn known_date(&self) -> Option<&str> {
        known(&self.date).filter(|d| d.chars().any(|c| c.is_ascii_digit()))
    }

    /// Both records name their players and the names differ.
    fn players_differ(&self, other: &Identity) -> bool {
        let differ = |a: &Option<String>, b: &Option<String>| match (known(a), known(b)) {
            (Some(a), Some(b)) => a != b,
            _ => false,
        };
        differ(&self.white, &other.white) || differ(&self.black, &other.black)
    }
}

/// A tag value that says something: not empty, `?` nor `-`.
fn known(v: &Option<String>) -> Option<&str> {
    v.as_deref()
        .filter(|v| !v.is_empty() && *v != "?" && *v != "-")
}

/// Two records of one game: indices in the two lists given to [`pair`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The record in the first list.
    pub a: usize,
    /// The record in the second list.
    pub b: usize,
    /// How they were paired.
    pub by: PairedBy,
}

/// How two records were paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairedBy {
    /// By Round, White and Black (and Date).
    Tags,
    /// By their order in the files, one of them lacking those tags.
    Order {
        /// Both name their players, and the names differ.
        players_differ: bool,
    },
}

/// The pairs of records of the same game, and the records of each list
/// without a counterpart (indices, in order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    /// The pairs, in the order of the first list.
    pub pairs: Vec<Pair>,
    /// The records of the first list left without a counterpart.
    pub unpaired_a: Vec<usize>,
    /// The records of the second list left without a counterpart.
    pub unpaired_b: Vec<usize>,
}

/// Pairs the records `a` of one file with the records `b` of another (see
/// the [module](self)), in time linear in the number of records.
///
/// The records may be identities, references to them, or a caller's own
/// records that give their identity ([`AsRef`]), so that nothing is copied.
pub fn pair<A: AsRef<Identity>, B: AsRef<Identity>>(a: &[A], b: &[B]) -> Pairing {
    type Key<'r> = (&'r str, &'r str, &'r str);
    // B's records by key: all of them, those of each known date, and those
    // without one, in file order. A record taken through one queue is
    // skipped when met in another.
    let mut all: HashMap<Key<'_>, VecDeque<usize>> = HashMap::new();
    let mut dated: HashMap<(Key<'_>, &str), VecDeque<usize>> = HashMap::new();
    let mut undated: HashMap<Key<'_>, VecDeque<usize>> = HashMap::new();
    for (j, r) in b.iter().map(AsRef::as_ref).enumerate() {
        if let Some(k) = r.key() {
            all.entry(k).or_default().push_back(j);
            match r.known_date() {
                Some(d) => dated.entry((k, d)).or_default().push_back(j),
                None => undated.entry(k).or_default().push_back(j),
            }
        }
    }
    let mut taken_b = vec![false; b.len()];
    let take = |queue: Option<&mut VecDeque<usize>>, taken: &mut Vec<bool>| {
        let queue = queue?;
        while let Some(j) = queue.pop_front() {
            if let Some(t) = taken.get_mut(j)
                && !*t
            {
                *t = true;
                return Some(j);
            }
        }
        None
    };
    let mut partner_of_a: Vec<Option<(usize, PairedBy)>> = vec![None; a.len()];
    for (i, r) in a.iter().map(AsRef::as_ref).enumerate() {
        let Some(k) = r.key() else { continue };
        // The same game on the same day, else one whose day is not known;
        // a record without a date takes the first of its key.
        let found = match r.known_date() {
            Some(d) => take(dated.get_mut(&(k, d)), &mut taken_b)
                .or_else(|| take(undated.get_mut(&k), &mut taken_b)),
            None => take(all.get_mut(&k), &mut taken_b),
        };
        if let Some(j) = found {
            partner_of_a[i] = Some((j, PairedBy::Tags));
        }
    }
    // What is left, in file order: paired where one of the two has no key;
    // two records known by different tags are two games (both passed by).
    // The k-th record of A left over meets the k-th of B left over.
    let (mut i, mut j) = (0, 0);
    loop {
        while partner_of_a.get(i).is_some_and(Option::is_some) {
            i += 1;
        }
        while taken_b.get(j).is_some_and(|&t| t) {
            j += 1;
        }
        let (Some(x), Some(y)) = (a.get(i), b.get(j)) else {
            break;
        };
        let (x, y): (&Identity, &Identity) = (x.as_ref(), y.as_ref());
        if x.key().is_none() || y.key().is_none() {
            taken_b[j] = true;
            partner_of_a[i] = Some((
                j,
                PairedBy::Order {
                    players_differ: x.players_differ(y),
                },
            ));
        }
        i += 1;
        j += 1;
    }
    // Both lists at their exact size: with a million games, growing them by
    // doubling would hold twice the memory.
    let paired = partner_of_a.iter().filter(|p| p.is_some()).count();
    let mut pairing = Pairing {
        pairs: Vec::with_capacity(paired),
        unpaired_a: Vec::with_capacity(a.len() - paired),
        unpaired_b: Vec::new(),
    };
    for (i, partner) in partner_of_a.into_iter().enumerate() {
        match partner {
            Some((j, by)) => pairing.pairs.push(Pair { a: i, b: j, by }),
            None => pairing.unpaired_a.push(i),
        }
    }
    pairing.unpaired_b = (0..b.len()).filter(|&j| !taken_b[j]).collect();
    pairing
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(round: &str, white: &str, black: &str, date: &str) -> Identity {
        let some = |v: &str| (!v.is_empty()).then(|| v.to_owned());
        Identity {
            round: some(round),
            white: some(white),
            black: some(black),
            date: some(date),
        }
    }

    fn pairs(p: &Pairing) -> Vec<(usize, usize)> {
        p.pairs.iter().map(|p| (p.a, p.b)).collect()
    }

    #[test]
    fn the_date_tells_apart_games_with_the_same_round_and_players() {
        let a = [
            id("1", "A", "B", "2024.05.01"),
            id("1", "A", "B", "2024.05.02"),
        ];
        let b = [
            id("1", "A", "B", "2024.05.02"),
            id("1", "A", "B", "2024.05.01"),
        ];
        assert_eq!(pairs(&pair(&a, &b)), [(0, 1), (1, 0)]);
        // Without dates on one side: in file order.
        let b = [id("1", "A", "B", ""), id("1", "A", "B", "????.??.??")];
        assert_eq!(pairs(&pair(&a, &b)), [(0, 0), (1, 1)]);
    }

    #[test]
    fn records_without_tags_are_paired_by_order_and_odd_names_are_marked() {
        let a = [
            id("1", "A", "B", ""),
            id("", "C", "D", ""),
            id("", "", "", ""),
        ];
        let b = [
            id("", "", "", ""),
            id("", "C", "X", ""),
            id("1", "A", "B", ""),
        ];
        let p = pair(&a, &b);
        assert_eq!(pairs(&p), [(0, 2), (1, 0), (2, 1)]);
        assert_eq!(p.pairs[0].by, PairedBy::Tags);
        assert_eq!(
            p.pairs[1].by,
            PairedBy::Order {
                players_differ: false
            }
        );
        assert_eq!(
            p.pairs[2].by,
            PairedBy::Order {
                players_differ: false
            }
        );
        // Names on both sides that differ.
        let p = pair(&[id("", "C", "D", "")], &[id("", "C", "X", "")]);
        assert_eq!(
            p.pairs[0].by,
            PairedBy::Order {
                players_differ: true
            }
        );
    }

    #[test]
    fn games_known_by_their_tags_are_never_paired_with_other_games() {
        let a = [id("1", "A", "B", ""), id("2", "C", "D", "")];
        let b = [id("3", "E", "F", ""), id("2", "C", "D", "")];
        let p = pair(&a, &b);
        assert_eq!(pairs(&p), [(1, 1)]);
        assert_eq!((p.unpaired_a, p.unpaired_b), (vec![0], vec![0]));
    }
}
