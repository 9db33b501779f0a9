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
//! Every candidate is checked by replaying the rest of the main line with it.
//! The replay also counts how well the written record fits the repaired game
//! (check marks where the moves give check, move numbers where the plies
//! are, SAN written as SAN would be written), so that among fixes that all
//! replay, the one the record agrees with ranks first. Confirmed fixes rank
//! first, then the more plausible slip and the better fit.
//!
//! A game with several errors: after the first error, the replay goes on
//! with the best fix applied, and each later error is reported as its own
//! diagnostic with its own suggestions. When the game replays to the end
//! with every top fix applied, those fixes are confirmed.
//!
//! The search is bounded: a few dozen candidates per error are screened with
//! a short replay, the best ten are followed to the end, and a budget of
//! replayed plies per game caps the total.

use pgnkit_notation::{
    HouseStyle, Language, MoveToken, Notation, ResolveError, Style, Suffix, parse_annotation,
    parse_move, write_move,
};
use pgnkit_pgn::{Game, TokenKind};
use shakmaty::{Chess, Color, Move, Position, Role, san::San};

use crate::diagnostic::{Code, Diagnostic, Rank, Suggestion, brief};
use crate::movetext::Pass;
use crate::outcome::Tracker;
use crate::text::Encoding;

/// At most this many suggestions are attached to a diagnostic.
pub const MAX_SUGGESTIONS: usize = 5;
/// Candidates screened with a short replay, per error and kind.
const SCREEN: usize = 32;
/// Plies replayed when screening.
const SCREEN_PLIES: usize = 24;
/// Candidates followed to the end of the game, per error.
const MAX_CONFIRM: usize = 10;
/// Errors reported after the first one (with the best fixes applied).
const MAX_FOLLOWING: usize = 16;
/// Errors of one main line repaired and reported at most.
pub const MAX_ERRORS: usize = MAX_FOLLOWING + 1;
/// Plies replayed for one game's repair, all candidates and errors together.
const BUDGET: u64 = 12_000;
/// Cost of one place where the written record disagrees with a repaired game.
const MISMATCH_COST: f32 = 0.3;
/// The price of a fix whose move gives away a piece that the reply
/// written after it does not take ([`crate::exchange::blunder`]).
const BLUNDER_COST: f32 = 0.5;
/// The price of each later move of the game that gives away a piece the
/// reply does not take, with the fix applied.
const LATER_BLUNDER_COST: f32 = 0.3;

/// What a replay of the words after a fix counts against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Evidence {
    /// The places where the record disagrees with the replayed game.
    Record,
    /// Those, and the moves that give away material the reply does not
    /// take ([`crate::exchange::blunder`]): needed only where several slips
    /// of the pen compete, and a replay's most costly part.
    RecordAndMaterial,
}

/// One word of the main line, read once.
struct Word {
    text: String,
    token: Option<MoveToken>,
    /// The word is an annotation (`!?`, `+-`, `ep` …), no move.
    annotation: bool,
    /// For comparing with English SAN: `None` when the word is not compared
    /// (castling, not ASCII); `Some(None)` when no SAN is written so; else
    /// the SAN written, without its marks.
    plain_san: Option<Option<San>>,
    /// The move number written just before it: (number, written with `...`).
    number: Option<(u32, bool)>,
    /// Index in `game.tokens`.
    index: usize,
}

impl Word {
    /// A word that is no move and does not even look like one: no rank
    /// digit (a file letter can be miswritten, `Rq2` for `Rg2`, a rank
    /// hardly disappears) and no castling.
    /// Stray control characters (a NUL, an escape) do not count, and a
    /// move number with a stray in it (`4\u{0}.`) is junk: without the
    /// stray it is no word of the movetext at all.
    fn is_junk(&self) -> bool {
        if self.token.is_some() {
            return false;
        }
        if without_strays(&self.text).is_some_and(|rest| rest.is_empty()) {
            return true;
        }
        let mut text = self.text.chars().filter(|c| !c.is_control());
        let rank = text.clone().any(|c| ('1'..='8').contains(&c));
        let castling = text.next().is_some_and(|c| matches!(c, 'O' | '0' | 'o'))
            && text.any(|c| matches!(c, '-' | '–' | '—'));
        !rank && !castling
    }
}

/// The main line as written, and the replay budget.
struct Line {
    words: Vec<Word>,
    lang: Language,
    /// How the writer writes moves ([`HouseStyle`]): suggestions are
    /// written so.
    style: Style,
    /// The writer marks checks (some word carries `+` or `#`).
    marks_checks: bool,
    budget: u64,
}

/// How far a position replays through the words from some index on.
#[derive(Clone, Debug, Default)]
struct Follow {
    /// Words replayed.
    replayed: u32,
    /// Every word up to the end replayed.
    complete: bool,
    /// Places where the record disagrees with the replayed game.
    mismatches: u32,
    /// Moves replayed that give away a piece the reply does not take
    /// ([`crate::exchange::blunder`]): where two fixes leave the pieces
    /// differently placed, the rest of the game is likelier after the one
    /// under which its moves give less away.
    blunders: u32,
    /// The first word that failed, the position before it and its ply.
    stop: Option<Stop>,
}

#[derive(Clone, Debug)]
struct Stop {
    word: usize,
    position: Chess,
    ply: u32,
    /// The last (up to two) words played before it: (word, position before it).
    recent: Vec<(usize, Chess)>,
}

/// A fix under consideration.
#[derive(Clone, Debug)]
struct Candidate {
    suggestion: Suggestion,
    cost: f32,
    follow: Follow,
    /// Followed to the end (or to its first failure), not only screened.
    full: bool,
    /// How to go on from the fix: the position after it and the next word.
    resume: Option<(Chess, usize, u32)>,
    /// The suggested moves as the writer writes them (SAN in the game's
    /// language), for the help text; the suggestion itself keeps SAN.
    shown: Vec<String>,
}

impl Candidate {
    /// How well the fix fits the record: the slip's cost and the places
    /// where the record disagrees with the repaired game.
    fn fit(&self) -> f32 {
        self.cost
            + MISMATCH_COST * self.follow.mismatches as f32
            + LATER_BLUNDER_COST * self.follow.blunders as f32
    }

