//! Unified diffs of a text against its fixed copy: what `pgnkit check
//! --fix --diff` prints.
//!
//! The fixes change no line breaks, so the lines of the text as read and as
//! fixed are compared one for one: no general diff algorithm is needed, and
//! the work is linear in the text's length. Hunks carry three lines of
//! context, at the line numbers of the file the text comes from.
//!
//! ```
//! use pgnkit_report::unified_diff;
//!
//! let before = b"[Event \"x\"]\n\n1. e4 e5 2. Nf4 *\n";
//! let after = b"[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n";
//! let mut out = Vec::new();
//! unified_diff::write_header(&mut out, "games.pgn").unwrap();
//! unified_diff::write_hunks(&mut out, 10, before, after).unwrap();
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "--- a/games.pgn\n+++ b/games.pgn\n@@ -10,3 +10,3 @@\n [Event \"x\"]\n \n-1. e4 e5 2. Nf4 *\n+1. e4 e5 2. Nf3 *\n"
//! );
//! ```

use std::io::{self, Write};

/// Writes the two lines that open the diff of the file `name`
/// (`--- a/NAME`, `+++ b/NAME`), before its first hunk.
///
/// # Errors
/// Those of writing to `out`.
pub fn write_header(out: &mut impl Write, name: &str) -> io::Result<()> {
    writeln!(out, "--- a/{name}\n+++ b/{name}")
}

/// Lines of context around each change in a hunk.
const CONTEXT: usize = 3;

/// Writes the unified-diff hunks that turn `before` (a game as read, whose
/// first line is line `first_line` of its file, 1-based) into `after` (the
/// game as fixed). The fixes change no line breaks, so the game's lines are
/// compared one for one; should the numbers of lines differ, the lines from
/// the first difference to the last are one change.
///
/// # Errors
/// Those of writing to `out`.
pub fn write_hunks(
    out: &mut impl Write,
    first_line: usize,
    before: &[u8],
    after: &[u8],
) -> io::Result<()> {
    let old: Vec<&[u8]> = before.split_inclusive(|&b| b == b'\n').collect();
    let new: Vec<&[u8]> = after.split_inclusive(|&b| b == b'\n').collect();
    // Changed runs of lines: (start in old, end in old, start in new, end in new).
    let mut runs: Vec<(usize, usize, usize, usize)> = Vec::new();
    if old.len() == new.len() {
        let mut i = 0;
        while i < old.len() {
            if old.get(i) == new.get(i) {
                i += 1;
                continue;
            }
            let start = i;
            while i < old.len() && old.get(i) != new.get(i) {
                i += 1;
            }
            runs.push((start, i, start, i));
        }
    } else {
        let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
        let suffix = old
            .iter()
            .rev()
            .zip(new.iter().rev())
            .take_while(|(a, b)| a == b)
            .count()
            .min(old.len() - prefix)
            .min(new.len() - prefix);
        runs.push((prefix, old.len() - suffix, prefix, new.len() - suffix));
    }
    // Runs closer than twice the context share a hunk.
    let mut i = 0;
    while i < runs.len() {
        let mut j = i;
        while j + 1 < runs.len() && runs[j + 1].0 <= runs[j].1 + 2 * CONTEXT {
            j += 1;
        }
        let (first, last) = (runs[i], runs[j]);
        let old_from = first.0.saturating_sub(CONTEXT);
        let old_to = (last.1 + CONTEXT).min(old.len());
        let new_from = first.2.saturating_sub(CONTEXT);
        let new_to = (last.3 + CONTEXT).min(new.len());
        writeln!(
            out,
            "@@ -{},{} +{},{} @@",
            first_line + old_from,
            old_to - old_from,
            first_line + new_from,
            new_to - new_from
        )?;
        let mut o = old_from;
        for run in &runs[i..=j] {
            for l in &old[o..run.0] {
                line(out, b' ', l)?;
            }
            for l in &old[run.0..run.1] {
                line(out, b'-', l)?;
            }
            for l in &new[run.2..run.3] {
                line(out, b'+', l)?;
            }
            o = run.1;
        }
        for l in &old[o..old_to] {
            line(out, b' ', l)?;
        }
        i = j + 1;
    }
    Ok(())
}

/// One line of a hunk, ending in a line break (with the usual note when
/// the file's last line has none).
fn line(out: &mut impl Write, mark: u8, text: &[u8]) -> io::Result<()> {
    out.write_all(&[mark])?;
    out.write_all(text)?;
    if !text.ends_with(b"\n") {
        out.write_all(b"\n\\ No newline at end of file\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunks(first: usize, before: &str, after: &str) -> String {
        let mut out = Vec::new();
        write_hunks(&mut out, first, before.as_bytes(), after.as_bytes()).expect("write");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn a_changed_line_comes_with_three_lines_of_context() {
        let before = "[Event \"x\"]\n\n1. e4 e5\n2. Nf4 Nc6\n3. Bb5 a6\n4. Ba4 Nf6\n5. O-O *\n";
        let after = before.replace("Nf4", "Nf3 {pgnkit: \"Nf4\" written, \"Nf3\" applied}");
        assert_eq!(
            hunks(10, before, &after),
            "@@ -10,7 +10,7 @@\n [Event \"x\"]\n \n 1. e4 e5\n-2. Nf4 Nc6\n+2. Nf3 {pgnkit: \"Nf4\" written, \"Nf3\" applied} Nc6\n 3. Bb5 a6\n 4. Ba4 Nf6\n 5. O-O *\n"
        );
    }

    #[test]
    fn changes_far_apart_are_hunks_of_their_own() {
        let before: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let after = before
            .replace("line 2\n", "line two\n")
            .replace("line 18\n", "line eighteen\n");
        let text = hunks(1, &before, &after);
        let heads: Vec<&str> = text.lines().filter(|l| l.starts_with("@@")).collect();
        assert_eq!(heads, ["@@ -1,5 +1,5 @@", "@@ -15,6 +15,6 @@"]);
        assert!(text.contains("-line 18\n+line eighteen\n"), "{text}");
    }

    #[test]
    fn a_game_the_same_has_no_hunk() {
        assert_eq!(hunks(1, "1. e4 *\n", "1. e4 *\n"), "");
    }
}
