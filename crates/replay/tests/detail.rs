//! Each [`Detail`] level against the full replay: what a level promises is
//! the full report's projection, on the real games of `testdata/` and on
//! games made to carry each warning the fast lane must give way on.

use pgnkit_pgn::write::MoveSink;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{
    Detail, GameReport, MoveEvent, Options, Visitor, replay_game, replay_game_with,
};

fn replay(pgn: &[u8], game: &Game<'_>, detail: Detail) -> GameReport {
    let options = Options {
        detail,
        ..Options::default()
    };
    replay_game(pgn, game, &options)
}

/// Tells which lane replayed a game: the full replay gives every main-line
/// move its position key, the fast lane only at [`Detail::Keys`].
#[derive(Default)]
struct Lane {
    keyed: bool,
}

impl Visitor for Lane {
    type Sink = dyn MoveSink;
    fn restart(&mut self) {
        self.keyed = false;
    }

    fn on_move(&mut self, event: &MoveEvent<'_>) {
        self.keyed |= event.depth == 0 && event.key.is_some();
    }
}

/// [`replay`], and whether the fast lane took the game (`false` for a game
/// without main-line moves: no lane can be told).
fn replay_lane(pgn: &[u8], game: &Game<'_>, detail: Detail) -> (GameReport, bool) {
    let options = Options {
        detail,
        ..Options::default()
    };
    let mut lane = Lane::default();
    let report = replay_game_with(pgn, game, &options, &mut lane);
    let fast = !lane.keyed && report.plies > 0;
    (report, fast)
}

/// What `Detail::Diagnostics` promises of a report: everything but the
/// claims and the keys.
fn diagnostics_projection(r: &GameReport) -> String {
    let diagnostics: Vec<String> = r.diagnostics.iter().map(|d| format!("{d:?}")).collect();
    let moves: Vec<String> = r
        .moves
        .iter()
        .map(|m| format!("{} {:?}", m.token, m.played))
        .collect();
    format!(
        "{diagnostics:#?}\nomitted {:?}\nplies {}\nstatus {:?}\nresult {:?}\nruling {:?}\n\
         tag {:?}\nlanguage {:?}\nencoding {:?}\nundecided {}\nerrors {} warnings {}\nmoves {moves:?}",
        r.omitted,
        r.plies,
        r.status,
        r.result,
        r.ruling,
        r.result_tag,
        r.language,
        r.encoding,
        r.dead_undecided,
        r.errors(),
        r.warnings(),
    )
}

/// Games read, games with a diagnostic, games the fast lane took.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    games: usize,
    with_diagnostics: usize,
    fast_lane: usize,
}

/// Asserts that `Detail::Diagnostics` gives the full report's projection
/// for every game of `pgn`.
fn agree(pgn: &[u8], name: &str) -> Counts {
    let mut counts = Counts::default();
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        counts.games += 1;
        let full = replay(pgn, &game, Detail::Full);
        let (cheap, fast) = replay_lane(pgn, &game, Detail::Diagnostics);
        let at = format!("{name} at byte {}", game.span.start);
        assert_eq!(
            diagnostics_projection(&full),
            diagnostics_projection(&cheap),
            "{at}"
        );
        if !full.diagnostics.is_empty() || !full.omitted.is_empty() {
            counts.with_diagnostics += 1;
        } else if std::env::var_os("DETAIL_DEBUG").is_some() {
            eprintln!("no diagnostic: {at}");
        }
        // Neither lane keeps keys at this level.
        assert!(cheap.keys.is_empty(), "{at}");
        if fast {
            counts.fast_lane += 1;
            assert!(
                full.diagnostics.is_empty(),
                "{at}: the fast lane warns of nothing"
            );
        } else {
            assert_eq!(full.claims, cheap.claims, "{at}");
        }
    }
    counts
}

/// What `Detail::Keys` promises of a report: the errors, plies, status,
/// result, main-line moves and keys.
fn keys_projection(r: &GameReport) -> String {
    let errors: Vec<String> = r
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{d:?}"))
        .collect();
    let moves: Vec<String> = r
        .moves
        .iter()
        .map(|m| format!("{} {:?}", m.token, m.played))
        .collect();
    format!(
        "{errors:#?}\nerrors {}\nplies {}\nstatus {:?}\nresult {:?}\ntag {:?}\nencoding {:?}\n\
         undecided {}\nmoves {moves:?}\nkeys {:?}",
        r.errors(),
        r.plies,
        r.status,
        r.result,
        r.result_tag,
        r.encoding,
        r.dead_undecided,
        r.keys,
    )
}

/// The `*.pgn` files of `testdata/`.
fn testdata_files() -> Vec<std::path::PathBuf> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata");
    let mut files = Vec::new();
    for sub in [
        "convert", "check", "dead", "repair", "fix", "hostile", "index", "notation", "pgn",
    ] {
        let Ok(entries) = std::fs::read_dir(format!("{dir}/{sub}")) else {
            continue;
        };
        for e in entries.flatten() {
            if e.path().extension().is_some_and(|x| x == "pgn") {
                files.push(e.path());
            }
        }
    }
    files.sort();
    assert!(files.len() > 50, "the fixtures are there");
    files
}

