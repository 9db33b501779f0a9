//! Scoresheet repair accuracy: inject one realistic slip into real games and
//! measure how often the repair suggests what was really played.
//!
//! ```text
//! cargo run --release -p pgnkit-replay --example repair_accuracy -- \
//!     [--games N] [--seed S] [--multi] [--lang en,de,fr,es,ru,ru-long] [FILE.pgn ...]
//! ```
//!
//! `--lang` writes the games in other languages before the slips are
//! seeded (`xx`: SAN with that language's piece letters, `Кf3`; `xx-long`:
//! long algebraic with `:` captures and `0-0`, `Кg1-f3`, `Фd1:d8`), by the
//! notation crate's writer; `--games N` cases are run per language, each
//! language from the same seed, and besides top-1/top-3 the run counts the
//! games read in another language and the games with more than one error.
//!
//! Games come from the files given (default: a fixed mix of human games from
//! `../shared/corpus`). Each sampled game gets one slip of one type (the types
//! take turns) at a random ply where that slip applies and makes the token
//! really wrong (illegal, ambiguous or unparsable at that point; otherwise the
//! ply is redrawn). The game is written out as PGN, replayed by
//! [`pgnkit_replay::replay_game`] with suggestions, and the first error's
//! suggestions are compared with the truth: top-1 and top-3 per slip type.
//! `--multi` injects three slips per game instead (`--slips N`: N slips,
//! `--min-plies P`: games of at least P plies) and measures how many of them
//! are reported with the right fix.
//!
//! A second table says what `pgnkit check --fix` makes of each case
//! ([`pgnkit_replay::fix::fix_game`], as the binary calls it): the fixed
//! text is read again in the game's language and replayed, and its moves
//! are compared with the original's: equals the original, a wrong fix
//! (replays without error to other moves), or left with an error (no fix
//! applied, or left for a human: the fix module's margin).
//!
//! Reproducible: the same seed and files give the same table.

use std::time::{Duration, Instant};

use pgnkit_notation::{CaptureMark, CastlingMark, Language, Notation, Style};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::fix::{Fixed, fix_game};
use pgnkit_replay::{Code, Diagnostic, GameReport, Options, Suggestion, replay_game};
use shakmaty::Move;

#[path = "../tests/support/slips.rs"]
mod slips;

use slips::{Clean, Rng, SLIPS, Slip, Truth, inject, mutate, pgn_text, plain_san, rank_of};

const DEFAULT_FILES: &[&str] = &[
    "../shared/corpus/hauva69__pgn4web/twic944.pgn",
    "../shared/corpus/niklasf__shakmaty/pgn-reader/benches/twic1599_1000k.pgn",
    "../shared/corpus/niklasf__shakmaty/pgn-reader/benches/lichess_db_1000k.pgn",
    "../shared/corpus/chesslablab__chess-data/data/example/Capablanca.pgn",
    "../shared/corpus/jivkopetiov__EduChess/pgn/Tal.pgn",
];

fn load(files: &[String]) -> Vec<Clean> {
    let mut out = Vec::new();
    let options = Options {
        language: Some(Language::En),
        suggestions: false,
        ..Options::default()
    };
    for f in files {
        let Ok(bytes) = std::fs::read(f) else {
            eprintln!("cannot read {f}; skipped");
            continue;
        };
        let mut reader = Reader::new(&bytes);
        let mut game = Game::default();
        while reader.read_game(&mut game) {
            if game.tag("FEN").is_some() || game.tag("Variant").is_some() {
                continue;
            }
            let report = replay_game(&bytes, &game, &options);
            if report.errors() > 0 || report.plies < 16 {
                continue;
            }
            out.push(Clean::from_report(&report));
        }
    }
    out
}

fn is_move_error(d: &Diagnostic) -> bool {
    !d.variation
        && matches!(
            d.code,
            Code::UnparsableMove | Code::IllegalMove | Code::AmbiguousMove | Code::MissingMove
        )
}

#[derive(Default, Clone, Copy)]
struct Row {
    cases: u32,
    top1: u32,
    top3: u32,
    found: u32,
    confirmed_top: u32,
    accepted: u32,
    /// `--fix` output replays to the original moves.
    restored: u32,
    /// `--fix` output replays without error to other moves.
    wrong: u32,
    /// `--fix` output still has an error.
    left: u32,
    /// Of `left`: a problem left as written for a human.
    human: u32,
    /// Of `human`: the two best suggestions replay the whole game with the
    /// same score (no evidence of the record tells them apart).
    tie: u32,
}

