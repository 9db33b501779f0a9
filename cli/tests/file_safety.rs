//! What pgnkit promises about the files it writes and reads
//! (`docs/files.md`), each promise tested on real files the way a user
//! would meet its fault: a full disk (a small tmpfs, mounted as root; else
//! a file-size limit), a symbolic link planted at a backup's name, two runs
//! at once, an input appended to or truncated while it is read, a file
//! owned by another user, absurd limits, a corrupted index, and runs
//! interrupted by SIGINT, SIGTERM, SIGHUP and SIGKILL. The games are copies
//! of a real one (Capablanca - Corzo, Havana 1901, from `testdata/repair`),
//! the first with a slip (`2.nf3`) that `check --fix` corrects.

use std::fs;
use std::io::Write;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::first_game;

/// The `pgnkit` binary.
fn pgnkit() -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("pgnkit"));
    cmd.stdin(Stdio::null());
    cmd
}

/// Runs `pgnkit ARGS` to its end.
fn run(args: &[&str]) -> Output {
    pgnkit().args(args).output().expect("pgnkit runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A path as an argument.
fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// `games` games: the real game, the first with a slip to fix.
fn games(games: usize) -> String {
    let game = first_game();
    let slip = game.replacen("2.Nf3", "2.nf3", 1);
    assert_ne!(slip, game);
    let mut all = String::with_capacity((game.len() + 2) * games);
    all.push_str(&slip);
    all.push_str("\n\n");
    for _ in 1..games {
        all.push_str(&game);
        all.push_str("\n\n");
    }
    all
}

/// Enough games (about 40 MB) that a run takes a while (`-j1`).
const MANY: usize = 80_000;

/// Writes `games(n)` to `dir/name`.
fn pgn(dir: &Path, name: &str, n: usize) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, games(n)).expect("write the games");
    path
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The temporary files and locks of pgnkit in `dir`.
fn leftovers(dir: &Path) -> Vec<String> {
    names(dir)
        .into_iter()
        .filter(|n| n.ends_with(".tmp") || n.ends_with(".pgnkit-lock"))
        .collect()
}

/// Waits (up to a minute) until `ready` holds, while `child` runs.
fn wait_for(child: &mut Child, what: &str, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        if let Some(status) = child.try_wait().expect("try_wait") {
            panic!("pgnkit ended ({status}) before {what}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no {what} after a minute"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// A temporary file of pgnkit's in `dir` that holds data.
fn temporary_with_data(dir: &Path) -> bool {
    fs::read_dir(dir).expect("dir").flatten().any(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        name.ends_with(".tmp") && e.metadata().is_ok_and(|m| m.len() > 0)
    })
}

/// Sends `signal` (`INT`, `TERM`, `HUP`, `KILL`) to `child`.
fn kill(child: &Child, signal: &str) {
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

/// Waits for `child`: its output.
fn finish(child: Child) -> Output {
    child.wait_with_output().expect("wait")
}

/// Starts `pgnkit ARGS`, its output kept (little: a summary, a few
/// diagnostics).
fn spawn(args: &[&str]) -> Child {
    pgnkit()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn")
}

/// Waits for `child` at most 30 s (then kills it and fails: `what`).
fn within_30s(mut child: Child, what: &str) -> Output {
    let started = Instant::now();
    while child.try_wait().expect("try_wait").is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{what} after 30 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    finish(child)
}

/// Whether the tests run as root (chown to another user, mount a tmpfs).
fn root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| text(&o.stdout).trim() == "0")
}

/// A directory on a small disk: a tmpfs of that size where one can be
/// mounted (as root, as CI runs), else a plain directory whose files are
/// limited to that size (`ulimit -f`): either way a write past it fails.
struct SmallDisk {
    dir: tempfile::TempDir,
    mounted: bool,
    bytes: u64,
}

impl SmallDisk {
    fn new(bytes: u64) -> SmallDisk {
        let dir = tempfile::tempdir().expect("tempdir");
        let mounted = root()
            && Command::new("mount")
                .args(["-t", "tmpfs", "-o"])
                .arg(format!("size={bytes}"))
                .args(["tmpfs", arg(dir.path())])
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
        SmallDisk {
            dir,
            mounted,
            bytes,
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `pgnkit ARGS`, with the file-size limit when no tmpfs is mounted.
    fn run(&self, args: &[&str]) -> Output {
        if self.mounted {
            return run(args);
        }
        Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -f {} && exec \"$0\" \"$@\"",
                self.bytes / 512
            ))
            .arg(assert_cmd::cargo::cargo_bin("pgnkit"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("sh runs")
    }

    /// What a write past its end says.
    fn full(&self) -> &'static str {
        if self.mounted {
            "No space left on device"
        } else {
            "File too large"
        }
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount").arg(self.dir.path()).status();
        }
    }
}

// 1. A full disk never commits a partial output, and a failed backup
//    leaves the previous one whole.

#[test]
fn check_fix_onto_a_full_disk_keeps_the_old_output_and_names_it() {
    let work = tempfile::tempdir().expect("tempdir");
    let input = pgn(work.path(), "g.pgn", 4_000);
    let disk = SmallDisk::new(1 << 20);
    let out = disk.path().join("fixed.pgn");
    fs::write(&out, "the old fixed games").expect("write");
    let done = disk.run(&["check", "-q", "--fix", "-o", arg(&out), arg(&input)]);
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    assert_eq!(fs::read(&out).expect("read"), b"the old fixed games");
    assert_eq!(names(disk.path()), ["fixed.pgn"], "{stderr}");
    let said = format!("cannot write `{}`: {}", out.display(), disk.full());
    assert!(stderr.contains(&said), "{stderr}");
    assert_eq!(stderr.matches(disk.full()).count(), 1, "{stderr}");
    assert!(!stderr.contains("wrote"), "{stderr}");
    assert!(!stderr.contains("g.pgn:"), "the input is blamed: {stderr}");
}

#[test]
fn search_non_matching_onto_a_full_disk_keeps_the_old_file() {
    let work = tempfile::tempdir().expect("tempdir");
    let input = pgn(work.path(), "g.pgn", 4_000);
    let disk = SmallDisk::new(1 << 20);
    let rest = disk.path().join("rest.pgn");
    fs::write(&rest, "the old rest").expect("write");
    let done = disk.run(&[
        "search",
        "-q",
        "--white",
        "Nobody",
        "--non-matching",
        arg(&rest),
        arg(&input),
    ]);
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    assert_eq!(fs::read(&rest).expect("read"), b"the old rest");
    assert_eq!(names(disk.path()), ["rest.pgn"], "{stderr}");
    assert!(
        stderr.contains(&format!("cannot write `{}`", rest.display())),
        "{stderr}"
    );
}

#[test]
fn a_backup_on_a_nearly_full_disk_keeps_the_original_whole() {
    // 400 KB of games and a 100 KB backup of an earlier run on a 1000 KB
    // disk: the fixed copy fits beside them, a second copy for the backup
    // does not.
    let disk = SmallDisk::new(1000 << 10);
    let file = pgn(disk.path(), "g.pgn", 780);
    let original = fs::read(&file).expect("read");
    assert!((390 << 10..410 << 10).contains(&original.len()));
    let orig = disk.path().join("g.pgn.orig");
    fs::write(&orig, vec![b'%'; 100 << 10]).expect("write");
    let done = disk.run(&["check", "-q", "--fix", "--in-place", arg(&file)]);
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(1), "{stderr}");
    assert_eq!(
        fs::read(&orig).expect("read"),
        original,
        "the backup is not whole"
    );
    let fixed = fs::read_to_string(&file).expect("read");
    assert!(!fixed.contains("2.nf3"), "not fixed");
    assert!(leftovers(disk.path()).is_empty());
}

// 2. Symbolic links: never written through at a backup's name; followed,
//    as `sed -i --follow-symlinks` does, at the file itself.

#[test]
fn a_link_at_the_backup_name_is_replaced_not_written_through() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = pgn(dir.path(), "g.pgn", 3);
    let original = fs::read(&file).expect("read");
    let victim = dir.path().join("victim.txt");
    fs::write(&victim, "someone else's file").expect("write");
    std::os::unix::fs::symlink(&victim, dir.path().join("g.pgn.orig")).expect("symlink");
    let done = run(&["check", "-q", "--fix", "--in-place", arg(&file)]);
    assert_eq!(done.status.code(), Some(1), "{}", text(&done.stderr));
    assert_eq!(fs::read(&victim).expect("read"), b"someone else's file");
    let orig = dir.path().join("g.pgn.orig");
    assert!(
        !fs::symlink_metadata(&orig)
            .expect("meta")
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(&orig).expect("read"), original);
}

