//! Descriptive notation on real games, in English and in Spanish (and
//! French). Every move written with `--to descriptive`'s style is checked
//! by a small reader of this test's
//! own (string matching over the names each man and square may be called,
//! not the crate's reader): exactly one legal move fits it, the move
//! played. Then the forms found in print (short squares, `Kt`, pawns by
//! their file, pieces by the side they started on, every disambiguation,
//! checks, promotions, e.p.) are made from the real moves and read by the
//! crate: where this test's reader finds one move, the crate reads it;
//! where it finds several, the crate says ambiguous with the same moves.

mod common;

use pgnkit_notation::{
    Language, Line, Notation, ResolveError, Style, parse_annotation, parse_move, write_move,
};
use shakmaty::{CastlingSide, Chess, Color, File, Move, Position, Role, Square};

const FULL: [&str; 8] = ["QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"];
const SHORT: [&str; 8] = ["R", "N", "B", "Q", "K", "B", "N", "R"];

/// Where each piece started: 'K' or 'Q' for the side of the board, by
/// square; pawns and promoted pieces have none.
#[derive(Clone)]
struct Origins([Option<char>; 64]);

impl Origins {
    fn new(pos: &Chess) -> Origins {
        let mut o = [None; 64];
        for (sq, piece) in pos.board().clone() {
            if piece.role != Role::Pawn {
                o[sq as usize] = Some(if sq.file() >= File::E { 'K' } else { 'Q' });
            }
        }
        Origins(o)
    }

    fn play(&mut self, m: &Move) {
        match *m {
            Move::Castle { king, rook } => {
                let (k, r) = (self.0[king as usize], self.0[rook as usize]);
                self.0[king as usize] = None;
                self.0[rook as usize] = None;
                let (kf, rf) = if rook > king {
                    (File::G, File::F)
                } else {
                    (File::C, File::D)
                };
                self.0[Square::from_coords(kf, king.rank()) as usize] = k;
                self.0[Square::from_coords(rf, king.rank()) as usize] = r;
            }
            _ => {
                let from = m.from().expect("a move from a square") as usize;
                let moved = if m.is_promotion() { None } else { self.0[from] };
                self.0[from] = None;
                self.0[m.to() as usize] = moved;
            }
        }
    }
}

fn rank_from(sq: Square, turn: Color) -> usize {
    let r = sq.rank() as usize;
    if turn == Color::White { r + 1 } else { 8 - r }
}

/// Every name of `sq` seen from `turn`'s side: `KB3`, `B3`.
fn square_names(sq: Square, turn: Color) -> [String; 2] {
    let f = sq.file() as usize;
    let r = rank_from(sq, turn);
    [format!("{}{r}", FULL[f]), format!("{}{r}", SHORT[f])]
}

fn letter(role: Role) -> &'static str {
    match role {
        Role::Pawn => "P",
        Role::Knight => "N",
        Role::Bishop => "B",
        Role::Rook => "R",
        Role::Queen => "Q",
        Role::King => "K",
    }
}

/// Every name of the man of `role` on `sq`: `P`, `KBP`, `BP` for a pawn
/// on the f-file; `R`, `KR` for the rook that started on the king's side.
fn man_names(role: Role, sq: Square, origins: &Origins) -> Vec<String> {
    let mut names = vec![letter(role).to_owned()];
    if role == Role::Pawn {
        let f = sq.file() as usize;
        names.push(format!("{}P", FULL[f]));
        names.push(format!("{}P", SHORT[f]));
    } else if matches!(role, Role::Knight | Role::Bishop | Role::Rook)
        && let Some(side) = origins.0[sq as usize]
    {
        names.push(format!("{side}{}", letter(role)));
    }
    names
}