impl Row {
    fn add(&mut self, r: &Row) {
        self.cases += r.cases;
        self.top1 += r.top1;
        self.top3 += r.top3;
        self.found += r.found;
        self.confirmed_top += r.confirmed_top;
        self.accepted += r.accepted;
        self.restored += r.restored;
        self.wrong += r.wrong;
        self.left += r.left;
        self.human += r.human;
        self.tie += r.tie;
    }
}

/// What `check --fix` makes of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FixOutcome {
    Restored,
    Wrong,
    /// Left with an error; `true` if a problem was left for a human.
    Left(bool),
}

/// Runs the fix of `check --fix` on the game in `bytes` (with its
/// `report`), reads the fixed text again in `language` and compares its
/// moves with `clean`'s.
fn fix_outcome(
    bytes: &[u8],
    game: &Game<'_>,
    report: &GameReport,
    clean: &Clean,
    language: Language,
) -> FixOutcome {
    let mut fixed = Fixed::default();
    fix_game(bytes, game, report, &mut fixed);
    let human = fixed.counts.needs_human > 0;
    let mut reader = Reader::new(&fixed.bytes);
    let mut again = Game::default();
    if !reader.read_game(&mut again) {
        return FixOutcome::Wrong;
    }
    let options = Options {
        language: Some(language),
        suggestions: false,
        ..Options::default()
    };
    let after = replay_game(&fixed.bytes, &again, &options);
    let moves: Vec<Move> = after.moves.iter().map(|m| m.played).collect();
    if after.errors() > 0 {
        FixOutcome::Left(human)
    } else if moves == clean.moves {
        FixOutcome::Restored
    } else {
        FixOutcome::Wrong
    }
}

fn pct(a: u32, b: u32) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * f64::from(a) / f64::from(b)
    }
}

/// A language as the games are written: `xx` is SAN with that language's
/// piece letters (`Sf3`, `Кf3`), `xx-long` long algebraic with `:` for
/// captures and `0-0` castling, as on Eastern European scoresheets
/// (`Кg1-f3`, `Фd1:d8`).
fn style_of(spec: &str) -> Option<Style> {
    let (code, long) = match spec.trim().strip_suffix("-long") {
        Some(code) => (code, true),
        None => (spec.trim(), false),
    };
    let language = Language::from_code(code)?;
    Some(if long {
        Style {
            notation: Notation::Lan,
            language,
            capture: CaptureMark::Colon,
            castling: CastlingMark::DigitZero,
            ..Style::new(Notation::Lan, language)
        }
    } else {
        Style::new(Notation::San, language)
    })
}

/// Whether `report` read the game in a language that reads every move of
/// `g`, written as `written`, as the writer meant it.
fn reads_alike(report: &GameReport, g: &Clean, written: &[String]) -> bool {
    g.positions
        .iter()
        .zip(&g.moves)
        .zip(written)
        .all(|((pos, m), w)| {
            pgnkit_notation::parse_move(w)
                .ok()
                .and_then(|t| t.resolve(pos, report.language).ok())
                == Some(*m)
        })
}

/// One language's run.
#[derive(Default)]
struct Run {
    rows: [Row; SLIPS.len()],
    /// Games replayed (cases and games read without error).
    games: u32,
    /// Games read in a language that reads the moves otherwise.
    wrong_language: u32,
    /// Games with more than one error.
    more_errors: u32,
}

impl Run {
    fn total(&self) -> Row {
        let mut total = Row::default();
        for row in &self.rows {
            total.add(row);
        }
        total
    }
}

