//! The one file loop of the commands that read games (`check`, `convert`):
//! opening every input (`-` or none: standard input; a directory: the PGN
//! files under it, [`pgnkit_source::walk`]) as the shared flags say,
//! reporting the ones that cannot be read (the run goes on), the
//! shard's origin, the progress bar, the chunks' results in input order
//! ([`Driver`]) and the run's totals. A command says what to do with a
//! chunk (on the workers), how to print its result (a [`Sink`], on the
//! calling thread) and what it counts (a [`Tally`]).

use std::io::IsTerminal;
use std::time::Instant;

use pgnkit_pgn::shard::Shard;
use pgnkit_source::walk::{Globs, Walk};
use pgnkit_source::{Chunk, Input};

use crate::{Driver, Progress};

/// What `check` says on standard error when it is to read standard input
/// and that is a terminal (no file given): it is waiting for games.
pub const STDIN_HINT: &str =
    "reading PGN from standard input (Ctrl-D to end; give a file to check)";

/// The inputs of a run and how to read them: what the flags every command
/// that reads games shares say.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    /// Files or directories (`-`: standard input; none: standard input).
    pub files: &'a [String],
    /// `--glob`: the names of the files read under a directory.
    pub globs: &'a [String],
    /// Worker threads (none: all cores).
    pub jobs: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// `--shard K/N`: read only one shard of each file.
    pub shard: Option<Shard>,
    /// `--game-offset N`: added to every game number.
    pub game_offset: u64,
}

impl Inputs<'_> {
    /// Opens `path` as these options say: `shard` cuts it to one shard
    /// (refused for standard input and compressed files) and `game_offset`
    /// is added to its game numbers.
    ///
    /// # Errors
    /// Those of [`Input::open_with`].
    pub fn open(&self, path: &str) -> Result<Input, pgnkit_source::Error> {
        // The threads count what comes before a shard (the system is
        // asked how many cores it has only then).
        let jobs = self.shard.map(|_| crate::threads(self.jobs));
        Input::open_with(path, self.shard, jobs, self.game_offset)
    }
}

/// Where a chunk stands in its file: what comes before it.
pub struct At<'a> {
    /// The input's name in diagnostics (`<stdin>` for standard input).
    pub name: &'a str,
    /// Games before the chunk (the shard's and `--game-offset`'s included).
    pub games: u64,
    /// Line breaks before the chunk.
    pub lines: usize,
}

impl At<'_> {
    /// The 1-based number in its file of the chunk's game `index` (0-based).
    /// Bounded far below `u64::MAX` (the game offset is at most 2^53 - 1);
    /// saturating all the same.
    pub fn game(&self, index: u64) -> u64 {
        self.games.saturating_add(index).saturating_add(1)
    }

    /// The 1-based line in its file of the chunk's line `line` (0-based).
    pub fn line(&self, line: usize) -> usize {
        line.saturating_add(self.lines).saturating_add(1)
    }
}

/// What a command counts of a chunk (`check`'s and `convert`'s
/// `pgnkit_report::summary::Totals`): added up over each input and over the
/// run ([`Run::totals`]).
pub trait Tally: Default {
    /// Adds `other`'s counts to these.
    fn add(&mut self, other: &Self);

    /// The games counted (those of a chunk number the next chunk's games).
    fn games(&self) -> u64;
}

/// How a command prints what its workers found.
pub trait Sink<T> {
    /// What the command counts.
    type Totals: Tally;

    /// Prints the result of one chunk (chunks come in input order) and
    /// gives its counts and the line breaks in it.
    ///
    /// # Errors
    /// Those of writing, which end the input's run.
    fn chunk(
        &mut self,
        at: &At<'_>,
        chunk: &Chunk,
        out: T,
    ) -> anyhow::Result<(Self::Totals, usize)>;

    /// Reports an input that could not be opened (`name` is none) or read
    /// to its end (`name` is its name).
    ///
    /// # Errors
    /// Those of writing the report.
    fn failure(&mut self, path: &str, name: Option<&str>, e: &anyhow::Error)
    -> std::io::Result<()>;

    /// An input is about to be read (`path` as given, `input` opened).
    ///
    /// # Errors
    /// When the sink cannot take this input: it is then not read, and
    /// reported as a failure.
    fn begin(&mut self, _path: &str, _input: &Input) -> anyhow::Result<()> {
        Ok(())
    }

    /// The input begun last is read: to its end if `complete`.
    ///
    /// # Errors
    /// When what the sink does at the end of an input fails: reported as a
    /// failure of the input.
    fn end(&mut self, _complete: bool) -> anyhow::Result<()> {
        Ok(())
    }

    /// What to say on standard error when no file is given and standard
    /// input is a terminal, before waiting for it: [`STDIN_HINT`] (a
    /// command other than `check` names its own job).
    fn stdin_hint(&self) -> &'static str {
        STDIN_HINT
    }
}

/// What a run of the file loop did.
#[derive(Default)]
pub struct Run<C> {
    /// Inputs opened.
    pub files: u64,
    /// Counts over every input.
    pub totals: C,
    /// Bytes read.
    pub bytes: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// Some input could not be opened or read to its end.
    pub failed: bool,
}

