//! Hostile shapes of input that must neither crash nor slow `pgnkit` down:
//! long runs of null moves, very deep nesting of variations, and game
//! offsets at the edge of `u64`. Every input is generated here (nothing
//! large in git); each test checks the exit status and what was written.
//!
//! These run in debug builds too (overflow checks on, a smaller stack
//! budget per frame): nothing on the way may recurse on the input's depth.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a run gave.
struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Runs `pgnkit ARGS`.
fn pgnkit(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("pgnkit runs");
    Run {
        stdout: String::from_utf8(out.stdout).expect("output is UTF-8"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        // A crash (a signal: stack overflow, abort) has no code.
        code: out.status.code().unwrap_or(-1),
    }
}

/// Writes `text` to `name` in `dir`.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("input written");
    path
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// Null moves in a row.
const NULLS: usize = 20_000;

/// Two games: `1. e4 e5`, 20,000 null moves, `10002. Nf3`; and 20,000
/// null moves alone (placed from the start position).
fn null_games() -> String {
    let mut s = String::from("[Event \"nulls after moves\"]\n\n1. e4 e5");
    for n in 0..NULLS / 2 {
        s.push_str(&format!(" {}. -- --", n + 2));
    }
    s.push_str(&format!(" {}. Nf3 *\n\n", NULLS / 2 + 2));
    s.push_str("[Event \"nulls only\"]\n\n");
    for n in 0..NULLS / 2 {
        s.push_str(&format!("{}. -- -- ", n + 1));
    }
    s.push_str("*\n");
    s
}

#[test]
fn twenty_thousand_null_moves_convert_to_every_notation() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let input = write(dir.path(), "nulls.pgn", &null_games());
    // The last move, `Nf3`, as each notation writes it.
    for (to, nf3) in [
        ("san", "Nf3"),
        ("lan", "Ng1-f3"),
        ("uci", "g1f3"),
        ("figurine", "♘f3"),
        ("ru-scoresheet", "Кf3"),
    ] {
        let run = pgnkit(&["convert", "-q", "--to", to, arg(&input)]);
        assert_eq!(run.code, 0, "--to {to}: {}", run.stderr);
        let games: Vec<&str> = run.stdout.split("[Event ").skip(1).collect();
        assert_eq!(games.len(), 2, "--to {to}");
        for game in &games {
            let words: Vec<&str> = game.split_whitespace().collect();
            let nulls = words.iter().filter(|w| **w == "--").count();
            assert_eq!(nulls, NULLS, "--to {to}: every null move written");
            // Nothing kept verbatim in a comment: every ply was placed.
            assert!(!game.contains('{'), "--to {to}: {}", &game[..200]);
            assert!(game.trim_end().ends_with('*'), "--to {to}");
        }
        // Numbers regenerated in order: 2. -- -- … 10001. -- -- 10002. Nf3.
        let first: Vec<&str> = games[0].split_whitespace().collect();
        let tail = &first[first.len() - 6..];
        assert_eq!(
            tail,
            ["10001.", "--", "--", "10002.", nf3, "*"],
            "--to {to}"
        );
        let second: Vec<&str> = games[1].split_whitespace().collect();
        let numbers = second.iter().filter(|w| w.ends_with('.')).count();
        assert_eq!(numbers, NULLS / 2, "--to {to}: one number per White ply");
        assert_eq!(second[second.len() - 4..], ["10000.", "--", "--", "*"]);
    }
}

