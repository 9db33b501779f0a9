//! `pgnkit convert`'s shaping flags against pgn-extract's own test cases
//! (testdata/pgn-extract, see its README.md): for each pgn-extract option
//! mapped, pgnkit runs on the test's input and the games it writes are
//! compared with pgn-extract's expected output, tag by tag and token by
//! token (moves, comments, NAGs, variations, results), never by layout:
//! comments are compared with their spaces collapsed, tags as a set, and
//! move numbers only where they are the point (`--no-move-numbers`).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use pgnkit_pgn::{Game, Reader, TokenKind};

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/pgn-extract")
        .join(path)
}

fn input(name: &str) -> String {
    data(&format!("infiles/{name}"))
        .to_string_lossy()
        .into_owned()
}

fn expected(name: &str) -> Vec<u8> {
    std::fs::read(data(&format!("outfiles/{name}"))).expect("an expected output")
}

/// Runs `pgnkit ARGS`, `stdin` on its standard input; its standard output.
fn pgnkit(args: &[&str], stdin: Option<&[u8]>) -> Vec<u8> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pgnkit runs");
    if let (Some(bytes), Some(mut pipe)) = (stdin, child.stdin.take()) {
        pipe.write_all(bytes).expect("stdin taken");
    }
    let out = child.wait_with_output().expect("pgnkit ends");
    assert!(
        out.status.success(),
        "pgnkit {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `pgnkit convert -q ARGS`.
fn convert(args: &[&str]) -> Vec<u8> {
    let mut all = vec!["convert", "-q"];
    all.extend_from_slice(args);
    pgnkit(&all, None)
}

/// A game as compared: its tags (a set) and its movetext tokens.
#[derive(Debug, PartialEq, Eq)]
struct Shaped {
    tags: BTreeSet<(String, String)>,
    tokens: Vec<String>,
}

/// The games of `pgn`, move numbers kept when `numbers`.
fn games(pgn: &[u8], numbers: bool) -> Vec<Shaped> {
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    let mut out = Vec::new();
    while reader.read_game(&mut game) {
        let tags = game
            .tags
            .iter()
            .map(|t| {
                (
                    String::from_utf8_lossy(t.name).into_owned(),
                    String::from_utf8_lossy(&t.value()).into_owned(),
                )
            })
            .collect();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let tokens = game
            .tokens
            .iter()
            .filter_map(|t| match t.kind {
                TokenKind::MoveNumber { number, black } => {
                    numbers.then(|| format!("{number}{}", if black { "..." } else { "." }))
                }
                TokenKind::Nag(n) => Some(format!("${n}")),
                TokenKind::Comment => {
                    let words: Vec<String> =
                        text(t.text).split_whitespace().map(str::to_owned).collect();
                    Some(format!("{{{}}}", words.join(" ")))
                }
                TokenKind::OpenVariation => Some("(".to_owned()),
                TokenKind::CloseVariation => Some(")".to_owned()),
                TokenKind::Result(r) => Some(r.as_str().to_owned()),
                _ => Some(text(t.text)),
            })
            .collect();
        out.push(Shaped { tags, tokens });
    }
    out
}

/// The games pgnkit wrote are those of the expected output.
fn same_games(ours: &[u8], theirs: &[u8]) {
    let (ours, theirs) = (games(ours, false), games(theirs, false));
    assert!(!theirs.is_empty());
    assert_eq!(ours, theirs);
}

/// `convert FLAGS input` writes the games of `output`.
fn agrees(flags: &[&str], input_name: &str, output: &str) -> Vec<u8> {
    let mut args = flags.to_vec();
    let file = input(input_name);
    args.push(&file);
    let ours = convert(&args);
    same_games(&ours, &expected(output));
    ours
}

#[test]
fn stripping_comments_nags_variations_and_tags_keeps_the_rest() {
    // pgn-extract -C, -N, -V, --notags, -7.
    let ours = agrees(&["--no-comments"], "test-C.pgn", "test-CC-out.pgn");
    assert!(!ours.contains(&b'{'));
    let ours = agrees(&["--no-nags"], "test-N.pgn", "test-NN-out.pgn");
    assert!(!ours.contains(&b'$'));
    let ours = agrees(&["--no-variations"], "test-V.pgn", "test-VV-out.pgn");
    assert!(!ours.contains(&b'('));
    let ours = agrees(&["--no-tags"], "test-notags.pgn", "test-notags-out.pgn");
    assert!(ours.starts_with(b"{"));
    agrees(&["--roster"], "test-7.pgn", "test-7-out.pgn");
}

#[test]
fn stripping_check_marks_numbers_and_results() {
    // pgn-extract --nochecks, --nomovenumbers, --noresults.
    let ours = agrees(
        &["--no-check-marks"],
        "test-nochecks.pgn",
        "test-nochecks-out.pgn",
    );
    assert!(!ours.contains(&b'+') && !ours.contains(&b'#'));
    let ours = agrees(
        &["--no-move-numbers"],
        "test-nomovenumbers.pgn",
        "test-nomovenumbers-out.pgn",
    );
    // With the numbers compared too: none on either side.
    assert_eq!(
        games(&ours, true),
        games(&expected("test-nomovenumbers-out.pgn"), true)
    );
    agrees(
        &["--no-results"],
        "test-noresults.pgn",
        "test-noresults-out.pgn",
    );
}

#[test]
fn strip_flags_combine() {
    // -C -N -V --notags at once: the moves of test-C's main line and nothing else.
    let ours = convert(&[
        "--no-comments",
        "--no-nags",
        "--no-variations",
        "--no-tags",
        "--no-move-numbers",
        "--no-check-marks",
        "--no-results",
        "--width",
        "0",
        &input("test-C.pgn"),
    ]);
    let main_line: Vec<String> = games(&expected("test-VV-out.pgn"), false)[0]
        .tokens
        .iter()
        .filter(|t| !t.starts_with(['{', '$']) && t.as_str() != "1/2-1/2")
        .map(|t| t.trim_end_matches(['+', '#']).to_owned())
        .collect();
    let text = String::from_utf8(ours).expect("UTF-8");
    assert_eq!(text.trim_end().split(' ').collect::<Vec<_>>(), main_line);
    assert_eq!(text.trim_end().lines().count(), 1);
}

#[test]
fn line_width() {
    // pgn-extract -w60, -w75, -w1000.
    for (width, output) in [
        ("60", "test-w60-out.pgn"),
        ("75", "test-w75-out.pgn"),
        ("1000", "test-w1000-out.pgn"),
    ] {
        let ours = agrees(&["--width", width], "test-w.pgn", output);
        let limit: usize = width.parse().expect("a number");
        let text = String::from_utf8(ours).expect("UTF-8");
        let movetext: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('[') && !l.is_empty())
            .collect();
        // A comment is never broken: a line holding one may be longer.
        assert!(
            movetext
                .iter()
                .all(|l| l.chars().count() < limit || l.contains(['{', '}'])),
            "{width}: {movetext:?}"
        );
        if limit == 1000 {
            // One line, but for the line breaks inside comments (kept).
            let mut depth = 0;
            let breaks = text
                .split("\n\n")
                .nth(1)
                .expect("movetext")
                .chars()
                .filter(|&c| {
                    depth += i32::from(c == '{') - i32::from(c == '}');
                    c == '\n' && depth == 0
                })
                .count();
            assert_eq!(breaks, 0, "{movetext:?}");
        }
    }
}

