//! `pgnkit diff` on two players' records of the same games.

use assert_cmd::Command;
use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("{}/testdata/repair/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// What `pgnkit ARGS` prints on standard output, its exit status being `code`.
fn stdout(args: &[&str], code: i32) -> String {
    let out = Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    String::from_utf8_lossy(&out).into_owned()
}

fn records(args: &[&str], code: i32) -> Vec<Value> {
    stdout(args, code)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json line"))
        .collect()
}

#[test]
fn differences_say_which_version_is_legal() {
    let (w, b) = (fixture("white.pgn"), fixture("black.pgn"));
    let recs = records(&["diff", "--format", "json", &w, &b], 1);
    let diffs: Vec<&Value> = recs.iter().filter(|r| r["type"] == "difference").collect();
    let short: Vec<(u64, u64, Value, Value, Value, Value)> = diffs
        .iter()
        .map(|d| {
            (
                d["game_a"].as_u64().unwrap_or(0),
                d["ply"].as_u64().unwrap_or(0),
                d["a"].clone(),
                d["b"].clone(),
                d["b_legal"].clone(),
                d["merged"].clone(),
            )
        })
        .collect();
    assert_eq!(
        short,
        vec![
            (1, 42, "d4".into(), "d3".into(), false.into(), "d4".into()),
            (1, 55, "Kd3".into(), "Kd2".into(), true.into(), Value::Null),
            (
                2,
                25,
                "Ne4".into(),
                "Ne3".into(),
                false.into(),
                "Ne4".into()
            ),
            (2, 38, "Bh3".into(), Value::Null, Value::Null, "Bh3".into()),
        ]
    );
    // Games were paired by Round/White/Black, not by order.
    assert_eq!(diffs[0]["game_b"], 2);
    let summary = recs.last().expect("summary");
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["differences"], 4);
}

#[test]
fn merged_game_takes_the_legal_version_and_stops_where_both_are_legal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let merged = dir.path().join("merged.pgn");
    let merged_s = merged.to_string_lossy().into_owned();
    let (w, b) = (fixture("white.pgn"), fixture("black.pgn"));
    let recs = records(&["diff", "--format", "json", "-o", &merged_s, &w, &b], 1);
    let games: Vec<&Value> = recs.iter().filter(|r| r["type"] == "game").collect();
    assert_eq!(games[0]["merged_complete"], false);
    assert_eq!(games[1]["merged_complete"], true);
    let text = std::fs::read_to_string(&merged).expect("merged file");
    assert!(
        text.contains("A has \"Kd3\", B has \"Kd2\"; both are legal"),
        "{text}"
    );
    assert!(text.contains("19. Nf7 Bh3 20. g3"), "{text}");
    // The complete merged game replays cleanly.
    let second = text.split("\n\n[").nth(1).expect("second game");
    let path = dir.path().join("second.pgn");
    std::fs::write(&path, format!("[{second}")).expect("write");
    Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["check", "-q", "--format", "json", &path.to_string_lossy()])
        .assert()
        .code(0);
}

#[test]
fn identical_records_agree() {
    let w = fixture("white.pgn");
    let recs = records(&["diff", "--format", "json", &w, &w], 0);
    assert!(recs.iter().all(|r| r["type"] != "difference"));
    // Each game record carries the merged line (no -o needed): game 1 of
    // the fixture is the Havana game of 29 moves, ending 29...Rf4+.
    let games: Vec<&Value> = recs.iter().filter(|r| r["type"] == "game").collect();
    assert_eq!(games.len(), 2);
    let merged = games[0]["merged"].as_str().unwrap_or("");
    assert!(
        merged.starts_with("1. e4 e5 2. Nf3 Nc6 3. d4 exd4"),
        "{merged}"
    );
    assert!(merged.ends_with("29. Kxe4 Rf4+"), "{merged}");
    assert_eq!(games[0]["merged_complete"], true);
}

/// The line (1-based) and column of `word` at byte `byte` of `file`, found
/// in the text itself.
fn place_of(file: &str, byte: usize) -> (usize, usize) {
    let text = std::fs::read(file).expect("fixture");
    let before = &text[..byte];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, byte - start + 1)
}