/// Whether `m` (legal in `pos`) fits `token` (marks off, `Kt` read as `N`).
fn fits(pos: &Chess, origins: &Origins, m: &Move, token: &str) -> bool {
    let turn = pos.turn();
    match token {
        "O-O" => return matches!(m, Move::Castle { king, rook } if rook > king),
        "O-O-O" => return matches!(m, Move::Castle { king, rook } if rook < king),
        _ if m.is_castle() => return false,
        _ => {}
    }
    let Some(at) = token.find(['-', 'x']) else {
        return false;
    };
    let (left, sep, mut right) = (&token[..at], &token[at..=at], &token[at + 1..]);
    let from = m.from().expect("a move from a square");
    // The mover: a name, then its square in parentheses or its rank.
    let (name, from_spec) = match left.find('(') {
        Some(p) => (&left[..p], Some(left[p + 1..].trim_end_matches(')'))),
        None => match left.char_indices().last() {
            Some((i, c)) if c.is_ascii_digit() => (&left[..i], Some(&left[i..])),
            _ => (left, None),
        },
    };
    if !man_names(m.role(), from, origins).iter().any(|n| n == name) {
        return false;
    }
    if let Some(spec) = from_spec {
        let names = square_names(from, turn);
        let rank = rank_from(from, turn).to_string();
        if !(names.iter().any(|n| n == spec) || spec == rank) {
            return false;
        }
    }
    // The promotion, last: `=Q`, `(Q)`, `/Q`, or a bare `Q` after a square.
    let mut promotion = None;
    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        let l = letter(role);
        for form in [
            format!("={l}"),
            format!("({l})"),
            format!("/{l}"),
            l.to_owned(),
        ] {
            let Some(cut) = right.strip_suffix(form.as_str()) else {
                continue;
            };
            let bare_after_square = form.len() == 1 && cut.ends_with(|c: char| c.is_ascii_digit());
            if promotion.is_none() && !cut.is_empty() && (form.len() > 1 || bare_after_square) {
                promotion = Some(role);
                right = cut;
            }
        }
    }
    if promotion.is_some() && promotion != m.promotion() {
        return false;
    }
    if sep == "-" {
        return !m.is_capture() && square_names(m.to(), turn).iter().any(|n| n == right);
    }
    let (captured, square) = match *m {
        Move::Normal {
            capture: Some(c),
            to,
            ..
        } => (c, to),
        Move::EnPassant { from, to } => (Role::Pawn, Square::from_coords(to.file(), from.rank())),
        _ => return false,
    };
    let (name, spec) = match right.find('(') {
        Some(p) => (&right[..p], Some(right[p + 1..].trim_end_matches(')'))),
        None => (right, None),
    };
    man_names(captured, square, origins)
        .iter()
        .any(|n| n == name)
        && spec.is_none_or(|s| square_names(square, turn).iter().any(|n| n == s))
}

/// The legal moves that fit `token`, by this test's reader.
fn fitting(pos: &Chess, origins: &Origins, token: &str) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|m| fits(pos, origins, m, token))
        .collect()
}

/// The move part of a written word: marks (`ch`, ` e.p.`, ` mate`) off, `Kt` as `N`.
fn bare(word: &str) -> String {
    let w = word.split(' ').next().expect("a word");
    w.strip_suffix("ch").unwrap_or(w).replace("Kt", "N")
}

#[test]
fn every_move_of_1000_real_games_written_names_exactly_the_move_played() {
    let style = Style::new(Notation::Descriptive, Language::En);
    let games = common::all_test_games();
    assert!(games.len() >= 1000, "only {} games", games.len());
    let (mut plies, mut disambiguated, mut checks, mut ep, mut promotions) = (0, 0, 0, 0, 0);
    let mut written = String::new();
    for game in games.iter().take(1000) {
        let mut origins = Origins::new(&game.start);
        let mut line = Line::new(game.start.clone());
        for ply in &game.plies {
            written.clear();
            write_move(&ply.pos, &ply.m, &style, &mut written);
            // This test's reader: exactly the move played fits.
            let fit = fitting(&ply.pos, &origins, &bare(&written));
            assert_eq!(fit, [ply.m], "{written} ({})", ply.token);
            // The marks say what the move does.
            let mut after = ply.pos.clone();
            after.play_unchecked(ply.m);
            let mate = after.is_checkmate();
            assert_eq!(written.ends_with(" mate"), mate, "{written}");
            assert_eq!(
                written.split(' ').next().is_some_and(|w| w.ends_with("ch")),
                after.is_check() && !mate,
                "{written}"
            );
            assert_eq!(
                written.contains(" e.p."),
                matches!(ply.m, Move::EnPassant { .. })
            );
            // And the crate reads each word back as the move, the marks as marks.
            let mut words = written.split(' ');
            let token = parse_move(words.next().expect("a word")).expect("parses");
            assert_eq!(line.resolve(&token, Language::En), Ok(ply.m), "{written}");
            for mark in words {
                assert!(parse_annotation(mark).is_some(), "{written}");
            }
            plies += 1;
            disambiguated += usize::from(written.contains('('));
            checks += usize::from(after.is_check());
            ep += usize::from(matches!(ply.m, Move::EnPassant { .. }));
            promotions += usize::from(ply.m.is_promotion());
            origins.play(&ply.m);
            line.play(ply.m);
        }
    }
    eprintln!(
        "{plies} moves, {disambiguated} with a square in parentheses, {checks} checks, {ep} e.p., {promotions} promotions"
    );
    assert!(plies > 50_000, "{plies}");
    assert!(disambiguated > 1000 && checks > 1000 && ep > 0 && promotions > 10);
}

