//! `pgnkit-work`: what pgnkit's commands do with the games of one chunk of
//! input, the work the [`pgnkit_driver::Driver`] runs on its threads.
//!
//! The driver knows chunks, not games; the binary knows flags and
//! terminals. In between, each command's work is a function of a chunk
//! and a plain configuration that gives data back for the printer:
//! [`check::check_chunk`] (diagnostics, `--games` records, the fixed copy),
//! [`convert::convert_chunk`] (the converted games), [`page::page_chunk`]
//! (the HTML report's cards), [`index::index_chunk`] (a batch of the
//! index) and [`index::build`] (the whole index of a file),
//! [`search::Search`] (the games a query selects, by the index or by a
//! scan); [`fix::FixOutput`] is where `check --fix` writes. No function
//! here prints to a terminal.
//!
//! ```
//! use pgnkit_replay::{Options, Selection};
//! use pgnkit_report::Format;
//! use pgnkit_work::{check::check_chunk, whole_chunk};
//!
//! let chunk = whole_chunk(b"1. e4 e5 2. Ke3 *\n".to_vec());
//! let out = check_chunk(&chunk, &Options::default(), &Selection::default(), Format::Json, false, false);
//! assert_eq!(out.totals.games, 1);
//! assert_eq!(out.totals.games_with_errors, 1, "the king cannot reach e3");
//! ```

pub mod check;
pub mod convert;
pub mod dedup;
pub mod fix;
pub mod index;
pub mod page;
pub mod search;

use std::sync::Arc;

use pgnkit_source::{Chunk, Data};

/// The whole of `data` as one chunk (games numbered from the start of
/// `data`, spans relative to it), for callers that hold a buffer rather
/// than a file: the fuzz targets, tests, [`convert::convert_bytes`].
pub fn whole_chunk(data: Vec<u8>) -> Chunk {
    let len = data.len();
    Chunk {
        data: Data::Owned(Arc::new(data)),
        range: 0..len,
        base: 0,
    }
}