fn main() {
    let mut games = 3000usize;
    let mut seed = 7u64;
    let mut multi = false;
    let mut slips_per_game = 3usize;
    let mut min_plies = 40usize;
    let mut files: Vec<String> = Vec::new();
    let mut styles: Vec<(String, Style)> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--games" => games = args.next().and_then(|v| v.parse().ok()).unwrap_or(games),
            "--seed" => seed = args.next().and_then(|v| v.parse().ok()).unwrap_or(seed),
            "--multi" => multi = true,
            "--slips" => {
                multi = true;
                slips_per_game = args.next().and_then(|v| v.parse().ok()).unwrap_or(3);
            }
            "--min-plies" => min_plies = args.next().and_then(|v| v.parse().ok()).unwrap_or(40),
            "--lang" => {
                for spec in args.next().unwrap_or_default().split(',') {
                    match style_of(spec) {
                        Some(style) => styles.push((spec.trim().to_owned(), style)),
                        None => {
                            eprintln!("unknown language `{spec}` (a code such as de, or ru-long)");
                            std::process::exit(2);
                        }
                    }
                }
            }
            _ => files.push(a),
        }
    }
    if styles.is_empty() {
        styles.push(("en".to_owned(), Style::SAN));
    }
    if files.is_empty() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        files = DEFAULT_FILES
            .iter()
            .map(|f| root.join(f).to_string_lossy().into_owned())
            .collect();
    }
    let loaded = load(&files);
    eprintln!("{} clean games loaded", loaded.len());
    if loaded.is_empty() {
        return;
    }
    let options = Options::default();
    if multi {
        for (name, style) in &styles {
            if styles.len() > 1 {
                println!("\n{name}:\n");
            }
            let mut rng = Rng(seed);
            run_multi(
                &loaded,
                games,
                &mut rng,
                &options,
                style,
                slips_per_game,
                min_plies,
            );
        }
        return;
    }
    let mut runs: Vec<(String, Run)> = Vec::new();
    let mut times: Vec<Duration> = Vec::new();
    let mut slowest = (Duration::ZERO, Slip::Rank, 0usize, String::new());
    for (name, style) in &styles {
        // Every language sees the same draws: the same games and plies
        // where the slip applies in both.
        let mut rng = Rng(seed);
        let run = run_single(
            &loaded,
            games,
            &mut rng,
            &options,
            style,
            &mut times,
            |t, slip, n| {
                if t > slowest.0 {
                    slowest = (t, slip, n, name.clone());
                }
            },
        );
        runs.push((name.clone(), run));
    }

    println!("| slip | cases | top-1 | top-3 | found (top 5) | top fix confirmed |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut all = Run::default();
    for (_, run) in &runs {
        for (a, r) in all.rows.iter_mut().zip(&run.rows) {
            a.add(r);
        }
    }
    for (slip, row) in SLIPS.iter().zip(all.rows.iter()) {
        println!(
            "| {} | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
            slip.name(),
            row.cases,
            pct(row.top1, row.cases),
            pct(row.top3, row.cases),
            pct(row.found, row.cases),
            pct(row.confirmed_top, row.cases),
        );
    }
    let total = all.total();
    println!(
        "| **all** | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
        total.cases,
        pct(total.top1, total.cases),
        pct(total.top3, total.cases),
        pct(total.found, total.cases),
        pct(total.confirmed_top, total.cases),
    );
    println!("\n`check --fix` output, read again in the game's language:\n");
    println!(
        "| slip | cases | equals the original | wrong fix | left with an error (for a human) |"
    );
    println!("|---|---:|---:|---:|---:|");
    for (slip, row) in SLIPS
        .iter()
        .zip(all.rows.iter())
        .map(|(s, r)| (s.name(), r))
        .chain([("**all**", &total)])
    {
        print_fix_row(slip, row);
    }
    println!(
        "\n({} equal, {} wrong, {} left, of {} cases; of those left for a human, {} have two best fixes that replay the whole game with the same score)",
        total.restored, total.wrong, total.left, total.cases, total.tie
    );
    for (slip, row) in SLIPS.iter().zip(all.rows.iter()) {
        println!(
            "  {}: {} of {} left are such ties",
            slip.name(),
            row.tie,
            row.left
        );
    }
    println!(
        "\n| language | games | read in another language | more than one error | top-1 | top-3 | read without error |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, run) in &runs {
        let t = run.total();
        println!(
            "| {name} | {} | {} | {} | {:.1}% | {:.1}% | {} |",
            run.games,
            run.wrong_language,
            run.more_errors,
            pct(t.top1, t.cases),
            pct(t.top3, t.cases),
            t.accepted,
        );
    }
    if runs.len() > 1 {
        println!(
            "\n| language | cases | equals the original | wrong fix | left with an error (for a human) |"
        );
        println!("|---|---:|---:|---:|---:|");
        for (name, run) in &runs {
            print_fix_row(name, &run.total());
        }
    }
    print_times(&mut times);
    println!(
        "slowest: {:.2} ms, {} in a game of {} plies ({})",
        slowest.0.as_secs_f64() * 1e3,
        slowest.1.name(),
        slowest.2,
        slowest.3
    );
    println!(
        "\n{} injected tokens were read legally after all (another language's letters) and redrawn.",
        total.accepted
    );
}

