//! `pgnkit.to_arrow`'s columns: one batch per chunk, built on the worker
//! threads as Arrow buffers (validity bitmaps, 32-bit offsets, values) that
//! Python hands to `pyarrow.Array.from_buffers` without another pass
//! (`pgnkit/_arrow.py`). No Arrow crate is compiled for it.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use pgnkit_replay::Severity;
use pgnkit_source::Chunk;

use crate::replay::{self, Counted, Ply, Replayed, each_game};
use crate::stream::{Chunked, Feed, Reading};

/// A validity bitmap (Arrow's: least significant bit first).
#[derive(Default)]
struct Validity {
    bits: Vec<u8>,
    len: usize,
    nulls: usize,
}

impl Validity {
    fn push(&mut self, valid: bool) {
        if self.len.is_multiple_of(8) {
            self.bits.push(0);
        }
        if valid {
            if let Some(last) = self.bits.last_mut() {
                *last |= 1 << (self.len % 8);
            }
        } else {
            self.nulls += 1;
        }
        self.len += 1;
    }
}

/// A column of strings that may be null.
#[derive(Default)]
struct Strings {
    offsets: Vec<i32>,
    values: Vec<u8>,
    validity: Validity,
}

impl Strings {
    fn push(&mut self, value: Option<&str>) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        if let Some(v) = value {
            self.values.extend_from_slice(v.as_bytes());
        }
        self.offsets
            .push(i32::try_from(self.values.len()).unwrap_or(i32::MAX));
        self.validity.push(value.is_some());
    }

    fn len(&self) -> usize {
        self.validity.len
    }
}

/// A column of lists of strings (never null).
#[derive(Default)]
struct StringLists {
    offsets: Vec<i32>,
    items: Strings,
}

impl StringLists {
    fn push<'s>(&mut self, items: impl Iterator<Item = &'s str>) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        for item in items {
            self.items.push(Some(item));
        }
        self.offsets
            .push(i32::try_from(self.items.len()).unwrap_or(i32::MAX));
    }
}

/// A column of unsigned integers that may be null.
#[derive(Default)]
struct Numbers<T> {
    values: Vec<T>,
    validity: Validity,
}

impl<T: Default> Numbers<T> {
    fn push(&mut self, value: Option<T>) {
        self.validity.push(value.is_some());
        self.values.push(value.unwrap_or_default());
    }
}

/// One chunk's games as columns.
#[derive(Default)]
struct Batch {
    rows: usize,
    counted: Counted,
    game: Numbers<u64>,
    byte: Numbers<u64>,
    tags: Vec<(String, Strings)>,
    moves: StringLists,
    uci: StringLists,
    plies: Numbers<u32>,
    status: Strings,
    result: Strings,
    result_tag: Strings,
    language: Strings,
    errors: Numbers<u32>,
    warnings: Numbers<u32>,
    first_error_ply: Numbers<u32>,
    first_error_code: Strings,
    fen: Strings,
}

impl Batch {
    fn push(&mut self, r: &Replayed<'_, '_>) {
        let row = self.rows;
        self.game.push(Some(r.index + 1));
        self.byte.push(Some(r.byte as u64));
        for (name, value) in r.tags() {
            let column = match self.tags.iter().position(|(n, _)| *n == name) {
                Some(i) => &mut self.tags[i].1,
                None => {
                    let mut column = Strings::default();
                    for _ in 0..row {
                        column.push(None);
                    }
                    self.tags.push((name, column));
                    let last = self.tags.len() - 1;
                    &mut self.tags[last].1
                }
            };
            // A tag given twice: the first is kept.
            if column.len() == row {
                column.push(Some(&value));
            }
        }
        for (_, column) in &mut self.tags {
            if column.len() == row {
                column.push(None);
            }
        }
        let line = r.main_line();
        self.moves.push(line.iter().map(Ply::san));
        self.uci.push(line.iter().map(Ply::uci));
        let report = &r.report;
        self.plies.push(Some(report.plies));
        self.status.push(Some(report.status.as_str()));
        self.result.push(report.result.map(|x| x.as_str()));
        self.result_tag.push(report.result_tag.as_deref());
        self.language.push(Some(report.language.code()));
        let count = |n: usize| Some(u32::try_from(n).unwrap_or(u32::MAX));
        self.errors.push(count(report.errors()));
        self.warnings.push(count(report.warnings()));
        let first = r
            .located
            .iter()
            .find(|l| l.diagnostic.severity == Severity::Error);
        self.first_error_ply
            .push(first.and_then(|l| l.diagnostic.ply));
        self.first_error_code
            .push(first.map(|l| l.diagnostic.code.as_str()));
        self.fen.push(replay::final_fen(report).as_deref());
        self.rows += 1;
    }
}

impl Chunked for Batch {
    fn counted(&self) -> Counted {
        self.counted
    }

    fn place(&mut self, games: u64, _lines: usize) {
        for g in &mut self.game.values {
            *g = g.saturating_add(games);
        }
    }
}