#[test]
fn keys_level_reports_what_the_full_replay_does_on_testdata() {
    let (mut games, mut fast_lane, mut keys) = (0, 0, 0);
    for path in testdata_files() {
        let pgn = std::fs::read(&path).expect("readable");
        let mut reader = Reader::new(&pgn);
        let mut game = Game::default();
        while reader.read_game(&mut game) {
            if game.is_comment_only() {
                continue;
            }
            games += 1;
            let full = replay(&pgn, &game, Detail::Full);
            let cheap = replay(&pgn, &game, Detail::Keys);
            let at = format!("{} at byte {}", path.display(), game.span.start);
            assert_eq!(keys_projection(&full), keys_projection(&cheap), "{at}");
            keys += cheap.keys.len();
            // The fast lane leaves the warnings and claims out: where the
            // full replay has some, that tells which lane took the game.
            if cheap.warnings() != full.warnings() || cheap.claims != full.claims {
                fast_lane += 1;
            }
        }
    }
    assert!(
        games > 3000 && fast_lane > 100 && keys > 100_000,
        "{games} games, {fast_lane} by the fast lane, {keys} keys"
    );
}

#[test]
fn diagnostics_level_reports_what_the_full_replay_does_on_testdata() {
    let mut total = Counts::default();
    for path in testdata_files() {
        let pgn = std::fs::read(&path).expect("readable");
        let c = agree(&pgn, &path.display().to_string());
        total.games += c.games;
        total.with_diagnostics += c.with_diagnostics;
        total.fast_lane += c.fast_lane;
    }
    assert!(
        total.games > 3000 && total.with_diagnostics > 100 && total.fast_lane > 1500,
        "{total:?}"
    );
}

/// One game per line of `games` (a Result tag, then the movetext).
fn games(movetexts: &[&str]) -> String {
    movetexts
        .iter()
        .map(|m| {
            let result = m.rsplit(' ').next().unwrap_or("*");
            format!("[Result \"{result}\"]\n\n{m}\n\n")
        })
        .collect()
}

#[test]
fn check_marks_are_judged_as_the_full_replay_judges_them() {
    // Each with exactly the warnings the full replay gives.
    let warned = games(&[
        // Missing check mark, in the main line and in a variation.
        "1. e4 e5 2. Bc4 Nc6 3. Bxf7 Kxf7 *",
        "1. e4 e5 2. Bc4 (2. Bb5 a6 3. Bxc6 dxc6) 2... Nc6 3. Bxf7 (3. Qh5 Nf6 4. Qxf7) 3... Kxf7 *",
        // Check marked where there is none; mate marked as check; check as mate.
        "1. e4+ e5 *",
        "1. f3 e5 2. g4 Qh4+ 0-1",
        "1. e4 e5 2. Bc4 Nc6 3. Bxf7# Kxf7 *",
        // Missing mate mark at the end of the game and of a variation.
        "1. f3 e5 2. g4 Qh4 0-1",
        "1. f3 e5 2. g4 (2. Kf2 Qh4+ 3. g3 Qxg3+ 4. Ke3) 2... Qh4 0-1",
        // A variation ending on a check marked as mate, right after which
        // the main line goes on.
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 (3. Bxf7#) 3... Nf6 4. Qxf7# 1-0",
        // `++` (double check or mate) on a check by one piece.
        "1. e4 e5 2. Bc4 Nc6 3. Bxf7++ Kxf7 *",
        // A wrong mark written as a word of its own.
        "1. e4 e5 2. Bc4 Nc6 3. Bxf7 # Kxf7 *",
        // Move numbers: wrong, and black's dots before a white move.
        "1. e4 e5 3. Nf3 Nc6 *",
        "1. e4 1... e5 2... Nf3 *",
        // A null move, and moves after a fivefold repetition.
        "1. e4 -- 2. d4 *",
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4 *",
    ]);
    let c = agree(warned.as_bytes(), "warned");
    assert_eq!(c.games, 14);
    assert_eq!(c.with_diagnostics, 14, "every one warns");
    assert_eq!(c.fast_lane, 0);

    // Right marks written as words of their own: no warning, but the
    // full replay reads them.
    let words = games(&[
        "1. e4 e5 2. Bc4 Nc6 3. Bxf7 + Kxf7 *",
        "1. f3 e5 2. g4 Qh4 # 0-1",
    ]);
    let c = agree(words.as_bytes(), "words");
    assert_eq!(
        c,
        Counts {
            games: 2,
            with_diagnostics: 0,
            fast_lane: 0
        }
    );

    // Right marks everywhere: mates at the end of the game and of a
    // variation, checks followed by a variation, UCI and ICCF numeric without marks.
    let clean = games(&[
        "1. f3 e5 2. g4 Qh4# 0-1",
        "1. f3 e5 2. g4 (2. Kf2 Qh4+ 3. g3 Qxg3+ 4. Ke3 Qf4+ 5. Kd3) 2... Qh4# 0-1",
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 (3... g6 4. Qf3 Nf6) 4. Qxf7# 1-0",
        "1. e4 e5 2. Bc4 Nc6 3. Bxf7+ (3. Qh5 d6 4. Qxf7#) 3... Kxf7 *",
        "1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 (3... Ke7 4. Bb3) 4. Qh5+ g6 *",
        "1. e2e4 e7e5 2. f1c4 b8c6 3. c4f7 e8f7 *",
        "1. 5254 5755 2. 6134 2836 3. 3467 5867 *",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1/2-1/2",
    ]);
    let c = agree(clean.as_bytes(), "clean");
    assert_eq!(
        c,
        Counts {
            games: 8,
            with_diagnostics: 0,
            fast_lane: 8
        }
    );
}

#[test]
fn tag_warnings_and_empty_games_take_the_full_replay() {
    let pgn = "[White \"A\"]\n[White \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n\
               [White \"A\"]\n[Result \"*\"]\n\n";
    let c = agree(pgn.as_bytes(), "tags");
    assert_eq!(c.games, 2);
    assert_eq!(c.with_diagnostics, 2);
    assert_eq!(c.fast_lane, 0);
}
