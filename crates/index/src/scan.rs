//! A search without an index: every game of a piece of PGN tested by the
//! same [`Query`] the index answers, replayed only when a filter, the order
//! or the output needs it.

use std::ops::Range;

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};

use crate::order::{Order, SortKey};
use crate::{GameFacts, Query};

/// A game the query selects.
pub struct Hit {
    /// 0-based index of the game among the games scanned.
    pub index: u64,
    /// The game's span in the data.
    pub span: Range<usize>,
    /// Its facts, when [`Keep::facts`] asks for them.
    pub facts: Option<GameFacts<'static>>,
    /// Its key in [`Keep::order`], when there is one.
    pub key: Option<SortKey>,
}

/// What a scan found.
pub struct Scanned {
    /// Games scanned.
    pub games: u64,
    /// The games selected, in order.
    pub hits: Vec<Hit>,
    /// The spans of the games not selected, when [`Keep::misses`] asks.
    pub misses: Vec<Range<usize>>,
}

/// What a scan keeps besides the selected games' spans.
#[derive(Copy, Clone, Debug, Default)]
pub struct Keep {
    /// The facts of each selected game (for JSON records).
    pub facts: bool,
    /// Each selected game's key in this order.
    pub order: Option<Order>,
    /// The spans of the games not selected.
    pub misses: bool,
}

/// Tests every game of `data[range]` (whose byte 0 is byte `base` of its
/// file) with `query`, replaying a game only when needed.
///
/// ```
/// use pgnkit_index::scan::{Keep, scan};
/// use pgnkit_index::{Filter, Needle, Query};
/// use pgnkit_replay::Options;
///
/// let pgn = b"[White \"Anderssen\"]\n\n1. e4 e5 1-0\n\n[White \"Morphy\"]\n\n1. d4 d5 *\n";
/// let filter = Filter { white: Some(Needle::new("morphy")), ..Filter::default() };
/// let query = Query { groups: vec![filter], invert: false };
/// let found = scan(pgn, 0..pgn.len(), 0, &query, &Options::default(), Keep::default());
/// assert_eq!(found.games, 2);
/// assert_eq!(found.hits.len(), 1);
/// assert_eq!(found.hits[0].index, 1);
/// ```
pub fn scan(
    data: &[u8],
    range: Range<usize>,
    base: usize,
    query: &Query,
    options: &Options,
    keep: Keep,
) -> Scanned {
    let mut reader = Reader::with_range(data, range);
    let mut game = Game::default();
    let mut out = Scanned {
        games: 0,
        hits: Vec::new(),
        misses: Vec::new(),
    };
    let replay = query.needs_replay() || keep.facts || keep.order.is_some_and(|o| o.needs_replay());
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue; // `%` lines or a lone comment between games: no game
        }
        let index = out.games;
        out.games += 1;
        let report = replay.then(|| replay_game(data, &game, options));
        let mut facts = GameFacts::new(data, base, &game, report.as_ref());
        let hit = query.decide(
            &mut facts,
            |_, key| report.as_ref().is_some_and(|r| r.keys.contains(&key)),
            |f| f.probe.matches(data, &game, report.as_ref(), f.position),
        );
        if !hit {
            if keep.misses {
                out.misses.push(game.span.clone());
            }
            continue;
        }
        out.hits.push(Hit {
            index,
            span: game.span.clone(),
            key: keep.order.map(|o| o.key(&facts)),
            facts: keep.facts.then(|| facts.into_owned()),
        });
    }
    out
}