/// An integer that Arrow stores little-endian.
trait Le: Copy {
    fn extend_le(values: &[Self], out: &mut Vec<u8>);
}

macro_rules! le {
    ($($t:ty),*) => {$(
        impl Le for $t {
            fn extend_le(values: &[$t], out: &mut Vec<u8>) {
                out.reserve(values.len() * std::mem::size_of::<$t>());
                for v in values {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
    )*};
}
le!(i32, u32, u64);

/// The Python `bytes` of an Arrow buffer of integers.
fn buffer<'py, T: Le>(py: Python<'py>, values: &[T]) -> Bound<'py, PyBytes> {
    let mut bytes = Vec::new();
    T::extend_le(values, &mut bytes);
    PyBytes::new(py, &bytes)
}

/// The validity bitmap's `bytes`, `None` when nothing is null.
fn validity<'py>(py: Python<'py>, v: &Validity) -> Option<Bound<'py, PyBytes>> {
    (v.nulls > 0).then(|| PyBytes::new(py, &v.bits))
}

/// `(name, type, validity, null count, buffers)`: what `pgnkit/_arrow.py`
/// makes an Arrow array of.
type Column<'py> = Bound<'py, PyTuple>;

fn strings<'py>(py: Python<'py>, name: &str, kind: &str, c: &Strings) -> PyResult<Column<'py>> {
    let offsets: &[i32] = if c.offsets.is_empty() {
        &[0]
    } else {
        &c.offsets
    };
    (
        name,
        kind,
        validity(py, &c.validity),
        c.validity.nulls,
        (buffer(py, offsets), PyBytes::new(py, &c.values)),
    )
        .into_pyobject(py)
}

fn numbers<'py, T: Le>(
    py: Python<'py>,
    name: &str,
    kind: &str,
    c: &Numbers<T>,
) -> PyResult<Column<'py>> {
    (
        name,
        kind,
        validity(py, &c.validity),
        c.validity.nulls,
        (buffer(py, &c.values),),
    )
        .into_pyobject(py)
}

fn lists<'py>(py: Python<'py>, name: &str, c: &StringLists) -> PyResult<Column<'py>> {
    let offsets: &[i32] = if c.offsets.is_empty() {
        &[0]
    } else {
        &c.offsets
    };
    let items: &[i32] = if c.items.offsets.is_empty() {
        &[0]
    } else {
        &c.items.offsets
    };
    (
        name,
        "list<string>",
        None::<Bound<'py, PyBytes>>,
        0usize,
        (
            buffer(py, offsets),
            buffer(py, items),
            PyBytes::new(py, &c.items.values),
        ),
    )
        .into_pyobject(py)
}

impl Batch {
    /// `(rows, [column, ...])`, the game columns first, then the tags.
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let columns = PyList::empty(py);
        columns.append(numbers(py, "game", "uint64", &self.game)?)?;
        columns.append(numbers(py, "byte", "uint64", &self.byte)?)?;
        for (name, c) in &self.tags {
            columns.append(strings(py, name, "tag", c)?)?;
        }
        columns.append(lists(py, "moves", &self.moves)?)?;
        columns.append(lists(py, "uci", &self.uci)?)?;
        columns.append(numbers(py, "plies", "uint32", &self.plies)?)?;
        columns.append(strings(py, "status", "string", &self.status)?)?;
        columns.append(strings(py, "result", "string", &self.result)?)?;
        columns.append(strings(py, "result_tag", "string", &self.result_tag)?)?;
        columns.append(strings(py, "language", "string", &self.language)?)?;
        columns.append(numbers(py, "errors", "uint32", &self.errors)?)?;
        columns.append(numbers(py, "warnings", "uint32", &self.warnings)?)?;
        columns.append(numbers(
            py,
            "first_error_ply",
            "uint32",
            &self.first_error_ply,
        )?)?;
        columns.append(strings(
            py,
            "first_error_code",
            "string",
            &self.first_error_code,
        )?)?;
        columns.append(strings(py, "fen", "string", &self.fen)?)?;
        (self.rows, columns).into_pyobject(py)
    }
}

/// The batches of an input, one per chunk, made on worker threads a few
/// chunks ahead (by `pgnkit.to_arrow` and `pgnkit.to_parquet`).
#[pyclass(module = "pgnkit")]
pub struct Batches {
    feed: Feed<Batch>,
}

#[pymethods]
impl Batches {
    /// The batches of `source`, read as `reading` says.
    #[new]
    fn new(py: Python<'_>, source: crate::Source, reading: Reading) -> PyResult<Batches> {
        let feed = Feed::open(py, source, reading, |options| {
            move |chunk: &Chunk| {
                let mut batch = Batch::default();
                batch.counted = each_game(chunk, &options, |r| batch.push(&r));
                batch
            }
        })?;
        Ok(Batches { feed })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// `(rows, columns)` of the next chunk.
    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        match self.feed.next(py)? {
            None => Ok(None),
            Some(batch) => batch.to_python(py).map(Some),
        }
    }
}