    fn score(&self) -> f32 {
        let mut s = self.fit();
        if !self.follow.complete {
            // A fix after which the game soon fails again is less likely.
            s += 2.0 / (1.0 + self.follow.replayed as f32).sqrt();
        }
        s
    }
}

fn rank(cands: &mut [Candidate]) {
    cands.sort_by(|a, b| {
        b.follow
            .complete
            .cmp(&a.follow.complete)
            .then(a.score().total_cmp(&b.score()))
            .then(b.follow.replayed.cmp(&a.follow.replayed))
    });
}

impl Line {
    fn new(game: &Game<'_>, encoding: Encoding, main_tokens: &[u32], lang: Language) -> Line {
        let mut words = Vec::with_capacity(main_tokens.len());
        let mut marks_checks = false;
        for i in main_tokens.iter().map(|&i| i as usize) {
            let Some(t) = game.tokens.get(i) else {
                continue;
            };
            let text = encoding.decode(t.text).into_owned();
            let token = parse_move(&text).ok();
            if token.is_some_and(|t| t.suffix() != Suffix::None) {
                marks_checks = true;
            }
            let plain_san = text.is_ascii().then(|| core(&text)).and_then(|c| {
                (!c.starts_with(['O', '0'])).then(|| {
                    // Only a SAN that reads back as written equals a move's SAN.
                    San::from_ascii(c.as_bytes())
                        .ok()
                        .filter(|s| s.to_string() == c)
                })
            });
            words.push(Word {
                number: number_before(game, i),
                token,
                annotation: parse_annotation(&text).is_some(),
                plain_san,
                text,
                index: i,
            });
        }
        let style = HouseStyle::of_words(
            words
                .iter()
                .filter(|w| w.token.is_some())
                .map(|w| w.text.as_str()),
        )
        .style(lang);
        Line {
            words,
            lang,
            style,
            marks_checks,
            budget: BUDGET,
        }
    }

    /// The move of the first word from `from` on that is no annotation,
    /// read in `pos` (the reply to a fix).
    fn reply(&self, from: usize, pos: &Chess) -> Option<Move> {
        let i =
            (from..self.words.len()).find(|&i| self.words.get(i).is_some_and(|w| !w.annotation))?;
        self.resolve(i, pos)
    }

    /// What a fix that plays `m` from `pos` (giving `after`, the next word
    /// `next`) costs for the material it gives away.
    fn blunder(&self, pos: &Chess, m: Move, after: &Chess, next: usize) -> f32 {
        if crate::exchange::blunder(pos, m, after, self.reply(next, after)) {
            BLUNDER_COST
        } else {
            0.0
        }
    }

    fn resolve(&self, word: usize, pos: &Chess) -> Option<Move> {
        let w = self.words.get(word)?;
        w.token?.resolve(pos, self.lang).ok()
    }

    /// Places where `word`, played as `m` from `pos`, disagrees with the record.
    fn mismatches(&self, word: &Word, pos: &Chess, m: Move, after: &Chess) -> u32 {
        let mut n = 0;
        if self.marks_checks
            && let Some(t) = word.token
            && (t.suffix() != Suffix::None) != after.is_check()
        {
            n += 1;
        }
        if let Some((number, black)) = word.number
            && (number != pos.fullmoves().get() || (black && pos.turn() == Color::White))
        {
            n += 1;
        }
        if self.lang == Language::En {
            if let Some(written) = &word.plain_san
                && written.as_ref() != Some(&San::from_move(pos, m))
            {
                n += 1;
            }
        } else if self.written_otherwise(word, pos, m, after) {
            n += 1;
        }
        n
    }

    /// Whether `word`, read as `m` in `pos`, is written otherwise than the
    /// writer's notation (SAN or long algebraic in the game's language, with
    /// its capture mark) writes `m` there: a disambiguation written where
    /// none is needed or the other way round, a capture mark on a move that
    /// takes nothing. English SAN has its own check (`Word::plain_san`);
    /// castling and other notations are not compared.
    fn written_otherwise(&self, word: &Word, pos: &Chess, m: Move, after: &Chess) -> bool {
        if !matches!(self.style.notation, Notation::San | Notation::Lan)
            || word.token.is_none_or(|t| t.is_castling())
            || m.is_castle()
        {
            return false;
        }
        let mut written = String::with_capacity(8);
        pgnkit_notation::write_move_checked(pos, &m, after, false, &self.style, &mut written);
        core(&written) != core(&word.text)
    }

    /// Replays from `pos` the words from `from` on (`ply` is the ply of the
    /// first), at most `limit` of them, counting what `evidence` says.
    fn follow(
        &mut self,
        mut pos: Chess,
        from: usize,
        mut ply: u32,
        limit: usize,
        evidence: Evidence,
    ) -> Follow {
        let mut f = Follow::default();
        let mut recent: Vec<(usize, Chess)> = Vec::new();
        let mut prev: Option<Move> = None;
        let mut i = from;
        while i < self.words.len() {
            if f.replayed as usize >= limit || self.budget == 0 {
                return f;
            }
            self.budget -= 1;
            let Some(word) = self.words.get(i) else {
                break;
            };
            if word.annotation {
                i += 1;
                continue;
            }
            let Some(m) = self.resolve(i, &pos) else {
                f.stop = Some(Stop {
                    word: i,
                    position: pos,
                    ply,
                    recent,
                });
                return f;
            };
            if evidence == Evidence::RecordAndMaterial
                && let Some((_, before)) = recent.last()
                && let Some(prev) = prev
                && crate::exchange::blunder(before, prev, &pos, Some(m))
            {
                f.blunders += 1;
            }
            prev = Some(m);
            let mut after = pos.clone();
            after.play_unchecked(m);
            f.mismatches += self.mismatches(word, &pos, m, &after);
            if recent.len() == 2 {
                recent.remove(0);
            }
            recent.push((i, pos));
            pos = after;
            f.replayed += 1;
            ply += 1;
            i += 1;
        }
        f.complete = true;
        f
    }

