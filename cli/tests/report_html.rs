//! `pgnkit report`: the page of the `testdata/check` fixtures and of a
//! 20,000-game file opened in headless Chromium (Debian's `chromium`),
//! which must log no console message and make no network request, and
//! whose page, once its script ran, has one card and one board of the
//! position before the faulty move per game with a problem (as `pgnkit
//! check` counts them; a card has boards of the final position where the
//! rules end the game and of a claimable draw too); screenshots are saved
//! under the target directory (`report-*.png`).
//!
//! Without Chromium the browser tests print `skipped:` and pass, except
//! under CI (`CI` set), where they fail: `.ci/run` installs it.

#![allow(clippy::unwrap_used)] // test helpers: a failure is a test failure

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn pgnkit() -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("pgnkit"));
    cmd.current_dir(root()).stdin(Stdio::null());
    cmd
}

/// The `testdata/check` fixtures.
fn fixtures() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("testdata/check"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    files
}

/// A file of exactly 20,000 real games: the 928 tactics positions of
/// `testdata/convert/tactics-first150.pgn` (each a FEN and a few moves)
/// over and over, with the broken games of three `testdata/check`
/// fixtures after each 928.
fn twenty_thousand(dir: &Path) -> PathBuf {
    let tactics =
        std::fs::read_to_string(root().join("testdata/convert/tactics-first150.pgn")).unwrap();
    let games: Vec<String> = tactics
        .split("\n\n[Result ")
        .enumerate()
        .map(|(i, g)| {
            if i == 0 {
                g.to_owned()
            } else {
                format!("[Result {g}")
            }
        })
        .map(|g| format!("{}\n\n", g.trim_end()))
        .collect();
    assert_eq!(games.len(), 928);
    let broken: Vec<(String, usize)> = [
        "missing-move.pgn",
        "illegal-ambiguous.pgn",
        "move-number.pgn",
    ]
    .iter()
    .map(|f| root().join("testdata/check").join(f))
    .map(|path| {
        let text = std::fs::read_to_string(&path).unwrap();
        let games = usize::try_from(checked(&[path]).0).unwrap();
        (format!("{}\n\n", text.trim_end()), games)
    })
    .collect();
    let mut out = String::new();
    let mut count = 0;
    'fill: loop {
        for g in &games {
            if count == 20_000 {
                break 'fill;
            }
            out.push_str(g);
            count += 1;
        }
        for (text, n) in &broken {
            if count + n > 20_000 {
                continue;
            }
            out.push_str(text);
            count += n;
        }
    }
    let path = dir.join("twenty-thousand.pgn");
    std::fs::write(&path, out).unwrap();
    path
}

/// What `pgnkit check` counts in `files`: games, and games with a problem
/// (a distinct file and game among its diagnostics).
fn checked(files: &[PathBuf]) -> (u64, usize) {
    let (games, with_problems, _) = checked_summary(files);
    (games, with_problems)
}

/// [`checked`], and `check`'s summary record.
fn checked_summary(files: &[PathBuf]) -> (u64, usize, Value) {
    let out = pgnkit()
        .args(["check", "-q", "--no-config", "--format", "json"])
        .args(files)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let diagnostics = pgnkit_testkit::records(&stdout, "diagnostic");
    let games: BTreeSet<(String, u64)> = diagnostics
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_owned(),
                d["game"].as_u64().unwrap(),
            )
        })
        .collect();
    let summary = pgnkit_testkit::records(&stdout, "summary")[0].clone();
    (summary["games"].as_u64().unwrap(), games.len(), summary)
}

/// Writes the report of `files` to `html`.
fn report(files: &[PathBuf], html: &Path, extra: &[&str]) {
    let out = pgnkit()
        .args(["report", "-q", "--no-config", "-o"])
        .arg(html)
        .args(extra)
        .args(files)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The Chromium program, if installed.
fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser"]
        .into_iter()
        .find(|p| pgnkit_testkit::runs(p, &["--version"]));
    if found.is_none() {
        pgnkit_testkit::skip("Chromium is not installed (apt-get install chromium)");
    }
    found
}

/// What headless Chromium saw of a page.
struct Seen {
    /// The page as its script left it.
    dom: String,
    /// Console messages.
    console: Vec<String>,
    /// Network requests the page made (not the browser's own).
    requests: Vec<String>,
}