#[test]
fn a_linked_file_is_fixed_where_it_lies_and_the_link_kept() {
    let dir = tempfile::tempdir().expect("tempdir");
    let real = pgn(dir.path(), "real.pgn", 3);
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink("real.pgn", &link).expect("symlink");
    let done = run(&["check", "-q", "--fix", "--in-place", arg(&link)]);
    assert_eq!(done.status.code(), Some(1), "{}", text(&done.stderr));
    assert!(
        fs::symlink_metadata(&link)
            .expect("meta")
            .file_type()
            .is_symlink()
    );
    assert!(!fs::read_to_string(&real).expect("read").contains("2.nf3"));
    assert!(dir.path().join("real.pgn.orig").exists());
    // `-o` onto a link writes the file it points to.
    let out = dir.path().join("out-link.pgn");
    let target = dir.path().join("out.pgn");
    fs::write(&target, "old").expect("write");
    std::os::unix::fs::symlink("out.pgn", &out).expect("symlink");
    let done = run(&["convert", "-q", "-o", arg(&out), arg(&real)]);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert!(
        fs::symlink_metadata(&out)
            .expect("meta")
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&target)
            .expect("read")
            .contains("Capablanca")
    );
}

// 3. A lock for in-place rewrites, and a check that the input did not
//    change while it was read.

