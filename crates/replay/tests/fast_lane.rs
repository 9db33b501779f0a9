//! The replay's fast lane for plain games (`Detail::Errors`) against the
//! full replay (`Detail::Full`), on the real games of `testdata/`: the same
//! errors, status, result, plies, language and main-line moves, and the
//! same moves shown to the visitor, written the same way.

use pgnkit_notation::{Language, Notation, Style};
use pgnkit_pgn::write::{MoveSink, Moves};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{
    Detail, GameReport, MoveEvent, MoveWriter, Options, Visitor, replay_game_with,
};

/// Whether the fast lane took a game at [`Detail::Errors`]: the full
/// replay gives every main-line move its position key, the fast lane none.
fn took_fast_lane(pgn: &[u8], game: &Game<'_>) -> bool {
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
    let options = Options {
        detail: Detail::Errors,
        ..Options::default()
    };
    let mut lane = Lane::default();
    let report = replay_game_with(pgn, game, &options, &mut lane);
    !lane.keyed && report.plies > 0
}

fn replay(pgn: &[u8], game: &Game<'_>, detail: Detail) -> (GameReport, Vec<String>) {
    let mut moves = Moves::new(true);
    let options = Options {
        detail,
        ..Options::default()
    };
    let style = Style::new(Notation::Lan, Language::En);
    let report = replay_game_with(
        pgn,
        game,
        &options,
        &mut MoveWriter::new(style, true, &mut moves),
    );
    let written = (0..)
        .map_while(|k| moves.at(k))
        .map(|m| format!("{} {}{} {} {}", m.number, m.white, m.text, m.uci, m.width))
        .collect();
    (report, written)
}

/// Asserts that both replays agree on the games of `pgn`; gives how many
/// games the fast lane took.
fn agree(pgn: &[u8], name: &str) -> (usize, usize, usize) {
    let (mut games, mut with_errors, mut fast_lane) = (0, 0, 0);
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        games += 1;
        let (full, full_moves) = replay(pgn, &game, Detail::Full);
        let (fast, fast_moves) = replay(pgn, &game, Detail::Errors);
        let at = format!("{name} at byte {}", game.span.start);
        let errors = |r: &GameReport| -> Vec<String> {
            r.diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| format!("{} {:?} {}", d.code, d.span, d.message))
                .collect()
        };
        assert_eq!(errors(&full), errors(&fast), "{at}");
        assert_eq!(full.errors(), fast.errors(), "{at}");
        if full.errors() > 0 {
            with_errors += 1;
        }
        assert!(fast.keys.is_empty(), "{at}: no keys at this level");
        let took = took_fast_lane(pgn, &game);
        if took {
            fast_lane += 1;
        }
        assert_eq!(full.status, fast.status, "{at}");
        assert_eq!(full.result, fast.result, "{at}");
        assert_eq!(full.ruling, fast.ruling, "{at}");
        assert_eq!(full.result_tag, fast.result_tag, "{at}");
        assert_eq!(full.plies, fast.plies, "{at}");
        assert_eq!(full.language, fast.language, "{at}");
        assert_eq!(full.encoding, fast.encoding, "{at}");
        assert_eq!(full.start, fast.start, "{at}");
        assert_eq!(full.dead_undecided, fast.dead_undecided, "{at}");
        let main = |r: &GameReport| -> Vec<(u32, String)> {
            r.moves
                .iter()
                .map(|m| (m.token, format!("{:?}", m.played)))
                .collect()
        };
        // `Detail::Errors` does not report the main-line moves; the full
        // replay, which a game may still take, does.
        if took {
            assert!(fast.moves.is_empty(), "{at}");
        } else {
            assert_eq!(main(&full), main(&fast), "{at}");
        }
        assert_eq!(full_moves, fast_moves, "{at}");
    }
    (games, with_errors, fast_lane)
}