/// The other forms a book may print for the move written `word`, as
/// (form, kind) pairs.
fn forms_in_print(
    word: &str,
    pos: &Chess,
    m: &Move,
    origins: &Origins,
) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let token = word.split(' ').next().expect("a word");
    let body = token.strip_suffix("ch").unwrap_or(token);
    if body.starts_with('O') {
        return out;
    }
    let turn = pos.turn();
    let from = m.from().expect("a square");
    // Short squares: every full name cut to its piece letter.
    let mut short = body.to_owned();
    for sq in Square::ALL {
        let [full, s] = square_names(sq, turn);
        if full.len() == 3 {
            short = short.replace(&full, &s);
        }
    }
    if short != body {
        out.push((short, "short"));
    }
    if body.contains('N') {
        out.push((body.replace('N', "Kt"), "Kt"));
    }
    let at = body.find(['-', 'x']).expect("a move");
    let (left, rest) = body.split_at(at);
    let piece = &left[..1];
    // The mover by its file (a pawn) or by the side it started on.
    for name in man_names(m.role(), from, origins).into_iter().skip(1) {
        out.push((
            format!("{name}{rest}"),
            if piece == "P" {
                "pawn by file"
            } else {
                "piece by side"
            },
        ));
    }
    // The mover by its rank; by its square, full or short.
    if piece != "P" {
        out.push((
            format!("{piece}{}{rest}", rank_from(from, turn)),
            "rank origin",
        ));
    }
    for name in square_names(from, turn) {
        out.push((format!("{piece}({name}){rest}"), "square origin"));
    }
    // What is captured: by its file, by its square.
    if let Some(x) = rest.strip_prefix('x') {
        let captured = &x[..1];
        let sq = match *m {
            Move::EnPassant { from, to } => Square::from_coords(to.file(), from.rank()),
            _ => m.to(),
        };
        let kind = m.capture().unwrap_or(Role::Pawn);
        for name in man_names(kind, sq, origins).into_iter().skip(1) {
            out.push((format!("{left}x{name}"), "captured by name"));
        }
        if !x.contains('(') {
            for name in square_names(sq, turn) {
                out.push((format!("{left}x{captured}({name})"), "captured square"));
            }
        }
    }
    // Promotions.
    if let Some(p) = body.strip_suffix("=Q").or_else(|| body.strip_suffix("=N")) {
        let l = &body[body.len() - 1..];
        out.push((format!("{p}({l})"), "promotion"));
        if !body.contains('x') {
            out.push((format!("{p}{l}"), "promotion"));
        }
        out.push((format!("{p}/{l}"), "promotion"));
    }
    // Marks: attached and as words.
    if token.ends_with("ch") {
        out.push((format!("{body} ch"), "check"));
        out.push((format!("{body} dis ch"), "check"));
        out.push((format!("{body}dblch"), "check"));
    }
    if word.ends_with(" mate") {
        out.push((format!("{body}mate"), "mate"));
    }
    if word.contains(" e.p.") {
        out.push((format!("{body}e.p."), "e.p."));
        out.push((format!("{body} ep"), "e.p."));
    }
    out
}

