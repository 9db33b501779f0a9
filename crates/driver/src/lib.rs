//! `pgnkit-driver`: the parallel, ordered driver of pgnkit's commands.
//! Chunks of every input go to a pool of worker threads; results come back
//! in input order, whatever the number of threads, and are handed to a sink
//! on the calling thread while the workers go on. Memory stays bounded: at
//! most four chunks per thread are alive at a time, and the pages of a
//! mapped file are released once their chunk is done.
//!
//! Besides the [`Driver`] itself: [`files`], the one file loop of the
//! commands that read games (inputs opened, failures reported, progress,
//! totals); [`spool`], a chunk's output held in memory up to a limit and
//! beyond it in a temporary file; [`output`], output files written whole or
//! not at all.
//!
//! ```
//! use pgnkit_driver::{Driver, Progress};
//! use pgnkit_source::Input;
//!
//! let pgn = b"1. e4 e5 *\n\n1. d4 d5 *\n".to_vec();
//! let len = pgn.len();
//! let input = Input::stream("games".to_owned(), None, std::io::Cursor::new(pgn))?;
//! let driver = Driver::new(Some(2))?;
//! let mut bytes = 0;
//! driver.run(input, &Progress::new(true, None), |chunk| chunk.range.len(), |_chunk, n| {
//!     bytes += n;
//!     Ok(())
//! })?;
//! assert_eq!(bytes, len, "every byte is in one chunk, once");
//! # Ok::<(), anyhow::Error>(())
//! ```

pub mod files;
pub mod output;
pub mod spool;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use pgnkit_source::{CHUNK_SIZE, Chunk, Input};

/// How many worker threads `-j` may ask for, per core: more only waste
/// memory and time (`-j 100000` spent minutes starting threads).
pub const JOBS_PER_CORE: usize = 4;

/// An input is cut into at least this many chunks (of [`CHUNK_SIZE`] at
/// most, [`MIN_CHUNK`] at least), so that two threads finish together on a
/// small input too: an 8 MB file in chunks of 2 MiB kept one of two
/// threads waiting for the other's last chunk. The same whatever `-j`: what
/// looks at neighbouring games (a broadcast's game sent again) sees the
/// same chunks, so the output does not depend on the threads.
const MIN_CHUNKS: usize = 16;

/// The smallest chunk cut for the threads' sake ([`MIN_CHUNKS`]).
const MIN_CHUNK: usize = 128 << 10;

/// The worker threads for `-j jobs` (none or 0: one per core), at most
/// [`JOBS_PER_CORE`] per core: more are cut to that, with a warning on
/// standard error (once).
pub fn threads(jobs: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = cores.saturating_mul(JOBS_PER_CORE);
    match jobs.filter(|&j| j > 0) {
        None => cores,
        Some(j) if j > cap => {
            static WARNED: std::sync::Once = std::sync::Once::new();
            WARNED.call_once(|| {
                eprintln!(
                    "pgnkit: warning: -j {j} is more than {JOBS_PER_CORE} threads per core: \
                     using {cap} ({cores} cores)"
                );
            });
            cap
        }
        Some(j) => j,
    }
}

/// Runs work on chunks.
pub struct Driver {
    /// The workers; none with one thread, which works on the calling
    /// thread (no thread is started for it).
    pool: Option<rayon::ThreadPool>,
    threads: usize,
}

