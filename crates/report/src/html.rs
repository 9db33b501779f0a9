//! The HTML report of `pgnkit report`: one self-contained page (inline CSS,
//! SVG and a few lines of JavaScript; nothing loaded from anywhere, which
//! its Content-Security-Policy enforces) with a summary of the run and one
//! card per game with a problem, each with the board before the faulty
//! move ([`crate::position::Scene`]).
//!
//! The workers make the [`Card`]s and count their games in a [`Tally`]; the
//! [`Page`] keeps at most `max_cards` cards (so the page stays small
//! whatever the input: about 10 KB a card) and counts those left out.
//!
//! ```
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{Options, replay_game};
//! use pgnkit_report::html::{Card, Page, Tally};
//! use pgnkit_report::render::Suggestions;
//! use pgnkit_report::{Format, Locator};
//!
//! let pgn = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf4 Nc6 *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let report = replay_game(pgn, &game, &Options::default());
//! let located = Locator::new(pgn, 0, 0, Format::Human).locate(&game, &report, 0, |_| true);
//!
//! let mut tally = Tally::default();
//! tally.game(&report);
//! let mut page = Page::new(1000, Suggestions::Best);
//! page.file("a.pgn");
//! page.tally(&tally);
//! let card = Card::new(&game, &report, located, Suggestions::Best);
//! page.card("a.pgn", 1, |line| line + 1, card);
//! let mut html = Vec::new();
//! page.write(&mut html).unwrap();
//! let html = String::from_utf8(html).unwrap();
//! assert_eq!(html.matches("<article class=\"card\"").count(), 1);
//! assert!(html.contains("<mark>Nf4</mark>"));
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use pgnkit_pgn::Game;
use pgnkit_replay::{Code, GameReport};

use crate::Located;
use crate::position::Scene;
use crate::render::{Suggestions, help_lines};

/// The default of `--max-cards`.
pub const DEFAULT_MAX_CARDS: u64 = 1000;

/// The problems of one card listed with their text, at most.
const MAX_LISTED: usize = 5;

/// Counts of the games read (added up chunk by chunk).
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games read.
    pub games: u64,
    /// Games with at least one problem (error or warning) reported.
    pub with_problems: u64,
    /// Errors, kept or omitted.
    pub errors: u64,
    /// Warnings, kept or omitted.
    pub warnings: u64,
    /// Problems by code, in the order of [`Code::ALL`].
    pub by_code: [u64; Code::ALL.len()],
    /// Games by status ([`pgnkit_replay::Status::as_str`]).
    pub statuses: BTreeMap<&'static str, u64>,
    /// Games in which a draw became claimable.
    pub claims: u64,
    /// Games with clock commands (`[%clk …]`, `[%emt …]`).
    pub clocked: u64,
    /// Games by the kind of their time control (`blitz`, `rapid`,
    /// `standard`).
    pub time_classes: BTreeMap<&'static str, u64>,
    /// Moves played in time trouble
    /// ([`pgnkit_replay::clock::Usage::trouble_below`]).
    pub trouble_moves: u64,
}

impl Tally {
    /// Counts one replayed game (its diagnostics as selected).
    pub fn game(&mut self, report: &GameReport) {
        self.games += 1;
        let (errors, warnings) = (report.errors() as u64, report.warnings() as u64);
        self.with_problems += u64::from(errors + warnings > 0);
        self.errors = self.errors.saturating_add(errors);
        self.warnings = self.warnings.saturating_add(warnings);
        for d in &report.diagnostics {
            if let Some(i) = Code::ALL.iter().position(|&c| c == d.code) {
                self.by_code[i] += 1;
            }
        }
        for (n, omitted) in self.by_code.iter_mut().zip(report.omitted.by_code) {
            *n = n.saturating_add(omitted[0]).saturating_add(omitted[1]);
        }
        *self.statuses.entry(report.status.as_str()).or_default() += 1;
        self.claims += u64::from(!report.claims.is_empty());
        if let Some(kind) = report.time_control.as_ref().and_then(|c| c.kind()) {
            *self.time_classes.entry(kind.as_str()).or_default() += 1;
        }
        if let Some(u) = pgnkit_replay::clock::usage(
            report.time_control.as_ref(),
            &report.clocks,
            pgnkit_replay::clock::Start::of(&report.start),
        ) {
            self.clocked += 1;
            self.trouble_moves = self
                .trouble_moves
                .saturating_add((u.white.trouble.len() + u.black.trouble.len()) as u64);
        }
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Tally) {
        self.games = self.games.saturating_add(other.games);
        self.with_problems = self.with_problems.saturating_add(other.with_problems);
        self.errors = self.errors.saturating_add(other.errors);
        self.warnings = self.warnings.saturating_add(other.warnings);
        for (n, o) in self.by_code.iter_mut().zip(other.by_code) {
            *n = n.saturating_add(o);
        }
        for (status, n) in &other.statuses {
            let mine = self.statuses.entry(status).or_default();
            *mine = mine.saturating_add(*n);
        }
        self.claims = self.claims.saturating_add(other.claims);
        self.clocked = self.clocked.saturating_add(other.clocked);
        for (kind, n) in &other.time_classes {
            let mine = self.time_classes.entry(kind).or_default();
            *mine = mine.saturating_add(*n);
        }
        self.trouble_moves = self.trouble_moves.saturating_add(other.trouble_moves);
    }
}

