//! Scoresheet repair accuracy: inject one realistic slip into real games and
//! measure how often the repair suggests what was really played.
//!
//! ```text
//! cargo run --release -p pgnkit-replay --example repair_accuracy -- \
//!     [--games N] [--seed S] [--multi] [FILE.pgn ...]
//! ```
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
//! ([`pgnkit_replay::fix::fix_game`], as the binary calls it): the share of
//! games whose fixed text replays to exactly the moves of the original, the
//! share whose fixed text replays without error to other moves (a wrong
//! fix), and the share left with an error (no fix, or left for a human; see
//! the fix module; with several slips, a game where any one is left).
//!
//! Reproducible: the same seed and files give the same table.

use std::time::{Duration, Instant};

use pgnkit_notation::Language;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::fix::{Fixed, fix_game};
use pgnkit_replay::{Code, Diagnostic, Options, Suggestion, replay_game};
use shakmaty::{Chess, Move, Position, Role, san::San, san::SanPlus};

const DEFAULT_FILES: &[&str] = &[
    "../shared/corpus/hauva69__pgn4web/twic944.pgn",
    "../shared/corpus/niklasf__shakmaty/pgn-reader/benches/twic1599_1000k.pgn",
    "../shared/corpus/niklasf__shakmaty/pgn-reader/benches/lichess_db_1000k.pgn",
    "../shared/corpus/chesslablab__chess-data/data/example/Capablanca.pgn",
    "../shared/corpus/jivkopetiov__EduChess/pgn/Tal.pgn",
];

/// splitmix64: small, seeded, good enough to sample.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Slip {
    Rank,
    File,
    Piece,
    Foreign,
    Capture,
    Disambiguation,
    Promotion,
    WrongSide,
    Missing,
    Swap,
    Extra,
}

const SLIPS: [Slip; 11] = [
    Slip::Rank,
    Slip::File,
    Slip::Piece,
    Slip::Foreign,
    Slip::Capture,
    Slip::Disambiguation,
    Slip::Promotion,
    Slip::WrongSide,
    Slip::Missing,
    Slip::Swap,
    Slip::Extra,
];

impl Slip {
    fn name(self) -> &'static str {
        match self {
            Slip::Rank => "rank off by one",
            Slip::File => "look-alike/neighbouring file",
            Slip::Piece => "wrong piece letter",
            Slip::Foreign => "other-language piece letter",
            Slip::Capture => "capture mark missing/extra",
            Slip::Disambiguation => "missing disambiguation",
            Slip::Promotion => "missing promotion piece",
            Slip::WrongSide => "written from the other side",
            Slip::Missing => "move left out",
            Slip::Swap => "two moves of one side swapped",
            Slip::Extra => "a word too many",
        }
    }
}

/// A clean game: its moves and their SAN (with check marks).
struct Clean {
    positions: Vec<Chess>,
    moves: Vec<Move>,
    sans: Vec<String>,
}

/// What the repair should find.
#[derive(Debug, Clone)]
enum Truth {
    Replace { ply: u32, san: String },
    Insert { ply: u32, san: String },
    Swap { ply: u32, san: [String; 2] },
    Delete,
}

fn plain_san(pos: &Chess, m: Move) -> String {
    San::from_move(pos, m).to_string()
}

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
            let mut pos = report.start.clone();
            let mut clean = Clean {
                positions: Vec::new(),
                moves: Vec::new(),
                sans: Vec::new(),
            };
            for mm in &report.moves {
                clean.positions.push(pos.clone());
                clean.moves.push(mm.played);
                clean
                    .sans
                    .push(SanPlus::from_move(pos.clone(), mm.played).to_string());
                pos.play_unchecked(mm.played);
            }
            out.push(clean);
        }
    }
    out
}

/// Does `text` fail to name exactly one legal move in `pos` (in English)?
fn is_wrong(text: &str, pos: &Chess) -> bool {
    pgnkit_notation::parse_move(text)
        .ok()
        .and_then(|t| t.resolve(pos, Language::En).ok())
        .is_none()
}

fn split_suffix(s: &str) -> (&str, &str) {
    let core = s.trim_end_matches(['+', '#']);
    (core, &s[core.len()..])
}

