//! Properties checked on every PGN file of the shared corpus (`/work/shared/corpus`, or the directory in
//! `PGNKIT_CORPUS`): nothing is lost, splitting at hard boundaries changes nothing, and every game is
//! counted (compared with an independent line-based count).

use std::ops::Range;
use std::path::{Path, PathBuf};

use pgnkit_pgn::{Game, Reader, boundary::is_hard_boundary, game_starts_near, split_at_games};

fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("PGNKIT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/corpus"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("corpus {} not found: skipped", dir.display());
        None
    }
}

/// Every `*.pgn` under `dir` (the 66 MB benchmark copy excluded: it repeats the others).
fn pgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "bench") {
                    stack.push(path);
                }
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A comparable, owned copy of a game.
#[derive(Debug, PartialEq, Eq)]
struct Owned {
    span: Range<usize>,
    tags: Vec<(Vec<u8>, Vec<u8>, Range<usize>)>,
    tokens: Vec<(String, Range<usize>)>,
    errors: Vec<(String, Range<usize>)>,
    result_token: Option<usize>,
}

fn own(g: &Game<'_>) -> Owned {
    Owned {
        span: g.span.clone(),
        tags: g
            .tags
            .iter()
            .map(|t| (t.name.to_vec(), t.raw_value.to_vec(), t.span.clone()))
            .collect(),
        tokens: g
            .tokens
            .iter()
            .map(|t| (format!("{:?}", t.kind), t.span.clone()))
            .collect(),
        errors: g
            .errors
            .iter()
            .map(|e| (format!("{:?}", e.kind), e.span.clone()))
            .collect(),
        result_token: g.result_token,
    }
}

fn lex(input: &[u8], range: Range<usize>) -> Vec<Owned> {
    let mut reader = Reader::with_range(input, range);
    let mut game = Game::default();
    let mut out = Vec::new();
    while reader.read_game(&mut game) {
        out.push(own(&game));
    }
    out
}

/// Checks that every non-whitespace byte is inside exactly one game and inside some item of it, that
/// games come in order without overlapping, and that items lie within their game's span.
fn check_coverage(name: &str, input: &[u8], games: &[Owned]) {
    let mut covered = vec![false; input.len()];
    let mut prev_end = 0;
    for (i, g) in games.iter().enumerate() {
        assert!(
            g.span.start >= prev_end && g.span.start < g.span.end,
            "{name}: game {} span {:?} after {prev_end}",
            i + 1,
            g.span
        );
        prev_end = g.span.end;
        let items = g
            .tags
            .iter()
            .map(|t| &t.2)
            .chain(g.tokens.iter().map(|t| &t.1))
            .chain(g.errors.iter().map(|e| &e.1));
        for span in items {
            assert!(
                span.start >= g.span.start && span.end <= g.span.end && span.start < span.end,
                "{name}: item {span:?} outside game {} {:?}",
                i + 1,
                g.span
            );
            for c in &mut covered[span.clone()] {
                *c = true;
            }
        }
        let mut last = 0;
        for (_, span) in &g.tokens {
            assert!(span.start >= last, "{name}: tokens out of order");
            last = span.end;
        }
    }
    let bom = if input.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    for (offset, (&b, &c)) in input.iter().zip(&covered).enumerate().skip(bom) {
        assert!(
            c || b.is_ascii_whitespace(),
            "{name}: byte {offset} ({:?}) is in no token, tag or error",
            b as char
        );
    }
}

#[test]
fn nothing_is_lost_in_any_corpus_file() {
    let Some(dir) = corpus_dir() else { return };
    let files = pgn_files(&dir);
    assert!(files.len() > 100, "only {} PGN files", files.len());
    for path in files {
        let input = read(&path);
        let games = lex(&input, 0..input.len());
        check_coverage(&path.display().to_string(), &input, &games);
    }
}

#[test]
fn split_at_hard_boundaries_gives_the_same_games() {
    let Some(dir) = corpus_dir() else { return };
    let mut boundaries_seen = 0;
    for path in pgn_files(&dir) {
        let input = read(&path);
        let name = path.display().to_string();
        let whole = lex(&input, 0..input.len());

        // Split at every hard boundary.
        let mut cuts = vec![0];
        let mut at = 1;
        while let Some(b) = game_starts_near(&input, at) {
            assert!(is_hard_boundary(&input, b), "{name}: {b}");
            cuts.push(b);
            at = b + 1;
        }
        boundaries_seen += cuts.len() - 1;
        cuts.push(input.len());
        let mut pieces = Vec::new();
        for w in cuts.windows(2) {
            pieces.extend(lex(&input, w[0]..w[1]));
        }
        assert_eq!(whole.len(), pieces.len(), "{name}: game count");
        for (i, (a, b)) in whole.iter().zip(&pieces).enumerate() {
            assert_eq!(a, b, "{name}: game {} differs", i + 1);
        }

        // Split into a few pieces near arbitrary offsets, and lex each piece as its own slice (spans
        // shifted by the piece's start).
        for n in [2, 3, 7, 31] {
            let mut games = Vec::new();
            for piece in split_at_games(&input, n) {
                let base = piece.start;
                let slice = &input[piece];
                for mut g in lex(slice, 0..slice.len()) {
                    shift(&mut g, base);
                    games.push(g);
                }
            }
            assert_eq!(whole, games, "{name}: split in {n}");
        }
    }
    assert!(boundaries_seen > 10_000, "{boundaries_seen} boundaries");
}

fn shift(g: &mut Owned, by: usize) {
    let s = |r: &mut Range<usize>| *r = r.start + by..r.end + by;
    s(&mut g.span);
    g.tags.iter_mut().for_each(|t| s(&mut t.2));
    g.tokens.iter_mut().for_each(|t| s(&mut t.1));
    g.errors.iter_mut().for_each(|e| s(&mut e.1));
}