#[test]
fn automatic_draws_are_the_same_in_both_lanes() {
    let shuffle = "Nf3 Nf6 Ng1 Ng8 ".repeat(4);
    let mut pgn = String::new();
    // A fivefold repetition at the last move, recorded as a draw, unknown,
    // and as a win (an error); then with moves played on after it.
    for result in ["1/2-1/2", "*", "1-0", "0-1"] {
        pgn.push_str(&format!("[Result \"{result}\"]\n\n{shuffle}{result}\n\n"));
        pgn.push_str(&format!(
            "[Result \"{result}\"]\n\n{shuffle}e4 e5 {result}\n\n"
        ));
    }
    // Repetitions broken by pawn moves (the start placement three times,
    // the one after them four: no fivefold), and a placement seen five
    // times with the castling rights lost on the way (not the same position).
    pgn.push_str(&format!(
        "{}e4 e5 {}1-0\n\n",
        "Nf3 Nf6 Ng1 Ng8 ".repeat(2),
        "Nf3 Nf6 Ng1 Ng8 ".repeat(3)
    ));
    pgn.push_str("1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2 Ke7 7. Ke1 Ke8 8. Ke2 Ke7 9. Ke1 Ke8 1-0\n\n");
    // After captures, Black's the last: the repetition comes in a later
    // stretch without captures, White to move at its start; recorded as a
    // draw at its last move, and with moves played on after it.
    let ruy = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 ";
    let knights = "Nc3 Nf6 Nb1 Ng8 ".repeat(4);
    pgn.push_str(&format!("{ruy}{knights}1/2-1/2\n\n"));
    pgn.push_str(&format!("{ruy}{knights}h3 h6 *\n\n"));
    let (games, with_errors, fast_lane) = agree(pgn.as_bytes(), "repetitions");
    assert_eq!(games, 12);
    assert_eq!(
        with_errors, 2,
        "the two wins recorded for a game drawn at its last move"
    );
    assert_eq!(fast_lane, 10);
}

#[test]
fn a_descriptive_word_naming_where_its_piece_started_takes_the_full_replay() {
    // The fast lane does not follow where the pieces started: `KR-K1`
    // (the rook that started on the king's side) is read by the full
    // replay, `R-K1` by the lane; both games are reported alike.
    let opening = "1. P-K4 P-K4 2. N-KB3 N-QB3 3. B-B4 B-B4 4. O-O N-B3 5.";
    for (rook, lane) in [("R-K1", true), ("KR-K1", false)] {
        let pgn = format!("{opening} {rook} O-O *\n");
        let (games, with_errors, fast_lane) = agree(pgn.as_bytes(), rook);
        assert_eq!((games, with_errors), (1, 0), "{rook}");
        assert_eq!(fast_lane, usize::from(lane), "{rook}");
        let (report, written) = replay(pgn.as_bytes(), &first_game(pgn.as_bytes()), Detail::Errors);
        assert_eq!(report.plies, 10, "{rook}");
        assert!(
            written[8].ends_with("Rf1-e1 f1e1 6"),
            "{rook}: {}",
            written[8]
        );
    }
}

fn first_game(pgn: &[u8]) -> Game<'_> {
    let mut game = Game::default();
    assert!(Reader::new(pgn).read_game(&mut game));
    game
}

#[test]
fn the_fast_lane_reports_and_writes_what_the_full_replay_does() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata");
    let mut files = Vec::new();
    for sub in ["convert", "check", "dead", "repair"] {
        let Ok(entries) = std::fs::read_dir(format!("{dir}/{sub}")) else {
            continue;
        };
        for e in entries.flatten() {
            if e.path().extension().is_some_and(|x| x == "pgn") {
                files.push(e.path());
            }
        }
    }
    assert!(files.len() > 10, "the fixtures are there");
    let (mut games, mut with_errors, mut fast_lane) = (0, 0, 0);
    for path in files {
        let pgn = std::fs::read(&path).expect("readable");
        let (g, e, f) = agree(&pgn, &path.display().to_string());
        games += g;
        with_errors += e;
        fast_lane += f;
    }
    assert!(
        games > 1000 && with_errors > 10 && fast_lane > 500,
        "{games} games, {with_errors} with errors, {fast_lane} by the fast lane"
    );
}

