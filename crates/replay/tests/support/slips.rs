//! Scoresheet slips seeded into real games written in any language and
//! notation: one implementation shared by `tests/language_slips.rs` and
//! `examples/repair_accuracy.rs` (both include this file by path).
//!
//! A game is written move by move with the notation crate's writer in a
//! [`Style`] (SAN or long algebraic, any language's piece letters, `x` or
//! `:` captures, `O-O` or `0-0`); a slip then changes the text the way a
//! writer errs (a rank off by one, a wrong piece letter, a move left out, …)
//! and is kept only where the written token really fails in the game's own
//! language (illegal, ambiguous or unparsable there).

#![allow(dead_code)] // each includer uses a part

use pgnkit_notation::{
    CaptureMark, Language, Notation, Style, parse_annotation, parse_move, write_move,
};
use pgnkit_replay::{GameReport, Suggestion};
use shakmaty::{Chess, Move, Position, Role, san::San};

/// The first `n` games of `file` in the notation crate's test data
/// (`testdata/notation`, see its README for sources and licences) that
/// replay without an error in English, from the standard start, with at
/// least 30 plies, as played.
pub fn clean_games(file: &str, n: usize) -> Vec<Clean> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/notation")
        .join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let options = pgnkit_replay::Options {
        language: Some(Language::En),
        suggestions: false,
        ..pgnkit_replay::Options::default()
    };
    let mut reader = pgnkit_pgn::Reader::new(&bytes);
    let mut game = pgnkit_pgn::Game::default();
    let mut out = Vec::new();
    while out.len() < n && reader.read_game(&mut game) {
        if game.tag("FEN").is_some() {
            continue;
        }
        let report = pgnkit_replay::replay_game(&bytes, &game, &options);
        if report.errors() == 0 && report.plies >= 30 {
            out.push(Clean::from_report(&report));
        }
    }
    out
}

/// splitmix64: small, seeded, good enough to sample.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

/// The kinds of slip.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Slip {
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

/// Every kind, in the order the accuracy table lists them.
pub const SLIPS: [Slip; 11] = [
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
    /// The row name.
    pub fn name(self) -> &'static str {
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

    /// Whether games written in `style` can have this slip: long algebraic
    /// names the square a piece comes from, so it has no disambiguation
    /// to leave out.
    pub fn applies_to(self, style: &Style) -> bool {
        self != Slip::Disambiguation || style.notation == Notation::San
    }
}

/// A clean game: the position before each move, and the moves.
pub struct Clean {
    pub positions: Vec<Chess>,
    pub moves: Vec<Move>,
}

impl Clean {
    /// The main line of a replayed game.
    pub fn from_report(report: &GameReport) -> Clean {
        let mut pos = report.start.clone();
        let mut clean = Clean {
            positions: Vec::new(),
            moves: Vec::new(),
        };
        for mm in &report.moves {
            clean.positions.push(pos.clone());
            clean.moves.push(mm.played);
            pos.play_unchecked(mm.played);
        }
        clean
    }

    /// The moves as `style` writes them (check and mate marks included).
    pub fn written(&self, style: &Style) -> Vec<String> {
        self.positions
            .iter()
            .zip(&self.moves)
            .map(|(pos, m)| {
                let mut out = String::new();
                write_move(pos, m, style, &mut out);
                out
            })
            .collect()
    }
}

/// What the repair should find.
#[derive(Debug, Clone)]
pub enum Truth {
    /// The token at `ply` stands for `san`.
    Replace { ply: u32, san: String },
    /// `san` was left out at `ply`.
    Insert { ply: u32, san: String },
    /// The moves at `ply` and `ply + 2` were written in each other's place.
    Swap { ply: u32, san: [String; 2] },
    /// A word too many.
    Delete,
}

impl Truth {
    /// The 1-based ply the slip is at (`None` for a word too many).
    pub fn ply(&self) -> Option<u32> {
        match self {
            Truth::Replace { ply, .. } | Truth::Insert { ply, .. } | Truth::Swap { ply, .. } => {
                Some(*ply)
            }
            Truth::Delete => None,
        }
    }
}

/// `m` in SAN without check marks, as suggestions give it.
pub fn plain_san(pos: &Chess, m: Move) -> String {
    San::from_move(pos, m).to_string()
}

/// Whether `text` fails to name exactly one legal move in `pos` when read
/// in `lang`.
pub fn is_wrong(text: &str, pos: &Chess, lang: Language) -> bool {
    parse_move(text)
        .ok()
        .and_then(|t| t.resolve(pos, lang).ok())
        .is_none()
}

fn split_suffix(s: &str) -> (&str, &str) {
    let core = s.trim_end_matches(['+', '#']);
    (core, &s[core.len()..])
}

