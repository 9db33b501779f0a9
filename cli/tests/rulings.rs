//! Rulings as an arbiter makes them: the Result tag against the termination
//! marker, Law 6.9 (a loss on time against a player who cannot mate is a
//! draw) and null moves in the main line.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs `pgnkit ARGS` with `pgn` on standard input (standard error dropped).
fn pgnkit_stdin(args: &[&str], pgn: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("pgnkit runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(pgn.as_bytes())
        .expect("written");
    child.wait_with_output().expect("finishes")
}

/// Runs `pgnkit check --format json --games ARGS` on `pgn` (standard input)
/// and returns the exit status and the records.
fn check(pgn: &str, args: &[&str]) -> (i32, Vec<Value>) {
    let mut all = vec!["check", "--format", "json", "--games"];
    all.extend_from_slice(args);
    all.push("-");
    let out = pgnkit_stdin(&all, pgn);
    let records = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    (out.status.code().unwrap_or(-1), records)
}

fn diagnostics<'a>(records: &'a [Value], code: &str) -> Vec<&'a Value> {
    records
        .iter()
        .filter(|r| r["type"] == "diagnostic" && r["code"] == code)
        .collect()
}

fn game(records: &[Value]) -> &Value {
    records
        .iter()
        .find(|r| r["type"] == "game")
        .expect("a game record")
}

/// Vachier Lagrave - Kramnik, Chessable Masters 2023 (the corpus's
/// `bench/real.pgn`, game 26092): 1. e4 e5 2. Nf3 Nc6 ... 0-1 by mate.
const OPENING: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7";

#[test]
fn a_result_tag_that_contradicts_the_termination_marker_is_an_error() {
    let pgn = format!("[Event \"x\"]\n[Result \"1-0\"]\n\n{OPENING} 0-1\n");
    let (code, records) = check(&pgn, &[]);
    assert_eq!(code, 1);
    let found = diagnostics(&records, "result-mismatch");
    assert_eq!(found.len(), 1, "{records:?}");
    assert_eq!(
        found[0]["message"],
        "the Result tag says 1-0, but the moves end with the termination marker 0-1"
    );
    // The marker is the token named.
    assert_eq!(found[0]["column"], OPENING.len() + 2);

    // `*` against a decisive tag disagrees too; agreeing ones are fine.
    let pgn = format!("[Event \"x\"]\n[Result \"1/2-1/2\"]\n\n{OPENING} *\n");
    assert_eq!(diagnostics(&check(&pgn, &[]).1, "result-mismatch").len(), 1);
    let pgn = format!("[Event \"x\"]\n[Result \"0-1\"]\n\n{OPENING} 0-1\n");
    assert_eq!(check(&pgn, &[]).0, 0);
    // A tag that is no result (`?`) is not compared.
    let pgn = format!("[Event \"x\"]\n[Result \"?\"]\n\n{OPENING} 0-1\n");
    assert_eq!(check(&pgn, &[]).0, 0);
}

/// A game from a FEN: White has king and rook, Black a bare king.
fn rook_ending(termination: &str, result: &str) -> String {
    format!(
        "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/8/R3K3 w - - 0 1\"]\n\
         [Termination \"{termination}\"]\n[Result \"{result}\"]\n\n\
         1. Ra5+ Kd4 2. Ke2 Kc4 {result}\n"
    )
}

#[test]
fn a_loss_on_time_against_a_bare_king_is_a_draw_under_law_6_9() {
    for termination in ["Time forfeit", "time forfeit", "Lost on time"] {
        let (code, records) = check(&rook_ending(termination, "0-1"), &[]);
        assert_eq!(code, 1, "{termination}");
        let found = diagnostics(&records, "result-mismatch");
        assert_eq!(found.len(), 1, "{termination}: {records:?}");
        let message = found[0]["message"].as_str().unwrap_or_default();
        assert!(message.contains("Law 6.9"), "{message}");
        assert!(message.contains("Black cannot checkmate"), "{message}");
        assert_eq!(game(&records)["result"], "1/2-1/2");
    }
    // White, who can mate, wins on time: the result stands.
    let (code, records) = check(&rook_ending("Time forfeit", "1-0"), &[]);
    assert_eq!(code, 0, "{records:?}");
    // Not on time (resignation): no ruling.
    assert_eq!(check(&rook_ending("Normal", "0-1"), &[]).0, 0);
}

