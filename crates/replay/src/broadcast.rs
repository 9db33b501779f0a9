//! What board-fed broadcasts add to games, told apart from the moves
//! (`--illegal-moves stand`): a move taken back and played again, sent
//! twice (`repeated-move`); the kings put on the centre squares, the DGT
//! board's result signal (`result-signal`); the same game sent twice, the
//! second time with more moves (`resent-game`, [`Resent`]).

use std::ops::Range;

use pgnkit_pgn::{Game, TokenKind};
use shakmaty::Move;

use crate::diagnostic::{Code, Diagnostic, brief};

/// What a board-fed broadcast added at main-line word `index` (which
/// resolves to no legal move; `king_to` is where it puts a king, if it is
/// a king's move): the move before sent again (`repeated`), or a king put
/// on a centre square in the last two words of the main line, after which
/// (once `signalled`) every word is part of the signal.
pub(crate) fn artifact(
    game: &Game<'_>,
    index: usize,
    signalled: bool,
    repeated: bool,
    king_to: Option<shakmaty::Square>,
) -> Option<Code> {
    if signalled {
        return Some(Code::ResultSignal);
    }
    if repeated {
        return Some(Code::RepeatedMove);
    }
    if !king_to.is_some_and(|to| shakmaty::Bitboard::CENTER.contains(to)) {
        return None;
    }
    // At most one more main-line word follows: a scan that stops at the
    // second, so that it costs no more than the words it passes.
    let mut depth = 0u32;
    let mut words = 0;
    for kind in (index.saturating_add(1)..).map_while(|i| game.tokens.kind(i)) {
        match kind {
            TokenKind::OpenVariation => depth += 1,
            TokenKind::CloseVariation => depth = depth.saturating_sub(1),
            TokenKind::Word if depth == 0 => {
                words += 1;
                if words > 1 {
                    return None;
                }
            }
            _ => {}
        }
    }
    Some(Code::ResultSignal)
}

/// The warning of a broadcast's artifact `code` at `word`.
pub(crate) fn warning(code: Code, span: Range<usize>, word: &str) -> Diagnostic {
    let shown = brief(word);
    let (message, help) = if code == Code::RepeatedMove {
        (
            format!(
                "`{shown}` repeats the move before it: a move taken back and played again, sent twice by the broadcast"
            ),
            "the second copy was passed over; the game goes on from the move played once",
        )
    } else {
        (
            format!(
                "`{shown}` puts a king on a centre square at the end of the game: a board-fed broadcast's result signal, not a move"
            ),
            "a DGT board reads both kings put on the four centre squares as the result; the game ended before it",
        )
    };
    let mut d = Diagnostic::new(code, span, message);
    d.help.push(help.to_owned());
    d
}

/// The tags that name a game in a broadcast: the same values, the same
/// game.
const NAMING: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// The games of a file read in order, for telling a game sent again with
/// more moves: the game before's naming tags and main-line moves.
///
/// ```
/// use pgnkit_pgn::{Game, Reader};
/// use pgnkit_replay::broadcast::Resent;
/// use pgnkit_replay::{Options, replay_game};
///
/// let pgn = b"[White \"A\"]\n\n1. e4 e5 *\n\n[White \"A\"]\n\n1. e4 e5 2. Nf3 *\n";
/// let (mut reader, mut game, mut resent) = (Reader::new(pgn), Game::default(), Resent::default());
/// let mut found = Vec::new();
/// while reader.read_game(&mut game) {
///     let report = replay_game(pgn, &game, &Options::default());
///     let played = report.moves.iter().map(|m| m.played);
///     found.push(resent.see(&game, played).map(|d| d.code.as_str()));
/// }
/// assert_eq!(found, [None, Some("resent-game")]);
/// ```
#[derive(Debug, Default)]
pub struct Resent {
    tags: Vec<Option<Vec<u8>>>,
    moves: Vec<Move>,
    seen: bool,
}

impl Resent {
    /// Looks at the next game of the file, whose main line the replay
    /// played as `played` ([`GameReport::moves`](crate::GameReport::moves)): a
    /// `resent-game` warning when the game before has the same naming tags
    /// and its main line is the start of this one's, a few plies shorter.
    pub fn see(
        &mut self,
        game: &Game<'_>,
        played: impl IntoIterator<Item = Move>,
    ) -> Option<Diagnostic> {
        let tags: Vec<Option<Vec<u8>>> = NAMING
            .iter()
            .map(|name| game.tag(name).map(|t| t.value().trim_ascii().to_vec()))
            .collect();
        let moves: Vec<Move> = played.into_iter().collect();
        let found = (self.seen
            && tags == self.tags
            && tags.iter().any(Option::is_some)
            && self.moves.len() < moves.len()
            && moves.len() - self.moves.len() <= MAX_MORE
            && moves.starts_with(&self.moves))
        .then(|| {
            let more = moves.len() - self.moves.len();
            let start = game.span.start;
            let mut d = Diagnostic::new(
                Code::ResentGame,
                start..start,
                format!(
                    "this game is the game before it with {more} more {}: a broadcast sent the game again as it went on",
                    if more == 1 { "ply" } else { "plies" }
                ),
            );
            d.help
                .push("the game before is an earlier copy of this one: keep the last".to_owned());
            d
        });
        self.tags = tags;
        self.moves = moves;
        self.seen = true;
        found
    }
}

/// A later copy of a game has at most this many more plies: a broadcast
/// sends a game again after each move or two.
const MAX_MORE: usize = 4;