impl Driver {
    /// A driver with `jobs` worker threads (default: all cores).
    pub fn new(jobs: Option<usize>) -> anyhow::Result<Driver> {
        let threads = threads(jobs);
        let pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()?,
            )
        } else {
            None
        };
        Ok(Driver { pool, threads })
    }

    /// The size of the chunks of an input of `len` bytes: [`CHUNK_SIZE`],
    /// or smaller for a small input ([`MIN_CHUNKS`]), whatever the threads.
    fn chunk_size(&self, len: Option<u64>) -> usize {
        match len {
            Some(len) => (usize::try_from(len).unwrap_or(usize::MAX) / MIN_CHUNKS)
                .clamp(MIN_CHUNK, CHUNK_SIZE),
            None => CHUNK_SIZE,
        }
    }

    /// Runs `work` on every chunk of `input` and gives the results, in input
    /// order, to `sink` together with their chunk.
    ///
    /// With one thread, chunk after chunk on the calling thread. With more,
    /// a pipeline: the calling thread reads chunks and hands them to the
    /// workers, at most `4 × threads` in flight, and gives finished results
    /// to `sink` as soon as every chunk before them is done, while the
    /// workers go on (no batch waits for its slowest chunk).
    pub fn run<T, W, S>(
        &self,
        input: Input,
        progress: &Progress,
        work: W,
        sink: S,
    ) -> anyhow::Result<()>
    where
        T: Send,
        W: Fn(&Chunk) -> T + Sync,
        S: FnMut(&Chunk, T) -> anyhow::Result<()>,
    {
        self.run_parts(input, progress, |chunk| (work(chunk), None), sink)
    }

    /// [`Driver::run`] for work whose results may be large: `work` may stop
    /// early in a chunk and say where the rest starts (an offset in
    /// `chunk.data`, at a game start: [`pgnkit_pgn::game_starts_near`]).
    /// Its result is then given to `sink` with the part of the chunk it
    /// covers, and the rest is worked on as a chunk of its own, next in
    /// order. What waits for the sink is at most `4 × threads` parts (one
    /// more while the part the sink waits for is being redone), so a work
    /// that stops once its result reaches a budget keeps memory bounded
    /// by the window, however much it finds per byte of input.
    pub fn run_parts<T, W, S>(
        &self,
        input: Input,
        progress: &Progress,
        work: W,
        mut sink: S,
    ) -> anyhow::Result<()>
    where
        T: Send,
        W: Fn(&Chunk) -> (T, Option<usize>) + Sync,
        S: FnMut(&Chunk, T) -> anyhow::Result<()>,
    {
        let size = self.chunk_size(input.len);
        let mut chunks = input.chunks(size);
        // Gives one finished part to the sink (`first`: the first of its
        // chunk) and releases its pages, and those of the parts of its
        // chunk before it: the system maps pages around the one read, so
        // reading the start of a part maps again the end of the one before.
        let mut chunk_start = 0;
        let mut sink_part = |part: &Chunk, result: T, first: bool| -> anyhow::Result<()> {
            sink(part, result)?;
            if first {
                chunk_start = part.range.start;
            }
            Chunk {
                data: part.data.clone(),
                range: chunk_start.min(part.range.start)..part.range.end,
                base: part.base,
            }
            .release();
            progress.advance(part.range.len() as u64);
            Ok(())
        };
        let Some(pool) = self.pool.as_ref() else {
            for c in chunks {
                let mut chunk = c?;
                let mut first = true;
                loop {
                    let (result, rest) = work(&chunk);
                    let rest = split(&mut chunk, rest);
                    sink_part(&chunk, result, first)?;
                    first = false;
                    match rest {
                        Some(r) => chunk = r,
                        None => break,
                    }
                }
            }
            return Ok(());
        };
        let window = self.threads * 4;
        // Parts are numbered (chunk, part): the rest of a chunk comes right
        // after the part before it.
        type Key = (usize, usize);
        let (job_tx, job_rx) = mpsc::sync_channel::<(Key, Chunk)>(window + 1);
        let job_rx = Mutex::new(job_rx);
        // A worker that panics on a chunk sends the panic's message in
        // place of the result: the run then stops with an error instead of
        // waiting forever for that chunk.
        type Done<T> = (Key, Chunk, Result<(T, Option<usize>), String>);
        let (done_tx, done_rx) = mpsc::channel::<Done<T>>();
        let work = &work;
        let job_rx = &job_rx;
        pool.in_place_scope(|scope| {
            for _ in 0..self.threads {
                let done_tx = done_tx.clone();
                scope.spawn(move |_| {
                    loop {
                        // The lock is held only to take the next chunk.
                        let job = match job_rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => break,
                        };
                        let Ok((key, chunk)) = job else { break };
                        let result =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&chunk)))
                                .map_err(|payload| panic_message(payload.as_ref()));
                        if done_tx.send((key, chunk, result)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(done_tx);
            // Feed the workers and hand finished parts to the sink in order.
            // Dropping `job_tx` (at the end, or on an error) stops the workers.
            let job_tx = job_tx;
            let mut finished: BTreeMap<Key, (Chunk, T, bool)> = BTreeMap::new();
            // The rests of chunks waiting for room in the window.
            let mut rests: BTreeMap<Key, Chunk> = BTreeMap::new();
            // The next part for the sink, parts sent and not yet sunk, and
            // chunks read.
            let (mut next, mut in_flight, mut read) = ((0usize, 0usize), 0usize, 0usize);
            let mut reading = true;
            let mut failed = None;
            loop {
                // The rest the sink waits for goes whatever the window.
                let send = |key: Key, rest: Chunk| {
                    job_tx
                        .send((key, rest))
                        .map_err(|_| anyhow::anyhow!("the workers stopped"))
                };
                if let Some(rest) = rests.remove(&next) {
                    send(next, rest)?;
                    in_flight += 1;
                }
                while in_flight < window
                    && let Some((key, rest)) = rests.pop_first()
                {
                    send(key, rest)?;
                    in_flight += 1;
                }
                while reading && in_flight < window {
                    match chunks.next() {
                        Some(Ok(chunk)) => {
                            if job_tx.send(((read, 0), chunk)).is_err() {
                                reading = false;
                                break;
                            }
                            read += 1;
                            in_flight += 1;
                        }
                        // A read error ends the input after the chunks read
                        // before it are done.
                        Some(Err(e)) => {
                            failed = Some(e);
                            reading = false;
                        }
                        None => reading = false,
                    }
                }
                if in_flight == 0 && rests.is_empty() {
                    break;
                }
                let Ok((key, mut chunk, result)) = done_rx.recv() else {
                    anyhow::bail!("a worker stopped before finishing its chunk");
                };
                let (result, rest) = match result {
                    Ok(r) => r,
                    Err(message) => anyhow::bail!(
                        "internal error: a worker panicked on the chunk at byte {} ({message}); \
                         please report it with the input",
                        chunk.base + chunk.range.start
                    ),
                };
                let rest = split(&mut chunk, rest);
                let more = rest.is_some();
                if let Some(rest) = rest {
                    rests.insert((key.0, key.1 + 1), rest);
                }
                finished.insert(key, (chunk, result, more));
                while let Some((chunk, result, more)) = finished.remove(&next) {
                    sink_part(&chunk, result, next.1 == 0)?;
                    in_flight -= 1;
                    next = if more {
                        (next.0, next.1 + 1)
                    } else {
                        (next.0 + 1, 0)
                    };
                }
            }
            drop(job_tx);
            failed.map_or(Ok(()), |e| Err(e.into()))
        })
    }
}

