//! `pgnkit._pgnkit`: the Rust half of the `pgnkit` Python package.
//!
//! A thin layer over the library crates: inputs are opened by
//! [`pgnkit_source`] (files mapped, compressed ones streamed), cut into
//! chunks and worked on by [`pgnkit_driver`]'s threads (`stream`), each
//! game replayed by [`pgnkit_replay`] as `pgnkit check --games` replays it
//! (`replay`), its diagnostics and records written by [`pgnkit_report`].
//! No chess rule is written here. The Python half (`pgnkit/__init__.py`)
//! says which input a Python value names and builds the Arrow tables.
//!
//! ```python
//! import pgnkit
//! for game in pgnkit.read("games.pgn.zst"):
//!     print(game.tags.get("White"), game.status, game.moves[:4])
//! ```

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use pgnkit_notation::Language;
use pgnkit_replay::{Detail, IllegalMoves, Options};
use pgnkit_source::Input;

mod check;
mod convert;
mod game;
mod read;
mod replay;
mod stream;
mod table;

create_exception!(
    pgnkit,
    ReadError,
    PyOSError,
    "An input that cannot be read (missing, a directory, binary data, a corrupt compressed stream).\n\n\
     Attributes: `file` (the input's name), `game` (1-based number of the game being read, or None), \
     `line` (1-based line, or None), `column` (None: a whole input or chunk failed)."
);

/// The `ReadError` for `message` about `file` at `game` and `line`.
pub(crate) fn read_error(
    py: Python<'_>,
    message: &str,
    file: &str,
    game: Option<u64>,
    line: Option<usize>,
) -> PyErr {
    let err = ReadError::new_err(message.to_owned());
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("file", file)?;
        value.setattr("game", game)?;
        value.setattr("line", line)?;
        value.setattr("column", None::<usize>)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// How `pgnkit.read` replays, from its arguments: `lang` (`auto` or a
/// language code) and `illegal_moves` (`stop`: an illegal move ends the
/// main line; `stand`: a move whose piece the token names is played as
/// written and ruled on as the Laws do, `--illegal-moves stand`). Every
/// diagnostic, the status, the main line, not the claims (a game's record
/// replays it again in full): `check`'s detail without `--games`.
pub(crate) fn replay_options(lang: &str, illegal_moves: &str) -> PyResult<Options> {
    let language =
        Language::parse_or_auto(lang).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let illegal_moves = match illegal_moves {
        "stop" => IllegalMoves::Stop,
        "stand" => IllegalMoves::Stand,
        other => {
            return Err(PyValueError::new_err(format!(
                "illegal_moves must be \"stop\" or \"stand\", not {other:?}"
            )));
        }
    };
    Ok(Options {
        language,
        suggestions: true,
        detail: Detail::Diagnostics,
        illegal_moves,
    })
}

/// What Python names an input by (`pgnkit._source`): `(path, None, _)`
/// for a file, `(None, data, name)` for bytes.
#[derive(FromPyObject)]
pub(crate) struct Source(Option<String>, Option<Vec<u8>>, String);

impl Source {
    /// The input's name: the path as given, or the name of the bytes.
    pub fn name(&self) -> &str {
        self.0.as_deref().unwrap_or(&self.2)
    }
}

/// Opens an input: the file at `path`, or `data` (called `name`).
pub(crate) fn open_input(py: Python<'_>, Source(path, data, name): Source) -> PyResult<Input> {
    let name = name.as_str();
    match (path, data) {
        (Some(path), _) => py.detach(|| Input::open(&path)).map_err(|e| {
            read_error(
                py,
                &format!("{:#}", anyhow::Error::from(e)),
                &path,
                None,
                None,
            )
        }),
        (None, data) => {
            let data = data.unwrap_or_default();
            let len = data.len() as u64;
            Input::stream(name.to_owned(), Some(len), std::io::Cursor::new(data))
                .map_err(|e| read_error(py, &format!("cannot read {name}: {e}"), name, None, None))
        }
    }
}

/// The extension module.
#[pymodule]
fn _pgnkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ReadError", m.py().get_type::<ReadError>())?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::Diagnostic>()?;
    m.add_class::<read::Games>()?;
    m.add_class::<table::Batches>()?;
    m.add_function(wrap_pyfunction!(check::check_records, m)?)?;
    m.add_function(wrap_pyfunction!(convert::convert_input, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
