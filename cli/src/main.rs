//! The `pgnkit` binary: everything is in the library ([`pgnkit::main`]).

fn main() -> std::process::ExitCode {
    fixed_mmap_threshold();
    pgnkit::main()
}

/// Keeps glibc's malloc from raising its mmap threshold as blocks are
/// freed. By default the threshold follows the largest block freed (up to
/// 32 MiB); after that, a vector that grows to millions of entries (the
/// tokens of one game of millions of plies) is moved by copying within the
/// heap instead of by `mremap`, and for a moment holds its old and its new
/// block: a 10 MB game then peaked at 100 MB resident instead of 78 MB.
/// Fixing the threshold at its default (128 KiB) disables that adjustment.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn fixed_mmap_threshold() {
    // SAFETY: `mallopt` only sets a tuning parameter of the allocator; it
    // is called before any other thread exists.
    #[allow(unsafe_code)]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn fixed_mmap_threshold() {}