/// A game of `prefix` (SAN) and then `plies` moves of pieces without a
/// capture or a pawn move, chosen by a seeded walk that lets no position
/// come a third time (so no fivefold repetition comes first): `None` when
/// the walk runs out of such moves.
fn quiet_walk(prefix: &str, plies: usize, seed: u64) -> Option<String> {
    use shakmaty::zobrist::Zobrist64;
    use shakmaty::{Chess, EnPassantMode, Position, san::San, san::SanPlus};
    let mut pos = Chess::default();
    let mut out = String::new();
    for word in prefix.split_whitespace() {
        let m = word.parse::<San>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(m);
        out.push_str(word);
        out.push(' ');
    }
    let mut seen = std::collections::HashMap::new();
    let mut rng = seed;
    for _ in 0..plies {
        let moves: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_zeroing())
            .filter(|m| {
                let after = pos.clone().play(*m).ok();
                after.is_some_and(|a| {
                    let key: Zobrist64 = a.zobrist_hash(EnPassantMode::Legal);
                    seen.get(&key).copied().unwrap_or(0) < 2 && !a.is_game_over()
                })
            })
            .collect();
        if moves.is_empty() {
            return None;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = moves[(rng >> 33) as usize % moves.len()];
        out.push_str(&SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        out.push(' ');
        let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
        *seen.entry(key).or_insert(0) += 1;
    }
    Some(out)
}

/// The 75-move rule ends the game at the 150th ply without a capture or a
/// pawn move, found alike by the fast lane (which keeps only the moves
/// since the last one) and the full replay; recorded as a draw at that
/// ply and with moves played on after it.
#[test]
fn the_seventy_five_move_rule_is_the_same_in_both_lanes() {
    let walks: Vec<String> = (1..40u64)
        .filter_map(|seed| quiet_walk("e4 e5 Nf3 Nc6 d4 d5", 152, seed))
        .take(2)
        .collect();
    assert_eq!(walks.len(), 2, "quiet walks of 152 plies");
    let mut pgn = String::new();
    for walk in &walks {
        // The six opening moves and 150 quiet ones; then two more.
        let words: Vec<&str> = walk.split_whitespace().collect();
        let drawn = words[..156].join(" ");
        pgn.push_str(&format!("[Result \"1/2-1/2\"]\n\n{drawn} 1/2-1/2\n\n"));
        pgn.push_str(&format!("{walk}*\n\n"));
    }
    let (games, _, fast_lane) = agree(pgn.as_bytes(), "75 moves");
    assert_eq!(games, 4);
    assert!(fast_lane >= 2, "the drawn records take the fast lane");
    let mut reader = Reader::new(pgn.as_bytes());
    let mut game = Game::default();
    while reader.read_game(&mut game) {
        let report = pgnkit_replay::replay_game(pgn.as_bytes(), &game, &Options::default());
        assert_eq!(report.status.as_str(), "seventyfive-moves");
    }
}

/// At [`Detail::Diagnostics`] (what `check` asks for) the plain lane reads
/// runs of plain moves at once: a move that checks without its mark, a
/// mark on a move that gives none, a wrong move number and clock comments
/// among such runs are reported as the full replay reports them.
#[test]
fn plain_runs_report_what_the_full_replay_does() {
    let games = [
        // Plain, with clocks: the lane takes it whole.
        "1. e4 {[%clk 0:05:00]} e5 {[%clk 0:05:00]} 2. Nf3 Nc6 3. Bb5 a6 1-0",
        // A check without its mark, in the middle of a run.
        "1. e4 e5 2. Bc4 Nc6 3. Bxf7 Kxf7 4. Nf3 d6 *",
        // A check mark on a move that gives no check.
        "1. e4 e5 2. Nf3+ Nc6 3. Bb5 a6 *",
        // Marks right, then a mate.
        "1. f3 e5 2. g4 Qh4# 0-1",
        // A wrong move number, and Black's dots where White moves.
        "1. d4 d5 3. c4 e6 4... Nc3 Nf6 *",
        // Numbers glued to their moves; a check given by a pawn.
        "1.e4 d5 2.exd5 Qxd5 3.Nc3 Qe5+ 4.Be2 Qxe4 *",
        // A check mark on a move that mates.
        "1. f3 e5 2. g4 Qh4+ 0-1",
        // Checks marked right, one the game's last move.
        "1. e4 f5 2. Qh5+ g6 3. Qxg6+ hxg6 4. Bc4 Nf6 5. Bf7+ *",
        // A check marked twice, and a check mark on a castle.
        "1. e4 f5 2. Qh5++ g6 *",
    ];
    for text in games {
        // The Result tag agrees with the marker: a game whose record
        // disagrees is not quiet, and takes the full replay.
        let result = text.rsplit(' ').next().unwrap_or("*");
        let pgn = format!("[Event \"x\"]\n[Result \"{result}\"]\n\n{text}\n");
        let mut game = Game::default();
        assert!(Reader::new(pgn.as_bytes()).read_game(&mut game));
        let report = |detail: Detail| {
            let options = Options {
                detail,
                ..Options::default()
            };
            let r = replay_game_with(pgn.as_bytes(), &game, &options, &mut ());
            let diagnostics: Vec<String> = r
                .diagnostics
                .iter()
                .map(|d| format!("{} {:?} {}", d.code, d.span, d.message))
                .collect();
            (diagnostics, r.plies, r.status, r.moves.len())
        };
        assert_eq!(report(Detail::Full), report(Detail::Diagnostics), "{text}");
    }
}
