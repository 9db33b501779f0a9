//! Scoresheet repair: for a move that cannot be played, what the writer
//! probably meant.
//!
//! The slips modelled are the ones people make on scoresheets and when typing
//! them up: a rank off by one, a neighbouring or look-alike file letter
//! (b/d/h, c/e, g/q, a/d), a wrong piece letter (also the letter of another
//! language: Russian `К` is a knight, English `K` a king), a missing or extra
//! capture mark, a missing disambiguation, a missing promotion piece, a move
//! written from the other side's point of view, a move left out, and two
//! moves of one side written in swapped order.
//!
//! Every suggestion is confirmed by replaying the rest of the main line with
//! it; confirmed fixes rank first, then the more plausible slip, then the
//! longer replay. The search is bounded: a few dozen candidate moves, each
//! confirmed by a replay of the remaining tokens that stops at the first
//! failure.

use pgnkit_notation::{Language, Notation, Style, parse_annotation, parse_move, write_move};
use pgnkit_pgn::Game;
use shakmaty::{Chess, Move, Position, san::San};

use crate::diagnostic::{Code, Suggestion};
use crate::movetext::Pass;
use crate::text::Encoding;

/// At most this many suggestions are attached to a diagnostic.
pub const MAX_SUGGESTIONS: usize = 5;
/// Candidate replacements confirmed by replay, most plausible first.
const MAX_CONFIRM: usize = 12;