/// One row of the `--fix` table.
fn print_fix_row(name: &str, row: &Row) {
    println!(
        "| {name} | {} | {:.1}% | {:.1}% | {:.1}% ({:.1}%) |",
        row.cases,
        pct(row.restored, row.cases),
        pct(row.wrong, row.cases),
        pct(row.left, row.cases),
        pct(row.human, row.cases),
    );
}

/// `games` cases of one slip each, the slip types taking turns, written in
/// `style`.
fn run_single(
    loaded: &[Clean],
    games: usize,
    rng: &mut Rng,
    options: &Options,
    style: &Style,
    times: &mut Vec<Duration>,
    mut on_time: impl FnMut(Duration, Slip, usize),
) -> Run {
    let mut run = Run::default();
    let mut case = 0usize;
    let mut attempts = 0usize;
    let verbose = std::env::var_os("REPAIR_VERBOSE").is_some();
    let kinds: Vec<usize> = (0..SLIPS.len())
        .filter(|&i| SLIPS[i].applies_to(style))
        .collect();
    while case < games && attempts < games * 20 {
        attempts += 1;
        let slip_i = kinds[case % kinds.len()];
        let slip = SLIPS[slip_i];
        let Some(g) = loaded.get(rng.below(loaded.len())) else {
            continue;
        };
        let written = g.written(style);
        let Some((tokens, truth)) = inject(slip, g, &written, style, rng) else {
            continue;
        };
        let text = pgn_text(&tokens);
        let bytes = text.as_bytes();
        let mut reader = Reader::new(bytes);
        let mut game = Game::default();
        if !reader.read_game(&mut game) {
            continue;
        }
        let started = Instant::now();
        let report = replay_game(bytes, &game, options);
        let took = started.elapsed();
        on_time(took, slip, tokens.len());
        times.push(took);
        run.games += 1;
        if !reads_alike(&report, g, &written) {
            run.wrong_language += 1;
            if verbose {
                eprintln!(
                    "{slip:?} read as {}: truth {truth:?}; {} errors",
                    report.language,
                    report.errors()
                );
            }
        }
        if report.errors() > 1 {
            run.more_errors += 1;
            if verbose {
                eprintln!(
                    "{slip:?} {} errors ({}): truth {truth:?}",
                    report.errors(),
                    report.language
                );
            }
        }
        let row = &mut run.rows[slip_i];
        let Some(d) = report.diagnostics.iter().find(|d| is_move_error(d)) else {
            // Read legally after all (e.g. as another language): not a slip.
            row.accepted += 1;
            continue;
        };
        case += 1;
        row.cases += 1;
        match fix_outcome(bytes, &game, &report, g, style.language) {
            FixOutcome::Restored => row.restored += 1,
            FixOutcome::Wrong => {
                row.wrong += 1;
                if verbose {
                    eprintln!(
                        "{slip:?} wrong fix: truth {truth:?}; token {:?} ply {:?}; got {:?}",
                        d.token, d.ply, d.suggestions
                    );
                }
            }
            FixOutcome::Left(human) => {
                row.left += 1;
                row.human += u32::from(human);
                if let [a, b, ..] = d.suggestions.as_slice()
                    && human
                    && a.confirmed()
                    && b.confirmed()
                    && a.rank().score == b.rank().score
                {
                    row.tie += 1;
                }
                if std::env::var_os("REPAIR_LEFT").is_some() {
                    eprintln!(
                        "{slip:?} left: truth {truth:?}; token {:?} ply {:?}; got {:?}",
                        d.token, d.ply, d.suggestions
                    );
                }
            }
        }
        if d.suggestions.first().is_some_and(Suggestion::confirmed) {
            row.confirmed_top += 1;
        }
        match rank_of(&truth, &d.suggestions) {
            Some(0) => {
                row.top1 += 1;
                row.top3 += 1;
                row.found += 1;
            }
            Some(r) => {
                if r < 3 {
                    row.top3 += 1;
                }
                row.found += 1;
            }
            None => {
                if verbose {
                    eprintln!(
                        "{slip:?} miss: truth {truth:?}; token {:?} ply {:?}; got {:?}",
                        d.token, d.ply, d.suggestions
                    );
                }
            }
        }
        if verbose && rank_of(&truth, &d.suggestions).is_some_and(|r| r > 0) {
            eprintln!(
                "{slip:?} rank {:?}: truth {truth:?}; token {:?} ply {:?}; got {:?}",
                rank_of(&truth, &d.suggestions),
                d.token,
                d.ply,
                d.suggestions
            );
        }
    }
    run
}