#[test]
fn forms_found_in_print_read_as_their_moves_or_as_ambiguous() {
    let style = Style::new(Notation::Descriptive, Language::En);
    let games = common::all_test_games();
    let mut read = std::collections::BTreeMap::<&str, usize>::new();
    let mut ambiguous = 0usize;
    let mut written = String::new();
    for game in games.iter().take(60) {
        let mut origins = Origins::new(&game.start);
        let mut line = Line::new(game.start.clone());
        for ply in &game.plies {
            written.clear();
            write_move(&ply.pos, &ply.m, &style, &mut written);
            for (form, kind) in forms_in_print(&written, &ply.pos, &ply.m, &origins) {
                let mut words = form.split(' ');
                let first = words.next().expect("a word");
                let Ok(token) = parse_move(first) else {
                    panic!("{form} ({}) does not parse", ply.token);
                };
                let rest: Vec<&str> = words.collect();
                if !rest.is_empty() {
                    assert!(
                        parse_annotation(&rest.join(" ")).is_some()
                            || rest.iter().all(|w| parse_annotation(w).is_some()),
                        "{form}"
                    );
                }
                let mut expect = fitting(
                    &ply.pos,
                    &origins,
                    &bare(
                        &form
                            .replace("dblch", "")
                            .replace("mate", "")
                            .replace("e.p.", ""),
                    ),
                );
                let got = line.resolve(&token, Language::En);
                match expect.len() {
                    0 => panic!("{form}: this test's reader finds no move ({})", ply.token),
                    1 => {
                        assert_eq!(got, Ok(ply.m), "{form} ({})", ply.token);
                        *read.entry(kind).or_default() += 1;
                    }
                    _ => {
                        let Err(ResolveError::Ambiguous(mut moves)) = got else {
                            panic!("{form}: {got:?}, expected ambiguous {expect:?}");
                        };
                        let key = |m: &Move| (m.from(), m.to(), m.promotion());
                        moves.sort_by_key(key);
                        expect.sort_by_key(key);
                        assert_eq!(moves, expect, "{form}");
                        ambiguous += 1;
                    }
                }
                if kind == "check" {
                    assert!(
                        token.suffix() != pgnkit_notation::Suffix::None || !rest.is_empty(),
                        "{form}"
                    );
                }
            }
            origins.play(&ply.m);
            line.play(ply.m);
        }
    }
    eprintln!("read: {read:?}; ambiguous: {ambiguous}");
    for kind in [
        "short",
        "Kt",
        "pawn by file",
        "piece by side",
        "rank origin",
        "square origin",
        "captured by name",
        "captured square",
        "promotion",
        "check",
        "mate",
        "e.p.",
    ] {
        assert!(
            read.get(kind).is_some_and(|n| *n > 0),
            "no {kind} form read: {read:?}"
        );
    }
    assert!(ambiguous > 100, "{ambiguous}");
}

#[test]
fn the_forms_of_the_issue_on_a_real_opening() {
    // The Exchange Variation of the Ruy Lopez into a known trap (Black's
    // h-file attack), written with the forms of print.
    let words = [
        "P-K4", "P-K4", "Kt-KB3", "N-QB3", "B-N5", "P-QR3", "BxN", "QPxB", "O-O", "B-KN5", "P-KR3",
        "P-KR4", "PxB", "PxP", "N-K1", "Q-R5", "P-KB3", "P-N6", "P-Q4", "Q-R7mate",
    ];
    let mut line = Line::new(Chess::default());
    let mut san = Vec::new();
    for w in words {
        let token = parse_move(w).unwrap_or_else(|e| panic!("{w}: {e}"));
        let m = line
            .resolve(&token, Language::En)
            .unwrap_or_else(|e| panic!("{w}: {e}"));
        san.push(shakmaty::san::San::from_move(line.position(), m).to_string());
        line.play(m);
    }
    assert_eq!(
        san.join(" "),
        "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O Bg4 h3 h5 hxg4 hxg4 Ne1 Qh4 f3 g3 d4 Qh2"
    );
    // A token that fits two moves: both knights go to a B3.
    let start = Line::new(Chess::default());
    let Err(ResolveError::Ambiguous(moves)) =
        start.resolve(&parse_move("N-B3").expect("parses"), Language::En)
    else {
        panic!("N-B3 is ambiguous at the start");
    };
    let mut to: Vec<String> = moves.iter().map(|m| m.to().to_string()).collect();
    to.sort();
    assert_eq!(to, ["c3", "f3"]);
    // KR and QR: the rooks by the side they started on, after castling
    // brought the king's rook to the f-file.
    let mut line = Line::new(Chess::default());
    for w in [
        "P-K4", "P-K4", "N-KB3", "N-QB3", "B-B4", "B-B4", "O-O", "N-B3", "P-Q3", "P-Q3", "N-B3",
        "O-O", "B-KN5", "P-KR3", "B-R4", "B-KN5", "N-Q5", "N-Q5", "Q-Q2", "BxN", "PxB", "P-B3",
        "NxNch", "PxN",
    ] {
        let m = line
            .resolve(&parse_move(w).expect("parses"), Language::En)
            .unwrap_or_else(|e| panic!("{w}: {e}"));
        line.play(m);
    }
    // Both rooks can go to the d-file's first square? Here the king's
    // rook (on f1) and the queen's rook (on a1) can both reach e1.
    for (w, from) in [
        ("KR-K1", "f1"),
        ("QR-K1", "a1"),
        ("R(KB1)-K1", "f1"),
        ("R(R1)-K1", "a1"),
    ] {
        let m = line
            .resolve(&parse_move(w).expect("parses"), Language::En)
            .unwrap_or_else(|e| panic!("{w}: {e}"));
        assert_eq!(
            m.from().map(|s| s.to_string()).as_deref(),
            Some(from),
            "{w}"
        );
    }
    assert!(
        matches!(line.resolve(&parse_move("R-K1").expect("parses"), Language::En), Err(ResolveError::Ambiguous(m)) if m.len() == 2)
    );
}