/// The token written instead of `san` for a one-token slip, if it applies.
fn mutate(slip: Slip, pos: &Chess, m: Move, san: &str, rng: &mut Rng) -> Option<String> {
    let (core, suffix) = split_suffix(san);
    let chars: Vec<char> = core.chars().collect();
    let last_digit = chars.iter().rposition(|c| c.is_ascii_digit());
    let out: String = match slip {
        Slip::Rank => {
            let i = last_digit?;
            let d = chars[i].to_digit(10)? as i32;
            let nd = if rng.below(2) == 0 { d - 1 } else { d + 1 };
            if !(1..=8).contains(&nd) {
                return None;
            }
            let mut c = chars.clone();
            c[i] = char::from_digit(nd as u32, 10)?;
            c.into_iter().collect::<String>() + suffix
        }
        Slip::File => {
            let i = last_digit?.checked_sub(1)?;
            let f = chars[i];
            let options: &[char] = match f {
                'a' => &['d', 'b', 'o'],
                'b' => &['d', 'h', 'a', 'c', '6'],
                'c' => &['e', 'b', 'd'],
                'd' => &['b', 'a', 'c', 'e', 'h'],
                'e' => &['c', 'd', 'f'],
                'f' => &['e', 'g', 't'],
                'g' => &['q', 'f', 'h', '9'],
                'h' => &['b', 'g', 'k'],
                _ => return None,
            };
            let mut c = chars.clone();
            c[i] = *rng.pick(options)?;
            c.into_iter().collect::<String>() + suffix
        }
        Slip::Piece => {
            let first = *chars.first()?;
            if !"KQRBN".contains(first) {
                return None;
            }
            let others: Vec<char> = "KQRBN".chars().filter(|&c| c != first).collect();
            let mut c = chars.clone();
            c[0] = *rng.pick(&others)?;
            c.into_iter().collect::<String>() + suffix
        }
        Slip::Foreign => {
            let role = m.role();
            if role == Role::Pawn || m.is_castle() {
                return None;
            }
            let langs = [
                Language::De,
                Language::Nl,
                Language::Fr,
                Language::Es,
                Language::Ru,
                Language::It,
                Language::Pl,
                Language::Cs,
                Language::Hu,
                Language::Sv,
            ];
            let lang = *rng.pick(&langs)?;
            let letter = lang.letter(role);
            if letter == Language::En.letter(role) {
                return None;
            }
            let rest: String = chars[1..].iter().collect();
            format!("{letter}{rest}{suffix}")
        }
        Slip::Capture => {
            if m.is_capture() {
                if m.role() != Role::Pawn {
                    return None; // a missing mark on a piece capture still reads
                }
                // The pawn capture written as a push to the square.
                let x = chars.iter().position(|&c| c == 'x')?;
                chars[x + 1..].iter().collect::<String>() + suffix
            } else {
                if m.is_castle() {
                    return None;
                }
                let to = chars.len().checked_sub(2)?;
                let to = if chars.last().is_some_and(|c| c.is_ascii_uppercase()) {
                    // promotion e8=Q
                    chars.iter().position(|&c| c == '=')?.checked_sub(2)?
                } else {
                    to
                };
                let mut c = chars.clone();
                c.insert(to, 'x');
                c.into_iter().collect::<String>() + suffix
            }
        }
        Slip::Disambiguation => {
            let San::Normal {
                role, file, rank, ..
            } = San::from_move(pos, m)
            else {
                return None;
            };
            if role == Role::Pawn || (file.is_none() && rank.is_none()) {
                return None;
            }
            let extra = usize::from(file.is_some()) + usize::from(rank.is_some());
            let mut c = chars.clone();
            c.drain(1..1 + extra);
            c.into_iter().collect::<String>() + suffix
        }
        Slip::Promotion => {
            m.promotion()?;
            let eq = chars.iter().position(|&c| c == '=')?;
            chars[..eq].iter().collect::<String>() + suffix
        }
        Slip::WrongSide => {
            let c: String = chars
                .iter()
                .map(|&c| match c.to_digit(10) {
                    Some(d @ 1..=8) => char::from_digit(9 - d, 10).unwrap_or(c),
                    _ => c,
                })
                .collect();
            if c == core {
                return None;
            }
            c + suffix
        }
        Slip::Missing | Slip::Swap | Slip::Extra => return None,
    };
    is_wrong(&out, pos).then_some(out)
}