#[test]
fn a_second_in_place_run_at_once_is_refused_and_the_backup_is_the_original() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = pgn(dir.path(), "g.pgn", MANY);
    let original = fs::read(&file).expect("read");
    let mut first = spawn(&["check", "-q", "-j1", "--fix", "--in-place", arg(&file)]);
    let lock = dir.path().join("g.pgn.pgnkit-lock");
    wait_for(&mut first, "the lock", || lock.exists());
    let second = run(&["check", "-q", "--fix", "--in-place", arg(&file)]);
    // `check` reports an input it could not take on standard output (JSON
    // here: no terminal).
    let stderr = text(&second.stdout) + &text(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is being rewritten by another pgnkit run"),
        "{stderr}"
    );
    let first = finish(first);
    assert_eq!(first.status.code(), Some(1), "{}", text(&first.stderr));
    assert_eq!(
        fs::read(dir.path().join("g.pgn.orig")).expect("read"),
        original
    );
    assert!(leftovers(dir.path()).is_empty());
}

#[test]
fn a_game_appended_while_the_file_is_fixed_in_place_is_kept() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = pgn(dir.path(), "g.pgn", MANY);
    let mut run = spawn(&["check", "-q", "-j1", "--fix", "--in-place", arg(&file)]);
    let lock = dir.path().join("g.pgn.pgnkit-lock");
    wait_for(&mut run, "the lock", || lock.exists());
    let appended = "[Event \"appended\"]\n\n1. d4 d5 *\n";
    fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .and_then(|mut f| f.write_all(appended.as_bytes()))
        .expect("append");
    let done = finish(run);
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    let said = text(&done.stdout) + &stderr;
    assert!(said.contains("changed while it was read"), "{said}");
    let now = fs::read_to_string(&file).expect("read");
    assert!(now.ends_with(appended), "the appended game was dropped");
    assert!(now.contains("2.nf3"), "rewritten all the same");
    assert_eq!(names(dir.path()), ["g.pgn"]);
}

// 4. An input truncated while it is read is named, not a SIGBUS crash.

/// Truncates `file` while `run` reads it: the run must name it, with exit
/// status 2. Its standard error.
fn truncated_under(run: Child, file: &Path) -> String {
    fs::OpenOptions::new()
        .write(true)
        .open(file)
        .and_then(|f| f.set_len(0))
        .expect("truncate");
    let done = finish(run);
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    let said = format!("`{}` was truncated while it was read", file.display());
    assert!(stderr.contains(&said), "{stderr}");
    stderr
}