/// One game's card: what the page shows of a game with a problem, made by
/// a worker (the replay and the board drawn there), placed by the
/// [`Page`] ([`Page::card`]), which knows the game's number and lines in
/// its file.
pub struct Card {
    white: Option<String>,
    black: Option<String>,
    tags: Vec<(&'static str, String)>,
    codes: Vec<&'static str>,
    board: String,
    caption: String,
    law: Option<&'static str>,
    /// More boards: the final position where the rules end the game, the
    /// position where a draw became claimable (each with its caption).
    others: Vec<(&'static str, String, String)>,
    located: Vec<Located>,
    more: u64,
}

impl Card {
    /// The card of a game: players, event, round and date, its problems
    /// (`located`, by a [`crate::Locator`] of [`crate::Format::Human`],
    /// which keeps the source lines; lines counted in the chunk) and the
    /// board of [`Scene::of_game`] with arrows for the suggestions `shown`
    /// picks.
    pub fn new(
        game: &Game<'_>,
        report: &GameReport,
        mut located: Vec<Located>,
        shown: Suggestions,
    ) -> Card {
        let tag = |name: &str| {
            game.tag(name)
                .map(|t| report.encoding.decode(&t.value()).trim().to_owned())
                .filter(|v| !v.is_empty() && v != "?")
        };
        let mut codes: Vec<&'static str> =
            located.iter().map(|l| l.diagnostic.code.as_str()).collect();
        codes.sort_unstable();
        codes.dedup();
        let (scene, problem) = Scene::of_game(report, shown);
        let caption = match problem {
            Some(d) if d.code == Code::ResultMismatch => {
                format!(
                    "the last position, after {} plies ({})",
                    scene.ply.saturating_sub(1),
                    d.code.as_str()
                )
            }
            Some(d) => format!("{} ({})", scene.caption(), d.code.as_str()),
            None => {
                let side = match scene.turn() {
                    shakmaty::Color::White => "White",
                    shakmaty::Color::Black => "Black",
                };
                // A `bad-fen` error left the start position; a warning (a
                // composed position) was set up all the same.
                let drawn = if report
                    .diagnostics
                    .iter()
                    .any(|d| d.code == Code::BadFen && d.is_error())
                {
                    "the FEN tag cannot be read: the standard start position"
                } else {
                    "the last position replayed"
                };
                format!(
                    "{drawn}, after {} plies, {side} to move",
                    scene.ply.saturating_sub(1)
                )
            }
        };
        let mut others = Vec::new();
        if let Some(end) = Scene::ending(report).filter(|e| e.ply != scene.ply)
            && let Some(law) = report.status.law()
        {
            let caption = format!("the last position, after {} plies: {law}", end.ply - 1);
            others.push(("ending", end.svg(), caption));
        }
        if let Some((claim, how)) = Scene::claim(report).filter(|(c, _)| c.ply != scene.ply) {
            let caption = format!("a draw claimable here, {}: {how}", claim.caption());
            others.push(("claim", claim.svg(), caption));
        }
        if let (Some(chart), Some(words)) = (
            crate::clock_chart::svg(report),
            crate::clock_chart::summary(report),
        ) {
            others.push(("clocks", chart, format!("the clocks: {words}")));
        }
        let more = located.len().saturating_sub(MAX_LISTED) as u64
            + report.omitted.errors
            + report.omitted.warnings;
        located.truncate(MAX_LISTED);
        Card {
            white: tag("White"),
            black: tag("Black"),
            tags: ["Event", "Round", "Date"]
                .into_iter()
                .filter_map(|n| Some((n, tag(n)?)))
                .collect(),
            codes,
            board: scene.svg(),
            caption,
            law: report.status.law(),
            others,
            located,
            more,
        }
    }
}

/// Characters of the source shown either side of a token, and of a
/// token, a message or a help line at most: a card stays a few kilobytes
/// whatever the input (a line of megabytes, a token of junk).
const CONTEXT: usize = 120;
const LONGEST: usize = 300;

/// One problem: code, place, message, the source around the token, help.
fn problem_html(h: &mut String, l: &Located, shown: Suggestions) {
    let d = &l.diagnostic;
    let severity = d.severity.as_str();
    let _ = write!(
        h,
        "<div class=\"problem {severity}\"><p><span class=\"code\">{}</span> <span class=\"at\">line {}, column {}</span> {}</p>",
        d.code.as_str(),
        l.line,
        l.column,
        escape(&clip(&d.message, LONGEST, false))
    );
    if let Some((line, token)) = &l.source {
        let part = |r: std::ops::Range<usize>| line.get(r).unwrap_or_default();
        let _ = write!(
            h,
            "<pre>{}<mark>{}</mark>{}</pre>",
            escape(&clip(part(0..token.start), CONTEXT, true)),
            escape(&clip(part(token.clone()), LONGEST, false)),
            escape(&clip(part(token.end..line.len()), CONTEXT, false))
        );
    }
    let help = help_lines(d, shown);
    if !help.is_empty() {
        h.push_str("<ul>");
        for line in help.iter().take(MAX_LISTED + 3) {
            let _ = write!(h, "<li>{}</li>", escape(&clip(line, LONGEST, false)));
        }
        h.push_str("</ul>");
    }
    h.push_str("</div>");
}

/// `s` cut to its first (or, with `tail`, its last) `max` characters,
/// with `…` where it was cut.
fn clip(s: &str, max: usize, tail: bool) -> std::borrow::Cow<'_, str> {
    let n = s.chars().count();
    if n <= max {
        return s.into();
    }
    if tail {
        let skip = s.char_indices().nth(n - max).map_or(0, |(i, _)| i);
        format!("\u{2026}{}", &s[skip..]).into()
    } else {
        let keep = s.char_indices().nth(max).map_or(s.len(), |(i, _)| i);
        format!("{}\u{2026}", &s[..keep]).into()
    }
}

/// The whole page, filled in as the run goes.
pub struct Page {
    max_cards: u64,
    shown: Suggestions,
    cards: Vec<String>,
    left_out: u64,
    files: Vec<String>,
    failures: Vec<(String, String)>,
    tally: Tally,
}

impl Page {
    /// An empty page that keeps at most `max_cards` cards, printing the
    /// help lines of the suggestions `shown` picks.
    pub fn new(max_cards: u64, shown: Suggestions) -> Page {
        Page {
            max_cards,
            shown,
            cards: Vec::new(),
            left_out: 0,
            files: Vec::new(),
            failures: Vec::new(),
            tally: Tally::default(),
        }
    }

