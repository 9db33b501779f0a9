//! Building an index: games are gathered in [`Batch`]es (one per chunk of
//! the PGN file, built in parallel), added in file order to a [`Builder`],
//! which writes the file to a temporary file beside its final name and
//! renames it into place, so that a crash never leaves a broken index.

mod atomic;
mod batch;
mod buckets;
mod builder;
mod file;
mod names;
mod partitions;
mod pipeline;
mod sort;
mod spilling;
#[cfg(test)]
mod tests;

pub use atomic::{remove_temporary_files, write_atomically};
pub use batch::Batch;
pub use builder::{BuildError, Builder, NAME_CACHE, Summary};
