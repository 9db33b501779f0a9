//! `pgnkit convert` on real games (testdata/convert, see its README.md).
//!
//! The round trip SAN -> X -> SAN must give back the same bytes for every
//! target notation and every language, and the SAN export must keep the
//! moves, tags, comments, NAGs and variations of the input (checked through
//! the JSON records of both). `corpus_round_trip` (ignored; run by
//! `scripts/convert_roundtrip.sh`) does the same over the shared corpus.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use pgnkit_notation::Language;
use shakmaty::Role;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/convert")
}

fn fixture(name: &str) -> String {
    fixtures().join(name).to_string_lossy().into_owned()
}

/// Every fixture file, in name order.
fn all_fixtures() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(fixtures())
        .expect("testdata/convert")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    files.sort();
    files
}

struct Run {
    stdout: Vec<u8>,
    stderr: String,
    code: i32,
}

impl Run {
    fn text(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("output is UTF-8")
    }
}

/// Runs `pgnkit ARGS` with `stdin` (if any) on standard input.
fn pgnkit(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(pgnkit_testkit::binary(env!("CARGO_BIN_EXE_pgnkit")));
    cmd.args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().expect("pgnkit runs");
    let writer = stdin.map(|data| {
        let data = data.to_vec();
        let mut pipe = child.stdin.take().expect("stdin");
        std::thread::spawn(move || {
            let _ = pipe.write_all(&data);
        })
    });
    let out = child.wait_with_output().expect("pgnkit ends");
    if let Some(w) = writer {
        w.join().expect("writer");
    }
    Run {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// The games of a PGN export, split at the empty line that ends each.
fn games(pgn: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(pgn);
    let mut games = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with('[') && current.contains("\n\n") {
            games.push(std::mem::take(&mut current));
        }
        current.push_str(line);
    }
    if !current.is_empty() {
        games.push(current);
    }
    games
}

/// The first game that differs between two exports, if any.
fn first_difference(expected: &[u8], got: &[u8]) -> Option<String> {
    if expected == got {
        return None;
    }
    let (a, b) = (games(expected), games(got));
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if x != y {
            return Some(format!("game {} differs:\n{x}---\n{y}", i + 1));
        }
    }
    Some(format!("{} games, then {}", a.len(), b.len()))
}

/// Asserts two exports are equal, showing the first game that differs.
fn assert_same_games(expected: &[u8], got: &[u8], what: &str) {
    if let Some(d) = first_difference(expected, got) {
        panic!("{what}: {d}");
    }
}

/// SAN export of every fixture (games with errors included).
fn san_of_fixtures() -> Vec<u8> {
    let files = all_fixtures();
    let mut args = vec!["convert", "-q", "--to", "san"];
    args.extend(files.iter().map(String::as_str));
    let run = pgnkit(&args, None);
    assert_eq!(
        run.code, 1,
        "the fixtures hold games with errors: {}",
        run.stderr
    );
    run.stdout
}

/// SAN -> `to` in `lang` -> SAN (read back in `lang`): the first game
/// that does not come back, if any.
fn round_trip(san: &[u8], to: &str, lang: Language) -> Option<String> {
    let code = lang.code();
    let x = pgnkit(&["convert", "-q", "--to", to, "--lang", code], Some(san));
    // Games the rules contradict (a wrong Result tag) keep their error: 1.
    assert!(x.code == 0 || x.code == 1, "{to}/{code}: {}", x.stderr);
    assert!(!x.stdout.is_empty());
    let input_lang = if to == "ru-scoresheet" { "ru" } else { code };
    let back = pgnkit(
        &["convert", "-q", "--to", "san", "--input-lang", input_lang],
        Some(&x.stdout),
    );
    assert!(
        back.code == 0 || back.code == 1,
        "{to}/{code}: {}",
        back.stderr
    );
    first_difference(san, &back.stdout).map(|d| format!("SAN -> {to}/{code} -> SAN: {d}"))
}

