//! `pgnkit search`'s filters against pgn-extract's own test cases
//! (testdata/pgn-extract, see its SEARCH.md): for each pgn-extract option
//! mapped (`-b`/`-p` ply bounds, `--checkmate`, `--stalemate`, `-v`, `-z`,
//! `FENPattern`, `-n`), pgnkit selects the games of pgn-extract's expected
//! output, in order, with `--scan` and with an index. Games are compared by
//! their players, date, round and replayed moves, not by their formatting.

#![allow(clippy::unwrap_used)] // test helpers: a failure is a test failure

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};

fn data(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/pgn-extract")
        .join(dir)
        .join(name)
}

/// Each game of a PGN text: its players, date and round, and its main line
/// in UCI.
fn games(pgn: &[u8]) -> Vec<String> {
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    let mut out = Vec::new();
    let options = Options {
        suggestions: false,
        ..Options::default()
    };
    while reader.read_game(&mut game) {
        if game.is_comment_only() {
            continue;
        }
        let report = replay_game(pgn, &game, &options);
        let tag = |name: &str| {
            game.tag(name)
                .map(|t| String::from_utf8_lossy(&t.value()).into_owned())
                .unwrap_or_default()
        };
        let moves: Vec<String> = report
            .moves
            .iter()
            .map(|m| {
                m.played
                    .to_uci(shakmaty::CastlingMode::Standard)
                    .to_string()
            })
            .collect();
        out.push(format!(
            "{} - {} ({}, round {}): {}",
            tag("White"),
            tag("Black"),
            tag("Date"),
            tag("Round"),
            moves.join(" ")
        ));
    }
    out
}

/// The input files copied into a fresh directory, one of them indexed.
struct Inputs {
    dir: tempfile::TempDir,
}