#[test]
fn each_variation_becomes_a_game() {
    // pgn-extract --splitvariants: every game, comments and all.
    agrees(
        &["--split-variations"],
        "test-splitvariants.pgn",
        "test-splitvariants-out.pgn",
    );
}

#[test]
fn positions_out() {
    // pgn-extract -Wepd: every position of the game, from the start; the
    // four fields of EPD compared (pgn-extract adds c0/c1 opcodes).
    let ours = convert(&["--to", "epd", "--all-positions", &input("test-ucW.pgn")]);
    let theirs = expected("test-WWepd-out.pgn");
    let fields = |text: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(text)
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| l.split(' ').take(4).collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert!(fields(&theirs).len() > 70);
    assert_eq!(fields(&ours), fields(&theirs));
    // The last position alone, in FEN: the last EPD with its clocks.
    let fen = convert(&["--to", "fen", &input("test-ucW.pgn")]);
    let fen = String::from_utf8(fen).expect("UTF-8");
    assert_eq!(fen.lines().count(), 1);
    assert!(fen.starts_with(&format!("{} ", fields(&theirs).last().expect("one"))));
}

#[test]
fn fen_comments_and_ply_count() {
    // pgn-extract --fencomments, --plycount.
    agrees(
        &["--fen-comments"],
        "test-fencomments.pgn",
        "test-fencomments-out.pgn",
    );
    let ours = convert(&["--add-plycount", &input("test-plycount.pgn")]);
    let mut theirs = games(&expected("test-plycount-out.pgn"), false);
    // The make target also passes --totalplycount, which pgnkit has no flag for.
    for game in &mut theirs {
        game.tags.retain(|(name, _)| name != "TotalPlyCount");
    }
    assert!(theirs[0].tags.contains(&("PlyCount".into(), "72".into())));
    assert_eq!(games(&ours, false), theirs);
}