#[test]
fn a_lone_minor_piece_that_could_help_mate_keeps_its_win_on_time() {
    // Black has king and knight, White king and pawn: the pawn can block its
    // own king, so Black can mate by a series of legal moves: no draw.
    let pgn = "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/2n5/P7/4K3 w - - 0 1\"]\n\
               [Termination \"Time forfeit\"]\n[Result \"0-1\"]\n\n1. a3 Kd4 2. Kd2 Kc4 0-1\n";
    let (code, records) = check(pgn, &[]);
    assert_eq!(code, 0, "{records:?}");
    assert_eq!(diagnostics(&records, "result-mismatch").len(), 0);
}

#[test]
fn null_moves_warn_in_the_main_line_only() {
    let pgn = "[Event \"x\"]\n\n1. e4 -- 2. d4 Z0 (2... d5 3. -- Nf6) 3. c4 *\n";
    let (code, records) = check(pgn, &[]);
    assert_eq!(code, 0, "a warning: {records:?}");
    let found = diagnostics(&records, "null-move");
    assert_eq!(found.len(), 2, "the two of the main line: {records:?}");
    assert_eq!(found[0]["severity"], "warning");
    assert_eq!(found[0]["ply"], 2);
    assert_eq!(found[0]["side"], "black");
    assert_eq!(found[1]["token"], "Z0");
    assert!(found.iter().all(|d| d.get("variation").is_none()));
    // The replay goes on: 5 plies in the main line.
    assert_eq!(game(&records)["plies"], 5);
    // An error under --strict.
    assert_eq!(check(pgn, &["--strict"]).0, 1);
}

#[test]
fn a_variation_after_a_null_move_is_replayed_from_before_it() {
    // Found by the python-chess cross-check (pgn4web `test.pgn`, game 15):
    // the variation that replaces a null move used to be skipped unchecked.
    let (code, records) = check("[Event \"t\"]\n\n1. e4 -- (1... Qh1) 2. d4 *\n", &[]);
    assert_eq!(code, 1);
    let found = diagnostics(&records, "illegal-move");
    assert_eq!(found.len(), 1, "{records:?}");
    assert_eq!(found[0]["token"], "Qh1");
    assert_eq!(found[0]["variation"], true);
    let (code, _) = check("[Event \"t\"]\n\n1. e4 -- (1... e5 2. Nf3) 2. d4 *\n", &[]);
    assert_eq!(code, 0);
}

#[test]
fn a_variation_that_follows_no_move_is_reported_when_it_has_moves() {
    let (code, records) = check("[Event \"t\"]\n\n(1. d4 d5) 1. e4 e5 *\n", &[]);
    assert_eq!(code, 1);
    let found = diagnostics(&records, "syntax");
    assert_eq!(found.len(), 1, "{records:?}");
    assert_eq!(found[0]["column"], 1);
    assert!(
        found[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("follows no move"))
    );
    // Empty variations (a comment only) are nothing to replay: no error.
    let (code, _) = check("[Event \"t\"]\n\n1. d4 ( ) d5 ( ( {x} ) ) 2. c4 *\n", &[]);
    assert_eq!(code, 0);
}