#[test]
fn castling_and_promotion_tokens() {
    assert!(parse_move("O-O-O").expect("parses").is_castling());
    // Black promotes on White's first rank: its eighth.
    let pos: Chess = "8/8/8/8/8/5k2/p7/7K b - - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .expect("FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("position");
    let line = Line::new(pos);
    for w in ["P-R8=Q", "P-QR8(Q)", "P-R8Q", "P-QR8/Q", "P-R8=Kt"] {
        let m = line
            .resolve(&parse_move(w).expect("parses"), Language::En)
            .unwrap_or_else(|e| panic!("{w}: {e}"));
        assert_eq!(m.to(), Square::A1, "{w}");
    }
    assert!(
        matches!(line.resolve(&parse_move("P-R8").expect("parses"), Language::En), Err(ResolveError::Ambiguous(m)) if m.len() == 4)
    );
    let _ = CastlingSide::KingSide;
}

/// How a language names men and squares, for this test's reader: the
/// letters of P N B R Q K, the names of the files (full and short), and
/// the Latin order (`3AR`: the rank first; a move without `-`).
struct Names {
    lang: Language,
    pieces: [&'static str; 6],
    full: [&'static str; 8],
    short: [&'static str; 8],
    sides: [char; 2],
}

const SPANISH: Names = Names {
    lang: Language::Es,
    pieces: ["P", "C", "A", "T", "D", "R"],
    full: ["TD", "CD", "AD", "D", "R", "AR", "CR", "TR"],
    short: ["T", "C", "A", "D", "R", "A", "C", "T"],
    sides: ['R', 'D'],
};

const FRENCH: Names = Names {
    lang: Language::Fr,
    pieces: ["P", "C", "F", "T", "D", "R"],
    full: ["TD", "CD", "FD", "D", "R", "FR", "CR", "TR"],
    short: ["T", "C", "F", "D", "R", "F", "C", "T"],
    sides: ['R', 'D'],
};

impl Names {
    fn letter(&self, role: Role) -> &'static str {
        self.pieces[role as usize - 1]
    }

    /// Every name of `sq` from `turn`'s side, rank first: `3AR`, `3A`.
    fn squares(&self, sq: Square, turn: Color) -> [String; 2] {
        let f = sq.file() as usize;
        let r = rank_from(sq, turn);
        [
            format!("{r}{}", self.full[f]),
            format!("{r}{}", self.short[f]),
        ]
    }

    /// Every name of the man of `role` on `sq`: `P`, `PAR`, `PA` for a
    /// pawn on the f-file; `C`, `CR` for the knight that started on the
    /// king's side.
    fn men(&self, role: Role, sq: Square, origins: &Origins) -> Vec<String> {
        let l = self.letter(role);
        let mut names = vec![l.to_owned()];
        if role == Role::Pawn {
            let f = sq.file() as usize;
            names.push(format!("{l}{}", self.full[f]));
            names.push(format!("{l}{}", self.short[f]));
        } else if matches!(role, Role::Knight | Role::Bishop | Role::Rook)
            && let Some(side) = origins.0[sq as usize]
        {
            let side = if side == 'K' {
                self.sides[0]
            } else {
                self.sides[1]
            };
            names.push(format!("{l}{side}"));
        }
        names
    }

    /// A name and the square or rank written after it (from its first
    /// digit): `C3AR` is (`C`, `3AR`), `T1` is (`T`, `1`).
    fn split(word: &str) -> (&str, Option<&str>) {
        match word.find(|c: char| c.is_ascii_digit()) {
            Some(i) => (&word[..i], Some(&word[i..])),
            None => (word, None),
        }
    }

    /// Whether `m` (legal in `pos`) fits `token` (marks off), in the
    /// Latin order: `C3AR`, `T1AR-1R`, `CxP`, `CRxP`, `C3ARxP5R`, `PxPT`,
    /// `P8R=D`.
    fn fits(&self, pos: &Chess, origins: &Origins, m: &Move, token: &str) -> bool {
        let turn = pos.turn();
        match token {
            "O-O" => return matches!(m, Move::Castle { king, rook } if rook > king),
            "O-O-O" => return matches!(m, Move::Castle { king, rook } if rook < king),
            _ if m.is_castle() => return false,
            _ => {}
        }
        let from = m.from().expect("a move from a square");
        // The promotion, last.
        let mut token = token;
        let mut promotion = None;
        for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
            if let Some(cut) = token.strip_suffix(&format!("={}", self.letter(role))) {
                promotion = Some(role);
                token = cut;
            }
        }
        if promotion != m.promotion() && promotion.is_some() {
            return false;
        }
        let (left, capture, right) = match token.split_once('x') {
            Some((l, r)) => (l, true, r),
            None => match token.split_once('-') {
                Some((l, r)) => (l, false, r),
                None => {
                    let (l, r) = Names::split(token);
                    (l, false, r.unwrap_or(""))
                }
            },
        };
        // The mover: a name, then its square or rank.
        let (name, spec) = Names::split(left);
        if !self.men(m.role(), from, origins).iter().any(|n| n == name) {
            return false;
        }
        if let Some(spec) = spec
            && !(self.squares(from, turn).iter().any(|n| n == spec)
                || spec == rank_from(from, turn).to_string())
        {
            return false;
        }
        if !capture {
            return !m.is_capture() && self.squares(m.to(), turn).iter().any(|n| n == right);
        }
        let (captured, square) = match *m {
            Move::Normal {
                capture: Some(c),
                to,
                ..
            } => (c, to),
            Move::EnPassant { from, to } => {
                (Role::Pawn, Square::from_coords(to.file(), from.rank()))
            }
            _ => return false,
        };
        let (name, spec) = Names::split(right);
        self.men(captured, square, origins)
            .iter()
            .any(|n| n == name)
            && spec.is_none_or(|s| self.squares(square, turn).iter().any(|n| n == s))
    }

    fn fitting(&self, pos: &Chess, origins: &Origins, token: &str) -> Vec<Move> {
        pos.legal_moves()
            .into_iter()
            .filter(|m| self.fits(pos, origins, m, token))
            .collect()
    }
}

/// The move part of a Latin word: marks (`+`, ` e.p.`, ` mate`) off.
fn bare_latin(word: &str) -> &str {
    let w = word.split(' ').next().expect("a word");
    w.strip_suffix('+').unwrap_or(w)
}

#[test]
fn every_move_of_real_games_written_in_spanish_and_french_names_exactly_the_move_played() {
    let games = common::all_test_games();
    for names in [SPANISH, FRENCH] {
        let style = Style::new(Notation::Descriptive, names.lang);
        let (mut plies, mut origin, mut captured_square, mut promotions) = (0, 0, 0, 0);
        let mut written = String::new();
        let count = if names.lang == Language::Es {
            1000
        } else {
            200
        };
        for game in games.iter().take(count) {
            let mut origins = Origins::new(&game.start);
            let mut line = Line::new(game.start.clone());
            for ply in &game.plies {
                written.clear();
                write_move(&ply.pos, &ply.m, &style, &mut written);
                let word = bare_latin(&written);
                let fit = names.fitting(&ply.pos, &origins, word);
                assert_eq!(fit, [ply.m], "{written} ({})", ply.token);
                let mut after = ply.pos.clone();
                after.play_unchecked(ply.m);
                let mate = after.is_checkmate();
                assert_eq!(written.ends_with(" mate"), mate, "{written}");
                assert_eq!(
                    written.split(' ').next().is_some_and(|w| w.ends_with('+')),
                    after.is_check() && !mate,
                    "{written}"
                );
                // The crate reads it back in the language (English may
                // read it as another move: `RxP` is a rook's capture there).
                let mut words = written.split(' ');
                let token = parse_move(words.next().expect("a word")).expect("parses");
                assert_eq!(line.resolve(&token, names.lang), Ok(ply.m), "{written}");
                for mark in words {
                    assert!(parse_annotation(mark).is_some(), "{written}");
                }
                plies += 1;
                let body = word.trim_start_matches(|c: char| c.is_ascii_uppercase());
                origin += usize::from(
                    body.contains(['-', 'x']) && body.starts_with(|c: char| c.is_ascii_digit()),
                );
                captured_square += usize::from(
                    word.split_once('x')
                        .is_some_and(|(_, r)| r.contains(|c: char| c.is_ascii_digit())),
                );
                promotions += usize::from(ply.m.is_promotion());
                origins.play(&ply.m);
                line.play(ply.m);
            }
        }
        eprintln!(
            "{}: {plies} moves, {origin} with the mover's square, {captured_square} with the captured man's, {promotions} promotions",
            names.lang
        );
        assert!(plies > 10_000 && origin > 100 && captured_square > 100 && promotions > 0);
    }
}

#[test]
fn spanish_forms_of_print_on_a_real_opening() {
    // The Exchange Ruy Lopez of the English test, as a Spanish book
    // prints it: short squares, a pawn by its file, `jaque`-free.
    let words = [
        "P4R", "P4R", "C3AR", "C3AD", "A5C", "P3TD", "AxC", "PDxA", "O-O", "A5CR", "P3TR", "P4TR",
        "PxA", "PxP", "C1R", "D5T", "P3AR", "P6C", "P4D", "D7T",
    ];
    let mut line = Line::new(Chess::default());
    let mut san = Vec::new();
    for w in words {
        let token = parse_move(w).unwrap_or_else(|e| panic!("{w}: {e}"));
        let m = line
            .resolve(&token, Language::Es)
            .unwrap_or_else(|e| panic!("{w}: {e}"));
        san.push(shakmaty::san::San::from_move(line.position(), m).to_string());
        line.play(m);
    }
    assert_eq!(
        san.join(" "),
        "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O Bg4 h3 h5 hxg4 hxg4 Ne1 Qh4 f3 g3 d4 Qh2"
    );
    // Short squares name both files: ambiguous at the start.
    let start = Line::new(Chess::default());
    assert!(matches!(
        start.resolve(&parse_move("C3A").expect("parses"), Language::Es),
        Err(ResolveError::Ambiguous(m)) if m.len() == 2
    ));
    // `R` is the king in Spanish, the rook in English; `A` means nothing
    // in French; Italian reads Spanish, and the file first after a `-`.
    let token = parse_move("P-R4").expect("parses");
    assert_eq!(
        start.resolve(&token, Language::It).map(|m| m.to()),
        Ok(Square::E4)
    );
    assert!(matches!(
        start.resolve(&token, Language::En),
        Err(ResolveError::Ambiguous(m)) if m.len() == 2
    ));
    assert_eq!(
        start.resolve(&parse_move("A4A").expect("parses"), Language::Fr),
        Err(ResolveError::UnknownPiece)
    );
    for (w, to) in [
        ("C3AR", Square::F3),
        ("CR-3AR", Square::F3),
        ("C-AR3", Square::F3),
        ("P4R+", Square::E4),
    ] {
        let token = parse_move(w).unwrap_or_else(|e| panic!("{w}: {e}"));
        assert_eq!(
            start.resolve(&token, Language::Es).map(|m| m.to()),
            Ok(to),
            "{w}"
        );
    }
}

/// The other forms a Spanish book may print for the move written `word`
/// (Latin order), as (form, kind) pairs.
fn latin_forms(
    names: &Names,
    word: &str,
    pos: &Chess,
    m: &Move,
    origins: &Origins,
) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let body = bare_latin(word);
    if body.starts_with('O') {
        return out;
    }
    let turn = pos.turn();
    let from = m.from().expect("a square");
    // Short squares: every full name cut to its piece letter.
    let mut short = body.to_owned();
    for sq in Square::ALL {
        let [full, s] = names.squares(sq, turn);
        if full.len() == 3 {
            short = short.replace(&full, &s);
        }
    }
    if short != body {
        out.push((short, "short"));
    }
    let piece = &body[..1];
    // What follows the mover's name (`PDxA`: `xA`).
    let man_len = body
        .find(|c: char| c.is_ascii_digit() || c == '-' || c == 'x')
        .unwrap_or(body.len());
    let rest = &body[man_len..];
    // The mover by its file (a pawn) or by the side it started on.
    for name in names.men(m.role(), from, origins).into_iter().skip(1) {
        let kind = if piece == "P" {
            "pawn by file"
        } else {
            "piece by side"
        };
        out.push((format!("{name}{rest}"), kind));
    }
    // The mover by its rank, or its square, before the `-` or `x`.
    let rank = rank_from(from, turn);
    let (_, tail) = Names::split(body);
    let target = match body.split_once('x') {
        Some((_, r)) => format!("x{r}"),
        None => match body.split_once('-') {
            Some((_, r)) => format!("-{r}"),
            None => format!("-{}", tail.unwrap_or("")),
        },
    };
    if piece != "P" {
        out.push((format!("{piece}{rank}{target}"), "rank origin"));
    }
    for name in names.squares(from, turn) {
        out.push((format!("{piece}{name}{target}"), "square origin"));
    }
    // What is captured: by its file.
    if let Some((left, x)) = body.split_once('x') {
        let sq = match *m {
            Move::EnPassant { from, to } => Square::from_coords(to.file(), from.rank()),
            _ => m.to(),
        };
        let kind = m.capture().unwrap_or(Role::Pawn);
        if !x.contains(|c: char| c.is_ascii_digit()) {
            for name in names.men(kind, sq, origins).into_iter().skip(1) {
                out.push((format!("{left}x{name}"), "captured by name"));
            }
        }
    }
    if word.contains('+') {
        out.push((format!("{body} jaque"), "check"));
    }
    out
}

