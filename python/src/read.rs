//! `pgnkit.read`'s iterator: the games of an input, chunk by chunk.

use std::collections::VecDeque;
use std::sync::Arc;

use pyo3::prelude::*;

use pgnkit_source::Chunk;

use crate::game::{Game, GameData};
use crate::replay::{Counted, each_game};
use crate::stream::{Chunked, Feed};

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
    /// The games of `source`.
    #[new]
    #[pyo3(signature = (source, lang="auto", illegal_moves="stop", jobs=None, progress=None))]
    fn new(
        py: Python<'_>,
        source: crate::Source,
        lang: &str,
        illegal_moves: &str,
        jobs: Option<usize>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Games> {
        let options = crate::replay_options(lang, illegal_moves)?;
        let illegal = options.illegal_moves;
        let file: Arc<str> = source.name().into();
        let work = move |chunk: &Chunk| {
            let mut games = Vec::new();
            let counted = each_game(chunk, &options, |r| {
                games.push(GameData::of(&file, &chunk.data, illegal, r));
            });
            ChunkGames { games, counted }
        };
        Ok(Games {
            feed: Feed::open(py, source, jobs, progress, work)?,
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