/// Runs `work` on every chunk of every input of `args` and gives the results,
/// in input order, to `sink`: what `check`, `convert` and `report` do with
/// their files.
///
/// ```no_run
/// use pgnkit_driver::files::{At, Inputs, Sink, Tally, run};
/// use pgnkit_source::Chunk;
///
/// /// Chunks and their bytes.
/// #[derive(Default)]
/// struct Bytes {
///     chunks: u64,
///     bytes: usize,
/// }
/// impl Tally for Bytes {
///     fn add(&mut self, other: &Bytes) {
///         self.chunks += other.chunks;
///         self.bytes += other.bytes;
///     }
///     fn games(&self) -> u64 {
///         self.chunks // every chunk is one game here, for the example
///     }
/// }
///
/// /// Counts bytes.
/// struct Count;
/// impl Sink<usize> for Count {
///     type Totals = Bytes;
///     fn chunk(&mut self, _: &At<'_>, _: &Chunk, n: usize) -> anyhow::Result<(Bytes, usize)> {
///         println!("{n} bytes");
///         Ok((Bytes { chunks: 1, bytes: n }, 0))
///     }
///     fn failure(&mut self, path: &str, _: Option<&str>, e: &anyhow::Error) -> std::io::Result<()> {
///         eprintln!("{path}: {e:#}");
///         Ok(())
///     }
/// }
/// let files = ["games.pgn".to_owned()];
/// let inputs = Inputs { files: &files, ..Inputs::default() };
/// let done = run(&inputs, |chunk| chunk.range.len(), &mut Count)?;
/// println!("{} files, {} bytes", done.files, done.bytes);
/// # Ok::<(), anyhow::Error>(())
/// ```
///
/// # Errors
/// When the threads cannot be started, the reader of the output has gone
/// (a broken pipe), an output cannot be written
/// ([`crate::output::is_output_error`]: the run stops there), or `sink`
/// cannot report a failure.
pub fn run<T: Send, S: Sink<T>>(
    args: &Inputs<'_>,
    work: impl Fn(&Chunk) -> T + Sync,
    sink: &mut S,
) -> anyhow::Result<Run<S::Totals>> {
    run_parts(args, |chunk| (work(chunk), None), sink)
}

/// [`run`] for work that may stop early in a chunk and say where the rest
/// starts ([`Driver::run_parts`]): `check`, whose findings per byte of
/// input have no bound, keeps a budget of them per part.
///
/// # Errors
/// Those of [`run`].
pub fn run_parts<T: Send, S: Sink<T>>(
    args: &Inputs<'_>,
    work: impl Fn(&Chunk) -> (T, Option<usize>) + Sync,
    sink: &mut S,
) -> anyhow::Result<Run<S::Totals>> {
    let driver = Driver::new(args.jobs)?;
    let globs = Globs::new(args.globs.iter().cloned())?;
    let stdin = ["-".to_owned()];
    let files = if args.files.is_empty() {
        if std::io::stdin().is_terminal() {
            eprintln!("{}", sink.stdin_hint());
        }
        &stdin[..]
    } else {
        args.files
    };
    let mut run = Run::<S::Totals>::default();
    let started = Instant::now();
    for path in Walk::new(files, &globs) {
        // A directory that cannot be walked, or has no PGN file, is
        // reported like a file that cannot be read.
        let path = match path {
            Ok(p) => p,
            Err(e) => {
                run.failed = true;
                let path = e.path().unwrap_or_default().to_owned();
                sink.failure(&path, None, &e.into())?;
                continue;
            }
        };
        let path = &path;
        let input = match args.open(path) {
            Ok(i) => i,
            Err(e) => {
                run.failed = true;
                sink.failure(path, None, &e.into())?;
                continue;
            }
        };
        run.files += 1;
        let name = input.name.clone();
        if let Err(e) = sink.begin(path, &input) {
            run.failed = true;
            sink.failure(path, Some(&name), &e)?;
            continue;
        }
        let progress = Progress::new(args.quiet, input.len);
        // With --shard / --game-offset, numbers stay those of the whole file.
        let mut at = At {
            name: &name,
            games: input.origin.games,
            lines: input.origin.lines,
        };
        let mut file_totals = S::Totals::default();
        let result = driver.run_parts(input, &progress, &work, |chunk, out| {
            run.bytes += chunk.range.len() as u64;
            let (totals, lines) = sink.chunk(&at, chunk, out)?;
            at.games = at.games.saturating_add(totals.games());
            at.lines = at.lines.saturating_add(lines);
            file_totals.add(&totals);
            progress.games(file_totals.games());
            Ok(())
        });
        progress.finish();
        run.totals.add(&file_totals);
        let result = match result {
            Ok(()) => sink.end(true),
            Err(e) => {
                // The input was not read to its end: nothing is put in place.
                let _ = sink.end(false);
                Err(e)
            }
        };
        if let Err(e) = result {
            // The output failed (a full disk), not the input: the run ends,
            // and the error names the output.
            if crate::output::is_broken_pipe(&e) || crate::output::is_output_error(&e) {
                return Err(e);
            }
            run.failed = true;
            sink.failure(path, Some(&name), &e)?;
        }
    }
    run.seconds = started.elapsed().as_secs_f64();
    Ok(run)
}
