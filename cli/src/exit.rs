//! How `pgnkit` ends: its exit statuses (the cleanup on an interrupt is
//! [`pgnkit_atomic::signals`]).

/// Exit status: nothing wrong.
pub const EXIT_OK: u8 = 0;
/// Exit status: problems found in the games.
pub const EXIT_PROBLEMS: u8 = 1;
/// Exit status: the command could not do its job.
pub const EXIT_FAILURE: u8 = 2;
