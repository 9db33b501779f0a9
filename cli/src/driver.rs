//! The parallel, ordered driver: chunks of every input go to a pool of
//! worker threads in batches; results come back in input order, whatever
//! the number of threads, and are handed to a sink on the calling thread.
//! Memory stays bounded: one batch of chunks is alive at a time, and the
//! pages of a mapped file are released once their chunk is done.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::input::{CHUNK_SIZE, Chunk, Input};

/// Runs work on chunks.
pub struct Driver {
    pool: rayon::ThreadPool,
    threads: usize,
}

impl Driver {
    /// A driver with `jobs` worker threads (default: all cores).
    pub fn new(jobs: Option<usize>) -> anyhow::Result<Driver> {
        let threads = jobs
            .filter(|&j| j > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        Ok(Driver { pool, threads })
    }

    /// Runs `work` on every chunk of `input` and gives the results, in input
    /// order, to `sink` together with their chunk.
    pub fn run<T, W, S>(
        &self,
        input: Input,
        progress: &Progress,
        work: W,
        mut sink: S,
    ) -> anyhow::Result<()>
    where
        T: Send,
        W: Fn(&Chunk) -> T + Sync,
        S: FnMut(&Chunk, T) -> anyhow::Result<()>,
    {
        let batch_len = self.threads * 4;
        let mut chunks = input.chunks(CHUNK_SIZE);
        loop {
            let mut batch = Vec::with_capacity(batch_len);
            // A read error ends the input after the chunks read before it are done.
            let mut failed = None;
            for c in chunks.by_ref() {
                match c {
                    Ok(c) => batch.push(c),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
                if batch.len() == batch_len {
                    break;
                }
            }
            if batch.is_empty() {
                return failed.map_or(Ok(()), |e| Err(e.into()));
            }
            let results: Vec<T> = if self.threads == 1 {
                batch.iter().map(&work).collect()
            } else {
                self.pool.install(|| batch.par_iter().map(&work).collect())
            };
            for (chunk, result) in batch.iter().zip(results) {
                sink(chunk, result)?;
                chunk.release();
                progress.advance(chunk.range.len() as u64);
            }
            if let Some(e) = failed {
                return Err(e.into());
            }
        }
    }
}

/// Output buffers handed back by the sink for the next chunks, so that a
/// long run does not map and zero fresh pages for every chunk.
#[derive(Default)]
pub struct Buffers(Mutex<Vec<Vec<u8>>>);

impl Buffers {
    /// An empty buffer with room for at least `capacity` bytes.
    pub fn take(&self, capacity: usize) -> Vec<u8> {
        let mut buf = self
            .0
            .lock()
            .ok()
            .and_then(|mut free| free.pop())
            .unwrap_or_default();
        buf.clear();
        buf.reserve(capacity);
        buf
    }

    /// Gives a buffer back (a few are kept).
    pub fn give(&self, buf: Vec<u8>) {
        if let Ok(mut free) = self.0.lock()
            && free.len() < 64
        {
            free.push(buf);
        }
    }
}

/// A progress bar on standard error, only when it is a terminal, not
/// silenced, and the work is long.
pub struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
}

impl Progress {
    /// A progress bar for `total` bytes (unknown for streams).
    pub fn new(quiet: bool, total: Option<u64>) -> Progress {
        let show = !quiet && std::io::stderr().is_terminal() && total.is_none_or(|t| t > 32 << 20);
        let bar = show.then(|| {
            let bar = match total {
                Some(t) => {
                    ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr_with_hz(4))
                }
                None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4)),
            };
            let template = if total.is_some() {
                "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg} ETA {eta}"
            } else {
                "{spinner} {bytes} {binary_bytes_per_sec} {msg}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Progress {
            bar,
            started: Instant::now(),
        }
    }

    /// `n` more bytes are done.
    pub fn advance(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Shows games per second.
    pub fn games(&self, games: u64) {
        if let Some(bar) = &self.bar {
            let secs = self.started.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!("{games} games ({:.0}/s)", games as f64 / secs));
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
