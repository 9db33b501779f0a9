//! The inputs named on a command line, directories walked: each path that
//! is not a directory (a file, `-` for standard input) is an input as it
//! is; a directory stands for the PGN files under it, found the way
//! ripgrep finds files to search (with its own crate, `ignore`):
//!
//! - files and directories that `.gitignore` (inside a git repository),
//!   `.git/info/exclude`, the global git excludes or `.ignore` files
//!   exclude are skipped, and so are hidden ones (names starting with `.`);
//!   symbolic links are not followed;
//! - of the rest, the files whose names match the globs are taken:
//!   [`DEFAULT_GLOBS`] (`*.pgn` and the compressed `*.pgn.zst`, `*.pgn.gz`,
//!   `*.pgn.bz2`), or those given (`--glob`), with the syntax of a
//!   `.gitignore` line: a glob without `/` matches the name at any depth,
//!   one with `/` the path under the directory, and `!GLOB` leaves out what
//!   it matches (only `!` globs keep the default names);
//! - in a stable order: each directory's entries sorted by name, depth
//!   first; named as the directory was given and their path under it
//!   (`games/2013/a.pgn`), those under `.` by their path alone
//!   (`games/a.pgn`).
//!
//! Walking is lazy (one directory's entries at a time), so a huge tree
//! costs no memory up front. A directory with no matching file, and a
//! subdirectory that cannot be read, are errors of their own
//! ([`Error::NoPgnFiles`], [`Error::Walk`]); the walk goes on after them.
//!
//! ```
//! use pgnkit_source::walk::{Globs, Walk};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir(dir.path().join("round2"))?;
//! std::fs::write(dir.path().join("round1.pgn"), "1. e4 e5 *\n")?;
//! std::fs::write(dir.path().join("round2/board1.pgn.zst"), b"")?;
//! std::fs::write(dir.path().join("notes.txt"), "not a game")?;
//! std::fs::write(dir.path().join(".ignore"), "round1.pgn\n")?;
//!
//! let root = dir.path().display().to_string();
//! let inputs: Vec<String> = Walk::new(&[root.clone(), "-".into()], &Globs::default())
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(inputs, [format!("{root}/round2/board1.pgn.zst"), "-".to_owned()]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};

use ignore::overrides::{Override, OverrideBuilder};

use crate::Error;

/// The names a directory is searched for when no `--glob` is given: PGN
/// files, plain or compressed.
pub const DEFAULT_GLOBS: &[&str] = &["*.pgn", "*.pgn.zst", "*.pgn.gz", "*.pgn.bz2"];

/// The globs that choose the files of a walked directory (see the
/// [module](self) docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Globs(Vec<String>);

impl Default for Globs {
    /// [`DEFAULT_GLOBS`].
    fn default() -> Globs {
        Globs(DEFAULT_GLOBS.iter().map(|g| (*g).to_owned()).collect())
    }
}

impl Globs {
    /// The globs given (`--glob`, repeatable): they replace
    /// [`DEFAULT_GLOBS`], unless each of them excludes (`!GLOB`), in which
    /// case they are added to them. None given: the defaults.
    ///
    /// ```
    /// use pgnkit_source::walk::Globs;
    ///
    /// let globs = Globs::new(["*.txt".to_owned()])?;
    /// assert_eq!(globs.as_slice(), ["*.txt"]);
    /// let globs = Globs::new(["!old/**".to_owned()])?;
    /// assert_eq!(globs.as_slice(), ["*.pgn", "*.pgn.zst", "*.pgn.gz", "*.pgn.bz2", "!old/**"]);
    /// assert!(Globs::new(["[a".to_owned()]).is_err());
    /// # Ok::<(), pgnkit_source::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Glob`] for a glob that does not parse.
    pub fn new(globs: impl IntoIterator<Item = String>) -> Result<Globs, Error> {
        let given: Vec<String> = globs.into_iter().collect();
        for glob in &given {
            check_glob(glob)?;
        }
        if given.is_empty() {
            return Ok(Globs::default());
        }
        if given.iter().all(|g| g.starts_with('!')) {
            let mut all = Globs::default().0;
            all.extend(given);
            return Ok(Globs(all));
        }
        Ok(Globs(given))
    }

    /// The globs, in order (a later one wins over an earlier one).
    pub fn as_slice(&self) -> &[String] {
        &self.0
    }