fn print_times(times: &mut [Duration]) {
    times.sort();
    if times.is_empty() {
        return;
    }
    let sum: Duration = times.iter().sum();
    let p = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "\nreplay + repair per game: mean {:.2} ms, median {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} games)",
        sum.as_secs_f64() * 1e3 / times.len() as f64,
        p(0.5).as_secs_f64() * 1e3,
        p(0.99).as_secs_f64() * 1e3,
        p(1.0).as_secs_f64() * 1e3,
        times.len()
    );
}

/// `per_game` slips per game (types drawn at random, at least 6 plies apart):
/// how many are reported at their ply with the right fix in the top 3.
fn run_multi(
    loaded: &[Clean],
    games: usize,
    rng: &mut Rng,
    options: &Options,
    style: &Style,
    per_game: usize,
    min_plies: usize,
) {
    let one_token = [
        Slip::Rank,
        Slip::File,
        Slip::Piece,
        Slip::Foreign,
        Slip::Capture,
        Slip::WrongSide,
    ];
    let mut cases = 0u32;
    let mut slips = 0u32;
    let mut reported = 0u32;
    let mut top3 = 0u32;
    let mut all_fixed = 0u32;
    let mut times: Vec<Duration> = Vec::new();
    let mut attempts = 0;
    while (cases as usize) < games && attempts < games * 20 {
        attempts += 1;
        let Some(g) = loaded.get(rng.below(loaded.len())) else {
            continue;
        };
        if g.moves.len() < min_plies.max(6 * per_game) {
            continue;
        }
        let written = g.written(style);
        let mut tokens = written.clone();
        let mut truths: Vec<Truth> = Vec::new();
        let mut used: Vec<usize> = Vec::new();
        for _ in 0..30 * per_game {
            if truths.len() == per_game {
                break;
            }
            let p = rng.below(g.moves.len());
            if used.iter().any(|&u| u.abs_diff(p) < 6) {
                continue;
            }
            let slip = *rng.pick(&one_token).unwrap_or(&Slip::Rank);
            if let Some(t) = mutate(slip, &g.positions[p], g.moves[p], &written[p], style, rng) {
                tokens[p] = t;
                used.push(p);
                truths.push(Truth::Replace {
                    ply: p as u32 + 1,
                    san: plain_san(&g.positions[p], g.moves[p]),
                });
            }
        }
        if truths.len() < per_game {
            continue;
        }
        let text = pgn_text(&tokens);
        let bytes = text.as_bytes();
        let mut reader = Reader::new(bytes);
        let mut game = Game::default();
        if !reader.read_game(&mut game) {
            continue;
        }
        let started = Instant::now();
        let report = replay_game(bytes, &game, options);
        times.push(started.elapsed());
        cases += 1;
        let mut ok = 0;
        for t in &truths {
            slips += 1;
            let Truth::Replace { ply, .. } = t else {
                continue;
            };
            if let Some(d) = report
                .diagnostics
                .iter()
                .find(|d| is_move_error(d) && d.ply == Some(*ply))
            {
                reported += 1;
                if rank_of(t, &d.suggestions).is_some_and(|r| r < 3) {
                    top3 += 1;
                    ok += 1;
                }
            }
        }
        if ok == truths.len() {
            all_fixed += 1;
        }
    }
    println!(
        "| games | slips | reported at their ply | right fix in top 3 | games with all 3 right |"
    );
    println!("|---:|---:|---:|---:|---:|");
    println!(
        "| {cases} | {slips} | {:.1}% | {:.1}% | {:.1}% |",
        pct(reported, slips),
        pct(top3, slips),
        pct(all_fixed, cases)
    );
    print_times(&mut times);
}