/// Cuts `chunk` at `rest` (an offset in its data, strictly inside its
/// range) and gives the part after the cut; `chunk` keeps the part before.
/// A cut outside the range is none (in release builds: the work's part
/// then stands for the whole chunk; a debug build says the work is wrong).
fn split(chunk: &mut Chunk, rest: Option<usize>) -> Option<Chunk> {
    debug_assert!(
        rest.is_none_or(|at| at > chunk.range.start && at < chunk.range.end),
        "a part cut at {rest:?}, outside {:?}",
        chunk.range
    );
    let at = rest.filter(|&at| at > chunk.range.start && at < chunk.range.end)?;
    let tail = Chunk {
        data: chunk.data.clone(),
        range: at..chunk.range.end,
        base: chunk.base,
    };
    chunk.range.end = at;
    Some(tail)
}

/// The message of a panic's payload (`panic!` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_capped_at_a_few_threads_per_core() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(threads(None), cores);
        assert_eq!(threads(Some(0)), cores);
        assert_eq!(threads(Some(1)), 1);
        assert_eq!(threads(Some(100_000)), cores * JOBS_PER_CORE);
        let started = std::time::Instant::now();
        let driver = Driver::new(Some(100_000)).expect("a driver");
        assert_eq!(driver.threads, cores * JOBS_PER_CORE);
        assert!(started.elapsed().as_secs() < 5);
    }

    #[test]
    fn a_small_input_is_cut_into_chunks_enough_for_every_thread() {
        let (one, two) = (
            Driver::new(Some(1)).expect("a driver"),
            Driver::new(Some(2)).expect("a driver"),
        );
        let mb = 1u64 << 20;
        assert_eq!(
            one.chunk_size(Some(8 * mb)),
            512 << 10,
            "the same for one thread"
        );
        assert_eq!(two.chunk_size(Some(8 * mb)), 512 << 10);
        assert_eq!(two.chunk_size(Some(100 << 10)), MIN_CHUNK);
        assert_eq!(two.chunk_size(Some(1 << 30)), CHUNK_SIZE);
        assert_eq!(two.chunk_size(None), CHUNK_SIZE);
        // 8 MB in 16 chunks or more: each of two threads gets eight at
        // least (a stream is cut before the size is reached).
        let pgn = "[Event \"e\"]\n\n1. e4 e5 *\n\n"
            .repeat(8 << 20 >> 5)
            .into_bytes();
        let input = Input::stream(
            "g".to_owned(),
            Some(pgn.len() as u64),
            std::io::Cursor::new(pgn),
        )
        .expect("a stream");
        let mut chunks = 0;
        two.run(
            input,
            &Progress::new(true, None),
            |_| (),
            |_, ()| {
                chunks += 1;
                Ok(())
            },
        )
        .expect("a run");
        assert!((16..=40).contains(&chunks), "{chunks} chunks");
    }

    /// A result that counts how many of its kind are alive, and the most
    /// there ever were.
    struct Live<'a> {
        alive: &'a std::sync::atomic::AtomicUsize,
        bytes: Vec<u8>,
    }

    impl<'a> Live<'a> {
        fn new(
            alive: &'a std::sync::atomic::AtomicUsize,
            most: &std::sync::atomic::AtomicUsize,
            bytes: &[u8],
        ) -> Live<'a> {
            use std::sync::atomic::Ordering::SeqCst;
            let now = alive.fetch_add(1, SeqCst) + 1;
            most.fetch_max(now, SeqCst);
            Live {
                alive,
                bytes: bytes.to_vec(),
            }
        }
    }

    impl Drop for Live<'_> {
        fn drop(&mut self) {
            self.alive.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn parts_waiting_for_the_sink_are_bounded_by_the_window_not_by_the_input() {
        use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
        // Games of 16 KiB: four chunks of 128 games.
        let games = 512;
        let game = format!("[Event \"e\"]\n\n1. e4 {{{}}} e5 *\n\n", "x".repeat(16_356));
        assert_eq!(game.len(), 16 << 10);
        let pgn = game.repeat(games).into_bytes();
        for jobs in [1, 2, 3] {
            let input = Input::stream("games".to_owned(), None, std::io::Cursor::new(pgn.clone()))
                .expect("a stream");
            let driver = Driver::new(Some(jobs)).expect("a driver");
            let (alive, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let mut parts = 0;
            let mut out = Vec::new();
            // Each part is one game: the work stops after the first and
            // says where the next starts.
            let work = |chunk: &Chunk| {
                let first = pgnkit_pgn::game_starts_near(
                    &chunk.data[..chunk.range.end],
                    chunk.range.start + 1,
                );
                let end = first.unwrap_or(chunk.range.end);
                (
                    Live::new(&alive, &most, &chunk.data[chunk.range.start..end]),
                    first,
                )
            };
            driver
                .run_parts(input, &Progress::new(true, None), work, |chunk, live| {
                    assert_eq!(
                        live.bytes,
                        chunk.bytes(),
                        "the sink gets the part worked on"
                    );
                    // A slow printer: the workers are ahead as far as they may go.
                    std::thread::sleep(Duration::from_micros(200));
                    out.extend_from_slice(&live.bytes);
                    parts += 1;
                    Ok(())
                })
                .expect("a run");
            assert_eq!(out, pgn, "every byte once, in order (-j{jobs})");
            assert_eq!(parts, games, "one part a game (-j{jobs})");
            assert_eq!(alive.load(SeqCst), 0);
            let window = if jobs == 1 { 1 } else { 4 * jobs + 1 };
            assert!(
                most.load(SeqCst) <= window,
                "-j{jobs}: {} results alive at once, for a window of {window}",
                most.load(SeqCst)
            );
        }
    }

    #[test]
    fn a_worker_that_panics_stops_the_run_with_an_error() {
        let input = Input::stream(
            "test".to_owned(),
            None,
            std::io::Cursor::new(b"1. e4 e5 *\n".to_vec()),
        )
        .expect("a stream");
        let driver = Driver::new(Some(2)).expect("a driver");
        let progress = Progress::new(true, None);
        let result = driver.run(
            input,
            &progress,
            |_chunk| -> u32 { panic!("boom") },
            |_chunk, _n| Ok(()),
        );
        let error = format!("{:#}", result.expect_err("an error, not a hang"));
        assert!(error.contains("boom"), "{error}");
    }
}