    /// The matcher of the files under `root`.
    fn matcher(&self, root: &Path) -> Result<Override, ignore::Error> {
        let mut builder = OverrideBuilder::new(root);
        for glob in &self.0 {
            builder.add(glob)?;
        }
        builder.build()
    }
}

/// Checks one `--glob` value: `Ok` with the glob, or why it does not parse
/// (for a command-line flag's value parser).
///
/// # Errors
/// [`Error::Glob`].
pub fn check_glob(glob: &str) -> Result<String, Error> {
    let mut builder = OverrideBuilder::new("");
    builder
        .add(glob)
        .and_then(|b| b.build())
        .map(|_| glob.to_owned())
        .map_err(|e| Error::Glob {
            glob: glob.to_owned(),
            reason: e.to_string(),
        })
}

/// The inputs of a list of paths, directories walked (see the
/// [module](self) docs): an iterator of paths to open (with
/// [`crate::Input::open`]) and of errors to report, in order.
pub struct Walk<'a> {
    paths: std::slice::Iter<'a, String>,
    globs: &'a Globs,
    dir: Option<Dir>,
}

/// The directory being walked.
struct Dir {
    root: String,
    walk: ignore::Walk,
    matcher: Override,
    /// Files taken so far, and errors met.
    found: u64,
    failed: bool,
}

impl<'a> Walk<'a> {
    /// Walks `paths` in order: `-` and what is not a directory as they are
    /// (opening them tells what is wrong with them), directories expanded.
    pub fn new(paths: &'a [String], globs: &'a Globs) -> Walk<'a> {
        Walk {
            paths: paths.iter(),
            globs,
            dir: None,
        }
    }

    /// The next item of the directory being walked, if any is left.
    fn next_in_dir(dir: &mut Dir) -> Option<Result<String, Error>> {
        loop {
            let entry = match dir.walk.next()? {
                Ok(entry) => entry,
                Err(e) => {
                    dir.failed = true;
                    return Some(Err(walk_error(&dir.root, e)));
                }
            };
            // Symbolic links are not followed: only regular files are inputs.
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let path = entry.path();
            if !dir.matcher.matched(path, false).is_whitelist() {
                continue;
            }
            dir.found += 1;
            // Under `.`, files are named as from the current directory
            // (`games/a.pgn`, not `./games/a.pgn`): the names CI annotations
            // and editors expect.
            let path = match dir.root.as_str() {
                "." | "./" => path.strip_prefix(".").unwrap_or(path),
                _ => path,
            };
            return Some(match path.to_str() {
                Some(p) => Ok(p.to_owned()),
                None => Err(Error::Read {
                    path: path.to_string_lossy().into_owned(),
                    source: std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "its name is not UTF-8; name it on the command line another way \
                         (a link, or standard input)",
                    ),
                }),
            });
        }
    }
}

/// A walk error, with the path it is about.
fn walk_error(root: &str, e: ignore::Error) -> Error {
    let path = error_path(&e).map_or_else(|| root.to_owned(), |p| p.display().to_string());
    Error::Walk {
        path,
        source: Box::new(e),
    }
}

/// The path an error of the walk is about, if it says.
fn error_path(e: &ignore::Error) -> Option<&Path> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Partial(errs) => errs.iter().find_map(error_path),
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

impl Iterator for Walk<'_> {
    type Item = Result<String, Error>;

    fn next(&mut self) -> Option<Result<String, Error>> {
        loop {
            if let Some(dir) = self.dir.as_mut() {
                if let Some(item) = Walk::next_in_dir(dir) {
                    return Some(item);
                }
                let dir = self.dir.take()?;
                if dir.found == 0 && !dir.failed {
                    return Some(Err(Error::NoPgnFiles {
                        dir: dir.root,
                        globs: self.globs.as_slice().join(" "),
                    }));
                }
                continue;
            }
            let path = self.paths.next()?;
            if path == "-" || !Path::new(path).is_dir() {
                return Some(Ok(path.clone()));
            }
            let root = PathBuf::from(path);
            let matcher = match self.globs.matcher(&root) {
                Ok(m) => m,
                Err(e) => return Some(Err(walk_error(path, e))),
            };
            let walk = ignore::WalkBuilder::new(&root)
                .sort_by_file_name(|a, b| a.cmp(b))
                .build();
            self.dir = Some(Dir {
                root: path.clone(),
                walk,
                matcher,
                found: 0,
                failed: false,
            });
        }
    }
}