#[test]
fn an_input_truncated_while_checked_is_named_with_status_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = pgn(dir.path(), "g.pgn", MANY);
    let out = dir.path().join("fixed.pgn");
    let mut run = spawn(&["check", "-q", "-j1", "--fix", "-o", arg(&out), arg(&file)]);
    wait_for(&mut run, "fixed games written", || {
        temporary_with_data(dir.path())
    });
    let stderr = truncated_under(run, &file);
    assert_eq!(names(dir.path()), ["g.pgn"], "{stderr}");
}

#[test]
fn a_file_truncated_while_an_indexed_search_reads_it_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = pgn(dir.path(), "g.pgn", MANY);
    let indexed = run(&["index", "-q", arg(&file)]);
    assert_eq!(indexed.status.code(), Some(0), "{}", text(&indexed.stderr));
    // A material filter reads (and replays) every game from the file.
    let run = spawn(&[
        "search",
        "-q",
        "-j1",
        "--count",
        "--material",
        "q*r*p*b2n2< q=r=p=b2<n2",
        arg(&file),
    ]);
    std::thread::sleep(Duration::from_millis(300));
    truncated_under(run, &file);
}

// 5. The owner, group and mode of a rewritten file are kept.

#[test]
fn a_users_file_fixed_by_root_stays_theirs() {
    if !root() {
        return; // only root can give a file to another user
    }
    let dir = tempfile::tempdir().expect("tempdir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    let file = pgn(dir.path(), "g.pgn", 3);
    let out = dir.path().join("fixed.pgn");
    fs::write(&out, "old").expect("write");
    for f in [&file, &out] {
        std::os::unix::fs::chown(f, Some(65534), Some(65534)).expect("chown nobody");
        fs::set_permissions(f, fs::Permissions::from_mode(0o640)).expect("chmod");
    }
    let done = run(&["check", "-q", "--fix", "-o", arg(&out), arg(&file)]);
    assert_eq!(done.status.code(), Some(1), "{}", text(&done.stderr));
    let done = run(&["check", "-q", "--fix", "--in-place", arg(&file)]);
    assert_eq!(done.status.code(), Some(1), "{}", text(&done.stderr));
    let orig = dir.path().join("g.pgn.orig");
    for f in [&file, &out, &orig] {
        let meta = fs::metadata(f).expect("meta");
        assert_eq!((meta.uid(), meta.gid()), (65534, 65534), "{}", f.display());
        assert_eq!(meta.mode() & 0o7777, 0o640, "{}", f.display());
    }
    assert!(!fs::read_to_string(&file).expect("read").contains("2.nf3"));
}

// 6. Limits: threads, memory, index paths, file sizes.

#[test]
fn absurd_jobs_are_capped_with_a_warning() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = pgn(dir.path(), "g.pgn", 3);
    let run = spawn(&["check", "-q", "-j", "100000", arg(&file)]);
    let done = within_30s(run, "-j 100000 still running");
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("warning: -j 100000 is more than"),
        "{stderr}"
    );
}

#[test]
fn a_memory_budget_larger_than_the_machine_is_used_as_it_grows() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = pgn(dir.path(), "g.pgn", 3);
    // More than this machine (and most) has: reserved at once, it aborts.
    let done = run(&[
        "dedup",
        "-q",
        "--format",
        "json",
        "--memory",
        "4T",
        arg(&file),
    ]);
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(1), "{stderr}");
    // The game with the slip is incomplete: the other two are duplicates.
    assert!(
        text(&done.stdout).contains("\"duplicates\":1"),
        "{}",
        text(&done.stdout)
    );
}

#[test]
fn a_named_pipe_at_the_index_name_does_not_block_a_search() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = pgn(dir.path(), "g.pgn", 3);
    let fifo = dir.path().join("g.pgn.pgnkit-index");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let run = spawn(&["search", "--count", arg(&file)]);
    let done = within_30s(run, "search blocked on a named pipe");
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
}

#[test]
fn a_file_size_limit_is_an_error_naming_the_output_not_a_kill() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = pgn(dir.path(), "g.pgn", 4_000);
    let out = dir.path().join("out.pgn");
    let done = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 256 && exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("pgnkit"))
        .args(["convert", "-q", "-o", arg(&out), arg(&file)])
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot write `{}`: File too large", out.display())),
        "{stderr}"
    );
    assert_eq!(names(dir.path()), ["g.pgn"]);
}