/// Every round trip over `san`; panics listing every one that fails.
/// SAN -> X -> SAN for every notation in every language (`lan_in`: the
/// languages long algebraic is tried in; its letters are read by the same
/// code as SAN's, so the corpus-wide run takes a few).
fn round_trip_all(san: &[u8], lan_in: &[Language]) {
    let mut failures = Vec::new();
    for &lang in Language::ALL {
        failures.extend(round_trip(san, "san", lang));
    }
    for &lang in lan_in {
        failures.extend(round_trip(san, "lan", lang));
    }
    failures.extend(round_trip(san, "uci", Language::En));
    failures.extend(round_trip(san, "figurine", Language::En));
    failures.extend(round_trip(san, "iccf", Language::En));
    for lang in [Language::En, Language::Es, Language::It, Language::Fr] {
        failures.extend(round_trip(san, "descriptive", lang));
    }
    failures.extend(round_trip(san, "ru-scoresheet", Language::Ru));
    assert!(
        failures.is_empty(),
        "{} round trips fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn san_export_round_trips_through_every_notation_and_language() {
    let san = san_of_fixtures();
    assert!(games(&san).len() > 1500);
    // Converting the export again changes nothing.
    let again = pgnkit(&["convert", "-q"], Some(&san));
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_same_games(&san, &again.stdout, "SAN -> SAN");
    round_trip_all(&san, Language::ALL);
}

#[test]
fn round_trip_with_language_detection() {
    // Read back without --input-lang: the language is detected per game.
    // Only languages whose letters mean nothing in English: where a letter
    // is another English piece (Dutch `P`, French `R` ...), a short game
    // can replay legally in English too, and only --input-lang can say.
    let pgn = std::fs::read(fixture("twic944-games700-999.pgn")).expect("fixture");
    let san = pgnkit(&["convert", "-q"], Some(&pgn)).stdout;
    for lang in [
        Language::De,
        Language::Ru,
        Language::Pl,
        Language::Cs,
        Language::Sv,
        Language::Ar,
    ] {
        let x = pgnkit(&["convert", "-q", "--lang", lang.code()], Some(&san));
        let back = pgnkit(&["convert", "-q"], Some(&x.stdout));
        assert_eq!(back.code, 0, "{lang}: {}", back.stderr);
        assert_same_games(
            &san,
            &back.stdout,
            &format!("SAN -> {lang} -> SAN (detected)"),
        );
    }
    // ICCF numeric is read in any language: no flag needed either.
    let x = pgnkit(&["convert", "-q", "--to", "iccf"], Some(&san));
    let iccf = String::from_utf8_lossy(&x.stdout).into_owned();
    assert!(iccf.contains("1. 5254 ") && !iccf.contains("1. e4 "));
    let back = pgnkit(&["convert", "-q"], Some(&x.stdout));
    assert_eq!(back.code, 0, "iccf: {}", back.stderr);
    assert_same_games(&san, &back.stdout, "SAN -> iccf -> SAN (detected)");
    // Descriptive notation too: its words are no algebraic move.
    let x = pgnkit(&["convert", "-q", "--to", "descriptive"], Some(&san));
    let descriptive = String::from_utf8_lossy(&x.stdout).into_owned();
    assert!(descriptive.contains("1. P-K4 ") || descriptive.contains("1. P-Q4 "));
    let back = pgnkit(&["convert", "-q"], Some(&x.stdout));
    assert_eq!(back.code, 0, "descriptive: {}", back.stderr);
    assert_same_games(&san, &back.stdout, "SAN -> descriptive -> SAN (detected)");
    // Spanish and French descriptive: `P4R`, `C3AR`, `AxC` (`R` the king).
    for (lang, first) in [("es", "1. P4R "), ("fr", "1. P4R ")] {
        let x = pgnkit(
            &["convert", "-q", "--to", "descriptive", "--lang", lang],
            Some(&san),
        );
        let written = String::from_utf8_lossy(&x.stdout).into_owned();
        assert!(
            written.contains(first) || written.contains("1. P4D "),
            "{lang}"
        );
        let back = pgnkit(&["convert", "-q"], Some(&x.stdout));
        assert_eq!(back.code, 0, "descriptive {lang}: {}", back.stderr);
        assert_same_games(
            &san,
            &back.stdout,
            &format!("SAN -> descriptive {lang} -> SAN (detected)"),
        );
    }
}

/// The JSON records of `pgn` (moves in UCI), "file" dropped.
fn records(pgn: &[u8]) -> Vec<serde_json::Value> {
    let run = pgnkit(
        &["convert", "-q", "--to", "uci", "--format", "json"],
        Some(pgn),
    );
    assert!(run.code <= 1, "{}", run.stderr);
    run.text()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("one JSON object a line");
            if let Some(o) = v.as_object_mut() {
                o.remove("file");
            }
            v
        })
        .collect()
}