/// One injected case: the tokens as written, and the truth.
fn inject(slip: Slip, g: &Clean, rng: &mut Rng) -> Option<(Vec<String>, Truth)> {
    let n = g.moves.len();
    for _ in 0..40 {
        let p = rng.below(n); // 0-based ply index
        let pos = &g.positions[p];
        let m = g.moves[p];
        let mut tokens = g.sans.clone();
        let truth = match slip {
            Slip::Missing => {
                if p + 1 >= n {
                    continue;
                }
                tokens.remove(p);
                Truth::Insert {
                    ply: p as u32 + 1,
                    san: plain_san(pos, m),
                }
            }
            Slip::Swap => {
                if p + 2 >= n {
                    continue;
                }
                tokens.swap(p, p + 2);
                if !is_wrong(&tokens[p], pos) {
                    continue;
                }
                Truth::Swap {
                    ply: p as u32 + 1,
                    san: [
                        plain_san(pos, m),
                        plain_san(&g.positions[p + 2], g.moves[p + 2]),
                    ],
                }
            }
            Slip::Extra => {
                // The move before written twice, or a stray word; written in
                // the same cell as that move, so the numbering stays right.
                let extra = match (rng.below(2), p.checked_sub(1)) {
                    (0, Some(q)) => g.sans[q].clone(),
                    _ => (*rng.pick(&["x", "N", "\\", "\u{0}", "ch"])?).to_owned(),
                };
                if !is_wrong(&extra, pos) {
                    continue;
                }
                match p.checked_sub(1) {
                    Some(q) => tokens[q] = format!("{} {extra}", tokens[q]),
                    None => tokens[0] = format!("{extra} {}", tokens[0]),
                }
                Truth::Delete
            }
            _ => {
                let Some(t) = mutate(slip, pos, m, &g.sans[p], rng) else {
                    continue;
                };
                tokens[p] = t;
                Truth::Replace {
                    ply: p as u32 + 1,
                    san: plain_san(pos, m),
                }
            }
        };
        return Some((tokens, truth));
    }
    None
}

fn pgn_text(tokens: &[String]) -> String {
    let mut s = String::from("[Event \"repair accuracy\"]\n\n");
    for (i, t) in tokens.iter().enumerate() {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(t);
        s.push(if i % 16 == 15 { '\n' } else { ' ' });
    }
    s.push_str("*\n");
    s
}

/// 0-based rank of the truth among `suggestions`.
fn rank_of(truth: &Truth, suggestions: &[Suggestion]) -> Option<usize> {
    suggestions.iter().position(|s| match (truth, s) {
        (Truth::Replace { san, .. }, Suggestion::Replace { san: s, .. }) => s == san,
        (Truth::Insert { ply, san }, Suggestion::Insert { ply: p, san: s, .. }) => {
            p == ply && s == san
        }
        (Truth::Swap { ply, san }, Suggestion::Swap { ply: p, san: s, .. }) => p == ply && s == san,
        (Truth::Delete, Suggestion::Delete { .. }) => true,
        _ => false,
    })
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
    /// `--fix` applied something and the moves differ from the original.
    wrong: u32,
    /// `--fix` left the error as written.
    left: u32,
    /// Of those, left for a human (several fixes replay alike).
    human: u32,
}

/// What `check --fix` makes of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FixOutcome {
    Restored,
    Wrong,
    /// Left with an error; for a human (several fixes replay alike) or not.
    Left {
        human: bool,
    },
}

