//! `check --fix` applies what the rules decide for certain: a Result tag (and
//! termination marker) the rules contradict is rewritten to the rules'
//! result with a comment saying why, and a missing or wrong `+`/`#` is
//! corrected in the move's own word. Each test asserts the exact bytes
//! written, that `--fix` on its own output changes nothing more, and that
//! `check` on the output no longer reports what was fixed.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("{}/testdata/fix/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(fixture(name)).expect("fixture")
}

/// The records `pgnkit check --format json ARGS` prints.
fn records(args: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(["check", "-q", "--format", "json"])
        .args(args)
        .output()
        .expect("pgnkit runs");
    assert_ne!(out.status.code(), Some(2), "{out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

fn codes(records: &[Value], code: &str) -> usize {
    records
        .iter()
        .filter(|r| r["type"] == "diagnostic" && r["code"] == code)
        .count()
}

/// `check --fix` on `input`: the bytes written, the `fixed` counts of the
/// summary, and the diagnostics `check` reported on the input.
struct Fixed {
    output: Vec<u8>,
    counts: Value,
    before: Vec<Value>,
}

fn fix(input: &[u8]) -> Fixed {
    let dir = tempfile::tempdir().expect("tempdir");
    let (src, dst) = (dir.path().join("in.pgn"), dir.path().join("out.pgn"));
    std::fs::write(&src, input).expect("written");
    let fixed = run_fix(&src, &dst);
    // Idempotent: --fix on its own output changes nothing, and check on it
    // reports no result-mismatch or check-mark that was fixed.
    let again = dir.path().join("again.pgn");
    let second = run_fix(&dst, &again);
    assert_eq!(
        String::from_utf8_lossy(&second.output),
        String::from_utf8_lossy(&fixed.output),
        "--fix on its own output"
    );
    for kind in ["moves", "results", "check_marks", "games"] {
        assert_eq!(second.counts[kind], 0, "{}", second.counts);
    }
    if fixed.counts["check_marks"] != 0 {
        assert_eq!(
            codes(&second.before, "check-mark"),
            0,
            "{:?}",
            second.before
        );
    }
    fixed
}

fn run_fix(src: &Path, dst: &Path) -> Fixed {
    let (src, dst) = (src.to_string_lossy(), dst.to_string_lossy());
    let before = records(&["--fix", "-o", &dst, &src]);
    let counts = before
        .iter()
        .find(|r| r["type"] == "summary")
        .map(|s| s["fixed"].clone())
        .expect("summary");
    Fixed {
        output: std::fs::read(&*dst).expect("output"),
        counts,
        before,
    }
}

/// `input` with each `(from, to)` replaced; each `from` occurs exactly once.
fn replaced(input: &[u8], edits: &[(&str, &str)]) -> Vec<u8> {
    let mut out = input.to_vec();
    for (from, to) in edits {
        let at: Vec<usize> = out
            .windows(from.len())
            .enumerate()
            .filter(|(_, w)| *w == from.as_bytes())
            .map(|(i, _)| i)
            .collect();
        assert_eq!(at.len(), 1, "`{from}` occurs once");
        out.splice(at[0]..at[0] + from.len(), to.bytes());
    }
    out
}

fn assert_bytes(got: &[u8], expected: &[u8]) {
    assert_eq!(
        String::from_utf8_lossy(got),
        String::from_utf8_lossy(expected)
    );
    assert_eq!(got, expected);
}

fn assert_counts(counts: &Value, games: u64, moves: u64, results: u64, marks: u64) {
    assert_eq!(counts["games"], games, "{counts}");
    assert_eq!(counts["moves"], moves, "{counts}");
    assert_eq!(counts["results"], results, "{counts}");
    assert_eq!(counts["check_marks"], marks, "{counts}");
}

/// pgn-extract's `--fixresulttags` test: four mates and a stalemate scored
/// wrongly. The tags come out as pgn-extract's expected output has them.
#[test]
fn wrong_result_tags_of_real_games_get_the_rules_result() {
    let input = read("pgn-extract-fixresulttags.pgn");
    let f = fix(&input);
    let comment = |written: &str, applied: &str, why: &str| {
        format!("{{pgnkit: Result \"{written}\" written, \"{applied}\" applied: {why}}} {applied}")
    };
    let mate = "checkmate (Law 5.1.1)";
    let expected = replaced(
        &input,
        &[
            (
                "[Result \"1-0\"]\n\n1. e4 c5",
                "[Result \"0-1\"]\n\n1. e4 c5",
            ),
            ("Qh5# 1-0", &format!("Qh5# {}", comment("1-0", "0-1", mate))),
            (
                "[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4",
                "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4",
            ),
            (
                "Kf3 0-1",
                &format!("Kf3 {}", comment("0-1", "1/2-1/2", "stalemate (Law 5.2.1)")),
            ),
            (
                "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 3. d4",
                "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. d4",
            ),
            (
                "Ng5# 1/2-1/2",
                &format!("Ng5# {}", comment("1/2-1/2", "1-0", mate)),
            ),
            (
                "[Result \"0-1\"]\n\n1. e4 c6",
                "[Result \"1-0\"]\n\n1. e4 c6",
            ),
            ("Rh8# 0-1", &format!("Rh8# {}", comment("0-1", "1-0", mate))),
            (
                "[Result \"1/2-1/2\"]\n\n1. e4 e6",
                "[Result \"1-0\"]\n\n1. e4 e6",
            ),
            (
                "Qxg7#\n1/2-1/2\n",
                &format!("Qxg7#\n{}\n\n", comment("1/2-1/2", "1-0", mate)),
            ),
        ],
    );
    assert_bytes(&f.output, &expected);
    assert_counts(&f.counts, 5, 0, 5, 0);
    assert_eq!(codes(&f.before, "result-mismatch"), 5);
    // The same tags as pgn-extract --fixresulttags writes.
    let tags = |text: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(text)
            .lines()
            .filter(|l| l.starts_with("[Result "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        tags(&f.output),
        tags(&read("pgn-extract-fixresulttags-out.pgn"))
    );
}

/// pgn-extract's `--nobadresults` test: tags that disagree with the marker
/// in a position the rules do not end. Nothing decides the result: nothing
/// is changed, and `check` still reports each.
#[test]
fn a_tag_that_only_disagrees_with_the_marker_is_left_alone() {
    let input = read("pgn-extract-nobadresults.pgn");
    let f = fix(&input);
    // Each one-line game is followed by an empty line, as --fix writes games.
    let expected = String::from_utf8_lossy(&input).replace('\n', "\n\n");
    assert_bytes(&f.output, expected.as_bytes());
    assert_counts(&f.counts, 0, 0, 0, 0);
    assert_eq!(codes(&f.before, "result-mismatch"), 9);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out.pgn");
    std::fs::write(&out, &f.output).expect("written");
    let after = records(&[&out.to_string_lossy()]);
    assert_eq!(codes(&after, "result-mismatch"), 9);
}

/// Real games (CRLF line ends): a mate marked as check, and an en passant
/// capture that gives a discovered check without a mark. (--fix ends each
/// game with an empty line of its own, `\n\n`, as it always has.)
#[test]
fn check_marks_of_real_games_are_corrected_in_place() {
    let input = read("check-marks-kosteniuk.pgn");
    let f = fix(&input);
    let expected = replaced(
        &input,
        &[
            ("18.Qg7+  1-0\r\n\r\n", "18.Qg7#  1-0\n\n"),
            ("19.exf6 Kxf6", "19.exf6+ Kxf6"),
            ("29.Qd2  1-0\r\n", "29.Qd2  1-0\n\n"),
        ],
    );
    assert_bytes(&f.output, &expected);
    assert_counts(&f.counts, 2, 0, 0, 2);

    // A promotion that mates, marked as check (London 1851).
    let input = read("check-marks-london1851.pgn");
    let f = fix(&input);
    assert_bytes(
        &f.output,
        &replaced(&input, &[("exd1=Q+  0-1\r\n\r\n", "exd1=Q#  0-1\n\n")]),
    );
    assert_counts(&f.counts, 1, 0, 0, 1);
}

/// A Latin-1 file: `Bxc3+` that gives no check loses its mark, and every
/// other byte (the Latin-1 opening names included) is kept.
#[test]
fn a_wrong_check_mark_is_removed_and_latin1_bytes_are_kept() {
    let input = read("check-marks-eco-de-latin1.pgn");
    assert!(
        std::str::from_utf8(&input).is_err(),
        "the fixture is Latin-1"
    );
    let f = fix(&input);
    let expected = replaced(
        &input,
        &[
            ("Bxc3+ 9.bxc3 Qc7", "Bxc3 9.bxc3 Qc7"),
            ("Bxc3+ 9. bxc3 dxc4", "Bxc3 9. bxc3 dxc4"),
            ("2. c4 g6\n", "2. c4 g6\n\n"),
        ],
    );
    assert_bytes(&f.output, &expected);
    assert_counts(&f.counts, 2, 0, 0, 2);
}

/// A real lichess game drawn under Law 6.9 (Black lost on time, White had a
/// bare king): as recorded it stands. Recorded as a win for White (tag and
/// marker edited, as a wrong record would have them), the draw is restored.
#[test]
fn a_loss_on_time_against_a_bare_king_is_scored_a_draw() {
    let input = read("time-forfeit-lichess.pgn");
    let f = fix(&input);
    let as_written = [&input[..], b"\n"].concat();
    assert_bytes(&f.output, &as_written);
    assert_counts(&f.counts, 0, 0, 0, 0);

    let wrong = replaced(
        &input,
        &[
            ("[Result \"1/2-1/2\"]", "[Result \"1-0\"]"),
            ("66. Kf6 1/2-1/2", "66. Kf6 1-0"),
        ],
    );
    let f = fix(&wrong);
    assert_eq!(codes(&f.before, "result-mismatch"), 1, "{:?}", f.before);
    let expected = replaced(
        &as_written,
        &[(
            "66. Kf6 1/2-1/2",
            "66. Kf6 {pgnkit: Result \"1-0\" written, \"1/2-1/2\" applied: lost on time, but White \
             cannot checkmate by any series of legal moves (Law 6.9)} 1/2-1/2",
        )],
    );
    assert_bytes(&f.output, &expected);
    assert_counts(&f.counts, 1, 0, 1, 0);
}

/// Sam Loyd's ten-move stalemate, scored as a win: tag and marker become
/// the draw, whatever else the game says (a variation, a comment, a glyph).
#[test]
fn a_stalemate_with_a_wrong_tag() {
    let input = "[Event \"Loyd\"]\n[Result \"1-0\"]\n\n\
                 1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 \
                 7. Qxb7 Qd3 8. Qxb8 Qh7 (8... Qd6 9. Qxc8) 9. Qxc8 Kg6 10. Qe6! {stalemate} 1-0\n";
    let f = fix(input.as_bytes());
    let expected = "[Event \"Loyd\"]\n[Result \"1/2-1/2\"]\n\n\
                 1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 \
                 7. Qxb7 Qd3 8. Qxb8 Qh7 (8... Qd6 9. Qxc8) 9. Qxc8 Kg6 10. Qe6! {stalemate} \
                 {pgnkit: Result \"1-0\" written, \"1/2-1/2\" applied: stalemate (Law 5.2.1)} 1/2-1/2\n\n";
    assert_bytes(&f.output, expected.as_bytes());
    assert_counts(&f.counts, 1, 0, 1, 0);
}

/// Without a Result tag the marker is the record: it is corrected, and no
/// tag is invented. With a right tag and a wrong marker, the marker is.
/// With no marker, the tag is, and the comment ends the moves.
#[test]
fn the_marker_follows_the_rules_and_no_tag_is_invented() {
    let f = fix(b"[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
    assert_bytes(
        &f.output,
        b"[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4# \
          {pgnkit: \"1-0\" written, \"0-1\" applied: checkmate (Law 5.1.1)} 0-1\n\n",
    );
    assert_counts(&f.counts, 1, 0, 1, 0);

    let f = fix(b"[Event \"x\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# *\n");
    assert_bytes(
        &f.output,
        b"[Event \"x\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# \
          {pgnkit: \"*\" written, \"0-1\" applied: checkmate (Law 5.1.1)} 0-1\n\n",
    );

    let f = fix(b"[Event \"x\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4#\n");
    assert_bytes(
        &f.output,
        b"[Event \"x\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# \
          {pgnkit: Result \"1-0\" written, \"0-1\" applied: checkmate (Law 5.1.1)}\n\n",
    );
}

/// Constructed marks: a mate without `#` (with a glyph after it), a `+` on
/// a move that gives no check, a check without `+` (in the main line and in
/// a variation), and a Russian mate marked as check: only the mark changes,
/// in the writer's notation.
#[test]
fn check_marks_change_and_nothing_else() {
    let f = fix(
        "[Event \"x\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4!! {the fool's mate} 0-1\n\n\
          [Event \"y\"]\n[Result \"*\"]\n\n1. e4+ e5 2. Bc4 Nc6 (2... Nf6 3. Bxf7 Kxf7) 3. Bxf7 Kxf7 *\n\n\
          [Event \"z\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Фh4+ 0-1\n"
            .as_bytes(),
    );
    assert_bytes(
        &f.output,
        "[Event \"x\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4#!! {the fool's mate} 0-1\n\n\
          [Event \"y\"]\n[Result \"*\"]\n\n1. e4 e5 2. Bc4 Nc6 (2... Nf6 3. Bxf7+ Kxf7) 3. Bxf7+ Kxf7 *\n\n\
          [Event \"z\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Фh4# 0-1\n\n"
            .as_bytes(),
    );
    assert_counts(&f.counts, 3, 0, 0, 5);
}

/// A slip repaired by --fix, after which the game mates without `#` and is
/// scored the other way: the marks and the result are judged on the
/// repaired moves, in the same run.
#[test]
fn marks_and_result_after_a_move_repair() {
    let f = fix(b"[Event \"x\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf8 0-1\n");
    // Qxf8 is no legal move: the repair gives Qxf7, which mates.
    let text = String::from_utf8_lossy(&f.output).into_owned();
    assert!(text.starts_with("[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {pgnkit: \"Qxf8\" written, \"Qxf7#\" applied"), "{text}");
    assert!(
        text.ends_with(
            "{pgnkit: Result \"0-1\" written, \"1-0\" applied: checkmate (Law 5.1.1)} 1-0\n\n"
        ),
        "{text}"
    );
    assert_counts(&f.counts, 1, 1, 1, 0);
}

/// A game with more check-mark warnings than the replay keeps for one game
/// (100): every mark is corrected all the same (a perpetual check, 120
/// checks written without `+`; the game went on after the fivefold
/// repetition, which is reported and left as it is).
#[test]
fn every_mark_of_a_game_with_more_than_a_hundred_is_corrected() {
    let head =
        "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"k7/8/8/8/8/4K3/7Q/8 w - - 0 1\"]\n[Result \"*\"]\n\n";
    let moves = |mark: &str| -> String {
        (0..60)
            .map(|i| format!("{}. Qh8{mark} Ka7 {}. Qh7{mark} Ka8", 2 * i + 1, 2 * i + 2))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let input = format!("{head}{} *\n", moves(""));
    let f = fix(input.as_bytes());
    // The first 100 are reported, the rest counted.
    assert_eq!(codes(&f.before, "check-mark"), 100);
    assert_bytes(&f.output, format!("{head}{} *\n\n", moves("+")).as_bytes());
    assert_counts(&f.counts, 1, 0, 0, 120);
}