/// Opens `page` in headless Chromium (a fresh profile, no background
/// networking), with a screenshot to `screenshot` if given.
fn open(chromium: &str, page: &Path, screenshot: Option<&Path>) -> Seen {
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("net.json");
    let mut cmd = Command::new(chromium);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!(
        "--user-data-dir={}",
        dir.path().join("profile").display()
    ))
    .arg(format!("--log-net-log={}", net.display()));
    match screenshot {
        Some(png) => cmd
            .arg("--window-size=1200,1600")
            .arg(format!("--screenshot={}", png.display())),
        None => cmd.arg("--dump-dom"),
    };
    cmd.arg(format!("file://{}", page.display()));
    let out = with_timeout(cmd, Duration::from_secs(120));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let console = stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_owned)
        .collect();
    let log: Value = serde_json::from_slice(&std::fs::read(&net).unwrap()).unwrap();
    let start = &log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"];
    // The page's own requests are those of its network partition, the
    // file:// one; the browser's (updates, time) are of none.
    let requests = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| &e["type"] == start)
        .map(|e| &e["params"])
        .filter(|p| {
            p["network_isolation_key"]
                .as_str()
                .is_some_and(|k| k.contains("file://"))
        })
        .filter_map(|p| p["url"].as_str())
        .filter(|u| !u.starts_with("file:") && !u.starts_with("data:"))
        .map(str::to_owned)
        .collect();
    Seen {
        dom: String::from_utf8_lossy(&out.stdout).into_owned(),
        console,
        requests,
    }
}

/// Runs `cmd` to its end, killing it after `limit`.
fn with_timeout(mut cmd: Command, limit: Duration) -> std::process::Output {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let started = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    loop {
        if let Ok(out) = rx.recv_timeout(Duration::from_millis(200)) {
            return out.unwrap();
        }
        if started.elapsed() > limit {
            let _ = Command::new("kill").arg(id.to_string()).status();
            panic!("{cmd:?} ran past {limit:?}");
        }
    }
}

/// The number in the summary row `label` of a page.
fn summary_count(dom: &str, label: &str) -> u64 {
    let row = format!("<tr><th>{label}</th><td>");
    let at = dom.find(&row).unwrap_or_else(|| panic!("no {label} row")) + row.len();
    dom[at..].split('<').next().unwrap().parse().unwrap()
}

/// Opens the report of `files` and checks it against `pgnkit check`.
fn check_page(chromium: &str, name: &str, files: &[PathBuf]) {
    let (games, with_problems, summary) = checked_summary(files);
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join(format!("{name}.html"));
    report(files, &html, &[]);
    let size = std::fs::metadata(&html).unwrap().len();
    let seen = open(chromium, &html, None);
    assert_eq!(
        seen.console,
        Vec::<String>::new(),
        "{name}: console messages"
    );
    assert_eq!(
        seen.requests,
        Vec::<String>::new(),
        "{name}: network requests"
    );
    let dom = &seen.dom;
    assert_eq!(summary_count(dom, "games"), games, "{name}");
    for count in ["errors", "warnings"] {
        assert_eq!(
            Some(summary_count(dom, count)),
            summary[count].as_u64(),
            "{name}: {count}"
        );
    }
    assert_eq!(
        summary_count(dom, "games with problems"),
        with_problems as u64,
        "{name}"
    );
    assert_eq!(
        dom.matches("<article class=\"card\"").count(),
        with_problems,
        "{name}: cards"
    );
    // One board of the position before the faulty move a card, and as
    // many more as there are cards of games the rules end or with a
    // claimable draw.
    let fault = dom.matches("<figure class=\"fault\"><svg ").count();
    assert_eq!(fault, with_problems, "{name}: boards");
    let more = dom.matches("<figure class=\"ending\"><svg ").count()
        + dom.matches("<figure class=\"claim\"><svg ").count();
    assert_eq!(
        dom.matches("class=\"board\"").count(),
        fault + more,
        "{name}"
    );
    if name == "fixtures" {
        assert!(
            more > 0,
            "the fixtures have games with problems that end by rule"
        );
    }
    // The script ran: the filters are shown and count the cards.
    assert!(
        dom.contains("<form id=\"filters\">"),
        "{name}: the filters are still hidden"
    );
    assert!(
        dom.contains(&format!("<span id=\"shown\">{with_problems}</span>")),
        "{name}"
    );
    let png = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("report-{name}.png"));
    let _ = std::fs::remove_file(&png);
    open(chromium, &html, Some(&png));
    let shot = std::fs::read(&png).unwrap();
    assert!(shot.starts_with(b"\x89PNG"), "{name}: no screenshot");
    eprintln!(
        "{name}: {games} games, {with_problems} cards, {size} bytes; screenshot {}",
        png.display()
    );
}