/// Attaches suggestions to the main line's first error in `pass`.
pub fn suggest(
    game: &Game<'_>,
    encoding: Encoding,
    start: &Chess,
    lang: Language,
    pass: &mut Pass,
) {
    let Some(failure) = pass.failure.clone() else {
        return;
    };
    let Some(at) = pass.main_tokens.iter().position(|&t| t == failure.token) else {
        return;
    };
    let texts: Vec<String> = pass.main_tokens[at..]
        .iter()
        .filter_map(|&i| game.tokens.get(i))
        .map(|t| encoding.decode(t.text).into_owned())
        .collect();
    let Some((written, rest)) = texts.split_first() else {
        return;
    };
    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
    let pos = &failure.position;
    let plies_after = rest.len() as u32;

    let mut found: Vec<(Suggestion, f32)> = Vec::new();

    // 1. One move written wrongly: rank the legal moves by how close their
    //    written forms are to the token, confirm the closest.
    let mut scored: Vec<(f32, Move, &'static str)> = pos
        .legal_moves()
        .into_iter()
        .filter_map(|m| {
            let (cost, why) = slip_cost(pos, &m, written, lang);
            (cost <= 2.0).then_some((cost, m, why))
        })
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (cost, m, why) in scored.into_iter().take(MAX_CONFIRM) {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let replayed = replay_rest(after, &rest, lang);
        found.push((
            Suggestion::Replace {
                san: san(pos, m),
                confirmed: replayed == plies_after,
                replays: Some(replayed + 1),
                reason: why.to_owned(),
            },
            cost,
        ));
    }

    // 2. A move left out: insert one legal move at the failing ply or one or
    //    two plies earlier, so that the token becomes the other side's move.
    let main = &pass.main_moves;
    let fail_index = main.len(); // index of the failing ply among main moves
    for back in 0..=2usize {
        if back > fail_index {
            break;
        }
        // Position before ply (failure.ply - back).
        let mut base = start.clone();
        for mm in &main[..fail_index - back] {
            base.play_unchecked(mm.played);
        }
        // Tokens to replay after the inserted move: the `back` moves that
        // were played, then the failing token, then the rest.
        let mut tail: Vec<&str> = Vec::with_capacity(back + 1 + rest.len());
        let played_texts: Vec<String> = main[fail_index - back..]
            .iter()
            .filter_map(|mm| game.tokens.get(mm.token))
            .map(|t| encoding.decode(t.text).into_owned())
            .collect();
        tail.extend(played_texts.iter().map(String::as_str));
        tail.push(written);
        tail.extend(rest.iter().copied());
        let ply = failure.ply - back as u32;
        for x in base.legal_moves() {
            let mut after = base.clone();
            after.play_unchecked(x);
            // Cheap filter: the next written move must now resolve.
            let Some(first) = tail.first() else { continue };
            if resolve(&after, first, lang).is_none() {
                continue;
            }
            let replayed = replay_rest(after, &tail, lang);
            if replayed as usize <= back {
                continue;
            }
            found.push((
                Suggestion::Insert {
                    ply,
                    san: san(&base, x),
                    confirmed: replayed as usize == tail.len(),
                    replays: Some(replayed + 1),
                    reason: "a move left out".to_owned(),
                },
                0.6 + back as f32 * 0.3,
            ));
        }
    }

    // 3. Two moves of one side written in swapped order.
    if rest.len() >= 2 {
        if let Some(m2) = resolve(pos, rest[1], lang) {
            let mut p1 = pos.clone();
            p1.play_unchecked(m2);
            if let Some(reply) = resolve(&p1, rest[0], lang) {
                let mut p2 = p1.clone();
                p2.play_unchecked(reply);
                if let Some(m1) = resolve(&p2, written, lang) {
                    let mut p3 = p2.clone();
                    p3.play_unchecked(m1);
                    let replayed = 3 + replay_rest(p3, &rest[2..], lang);
                    found.push((
                        Suggestion::Swap {
                            ply: failure.ply,
                            san: [san(pos, m2), san(&p2, m1)],
                            confirmed: replayed == plies_after + 1,
                            replays: Some(replayed),
                        },
                        0.7,
                    ));
                }
            }
        }
    }

    // Rank: confirmed first, then plausibility, then replay length.
    found.sort_by(|(a, ca), (b, cb)| {
        b.confirmed()
            .cmp(&a.confirmed())
            .then(ca.total_cmp(cb))
            .then(replays(b).cmp(&replays(a)))
    });
    let mut seen: Vec<String> = Vec::new();
    let mut suggestions = Vec::new();
    for (s, _) in found {
        let key = format!("{s:?}");
        let key = key.split("replays").next().unwrap_or_default().to_owned();
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        suggestions.push(s);
        if suggestions.len() == MAX_SUGGESTIONS {
            break;
        }
    }

    let Some(diag) = pass.diagnostics.get_mut(failure.diagnostic) else {
        return;
    };
    if let Some(top) = suggestions.first() {
        if matches!(top, Suggestion::Insert { .. })
            && top.confirmed()
            && matches!(diag.code, Code::IllegalMove | Code::UnparsableMove)
        {
            diag.code = Code::MissingMove;
            diag.severity = Code::MissingMove.severity();
            diag.message = format!(
                "{}; with one move inserted before it, the game replays to the end",
                diag.message
            );
        }
    }
    let lines: Vec<String> = suggestions
        .iter()
        .map(|s| help_line(s, plies_after))
        .collect();
    diag.help.splice(0..0, lines);
    diag.suggestions = suggestions;
}

fn replays(s: &Suggestion) -> u32 {
    match s {
        Suggestion::Replace { replays, .. }
        | Suggestion::Insert { replays, .. }
        | Suggestion::Swap { replays, .. } => replays.unwrap_or(0),
    }
}

fn help_line(s: &Suggestion, rest: u32) -> String {
    let then = |confirmed: bool, replays: Option<u32>| {
        if confirmed {
            match rest {
                0 => "(the game then ends legally)".to_owned(),
                1 => "(the remaining move then replays)".to_owned(),
                n => format!("(the remaining {n} moves then replay)"),
            }
        } else {
            format!(
                "(then {} more plies replay)",
                replays.unwrap_or(1).saturating_sub(1)
            )
        }
    };
    match s {
        Suggestion::Replace {
            san,
            confirmed,
            replays,
            reason,
        } => {
            let why = if reason.is_empty() {
                String::new()
            } else {
                format!(" — {reason}")
            };
            format!("did you mean {san}? {}{why}", then(*confirmed, *replays))
        }
        Suggestion::Insert {
            ply,
            san,
            confirmed,
            replays,
            ..
        } => format!(
            "a move may be missing: insert {san} as ply {ply} {}",
            then(*confirmed, *replays)
        ),
        Suggestion::Swap {
            san,
            confirmed,
            replays,
            ..
        } => format!(
            "two moves may be swapped: play {} before {} {}",
            san[0],
            san[1],
            then(*confirmed, *replays)
        ),
    }
}

fn san(pos: &Chess, m: Move) -> String {
    San::from_move(pos, m).to_string()
}

fn resolve(pos: &Chess, text: &str, lang: Language) -> Option<Move> {
    parse_move(text).ok()?.resolve(pos, lang).ok()
}

/// How many of `tokens` replay from `pos` before the first that fails.
pub fn replay_rest(mut pos: Chess, tokens: &[&str], lang: Language) -> u32 {
    let mut n = 0;
    for t in tokens {
        if parse_annotation(t).is_some() {
            n += 1;
            continue;
        }
        match resolve(&pos, t, lang) {
            Some(m) => {
                pos.play_unchecked(m);
                n += 1;
            }
            None => break,
        }
    }
    n
}

/// Keeps only what carries the move: no check, mate or evaluation marks,
/// capture marks unified to `x`, dashes dropped, castling zeros as `O`.
fn normalize(text: &str) -> Vec<char> {
    let mut out: Vec<char> = Vec::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '+' | '#' | '!' | '?' | '†' | '‡' | '=' | '(' | ')' | '/' | '\u{fe0e}' | '\u{fe0f}' =>
                {}
            ':' | '×' => out.push('x'),
            '-' | '–' | '—' | '−' => {}
            '0' => out.push('O'),
            _ => out.push(c),
        }
    }
    // "e.p." / "ep" at the end
    let s: String = out.iter().collect();
    let s = s.trim_end_matches("e.p.").trim_end_matches("ep").to_owned();
    s.chars().collect()
}