impl Inputs {
    fn new() -> Inputs {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "fischer.pgn",
            "najdorf.pgn",
            "petrosian.pgn",
            "test-checkmate.pgn",
            "test-stalemate.pgn",
        ] {
            fs::copy(data("infiles", name), dir.path().join(name)).unwrap();
            let out = Command::cargo_bin("pgnkit")
                .unwrap()
                .args(["index", "-q"])
                .arg(dir.path().join(name))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Inputs { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `pgnkit search -q ARGS INPUT`, with the index and with `--scan`:
    /// both print the same games, which are returned.
    fn search(&self, input: &str, args: &[&str]) -> Vec<String> {
        let run = |scan: bool| {
            let mut cmd = Command::cargo_bin("pgnkit").unwrap();
            cmd.args(["search", "-q"]).args(args);
            if scan {
                cmd.arg("--scan");
            }
            let out = cmd.arg(self.path(input)).output().unwrap();
            assert!(
                out.status.code().is_some_and(|c| c <= 1),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            out.stdout
        };
        let (indexed, scanned) = (run(false), run(true));
        assert_eq!(indexed, scanned, "{args:?}: the index and a scan disagree");
        games(&scanned)
    }
}

fn expected(name: &str) -> Vec<String> {
    games(&fs::read(data("outfiles", name)).unwrap())
}

/// The first line of a pgn-extract pattern file that is no comment.
fn pattern(name: &str) -> String {
    let text = fs::read_to_string(data("infiles", name)).unwrap();
    text.lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('%'))
        .unwrap()
        .trim()
        .to_owned()
}

#[test]
fn ply_and_move_bounds_select_as_b_and_p_do() {
    let inputs = Inputs::new();
    // pgn-extract counts moves as (plies + 1) / 2: at least 45 moves is at
    // least 89 plies, at most 45 is at most 90, exactly 30 is 59 or 60.
    for (plies, out) in [
        ("89..", "test-bl45-out.pgn"),
        ("..90", "test-bu45-out.pgn"),
        ("59..60", "test-b30-out.pgn"),
        ("90..", "test-pl90-out.pgn"),
        ("..90", "test-pu90-out.pgn"),
        ("60", "test-p60-out.pgn"),
    ] {
        let want = expected(out);
        assert!(!want.is_empty(), "{out}");
        assert_eq!(
            inputs.search("fischer.pgn", &["--plies", plies]),
            want,
            "--plies {plies} against {out}"
        );
    }
}

#[test]
fn statuses_select_as_checkmate_and_stalemate_do() {
    let inputs = Inputs::new();
    for (status, input, out) in [
        ("checkmate", "test-checkmate.pgn", "test-checkmate-out.pgn"),
        ("stalemate", "test-stalemate.pgn", "test-stalemate-out.pgn"),
    ] {
        let all = games(&fs::read(inputs.path(input)).unwrap());
        let want = expected(out);
        assert!(!want.is_empty() && want.len() < all.len(), "{out}");
        assert_eq!(
            inputs.search(input, &["--status", status]),
            want,
            "{status}"
        );
    }
}

#[test]
fn move_lines_material_and_board_patterns_select_as_v_z_and_fenpattern_do() {
    let inputs = Inputs::new();
    let line = pattern("vvars.txt");
    assert!(line.contains('*'), "the line has wildcards: {line}");
    assert_eq!(
        inputs.search("najdorf.pgn", &["--moves", &line]),
        expected("test-v-out.pgn")
    );
    assert_eq!(
        inputs.search("fischer.pgn", &["--material", &pattern("zmatch.txt")]),
        expected("test-z-out.pgn")
    );
    // FENPattern "P" matches P; FENPatternI "P" matches P and P with the
    // ranks reversed and the colours swapped.
    let text = fs::read_to_string(data("infiles", "test-FENPattern.txt")).unwrap();
    let mut args = Vec::new();
    for line in text.lines() {
        let Some((kind, rest)) = line.split_once(' ') else {
            continue;
        };
        let Some(board) = rest.split('"').nth(1) else {
            continue;
        };
        match kind {
            "FENPattern" => args.push(board.to_owned()),
            "FENPatternI" => {
                args.push(board.to_owned());
                let reversed: Vec<String> = board
                    .split('/')
                    .rev()
                    .map(|rank| {
                        rank.chars()
                            .map(|c| {
                                if c.is_ascii_uppercase() {
                                    c.to_ascii_lowercase()
                                } else {
                                    c.to_ascii_uppercase()
                                }
                            })
                            .collect()
                    })
                    .collect();
                args.push(reversed.join("/"));
            }
            _ => {}
        }
    }
    assert_eq!(args.len(), 3, "{args:?}");
    let args: Vec<&str> = args
        .iter()
        .flat_map(|a| ["--fen-pattern", a.as_str()])
        .collect();
    assert_eq!(
        inputs.search("petrosian.pgn", &args),
        expected("test-FENPattern-out.pgn")
    );
}

#[test]
fn non_matching_games_go_to_their_file_in_the_same_pass_as_n() {
    let inputs = Inputs::new();
    for scan in [false, true] {
        let rest = inputs.path(if scan { "rest-scan.pgn" } else { "rest.pgn" });
        let mut cmd = Command::cargo_bin("pgnkit").unwrap();
        cmd.args(["search", "-q", "--player", "Fischer", "--non-matching"])
            .arg(&rest);
        if scan {
            cmd.arg("--scan");
        }
        let out = cmd.arg(inputs.path("petrosian.pgn")).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(games(&out.stdout), expected("test-n-matched.pgn"));
        assert_eq!(
            games(&fs::read(&rest).unwrap()),
            expected("test-n-unmatched.pgn")
        );
    }
}

/// The plies of each game of a PGN text, replayed.
fn plies(pgn: &[u8]) -> Vec<u32> {
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    let mut out = Vec::new();
    while reader.read_game(&mut game) {
        out.push(replay_game(pgn, &game, &Options::default()).plies);
    }
    out
}

#[test]
fn groups_inversion_order_and_pages_compose_as_documented() {
    let inputs = Inputs::new();
    let all = games(&fs::read(inputs.path("fischer.pgn")).unwrap());
    let petrosian = inputs.search("fischer.pgn", &["--player", "Petrosian"]);
    let keres = inputs.search("fischer.pgn", &["--player", "Keres"]);
    assert!(!petrosian.is_empty() && !keres.is_empty());
    // --or: the union, in file order.
    let either = inputs.search(
        "fischer.pgn",
        &["--player", "Petrosian", "--or", "--player 'Keres'"],
    );
    let union: Vec<String> = all
        .iter()
        .filter(|g| petrosian.contains(g) || keres.contains(g))
        .cloned()
        .collect();
    assert_eq!(either, union);
    // --invert: the rest, in file order.
    let rest = inputs.search("fischer.pgn", &["--invert", "--player", "Petrosian"]);
    assert_eq!(rest.len() + petrosian.len(), all.len());
    assert!(rest.iter().all(|g| !petrosian.contains(g)));
    // --tag on a stored tag agrees with the stored filter.
    assert_eq!(
        inputs.search("fischer.pgn", &["--tag", "Black~petrosian"]),
        inputs.search("fischer.pgn", &["--black", "Petrosian"])
    );
    // --claim: the games check --games reports a claim for.
    let claims = inputs.search("fischer.pgn", &["--claim", "threefold"]);
    assert!(!claims.is_empty() && claims.len() < all.len());
    // --sort plies: fewest first; --offset and --limit page through it.
    let sorted = inputs.search("fischer.pgn", &["--sort", "plies"]);
    assert_eq!(sorted.len(), all.len());
    let run = |args: &[&str]| {
        let out = Command::cargo_bin("pgnkit")
            .unwrap()
            .args(["search", "-q"])
            .args(args)
            .arg(inputs.path("fischer.pgn"))
            .output()
            .unwrap();
        out.stdout
    };
    let counts = plies(&run(&["--sort", "plies"]));
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert_eq!(
        inputs.search(
            "fischer.pgn",
            &["--sort", "plies", "--offset", "5", "--limit", "3"]
        ),
        sorted[5..8]
    );
    assert_eq!(
        inputs.search("fischer.pgn", &["--offset", "30", "--limit", "10"]),
        all[30..]
    );
    // A bad group or pattern is a usage error that names it.
    for bad in [
        &["--or", "--bogus 1"][..],
        &["--or", "--white 'unclosed"],
        &["--material", "r?"],
        &["--fen-pattern", "8/8"],
        &["--tag", "Elo>=high"],
        &["--ply", "3"],
    ] {
        let out = Command::cargo_bin("pgnkit")
            .unwrap()
            .args(["search", "-q"])
            .args(bad)
            .arg(inputs.path("fischer.pgn"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty(), "{bad:?}");
    }
}
