//! `pgnkit dedup` on the real games of `testdata/index/london1851.pgn`
//! (London 1851): copies in German LAN and in UCI (gzip-compressed) are
//! the same games; a changed result, a truncated copy and `--against`.

mod support;

use std::io::Write;
use std::path::Path;

use serde_json::Value;
use support::{records, run};

fn london() -> String {
    format!(
        "{}/testdata/index/london1851.pgn",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `pgnkit convert -q ARGS london1851.pgn -o DIR/NAME`.
fn converted(dir: &Path, name: &str, args: &[&str]) -> String {
    let out = dir.join(name).to_string_lossy().into_owned();
    let london = london();
    let mut all = vec!["convert", "-q"];
    all.extend_from_slice(args);
    all.extend_from_slice(&[london.as_str(), "-o", out.as_str()]);
    let (code, _, stderr) = run(&all);
    assert_eq!(code, 0, "{stderr}");
    out
}

fn gzip(path: &str) -> String {
    let bytes = std::fs::read(path).expect("read");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&bytes).expect("gzip");
    let gz = format!("{path}.gz");
    std::fs::write(&gz, enc.finish().expect("gzip")).expect("write");
    gz
}

fn summary(stdout: &str) -> Value {
    records(stdout)
        .into_iter()
        .find(|r| r["type"] == "summary")
        .expect("a summary")
}

/// The games of a PGN text (every game of these files has an Event tag),
/// without the line breaks after them.
fn games(text: &str) -> Vec<String> {
    text.split("[Event ")
        .skip(1)
        .map(|g| format!("[Event {}", g.trim_end()))
        .collect()
}

#[test]
fn three_files_one_compressed_in_other_notations_are_one_cluster_per_game() {
    let dir = tempfile::tempdir().expect("dir");
    let de = converted(dir.path(), "de.pgn", &["--to", "lan", "--lang", "de"]);
    let uci = gzip(&converted(dir.path(), "uci.pgn", &["--to", "uci"]));
    let unique = dir.path().join("unique.pgn").to_string_lossy().into_owned();
    let dups = dir.path().join("dups.pgn").to_string_lossy().into_owned();
    let london = london();
    let (code, stdout, stderr) = run(&[
        "dedup",
        "--format",
        "json",
        &london,
        &de,
        &uci,
        "-o",
        &unique,
        "--duplicates",
        &dups,
    ]);
    assert_eq!(code, 1, "{stderr}");
    let original = std::fs::read_to_string(&london).expect("read");
    let n = games(&original).len() as u64;
    let s = summary(&stdout);
    assert_eq!(s["games"], 3 * n);
    assert_eq!(s["duplicates"], 2 * n);
    assert_eq!(s["exact"], 2 * n);
    assert_eq!(s["clusters"], n);
    for c in records(&stdout).iter().filter(|r| r["type"] == "cluster") {
        let files: Vec<&str> = (c["games"].as_array().expect("games").iter())
            .map(|g| g["file"].as_str().expect("file"))
            .collect();
        assert_eq!(files, [london.as_str(), de.as_str(), uci.as_str()]);
    }
    // The kept games are the games of the first file, byte for byte.
    let kept = std::fs::read_to_string(&unique).expect("unique");
    assert_eq!(games(&kept), games(&original));
    let dups = std::fs::read_to_string(&dups).expect("dups");
    assert_eq!(games(&dups).len() as u64, 2 * n);
}

#[test]
fn a_changed_result_contradicts_and_a_truncated_copy_is_a_prefix() {
    let dir = tempfile::tempdir().expect("dir");
    let original = std::fs::read_to_string(london()).expect("read");
    let all = games(&original);
    let first = &all[0];
    assert!(first.contains("[Result \"1-0\"]"), "{first}");
    let contradicting = first.replace("[Result \"1-0\"]", "[Result \"0-1\"]");
    let cut = first.find(" 10.").expect("ten moves");
    let truncated = format!("{} *", &first[..cut]);
    let copy = dir.path().join("copy.pgn");
    std::fs::write(&copy, format!("{contradicting}\n\n{truncated}\n")).expect("write");
    let copy = copy.to_string_lossy().into_owned();
    let london = london();

    let (code, stdout, _) = run(&["dedup", "--format", "json", &london, &copy]);
    assert_eq!(
        code, 0,
        "the changed result is no exact duplicate: {stdout}"
    );
    let near = |files: &[&str]| {
        let mut all = vec![
            "dedup",
            "--format",
            "json",
            "--contradicting-tags",
            "--prefix",
        ];
        all.extend_from_slice(files);
        run(&all)
    };
    // London 1851 itself has near duplicates: the copy adds one of each.
    let (_, alone, _) = near(&[&london]);
    let (code, stdout, _) = near(&[&london, &copy]);
    assert_eq!(code, 1);
    let (before, after) = (summary(&alone), summary(&stdout));
    for kind in ["contradicting_tags", "prefix"] {
        assert_eq!(
            after[kind].as_u64(),
            before[kind].as_u64().map(|n| n + 1),
            "{kind}"
        );
    }
    let cluster = records(&stdout)
        .into_iter()
        .find(|r| r["type"] == "cluster" && r["games"][0]["game"] == 1)
        .expect("a cluster");
    let g = cluster["games"].as_array().expect("games");
    assert_eq!(g.len(), 3, "{cluster}");
    assert_eq!(g[0]["file"].as_str(), Some(london.as_str()));
    assert_eq!(g[1]["kind"], "contradicting-tags");
    assert_eq!(g[1]["differing_tags"], serde_json::json!(["Result"]));
    assert_eq!(g[2]["kind"], "prefix");
    assert_eq!(g[2]["plies"], 18);
}

#[test]
fn against_a_known_database_finds_every_game_already_in_it() {
    let dir = tempfile::tempdir().expect("dir");
    let de = converted(dir.path(), "de.pgn", &["--to", "lan", "--lang", "de"]);
    let unique = dir.path().join("unique.pgn").to_string_lossy().into_owned();
    let london = dir
        .path()
        .join("london1851.pgn")
        .to_string_lossy()
        .into_owned();
    std::fs::copy(self::london(), &london).expect("copy");
    // The known database is indexed: dedup reads its PGN all the same.
    let (code, _, stderr) = run(&["index", "-q", &london]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = run(&[
        "dedup",
        "--format",
        "json",
        "--against",
        &london,
        &de,
        "-o",
        &unique,
    ]);
    assert_eq!(code, 1, "{stderr}");
    let n = games(&std::fs::read_to_string(&london).expect("read")).len() as u64;
    let s = summary(&stdout);
    assert_eq!(
        (s["games"].as_u64(), s["duplicates"].as_u64()),
        (Some(n), Some(n))
    );
    for c in records(&stdout).iter().filter(|r| r["type"] == "cluster") {
        assert_eq!(c["games"][0]["known"], true);
        assert_eq!(c["games"][0]["kind"], "kept");
    }
    assert_eq!(std::fs::read_to_string(&unique).expect("unique"), "");
}

/// The number of sorted runs a run spilled, from its summary on stderr.
fn runs_spilled(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| l.split_once(" sorted runs spilled"))
        .and_then(|(n, _)| n.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_tiny_memory_spills_dozens_of_runs_and_finds_what_memory_finds() {
    let dir = tempfile::tempdir().expect("dir");
    let de = converted(dir.path(), "de.pgn", &["--to", "lan", "--lang", "de"]);
    let original = std::fs::read_to_string(london()).expect("read");
    let all = games(&original);
    // A re-tagged copy of every third game, and one with its result changed.
    let retagged: Vec<String> = (all.iter().step_by(3))
        .map(|g| g.replace("[Event ", "[Annotator \"copy\"]\n[Event "))
        .collect();
    let contradicting = all[0].replace("[Result \"1-0\"]", "[Result \"0-1\"]");
    let copy = dir.path().join("copy.pgn");
    std::fs::write(
        &copy,
        format!("{}\n\n{contradicting}\n", retagged.join("\n\n")),
    )
    .expect("write");
    let copy = copy.to_string_lossy().into_owned();
    let london = london();
    let dedup = |memory: &str, name: &str, kinds: &[&str]| {
        let unique = dir.path().join(format!("{name}.pgn"));
        let dups = dir.path().join(format!("{name}.dups.pgn"));
        let (unique_s, dups_s) = (unique.to_string_lossy(), dups.to_string_lossy());
        let mut args = vec!["dedup", "--format", "json", "--memory", memory];
        args.extend_from_slice(kinds);
        args.extend_from_slice(&[
            &london,
            &de,
            &copy,
            "-o",
            &unique_s,
            "--duplicates",
            &dups_s,
        ]);
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 1, "{stderr}");
        let bytes = (
            std::fs::read(&unique).expect("unique"),
            std::fs::read(&dups).expect("dups"),
        );
        (stdout, bytes, runs_spilled(&stderr))
    };
    for kinds in [&[][..], &["--contradicting-tags", "--fuzzy-depth", "8"][..]] {
        let (stdout, bytes, runs) = dedup("256M", "memory", kinds);
        assert_eq!(runs, 0, "{kinds:?}");
        let (spilled_stdout, spilled_bytes, runs) = dedup("2K", "spilled", kinds);
        assert!(runs >= 24, "{runs} runs spilled, {kinds:?}");
        assert_eq!(spilled_stdout, stdout, "{kinds:?}");
        assert_eq!(spilled_bytes, bytes, "{kinds:?}");
        let s = summary(&stdout);
        assert!(s["duplicates"].as_u64() > Some(all.len() as u64), "{s}");
    }
}

#[test]
fn against_an_index_flags_exactly_the_games_of_the_input_in_the_database() {
    let dir = tempfile::tempdir().expect("dir");
    let london = dir.path().join("london1851.pgn");
    std::fs::copy(self::london(), &london).expect("copy");
    let london = london.to_string_lossy().into_owned();
    let (code, _, stderr) = run(&["index", "-q", &london]);
    assert_eq!(code, 0, "{stderr}");
    let db = format!("{london}.pgnkit-index");
    // Every fifth game of London 1851 in German LAN, each after a game of
    // TWIC 232 (not in the database).
    let de = converted(dir.path(), "de.pgn", &["--to", "lan", "--lang", "de"]);
    let de = games(&std::fs::read_to_string(&de).expect("de"));
    let other = format!("{}/testdata/index/twic-232.pgn", env!("CARGO_MANIFEST_DIR"));
    let other = games(&String::from_utf8_lossy(
        &std::fs::read(other).expect("twic"),
    ));
    let mut text = String::new();
    let mut expected = Vec::new();
    for (n, (copy, game)) in de.iter().step_by(5).zip(&other).take(20).enumerate() {
        text.push_str(&format!("{game}\n\n{copy}\n\n"));
        expected.push(2 * n as u64 + 2);
    }
    let new = dir.path().join("new.pgn");
    std::fs::write(&new, text).expect("write");
    let new = new.to_string_lossy().into_owned();
    let dedup = |known: &str| {
        let (code, stdout, stderr) = run(&["dedup", "--format", "json", "--against", known, &new]);
        assert_eq!(code, 1, "{stderr}");
        stdout
    };
    let stdout = dedup(&db);
    let mut flagged = Vec::new();
    for c in records(&stdout).iter().filter(|r| r["type"] == "cluster") {
        let g = c["games"].as_array().expect("games");
        assert_eq!(
            (g[0]["known"].as_bool(), g[0]["file"].as_str()),
            (Some(true), Some(db.as_str()))
        );
        for m in g.iter().filter(|m| m["file"] == new.as_str()) {
            assert_eq!(m["kind"], "exact", "{c}");
            flagged.push(m["game"].as_u64().expect("game"));
        }
    }
    flagged.sort_unstable();
    assert_eq!(flagged, expected);
    assert_eq!(summary(&stdout)["duplicates"], expected.len() as u64);
    // The index answers what its PGN file answers (a copy without index).
    let plain = dir.path().join("plain.pgn").to_string_lossy().into_owned();
    std::fs::copy(&london, &plain).expect("copy");
    assert_eq!(dedup(&plain).replace(&plain, &db), stdout);
}

#[test]
fn standard_input_compressed_is_spooled_and_written_as_a_file_is() {
    let dir = tempfile::tempdir().expect("dir");
    let uci = gzip(&converted(dir.path(), "uci.pgn", &["--to", "uci"]));
    let london = london();
    let out = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let (from_file, dups_file) = (out("file.pgn"), out("file.dups.pgn"));
    let (code, stdout, stderr) = run(&[
        "dedup",
        "-q",
        "--format",
        "json",
        &uci,
        &london,
        "-o",
        &from_file,
        "--duplicates",
        &dups_file,
    ]);
    assert_eq!(code, 1, "{stderr}");
    let (from_stdin, dups_stdin) = (out("stdin.pgn"), out("stdin.dups.pgn"));
    let piped = assert_cmd::Command::cargo_bin("pgnkit")
        .expect("binary")
        .args([
            "dedup",
            "-q",
            "--format",
            "json",
            "-",
            &london,
            "-o",
            &from_stdin,
        ])
        .args(["--duplicates", &dups_stdin])
        .write_stdin(std::fs::read(&uci).expect("read"))
        .output()
        .expect("run");
    assert_eq!(piped.status.code(), Some(1));
    let piped = String::from_utf8_lossy(&piped.stdout).replace("\"-\"", &format!("{uci:?}"));
    assert_eq!(piped, stdout);
    let read = |p: &str| std::fs::read(p).expect("read");
    // The UCI copies are read first: kept, and written byte for byte.
    assert_eq!(read(&from_stdin), read(&from_file));
    assert_eq!(read(&dups_stdin), read(&dups_file));
    assert!(String::from_utf8_lossy(&read(&from_stdin)).contains("e2e4"));
    // Only the written files are left: the spooled input is gone.
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "file.dups.pgn",
            "file.pgn",
            "stdin.dups.pgn",
            "stdin.pgn",
            "uci.pgn",
            "uci.pgn.gz"
        ]
    );
}

