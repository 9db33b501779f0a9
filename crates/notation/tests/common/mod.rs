//! Loading real games for tests and benches: every main-line position with the
//! SAN token played there and the move it means.
#![allow(dead_code, missing_docs)]

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen};

/// One ply of a real game.
pub struct Ply {
    pub pos: Chess,
    pub token: String,
    pub m: Move,
}

/// One game: its start position and plies.
pub struct Game {
    pub start: Chess,
    pub plies: Vec<Ply>,
}

#[derive(Default)]
struct Tags {
    fen: Option<Vec<u8>>,
    chess960: bool,
}

struct Collect {
    limit_plies: usize,
    total: usize,
}

impl Visitor for Collect {
    type Tags = Tags;
    type Movetext = Option<Game>;
    type Output = Option<Game>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            tags.fen = Some(value.as_bytes().to_vec());
        }
        if name == b"Variant" && String::from_utf8_lossy(value.as_bytes()).contains("960") {
            tags.chess960 = true;
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let mode = if tags.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let start = match tags.fen {
            None => Some(Chess::default()),
            Some(fen) => Fen::from_ascii(&fen)
                .ok()
                .and_then(|f| f.into_position(mode).ok()),
        };
        ControlFlow::Continue(start.map(|start| Game {
            start,
            plies: Vec::new(),
        }))
    }

    fn san(&mut self, game: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let Some(g) = game else {
            return ControlFlow::Continue(());
        };
        let pos = g.plies.last().map_or_else(
            || g.start.clone(),
            |p| {
                let mut after = p.pos.clone();
                after.play_unchecked(p.m);
                after
            },
        );
        match san_plus.san.to_move(&pos) {
            Ok(m) => {
                g.plies.push(Ply {
                    pos,
                    token: san_plus.to_string(),
                    m,
                });
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Continue(()), // keep what replayed; the rest is not this test's business
        }
    }

    fn end_game(&mut self, game: Self::Movetext) -> Self::Output {
        if let Some(g) = &game {
            self.total += g.plies.len();
        }
        game
    }
}

/// The benchmarks' input: the file `PGNKIT_BENCH_PGN` names (default: the
/// corpus's bench/real.pgn beside the repository), up to
/// `PGNKIT_BENCH_PLIES` plies (default 500,000).
#[allow(dead_code)] // used by the benches, not by every test
pub fn bench_input() -> (std::path::PathBuf, Vec<Game>) {
    let path = std::env::var_os("PGNKIT_BENCH_PGN").map_or_else(
        || {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../../shared/corpus/bench/real.pgn")
        },
        std::path::PathBuf::from,
    );
    let limit: usize = std::env::var("PGNKIT_BENCH_PLIES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500_000);
    let games = load(&path, limit);
    (path, games)
}

/// Reads the games of one PGN file, stopping once `limit_plies` plies are collected.
pub fn load(path: &Path, limit_plies: usize) -> Vec<Game> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = Reader::new(std::io::BufReader::new(file));
    let mut v = Collect {
        limit_plies,
        total: 0,
    };
    let mut games = Vec::new();
    while let Ok(Some(game)) = reader.read_game(&mut v) {
        if let Some(g) = game {
            games.push(g);
        }
        if v.total >= v.limit_plies {
            break;
        }
    }
    games
}

/// The test data folder (testdata/notation).
pub fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/notation")
}

/// Every game of testdata/notation.
pub fn all_test_games() -> Vec<Game> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(testdata())
        .expect("testdata/notation")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    files.iter().flat_map(|p| load(p, usize::MAX)).collect()
}
