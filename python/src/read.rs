//! `pgnkit.read`'s iterator: the games of an input, chunk by chunk.

use std::collections::VecDeque;
use std::sync::Arc;

use pyo3::prelude::*;

use pgnkit_source::Chunk;

use crate::game::{Game, GameData};
use crate::replay::{Counted, each_game};
use crate::stream::{Chunked, Feed, Reading};

/// The games of one chunk.
struct ChunkGames {
    games: Vec<GameData>,
    counted: Counted,
}

impl Chunked for ChunkGames {
    fn counted(&self) -> Counted {
        self.counted
    }

    fn place(&mut self, games: u64, lines: usize) {
        for g in &mut self.games {
            g.place(games, lines);
        }
    }
}

/// The games of an input, replayed on worker threads a few chunks ahead
/// (made by `pgnkit.read`).
#[pyclass(module = "pgnkit")]
pub struct Games {
    feed: Feed<ChunkGames>,
    ready: VecDeque<GameData>,
}

#[pymethods]
impl Games {
    /// The games of `source`, read as `reading` says.
    #[new]
    fn new(py: Python<'_>, source: crate::Source, reading: Reading) -> PyResult<Games> {
        let file: Arc<str> = source.name().into();
        let feed = Feed::open(py, source, reading, |options| {
            move |chunk: &Chunk| {
                let mut games = Vec::new();
                let counted = each_game(chunk, &options, |r| {
                    games.push(GameData::of(&file, &chunk.data, &options, r));
                });
                ChunkGames { games, counted }
            }
        })?;
        Ok(Games {
            feed,
            ready: VecDeque::new(),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Game>> {
        loop {
            if let Some(g) = self.ready.pop_front() {
                return Ok(Some(Game::new(g)));
            }
            match self.feed.next(py)? {
                None => return Ok(None),
                Some(chunk) => self.ready.extend(chunk.games),
            }
        }
    }
}