#[test]
fn san_export_keeps_moves_tags_comments_nags_and_variations() {
    let mut checked = 0;
    for file in all_fixtures() {
        let original = std::fs::read(&file).expect("fixture");
        let san = pgnkit(&["convert", "-q"], Some(&original)).stdout;
        let (before, after) = (records(&original), records(&san));
        assert_eq!(before.len(), after.len(), "{file}: games");
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            if b["errors"] == 0 {
                assert_eq!(b, a, "{file}: game {}", i + 1);
                checked += 1;
            } else {
                // Converted up to the error: the same tags, the moves before it.
                assert_eq!(b["tags"], a["tags"], "{file}: game {}", i + 1);
            }
        }
    }
    assert!(checked > 1500, "{checked} games compared");
}

/// `--lang` reaches the writer for every language. The letters themselves
/// are pinned by hand, from the notation reference, in
/// `crates/notation/tests/languages.rs`; here `letter()` may stand for them.
#[test]
fn writes_piece_letters_of_every_language() {
    let pgn = b"[Event \"t\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Qe7 5. O-O b5 6. Bb3 Kd8 7. Re1 *\n";
    for &lang in Language::ALL {
        let out = pgnkit(&["convert", "-q", "--lang", lang.code()], Some(pgn)).text();
        let l = |r: Role| lang.letter(r);
        let expected = format!(
            "1. e4 e5 2. {n}f3 {n}c6 3. {b}b5 a6 4. {b}a4 {q}e7 5. O-O b5 6. {b}b3 {k}d8 7. {r}e1 *",
            n = l(Role::Knight),
            b = l(Role::Bishop),
            q = l(Role::Queen),
            r = l(Role::Rook),
            k = l(Role::King)
        );
        assert!(out.contains(&expected), "{lang}: {out}");
    }
}

#[test]
fn each_target_notation() {
    let pgn = b"[Event \"t\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. Bd2 Bf5 6. Qf3 e6 7. O-O-O *\n";
    let out = |to: &str| pgnkit(&["convert", "-q", "--to", to], Some(pgn)).text();
    assert!(
        out("san")
            .contains("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. Bd2 Bf5 6. Qf3 e6 7. O-O-O *")
    );
    assert!(
        out("lan").contains(
            "1. e2-e4 d7-d5 2. e4xd5 Qd8xd5 3. Nb1-c3 Qd5-a5 4. d2-d4 Ng8-f6 5. Bc1-d2\nBc8-f5 6. Qd1-f3 e7-e6 7. O-O-O *"
        ),
        "{}",
        out("lan")
    );
    assert!(out("uci").contains(
        "1. e2e4 d7d5 2. e4d5 d8d5 3. b1c3 d5a5 4. d2d4 g8f6 5. c1d2 c8f5 6. d1f3 e7e6\n7. e1c1 *"
    ));
    assert!(
        out("figurine").contains("3. ♘c3 ♛a5"),
        "{}",
        out("figurine")
    );
    assert!(out("fan").contains("3. ♘c3 ♛a5"));
    let ru = out("ru-scoresheet");
    assert!(
        ru.contains("2. e:d5 Ф:d5 3. Кc3 Фa5 4. d4 Кf6 5. Сd2"),
        "{ru}"
    );
    assert!(ru.contains("7. 0-0-0 *"), "{ru}");
    // Spoken moves are several words: never PGN; without `--format`, JSON
    // away from a terminal (text on one: cli/tests/spoken.rs).
    let spoken = pgnkit(
        &["convert", "-q", "--to", "spoken", "--format", "pgn"],
        Some(pgn),
    );
    assert_eq!(spoken.code, 2);
    assert!(spoken.stderr.contains("--format json"));
    let spoken = pgnkit(&["convert", "-q", "--to", "spoken"], Some(pgn));
    assert_eq!(spoken.code, 0);
    assert!(spoken.text().starts_with("{\"type\":\"game\""));
    let json = pgnkit(
        &[
            "convert", "-q", "--to", "spoken", "--lang", "de", "--format", "json",
        ],
        Some(pgn),
    );
    assert_eq!(json.code, 0);
    assert!(
        json.text()
            .contains("\"move\":\"Springer Bella eins Cäsar drei\""),
        "{}",
        json.text()
    );
    let bad = pgnkit(&["convert", "--to", "klingon"], Some(pgn));
    assert_eq!(bad.code, 2);
    let bad = pgnkit(&["convert", "--lang", "xx"], Some(pgn));
    assert_eq!(bad.code, 2);
}