#[test]
fn lines_and_columns_are_those_of_the_word_in_each_file() {
    let (w, b) = (fixture("white.pgn"), fixture("black.pgn"));
    let recs = records(&["diff", "--format", "json", &w, &b], 1);
    let mut seen = 0;
    for d in recs.iter().filter(|r| r["type"] == "difference") {
        for (side, file) in [("a", &w), ("b", &b)] {
            let Some(byte) = d[format!("byte_{side}")].as_u64() else {
                continue;
            };
            let (line, column) = place_of(file, usize::try_from(byte).expect("byte"));
            assert_eq!(d[format!("line_{side}")], line, "{d}");
            assert_eq!(d[format!("column_{side}")], column, "{d}");
            seen += 1;
        }
    }
    assert!(seen >= 6, "{seen}");
}

#[test]
fn compressed_files_and_standard_input_are_read_like_files() {
    let (w, b) = (fixture("white.pgn"), fixture("black.pgn"));
    let dir = tempfile::tempdir().expect("tempdir");
    let gz = dir.path().join("white.pgn.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, &std::fs::read(&w).expect("fixture")).expect("gzip");
    std::fs::write(&gz, enc.finish().expect("gzip")).expect("write");
    let gz = gz.to_string_lossy().into_owned();
    let plain = records(&["diff", "--format", "json", &w, &b], 1);
    let zipped = records(&["diff", "--format", "json", &gz, &b], 1);
    let without_names = |recs: Vec<Value>| -> Vec<Value> {
        recs.into_iter()
            .map(|mut r| {
                if let Some(o) = r.as_object_mut() {
                    o.remove("file_a");
                    o.remove("file_b");
                }
                r
            })
            .collect()
    };
    assert_eq!(without_names(zipped), without_names(plain.clone()));
    let out = Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["diff", "--format", "json", &w, "-"])
        .write_stdin(std::fs::read(&b).expect("fixture"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let piped: Vec<Value> = String::from_utf8_lossy(&out)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json line"))
        .collect();
    assert_eq!(without_names(piped), without_names(plain));
}

#[test]
fn github_format_annotates_each_difference_at_its_place() {
    let (w, b) = (fixture("white.pgn"), fixture("black.pgn"));
    let text = stdout(&["diff", "--format", "github", &w, &b], 1);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines.iter().all(|l| l.starts_with("::warning file=")),
        "{text}"
    );
    // The first: black's d3 where white wrote d4, at its place in black.pgn.
    let json = records(&["diff", "--format", "json", &w, &b], 1);
    let first = &json[0];
    assert!(
        lines[0].contains(&format!(
            "line={},col={}::game 1: ply 42",
            first["line_b"], first["column_b"]
        )),
        "{}",
        lines[0]
    );
}

/// The first `n` games of a real tournament file (TWIC 944), each as its
/// own PGN text.
fn real_games(n: usize) -> Vec<String> {
    let path = format!(
        "{}/testdata/convert/twic944-games700-999.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = String::from_utf8_lossy(&std::fs::read(path).expect("fixture")).into_owned();
    let mut games: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("[Event ") {
            games.push(String::new());
        }
        if let Some(g) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    games.truncate(n);
    games
}

/// `pgnkit convert` of `pgn` with `args`.
fn converted(pgn: &str, args: &[&str]) -> String {
    let out = Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["convert", "-q"])
        .args(args)
        .arg("-")
        .write_stdin(pgn.to_owned())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn games_in_another_order_and_language_are_paired_by_their_tags() {
    let games = real_games(20);
    assert_eq!(games.len(), 20);
    // B: the same games, every third first then the rest backwards, in
    // Russian long algebraic with `:` captures and `0-0`.
    let order: Vec<usize> = (0..20)
        .filter(|i| i % 3 == 0)
        .chain((0..20).rev().filter(|i| i % 3 != 0))
        .collect();
    let shuffled: String = order.iter().map(|&i| games[i].clone() + "\n").collect();
    let b = converted(&shuffled, &["--to", "lan", "--lang", "ru"]);
    let b = b.replace('x', ":").replace("O-O", "0-0");
    let a: String = games.iter().map(|g| g.clone() + "\n").collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let (pa, pb) = (dir.path().join("en.pgn"), dir.path().join("ru.pgn"));
    std::fs::write(&pa, &a).expect("write");
    std::fs::write(&pb, &b).expect("write");
    let (pa, pb) = (pa.to_string_lossy(), pb.to_string_lossy());

    let recs = records(&["diff", "--format", "json", &pa, &pb], 0);
    let pairs: Vec<(u64, u64)> = recs
        .iter()
        .filter(|r| r["type"] == "game")
        .map(|r| {
            assert_eq!(r["differences"], 0, "{r}");
            assert_eq!(r["paired_by"], "tags", "{r}");
            (
                r["game_a"].as_u64().unwrap_or(0),
                r["game_b"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let expected: Vec<(u64, u64)> = (0..20)
        .map(|i| {
            let at = order.iter().position(|&o| o == i).unwrap_or(usize::MAX);
            (i as u64 + 1, at as u64 + 1)
        })
        .collect();
    assert_eq!(pairs, expected);

    // The merged games are written as the first file writes its moves.
    let recs = records(&["diff", "--format", "json", &pb, &pa], 0);
    let merged: Vec<&str> = recs
        .iter()
        .filter(|r| r["type"] == "game")
        .filter_map(|r| r["merged"].as_str())
        .collect();
    assert_eq!(merged.len(), 20);
    let moves: Vec<&str> = merged
        .iter()
        .flat_map(|m| m.split_whitespace())
        .filter(|w| !w.ends_with('.'))
        .collect();
    assert!(moves.iter().any(|w| w.starts_with(['К', 'С', 'Л', 'Ф'])));
    for w in moves {
        assert!(w.starts_with("0-0") || w.contains(['-', ':']), "{w}");
        assert!(!w.contains('x') && !w.contains("O-O"), "{w}");
    }
}

#[test]
fn games_without_tags_are_paired_by_order_with_a_warning_when_players_differ() {
    let games = real_games(3);
    let movetext = |g: &str| -> String {
        g.lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // A: tagged. B: the first game under another name (two games), the
    // second without tags, the third with its players only, Black's name
    // typed differently.
    let a: String = games.iter().map(|g| g.clone() + "\n").collect();
    let renamed = games[0].replacen("[White \"", "[White \"X", 1);
    let b = format!(
        "{renamed}\n{}\n\n[White \"Someone\"]\n[Black \"Else\"]\n{}\n",
        movetext(&games[1]),
        movetext(&games[2])
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let (pa, pb) = (dir.path().join("a.pgn"), dir.path().join("b.pgn"));
    std::fs::write(&pa, &a).expect("write");
    std::fs::write(&pb, &b).expect("write");
    let (pa, pb) = (pa.to_string_lossy(), pb.to_string_lossy());
    let recs = records(&["diff", "--format", "json", &pa, &pb], 1);
    let unpaired: Vec<u64> = recs
        .iter()
        .filter(|r| r["type"] == "unpaired")
        .filter_map(|r| r["game"].as_u64())
        .collect();
    assert_eq!(unpaired, [1, 1], "{recs:?}");
    let games: Vec<String> = recs
        .iter()
        .filter(|r| r["type"] == "game")
        .map(|g| {
            format!(
                "{} {} {} {} {}",
                g["game_a"], g["game_b"], g["paired_by"], g["players_differ"], g["differences"]
            )
        })
        .collect();
    assert_eq!(games, ["2 2 \"order\" false 0", "3 3 \"order\" true 0"]);
    let human = stdout(&["diff", "--format", "human", &pa, &pb], 1);
    assert_eq!(human.matches("warning: ").count(), 1, "{human}");
    assert!(
        human.contains("paired by their order, but their players differ"),
        "{human}"
    );
}