#[test]
fn spanish_forms_of_print_read_as_their_moves_or_as_ambiguous() {
    let names = SPANISH;
    let style = Style::new(Notation::Descriptive, names.lang);
    let games = common::all_test_games();
    let mut read = std::collections::BTreeMap::<&str, usize>::new();
    let mut ambiguous = 0usize;
    let mut written = String::new();
    for game in games.iter().take(60) {
        let mut origins = Origins::new(&game.start);
        let mut line = Line::new(game.start.clone());
        for ply in &game.plies {
            written.clear();
            write_move(&ply.pos, &ply.m, &style, &mut written);
            for (form, kind) in latin_forms(&names, &written, &ply.pos, &ply.m, &origins) {
                let mut words = form.split(' ');
                let first = words.next().expect("a word");
                let Ok(token) = parse_move(first) else {
                    panic!("{form} ({}) does not parse", ply.token);
                };
                for w in words {
                    assert!(parse_annotation(w).is_some(), "{form}");
                }
                let mut expect = names.fitting(&ply.pos, &origins, first);
                let got = line.resolve(&token, names.lang);
                match expect.len() {
                    0 => panic!("{form}: this test's reader finds no move ({})", ply.token),
                    1 => {
                        assert_eq!(got, Ok(ply.m), "{form} ({})", ply.token);
                        *read.entry(kind).or_default() += 1;
                    }
                    _ => {
                        let Err(ResolveError::Ambiguous(mut moves)) = got else {
                            panic!("{form}: {got:?}, expected ambiguous {expect:?}");
                        };
                        let key = |m: &Move| (m.from(), m.to(), m.promotion());
                        moves.sort_by_key(key);
                        expect.sort_by_key(key);
                        assert_eq!(moves, expect, "{form}");
                        ambiguous += 1;
                    }
                }
            }
            origins.play(&ply.m);
            line.play(ply.m);
        }
    }
    eprintln!("read: {read:?}; ambiguous: {ambiguous}");
    for kind in [
        "short",
        "pawn by file",
        "piece by side",
        "rank origin",
        "square origin",
        "captured by name",
        "check",
    ] {
        assert!(
            read.get(kind).is_some_and(|n| *n > 0),
            "no {kind} form read: {read:?}"
        );
    }
    assert!(ambiguous > 100, "{ambiguous}");
}