/// `game` cut before move `m` (its tags kept, `*` as the result), or
/// `None` when it has no move `m`.
fn cut_before_move(game: &str, m: usize) -> Option<String> {
    let body = game.find("\n\n")? + 2;
    let number = format!("{m}.");
    let at = (game[body..].match_indices(&number))
        .map(|(i, _)| body + i)
        .find(|&i| game[..i].ends_with(char::is_whitespace))?;
    Some(format!("{} *", game[..at].trim_end()))
}

#[test]
fn prefixes_past_the_memory_budget_spill_and_find_what_memory_finds() {
    let dir = tempfile::tempdir().expect("dir");
    let original = std::fs::read_to_string(london()).expect("read");
    let all = games(&original);
    // Every third game cut to half its moves, every sixth also to a
    // quarter: chains of truncated transcriptions, after their games.
    let mut copies = Vec::new();
    for g in all.iter().step_by(3) {
        let g = g.replace("\r\n", "\n");
        let moves = g.matches('.').count() / 2;
        for fraction in [2, 4] {
            if fraction == 4 && copies.len() % 2 == 1 {
                continue;
            }
            if let Some(cut) = cut_before_move(&g, (moves / fraction).max(2)) {
                copies.push(cut);
            }
        }
    }
    assert!(copies.len() > 30, "{}", copies.len());
    let copy = dir.path().join("truncated.pgn");
    std::fs::write(&copy, copies.join("\n\n") + "\n").expect("write");
    let copy = copy.to_string_lossy().into_owned();
    let de = converted(dir.path(), "de.pgn", &["--to", "lan", "--lang", "de"]);
    let london = london();
    let dedup = |memory: &str, name: &str, kinds: &[&str]| {
        let unique = dir.path().join(format!("{name}.pgn"));
        let dups = dir.path().join(format!("{name}.dups.pgn"));
        let (unique_s, dups_s) = (unique.to_string_lossy(), dups.to_string_lossy());
        let mut args = vec!["dedup", "--format", "json", "--prefix", "--memory", memory];
        args.extend_from_slice(kinds);
        args.extend_from_slice(&[
            &copy,
            &london,
            &de,
            "-o",
            &unique_s,
            "--duplicates",
            &dups_s,
        ]);
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 1, "{stderr}");
        let bytes = (
            std::fs::read(&unique).expect("unique"),
            std::fs::read(&dups).expect("dups"),
        );
        (stdout, bytes, runs_spilled(&stderr))
    };
    for kinds in [
        &[][..],
        &["--contradicting-tags"][..],
        &["--fuzzy-depth", "12"][..],
    ] {
        let (stdout, bytes, runs) = dedup("256M", "memory", kinds);
        assert_eq!(runs, 0, "{kinds:?}");
        let (spilled_stdout, spilled_bytes, runs) = dedup("2K", "spilled", kinds);
        assert!(runs >= 24, "{runs} runs spilled, {kinds:?}");
        assert_eq!(spilled_stdout, stdout, "{kinds:?}");
        assert_eq!(spilled_bytes, bytes, "{kinds:?}");
        // A copy that reaches the fuzzy depth is in its game's fuzzy
        // cluster already (and kept there, as the first read).
        if kinds.contains(&"--fuzzy-depth") {
            assert!(summary(&stdout)["prefix"].as_u64() > Some(0));
            continue;
        }
        // Each truncated copy (read first) went into the cluster of a longer
        // game of London 1851 as a prefix; none of them is written to -o.
        let s = summary(&stdout);
        assert!(s["prefix"].as_u64() >= Some(copies.len() as u64), "{s}");
        let mut prefixes = Vec::new();
        for c in records(&stdout).iter().filter(|r| r["type"] == "cluster") {
            let g = c["games"].as_array().expect("games");
            for m in g.iter().filter(|m| m["file"] == copy.as_str()) {
                assert_eq!(m["kind"], "prefix", "{kinds:?} {c}");
                assert!(m["plies"].as_u64() < g[0]["plies"].as_u64(), "{c}");
                prefixes.push(m["game"].as_u64().expect("game"));
            }
        }
        prefixes.sort_unstable();
        let want: Vec<u64> = (1..=copies.len() as u64).collect();
        assert_eq!(prefixes, want, "{kinds:?}");
        let kept = String::from_utf8_lossy(&bytes.0).into_owned();
        assert!(
            copies.iter().all(|c| !kept.contains(c.as_str())),
            "{kinds:?}"
        );
    }
}
