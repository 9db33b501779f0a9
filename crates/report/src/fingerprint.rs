//! Fingerprints of problems that survive unrelated edits of a file.
//!
//! A diagnostic's place in a file (line, column, byte) moves whenever a game
//! is added before it or a line is wrapped anew. A baseline of accepted
//! problems (`check --baseline`), SARIF's `partialFingerprints` and GitLab's
//! `fingerprint` need a name for the problem that does not: here it is made
//! of the game's identity ([`GameIdentity`]: its Event, Site, Date, Round,
//! White and Black tags and its first moves as written, words only, so that
//! line breaks and spacing do not count), the diagnostic's code, its ply (in
//! a variation too) and its token. Two identical games with the same
//! problem have the same fingerprint: the baseline counts them.
//!
//! The hash is FNV-1a (64 bits), fixed here, so fingerprints stay the same
//! from one version and one machine to the next.
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, replay_game};
//! use pgnkit_report::fingerprint::{GameIdentity, fingerprint};
//!
//! let a = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n";
//! let b = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4\ne5\n2. Ke3 *\n";
//! let print = |pgn: &[u8]| {
//!     let mut game = Game::default();
//!     Reader::new(pgn).read_game(&mut game);
//!     let report = replay_game(pgn, &game, &Options::default());
//!     fingerprint(GameIdentity::of(&game), &report.diagnostics[0])
//! };
//! assert_eq!(print(a), print(b)); // the same problem, wrapped anew
//! ```

use pgnkit_pgn::{Game, TokenKind};
use pgnkit_replay::Diagnostic;

/// The tags that name a game (the Seven Tag Roster without Result, which a
/// fix may change).
const NAMING_TAGS: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// Main-line words of a game that go into its identity (enough to tell
/// tagless games apart; few, so that a fix later in the game leaves it).
const OPENING_WORDS: usize = 8;

/// A 64-bit FNV-1a hash, fed piece by piece.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    const fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(mut self, bytes: &[u8]) -> Fnv {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        self
    }
}

/// What names a game whatever its place in the file: a hash of its naming
/// tags and its first main-line words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameIdentity(u64);

impl GameIdentity {
    /// The identity of `game`. Linear in the game's tags and its first
    /// tokens (up to its first eight main-line words).
    pub fn of(game: &Game<'_>) -> GameIdentity {
        let mut h = Fnv::new();
        for name in NAMING_TAGS {
            let value = game.tag(name).map(|t| t.value());
            h = h.bytes(value.as_deref().map_or(&[][..], |v| v.trim_ascii()));
        }
        let mut depth = 0usize;
        let mut words = 0;
        for t in game.tokens.iter() {
            match t.kind {
                TokenKind::OpenVariation => depth += 1,
                TokenKind::CloseVariation => depth = depth.saturating_sub(1),
                TokenKind::Word if depth == 0 => {
                    h = h.bytes(t.text);
                    words += 1;
                    if words == OPENING_WORDS {
                        break;
                    }
                }
                _ => {}
            }
        }
        GameIdentity(h.0)
    }

    /// The identity as a number.
    pub fn get(self) -> u64 {
        self.0
    }
}

/// The fingerprint of diagnostic `d` of the game named `game`: its code,
/// ply (0 for a problem of the whole game), whether it is in a variation,
/// and its token.
pub fn fingerprint(game: GameIdentity, d: &Diagnostic) -> u64 {
    Fnv(game.0)
        .bytes(d.code.as_str().as_bytes())
        .bytes(&d.ply.unwrap_or(0).to_le_bytes())
        .bytes(&[u8::from(d.variation)])
        .bytes(d.token.as_deref().unwrap_or("").as_bytes())
        .0
}

/// The fingerprint of the problems of the game named `game` past those it
/// keeps (they are known by their count).
pub fn omitted(game: GameIdentity) -> u64 {
    Fnv(game.0).bytes(b"omitted").0
}

/// The same stable hash of any bytes (a file's path, say).
pub fn of_bytes(bytes: &[u8]) -> u64 {
    Fnv::new().bytes(bytes).0
}

/// A fingerprint as SARIF and GitLab write it: 16 hexadecimal digits.
pub fn hex(fingerprint: u64) -> String {
    format!("{fingerprint:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_pgn::Reader;
    use pgnkit_replay::{Options, replay_game};

    fn prints(pgn: &[u8]) -> Vec<u64> {
        let mut game = Game::default();
        let mut reader = Reader::new(pgn);
        let mut out = Vec::new();
        while reader.read_game(&mut game) {
            let report = replay_game(pgn, &game, &Options::default());
            let id = GameIdentity::of(&game);
            out.extend(report.diagnostics.iter().map(|d| fingerprint(id, d)));
        }
        out
    }

    const GAME: &[u8] =
        b"[Event \"Open\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Ke3 *\n\n";

    #[test]
    fn a_problem_keeps_its_fingerprint_when_games_come_before_it_or_lines_wrap() {
        let alone = prints(GAME);
        assert_eq!(alone.len(), 1);
        let mut moved =
            b"[Event \"Other\"]\n[White \"C\"]\n[Black \"D\"]\n\n1. d4 d5 *\n\n".to_vec();
        moved.extend_from_slice(&GAME.replace(" 3. ", "\n3. "));
        assert_eq!(prints(&moved), alone);
    }

    #[test]
    fn other_games_players_and_plies_give_other_fingerprints() {
        let base = prints(GAME)[0];
        let other_player = prints(&GAME.replace("\"B\"", "\"E\""))[0];
        let other_ply = prints(&GAME.replace("5. Ke3", "5. c3 Ke6"))[0];
        assert_ne!(base, other_player);
        assert_ne!(base, other_ply);
    }

    trait Replace {
        fn replace(&self, from: &str, to: &str) -> Vec<u8>;
    }

    impl Replace for [u8] {
        fn replace(&self, from: &str, to: &str) -> Vec<u8> {
            String::from_utf8_lossy(self).replace(from, to).into_bytes()
        }
    }
}
