//! An input's chunks worked on by the [`Driver`] on a thread of its own,
//! their results handed to Python in input order through a bounded
//! channel: the GIL is never held while Rust reads or replays, a few chunks
//! at most wait for Python (memory stays bounded on a file of any size),
//! and Python dropping the iterator stops the work.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use pyo3::prelude::*;

use pgnkit_driver::{Driver, Progress};
use pgnkit_replay::Options;
use pgnkit_source::{Chunk, Input};

use crate::replay::Counted;

/// What a chunk's work gives: numbered relative to the chunk until
/// [`Chunked::place`] places it in its input.
pub trait Chunked: Send + 'static {
    /// The games and lines of the chunk.
    fn counted(&self) -> Counted;
    /// `games` games and `lines` line breaks come before the chunk.
    fn place(&mut self, games: u64, lines: usize);
}

/// An input that could not be read to its end.
pub struct Failure {
    /// Why.
    pub message: String,
    /// Games read before the failure.
    pub games: u64,
    /// Line breaks read before it.
    pub lines: usize,
}

/// The `ReadError` of input `name` that failed after `f.games` games.
fn failure_error(py: Python<'_>, name: &str, f: &Failure) -> PyErr {
    crate::read_error(
        py,
        &format!("{name}: {}", f.message),
        name,
        Some(f.games.saturating_add(1)),
        Some(f.lines.saturating_add(1)),
    )
}

/// Chunks' results waiting for Python: at most this many.
const WAITING: usize = 4;

/// The results of an input's chunks, in order, as they are made.
pub struct Stream<T> {
    rx: Mutex<Receiver<Result<(T, u64), Failure>>>,
    /// The input's name.
    pub name: String,
    /// Its size in bytes, when known.
    pub len: Option<u64>,
    /// Bytes done so far.
    pub done: u64,
}

impl<T: Chunked> Stream<T> {
    /// Starts `work` on every chunk of `input` with `jobs` threads (none:
    /// one per core).
    pub fn start(
        input: Input,
        jobs: Option<usize>,
        work: impl Fn(&Chunk) -> T + Send + Sync + 'static,
    ) -> Stream<T> {
        let (tx, rx) = sync_channel(WAITING);
        let (name, len) = (input.name.clone(), input.len);
        // Dropped at the end of this function, so that the channel ends
        // when the thread does.
        let failed = tx.clone();
        let spawned = std::thread::Builder::new()
            .name("pgnkit-python".to_owned())
            .spawn(move || run(input, jobs, work, &tx));
        if let Err(e) = spawned {
            let _ = failed.send(Err(Failure {
                message: format!("cannot start a thread: {e}"),
                games: 0,
                lines: 0,
            }));
        }
        Stream {
            rx: Mutex::new(rx),
            name,
            len,
            done: 0,
        }
    }

    /// The next chunk's result (`None` at the end), waited for without the
    /// GIL.
    pub fn next(&mut self, py: Python<'_>) -> Option<Result<T, Failure>> {
        let rx = &self.rx;
        let next = py.detach(|| rx.lock().ok().and_then(|rx| rx.recv().ok()));
        match next {
            Some(Ok((t, bytes))) => {
                self.done = self.done.saturating_add(bytes);
                Some(Ok(t))
            }
            Some(Err(f)) => Some(Err(f)),
            None => None,
        }
    }
}

/// The driver's run, on its thread.
fn run<T: Chunked>(
    input: Input,
    jobs: Option<usize>,
    work: impl Fn(&Chunk) -> T + Sync,
    tx: &SyncSender<Result<(T, u64), Failure>>,
) {
    let mut at = Counted {
        games: input.origin.games,
        lines: input.origin.lines,
    };
    let driver = Driver::new(jobs);
    let result = driver.and_then(|driver| {
        driver.run(
            input,
            &Progress::new(true, None),
            work,
            |chunk, mut out: T| {
                out.place(at.games, at.lines);
                let counted = out.counted();
                at.games = at.games.saturating_add(counted.games);
                at.lines = at.lines.saturating_add(counted.lines);
                tx.send(Ok((out, chunk.range.len() as u64)))
                    .map_err(|_| anyhow::anyhow!("the reader stopped"))
            },
        )
    });
    if let Err(e) = result {
        let _ = tx.send(Err(Failure {
            message: format!("{e:#}"),
            games: at.games,
            lines: at.lines,
        }));
    }
}

/// How to read (`pgnkit._reading`): `(lang, illegal_moves, jobs, progress)`.
#[derive(FromPyObject)]
pub struct Reading(String, String, Option<usize>, Option<Py<PyAny>>);

/// A stream behind a Python iterator: a failure raised as `ReadError`,
/// the progress callback called after each chunk.
pub struct Feed<T> {
    stream: Stream<T>,
    progress: Option<Py<PyAny>>,
}

impl<T: Chunked> Feed<T> {
    /// Opens `source` and starts the work `make` makes of the replay's
    /// options on its chunks, as `reading` says.
    pub fn open<W>(
        py: Python<'_>,
        source: crate::Source,
        Reading(lang, illegal_moves, jobs, progress): Reading,
        make: impl FnOnce(Options) -> W,
    ) -> PyResult<Feed<T>>
    where
        W: Fn(&Chunk) -> T + Send + Sync + 'static,
    {
        let work = make(crate::replay_options(&lang, &illegal_moves)?);
        let input = crate::open_input(py, source)?;
        Ok(Feed {
            stream: Stream::start(input, jobs, work),
            progress,
        })
    }

    /// The next chunk's result, `None` at the end.
    pub fn next(&mut self, py: Python<'_>) -> PyResult<Option<T>> {
        match self.stream.next(py) {
            None => Ok(None),
            Some(Err(f)) => Err(failure_error(py, &self.stream.name, &f)),
            Some(Ok(t)) => {
                if let Some(p) = &self.progress {
                    p.call1(py, (self.stream.done, self.stream.len))?;
                }
                Ok(Some(t))
            }
        }
    }
}
