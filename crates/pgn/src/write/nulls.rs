//! Null moves (`--`, `Z0`, `0000`): written `--`, numbered from the moves
//! around them.

use super::moves::Moves;
use super::words::is_null_word;
use crate::text::GameText;
use crate::{Game, TokenKind};

/// The place of a ply: its full-move number and whether White plays it.
pub type Place = (u32, bool);

/// The place of the ply after a ply at `place`.
fn after(place: Place) -> Place {
    match place {
        (n, true) => (n, false),
        (n, false) => (n.saturating_add(1), true),
    }
}

/// The place of the ply before a ply at `place`.
fn before(place: Place) -> Place {
    match place {
        (n, true) => (n.saturating_sub(1), false),
        (n, false) => (n, true),
    }
}

/// A line (the game or a variation) while [`NullPlaces::new`] walks it.
struct NullLine {
    /// The place of the line's last ply (move or null move), when known.
    last: Option<Place>,
    /// The place of the line's next ply, when known.
    next: Option<Place>,
    /// Null moves met before the line's next ply was known (indices in
    /// [`NullPlaces::places`]): placed back from the next move.
    pending: Vec<usize>,
}

/// Where the null moves (`--`, `Z0`, `0000`) of a game go: the move number
/// and side of each, found in one pass over the tokens (the replay places
/// moves, not null moves).
///
/// A null move takes the place after its line's ply before it (move or null
/// move), or, first in its line, the place the line starts at: the game's
/// start position ([`Moves::set_start`]) or, for a variation, the
/// place of the parent's ply it replaces. Where neither is known, null
/// moves are placed back from the line's next move. Linear in the tokens,
/// with no recursion, however many null moves or variations there are.
#[derive(Default, Debug)]
pub struct NullPlaces {
    /// Token index and place of every null move, in token order (8 bytes
    /// each: a game may hold millions), the place packed by [`pack_place`].
    places: Vec<(u32, u32)>,
}

/// A place in a `u32`: 0 for none, else one more than its full-move
/// number times two plus one for White (a null move placed back from move
/// 1 has the number 0).
fn pack_place(place: Option<Place>) -> u32 {
    place.map_or(0, |(number, white)| {
        number
            .min(u32::MAX / 2 - 1)
            .saturating_mul(2)
            .saturating_add(u32::from(white))
            .saturating_add(1)
    })
}

/// The place [`pack_place`] packed.
fn unpack_place(packed: u32) -> Option<Place> {
    let p = packed.checked_sub(1)?;
    Some((p >> 1, p & 1 == 1))
}

impl NullPlaces {
    /// The places of the null moves of `game`, whose moves are converted
    /// in `moves`.
    pub fn new(game: &Game<'_>, source: &GameText<'_>, moves: &Moves) -> NullPlaces {
        let mut places: Vec<(u32, u32)> = Vec::new();
        let mut lines = vec![NullLine {
            last: None,
            next: moves.start,
            pending: Vec::new(),
        }];
        let mut cursor = 0usize;
        for (i, t) in game.tokens.iter().enumerate() {
            match t.kind {
                TokenKind::OpenVariation => {
                    let next = lines.last().and_then(|l| l.last);
                    lines.push(NullLine {
                        last: None,
                        next,
                        pending: Vec::new(),
                    });
                }
                TokenKind::CloseVariation if lines.len() > 1 => {
                    lines.pop();
                }
                TokenKind::Word => {
                    let Some(line) = lines.last_mut() else {
                        continue;
                    };
                    if let Some(m) = moves.get_next(i, &mut cursor) {
                        let place = (m.number, m.white);
                        // Null moves waiting for this move: the last one
                        // just before it, the others before that.
                        let mut at = place;
                        for &k in line.pending.iter().rev() {
                            at = before(at);
                            if let Some(slot) = places.get_mut(k) {
                                slot.1 = pack_place(Some(at));
                            }
                        }
                        line.pending.clear();
                        line.last = Some(place);
                        line.next = Some(after(place));
                    } else if let Ok(i) = u32::try_from(i)
                        && is_null_word(&source.decode(t.text))
                    {
                        match line.next {
                            Some(place) if line.pending.is_empty() => {
                                places.push((i, pack_place(Some(place))));
                                line.last = Some(place);
                                line.next = Some(after(place));
                            }
                            _ => {
                                line.pending.push(places.len());
                                places.push((i, 0));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        NullPlaces { places }
    }

    /// The place of the null move at token `i`, if it has one.
    pub fn get(&self, i: usize) -> Option<Place> {
        let i = u32::try_from(i).ok()?;
        let at = self.places.binary_search_by_key(&i, |p| p.0).ok()?;
        self.places.get(at).and_then(|p| unpack_place(p.1))
    }
}
