//! `pgnkit index` and `pgnkit search` on real games (testdata/index, see its
//! README): the index gives the same answers as a scan for every filter,
//! and a stale, truncated or corrupted index is refused.

#![allow(clippy::unwrap_used)] // test helpers: a failure is a test failure

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};
use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position};

const FIXTURES: [&str; 4] = [
    "twic-232.pgn",
    "london1851.pgn",
    "dortmund-latin1.pgn",
    "chess960rwch.pgn",
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/index")
        .join(name)
}

/// A copy of a fixture in a fresh directory (the index is written beside
/// the PGN, never into testdata).
fn copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    fs::copy(fixture(name), &path).unwrap();
    (dir, path)
}

fn pgnkit(args: &[&str]) -> Output {
    Command::cargo_bin("pgnkit")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

fn index(path: &Path) {
    let out = pgnkit(&["index", "-q", path.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn index_file(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".pgnkit-index");
    PathBuf::from(s)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The spills an index build's summary reports (`…; N spills to
/// temporary files`).
fn spills(o: &Output) -> u64 {
    stderr(o)
        .rsplit("; ")
        .next()
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no spill count in {}", stderr(o)))
}

/// The `game` lines of a JSON search (the summary differs: indexed, seconds).
fn game_lines(o: &Output) -> Vec<String> {
    stdout(o)
        .lines()
        .filter(|l| l.starts_with("{\"type\":\"game\""))
        .map(str::to_owned)
        .collect()
}

fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("\"{name}\":\"");
    let start = line.find(&key)? + key.len();
    let end = start + line[start..].find('"')?;
    Some(&line[start..end])
}

/// FEN of the position after `ply` plies of game `n` (0-based) of `pgn`.
fn fen_after(pgn: &[u8], n: usize, ply: usize) -> String {
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    for _ in 0..=n {
        assert!(reader.read_game(&mut game));
    }
    let report = replay_game(pgn, &game, &Options::default());
    assert!(
        report.moves.len() >= ply,
        "game {n} has only {} plies",
        report.moves.len()
    );
    let mut pos = report.start.clone();
    for m in &report.moves[..ply] {
        pos.play_unchecked(m.played);
    }
    Fen::from_position(&pos, EnPassantMode::Legal).to_string()
}

/// Queries built from the file's own games, so that each filter matches
/// some games and not others.
fn queries(path: &Path) -> Vec<Vec<String>> {
    let all = pgnkit(&[
        "search",
        "--scan",
        "-q",
        "--format",
        "json",
        path.to_str().unwrap(),
    ]);
    let lines = game_lines(&all);
    assert!(
        lines.len() > 10,
        "{}: {} games",
        path.display(),
        lines.len()
    );
    let pick = |name: &str, i: usize| -> String {
        let v = lines
            .iter()
            .cycle()
            .skip(i)
            .filter_map(|l| field(l, name))
            .find(|v| v.chars().count() >= 4)
            .unwrap_or_else(|| panic!("no {name} in {}", path.display()));
        // A lower-case middle part: a substring, ignoring case.
        let chars: Vec<char> = v.chars().collect();
        chars[1..chars.len().min(6)]
            .iter()
            .collect::<String>()
            .to_uppercase()
    };
    let year = |i: usize| -> String {
        lines
            .iter()
            .skip(i)
            .filter_map(|l| field(l, "date"))
            .find(|d| d.len() >= 4 && d[..4].bytes().all(|b| b.is_ascii_digit()))
            .map(|d| d[..4].to_owned())
            .unwrap_or_else(|| "2000".to_owned())
    };
    let pgn = fs::read(path).unwrap();
    let opening = fen_after(&pgn, 0, 2);
    let middle = fen_after(&pgn, 3, 24);
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        s(&[]),
        s(&["--white", &pick("white", 2)]),
        s(&["--black", &pick("black", 5)]),
        s(&["--player", &pick("white", 7)]),
        s(&["--event", &pick("event", 0)]),
        s(&["--site", &pick("site", 0)]),
        s(&["--result", "1-0"]),
        s(&["--result", "draw"]),
        s(&["--result", "0-1"]),
        s(&["--eco", "A00-B99"]),
        s(&["--eco", "C"]),
        s(&["--eco", "D3"]),
        s(&["--eco-tag", "A00-B99"]),
        s(&["--eco-tag", "C"]),
        s(&["--opening", "gambit"]),
        s(&["--opening", "SICILIAN DEFENSE: "]),
        s(&["--opening", "indian", "--eco", "E"]),
        s(&["--date-from", &format!("{}.06.15", year(3))]),
        s(&["--date-to", &format!("{}.06.15", year(3))]),
        s(&["--date-from", &year(0), "--date-to", &year(0)]),
        s(&["--min-elo", "2500"]),
        s(&["--fen", &opening]),
        s(&["--fen", &middle]),
        s(&["--fen", &opening, "--result", "1-0"]),
        s(&["--player", &pick("black", 1), "--result", "0-1"]),
        s(&["--limit", "3"]),
        s(&["--player", &pick("black", 4), "--limit", "2"]),
    ]
}

#[test]
fn the_index_answers_like_a_scan_for_every_filter() {
    for name in FIXTURES {
        let (_dir, path) = copy(name);
        let p = path.to_str().unwrap();
        let queries = queries(&path);
        index(&path);
        let mut sizes = Vec::new();
        for q in &queries {
            let q: Vec<&str> = q.iter().map(String::as_str).collect();
            let run = |mode: &[&str], format: &str| {
                let mut args = vec!["search", "-q", "--format", format, p];
                args.extend_from_slice(mode);
                args.extend_from_slice(&q);
                pgnkit(&args)
            };
            let (indexed, scanned) = (run(&[], "json"), run(&["--scan"], "json"));
            assert!(
                stdout(&indexed).contains("\"indexed\":true"),
                "{name} {q:?}: {}",
                stderr(&indexed)
            );
            assert!(
                stdout(&scanned).contains("\"indexed\":false"),
                "{name} {q:?}"
            );
            let (a, b) = (game_lines(&indexed), game_lines(&scanned));
            assert_eq!(a, b, "{name} {q:?}: index and scan differ");
            assert_eq!(indexed.status.code(), scanned.status.code(), "{name} {q:?}");
            assert_eq!(
                indexed.status.code(),
                Some(if a.is_empty() { 1 } else { 0 })
            );
            // PGN output: the same original bytes.
            let (a_pgn, b_pgn) = (run(&[], "pgn"), run(&["--scan"], "pgn"));
            assert_eq!(
                a_pgn.stdout, b_pgn.stdout,
                "{name} {q:?}: PGN output differs"
            );
            // --count agrees with the games printed.
            let mut count_args = vec!["search", "-q", "--count", p];
            count_args.extend_from_slice(&q);
            let count = stdout(&pgnkit(&count_args));
            assert_eq!(count.trim(), a.len().to_string(), "{name} {q:?}");
            sizes.push(a.len());
        }
        let total = sizes[0];
        // The filters are not vacuous: each of the name, position and limit
        // queries matches some games, but not all of them.
        for (q, n) in queries.iter().zip(&sizes).skip(1) {
            let strict = q.len() == 2
                && ["--white", "--black", "--player", "--limit", "--fen"].contains(&q[0].as_str());
            if strict {
                assert!(*n > 0 && *n < total, "{name} {q:?}: {n} of {total}");
            }
        }
    }
}

#[test]
fn known_answers_on_real_games() {
    let (_dir, path) = copy("twic-232.pgn");
    let p = path.to_str().unwrap();
    index(&path);
    let count = |args: &[&str]| {
        let mut a = vec!["search", "-q", "--count", p];
        a.extend_from_slice(args);
        stdout(&pgnkit(&a)).trim().parse::<usize>().unwrap()
    };
    let text = fs::read_to_string(&path).unwrap();
    let tag_has = |tag: &str, s: &str| {
        text.lines()
            .filter(|l| l.starts_with(&format!("[{tag} ")) && l.to_lowercase().contains(s))
            .count()
    };
    // Every game of this file has one White and one Black tag: a count by
    // lines is a count by games for a name that no one plays against himself.
    assert_eq!(count(&[]), text.matches("\n[Event ").count() + 1);
    let name = "carlsen";
    let expected = tag_has("White", name) + tag_has("Black", name);
    assert!(expected > 0);
    assert_eq!(count(&["--player", "CARLSEN"]), expected);
    assert_eq!(count(&["--white", name]), tag_has("White", name));
    assert_eq!(
        count(&["--result", "1/2-1/2"]),
        tag_has("Result", "1/2-1/2")
    );
    // The standard start position is in every game without a FEN tag.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        count(&["--fen", start]),
        count(&[]) - text.matches("[FEN ").count()
    );
}

#[test]
fn a_partial_date_matches_every_day_it_can_be() {
    let (_dir, path) = copy("london1851.pgn");
    let p = path.to_str().unwrap();
    index(&path);
    let count = |args: &[&str]| {
        let mut a = vec!["search", "-q", "--count", p];
        a.extend_from_slice(args);
        stdout(&pgnkit(&a)).trim().parse::<usize>().unwrap()
    };
    let all = count(&[]);
    assert!(all > 200);
    // Every game is dated 1851.??.??.
    assert_eq!(count(&["--date-from", "1851.07.01"]), all);
    assert_eq!(count(&["--date-to", "1851.07.01"]), all);
    assert_eq!(count(&["--date-from", "1851", "--date-to", "1851"]), all);
    assert_eq!(count(&["--date-from", "1852"]), 0);
    assert_eq!(count(&["--date-to", "1850.12.31"]), 0);
}

#[test]
fn latin1_names_are_found_in_either_case() {
    let (_dir, path) = copy("dortmund-latin1.pgn");
    let p = path.to_str().unwrap();
    index(&path);
    let out = pgnkit(&["search", "-q", "--format", "json", "--player", "RÉTI", p]);
    let lines = game_lines(&out);
    assert!(!lines.is_empty());
    for l in &lines {
        assert!(l.contains("Réti"), "{l}");
    }
    // The PGN output is the original Latin-1 bytes.
    let pgn = pgnkit(&["search", "-q", "--player", "réti", "--limit", "1", p]);
    assert!(pgn.stdout.windows(5).any(|w| w == b"R\xe9ti,"));
}

#[test]
fn games_of_a_variant_are_indexed_without_positions() {
    let (_dir, path) = copy("sittuyin.pgn");
    let p = path.to_str().unwrap();
    index(&path);
    let indexed = pgnkit(&["search", "-q", "--format", "json", p]);
    let scanned = pgnkit(&["search", "-q", "--scan", "--format", "json", p]);
    let lines = game_lines(&indexed);
    assert_eq!(lines, game_lines(&scanned));
    assert_eq!(lines.len(), 3);
    for l in &lines {
        assert!(l.contains("\"status\":\"unsupported\""), "{l}");
    }
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let out = pgnkit(&["search", "-q", "--count", "--fen", start, p]);
    assert_eq!(stdout(&out).trim(), "0");
}

#[test]
fn a_stale_index_is_refused_with_a_hint() {
    let (_dir, path) = copy("twic-232.pgn");
    let p = path.to_str().unwrap();
    index(&path);
    // Appended to: the size changed.
    let mut bytes = fs::read(&path).unwrap();
    bytes.extend_from_slice(b"\n[Event \"Extra\"]\n[White \"Newcomer\"]\n\n1. e4 *\n");
    fs::write(&path, &bytes).unwrap();
    let out = pgnkit(&["search", "--count", "--player", "newcomer", p]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("stale") && err.contains("size changed"),
        "{err}"
    );
    assert!(
        err.contains("pgnkit index") && err.contains("--reindex"),
        "{err}"
    );
    // --reindex rebuilds it, and the new game is found.
    let out = pgnkit(&[
        "search",
        "-q",
        "--reindex",
        "--count",
        "--player",
        "newcomer",
        p,
    ]);
    assert_eq!(stdout(&out).trim(), "1", "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(0));

    // Same size, same modification time, other content at the head.
    let mtime = fs::metadata(&path).unwrap().modified().unwrap();
    let mut bytes = fs::read(&path).unwrap();
    let at = bytes.windows(7).position(|w| w == b"[White ").unwrap() + 8;
    bytes[at] = if bytes[at] == b'X' { b'Y' } else { b'X' };
    fs::write(&path, &bytes).unwrap();
    let f = fs::File::options().write(true).open(&path).unwrap();
    f.set_modified(mtime).unwrap();
    drop(f);
    let out = pgnkit(&["search", "--count", p]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("content changed"), "{}", stderr(&out));

    // Only touched: the modification time changed.
    index(&path);
    let f = fs::File::options().write(true).open(&path).unwrap();
    f.set_modified(mtime + std::time::Duration::from_secs(10))
        .unwrap();
    drop(f);
    let out = pgnkit(&["search", "--count", p]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("modification time"),
        "{}",
        stderr(&out)
    );
}

/// An index of an older format (version 2 had no openings) or named with
/// another opening table is refused with the advice to rebuild it.
#[test]
fn an_older_index_or_another_opening_table_is_refused_with_the_rebuild_advice() {
    let (_dir, path) = copy("london1851.pgn");
    let p = path.to_str().unwrap();
    index(&path);
    let idx = index_file(&path);
    let good = fs::read(&idx).unwrap();
    let refused = |bytes: &[u8], what: &str| {
        fs::write(&idx, bytes).unwrap();
        let out = pgnkit(&["search", "--count", "--eco", "C", p]);
        assert_eq!(out.status.code(), Some(2), "{what}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.contains(what), "{what}: {err}");
        assert!(err.contains("rebuild it with `pgnkit index`"), "{err}");
    };
    let with_header_crc = |mut b: Vec<u8>| {
        let crc = pgnkit_index::layout::crc(&b[..156]);
        b[156..160].copy_from_slice(&crc.to_le_bytes());
        b
    };
    let mut v2 = good.clone();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    refused(&with_header_crc(v2), "it is of version 2");
    let mut other_table = good.clone();
    other_table[132] ^= 1;
    refused(&with_header_crc(other_table), "opening table");
    // Rebuilt, it is used.
    let out = pgnkit(&["search", "-q", "--reindex", "--count", "--eco", "C", p]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_truncated_or_corrupted_index_is_refused() {
    let (_dir, path) = copy("chess960rwch.pgn");
    let p = path.to_str().unwrap();
    index(&path);
    let idx = index_file(&path);
    let good = fs::read(&idx).unwrap();
    let refused = |bytes: &[u8], args: &[&str], what: &str| {
        fs::write(&idx, bytes).unwrap();
        let mut a = vec!["search", "--count", p];
        a.extend_from_slice(args);
        let out = pgnkit(&a);
        assert_eq!(out.status.code(), Some(2), "{what}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.contains(what), "{what}: {err}");
        assert!(err.contains("pgnkit index"), "{err}");
    };
    // Truncated: half, and one byte short.
    refused(&good[..good.len() / 2], &[], "corrupted");
    refused(&good[..good.len() - 1], &[], "truncated");
    refused(&good[..100], &[], "truncated");
    // Not an index at all.
    refused(b"[Event \"?\"]\n", &[], "not a pgnkit index");
    // A flipped bit in the header, in the game table, in a position bucket.
    let flip = |at: usize| {
        let mut b = good.clone();
        b[at] ^= 0x10;
        b
    };
    refused(&flip(20), &[], "header checksum");
    refused(&flip(160 + 3), &["--white", "a"], "game table");
    let positions_at = u64::from_le_bytes(good[104..112].try_into().unwrap()) as usize;
    let directory_at = u64::from_le_bytes(good[112..120].try_into().unwrap()) as usize;
    assert!(directory_at > positions_at + 8);
    let start = fen_after(&fs::read(&path).unwrap(), 0, 0);
    let mut all_buckets = Vec::new();
    for at in (positions_at..directory_at).step_by(8) {
        // Corrupt each entry in turn until the bucket of the query is hit.
        let out = {
            fs::write(&idx, flip(at)).unwrap();
            pgnkit(&["search", "--count", "--fen", &start, p])
        };
        all_buckets.push(out.status.code());
        if out.status.code() == Some(2) {
            assert!(stderr(&out).contains("position bucket"), "{}", stderr(&out));
            break;
        }
    }
    assert_eq!(
        all_buckets.last(),
        Some(&Some(2)),
        "no corruption of the position table was noticed"
    );
    refused(
        &flip(directory_at + 2),
        &["--fen", &start],
        "position directory",
    );
    // The good index still works.
    fs::write(&idx, &good).unwrap();
    let out = pgnkit(&["search", "-q", "--count", "--fen", &start, p]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A file of more games than a partition sorts in one piece (the start
/// position alone has an entry in every game): the large partitions are
/// decoded straight into their spread. Built in memory and spilled dozens
/// of times, the index is the same, and finds as many games as a scan for
/// positions of those partitions and of others.
#[test]
fn an_index_of_many_games_finds_every_game_of_a_common_position() {
    let one = fs::read(fixture("twic-232.pgn")).unwrap();
    // 232 games a copy: more than 32,768 entries of the start position.
    let copies = 150;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.pgn");
    fs::write(&path, one.repeat(copies)).unwrap();
    let p = path.to_str().unwrap();
    index(&path);
    let in_memory = fs::read(index_file(&path)).unwrap();
    let out = pgnkit(&["index", "--memory", "2M", p]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let spills = spills(&out);
    assert!(spills > 12, "{spills} spills");
    assert!(fs::read(index_file(&path)).unwrap() == in_memory);
    let count = |fen: &str, scan: bool| {
        let mut args = vec!["search", "-q", "--count", "--fen", fen, p];
        if scan {
            args.push("--scan");
        }
        let out = pgnkit(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out).trim().parse::<u64>().unwrap()
    };
    for (game, ply) in [(0, 0), (0, 1), (3, 2), (10, 6), (100, 20)] {
        let fen = fen_after(&one, game, ply);
        let indexed = count(&fen, false);
        assert_eq!(indexed, count(&fen, true), "{fen}");
        // Every copy of the game has the position.
        assert!(indexed >= copies as u64, "{fen}: {indexed}");
    }
}

#[test]
fn an_empty_pgn_has_an_empty_index() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.pgn");
    fs::write(&path, b"").unwrap();
    let p = path.to_str().unwrap();
    index(&path);
    assert!(index_file(&path).is_file());
    for mode in [&[][..], &["--scan"][..]] {
        let mut a = vec!["search", "-q", "--count", p];
        a.extend_from_slice(mode);
        let out = pgnkit(&a);
        assert_eq!(stdout(&out).trim(), "0");
        assert_eq!(out.status.code(), Some(1), "no game matched");
    }
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let out = pgnkit(&["search", "-q", "--fen", fen, p]);
    assert!(out.stdout.is_empty());
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_index_is_written_atomically() {
    let (dir, path) = copy("twic-232.pgn");
    index(&path);
    let idx = index_file(&path);
    let first = fs::read(&idx).unwrap();
    // Rebuilding replaces the index by renaming a complete new file over it:
    // nothing else is ever left in the directory.
    index(&path);
    assert_eq!(fs::read(&idx).unwrap(), first, "the build is deterministic");
    let names = |d: &Path| {
        let mut v: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        names(dir.path()),
        ["twic-232.pgn", "twic-232.pgn.pgnkit-index"]
    );
    // When the final rename cannot happen (a directory is in the way), the
    // build fails and its temporary file is removed.
    fs::remove_file(&idx).unwrap();
    fs::create_dir(&idx).unwrap();
    fs::write(idx.join("keep"), b"x").unwrap();
    let out = pgnkit(&["index", "-q", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert_eq!(
        names(dir.path()),
        ["twic-232.pgn", "twic-232.pgn.pgnkit-index"]
    );
    assert!(idx.join("keep").is_file());
}

#[test]
fn without_an_index_search_scans_and_says_so() {
    let (_dir, path) = copy("twic-232.pgn");
    let p = path.to_str().unwrap();
    let out = pgnkit(&["search", "--count", "--player", "carlsen", p]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains(&format!("`pgnkit index {p}` would make")),
        "{}",
        stderr(&out)
    );
    assert!(
        !index_file(&path).exists(),
        "a search never writes an index unasked"
    );
    // Standard input is scanned too.
    let out = Command::cargo_bin("pgnkit")
        .unwrap()
        .args(["search", "-q", "--count", "--player", "carlsen", "-"])
        .write_stdin(fs::read(&path).unwrap())
        .output()
        .unwrap();
    let scanned = pgnkit(&[
        "search", "-q", "--count", "--scan", "--player", "carlsen", p,
    ]);
    assert_eq!(stdout(&out), stdout(&scanned));
    assert_ne!(stdout(&out).trim(), "0");
}

#[test]
fn what_cannot_be_indexed_is_refused() {
    let out = Command::cargo_bin("pgnkit")
        .unwrap()
        .args(["index", "-"])
        .write_stdin("1. e4 *\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("standard input"));
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("games.pgn.gz");
    fs::write(&gz, [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]).unwrap();
    let out = pgnkit(&["index", gz.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("decompress it first"),
        "{}",
        stderr(&out)
    );
    let out = pgnkit(&["search", "--eco", "Z99", gz.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = pgnkit(&["search", "--fen", "not a fen", gz.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad FEN"), "{}", stderr(&out));
}

/// What benches/run.sh probes before it times index and search: the same
/// game (TWIC 944, Carlsen-Jones, London 2012, from hauva69/pgn4web) and
/// the same commands.
#[test]
fn the_benchmark_probe_passes() {
    const PROBE: &str = r#"[Event "4th London Chess Classic"]
[Site "London ENG"]
[Date "2012.12.04"]
[Round "4.1"]
[White "Carlsen,M"]
[Black "Jones,G"]
[Result "1-0"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Qxd4 a6 5. h3 Nc6 6. Qe3 g6 7. c4 Bg7 8. Be2
Nf6 9. Nc3 O-O 10. O-O Nd7 11. Rb1 a5 12. b3 Nc5 13. Bb2 f5 14. exf5 Bxf5 15.
Rbd1 a4 16. Ba3 Qa5 17. Nb5 axb3 18. axb3 Qxa3 19. Nxa3 Rxa3 20. Nd2 Bd4 21. Qg3
Be5 22. f4 Bf6 23. Bg4 Nd4 24. Kh1 Bc2 25. Rde1 Kh8 26. Re3 h5 27. b4 h4 28. Qf2
Nd3 29. Qg1 Nf5 30. Bxf5 gxf5 31. Nf3 Rc3 32. c5 Bb3 33. Ne1 Bd4 34. Nxd3 dxc5
35. Qf2 Rf7 36. Rc1 cxb4 37. Rxc3 bxc3 38. Qe1 1-0

"#;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("probe.pgn");
    fs::write(&path, PROBE).unwrap();
    let p = path.to_str().unwrap();
    let before = fs::read_dir(dir.path()).unwrap().count();
    let out = pgnkit(&["index", p]);
    assert_eq!(out.status.code(), Some(0));
    assert!(fs::read_dir(dir.path()).unwrap().count() > before);
    let out = pgnkit(&["search", p, "--player", "Carlsen", "--count"]);
    assert_eq!(stdout(&out).trim(), "1");
    // The FEN run.sh uses: after 10. O-O, black to move.
    let fen = "r1bq1rk1/1p2ppbp/p1np1np1/8/2P1P3/2N1QN1P/PP2BPP1/R1B2RK1 b - - 6 10";
    assert_eq!(fen_after(PROBE.as_bytes(), 0, 19), fen);
    let out = pgnkit(&["search", p, "--fen", fen, "--count"]);
    assert_eq!(stdout(&out).trim(), "1");
}

/// The sorted names in a directory.
fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// With a tiny `--memory`, the position entries are spilled many times
/// (4 KiB of entries at a time, the smallest), the game records go
/// straight into the index being written, and the partitions take every
/// way of being sorted: with others in a group, alone and whole, and
/// through sorted runs (at `8K`: twic-232 13 alone and 243 through runs,
/// dortmund-latin1 116 in groups, 134 alone and 6 through runs, counted
/// once by hand). The index is byte for byte the one built in memory, and
/// no temporary file is left.
#[test]
fn an_index_built_in_tiny_memory_is_byte_identical() {
    for name in FIXTURES {
        let (dir, path) = copy(name);
        let p = path.to_str().unwrap();
        let out = pgnkit(&["index", p]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("; 0 spills to temporary files"),
            "{}",
            stderr(&out)
        );
        let in_memory = fs::read(index_file(&path)).unwrap();
        for memory in ["8K", "100000"] {
            let out = pgnkit(&["index", "--memory", memory, "-j", "2", p]);
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            let runs = spills(&out);
            if memory == "8K" {
                // 4 KiB of entries a spill, about 8.3 bytes an entry: dozens
                // of spills for the larger fixtures.
                let expected = if name == "chess960rwch.pgn" { 3 } else { 15 };
                assert!(runs > expected, "{name} --memory {memory}: {runs} spills");
            }
            assert!(
                fs::read(index_file(&path)).unwrap() == in_memory,
                "{name} --memory {memory}: the index differs"
            );
            assert_eq!(
                names_in(dir.path()),
                [name.to_string(), format!("{name}.pgnkit-index")]
            );
        }
    }
}

#[test]
fn the_memory_size_is_checked() {
    let (_dir, path) = copy("twic-232.pgn");
    let out = pgnkit(&["index", "--memory", "lots", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a size"), "{}", stderr(&out));
    let help = pgnkit(&["index", "--help"]);
    assert!(
        stdout(&help).contains("--memory <SIZE>"),
        "{}",
        stdout(&help)
    );
}

/// A spilled build that fails (the index cannot be renamed into place)
/// leaves no temporary file.
#[test]
fn a_failed_spilled_build_leaves_no_temporaries() {
    let (dir, path) = copy("twic-232.pgn");
    let idx = index_file(&path);
    fs::create_dir(&idx).unwrap();
    fs::write(idx.join("keep"), b"x").unwrap();
    let out = pgnkit(&["index", "--memory", "8K", "-q", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert_eq!(
        names_in(dir.path()),
        ["twic-232.pgn", "twic-232.pgn.pgnkit-index"]
    );
    assert_eq!(names_in(&idx), ["keep"]);
}

/// Ctrl-C (SIGINT) while the position table is being written, and SIGTERM
/// while the games are replayed: the run exits with status 130 (143 after
/// SIGTERM, as a shell reports a process it killed) and leaves
/// nothing but the PGN file (no half-written index, no spilled run). The
/// index is a temporary file from the start (the game records that do not
/// fit in memory go straight into it): the position table is being
/// written once it holds more than half the finished index.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn an_interrupted_build_leaves_no_temporaries() {
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.pgn");
    let games = fs::read(fixture("twic-232.pgn")).unwrap();
    let mut big = Vec::with_capacity(games.len() * 150);
    for _ in 0..150 {
        big.extend_from_slice(&games);
        big.extend_from_slice(b"\n");
    }
    fs::write(&path, &big).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("pgnkit");
    let done = Command::new(&bin)
        .args(["index", "-q", "--memory", "1M", "-j", "2"])
        .arg(&path)
        .status()
        .unwrap();
    assert!(done.success());
    let finished = fs::metadata(dir.path().join("big.pgn.pgnkit-index"))
        .unwrap()
        .len();
    fs::remove_file(dir.path().join("big.pgn.pgnkit-index")).unwrap();
    let signal = |child: &Child, signal: &str| {
        let sent = Command::new("kill")
            .arg(signal)
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success(), "kill {signal}");
    };
    // The build is frozen (SIGSTOP) as soon as it is where the signal
    // should find it, and looked at while it cannot move: the signal is
    // sent only if it is still there, before it is let go (SIGCONT). A
    // build caught too late (already past that point, or done) is let
    // finish, and another one is started.
    for (name, when_writing, exit) in [("-INT", true, 130), ("-TERM", false, 143)] {
        let mut interrupted = false;
        for _attempt in 0..20 {
            let mut command = Command::new(&bin);
            command
                .args(["index", "-q", "--memory", "1M", "-j", "2"])
                .arg(&path)
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            // A shell without job control starts a background job with
            // SIGINT ignored, which pgnkit keeps, as it should: the build
            // gets SIGINT's default action back, as from a terminal.
            #[allow(unsafe_code)]
            // SAFETY: `signal` is async-signal-safe, and all that runs
            // between fork and exec.
            unsafe {
                use std::os::unix::process::CommandExt;
                command.pre_exec(|| {
                    libc::signal(libc::SIGINT, libc::SIG_DFL);
                    Ok(())
                });
            }
            let mut child = command.spawn().unwrap();
            let started = Instant::now();
            // The temporary index's size, while there is one.
            let temporary = || {
                names_in(dir.path())
                    .iter()
                    .find(|n| n.ends_with(".tmp"))
                    .and_then(|n| fs::metadata(dir.path().join(n)).ok())
                    .map(|m| m.len())
            };
            let writing = || temporary().is_some_and(|len| len > finished / 2);
            // A spilled run (an anonymous file beside the index, open in
            // the process): the replay is under way, the handler set.
            let fds = format!("/proc/{}/fd", child.id());
            let spilled = || {
                fs::read_dir(&fds).is_ok_and(|fds| {
                    fds.filter_map(|fd| fs::read_link(fd.ok()?.path()).ok())
                        .any(|l| {
                            l.starts_with(dir.path()) && l.to_string_lossy().ends_with("(deleted)")
                        })
                })
            };
            let there = || {
                if when_writing {
                    writing()
                } else {
                    spilled() && temporary().is_some_and(|len| len < finished / 4)
                }
            };
            while !there()
                && child.try_wait().unwrap().is_none()
                && started.elapsed() < Duration::from_secs(60)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            signal(&child, "-STOP");
            let caught = child.try_wait().unwrap().is_none()
                && there()
                && !dir.path().join("big.pgn.pgnkit-index").exists();
            if caught {
                signal(&child, name);
            }
            signal(&child, "-CONT");
            let status = child.wait().unwrap();
            if caught && status.success() {
                // The build got past its last look at the signal before
                // the handler ran (a loaded machine): then it finished,
                // and the index is whole, with nothing left beside it.
                assert_eq!(
                    names_in(dir.path()),
                    ["big.pgn", "big.pgn.pgnkit-index"],
                    "{name}"
                );
            }
            if !caught || status.success() {
                let _ = fs::remove_file(dir.path().join("big.pgn.pgnkit-index"));
                continue;
            }
            assert_eq!(status.code(), Some(exit), "{name}: {status:?}");
            assert_eq!(names_in(dir.path()), ["big.pgn"], "{name}");
            interrupted = true;
            break;
        }
        assert!(
            interrupted,
            "{name}: no build was caught where it should be"
        );
    }
}