fn is_file(c: char) -> bool {
    ('a'..='h').contains(&c)
}

/// The cost of writing `b` where `a` was meant.
fn substitution(a: char, b: char) -> f32 {
    if a == b {
        return 0.0;
    }
    if is_file(a) && is_file(b) {
        let looks = [
            ('b', 'd'),
            ('b', 'h'),
            ('d', 'h'),
            ('c', 'e'),
            ('g', 'q'),
            ('a', 'd'),
            ('a', 'o'),
            ('f', 't'),
        ];
        if looks
            .iter()
            .any(|&(x, y)| (x == a && y == b) || (x == b && y == a))
        {
            return 0.45;
        }
        if (a as i32 - b as i32).abs() == 1 {
            return 0.5;
        }
        return 0.9;
    }
    if a.is_ascii_digit() && b.is_ascii_digit() {
        if (a as i32 - b as i32).abs() == 1 {
            return 0.4;
        }
        if matches!(
            (a, b),
            ('1', '7') | ('7', '1') | ('6', '8') | ('8', '6') | ('3', '8') | ('8', '3')
        ) {
            return 0.5;
        }
        return 0.9;
    }
    if (a == 'g' && b == '9')
        || (a == '9' && b == 'g')
        || (a == 'b' && b == '6')
        || (a == '6' && b == 'b')
    {
        return 0.5;
    }
    if !a.is_lowercase() && !b.is_lowercase() && !a.is_ascii_digit() && !b.is_ascii_digit() {
        // One piece letter for another.
        return 0.7;
    }
    1.0
}

fn indel(c: char) -> f32 {
    match c {
        'x' => 0.25,
        c if is_file(c) || c.is_ascii_digit() => 0.5,
        _ => 0.7,
    }
}

