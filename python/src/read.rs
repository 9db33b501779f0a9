//! `pgnkit.read`'s iterator: the games of an input, chunk by chunk.

use std::collections::VecDeque;
use std::sync::Arc;

use pyo3::prelude::*;

use pgnkit_source::Chunk;

use crate::game::{Game, GameData};
use crate::replay::{Counted, each_game};
use crate::stream::{Chunked, Failure, Stream};

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

/// The `ReadError` of an input that failed after `f.games` games.
pub(crate) fn failure_error(py: Python<'_>, name: &str, f: &Failure) -> PyErr {
    crate::read_error(
        py,
        &format!("{name}: {}", f.message),
        name,
        Some(f.games.saturating_add(1)),
        Some(f.lines.saturating_add(1)),
    )
}

/// Calls `progress(bytes_done, total_bytes)` if there is one.
pub(crate) fn report_progress(
    py: Python<'_>,
    progress: Option<&Py<PyAny>>,
    done: u64,
    total: Option<u64>,
) -> PyResult<()> {
    if let Some(p) = progress {
        p.call1(py, (done, total))?;
    }
    Ok(())
}

/// The games of an input, replayed on worker threads a few chunks ahead
/// (made by `pgnkit.read`).
#[pyclass(module = "pgnkit")]
pub struct Games {
    stream: Stream<ChunkGames>,
    ready: VecDeque<GameData>,
    progress: Option<Py<PyAny>>,
}

#[pymethods]
impl Games {
    /// The games of the file at `path`, or of `data` (named `name`).
    #[new]
    #[pyo3(signature = (path=None, data=None, name="<bytes>", lang="auto", illegal_moves="stop", jobs=None, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        path: Option<String>,
        data: Option<Vec<u8>>,
        name: &str,
        lang: &str,
        illegal_moves: &str,
        jobs: Option<usize>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Games> {
        let options = crate::replay_options(lang, illegal_moves)?;
        let input = crate::open_input(py, path, data, name)?;
        let file: Arc<str> = input.name.as_str().into();
        let work = move |chunk: &Chunk| {
            let mut games = Vec::new();
            let counted = each_game(chunk, &options, |r| {
                games.push(GameData::of(&file, &chunk.data, r));
            });
            ChunkGames { games, counted }
        };
        Ok(Games {
            stream: Stream::start(input, jobs, work),
            ready: VecDeque::new(),
            progress,
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
            match self.stream.next(py) {
                None => return Ok(None),
                Some(Err(f)) => return Err(failure_error(py, &self.stream.name, &f)),
                Some(Ok(chunk)) => {
                    self.ready.extend(chunk.games);
                    report_progress(
                        py,
                        self.progress.as_ref(),
                        self.stream.done,
                        self.stream.len,
                    )?;
                }
            }
        }
    }
}