    /// The candidate fixes for the word `k` that fails in `pos` (ply `ply`);
    /// `recent` are the (up to two) words played just before it.
    fn candidates(
        &mut self,
        k: usize,
        pos: &Chess,
        ply: u32,
        recent: &[(usize, Chess)],
    ) -> Vec<Candidate> {
        let Some(junk) = self.words.get(k).map(Word::is_junk) else {
            return Vec::new();
        };
        // A move with a stray control character in it that reads as a move
        // without it, after which the game replays to the end.
        let stray = if junk {
            None
        } else {
            self.stray_fix(k, pos, ply)
        };
        // Material only tells apart the slips of the pen of step 1 to 4.
        let evidence = if junk || stray.is_some() {
            Evidence::Record
        } else {
            Evidence::RecordAndMaterial
        };
        // 0. The word is no move of the game: struck out, the next word is
        //    this ply's move.
        let strike = self.strike_out(k, pos, ply, evidence);
        let mut cands: Vec<Candidate> = if junk {
            // Junk (`\`, `##comment`) is no slip of the pen: striking it out
            // is all there is to suggest, if the words after it then replay.
            strike
                .into_iter()
                .filter(|c| c.follow.complete || c.follow.replayed > 0)
                .collect()
        } else if let Some(c) = stray {
            std::iter::once(c)
                .chain(strike.filter(|s| s.follow.complete))
                .collect()
        } else {
            let mut slips = self.slips(k, pos, ply, recent);
            slips.extend(strike);
            slips
        };

        // Follow the best to the end.
        rank(&mut cands);
        for c in cands.iter_mut().take(MAX_CONFIRM) {
            if c.follow.complete || c.follow.stop.is_some() {
                c.full = true;
                continue;
            }
            if let Some((after, next, next_ply)) = c.resume.clone() {
                c.follow = self.follow(after, next, next_ply, usize::MAX, evidence);
                c.full = true;
            }
        }
        for c in &mut cands {
            // A struck-out word is no ply of its own.
            let replays = match c.suggestion {
                Suggestion::Delete { .. } => c.follow.replayed,
                _ => c.follow.replayed + 1,
            };
            c.suggestion.set_replay(c.follow.complete, Some(replays));
        }
        rank(&mut cands);
        dedup(&mut cands);
        cands
    }