#[test]
fn convert_skips_a_game_whose_result_tag_contradicts_its_marker() {
    // Found by fuzz/convert: convert's fast path for plain games must rule
    // as the replay does, so --skip-invalid leaves this game out.
    let pgn = format!("[Event \"x\"]\n[Result \"1-0\"]\n\n{OPENING} 0-1\n");
    let out = pgnkit_stdin(&["convert", "-q", "--skip-invalid", "-"], &pgn);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

fn testdata(name: &str) -> String {
    let path = format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn a_locked_pawn_wall_in_a_real_game_is_a_dead_position() {
    // Carlsen - Firouzja, FTX Crypto Cup 2022: after 47. h4 (ply 93) no pawn
    // can move and no king can reach a pawn; the players shuffled their
    // kings five more moves before agreeing the draw. The moves after the
    // dead position are legal chess played on after an automatic draw: a
    // warning, as after a fivefold repetition, and no error.
    let (code, records) = check(&testdata("dead/carlsen-firouzja-2022.pgn"), &[]);
    assert_eq!(code, 0, "{records:?}");
    let g = game(&records);
    assert_eq!(g["status"], "dead-position");
    assert_eq!(g["result"], "1/2-1/2");
    assert!(diagnostics(&records, "moves-after-end").is_empty());
    let after = diagnostics(&records, "moves-after-draw");
    assert_eq!(after.len(), 1, "{records:?}");
    assert_eq!(after[0]["severity"], "warning");
    assert_eq!(after[0]["ply"], 94);
    assert_eq!(after[0]["token"], "Kd7");
    let message = after[0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("drew it at ply 93: a dead position"),
        "{message}"
    );
    assert!(message.contains("Law 5.2.2"), "{message}");
    // The draw agreed is the rules' result: no mismatch.
    assert!(diagnostics(&records, "result-mismatch").is_empty());
}

#[test]
fn a_game_that_stops_at_the_dead_position_is_a_draw_by_the_rules() {
    // The same game cut after 47. h4, recorded as a win: the rules drew it.
    let full = testdata("dead/carlsen-firouzja-2022.pgn");
    let cut = full
        .split("47.h4")
        .next()
        .map(|head| format!("{head}47.h4 1-0\n"))
        .unwrap_or_default()
        .replace("[Result \"1/2-1/2\"]", "[Result \"1-0\"]");
    let (code, records) = check(&cut, &[]);
    assert_eq!(code, 1, "{records:?}");
    assert_eq!(game(&records)["status"], "dead-position");
    assert!(diagnostics(&records, "moves-after-end").is_empty());
    assert!(diagnostics(&records, "moves-after-draw").is_empty());
    let found = diagnostics(&records, "result-mismatch");
    assert_eq!(found.len(), 1, "{records:?}");
    let message = found[0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("neither side can checkmate by any series of legal moves"),
        "{message}"
    );
}

#[test]
fn moves_after_insufficient_material_are_moves_after_a_draw() {
    // Nakamura - Adams, London 2012: 68. g8=R+ Nxg8 leaves White a bare king
    // (ply 136); 69. Kxg8 came after the rules drew the game.
    let (code, records) = check(&testdata("dead/nakamura-adams-2012.pgn"), &[]);
    assert_eq!(code, 0, "{records:?}");
    assert_eq!(game(&records)["status"], "insufficient-material");
    assert!(diagnostics(&records, "moves-after-end").is_empty());
    let after = diagnostics(&records, "moves-after-draw");
    assert_eq!(after.len(), 1, "{records:?}");
    assert_eq!(after[0]["ply"], 137);
    assert_eq!(after[0]["move_number"], 69);
    assert_eq!(after[0]["side"], "white");
}

#[test]
fn a_wall_with_a_way_through_is_no_dead_position() {
    // Locked pawns on the a-, c- and e-files, but the kings can walk round
    // them on the king side and take a pawn: the game goes on.
    let open = "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"8/4k3/8/p1p1p3/P1P1P3/8/4K3/8 w - - 0 40\"]\n\
                [Result \"*\"]\n\n40. Kf3 Kf7 *\n";
    let (code, records) = check(open, &[]);
    assert_eq!(code, 0, "{records:?}");
    assert_eq!(game(&records)["status"], "ongoing");
    // With the h-pawns locked too, every square a king could cross is
    // guarded by a pawn: dead from the start, and the moves come after it.
    let closed = open.replace("p1p1p3/P1P1P3", "p1p1p2p/P1P1P2P");
    let (code, records) = check(&closed, &[]);
    assert_eq!(code, 0, "{records:?}");
    assert_eq!(game(&records)["status"], "dead-position");
    assert_eq!(diagnostics(&records, "moves-after-draw").len(), 1);
}

#[test]
fn an_undecided_search_is_counted_in_the_summary() {
    // A position whose helpmates are too long for the search's budget
    // (CHA's test vectors label it: both sides can still mate, by long
    // series through the bishops and blocked pawns): nothing is reported,
    // the summary counts it.
    let pgn = "[Event \"x\"]\n[SetUp \"1\"]\n\
               [FEN \"k1b5/1p1p4/1P1Pb3/B7/8/8/8/K7 w - - 0 40\"]\n\
               [Result \"*\"]\n\n*\n";
    let (code, records) = check(pgn, &[]);
    assert_eq!(code, 0, "{records:?}");
    assert_eq!(game(&records)["status"], "ongoing");
    let summary = records
        .iter()
        .find(|r| r["type"] == "summary")
        .expect("a summary");
    assert_eq!(summary["dead_undecided"], 1);
    // The position this test had before: White's king can only go between
    // h3 and h4, and Black's king stepping next to them stalemates it; CHA
    // labels it dead, and the stalemate trap proves it.
    let trapped = "[Event \"x\"]\n[SetUp \"1\"]\n\
                   [FEN \"8/8/7p/5p1P/5p1K/4bPp1/5bPb/4bkb1 b - - 0 40\"]\n\
                   [Result \"*\"]\n\n*\n";
    let (_, records) = check(trapped, &[]);
    assert_eq!(game(&records)["status"], "dead-position");
}
