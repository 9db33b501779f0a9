//! Two records of the same chess games, as `pgnkit diff` compares them:
//! both players' scoresheets of a round, or a transcription and its
//! original.
//!
//! - [`pairing`]: which game of one file is which game of the other (by
//!   Round, White, Black and Date, then by order);
//! - [`compare`]: where the moves of two records of one game part, replayed
//!   side by side, and the game both agree on;
//! - [`records`]: each game of a file kept in a few bytes, read again when
//!   its pair is compared and its merged game written.
//!
//! ```
//! use pgnkit_diff::records::{compare_records, read_records};
//!
//! // One scoresheet in English SAN, the other in German long algebraic.
//! let a = b"[Round \"1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n";
//! let b = "[Round \"1\"]\n\n1. e2-e4 e7-e5 2. Sg1-f3 Sb8-c6 3. Lf1-c5 *\n".as_bytes();
//! let (ra, rb) = (read_records(a, None), read_records(b, None));
//! let (comparison, _) = compare_records((a, &ra[0]), (b, &rb[0]));
//! // They part at ply 5: Bb5 against Bc5.
//! assert_eq!(comparison.differences().len(), 1);
//! assert_eq!(comparison.differences()[0].ply, 5);
//! ```

pub mod compare;
pub mod pairing;
pub mod records;