#[test]
fn comments_nags_and_variations_stay_in_place() {
    let pgn = "[White \"A \\\"B\\\" C\"]\n[ECO \"C20\"]\n[Event \"e\"]\n[Annotator \"x\"]\n\n\
        {Start} 1. e4! e5 $2 2. Nf3 {good} (2. f4 exf4 {gambit}) 2... Nc6 ?! 3. Bb5 (=) a6 ; end of line\n\
        4. Ba4 Nf6 1-0\n";
    let run = pgnkit(&["convert", "-q"], Some(pgn.as_bytes()));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.text(),
        "[Event \"e\"]\n[White \"A \\\"B\\\" C\"]\n[Annotator \"x\"]\n[ECO \"C20\"]\n\n\
         {Start} 1. e4 $1 1... e5 $2 2. Nf3 {good} ( 2. f4 exf4 {gambit} ) 2... Nc6 $6\n\
         3. Bb5 {(=)} 3... a6 { end of line} 4. Ba4 Nf6 1-0\n\n"
    );
}

#[test]
fn null_moves_in_analysis_are_kept() {
    let pgn = b"[Event \"t\"]\n\n1. e4 e5 2. Nf3 (2. -- Nc6 3. Nf3 -- 4. d4) 2... Nc6 3. Bb5 *\n";
    let san = pgnkit(&["convert", "-q"], Some(pgn));
    assert_eq!(san.code, 0, "{}", san.stderr);
    assert!(
        san.text()
            .contains("2. Nf3 ( 2. -- Nc6 3. Nf3 -- 4. d4 ) 2... Nc6 3. Bb5 *"),
        "{}",
        san.text()
    );
    let uci = pgnkit(&["convert", "-q", "--to", "uci"], Some(pgn));
    // `0000` would be a move number in PGN: `--` in every notation.
    assert!(
        uci.text().contains("( 2. -- b8c6 3. g1f3 -- 4. d2d4 )"),
        "{}",
        uci.text()
    );
    let back = pgnkit(&["convert", "-q"], Some(&uci.stdout));
    assert_eq!(back.stdout, san.stdout);
}

#[test]
fn lines_are_shorter_than_80_characters() {
    let pgn = std::fs::read(fixture("twic944-games700-999.pgn")).expect("fixture");
    for to in ["san", "lan", "figurine"] {
        let out = pgnkit(&["convert", "-q", "--to", to, "--lang", "ru"], Some(&pgn)).text();
        for line in out.lines() {
            assert!(line.chars().count() < 80, "{to}: {line:?}");
            assert!(
                !line.starts_with(' ') && !line.ends_with(' '),
                "{to}: {line:?}"
            );
        }
    }
}

