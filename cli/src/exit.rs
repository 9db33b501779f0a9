//! How `pgnkit` ends: its exit statuses, and the cleanup on Ctrl-C or
//! SIGTERM (status 130) of the commands that write an index.

/// Exit status: nothing wrong.
pub const EXIT_OK: u8 = 0;
/// Exit status: problems found in the games.
pub const EXIT_PROBLEMS: u8 = 1;
/// Exit status: the command could not do its job.
pub const EXIT_FAILURE: u8 = 2;

/// Removes the half-written index and exits with status 130 on Ctrl-C or
/// SIGTERM (the spill files are anonymous, reclaimed by the system).
pub fn remove_index_on_interrupt() {
    // Set once per process; a second call (search --reindex after a build)
    // keeps the first handler, which does the same.
    let _ = ctrlc::set_handler(|| {
        pgnkit_index::remove_temporary_files();
        std::process::exit(130);
    });
}