// 7. An index's name table is checked before `dedup --against` trusts it.

#[test]
fn dedup_against_an_index_with_a_flipped_name_refuses_it() {
    use pgnkit_index::layout::header;
    let dir = tempfile::tempdir().expect("tempdir");
    let known = pgn(dir.path(), "known.pgn", 3);
    let indexed = run(&["index", "-q", arg(&known)]);
    assert_eq!(indexed.status.code(), Some(0), "{}", text(&indexed.stderr));
    let index = dir.path().join("known.pgn.pgnkit-index");
    let mut bytes = fs::read(&index).expect("read");
    let at = |field: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[field..field + 8]);
        usize::try_from(u64::from_le_bytes(word)).expect("offset")
    };
    // A bit of "Capablanca" in the name table.
    let names_at = at(header::STRING_DATA_AT);
    let capablanca = bytes[names_at..]
        .windows(10)
        .position(|w| w == b"Capablanca")
        .expect("the name is in the table");
    bytes[names_at + capablanca] ^= 0x01;
    fs::write(&index, &bytes).expect("write");
    let new = pgn(dir.path(), "new.pgn", 2);
    let done = run(&[
        "dedup",
        "-q",
        "--format",
        "json",
        "--against",
        arg(&index),
        arg(&new),
    ]);
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("name table"), "{stderr}");
}

// 8. Messages name the culprit, once; runs that fail write nothing.

#[test]
fn split_onto_a_full_disk_replaces_no_part_of_an_earlier_run() {
    let work = tempfile::tempdir().expect("tempdir");
    let input = pgn(work.path(), "g.pgn", 4_000);
    let disk = SmallDisk::new(1 << 20);
    for n in 1..=3 {
        fs::write(disk.path().join(format!("part-{n}.pgn")), "an earlier part").expect("write");
    }
    let pattern = disk.path().join("part-{n}.pgn");
    let done = disk.run(&[
        "convert",
        "-q",
        "--split",
        "400",
        "-o",
        arg(&pattern),
        arg(&input),
    ]);
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(disk.full()), "{stderr}");
    assert_eq!(
        names(disk.path()),
        ["part-1.pgn", "part-2.pgn", "part-3.pgn"],
        "{stderr}"
    );
    for n in 1..=3 {
        let part = fs::read(disk.path().join(format!("part-{n}.pgn"))).expect("read");
        assert_eq!(part, b"an earlier part");
    }
}

#[test]
fn check_fix_and_convert_agree_when_an_input_cannot_be_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = pgn(dir.path(), "g.pgn", 3);
    let missing = dir.path().join("missing.pgn");
    for command in [&["check", "--fix"][..], &["convert"][..]] {
        let out = dir.path().join("out.pgn");
        fs::write(&out, "old").expect("write");
        let mut args = command.to_vec();
        args.extend(["-q", "-o", arg(&out), arg(&good), arg(&missing)]);
        let done = run(&args);
        let stderr = text(&done.stderr);
        assert_eq!(done.status.code(), Some(2), "{command:?}: {stderr}");
        assert_eq!(fs::read(&out).expect("read"), b"old", "{command:?}");
        let said = format!(
            "nothing written to `{}`: an input could not be read",
            out.display()
        );
        assert!(stderr.contains(&said), "{command:?}: {stderr}");
    }
}

#[test]
fn split_parts_of_a_name_that_is_not_utf8_keep_its_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = pgn(dir.path(), "g.pgn", 2);
    let out = tempfile::tempdir().expect("tempdir");
    let mut pattern = out.path().as_os_str().to_owned().into_vec();
    pattern.extend_from_slice(b"/caf\xe9-{n}.pgn");
    let pattern = std::ffi::OsString::from_vec(pattern);
    let done = pgnkit()
        .args(["convert", "-q", "--split", "1", "-o"])
        .arg(&pattern)
        .arg(&input)
        .output()
        .expect("run");
    assert_eq!(done.status.code(), Some(1), "{}", text(&done.stderr));
    for n in 1..=2 {
        let mut name = b"caf\xe9-".to_vec();
        name.extend_from_slice(format!("{n}.pgn").as_bytes());
        let part = out.path().join(std::ffi::OsString::from_vec(name));
        assert!(part.exists(), "{:?}", names(out.path()));
    }
}