#[test]
fn the_fixtures_page_in_chromium() {
    let Some(chromium) = chromium() else { return };
    check_page(chromium, "fixtures", &fixtures());
}

#[test]
fn a_twenty_thousand_game_page_in_chromium() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = twenty_thousand(dir.path());
    assert_eq!(checked(std::slice::from_ref(&file)).0, 20_000);
    check_page(chromium, "twenty-thousand", &[file]);
}

/// The checks above can fail: a page with a script error and an image from
/// the network is caught.
#[test]
fn chromium_catches_console_errors_and_requests() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("bad.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><body><img src=\"http://example.invalid/a.png\">\
         <script>console.error('boom'); undefinedFunction();</script></body></html>",
    )
    .unwrap();
    let seen = open(chromium, &page, None);
    assert!(
        seen.console.iter().any(|l| l.contains("boom")),
        "{:?}",
        seen.console
    );
    assert!(
        seen.console.iter().any(|l| l.contains("undefinedFunction")),
        "{:?}",
        seen.console
    );
    assert_eq!(seen.requests, ["http://example.invalid/a.png"]);
}

/// `--max-cards`: the first N games with a problem get a card, the page
/// says how many were left out.
#[test]
fn max_cards_leaves_out_the_rest_and_says_so() {
    let files = fixtures();
    let (_, with_problems) = checked(&files);
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("five.html");
    report(&files, &html, &["--max-cards", "5"]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<article class=\"card\"").count(), 5);
    let note = format!(
        "5 cards; {} games with problems left out",
        with_problems - 5
    );
    assert!(page.contains(&note), "no `{note}`");
}

/// A card stays small whatever the game: a real game written on one line
/// with 7 KB of comment either side of its faulty move (the text around
/// it is cut), or a megabyte (a line too long to show: named by its line
/// and column only, as `check` does).
#[test]
fn a_card_is_bounded_on_long_lines() {
    let game = std::fs::read_to_string(root().join("testdata/check/missing-move.pgn")).unwrap();
    for (repeat, shown) in [(700, true), (100_000, false)] {
        let comment = format!("{{{}}}", "a & b < c ".repeat(repeat));
        let long = game.replacen("3.Kg3", &format!("{comment} 3.Kg3 {comment}"), 1);
        assert_ne!(long, game);
        let dir = tempfile::tempdir().unwrap();
        let (pgn, html) = (dir.path().join("long.pgn"), dir.path().join("long.html"));
        std::fs::write(&pgn, long).unwrap();
        report(&[pgn], &html, &[]);
        let page = std::fs::read_to_string(&html).unwrap();
        let card = &page[page.find("<article").unwrap()..];
        assert!(card.contains("<span class=\"code\">missing-move</span>"));
        assert_eq!(card.contains("<mark>Kg3</mark>"), shown, "{repeat}");
        assert!(card.len() < 20_000, "a card of {} bytes", card.len());
    }
}

/// `check --format html` writes the page `report -o -` writes, for the
/// same files, with the same exit status; the flags that shape the other
/// formats are refused (exit 2), not ignored.
#[test]
fn check_format_html_is_the_report_page() {
    let files = fixtures();
    let page = |args: &[&str]| {
        let out = pgnkit().args(args).args(&files).output().unwrap();
        (out.status.code(), out.stdout)
    };
    let (check_code, check_page) = page(&["check", "-q", "--format", "html"]);
    let (report_code, report_page) = page(&["report", "-q", "-o", "-"]);
    assert_eq!(check_code, Some(1));
    assert_eq!(check_code, report_code);
    assert!(check_page.starts_with(b"<!DOCTYPE html>"), "not a page");
    assert!(
        check_page == report_page,
        "check --format html differs from report -o -"
    );
    let (_, with_problems) = checked(&files);
    let text = String::from_utf8(check_page).unwrap();
    assert_eq!(
        text.matches("<article class=\"card\"").count(),
        with_problems
    );
    for flag in ["--games", "--fix", "--strict", "--no-suggestions"] {
        let out = pgnkit()
            .args(["check", "--format", "html", flag])
            .args(&files)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(out.stdout.is_empty(), "{flag}: wrote a page");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(flag) && err.contains("--format html"),
            "{flag}: {err}"
        );
    }
}