/// Runs the fix of `check --fix` on the game in `bytes` (with its `report`)
/// and compares the moves of the fixed text with `clean`'s.
fn fix_outcome(
    bytes: &[u8],
    game: &Game<'_>,
    report: &pgnkit_replay::GameReport,
    clean: &Clean,
) -> FixOutcome {
    let mut fixed = Fixed::default();
    fix_game(bytes, game, report, &mut fixed);
    let mut reader = Reader::new(&fixed.bytes);
    let mut again = Game::default();
    if !reader.read_game(&mut again) {
        return FixOutcome::Wrong;
    }
    let options = Options {
        suggestions: false,
        ..Options::default()
    };
    let after = replay_game(&fixed.bytes, &again, &options);
    let moves: Vec<Move> = after.moves.iter().map(|m| m.played).collect();
    if after.errors() > 0 {
        FixOutcome::Left {
            human: fixed.counts.needs_human > 0,
        }
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

fn main() {
    let mut games = 3000usize;
    let mut seed = 7u64;
    let mut multi = false;
    let mut slips_per_game = 3usize;
    let mut min_plies = 40usize;
    let mut files: Vec<String> = Vec::new();
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
            _ => files.push(a),
        }
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
    let mut rng = Rng(seed);
    let options = Options::default();
    if multi {
        run_multi(
            &loaded,
            games,
            &mut rng,
            &options,
            slips_per_game,
            min_plies,
        );
        return;
    }
    let mut rows = [Row::default(); SLIPS.len()];
    let mut times: Vec<Duration> = Vec::new();
    let mut case = 0usize;
    let mut attempts = 0usize;
    let mut slowest = (Duration::ZERO, Slip::Rank, 0usize);
    while case < games && attempts < games * 20 {
        attempts += 1;
        let slip_i = case % SLIPS.len();
        let slip = SLIPS[slip_i];
        let Some(g) = loaded.get(rng.below(loaded.len())) else {
            continue;
        };
        let Some((tokens, truth)) = inject(slip, g, &mut rng) else {
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
        let report = replay_game(bytes, &game, &options);
        let took = started.elapsed();
        if took > slowest.0 {
            slowest = (took, slip, tokens.len());
        }
        times.push(took);
        let row = &mut rows[slip_i];
        let Some(d) = report.diagnostics.iter().find(|d| is_move_error(d)) else {
            // Read legally after all (e.g. as another language): not a slip.
            row.accepted += 1;
            continue;
        };
        case += 1;
        row.cases += 1;
        match fix_outcome(bytes, &game, &report, g) {
            FixOutcome::Restored => row.restored += 1,
            FixOutcome::Wrong => {
                row.wrong += 1;
                if std::env::var_os("REPAIR_VERBOSE").is_some() {
                    eprintln!(
                        "{slip:?} wrong fix: truth {truth:?}; token {:?} ply {:?}; got {:?}",
                        d.token, d.ply, d.suggestions
                    );
                }
            }
            FixOutcome::Left { human } => {
                row.left += 1;
                row.human += u32::from(human);
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
                if std::env::var_os("REPAIR_VERBOSE").is_some() {
                    eprintln!(
                        "{slip:?} miss: truth {truth:?}; token {:?} ply {:?}; got {:?}",
                        d.token, d.ply, d.suggestions
                    );
                }
            }
        }
        if std::env::var_os("REPAIR_VERBOSE").is_some()
            && rank_of(&truth, &d.suggestions).is_some_and(|r| r > 0)
        {
            eprintln!(
                "{slip:?} rank {:?}: truth {truth:?}; token {:?} ply {:?}; got {:?}",
                rank_of(&truth, &d.suggestions),
                d.token,
                d.ply,
                d.suggestions
            );
        }
    }
    println!("| slip | cases | top-1 | top-3 | found (top 5) | top fix confirmed |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut total = Row::default();
    for (slip, row) in SLIPS.iter().zip(rows.iter()) {
        println!(
            "| {} | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
            slip.name(),
            row.cases,
            pct(row.top1, row.cases),
            pct(row.top3, row.cases),
            pct(row.found, row.cases),
            pct(row.confirmed_top, row.cases),
        );
        total.cases += row.cases;
        total.top1 += row.top1;
        total.top3 += row.top3;
        total.found += row.found;
        total.confirmed_top += row.confirmed_top;
        total.accepted += row.accepted;
        total.restored += row.restored;
        total.wrong += row.wrong;
        total.left += row.left;
        total.human += row.human;
    }
    println!(
        "| **all** | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
        total.cases,
        pct(total.top1, total.cases),
        pct(total.top3, total.cases),
        pct(total.found, total.cases),
        pct(total.confirmed_top, total.cases),
    );
    println!("\n`check --fix` output:\n");
    println!(
        "| slip | cases | equals the original | wrong fix | left with an error | of which for a human |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (slip, row) in SLIPS
        .iter()
        .zip(rows.iter())
        .map(|(s, r)| (s.name(), r))
        .chain([("**all**", &total)])
    {
        println!(
            "| {slip} | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
            row.cases,
            pct(row.restored, row.cases),
            pct(row.wrong, row.cases),
            pct(row.left, row.cases),
            pct(row.human, row.cases),
        );
    }
    print_times(&mut times);
    println!(
        "slowest: {:.2} ms, {} in a game of {} plies",
        slowest.0.as_secs_f64() * 1e3,
        slowest.1.name(),
        slowest.2
    );
    println!(
        "\n{} injected tokens were read legally after all (another language's letters) and redrawn.",
        total.accepted
    );
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
    // `check --fix`: games restored, wrongly fixed, left with an error.
    let mut fix_rows = (0u32, 0u32, 0u32, 0u32);
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
        let mut tokens = g.sans.clone();
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
            if let Some(t) = mutate(slip, &g.positions[p], g.moves[p], &g.sans[p], rng) {
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
        match fix_outcome(bytes, &game, &report, g) {
            FixOutcome::Restored => fix_rows.0 += 1,
            FixOutcome::Wrong => fix_rows.1 += 1,
            FixOutcome::Left { human } => {
                fix_rows.2 += 1;
                fix_rows.3 += u32::from(human);
            }
        }
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
    println!(
        "\n`check --fix` output: equals the original {:.1}%, wrong fix {:.1}%, left with an error {:.1}% (for a human {:.1}%)",
        pct(fix_rows.0, cases),
        pct(fix_rows.1, cases),
        pct(fix_rows.2, cases),
        pct(fix_rows.3, cases)
    );
    print_times(&mut times);
}