#[test]
fn tag_only_games_keep_their_tags() {
    let run = pgnkit(&["convert", "-q", &fixture("disservin-no_moves.pgn")], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = run.text();
    assert!(out.starts_with("[Event \""), "{out}");
    // The termination marker comes from the Result tag.
    assert!(out.contains("[Result \"1/2-1/2\"]"), "{out}");
    assert!(out.ends_with("\"]\n\n1/2-1/2\n\n"), "{out:?}");
    let pgn = b"[Event \"only tags\"]\n[Result \"1-0\"]\n\n[Event \"next\"]\n\n1. d4 *\n";
    let run = pgnkit(&["convert", "-q"], Some(pgn));
    assert_eq!(
        run.text(),
        "[Event \"only tags\"]\n[Result \"1-0\"]\n\n1-0\n\n[Event \"next\"]\n\n1. d4 *\n\n"
    );
}

#[test]
fn a_game_with_an_error_is_converted_up_to_it_and_reported() {
    let pgn =
        b"[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 {Spanish} Nf3 4. O-O {castles} Nf6 *\n\n\
        [Event \"b\"]\n\n1. d4 d5 *\n";
    let run = pgnkit(&["convert", "--to", "lan"], Some(pgn));
    assert_eq!(run.code, 1);
    assert_eq!(
        run.text(),
        "[Event \"a\"]\n\n1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 {Spanish} {Nf3 4. O-O} {castles}\n{Nf6} *\n\n\
         [Event \"b\"]\n\n1. d2-d4 d7-d5 *\n\n"
    );
    assert!(run.stderr.contains("error[illegal-move]"), "{}", run.stderr);
    assert!(run.stderr.contains("<stdin>:3:"), "{}", run.stderr);
    assert!(
        run.stderr.contains("2 games (1 with errors)"),
        "{}",
        run.stderr
    );
    // As NDJSON (`-q` would leave them out: cli/tests/inputs.rs).
    let run = pgnkit(&["convert", "--diagnostics", "json"], Some(pgn));
    let line = run.stderr.lines().next().expect("a diagnostic");
    let d: serde_json::Value = serde_json::from_str(line).expect("JSON");
    assert_eq!(d["code"], "illegal-move");
    assert_eq!(d["game"], 1);
    assert_eq!(d["token"], "Nf3");
    // Left out, still counted.
    let run = pgnkit(&["convert", "--skip-invalid"], Some(pgn));
    assert_eq!(run.code, 1);
    assert_eq!(run.text(), "[Event \"b\"]\n\n1. d4 d5 *\n\n");
    assert!(
        run.stderr.contains("2 games (1 with errors, 1 left out)"),
        "{}",
        run.stderr
    );
}

#[test]
fn skip_invalid_on_real_files() {
    let file = fixture("ictk-variation.pgn");
    let all = pgnkit(&["convert", "-q", &file], None);
    let valid = pgnkit(&["convert", "--skip-invalid", &file], None);
    assert_eq!(all.code, 1);
    assert_eq!(valid.code, 1);
    assert!(
        valid
            .stderr
            .contains("20 games (10 with errors, 10 left out)"),
        "{}",
        valid.stderr
    );
    assert_eq!(records(&all.stdout).len(), 20);
    assert_eq!(records(&valid.stdout).len(), 10);
    // What is left replays without error.
    let again = pgnkit(&["convert", "-q"], Some(&valid.stdout));
    assert_eq!(again.code, 0, "{}", again.stderr);
}

#[test]
fn latin1_input_is_written_as_utf8() {
    let run = pgnkit(&["convert", "-q", &fixture("eco-de-latin1.pgn")], None);
    let out = run.text();
    assert!(out.contains("Französisch"), "decoded Latin-1 names");
}

#[test]
fn standard_input_and_dash() {
    let file = fixture("kasparov-deep-blue-1997.pgn");
    let pgn = std::fs::read(&file).expect("fixture");
    let from_file = pgnkit(&["convert", "-q", "--to", "uci", &file], None);
    let from_stdin = pgnkit(&["convert", "-q", "--to", "uci"], Some(&pgn));
    let from_dash = pgnkit(&["convert", "-q", "--to", "uci", "-"], Some(&pgn));
    assert_eq!(from_file.code, 0);
    assert_eq!(from_file.stdout, from_stdin.stdout);
    assert_eq!(from_file.stdout, from_dash.stdout);
    assert_eq!(games(&from_file.stdout).len(), 6);
}

#[test]
fn output_file_is_replaced_atomically() {
    let dir = tempfile::tempdir().expect("tempdir");
    let target = dir.path().join("out.pgn");
    std::fs::write(&target, "old").expect("write");
    let file = fixture("gotd.pgn");
    let t = target.to_string_lossy().into_owned();
    let run = pgnkit(&["convert", "-q", "--to", "lan", "-o", &t, &file], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let written = std::fs::read(&target).expect("output");
    let direct = pgnkit(&["convert", "-q", "--to", "lan", &file], None);
    assert_eq!(written, direct.stdout);
    // An unreadable input: exit 2, the old file stays, no temporary is left.
    let run = pgnkit(
        &["convert", "-q", "-o", &t, &file, "/nonexistent/x.pgn"],
        None,
    );
    assert_eq!(run.code, 2);
    assert_eq!(std::fs::read(&target).expect("output"), written);
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(left.len(), 1, "no temporary file left");
}

/// `-o /dev/null` or `-o pipe`: a target that is not a regular file is
/// written in place, never replaced by a renamed temporary file.
#[cfg(unix)]
#[test]
fn output_to_a_pipe_writes_into_the_pipe() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let file = fixture("gotd.pgn");
    let t = fifo.to_string_lossy().into_owned();
    let mut child = Command::new(pgnkit_testkit::binary(env!("CARGO_BIN_EXE_pgnkit")))
        .args(["convert", "-q", "--to", "uci", "-o", &t, &file])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pgnkit runs");
    let reader = std::thread::spawn(move || {
        let mut got = Vec::new();
        std::fs::File::open(&fifo)
            .and_then(|mut f| f.read_to_end(&mut got))
            .expect("read the pipe");
        got
    });
    let status = child.wait().expect("pgnkit ends");
    assert!(status.success());
    let meta = std::fs::metadata(dir.path().join("pipe")).expect("metadata");
    assert!(
        meta.file_type().is_fifo(),
        "the pipe was replaced by a file"
    );
    let got = reader.join().expect("reader");
    let direct = pgnkit(&["convert", "-q", "--to", "uci", &file], None);
    assert_eq!(got, direct.stdout);
}

/// `pgnkit convert … | head`: when the reader of the output goes away,
/// the run stops quietly (exit 0, no error message), as other command-line
/// tools do.
#[test]
fn a_closed_output_pipe_stops_the_run_quietly() {
    use std::io::Read;
    let dir = tempfile::tempdir().expect("tempdir");
    let big = dir.path().join("big.pgn");
    let games = std::fs::read(fixture("gotd.pgn")).expect("fixture");
    // Far more output than a pipe holds.
    let copies: Vec<u8> = games
        .iter()
        .copied()
        .cycle()
        .take(games.len() * 400)
        .collect();
    std::fs::write(&big, &copies).expect("write");
    let mut child = Command::new(pgnkit_testkit::binary(env!("CARGO_BIN_EXE_pgnkit")))
        .args(["convert", "-q", "--to", "lan"])
        .arg(&big)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pgnkit runs");
    let mut first = [0u8; 64];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("some output");
    // The pipe's read end is dropped here.
    let out = child.wait_with_output().expect("pgnkit ends");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("error"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(first.contains(&b'['), "{first:?}");
}

#[test]
fn fast_path_writes_what_the_full_replay_writes() {
    let files = all_fixtures();
    for to in ["san", "lan", "uci"] {
        let mut args = vec!["convert", "-q", "--to", to];
        args.extend(files.iter().map(String::as_str));
        let fast = pgnkit(&args, None);
        let mut cmd = Command::new(pgnkit_testkit::binary(env!("CARGO_BIN_EXE_pgnkit")));
        let full = cmd
            .args(&args)
            .env("PGNKIT_CONVERT_FULL_REPLAY", "1")
            .output()
            .expect("pgnkit runs");
        assert_eq!(fast.code, full.status.code().unwrap_or(-1));
        assert_same_games(&full.stdout, &fast.stdout, &format!("fast vs full ({to})"));
    }
}

#[test]
fn shards_concatenated_are_the_whole_output() {
    let file = fixture("twic944-games700-999.pgn");
    let whole = pgnkit(&["convert", "-q", "--to", "lan", &file], None);
    let mut joined = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let part = pgnkit(
            &["convert", "-q", "--to", "lan", "--shard", &shard, &file],
            None,
        );
        assert_eq!(part.code, 0, "{}", part.stderr);
        assert!(!part.stdout.is_empty());
        joined.extend_from_slice(&part.stdout);
    }
    assert_eq!(joined, whole.stdout);
}

#[test]
fn output_order_does_not_depend_on_threads() {
    let files = all_fixtures();
    let mut args = vec!["convert", "-q", "--to", "lan"];
    args.extend(files.iter().map(String::as_str));
    let one = pgnkit(&[&args[..], &["-j", "1"]].concat(), None);
    let two = pgnkit(&[&args[..], &["-j", "2"]].concat(), None);
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn json_records() {
    let pgn =
        b"[Event \"j\"]\n[White \"W\"]\n\n{intro} 1. e4 $1 {best} (1. d4 d5) 1... c5 2. Nf3 *\n";
    let run = pgnkit(
        &["convert", "-q", "--to", "lan", "--format", "json"],
        Some(pgn),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(run.text().trim()).expect("JSON");
    assert_eq!(v["type"], "game");
    assert_eq!(v["game"], 1);
    assert_eq!(v["tags"]["White"], "W");
    assert_eq!(v["result"], "*");
    assert_eq!(v["status"], "ongoing");
    let first = &v["moves"][0];
    assert_eq!(first["move"], "e2-e4");
    assert_eq!(first["uci"], "e2e4");
    assert_eq!(first["comments_before"][0], "intro");
    assert_eq!(first["nags"][0], 1);
    assert_eq!(first["comments"][0], "best");
    assert_eq!(first["variations"][0][1]["move"], "d7-d5");
    assert_eq!(v["moves"][1]["move"], "c7-c5");
    assert_eq!(v["moves"][2]["uci"], "g1f3");
    // Keys keep the export order.
    let text = run.text();
    assert!(text.find("\"Event\"") < text.find("\"White\""));
}

/// The shared corpus (or `PGNKIT_CORPUS`): at least 5,000 games through
/// SAN -> X -> SAN for every notation and language;
/// `PGNKIT_ROUNDTRIP_ALL=1` takes every game.
#[test]
#[ignore = "needs the shared corpus; run by scripts/convert_roundtrip.sh"]
fn corpus_round_trip() {
    let Some(root) = pgnkit_testkit::corpus() else {
        return;
    };
    let all = std::env::var("PGNKIT_ROUNDTRIP_ALL").is_ok_and(|v| v == "1");
    let mut files = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("corpus").flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "bench") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "pgn") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut sample = Vec::new();
    for f in &files {
        let data = std::fs::read(f).expect("read");
        // Without the flag: up to 600 KB of every file (whole games).
        let take = if all { data.len() } else { cut(&data, 600_000) };
        sample.extend_from_slice(&data[..take]);
        sample.extend_from_slice(b"\n\n");
    }
    let san = pgnkit(&["convert", "-q"], Some(&sample)).stdout;
    let n = games(&san).len();
    eprintln!(
        "corpus round trip over {n} games from {} files",
        files.len()
    );
    assert!(n >= 5000, "only {n} games");
    // Long algebraic in the languages of the corpus's scoresheets and of
    // the letters most alike (Latin and Cyrillic); every language in SAN.
    round_trip_all(
        &san,
        &[
            Language::En,
            Language::De,
            Language::Fr,
            Language::Es,
            Language::Ru,
        ],
    );
}

/// The length of `data` up to the last game that starts before `max`.
fn cut(data: &[u8], max: usize) -> usize {
    if data.len() <= max {
        return data.len();
    }
    match data[..max].windows(8).rposition(|w| w == b"\n[Event ") {
        Some(i) if i > 0 => i + 1,
        _ => max,
    }
}

#[test]
fn a_forced_language_is_read_even_where_english_would_also_replay() {
    // Romanian N is the bishop: with --input-lang ro, `Na3` after 1. b3 is
    // Bc1-a3, although the English reading (Nb1-a3) is legal too.
    let out = assert_cmd::Command::cargo_bin("pgnkit")
        .expect("binary")
        .args(["convert", "--to", "uci", "--input-lang", "ro", "-q"])
        .write_stdin("1. b3 d5 2. Na3 *\n")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("2. c1a3"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_game_whose_output_is_larger_than_memory_keeps_comes_out_whole_and_in_order() {
    // A chunk keeps its first 8 MB of output in memory and the rest in a
    // temporary file (`crates/driver/src/spool.rs`). One game of 400,000 plies (a
    // knight out and back, then a real game's moves after it) is about
    // 20 MB of JSON and 4 MB of LAN: both come out whole, the game after it
    // too, in input order, with one thread or two.
    let real = std::fs::read(fixture("twic944-games700-999.pgn")).expect("fixture");
    let real = &real[..cut(&real, 6000)];
    let mut pgn = String::from("[Event \"long\"]\n\n");
    let cycles = 100_000u32;
    for k in 0..cycles {
        pgn.push_str(&format!("{}. Nf3 Nf6 {}. Ng1 Ng8\n", 2 * k + 1, 2 * k + 2));
    }
    pgn.push_str("1/2-1/2\n\n");
    let mut input = pgn.into_bytes();
    input.extend_from_slice(real);
    let plies = 4 * cycles as usize;
    for jobs in ["-j1", "-j2"] {
        let json = pgnkit(
            &["convert", jobs, "-q", "--format", "json", "-"],
            Some(&input),
        );
        let lines: Vec<serde_json::Value> = json
            .text()
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is one JSON record"))
            .collect();
        assert!(lines.len() >= 2, "the long game and the games after it");
        assert_eq!(lines[0]["game"], 1);
        let moves = lines[0]["moves"].as_array().expect("moves");
        assert_eq!(moves.len(), plies, "every ply of the long game");
        assert_eq!(moves[plies - 1]["uci"], "f6g8");
        assert_eq!(moves[plies - 1]["number"], 2 * cycles);
        for (k, record) in lines.iter().enumerate() {
            assert_eq!(record["game"], k + 1, "records in input order");
        }
        let lan = pgnkit(&["convert", jobs, "-q", "--to", "lan", "-"], Some(&input));
        let text = lan.text();
        assert_eq!(
            text.matches("Ng1-f3").count(),
            cycles as usize + real_count(real, "Ng1-f3")
        );
        assert!(text.contains(&format!("{}. Nf3-g1 Nf6-g8", 2 * cycles)));
        assert_eq!(games(text.as_bytes()).len(), lines.len());
    }
}

/// How often `lan` is written when the games of `pgn` are converted to LAN.
fn real_count(pgn: &[u8], lan: &str) -> usize {
    pgnkit(&["convert", "-q", "--to", "lan", "-"], Some(pgn))
        .text()
        .matches(lan)
        .count()
}

/// Descriptive games as books print them (testdata/notation/books, see its
/// README.md): check, mate and en passant as words of their own (`RxR ch`,
/// `P-K4 dis ch`, `dbl. ch.`, `mate`, `PxP e.p.`) or glued (`QxQch`),
/// `Kt`, `Castles`, `Castles(QR)`, full file names, `N/1-Q2`. Every game
/// reads, without a warning on its marks, and its moves are exactly those
/// an independent reader (python-chess) took from the source games.
#[test]
fn descriptive_games_as_books_print_them_read() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/notation/books");
    let book = dir.join("book-games.pgn").to_string_lossy().into_owned();
    let run = pgnkit(&["check", "--format", "json", &book], None);
    let summary = run
        .text()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["type"] == "summary")
        .expect("a summary");
    assert_eq!(summary["games"], 150, "{}", run.text());
    assert_eq!(summary["games_with_errors"], 0, "{}", run.text());
    assert!(!run.text().contains("check-mark"), "{}", run.text());

    let uci = |file: &str| -> Vec<String> {
        let run = pgnkit(
            &["convert", "-q", "--to", "uci", "--format", "json", file],
            None,
        );
        run.text()
            .lines()
            .map(|l| {
                let game: serde_json::Value = serde_json::from_str(l).expect("JSON");
                let moves = game["moves"].as_array().expect("moves");
                let uci: Vec<&str> = moves.iter().filter_map(|m| m["uci"].as_str()).collect();
                uci.join(" ")
            })
            .collect()
    };
    let expected = std::fs::read_to_string(dir.join("book-games.uci")).expect("book-games.uci");
    let got = uci(&book);
    let read = got
        .iter()
        .zip(expected.lines())
        .filter(|(g, e)| g.as_str() == *e)
        .count();
    assert_eq!((read, got.len()), (150, 150), "games read as played");

    // Two famous games typed as books print them.
    let classics = dir.join("classics.pgn").to_string_lossy().into_owned();
    let run = pgnkit(&["convert", "--to", "san", &classics], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let san = run.text();
    // `Q-B6 ch!!`: the mark written again by the writer, the glyph kept.
    assert!(
        san.contains("21. Nxg7+ Kd8 22. Qf6+ $3 22... Nxf6 23. Be7# 1-0"),
        "{san}"
    );
    assert!(san.contains("12. O-O-O Rd8"), "{san}");
    assert!(san.contains("16. Qb8+ Nxb8 17. Rd8# 1-0"), "{san}");
}

/// Games converted to UCI as their moves are played (the live writer) and
/// with their moves kept first (`--add-plycount` takes that path) have the
/// same movetext: the two sinks the replay writes UCI moves into in place
/// agree, on every fixture. (The tag sections differ by the tag added, and
/// a game without tags gains one: only movetext lines are compared.)
#[test]
fn uci_written_live_and_kept_agree() {
    let movetext = |run: &Run| -> String {
        run.text()
            .split_inclusive('\n')
            .filter(|l| !l.starts_with('[') && l.trim() != "")
            .collect()
    };
    let mut e2e4 = 0;
    for file in all_fixtures() {
        let live = pgnkit(&["convert", "-q", "--to", "uci", &file], None);
        let kept = pgnkit(
            &["convert", "-q", "--to", "uci", "--add-plycount", &file],
            None,
        );
        assert_eq!(live.code, kept.code, "{file}: {}", kept.stderr);
        let (live, kept) = (movetext(&live), movetext(&kept));
        e2e4 += live.matches(" e2e4 ").count();
        if let Some(d) = first_difference(live.as_bytes(), kept.as_bytes()) {
            panic!("{file}: {d}");
        }
    }
    assert!(e2e4 > 100, "the moves are in UCI: {e2e4} e2e4");
}
