//! Saying a move: the piece, its squares, the capture, en passant, the
//! promotion, check or mate.

use shakmaty::{Chess, Move, Position, Square};

use super::tables::{Squares, Vocab};
use super::vocab;
use crate::language::Language;

fn push_square(v: &Vocab, sq: Square, out: &mut String) {
    match &v.squares {
        Squares::Named { files, ranks } => {
            out.push_str(files[usize::from(sq.file())]);
            out.push(' ');
            out.push_str(ranks[usize::from(sq.rank())]);
        }
        Squares::Coordinates => {
            out.push(sq.file().char());
            out.push(sq.rank().char());
        }
    }
}

/// Writes the spoken form of `m` (legal in `pos`) in `language`, in English
/// for a language without a table (see [`has_words`]).
pub(crate) fn write(pos: &Chess, m: &Move, language: Language, out: &mut String) {
    let Some(v) = vocab(language).or_else(|| vocab(Language::En)) else {
        return;
    };
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