fn distance(a: &[char], b: &[char]) -> f32 {
    let mut prev: Vec<f32> = (0..=b.len())
        .map(|j| b[..j].iter().map(|&c| indel(c)).sum())
        .collect();
    let mut cur = vec![0.0f32; b.len() + 1];
    for &ca in a {
        cur[0] = prev[0] + indel(ca);
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + substitution(ca, cb);
            let del = prev[j + 1] + indel(ca);
            let ins = cur[j] + indel(cb);
            cur[j + 1] = sub.min(del).min(ins);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// How plausible it is that `m` was meant when `written` was written, as a
/// cost (0 = the same), and the kind of slip.
fn slip_cost(pos: &Chess, m: &Move, written: &str, lang: Language) -> (f32, &'static str) {
    let w = normalize(written);
    let mirrored: Vec<char> = w
        .iter()
        .map(|&c| match c.to_digit(10) {
            Some(d @ 1..=8) => char::from_digit(9 - d, 10).unwrap_or(c),
            _ => c,
        })
        .collect();
    let mut best = (f32::INFINITY, "");
    let consider = |form: &str, extra: f32, why: &'static str, best: &mut (f32, &'static str)| {
        let f = normalize(form);
        let d = distance(&f, &w) + extra;
        if d < best.0 {
            *best = (d, why);
        }
        let dm = distance(&f, &mirrored) + extra + 0.6;
        if dm < best.0 {
            *best = (dm, "written from the other side");
        }
    };
    let mut buf = String::new();
    let languages: &[Language] = if lang == Language::En {
        &[Language::En]
    } else {
        &[lang, Language::En]
    };
    for (k, &l) in languages.iter().chain(Language::ALL.iter()).enumerate() {
        for notation in [Notation::San, Notation::Lan] {
            buf.clear();
            let style = Style {
                notation,
                language: l,
                ..Style::SAN
            };
            write_move(pos, m, &style, &mut buf);
            let extra = if k < languages.len() { 0.0 } else { 0.35 };
            let why = if k < languages.len() {
                "a slip of the pen"
            } else {
                "a piece letter of another language"
            };
            consider(&buf, extra, why, &mut best);
        }
    }
    // Name the slip more precisely where the forms differ in one place.
    if best.1 == "a slip of the pen" {
        best.1 = classify(pos, m, &w);
    }
    best
}

fn classify(pos: &Chess, m: &Move, w: &[char]) -> &'static str {
    let mut buf = String::new();
    write_move(pos, m, &Style::SAN, &mut buf);
    let f = normalize(&buf);
    let strip = |v: &[char]| {
        v.iter()
            .copied()
            .filter(|&c| c != 'x')
            .collect::<Vec<char>>()
    };
    if strip(&f) == strip(w) {
        return "a missing or extra capture mark";
    }
    if f.len() == w.len() + 1 && f.last().is_some_and(|c| c.is_uppercase()) && f[..w.len()] == *w {
        return "the promotion piece left out";
    }
    if f.len() > w.len() && f.first() == w.first() && f.last() == w.last() {
        return "a missing disambiguation";
    }
    if f.len() == w.len() {
        let diffs: Vec<(char, char)> = f
            .iter()
            .zip(w)
            .filter(|(a, b)| a != b)
            .map(|(a, b)| (*a, *b))
            .collect();
        if let [(a, b)] = diffs.as_slice() {
            if a.is_ascii_digit() && b.is_ascii_digit() {
                return "a rank off by one";
            }
            if is_file(*a) && is_file(*b) {
                return "a look-alike or neighbouring file letter";
            }
            if a.is_uppercase() || b.is_uppercase() {
                return "a wrong piece letter";
            }
        }
    }
    "a slip of the pen"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_favour_real_slips() {
        let a = normalize("Nf6");
        assert!(distance(&normalize("Nd6"), &a) < distance(&normalize("Qf6"), &a) + 0.5);
        assert!(distance(&normalize("Bxe5"), &normalize("Be5")) <= 0.25);
        assert!(distance(&normalize("e4"), &normalize("e5")) <= 0.4);
    }
}