#[test]
fn an_unreadable_input_is_said_once_with_its_cause() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("unread.pgn");
    let done = run(&["dedup", "-q", arg(&missing)]);
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.matches("cannot read").count(), 1, "{stderr}");
    assert!(stderr.contains("No such file or directory"), "{stderr}");
}

#[test]
fn an_index_onto_a_full_disk_says_its_cause_once_and_leaves_nothing() {
    let disk = SmallDisk::new(600 << 10);
    if !disk.mounted {
        return; // a file-size limit of 600 KB fits this index: a disk is needed
    }
    let file = pgn(disk.path(), "g.pgn", 780);
    let done = disk.run(&["index", "-q", arg(&file)]);
    let stderr = text(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.matches(disk.full()).count(), 1, "{stderr}");
    assert!(stderr.contains("g.pgn.pgnkit-index"), "{stderr}");
    assert_eq!(names(disk.path()), ["g.pgn"], "{stderr}");
}

// 9. Interrupted runs leave no temporary file; a killed run's are removed
//    by the next.

/// Whether this process ignores signal `number` (as `nohup` starts it):
/// pgnkit then leaves it ignored too.
fn ignored(number: u32) -> bool {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (number - 1)) != 0)
}

/// Starts `pgnkit ARGS` in `dir` on many games, waits for its temporary
/// file, sends `signal` and gives its output.
fn interrupted(dir: &Path, args: &[&str], signal: &str) -> Output {
    let mut child = pgnkit()
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    wait_for(&mut child, "a temporary file", || {
        names(dir).iter().any(|n| n.ends_with(".tmp"))
    });
    kill(&child, signal);
    finish(child)
}

#[test]
fn sigint_sigterm_and_sighup_remove_the_temporary_files() {
    let runs: [(&[&str], &str, i32); 5] = [
        (
            &["convert", "-q", "-j1", "-o", "out.pgn", "g.pgn"],
            "INT",
            130,
        ),
        (
            &["check", "-q", "-j1", "--fix", "--in-place", "g.pgn"],
            "TERM",
            143,
        ),
        (&["index", "-q", "-j1", "g.pgn"], "HUP", 129),
        (
            &[
                "convert",
                "-q",
                "-j1",
                "--split",
                "100",
                "-o",
                "p-{n}.pgn",
                "g.pgn",
            ],
            "TERM",
            143,
        ),
        (
            &[
                "dedup", "-q", "-j1", "--format", "json", "-o", "kept.pgn", "g.pgn",
            ],
            "INT",
            130,
        ),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let file = pgn(dir.path(), "g.pgn", MANY);
    let original = fs::read(&file).expect("read");
    for (args, signal, status) in runs {
        let number = u32::try_from(status - 128).expect("a signal");
        if ignored(number) {
            continue; // ignored by whoever started the tests: pgnkit too
        }
        let done = interrupted(dir.path(), args, signal);
        assert_eq!(
            done.status.code(),
            Some(status),
            "{args:?} after SIG{signal}: {}",
            text(&done.stderr)
        );
        assert_eq!(names(dir.path()), ["g.pgn"], "{args:?} after SIG{signal}");
        assert!(fs::read(&file).expect("read") == original, "{args:?}");
    }
}

#[test]
fn a_killed_runs_temporary_file_is_removed_by_the_next_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    pgn(dir.path(), "g.pgn", MANY);
    let done = interrupted(
        dir.path(),
        &["convert", "-q", "-j1", "-o", "out.pgn", "g.pgn"],
        "KILL",
    );
    assert_eq!(done.status.code(), None, "killed");
    assert_eq!(leftovers(dir.path()).len(), 1, "{:?}", names(dir.path()));
    let small = pgn(dir.path(), "small.pgn", 2);
    let next = pgnkit()
        .args(["convert", "-q", "-o", "small-out.pgn", arg(&small)])
        .current_dir(dir.path())
        .output()
        .expect("run");
    assert_eq!(next.status.code(), Some(1), "{}", text(&next.stderr));
    assert_eq!(names(dir.path()), ["g.pgn", "small-out.pgn", "small.pgn"]);
}