    /// Whether another card would be kept.
    pub fn has_room(&self) -> bool {
        (self.cards.len() as u64) < self.max_cards
    }

    /// An input read.
    pub fn file(&mut self, name: &str) {
        self.files.push(name.to_owned());
    }

    /// An input that could not be read, and why.
    pub fn failure(&mut self, name: &str, message: &str) {
        self.failures.push((name.to_owned(), message.to_owned()));
    }

    /// Adds the counts of a chunk's games.
    pub fn tally(&mut self, tally: &Tally) {
        self.tally.add(tally);
    }

    /// Adds the card of game `number` of `file` (its lines, counted in
    /// its chunk, mapped to the file's by `line`), or counts it as left out
    /// when the page is full.
    pub fn card(&mut self, file: &str, number: u64, line: impl Fn(usize) -> usize, card: Card) {
        if !self.has_room() {
            self.left_out += 1;
            return;
        }
        let players = [&card.white, &card.black]
            .iter()
            .filter_map(|p| p.as_deref())
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
            .join("|");
        let mut h = String::with_capacity(12 << 10);
        let _ = write!(
            h,
            "<article class=\"card\" data-codes=\"{}\" data-players=\"{}\"><h3>{} \u{2013} {}</h3><p class=\"meta\">",
            card.codes.join(" "),
            escape(&players),
            escape(card.white.as_deref().unwrap_or("?")),
            escape(card.black.as_deref().unwrap_or("?")),
        );
        for (label, value) in &card.tags {
            let _ = write!(h, "<span>{label}: {}</span>", escape(value));
        }
        let _ = write!(
            h,
            "<span class=\"where\">{} game {number}</span></p><div class=\"body\"><figure class=\"fault\">{}<figcaption>{}</figcaption></figure><div class=\"problems\">",
            escape(file),
            card.board,
            escape(&card.caption)
        );
        if let Some(law) = card.law {
            let _ = write!(
                h,
                "<p class=\"status\">The rules end the game: {}.</p>",
                escape(law)
            );
        }
        for mut l in card.located {
            l.place(number, &line);
            problem_html(&mut h, &l, self.shown);
        }
        if card.more > 0 {
            let _ = write!(
                h,
                "<p class=\"more\">and {} more problems (<code>pgnkit check</code> lists them all)</p>",
                card.more
            );
        }
        h.push_str("</div>");
        for (class, board, caption) in &card.others {
            let _ = write!(
                h,
                "<figure class=\"{class}\">{board}<figcaption>{}</figcaption></figure>",
                escape(caption)
            );
        }
        h.push_str("</div></article>\n");
        self.cards.push(h);
    }