#[test]
fn twenty_thousand_null_moves_convert_to_json_in_every_notation() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let input = write(dir.path(), "nulls.pgn", &null_games());
    for to in ["san", "lan", "uci", "figurine", "spoken", "ru-scoresheet"] {
        let run = pgnkit(&["convert", "-q", "--format", "json", "--to", to, arg(&input)]);
        assert_eq!(run.code, 0, "--to {to}: {}", run.stderr);
        let records: Vec<serde_json::Value> = run
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON record a line"))
            .collect();
        assert_eq!(records.len(), 2, "--to {to}");
        for (record, moves_before, start) in [(&records[0], 2usize, 2u64), (&records[1], 0, 1)] {
            let moves = record["moves"].as_array().expect("moves");
            let after = usize::from(moves_before > 0);
            assert_eq!(moves.len(), moves_before + NULLS + after, "--to {to}");
            for (k, m) in moves[moves_before..moves_before + NULLS].iter().enumerate() {
                assert_eq!(m["move"], "--", "--to {to}: ply {k}");
                assert_eq!(m["uci"], "0000");
                assert_eq!(m["number"], start + (k / 2) as u64, "--to {to}: ply {k}");
                assert_eq!(m["side"], if k % 2 == 0 { "white" } else { "black" });
            }
            assert_eq!(record["errors"], 0);
        }
        let last = &records[0]["moves"][NULLS + 2];
        assert_eq!(last["uci"], "g1f3", "--to {to}");
        assert_eq!(last["number"], (NULLS / 2 + 2) as u64);
    }
}

/// Nesting depth of the deep game.
const DEPTH: usize = 100_000;

/// `1. e4 (1. d4 (1. c4 (1. Nf3 (… (1. g3) …)))) e5 … 10. d4 Nbd8 *`: each
/// variation replaces its parent's first move; the main line ends with a
/// slip (`Nbd8` for `Nbd7`) that `check --fix` repairs.
fn deep_game() -> String {
    let firsts = ["e4", "d4", "c4", "Nf3"];
    let mut s = String::from("[Event \"deep\"]\n\n");
    for k in 0..DEPTH {
        s.push_str("1. ");
        s.push_str(firsts[k % 4]);
        s.push_str(" (");
    }
    s.push_str("1. g3");
    s.push_str(&")".repeat(DEPTH));
    // The main line goes on after `1. e4`.
    s.push_str(
        " e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 \
         8. c3 O-O 9. h3 Nb8 10. d4 Nbd8 *\n",
    );
    s
}

/// Checks that `text` is one JSON value as far as strings and brackets go
/// (without building it: a parser would recurse), and gives its deepest
/// nesting.
fn json_nesting(text: &str) -> usize {
    let mut closers: Vec<u8> = Vec::new();
    let mut deepest = 0;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text.as_bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => closers.push(b'}'),
            b'[' => closers.push(b']'),
            b'}' | b']' => assert_eq!(closers.pop(), Some(b), "unbalanced JSON"),
            _ => {}
        }
        deepest = deepest.max(closers.len());
    }
    assert!(!in_string && closers.is_empty(), "unterminated JSON");
    deepest
}

#[test]
fn a_hundred_thousand_nested_variations_convert_to_json() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let input = write(dir.path(), "deep.pgn", &deep_game());
    for to in ["san", "uci"] {
        let run = pgnkit(&["convert", "-q", "--format", "json", "--to", to, arg(&input)]);
        // The slip is an error: reported, the rest of its line kept as text.
        assert_eq!(run.code, 1, "--to {to}: {}", run.stderr);
        let lines: Vec<&str> = run.stdout.lines().collect();
        assert_eq!(lines.len(), 1, "--to {to}: one record");
        let record = lines[0];
        // Each level: the move object, the variations list, the line.
        assert!(json_nesting(record) >= 3 * DEPTH, "--to {to}");
        assert_eq!(
            record.matches("\"variations\":[[").count(),
            DEPTH,
            "--to {to}"
        );
        assert_eq!(
            record.matches("\"number\":1,\"side\":\"white\"").count(),
            DEPTH + 1,
            "--to {to}: every first move, the main line's and each variation's"
        );
        let (e4, d4, g3) = match to {
            "san" => ("e4", "d4", "g3"),
            _ => ("e2e4", "d2d4", "g2g3"),
        };
        assert!(
            record.contains(&format!(
                "\"moves\":[{{\"number\":1,\"side\":\"white\",\"move\":\"{e4}\",\"uci\":\"e2e4\",\
                 \"variations\":[[{{\"number\":1,\"side\":\"white\",\"move\":\"{d4}\",\"uci\":\"d2d4\",\
                 \"variations\":[["
            )),
            "--to {to}: {}",
            &record[..300]
        );
        // The innermost line, then every level closed, then the main line.
        let innermost = format!(
            "[{{\"number\":1,\"side\":\"white\",\"move\":\"{g3}\",\"uci\":\"g2g3\"}}]{}",
            "]}]".repeat(DEPTH - 1)
        );
        assert!(record.contains(&innermost), "--to {to}");
        assert!(record.contains("{\"unconverted\":\"Nbd8\"}"), "--to {to}");
        assert!(record.ends_with("\"errors\":1}"), "--to {to}");
    }
}