/// Other languages' letters for [`Slip::Foreign`]: for an English game the
/// list of the English accuracy runs; for another language, English takes
/// that language's place.
fn foreign_languages(lang: Language) -> [Language; 10] {
    let mut langs = [
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
    for l in &mut langs {
        if *l == lang {
            *l = Language::En;
        }
    }
    langs
}

/// The token written instead of `written` (the move `m` from `pos` in
/// `style`) for a one-token slip, if that slip applies and makes the token
/// fail in the style's language.
pub fn mutate(
    slip: Slip,
    pos: &Chess,
    m: Move,
    written: &str,
    style: &Style,
    rng: &mut Rng,
) -> Option<String> {
    let lang = style.language;
    let (core, suffix) = split_suffix(written);
    let chars: Vec<char> = core.chars().collect();
    let last_digit = chars.iter().rposition(|c| c.is_ascii_digit());
    let mark = match style.capture {
        CaptureMark::X => 'x',
        CaptureMark::Colon => ':',
    };
    let piece: Vec<char> = lang.letter(m.role()).chars().collect();
    let lettered = m.role() != Role::Pawn && !m.is_castle() && chars.starts_with(&piece);
    let out: String = match slip {
        Slip::Rank => {
            if m.is_castle() {
                return None;
            }
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
            if m.is_castle() {
                return None;
            }
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
            if !lettered {
                return None;
            }
            let others: Vec<&str> = [
                Role::King,
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
            ]
            .into_iter()
            .filter(|&r| r != m.role())
            .map(|r| lang.letter(r))
            .collect();
            let rest: String = chars[piece.len()..].iter().collect();
            format!("{}{rest}{suffix}", rng.pick(&others)?)
        }
        Slip::Foreign => {
            if !lettered {
                return None;
            }
            let other = *rng.pick(&foreign_languages(lang))?;
            let letter = other.letter(m.role());
            if letter == lang.letter(m.role()) {
                return None;
            }
            let rest: String = chars[piece.len()..].iter().collect();
            format!("{letter}{rest}{suffix}")
        }
        Slip::Capture => {
            if m.is_castle() {
                return None;
            }
            if m.is_capture() {
                if m.role() != Role::Pawn {
                    return None; // a missing mark on a piece capture still reads
                }
                // The pawn capture written as a push to the square.
                let x = chars.iter().position(|&c| c == mark)?;
                chars[x + 1..].iter().collect::<String>() + suffix
            } else {
                // The mark before the square moved to (in place of a dash).
                let to = last_digit?.checked_sub(1)?;
                let mut c = chars.clone();
                match to.checked_sub(1).map(|i| c[i]) {
                    Some('-' | '–') => c[to - 1] = mark,
                    _ => c.insert(to, mark),
                }
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
            if !lettered || role == Role::Pawn || (file.is_none() && rank.is_none()) {
                return None;
            }
            let extra = usize::from(file.is_some()) + usize::from(rank.is_some());
            // Only where the written token carries SAN's disambiguation.
            let to = last_digit?.checked_sub(1)?;
            if to != piece.len() + extra && to != piece.len() + extra + 1 {
                return None;
            }
            let mut c = chars.clone();
            c.drain(piece.len()..piece.len() + extra);
            c.into_iter().collect::<String>() + suffix
        }
        Slip::Promotion => {
            let role = m.promotion()?;
            let end = match chars.iter().position(|&c| c == '=') {
                Some(eq) => eq,
                None => chars.len().checked_sub(lang.letter(role).chars().count())?,
            };
            chars[..end].iter().collect::<String>() + suffix
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
    is_wrong(&out, pos, lang).then_some(out)
}

/// `slip` seeded at ply index `p` (0-based) of `g`, whose moves `style`
/// writes as `written`: the tokens as written with the slip, and the truth;
/// `None` where the slip does not apply there or leaves a readable token.
pub fn inject_at(
    slip: Slip,
    g: &Clean,
    written: &[String],
    style: &Style,
    p: usize,
    rng: &mut Rng,
) -> Option<(Vec<String>, Truth)> {
    let lang = style.language;
    let n = g.moves.len();
    let pos = g.positions.get(p)?;
    let m = *g.moves.get(p)?;
    let mut tokens = written.to_vec();
    let truth = match slip {
        Slip::Missing => {
            if p + 1 >= n {
                return None;
            }
            tokens.remove(p);
            Truth::Insert {
                ply: p as u32 + 1,
                san: plain_san(pos, m),
            }
        }
        Slip::Swap => {
            if p + 2 >= n {
                return None;
            }
            tokens.swap(p, p + 2);
            if !is_wrong(&tokens[p], pos, lang) {
                return None;
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
                (0, Some(q)) => written[q].clone(),
                _ => (*rng.pick(&["x", "N", "\\", "\u{0}", "ch"])?).to_owned(),
            };
            // A word read as a mark on the move before (`x`, `ch`) is none.
            if !is_wrong(&extra, pos, lang) || parse_annotation(&extra).is_some() {
                return None;
            }
            match p.checked_sub(1) {
                Some(q) => tokens[q] = format!("{} {extra}", tokens[q]),
                None => tokens[0] = format!("{extra} {}", tokens[0]),
            }
            Truth::Delete
        }
        _ => {
            tokens[p] = mutate(slip, pos, m, &written[p], style, rng)?;
            Truth::Replace {
                ply: p as u32 + 1,
                san: plain_san(pos, m),
            }
        }
    };
    Some((tokens, truth))
}

/// `slip` seeded at a random ply of `g` (redrawn up to 40 times where it
/// does not apply).
pub fn inject(
    slip: Slip,
    g: &Clean,
    written: &[String],
    style: &Style,
    rng: &mut Rng,
) -> Option<(Vec<String>, Truth)> {
    let n = g.moves.len();
    for _ in 0..40 {
        let p = rng.below(n);
        if let Some(case) = inject_at(slip, g, written, style, p, rng) {
            return Some(case);
        }
    }
    None
}

/// The tokens as a PGN game, numbered as on a scoresheet (by cell).
pub fn pgn_text(tokens: &[String]) -> String {
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
pub fn rank_of(truth: &Truth, suggestions: &[Suggestion]) -> Option<usize> {
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