    /// Counts `n` cards left out unmade (the page was full).
    pub fn left_out(&mut self, n: u64) {
        self.left_out = self.left_out.saturating_add(n);
    }

    /// Writes the page.
    ///
    /// # Errors
    /// Those of writing.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let t = &self.tally;
        let mut h = String::with_capacity(64 << 10);
        let _ = write!(
            h,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>pgnkit report: {} games, {} with problems</title><style>{STYLE}</style></head><body>\
             <h1>pgnkit report</h1><section class=\"summary\"><table class=\"counts\">",
            t.games, t.with_problems
        );
        let files = self.files.len() as u64 + self.failures.len() as u64;
        for (label, n) in [
            ("files", files),
            ("games", t.games),
            ("games with problems", t.with_problems),
            ("errors", t.errors),
            ("warnings", t.warnings),
            ("games with a claimable draw", t.claims),
        ] {
            let _ = write!(h, "<tr><th>{label}</th><td>{n}</td></tr>");
        }
        h.push_str("</table><div class=\"chart\"><h2>Problems by code</h2><table>");
        let top = t.by_code.iter().copied().max().unwrap_or(0).max(1);
        for (code, &n) in Code::ALL.iter().zip(&t.by_code).filter(|(_, n)| **n > 0) {
            let width = n.saturating_mul(100) / top;
            let _ = write!(
                h,
                "<tr><th>{}</th><td class=\"n\">{n}</td><td class=\"bar\"><div style=\"width:{width}%\"></div></td></tr>",
                code.as_str()
            );
        }
        h.push_str("</table></div><div class=\"chart\"><h2>Game status</h2><table>");
        for (status, n) in &t.statuses {
            let _ = write!(h, "<tr><th>{status}</th><td class=\"n\">{n}</td></tr>");
        }
        if t.clocked > 0 || !t.time_classes.is_empty() {
            h.push_str("</table></div><div class=\"chart\"><h2>Time</h2><table>");
            let _ = write!(
                h,
                "<tr><th>games with clocks</th><td class=\"n\">{}</td></tr><tr><th>moves in time trouble</th><td class=\"n\">{}</td></tr>",
                t.clocked, t.trouble_moves
            );
            for (kind, n) in &t.time_classes {
                let _ = write!(h, "<tr><th>{kind} games</th><td class=\"n\">{n}</td></tr>");
            }
        }
        h.push_str("</table></div></section><section class=\"files\"><h2>Files</h2><ul>");
        for f in &self.files {
            let _ = write!(h, "<li>{}</li>", escape(f));
        }
        for (f, why) in &self.failures {
            let _ = write!(
                h,
                "<li class=\"failed\">{}: {}</li>",
                escape(f),
                escape(why)
            );
        }
        h.push_str("</ul></section>");
        let shown = self.cards.len();
        let _ = write!(
            h,
            "<section><h2>Games with problems</h2><p class=\"note\">{shown} cards"
        );
        if self.left_out > 0 {
            let _ = write!(
                h,
                "; {} games with problems left out (at most {} cards: <code>--max-cards</code>)",
                self.left_out, self.max_cards
            );
        }
        h.push_str(".</p><form id=\"filters\" hidden>Code <select id=\"code\"><option value=\"\">all</option>");
        for (code, _) in Code::ALL.iter().zip(&t.by_code).filter(|(_, n)| **n > 0) {
            let _ = write!(h, "<option>{}</option>", code.as_str());
        }
        h.push_str(
            "</select> Player <input id=\"player\" type=\"search\" placeholder=\"name\"> \
             <span id=\"shown\"></span> shown</form>",
        );
        out.write_all(h.as_bytes())?;
        for card in &self.cards {
            out.write_all(card.as_bytes())?;
        }
        writeln!(out, "</section><script>{SCRIPT}</script></body></html>")
    }
}