#[test]
fn a_hundred_thousand_nested_variations_convert_to_pgn_and_back() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let input = write(dir.path(), "deep.pgn", &deep_game());
    let run = pgnkit(&["convert", "-q", arg(&input)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let pgn = &run.stdout;
    assert_eq!(pgn.matches('(').count(), DEPTH);
    assert_eq!(pgn.matches(')').count(), DEPTH);
    let words: Vec<&str> = pgn.split_whitespace().collect();
    assert_eq!(
        words.iter().filter(|w| **w == "1.").count(),
        DEPTH + 1,
        "every first move numbered"
    );
    let flat = words.join(" ");
    assert!(flat.contains("1. Nf3 ( 1. g3 ) ) )"), "the innermost line");
    assert!(flat.contains("10. d4 {Nbd8} *"), "the slip kept verbatim");
    // The export converts to itself (the kept slip aside, still an error).
    let again = write(dir.path(), "again.pgn", pgn);
    let run = pgnkit(&["convert", "-q", arg(&again)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(&run.stdout, pgn);
    // Every notation, through the deep nesting.
    for to in ["lan", "uci", "figurine", "ru-scoresheet"] {
        let run = pgnkit(&["convert", "-q", "--to", to, arg(&input)]);
        assert_eq!(run.code, 1, "--to {to}: {}", run.stderr);
        assert_eq!(run.stdout.matches('(').count(), DEPTH, "--to {to}");
        let flat = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("( 1. g2g3 )") || to != "uci", "--to {to}");
    }
}

#[test]
fn a_hundred_thousand_nested_variations_check_and_fix() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let text = deep_game();
    let input = write(dir.path(), "deep.pgn", &text);
    let fixed = dir.path().join("fixed.pgn");
    let run = pgnkit(&[
        "check",
        "--format",
        "json",
        "--fix",
        "-o",
        arg(&fixed),
        arg(&input),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let records: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON record a line"))
        .collect();
    assert_eq!(records.len(), 2, "one diagnostic and the summary");
    assert_eq!(records[0]["code"], "illegal-move");
    assert_eq!(records[0]["token"], "Nbd8");
    assert_eq!(records[0]["line"], 3);
    assert_eq!(records[1]["errors"], 1);
    let out = std::fs::read_to_string(&fixed).expect("fixed file written");
    let edit = "Nbd7 {pgnkit: \"Nbd8\" written, \"Nbd7\" applied";
    assert!(out.contains(edit), "{}", &out[out.len() - 300..]);
    // Everything else byte for byte: the nesting is intact.
    let at = out.find(edit).expect("edit");
    let end = at + out[at..].find('}').expect("comment end") + 1;
    let restored = format!("{}Nbd8{}", &out[..at], &out[end..]);
    assert_eq!(restored.trim_end(), text.trim_end());
    // And the fixed file checks clean, as deep as it is.
    let run = pgnkit(&["check", "--format", "json", arg(&fixed)]);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn a_game_offset_at_u64_max_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let input = write(
        dir.path(),
        "two.pgn",
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 Kd7 2. Kxx *\n",
    );
    let max = u64::MAX.to_string();
    for args in [
        vec!["check", "--format", "json", "--game-offset", &max],
        vec!["convert", "-q", "--format", "json", "--game-offset", &max],
        vec![
            "check",
            "--format",
            "json",
            "--game-offset",
            "9007199254740992",
        ],
        vec!["check", "--format", "json", "--game-offset=-1"],
    ] {
        let mut args = args.clone();
        args.push(arg(&input));
        let run = pgnkit(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
        assert!(run.stderr.contains("--game-offset"), "{}", run.stderr);
    }
}

#[test]
fn the_largest_game_offset_numbers_games_exactly() {
    let dir = tempfile::tempdir().expect("temporary directory");
    // 200 games, each with an error (so that every shard that has games
    // exits with 1).
    const GAMES: u64 = 200;
    let text: String = (0..GAMES)
        .map(|k| format!("[Event \"{k}\"]\n\n1. d4 Kd7 *\n\n"))
        .collect();
    let input = write(dir.path(), "many.pgn", &text);
    let offset = (1u64 << 53) - 1;
    let offset_arg = offset.to_string();
    // With shards too: shard 2 of 2 ends with the file's last game.
    for shard in [None, Some("2/2")] {
        let mut args = vec![
            "check",
            "--format",
            "json",
            "--games",
            "--game-offset",
            &offset_arg,
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        args.push(arg(&input));
        let run = pgnkit(&args);
        assert_eq!(run.code, 1, "{}", run.stderr);
        let games: Vec<u64> = run
            .stdout
            .lines()
            .filter(|l| l.contains("\"type\":\"game\""))
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
                v["game"].as_u64().expect("game number")
            })
            .collect();
        let first = match shard {
            None => offset + 1,
            Some(_) => games.first().copied().unwrap_or(0),
        };
        assert!(first > offset, "{shard:?}");
        let want: Vec<u64> = (first..=offset + GAMES).collect();
        assert!(shard.is_none() || want.len() < GAMES as usize);
        assert_eq!(games, want, "{shard:?}");
    }
    let run = pgnkit(&[
        "convert",
        "-q",
        "--format",
        "json",
        "--game-offset",
        &offset_arg,
        arg(&input),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout
            .contains(&format!("\"game\":{},", offset + GAMES)),
        "{}",
        run.stdout
    );
}

/// `1. e4 (1. d4 (… ` nested `levels` deep, all closed, then `1... e5 *`.
fn nested_game(levels: usize) -> String {
    let mut s = String::from("[Event \"deeper\"]\n\n1. e4 ");
    s.push_str(&"(1. d4 ".repeat(levels));
    s.push_str(&")".repeat(levels));
    s.push_str(" e5 *\n");
    s
}

#[test]
fn variations_deeper_than_the_limit_are_reported_once_and_kept_as_text() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let levels = DEPTH + 2;
    let input = write(dir.path(), "deeper.pgn", &nested_game(levels));

    let run = pgnkit(&["check", "--format", "json", arg(&input)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let syntax: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("\"code\":\"syntax\""))
        .collect();
    assert_eq!(syntax.len(), 1, "{syntax:?}");
    assert!(syntax[0].contains("variations nested more than 100000 deep are not replayed"));
    assert!(run.stdout.contains("\"games\":1,"));

    // PGN: the replayed levels as variations, the deeper ones kept in a comment.
    let run = pgnkit(&["convert", "-q", arg(&input)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let pgn = &run.stdout;
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(flat.matches("( 1. d4").count(), DEPTH);
    assert!(
        pgn.contains("{(1. d4 (1. d4 ))}"),
        "the two deepest levels, as written: {}",
        &pgn[pgn.len().saturating_sub(300)..]
    );
    assert!(pgn.trim_end().ends_with("e5 *"));

    // JSON: the same text in a text node of the deepest replayed line.
    let run = pgnkit(&["convert", "-q", "--format", "json", arg(&input)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains("\"(1. d4 (1. d4 ))\""),
        "{}",
        run.stderr
    );
    assert!(json_nesting(&run.stdout) >= 3 * DEPTH);
}
