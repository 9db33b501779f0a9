//! The spoken form of a move, for announcing moves aloud (FIDE Laws, guidelines
//! for visually impaired players) and for screen readers.
//!
//! German, as the Laws prescribe: piece name, origin square, `schlägt` for a
//! capture, destination square, then `en passant`, `wird Dame`, `Schach`,
//! `Matt`; files are Anna, Bella, Cäsar, David, Eva, Felix, Gustav, Hektor and
//! ranks eins to acht; castling is `kurze Rochade` / `lange Rochade`.
//! Example: `Springer Gustav eins Felix drei`, `Bauer Eva fünf schlägt David
//! sechs en passant`. English (`Knight g1 to f3`, `Pawn e7 to e8 promotes to
//! Queen, check`) is written for [`Language::En`]; every other language gets
//! German. Both read back.

use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

use crate::language::Language;
use crate::token::{Body, Coords, MoveToken, Suffix, spoken_token};

struct Vocab {
    pieces: [&'static str; 6],
    /// `None`: squares are written as `g1`.
    files: Option<[&'static str; 8]>,
    ranks: Option<[&'static str; 8]>,
    to: Option<&'static str>,
    capture: &'static str,
    promotes: &'static str,
    en_passant: &'static str,
    short_castle: &'static str,
    long_castle: &'static str,
    check: &'static str,
    mate: &'static str,
}

static GERMAN: Vocab = Vocab {
    pieces: ["Bauer", "Springer", "Läufer", "Turm", "Dame", "König"],
    files: Some([
        "Anna", "Bella", "Cäsar", "David", "Eva", "Felix", "Gustav", "Hektor",
    ]),
    ranks: Some([
        "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht",
    ]),
    to: None,
    capture: "schlägt",
    promotes: "wird",
    en_passant: "en passant",
    short_castle: "kurze Rochade",
    long_castle: "lange Rochade",
    check: "Schach",
    mate: "Matt",
};

static ENGLISH: Vocab = Vocab {
    pieces: ["Pawn", "Knight", "Bishop", "Rook", "Queen", "King"],
    files: None,
    ranks: None,
    to: Some("to"),
    capture: "takes",
    promotes: "promotes to",
    en_passant: "en passant",
    short_castle: "short castling",
    long_castle: "long castling",
    check: "check",
    mate: "checkmate",
};

fn vocab(lang: Language) -> &'static Vocab {
    if lang == Language::En {
        &ENGLISH
    } else {
        &GERMAN
    }
}

fn push_square(v: &Vocab, sq: Square, out: &mut String) {
    match (v.files, v.ranks) {
        (Some(files), Some(ranks)) => {
            out.push_str(files[usize::from(sq.file())]);
            out.push(' ');
            out.push_str(ranks[usize::from(sq.rank())]);
        }
        _ => {
            out.push(sq.file().char());
            out.push(sq.rank().char());
        }
    }
}

/// Writes the spoken form of `m` (legal in `pos`).
pub(crate) fn write(pos: &Chess, m: &Move, lang: Language, out: &mut String) {
    let v = vocab(lang);
    match *m {
        Move::Castle { king, rook } => {
            out.push_str(if rook.file() > king.file() {
                v.short_castle
            } else {
                v.long_castle
            });
        }
        _ => {
            let Some(from) = m.from() else { return };
            out.push_str(v.pieces[m.role() as usize - 1]);
            out.push(' ');
            push_square(v, from, out);
            out.push(' ');
            if m.is_capture() {
                out.push_str(v.capture);
                out.push(' ');
            } else if let Some(to) = v.to {
                out.push_str(to);
                out.push(' ');
            }
            push_square(v, m.to(), out);
            if m.is_en_passant() {
                out.push(' ');
                out.push_str(v.en_passant);
            }
            if let Some(p) = m.promotion() {
                out.push(' ');
                out.push_str(v.promotes);
                out.push(' ');
                out.push_str(v.pieces[p as usize - 1]);
            }
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(*m);
    if after.is_checkmate() {
        out.push_str(", ");
        out.push_str(v.mate);
    } else if after.is_check() {
        out.push_str(", ");
        out.push_str(v.check);
    }
}

fn eq_word(word: &str, target: &str) -> bool {
    word.chars()
        .flat_map(char::to_lowercase)
        .eq(target.chars().flat_map(char::to_lowercase))
}

fn lookup<const N: usize>(word: &str, table: &[&'static str; N]) -> Option<usize> {
    table.iter().position(|t| eq_word(word, t))
}

/// Reads a spoken move (German or English words, any case); `None` if the
/// words are not a spoken move.
pub(crate) fn parse(text: &[char]) -> Option<MoveToken> {
    let text: String = text.iter().collect();
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .map(|w| w.trim_end_matches(['.', '!']))
        .filter(|w| !w.is_empty())
        .collect();
    let mut piece = None;
    let mut squares: [Option<Square>; 2] = [None, None];
    let mut nsq = 0;
    let mut capture = false;
    let mut promoting = false;
    let mut promotion = None;
    let mut en_passant = false;
    let mut suffix = Suffix::None;
    let mut castle: Option<CastlingSide> = None;
    let mut castle_word = false;
    let mut pending_file: Option<File> = None;
    let mut first = true;
    for w in words {
        let is_first = std::mem::replace(&mut first, false);
        if let Some(f) = pending_file.take() {
            let r = [&GERMAN, &ENGLISH]
                .iter()
                .find_map(|v| v.ranks.and_then(|ranks| lookup(w, &ranks)))
                .or_else(|| {
                    w.parse::<u32>()
                        .ok()
                        .filter(|n| (1..=8).contains(n))
                        .map(|n| n as usize - 1)
                })?;
            if nsq == 2 {
                return None;
            }
            squares[nsq] = Some(Square::from_coords(f, Rank::new(u32::try_from(r).ok()?)));
            nsq += 1;
            continue;
        }
        if let Some(i) = [&GERMAN, &ENGLISH]
            .iter()
            .find_map(|v| lookup(w, &v.pieces))
        {
            let role = Role::ALL[i];
            if promoting {
                promotion = Some(role);
            } else if piece.is_none() && nsq == 0 {
                piece = Some(role);
            } else {
                return None;
            }
            continue;
        }
        if is_first
            && piece.is_none()
            && !["kurze", "short", "lange", "long"]
                .iter()
                .any(|k| eq_word(w, k))
        {
            return None;
        }
        if let Some(i) = GERMAN.files.and_then(|f| lookup(w, &f)) {
            pending_file = Some(File::new(u32::try_from(i).ok()?));
            continue;
        }
        if w.len() == 2
            && w.is_ascii()
            && let Ok(sq) = Square::from_ascii(w.as_bytes())
        {
            if nsq == 2 {
                return None;
            }
            squares[nsq] = Some(sq);
            nsq += 1;
            continue;
        }
        let lw = w.to_lowercase();
        match lw.as_str() {
            "schlägt" | "takes" | "captures" | "x" => capture = true,
            "nach" | "to" | "-" | "in" => {}
            "wird" | "promotes" | "umwandlung" => promoting = true,
            "en" | "passant" => en_passant = true,
            "schach" | "check" => suffix = Suffix::Check,
            "matt" | "checkmate" | "mate" | "schachmatt" => suffix = Suffix::Mate,
            "kurze" | "short" => castle = Some(CastlingSide::KingSide),
            "lange" | "long" => castle = Some(CastlingSide::QueenSide),
            "rochade" | "castling" | "castles" => castle_word = true,
            _ => return None,
        }
    }
    if pending_file.is_some() || promoting && promotion.is_none() {
        return None;
    }
    if let Some(side) = castle {
        if !castle_word || nsq != 0 || piece.is_some() {
            return None;
        }
        return Some(spoken_token(Body::Castle(side), None, None, suffix, false));
    }
    let (from, to) = match squares {
        [Some(from), Some(to)] => (Some(from), to),
        [Some(to), None] => (None, to),
        _ => return None,
    };
    piece?;
    let coords = Coords {
        from_file: from.map(Square::file),
        from_rank: from.map(Square::rank),
        capture,
        to_file: to.file(),
        to_rank: Some(to.rank()),
    };
    Some(spoken_token(
        Body::Coords(coords),
        piece,
        promotion,
        suffix,
        en_passant,
    ))
}