/// `s` with `&`, `<`, `>` and `"` escaped, for HTML text and attributes,
/// and control characters (which HTML forbids; binary junk in a file)
/// shown as their Unicode pictures (`\0` as `␀`).
///
/// ```
/// use pgnkit_report::html::escape;
///
/// assert_eq!(escape("<b> & \"c\"\u{0}"), "&lt;b&gt; &amp; &quot;c&quot;\u{2400}");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(c),
            '\u{0}'..='\u{1f}' => {
                out.push(char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{fffd}'))
            }
            '\u{7f}' => out.push('\u{2421}'),
            '\u{80}'..='\u{9f}' => out.push('\u{fffd}'),
            _ => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font:15px/1.4 system-ui,sans-serif;margin:1em auto;max-width:1100px;padding:0 1em;color:#222}\
h1{margin:.2em 0}h2{font-size:1.1em;margin:.6em 0 .3em}h3{margin:0 0 .2em;font-size:1.05em}\
.summary{display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start}\
table{border-collapse:collapse}th{text-align:left;font-weight:normal;padding:1px 8px 1px 0}td{padding:1px 4px}\
.counts td{font-weight:bold;text-align:right}.n{text-align:right}\
.bar{width:180px}.bar div{background:#4a7ab5;height:.9em}\
.files ul{margin:0;padding-left:1.2em}.failed{color:#b00}\
.card{border:1px solid #ccc;border-radius:6px;padding:.6em .8em;margin:.8em 0}\
.meta{margin:0 0 .5em;color:#555;font-size:.9em}.meta span{margin-right:.8em}\
.body{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0}.ending svg,.claim svg{width:240px;height:240px}figcaption{font-size:.85em;color:#555;max-width:374px}\
.problems{flex:1;min-width:300px}.problem{margin-bottom:.6em}.problem p{margin:0}\
.code{font-family:monospace;background:#eee;padding:0 4px;border-radius:3px}.error .code{background:#f6d5d5}.warning .code{background:#f6ecc8}\
.at{color:#666;font-size:.9em}pre{background:#f7f7f7;padding:4px 6px;overflow-x:auto;margin:.3em 0;white-space:pre-wrap}\
mark{background:#ffd54d;font-weight:bold}ul{margin:.2em 0}#filters{margin:.5em 0}";

const SCRIPT: &str = "(function(){var f=document.getElementById('filters');f.hidden=false;\
var c=document.getElementById('code'),p=document.getElementById('player'),n=document.getElementById('shown');\
var cards=document.querySelectorAll('article.card');\
function run(){var code=c.value,who=p.value.trim().toLowerCase(),k=0;\
cards.forEach(function(a){var ok=(!code||(' '+a.dataset.codes+' ').indexOf(' '+code+' ')>=0)&&(!who||a.dataset.players.indexOf(who)>=0);a.hidden=!ok;if(ok)k++;});\
n.textContent=k;}c.addEventListener('change',run);p.addEventListener('input',run);run();})();";