#[test]
fn games_chosen_by_number() {
    // pgn-extract -TpPetrosian --selectonly 2,3 and -TpKeres --skipmatching
    // 1,2: the player chosen by `search`, the games by number by `convert`.
    for (player, flag, list, output) in [
        (
            "Petrosian",
            "--select-games",
            "2,3",
            "test-selectonly-out.pgn",
        ),
        ("Keres", "--skip-games", "1,2", "test-skipmatching-out.pgn"),
    ] {
        let found = pgnkit(&["search", "--player", player, &input("fischer.pgn")], None);
        let ours = pgnkit(&["convert", "-q", flag, list, "-"], Some(&found));
        same_games(&ours, &expected(output));
    }
}

#[test]
fn files_of_n_games() {
    // pgn-extract -#20: 1.pgn with games 1-20, 2.pgn with the other 15.
    let dir = tempfile::tempdir().expect("a folder");
    let pattern = dir.path().join("{n}.pgn");
    let pattern = pattern.to_string_lossy();
    convert(&["--split", "20", "-o", &pattern, &input("test-hash.pgn")]);
    for part in ["1.pgn", "2.pgn"] {
        let ours = std::fs::read(dir.path().join(part)).expect("a part");
        same_games(&ours, &expected(part));
    }
    assert!(!dir.path().join("3.pgn").exists());
    // `{}` as the marker: 30 and 5 games.
    let pattern = dir.path().join("part-{}.pgn");
    convert(&[
        "--split",
        "30",
        "-o",
        &pattern.to_string_lossy(),
        &input("test-hash.pgn"),
    ]);
    let count = |name: &str| {
        games(
            &std::fs::read(dir.path().join(name)).expect("a part"),
            false,
        )
        .len()
    };
    assert_eq!((count("part-1.pgn"), count("part-2.pgn")), (30, 5));
}

#[test]
fn long_algebraic_with_the_kings_castling_move() {
    // pgn-extract -Wxlalg: `Ng1-f3`, `e4xd5`, castling `e1-g1`.
    let ours = agrees(
        &["--to", "lan", "--castling", "king"],
        "test-ucW.pgn",
        "test-WWxlalg-out.pgn",
    );
    assert!(String::from_utf8_lossy(&ours).contains("e8-g8"));
    // The other marks: a pawn letter and `:` for captures.
    let styled = convert(&[
        "--to",
        "lan",
        "--pawn-letter",
        "--capture-mark",
        "colon",
        &input("test-ucW.pgn"),
    ]);
    let styled = String::from_utf8(styled).expect("UTF-8").replace('\n', " ");
    assert!(styled.contains("1. Pb2-b3 Pe7-e5 2. Bc1-b2 Pd7-d6 3. Pd2-d4 Pe5:d4 4. Qd1:d4"));
    assert!(styled.contains(" O-O "));
}

#[test]
fn uci_commands_one_a_game() {
    // pgn-extract -Wuci writes the moves of the game in UCI on one line.
    let ours = convert(&["--to", "uci", "--format", "line", &input("test-ucW.pgn")]);
    let ours = String::from_utf8(ours).expect("UTF-8");
    let theirs = String::from_utf8(expected("test-WWuci-out.pgn")).expect("UTF-8");
    let moves = theirs
        .lines()
        .find(|l| l.starts_with("b2b3"))
        .expect("the moves")
        .trim_end_matches(" 1/2-1/2");
    assert_eq!(ours, format!("position startpos moves {moves}\n"));
    // A game from a FEN tag starts from it.
    let pgn = b"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n";
    let line = pgnkit(
        &["convert", "-q", "--to", "uci", "--format", "line", "-"],
        Some(pgn),
    );
    assert_eq!(
        String::from_utf8_lossy(&line),
        "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4 e8d7\n"
    );
}

#[test]
fn flags_that_do_not_go_together_are_refused() {
    let file = input("test-C.pgn");
    for args in [
        &["--to", "fen", "--no-comments"][..],
        &["--to", "epd", "--format", "json"],
        &["--all-positions"],
        &["--format", "line"],
        &["--format", "json", "--split-variations"],
        &["--pawn-letter"],
        &["--castling", "king", "--to", "figurine"],
        &["--split", "2", "-o", "no-number.pgn"],
        &["--select-games", "0"],
        &["--select-games", "1", "--skip-games", "2"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
            .arg("convert")
            .args(args)
            .arg(&file)
            .output()
            .expect("pgnkit runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!Path::new("no-number.pgn").exists());
}

#[test]
fn game_numbers_count_over_all_inputs() {
    // test-C (1 game), test-7 (1 game), test-nochecks (2 games): game 3 is
    // the first of test-nochecks, the fool's mate.
    let ours = convert(&[
        "--select-games",
        "3",
        &input("test-C.pgn"),
        &input("test-7.pgn"),
        &input("test-nochecks.pgn"),
    ]);
    let games = games(&ours, false);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tokens, ["f3", "e5", "g4", "Qh4#", "0-1"]);
}