    /// The slips of the pen that may have made word `k` fail in `pos`
    /// (ply `ply`), each screened by a short replay: steps 1 to 4 of
    /// [`Line::candidates`].
    fn slips(
        &mut self,
        k: usize,
        pos: &Chess,
        ply: u32,
        recent: &[(usize, Chess)],
    ) -> Vec<Candidate> {
        let Some(word) = self.words.get(k) else {
            return Vec::new();
        };
        let written = Written::new(&word.text, self.lang);
        let token = word.token;
        let mut replace: Vec<(f32, Move, &'static str)> = Vec::new();

        // 1. The token fits several moves: one of those.
        if let Some(Err(ResolveError::Ambiguous(moves))) = token.map(|t| t.resolve(pos, self.lang))
        {
            for m in moves {
                let (cost, why) = match m.promotion() {
                    Some(Role::Queen) => (0.05, "the promotion piece left out"),
                    Some(_) => (0.3, "the promotion piece left out"),
                    None => (0.1, "a missing disambiguation"),
                };
                replace.push((cost, m, why));
            }
        }
        // 2. One move written wrongly: the legal moves whose written forms
        //    are closest to the token.
        let mut scratch = (String::new(), Vec::new());
        let mut scored: Vec<(f32, Move, &'static str)> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !replace.iter().any(|(_, r, _)| r == m))
            .filter_map(|m| {
                let (cost, why) = written.cost(pos, &m, self.lang, &mut scratch);
                (cost <= MAX_COST).then_some((cost, m, why))
            })
            .collect();
        scored.sort_by(|a, b| a.0.total_cmp(&b.0));
        scored.truncate(SCREEN);
        replace.extend(scored);

        let mut cands: Vec<Candidate> = Vec::new();
        for (cost, m, why) in replace {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let follow = self.follow(
                after.clone(),
                k + 1,
                ply + 1,
                SCREEN_PLIES,
                Evidence::RecordAndMaterial,
            );
            // A check mark written on the word itself that the move does
            // or does not give is evidence too.
            let own_mark = self.marks_checks
                && token.is_some_and(|t| (t.suffix() != Suffix::None) != after.is_check());
            let cost = cost
                + self.blunder(pos, m, &after, k + 1)
                + if own_mark { MISMATCH_COST } else { 0.0 };
            cands.push(Candidate {
                shown: vec![self.written(pos, m)],
                suggestion: Suggestion::Replace {
                    san: san(pos, m),
                    confirmed: false,
                    replays: None,
                    reason: why.to_owned(),
                    rank: Rank::default(),
                },
                cost,
                follow,
                full: false,
                resume: Some((after, k + 1, ply + 1)),
            });
        }

        // 3. A move left out: one legal move inserted at the failing ply or
        //    one or two plies earlier, so that the words from there on
        //    become the other side's.
        let mut bases: Vec<(usize, usize, Chess)> = vec![(0, k, pos.clone())];
        for (back, (w, p)) in recent.iter().rev().enumerate() {
            bases.push((back + 1, *w, p.clone()));
        }
        let mut inserts: Vec<Candidate> = Vec::new();
        for (b, (back, first, base)) in bases.into_iter().enumerate() {
            let at = ply.saturating_sub(back as u32);
            // Where the move before the inserted one landed (for recaptures).
            let last_to = if b == 0 {
                recent
                    .last()
                    .and_then(|(w, p)| self.resolve(*w, p))
                    .map(|m| m.to())
            } else {
                recent
                    .len()
                    .checked_sub(b + 1)
                    .and_then(|i| recent.get(i))
                    .and_then(|(w, p)| self.resolve(*w, p))
                    .map(|m| m.to())
            };
            for x in base.legal_moves() {
                let mut after = base.clone();
                after.play_unchecked(x);
                if self.resolve(first, &after).is_none() {
                    continue;
                }
                let follow = self.follow(
                    after.clone(),
                    first,
                    at + 1,
                    SCREEN_PLIES,
                    Evidence::RecordAndMaterial,
                );
                if (follow.replayed as usize) <= back {
                    continue;
                }
                let blunder = self.blunder(&base, x, &after, first);
                inserts.push(Candidate {
                    shown: vec![self.written(&base, x)],
                    suggestion: Suggestion::Insert {
                        ply: at,
                        san: san(&base, x),
                        confirmed: false,
                        replays: None,
                        reason: "a move left out".to_owned(),
                        rank: Rank::default(),
                    },
                    cost: 0.6 + back as f32 * 0.2 + insert_prior(&base, x, last_to) + blunder,
                    follow,
                    full: false,
                    resume: Some((after, first, at + 1)),
                });
            }
        }
        rank(&mut inserts);
        inserts.truncate(SCREEN);
        cands.extend(inserts);

        // 4. Two moves of one side written in swapped order: the token and
        //    the word two plies later, or the word two plies earlier and
        //    the token.
        if let Some(c) = self.swap(pos, k, ply) {
            cands.push(c);
        }
        if let [(w, p), _] = recent
            && *w + 2 == k
            && let Some(c) = self.swap(p, *w, ply.saturating_sub(2))
        {
            cands.push(c);
        }

        cands
    }

    /// Word `k`, failing in `pos` (ply `ply`), struck out: the words after
    /// it replayed from `pos`.
    fn strike_out(
        &mut self,
        k: usize,
        pos: &Chess,
        ply: u32,
        evidence: Evidence,
    ) -> Option<Candidate> {
        let word = self.words.get(k)?;
        let stray = word.text.chars().any(char::is_control);
        let twice = word.token.is_some()
            && k.checked_sub(1)
                .and_then(|j| self.words.get(j))
                .is_some_and(|prev| prev.text == word.text);
        let (cost, reason) = if stray {
            (0.1, "a stray control character, no move")
        } else if word.token.is_none() {
            (if word.is_junk() { 0.2 } else { 0.9 }, "no move")
        } else if twice {
            (0.5, "the same move written twice")
        } else {
            (1.2, "a word too many")
        };
        let follow = self.follow(pos.clone(), k + 1, ply, SCREEN_PLIES, evidence);
        Some(Candidate {
            shown: Vec::new(),
            suggestion: Suggestion::Delete {
                confirmed: false,
                replays: None,
                reason: reason.to_owned(),
                rank: Rank::default(),
            },
            cost,
            follow,
            full: false,
            resume: Some((pos.clone(), k + 1, ply)),
        })
    }

    /// Word `k` read without its stray control characters, if it then is a
    /// legal move in `pos` after which the rest of the game replays.
    fn stray_fix(&mut self, k: usize, pos: &Chess, ply: u32) -> Option<Candidate> {
        let text = without_strays(&self.words.get(k)?.text)?;
        let m = parse_move(&text).ok()?.resolve(pos, self.lang).ok()?;
        let mut after = pos.clone();
        after.play_unchecked(m);
        let follow = self.follow(after.clone(), k + 1, ply + 1, usize::MAX, Evidence::Record);
        if !follow.complete {
            return None;
        }
        Some(Candidate {
            shown: vec![self.written(pos, m)],
            suggestion: Suggestion::Replace {
                san: san(pos, m),
                confirmed: false,
                replays: None,
                reason: "a stray control character".to_owned(),
                rank: Rank::default(),
            },
            cost: 0.1,
            follow,
            full: true,
            resume: Some((after, k + 1, ply + 1)),
        })
    }

    /// `m` in `pos` as the writer writes moves: in the game's language and
    /// house style (long or short, its capture and castling marks).
    fn written(&self, pos: &Chess, m: Move) -> String {
        let mut out = String::new();
        write_move(pos, &m, &self.style, &mut out);
        out
    }

    /// Words `k` and `k + 2` played in the other order from `pos`.
    fn swap(&mut self, pos: &Chess, k: usize, ply: u32) -> Option<Candidate> {
        let m2 = self.resolve(k + 2, pos)?;
        let mut p1 = pos.clone();
        p1.play_unchecked(m2);
        let reply = self.resolve(k + 1, &p1)?;
        let mut p2 = p1.clone();
        p2.play_unchecked(reply);
        let m1 = self.resolve(k, &p2)?;
        let mut p3 = p2.clone();
        p3.play_unchecked(m1);
        let follow = self.follow(
            p3.clone(),
            k + 3,
            ply + 3,
            SCREEN_PLIES,
            Evidence::RecordAndMaterial,
        );
        let mut follow = follow;
        follow.replayed += 2;
        Some(Candidate {
            shown: vec![self.written(pos, m2), self.written(&p2, m1)],
            suggestion: Suggestion::Swap {
                ply,
                san: [san(pos, m2), san(&p2, m1)],
                confirmed: false,
                replays: None,
                rank: Rank::default(),
            },
            cost: 0.7,
            follow,
            full: false,
            resume: Some((p3, k + 3, ply + 3)),
        })
    }
}

/// How likely a left-out move is in itself: recaptures and captures are
/// played (and left out) more often than quiet moves; checks too.
fn insert_prior(base: &Chess, x: Move, last_to: Option<shakmaty::Square>) -> f32 {
    let mut c = 0.0;
    if x.is_capture() {
        c -= if Some(x.to()) == last_to { 0.3 } else { 0.1 };
    }
    let mut after = base.clone();
    after.play_unchecked(x);
    if after.is_check() {
        c -= 0.1;
    }
    c
}

/// Keeps the first of candidates that suggest the same thing.
fn dedup(cands: &mut Vec<Candidate>) {
    let mut seen: Vec<Suggestion> = Vec::new();
    cands.retain(|c| {
        let key = match &c.suggestion {
            Suggestion::Replace { san, .. } => Suggestion::Replace {
                san: san.clone(),
                confirmed: false,
                replays: None,
                reason: String::new(),
                rank: Rank::default(),
            },
            Suggestion::Insert { ply, san, .. } => Suggestion::Insert {
                ply: *ply,
                san: san.clone(),
                confirmed: false,
                replays: None,
                reason: String::new(),
                rank: Rank::default(),
            },
            Suggestion::Swap { ply, san, .. } => Suggestion::Swap {
                ply: *ply,
                san: san.clone(),
                confirmed: false,
                replays: None,
                rank: Rank::default(),
            },
            Suggestion::Delete { .. } => Suggestion::Delete {
                confirmed: false,
                replays: None,
                reason: String::new(),
                rank: Rank::default(),
            },
        };
        if seen.contains(&key) {
            false
        } else {
            seen.push(key);
            true
        }
    });
}

/// The move number written just before main-line token `i`, skipping
/// comments and glyphs.
fn number_before(game: &Game<'_>, i: usize) -> Option<(u32, bool)> {
    let mut j = i;
    while j > 0 {
        j -= 1;
        let t = game.tokens.get(j)?;
        match t.kind {
            TokenKind::MoveNumber { number, black } => return Some((number, black)),
            TokenKind::Comment | TokenKind::Nag(_) => {}
            _ => return None,
        }
    }
    None
}

/// The token without check, mate and glyph marks, castling with `O`.
fn core(text: &str) -> String {
    text.trim_end_matches(['+', '#', '!', '?'])
        .replace('0', "O")
}

/// One error and what was found for it.
struct Finding {
    word: usize,
    ply: u32,
    position: Chess,
    candidates: Vec<Candidate>,
}

/// Attaches suggestions to the main line's first error in `pass`; then, with
/// the best fix applied, goes on and reports each later error of the main
/// line as a diagnostic of its own, with suggestions.
pub(crate) fn suggest(
    game: &Game<'_>,
    encoding: Encoding,
    start: &Chess,
    lang: Language,
    pass: &mut Pass<Tracker>,
) {
    if let Some(repairs) = Repairs::find(game, encoding, start, lang, pass, MAX_ERRORS) {
        repairs.attach(game, pass);
    }
}

/// The errors of a main line read in one language, and the fixes found
/// for each, the best fix of each applied before the next is looked for:
/// what [`suggest`] reports. How many errors a reading leaves, and whether
/// the repaired game then replays to its end, is also the replay's
/// evidence for the language of a game with a slip.
pub struct Repairs {
    line: Line,
    findings: Vec<Finding>,
    /// The top fixes together let the game replay to its end.
    finished: bool,
}

impl Repairs {
    /// Looks for the fixes of the main line's errors in `pass` (a replay of
    /// `game` from `start` in `lang`), at most `max_errors` of them (the
    /// search stops there, unfinished). `None` where the main line has no
    /// error to repair (none, or moves after the game ended).
    pub(crate) fn find(
        game: &Game<'_>,
        encoding: Encoding,
        start: &Chess,
        lang: Language,
        pass: &Pass<Tracker>,
        max_errors: usize,
    ) -> Option<Repairs> {
        let failure = pass.failure.as_ref()?;
        let k = pass
            .main_tokens
            .iter()
            .position(|&t| t as usize == failure.token)?;
        if failure.position.legal_moves().is_empty() {
            return None; // moves after the end: nothing to repair
        }
        // No replay goes more than BUDGET plies past the failure: words beyond
        // are never read (a game of a million junk words costs no memory here).
        let read = pass
            .main_tokens
            .len()
            .min(k.saturating_add(BUDGET as usize).saturating_add(2));
        let mut line = Line::new(game, encoding, &pass.main_tokens[..read], lang);
        if line.words.len() != read {
            return None;
        }
        // The last two main-line moves before the failure, with their positions.
        let mut recent: Vec<(usize, Chess)> = Vec::new();
        // Rebuilt from the moves played; a null move (`--`) is no move to play
        // again, so with one in the line the positions are not rebuilt (found by
        // fuzzing: the replay then lost track of whose move it was).
        let has_null_moves = pass.main_moves.len() != pass.plies as usize;
        if !has_null_moves {
            let mut pos = start.clone();
            let n = pass.main_moves.len();
            for (j, mm) in pass.main_moves.iter().enumerate() {
                if j + 2 >= n
                    && let Some(w) = pass.main_tokens.iter().position(|&t| t == mm.token)
                {
                    recent.push((w, pos.clone()));
                }
                pos.play_unchecked(mm.played);
            }
        }

        let mut findings: Vec<Finding> = Vec::new();
        let (mut word, mut ply, mut position) = (k, failure.ply, failure.position.clone());
        let finished = loop {
            let candidates = line.candidates(word, &position, ply, &recent);
            let top = candidates
                .first()
                .map(|c| (c.follow.complete, c.follow.stop.clone()));
            findings.push(Finding {
                word,
                ply,
                position,
                candidates,
            });
            let Some((complete, stop)) = top else {
                break false;
            };
            let Some(stop) = stop else { break complete };
            if findings.len() >= max_errors || line.budget == 0 {
                break false;
            }
            if stop.position.legal_moves().is_empty() {
                break false;
            }
            word = stop.word;
            ply = stop.ply;
            position = stop.position;
            recent = stop.recent;
        };
        Some(Repairs {
            line,
            findings,
            finished,
        })
    }

    /// The errors found (each with its fixes).
    pub fn errors(&self) -> usize {
        self.findings.len()
    }

    /// Whether the game, with the top fix of each error applied, replays to
    /// its end.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Attaches the fixes to `pass`, the replay they were found for (in the
    /// same language): the first error's diagnostic gets its suggestions,
    /// each later error becomes a diagnostic of its own.
    pub(crate) fn attach(self, game: &Game<'_>, pass: &mut Pass<Tracker>) {
        let Repairs { line, findings, .. } = self;
        let Some(failure) = pass.failure.clone() else {
            return;
        };
        // The whole chain of top fixes replays to the end: each is confirmed.
        let chain_complete = findings.len() > 1
            && findings
                .last()
                .and_then(|f| f.candidates.first())
                .is_some_and(|c| c.follow.complete);

        let plies_total = line.words.len() as u32;
        for (n, f) in findings.into_iter().enumerate() {
            let mut suggestions: Vec<Suggestion> = f
                .candidates
                .into_iter()
                .take(MAX_SUGGESTIONS)
                .map(|c| {
                    let score = (c.fit() * 1000.0).round() as i32;
                    let mut s = c.suggestion;
                    s.set_rank(Rank {
                        score,
                        best: false,
                        written: c.shown,
                    });
                    s
                })
                .collect();
            // Where a fix lets the rest of the game replay, fixes that do not
            // are noise.
            if suggestions.iter().any(Suggestion::confirmed) {
                suggestions.retain(Suggestion::confirmed);
            }
            if chain_complete && let Some(top) = suggestions.first_mut() {
                set_confirmed(top);
            }
            mark_best(&mut suggestions);
            let rest = plies_total.saturating_sub(f.word as u32 + 1);
            let lines: Vec<String> = suggestions
                .iter()
                .enumerate()
                .map(|(i, s)| help_line(s, rest, chain_complete && i == 0))
                .collect();
            if n == 0 {
                let Some(diag) = failure.diagnostic.and_then(|i| pass.diagnostics.get_mut(i))
                else {
                    return;
                };
                missing_move(diag, &suggestions);
                // The move numbers a left-out move put out of step are no
                // warnings of their own: the `missing-move` error says it.
                let explained = match suggestions.first() {
                    Some(Suggestion::Insert { ply: at, .. }) if diag.code == Code::MissingMove => {
                        Some((*at, f.ply))
                    }
                    _ => None,
                };
                if !suggestions.is_empty() {
                    // The moves after it were replayed after all, with the fix.
                    diag.help.retain(|h| !h.contains("not replayed"));
                }
                diag.help.splice(0..0, lines);
                diag.suggestions = suggestions;
                if let (Some((at, ply)), Some(i)) = (explained, failure.diagnostic) {
                    let dropped = pass
                        .diagnostics
                        .retain(i, |d| !fits_with_insert(game, d, at, ply));
                    if let Some(f) = pass.failure.as_mut() {
                        f.diagnostic = Some(i - dropped);
                    }
                }
            } else {
                let Some(w) = line.words.get(f.word) else {
                    continue;
                };
                let mut d = later_error(game, &line, w, &f.position, f.ply);
                missing_move(&mut d, &suggestions);
                d.help = lines;
                d.suggestions = suggestions;
                pass.diagnostics.push(d);
            }
        }
    }
}

fn set_confirmed(s: &mut Suggestion) {
    s.set_replay(true, None);
}

/// Marks the fixes as good as the top one ([`crate::fix::equally_good`]).
fn mark_best(suggestions: &mut [Suggestion]) {
    let best = crate::fix::equally_good(suggestions);
    for (s, best) in suggestions.iter_mut().zip(best) {
        s.set_best(best);
    }
}

/// An error found after the first, with the fixes before it applied.
fn later_error(game: &Game<'_>, line: &Line, w: &Word, pos: &Chess, ply: u32) -> Diagnostic {
    let span = game.tokens.get(w.index).map_or(0..0, |t| t.span.clone());
    let side = pos.turn();
    let text = &w.text;
    let shown = brief(text);
    let after = "(reading the moves before it with the suggested fixes applied)";
    let mut d = match w.token.map(|t| t.resolve(pos, line.lang)) {
        None => Diagnostic::new(
            Code::UnparsableMove,
            span,
            format!("`{shown}` is not a move in any notation pgnkit reads {after}"),
        ),
        Some(Err(ResolveError::Ambiguous(moves))) => {
            let names: Vec<String> = moves
                .iter()
                .map(|m| format!("`{}`", san(pos, *m)))
                .collect();
            Diagnostic::new(
                Code::AmbiguousMove,
                span,
                format!("`{shown}` is ambiguous: {} fit {after}", names.join(", ")),
            )
        }
        Some(Err(ResolveError::UnknownPiece)) => Diagnostic::new(
            Code::UnparsableMove,
            span,
            format!(
                "`{shown}` names no piece in {} notation {after}",
                line.lang.name()
            ),
        ),
        _ => Diagnostic::new(
            Code::IllegalMove,
            span,
            format!(
                "`{shown}` is not a legal move for {} here {after}",
                crate::diagnostic::side_name(side)
            ),
        ),
    };
    d.ply = Some(ply);
    d.move_number = Some(pos.fullmoves().get());
    d.side = Some(side);
    d.token = Some(text.clone());
    d
}

/// Whether `d` is a `move-number` warning of the main line, before a move
/// written as ply `at` to `ply`, whose number fits once a move is inserted
/// as ply `at` (the move after it then is one ply later).
fn fits_with_insert(game: &Game<'_>, d: &Diagnostic, at: u32, ply: u32) -> bool {
    if d.code != Code::MoveNumber || d.variation || !d.ply.is_some_and(|p| (at..=ply).contains(&p))
    {
        return false;
    }
    let (Some(expected), Some(side)) = (d.move_number, d.side) else {
        return false;
    };
    // The number's token, by its place (tokens are in input order).
    let (mut lo, mut hi) = (0, game.tokens.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if game
            .tokens
            .span(mid)
            .is_some_and(|s| s.start < d.span.start)
        {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let Some(TokenKind::MoveNumber { number, black }) = game
        .tokens
        .get(lo)
        .filter(|t| t.span == d.span)
        .map(|t| t.kind)
    else {
        return false;
    };
    // One ply later: Black's move of the same number, or White's of the next.
    let (now, white) = match side {
        Color::White => (expected, false),
        Color::Black => (expected.saturating_add(1), true),
    };
    number == now && !(black && white)
}

/// A confirmed insertion on top makes an illegal or unparsable move a
/// `missing-move` error.
fn missing_move(diag: &mut Diagnostic, suggestions: &[Suggestion]) {
    if let Some(top @ Suggestion::Insert { ply, .. }) = suggestions.first()
        && top.confirmed()
        && matches!(diag.code, Code::IllegalMove | Code::UnparsableMove)
    {
        diag.code = Code::MissingMove;
        diag.severity = Code::MissingMove.severity();
        diag.message = format!(
            "{}; a move seems to be left out before it: with one move inserted as ply {ply}, the game replays",
            diag.message
        );
    }
}

/// The help line of suggestion `s`, its moves as the writer writes them
/// ([`Rank::written`]; the suggestion's SAN where there are none).
fn help_line(s: &Suggestion, rest: u32, with_later: bool) -> String {
    let shown = &s.rank().written;
    let move_at =
        |i: usize, san: &str| -> String { shown.get(i).cloned().unwrap_or_else(|| san.to_owned()) };
    let then = |confirmed: bool, replays: Option<u32>| {
        let later = if with_later {
            ", with the fixes suggested for the later errors"
        } else {
            ""
        };
        if confirmed {
            match rest {
                0 => format!("(the game then ends legally{later})"),
                1 => format!("(the remaining move then replays{later})"),
                n => format!("(the remaining {n} moves then replay{later})"),
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
            ..
        } => {
            let why = if reason.is_empty() {
                String::new()
            } else {
                format!(" — {reason}")
            };
            format!(
                "did you mean {}? {}{why}",
                move_at(0, san),
                then(*confirmed, *replays)
            )
        }
        Suggestion::Insert {
            ply,
            san,
            confirmed,
            replays,
            ..
        } => format!(
            "a move may be missing: insert {} as ply {ply} {}",
            move_at(0, san),
            then(*confirmed, *replays)
        ),
        Suggestion::Swap {
            san,
            confirmed,
            replays,
            ..
        } => format!(
            "two moves may be swapped: play {} before {} {}",
            move_at(0, &san[0]),
            move_at(1, &san[1]),
            then(*confirmed, *replays)
        ),
        Suggestion::Delete {
            confirmed,
            replays,
            reason,
            ..
        } => {
            // A struck-out word is no ply: the plies after it replay.
            let then = then(*confirmed, replays.map(|r| r.saturating_add(1)));
            format!("strike this word out {then} — {reason}")
        }
    }
}

fn san(pos: &Chess, m: Move) -> String {
    San::from_move(pos, m).to_string()
}

/// Keeps only what carries the move: no check, mate or evaluation marks,
/// capture marks unified to `x`, dashes dropped, castling zeros as `O`.
fn normalize(text: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(text.len());
    normalize_into(text, &mut out);
    out
}

/// [`normalize`] into a buffer of the caller's (cleared first).
fn normalize_into(text: &str, out: &mut Vec<char>) {
    out.clear();
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
    // En passant marks at the end, however often written.
    while out.ends_with(&['e', '.', 'p', '.']) {
        out.truncate(out.len() - 4);
    }
    while out.ends_with(&['e', 'p']) {
        out.truncate(out.len() - 2);
    }
}

/// The token as written, in the forms it is compared in.
struct Written {
    /// Normalised.
    plain: Vec<char>,
    /// Ranks mirrored (a move written from the other side's point of view).
    mirrored: Vec<char>,
    /// The piece letters replaced by the English letter of a piece they
    /// stand for in another language.
    foreign: Vec<Vec<char>>,
    /// Normalised without its control characters, if it has any (a NUL
    /// byte or an escape in a move is a stray, not a slip of the pen).
    stripped: Option<Vec<char>>,
}

impl Written {
    fn new(text: &str, lang: Language) -> Written {
        let plain = normalize(text);
        let mirrored = plain
            .iter()
            .map(|&c| match c.to_digit(10) {
                Some(d @ 1..=8) => char::from_digit(9 - d, 10).unwrap_or(c),
                _ => c,
            })
            .collect();
        // The leading piece letters: up to the first file, rank or capture.
        let split = plain
            .iter()
            .position(|&c| is_file(c) || c.is_ascii_digit() || c == 'x')
            .unwrap_or(plain.len());
        let mut foreign = Vec::new();
        if split > 0 && split < plain.len() && plain.first() != Some(&'O') {
            let letters: String = plain[..split].iter().collect();
            let upper = letters.to_uppercase();
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                let en = Language::En.letter(role);
                if en == letters || lang.letter(role) == letters {
                    continue;
                }
                if Language::ALL
                    .iter()
                    .any(|l| l.letter(role) == letters || l.letter(role) == upper)
                {
                    let mut v: Vec<char> = en.chars().collect();
                    v.extend_from_slice(&plain[split..]);
                    foreign.push(v);
                }
            }
        }
        let stripped = without_strays(text).map(|s| normalize(&s));
        Written {
            plain,
            mirrored,
            foreign,
            stripped,
        }
    }

    /// How plausible it is that `m` was meant, as a cost (0 = as written),
    /// and the kind of slip.
    /// `scratch`: buffers kept from call to call.
    fn cost(
        &self,
        pos: &Chess,
        m: &Move,
        lang: Language,
        scratch: &mut (String, Vec<char>),
    ) -> (f32, &'static str) {
        let mut best = (f32::INFINITY, "");
        // The style the written word is closest to: a slip is named in it,
        // so that its name does not depend on the language.
        let mut closest = Style::SAN;
        let (buf, f) = scratch;
        let styles = [
            Some(Style {
                notation: Notation::San,
                language: lang,
                ..Style::SAN
            }),
            (lang != Language::En).then_some(Style::SAN),
            Some(Style {
                notation: Notation::Lan,
                language: lang,
                ..Style::SAN
            }),
        ];
        for style in styles.iter().flatten() {
            buf.clear();
            write_move(pos, m, style, buf);
            normalize_into(buf, f);
            let f = &*f;
            if self.stripped.as_deref() == Some(f) {
                return (0.1, "a stray control character");
            }
            // Distances above what could still win are not computed to the end.
            let limit = |best: f32, extra: f32| best.min(MAX_COST) - extra;
            let d = distance_within(f, &self.plain, limit(best.0, 0.0));
            if d < best.0 {
                best = (d, "a slip of the pen");
                closest = *style;
            }
            let dm = distance_within(f, &self.mirrored, limit(best.0, 0.6)) + 0.6;
            if dm < best.0 {
                best = (dm, "written from the other side");
            }
            for v in &self.foreign {
                let dv = distance_within(f, v, limit(best.0, 0.35)) + 0.35;
                if dv < best.0 {
                    best = (dv, "a piece letter of another language");
                }
            }
        }
        if best.1 == "a slip of the pen" {
            best.1 = classify(pos, m, &self.plain, &closest);
        }
        best
    }
}

/// The word without its control characters (a NUL byte, an escape), and
/// without the move number they glued to it (`\u{0}12.O-O-O`); `None`
/// when it has none.
fn without_strays(text: &str) -> Option<String> {
    if !text.contains(char::is_control) {
        return None;
    }
    let s: String = text.chars().filter(|c| !c.is_control()).collect();
    let rest = s.trim_start_matches(|c: char| c.is_ascii_digit());
    Some(match rest.strip_prefix('.') {
        Some(r) if rest.len() < s.len() => r.trim_start_matches('.').to_owned(),
        _ => s,
    })
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
        // Letters that look alike in handwriting (`o`, `q`, `t` are no files: never here).
        let (x, y) = if a < b { (a, b) } else { (b, a) };
        if matches!(
            (x, y),
            ('b', 'd') | ('b', 'h') | ('d', 'h') | ('c', 'e') | ('a', 'd')
        ) {
            return 0.45;
        }
        if (a as i32 - b as i32).abs() == 1 {
            return 0.5;
        }
        return 0.9;
    }
    if is_file(a) && !is_file(b) && b.is_lowercase() {
        // A file letter read as another lower-case letter (g/q, h/k, f/t, a/o).
        return if matches!((a, b), ('g', 'q') | ('h', 'k') | ('f', 't') | ('a', 'o')) {
            0.45
        } else {
            0.9
        };
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
    if matches!(
        (a, b),
        ('g', '9') | ('9', 'g') | ('b', '6') | ('6', 'b') | ('l', '1') | ('1', 'l')
    ) {
        return 0.5;
    }
    if !a.is_lowercase() && !b.is_lowercase() && !a.is_ascii_digit() && !b.is_ascii_digit() {
        // One piece letter for another.
        return 0.55;
    }
    1.0
}

fn indel(c: char) -> f32 {
    match c {
        'x' => 0.25,
        c if is_file(c) || c.is_ascii_digit() => 0.5,
        _ => 0.8,
    }
}

/// The highest cost of a move considered as a slip of the pen.
const MAX_COST: f32 = 2.0;

#[cfg(test)]
fn distance(a: &[char], b: &[char]) -> f32 {
    distance_within(a, b, f32::INFINITY)
}

/// The weighted edit distance of `a` and `b`, or infinity as soon as it is
/// certain to be above `limit`.
fn distance_within(a: &[char], b: &[char], limit: f32) -> f32 {
    // Written moves are short: the two rows live on the stack.
    const STACK: usize = 24;
    if b.len() < STACK {
        let (mut prev, mut cur) = ([0.0f32; STACK], [0.0f32; STACK]);
        edit_distance(a, b, &mut prev[..=b.len()], &mut cur[..=b.len()], limit)
    } else {
        let (mut prev, mut cur) = (vec![0.0f32; b.len() + 1], vec![0.0f32; b.len() + 1]);
        edit_distance(a, b, &mut prev, &mut cur, limit)
    }
}

/// [`substitution`] and [`indel`] of ASCII characters, looked up (the edit
/// distance asks for them for every cell).
struct Costs {
    substitution: [[f32; 128]; 128],
    indel: [f32; 128],
}

fn costs() -> &'static Costs {
    static COSTS: std::sync::OnceLock<Box<Costs>> = std::sync::OnceLock::new();
    COSTS.get_or_init(|| {
        let mut c = Box::new(Costs {
            substitution: [[0.0; 128]; 128],
            indel: [0.0; 128],
        });
        for a in 0..128u8 {
            c.indel[usize::from(a)] = indel(char::from(a));
            for b in 0..128u8 {
                c.substitution[usize::from(a)][usize::from(b)] =
                    substitution(char::from(a), char::from(b));
            }
        }
        c
    })
}

impl Costs {
    #[inline]
    fn substitution(&self, a: char, b: char) -> f32 {
        match (u8::try_from(a), u8::try_from(b)) {
            (Ok(x @ 0..128), Ok(y @ 0..128)) => self.substitution[usize::from(x)][usize::from(y)],
            _ => substitution(a, b),
        }
    }

    #[inline]
    fn indel(&self, c: char) -> f32 {
        match u8::try_from(c) {
            Ok(x @ 0..128) => self.indel[usize::from(x)],
            _ => indel(c),
        }
    }
}

/// The weighted edit distance of `a` and `b` with two rows of `b.len() + 1` cells. Every way from
/// the start to the end crosses each row, and no step costs less than nothing: once a whole row is
/// above `limit`, so is the distance (infinity is returned).
fn edit_distance(a: &[char], b: &[char], prev: &mut [f32], cur: &mut [f32], limit: f32) -> f32 {
    let (mut prev, mut cur) = (prev, cur);
    let costs = costs();
    let mut acc = 0.0;
    prev[0] = 0.0;
    for (j, &c) in b.iter().enumerate() {
        acc += costs.indel(c);
        prev[j + 1] = acc;
    }
    for &ca in a {
        cur[0] = prev[0] + costs.indel(ca);
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + costs.substitution(ca, cb);
            let del = prev[j + 1] + costs.indel(ca);
            let ins = cur[j] + costs.indel(cb);
            cur[j + 1] = sub.min(del).min(ins);
        }
        if cur.iter().all(|&d| d > limit) {
            return f32::INFINITY;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The kind of slip that turns `m`, written in `style`, into `w`.
fn classify(pos: &Chess, m: &Move, w: &[char], style: &Style) -> &'static str {
    let mut buf = String::new();
    write_move(pos, m, style, &mut buf);
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
    if m.role() == Role::Pawn && m.is_capture() && w.len() == 2 && f.ends_with(w) {
        return "a pawn capture written as a push";
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
            if is_file(*a) {
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
        // A wrong piece letter is likelier than a piece letter added to a pawn move.
        assert!(
            distance(&normalize("Qf4"), &normalize("Kf4"))
                < distance(&normalize("f4"), &normalize("Kf4"))
        );
    }

    #[test]
    fn foreign_letters_are_read_as_their_piece() {
        let w = Written::new("Cc3", Language::En);
        assert!(w.foreign.contains(&vec!['N', 'c', '3']));
        let w = Written::new("Кf3", Language::En);
        assert!(w.foreign.contains(&vec!['N', 'f', '3']));
    }
}
