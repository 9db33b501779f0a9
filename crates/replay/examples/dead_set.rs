//! Builds the labelled dead-position set of `testdata/dead/labelled.tsv`.
//!
//! `cargo run --release -p pgnkit-replay --example dead_set -- FILE.pgn… > testdata/dead/labelled.tsv`
//!
//! The positions come from the categories of the Chess Unwinnability
//! Analyzer's test vectors, composed here from a fixed seed: locked pawn
//! walls with kings behind them and bishops (of their own pawns' colour or
//! the other), knights, rooks or queens; walls with a breakable spot (a
//! missing pawn pair, a pawn that can take, a bishop that reaches an enemy
//! pawn: they look dead and are not); kings boxed in by their own pawns;
//! light endings of minor pieces and blocked pawns; walls with pieces for
//! one side only; and, with `--traps N` (rows appended to the set), kings
//! caught in a stalemate trap. To these are added the positions of the games in
//! `FILE.pgn…` (real games) in which every pawn stands locked against
//! another.
//!
//! Each line is `fen<TAB>white<TAB>black<TAB>how<TAB>category`, `white` and `black`
//! saying whether that side can still checkmate (`mates`) or not
//! (`cannot`), labelled independently of the code under test:
//!
//! - `cannot` only when a plain breadth-first search over every legal move
//!   (shakmaty's move generator and nothing else: no static rule, no
//!   heuristic) visited every position reachable from this one and met no
//!   checkmate by that side (`bfs:<positions>`).
//! - `mates` with the moves of a mate as the certificate (`white:<uci…>`,
//!   `black:<uci…>`), found by the same search or, where the reachable
//!   positions are too many for it, by `dead::can_checkmate` with a large
//!   budget; the test plays the moves again, so that a label never rests on
//!   the code under test.
//!
//! Positions that neither settles for both sides are left out.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Write;

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::dead::{Budget, Verdict, can_checkmate, may_be_dead};
use pgnkit_replay::{Options, Status, replay_game};
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

/// Positions the plain search may visit before it gives up.
const BFS_LIMIT: usize = 100_000;

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    // `--fens FILE`: label the FENs of FILE (one a line) instead.
    if let [flag, path] = &files[..]
        && flag == "--fens"
    {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for line in text.lines() {
            let Some(pos) = line
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
            else {
                continue;
            };
            let labels = label(&pos).unwrap_or_else(|| "unsettled".to_owned());
            println!("{line}\t{labels}");
        }
        return;
    }
    // `--traps N`: N positions of the stalemate-trap category only (see
    // [`traps`]), labelled the same way, to add to the set.
    if let [flag, n] = &files[..]
        && flag == "--traps"
    {
        let wanted = n.parse().unwrap_or(300);
        let out = std::io::stdout();
        let mut out = out.lock();
        let mut kept = 0;
        for pos in traps(wanted) {
            if let Some(labels) = label(&pos) {
                kept += 1;
                let _ = writeln!(out, "{}\t{labels}\ttrap", fen(&pos));
            }
        }
        eprintln!("{kept} trap positions labelled");
        return;
    }
    // One of each position (placement, side to move, castling, en passant).
    let mut seen = HashSet::new();
    let identity = |pos: &Chess| {
        let Zobrist64(k) = pos.zobrist_hash(EnPassantMode::Legal);
        k
    };
    let mut candidates = Vec::new();
    for (pos, source) in composed() {
        if seen.insert(identity(&pos)) {
            candidates.push((pos, source));
        }
    }
    for pos in real_locked(&files) {
        if seen.insert(identity(&pos)) {
            candidates.push((pos, "real"));
        }
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    let mut kept = 0;
    for (pos, source) in &candidates {
        let Some(labels) = label(pos) else {
            continue;
        };
        kept += 1;
        let _ = writeln!(out, "{}\t{labels}\t{source}", fen(pos));
    }
    eprintln!("{kept} of {} candidates labelled", candidates.len());
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn uci(line: &[Move]) -> String {
    line.iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `white<TAB>black<TAB>how` for a position both sides of which are
/// settled, or `None`.
fn label(pos: &Chess) -> Option<String> {
    let found = bfs(pos);
    let mut labels = Vec::new();
    let mut how = Vec::new();
    for color in [Color::White, Color::Black] {
        let name = if color == Color::White {
            "white"
        } else {
            "black"
        };
        let line = match found.mates.get(&color) {
            Some(line) => Some(line.clone()),
            None if found.exhausted => None,
            None => match can_checkmate(pos, color, Budget::nodes(100_000)) {
                Verdict::Winnable(line) => Some(line),
                _ => return None,
            },
        };
        match line {
            Some(line) => {
                labels.push("mates");
                how.push(format!("{name}:{}", uci(&line)));
            }
            None => labels.push("cannot"),
        }
    }
    if found.exhausted {
        how.insert(0, format!("bfs:{}", found.visited));
    }
    Some(format!("{}\t{}\t{}", labels[0], labels[1], how.join(" ")))
}

/// What the plain search found: the first mate by each side, and whether
/// it visited every reachable position.
struct Found {
    mates: HashMap<Color, Vec<Move>>,
    exhausted: bool,
    visited: usize,
}

/// Every position reachable by legal moves, breadth first (shakmaty's
/// move generator and Zobrist keys, nothing else), until both sides have
/// mated or [`BFS_LIMIT`] positions were visited.
fn bfs(start: &Chess) -> Found {
    let key = |p: &Chess| -> u64 {
        let Zobrist64(k) = p.zobrist_hash(EnPassantMode::Legal);
        k
    };
    let mut found = Found {
        mates: HashMap::new(),
        exhausted: false,
        visited: 1,
    };
    let k0 = key(start);
    let mut parent: HashMap<u64, (u64, Move)> = HashMap::new();
    let mut seen = HashSet::from([k0]);
    let mut queue = VecDeque::from([(start.clone(), k0)]);
    if start.is_checkmate() {
        found.mates.insert(!start.turn(), Vec::new());
    }
    while let Some((p, k)) = queue.pop_front() {
        if seen.len() > BFS_LIMIT || found.mates.len() == 2 {
            return found;
        }
        for m in p.legal_moves() {
            let mut q = p.clone();
            q.play_unchecked(m);
            let kq = key(&q);
            if !seen.insert(kq) {
                continue;
            }
            parent.insert(kq, (k, m));
            if q.is_checkmate() && !found.mates.contains_key(&!q.turn()) {
                let mut line = Vec::new();
                let mut at = kq;
                while at != k0 {
                    let Some(&(up, mv)) = parent.get(&at) else {
                        break;
                    };
                    line.push(mv);
                    at = up;
                }
                line.reverse();
                found.mates.insert(!q.turn(), line);
            }
            queue.push_back((q, kq));
        }
    }
    found.exhausted = true;
    found.visited = seen.len();
    found
}

/// The positions of the games in `files` in which every pawn is locked
/// ([`may_be_dead`]), at most 3,000 of them.
fn real_locked(files: &[String]) -> Vec<Chess> {
    let mut out = Vec::new();
    let options = Options::default();
    for file in files {
        let Ok(bytes) = std::fs::read(file) else {
            continue;
        };
        let mut reader = Reader::new(&bytes);
        let mut game = Game::default();
        while out.len() < 3_000 && reader.read_game(&mut game) {
            let report = replay_game(&bytes, &game, &options);
            if matches!(report.status, Status::Invalid | Status::Unsupported) {
                continue;
            }
            let mut pos = report.start.clone();
            for m in &report.moves {
                pos.play_unchecked(m.played);
                if may_be_dead(&pos) {
                    out.push(pos.clone());
                }
            }
        }
    }
    out
}

/// A small random number generator with a fixed seed (xorshift).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A board being composed: `board[rank][file]`, FEN letters, `.` empty.
type Board = [[char; 8]; 8];

/// The positions composed from the categories, with their category.
fn composed() -> Vec<(Chess, &'static str)> {
    let mut dice = Dice(0x2545_f491_4f6c_dd1d);
    let mut out = Vec::new();
    let categories: [(&'static str, usize); 7] = [
        ("wall", 900),
        ("wall-pieces", 900),
        ("wall-breakable", 700),
        ("boxed-king", 400),
        ("ending", 500),
        ("wall-heavy", 300),
        ("one-side", 600),
    ];
    for (category, wanted) in categories {
        let mut made = 0;
        let mut tries = 0;
        while made < wanted && tries < wanted * 20 {
            tries += 1;
            let board = match category {
                "wall" => wall(&mut dice, &[]),
                "wall-pieces" => wall(&mut dice, &['B', 'b', 'N', 'n']),
                "wall-heavy" => wall(&mut dice, &['R', 'r', 'Q', 'q', 'B', 'b']),
                "wall-breakable" => breakable(&mut dice),
                "one-side" => one_side(&mut dice),
                "boxed-king" => boxed(&mut dice),
                _ => ending(&mut dice),
            };
            let Some(board) = board else {
                continue;
            };
            if let Some(pos) = position(&board, dice.below(2) == 0) {
                out.push((pos, category));
                made += 1;
            }
        }
    }
    out
}

/// Positions of the stalemate-trap category (after CHA's test vectors): a
/// king that can only go between two squares behind locked pawns, nothing
/// else of its side able to move, and the other side's king and up to two
/// of its pieces (bishops of either colour, a knight, rarely a rook)
/// anywhere; mirrored and with the colours swapped at random. Whether the
/// trapped king's opponent can mate depends on where its king and pieces
/// can get to, and on whose turn it is.
fn traps(wanted: usize) -> Vec<Chess> {
    // The trapped side is White (upper case) in each template, rank 8
    // first.
    const TEMPLATES: [&str; 3] = [
        // White's king between h3 and h4 (CHA: `1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8`).
        "......../......../.......p/.....p.P/.....p../.....PpK/......P./........",
        // White's king between a1 and b1, its bishop boxed in on c1 (CHA:
        // `k1b5/1p1p4/1P1P4/B7/8/2B5/8/K7`, colours swapped).
        "......../......../......../......../......../.p.p..../.P.P..../K.B.....",
        // White's king between a4 and a3 (CHA: `8/1p6/1Pp5/k1P5/p1P5/P1K1B3/3B4/8`,
        // colours swapped).
        "......../......../p......./P.p...../K.p...../.pP...../.P....../........",
    ];
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < wanted && tries < wanted * 50 {
        tries += 1;
        let template = TEMPLATES[dice.below(TEMPLATES.len() as u64) as usize];
        let mut board = [['.'; 8]; 8];
        for (i, row) in template.split('/').enumerate() {
            for (f, c) in row.chars().enumerate() {
                board[7 - i][f] = c;
            }
        }
        if !drop(&mut dice, &mut board, 'k', 0..8) {
            continue;
        }
        let pool = ['b', 'b', 'n', 'b', 'n', 'r'];
        for _ in 0..dice.below(3) {
            let piece = pool[dice.below(pool.len() as u64) as usize];
            drop(&mut dice, &mut board, piece, 0..8);
        }
        if dice.below(2) == 0 {
            for row in &mut board {
                row.reverse();
            }
        }
        if dice.below(2) == 0 {
            board.reverse();
            for row in &mut board {
                for c in row.iter_mut() {
                    *c = if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    };
                }
            }
        }
        if let Some(pos) = position(&board, dice.below(2) == 0) {
            out.push(pos);
        }
    }
    out
}

/// The position of `board` with White (`white`) or Black to move, if
/// legal.
fn position(board: &Board, white: bool) -> Option<Chess> {
    let mut text = String::new();
    for r in (0..8).rev() {
        let mut empty = 0;
        for &c in &board[r] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(c);
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        if r > 0 {
            text.push('/');
        }
    }
    let turn = if white { "w" } else { "b" };
    let parsed: Fen = format!("{text} {turn} - - 0 40").parse().ok()?;
    let pos: Chess = parsed.into_position(CastlingMode::Standard).ok()?;
    // Nothing decided already.
    (!pos.is_game_over()).then_some(pos)
}

/// Puts `piece` on a random empty square of ranks `ranks`.
fn drop(dice: &mut Dice, board: &mut Board, piece: char, ranks: std::ops::Range<usize>) -> bool {
    for _ in 0..20 {
        let r = ranks.start + dice.below((ranks.end - ranks.start) as u64) as usize;
        let f = dice.below(8) as usize;
        if board[r][f] == '.' {
            board[r][f] = piece;
            return true;
        }
    }
    false
}

/// A locked pawn chain across the board (each file a white pawn with a
/// black one just above it, neighbouring files one rank apart so that no
/// pawn attacks another), the kings behind their own pawns, and up to two
/// pieces from `extras` on their own side (upper case White, lower case
/// Black).
fn wall(dice: &mut Dice, extras: &[char]) -> Option<Board> {
    let mut board = [['.'; 8]; 8];
    let mut rank = 2 + dice.below(3) as i32;
    let mut ranks = [0usize; 8];
    for (file, slot) in ranks.iter_mut().enumerate() {
        let step = if dice.below(2) == 0 { -1 } else { 1 };
        rank = if (1..=5).contains(&(rank + step)) {
            rank + step
        } else {
            rank - step
        };
        *slot = rank as usize;
        board[rank as usize][file] = 'P';
        board[rank as usize + 1][file] = 'p';
    }
    let low = *ranks.iter().min()?;
    let high = *ranks.iter().max()? + 2;
    if low == 0 || high > 7 {
        return None;
    }
    drop(dice, &mut board, 'K', 0..low).then_some(())?;
    drop(dice, &mut board, 'k', high..8).then_some(())?;
    if !extras.is_empty() {
        for _ in 0..1 + dice.below(2) {
            let piece = extras[dice.below(extras.len() as u64) as usize];
            let side = if piece.is_ascii_uppercase() {
                0..low
            } else {
                high..8
            };
            drop(dice, &mut board, piece, side);
        }
    }
    Some(board)
}

/// A wall with a breakable spot: a pawn pair missing, a pawn moved so that
/// it can take, or a piece on the wrong side.
fn breakable(dice: &mut Dice) -> Option<Board> {
    let mut board = wall(dice, &['B', 'b', 'N', 'n'])?;
    let file = dice.below(8) as usize;
    let pawns: Vec<usize> = (0..8).filter(|&r| board[r][file] == 'P').collect();
    let r = *pawns.first()?;
    match dice.below(3) {
        // A file without pawns.
        0 => {
            board[r][file] = '.';
            board[r + 1][file] = '.';
        }
        // The black pawn one square higher: both can move, and may meet
        // another pawn to take.
        1 if r + 2 < 7 && board[r + 2][file] == '.' => {
            board[r + 1][file] = '.';
            board[r + 2][file] = 'p';
        }
        // A piece beyond the wall.
        _ => {
            let piece = ['B', 'N', 'b', 'n'][dice.below(4) as usize];
            let side = if piece.is_ascii_uppercase() {
                r + 2..8
            } else {
                0..r
            };
            if side.is_empty() {
                return None;
            }
            drop(dice, &mut board, piece, side);
        }
    }
    Some(board)
}

/// A wall with pieces for one side only, and for the other a pawn taken
/// away (its king may come through, or the wall may open to one side only).
fn one_side(dice: &mut Dice) -> Option<Board> {
    let extras: &[char] = if dice.below(2) == 0 {
        &['B', 'N', 'R', 'Q']
    } else {
        &['b', 'n', 'r', 'q']
    };
    let mut board = wall(dice, extras)?;
    if dice.below(2) == 0 {
        let file = dice.below(8) as usize;
        let pawn = if extras[0].is_ascii_uppercase() {
            'p'
        } else {
            'P'
        };
        for rank in &mut board {
            if rank[file] == pawn {
                rank[file] = '.';
            }
        }
    }
    Some(board)
}

/// A king in a corner boxed in by its own pawns, facing enemy pawns that
/// block them, and a few pieces around.
fn boxed(dice: &mut Dice) -> Option<Board> {
    let mut board = [['.'; 8]; 8];
    let white = dice.below(2) == 0;
    let (king, pawn, enemy) = if white {
        ('K', 'P', 'p')
    } else {
        ('k', 'p', 'P')
    };
    // White's box in the a1 corner, Black's in the h8 corner.
    let (kr, kf) = if white { (0usize, 0usize) } else { (7, 7) };
    board[kr][kf] = king;
    let up = |r: usize| if white { r + 1 } else { r - 1 };
    let side = |f: usize| if white { f + 1 } else { f - 1 };
    board[up(kr)][kf] = pawn;
    board[up(up(kr))][kf] = enemy;
    board[up(kr)][side(kf)] = pawn;
    board[up(up(kr))][side(kf)] = enemy;
    if dice.below(2) == 0 {
        board[kr][side(kf)] = pawn;
        board[up(kr)][side(kf)] = enemy;
        board[kr][side(side(kf))] = '.';
    }
    let other = if white { 'k' } else { 'K' };
    drop(dice, &mut board, other, 2..6).then_some(())?;
    let pool = ['B', 'b', 'N', 'n', 'P', 'p', 'R', 'r'];
    for _ in 0..dice.below(3) {
        let piece = pool[dice.below(pool.len() as u64) as usize];
        drop(dice, &mut board, piece, 1..7);
    }
    Some(board)
}

/// A light ending: kings, one or two minor pieces, and a blocked pawn pair
/// or two.
fn ending(dice: &mut Dice) -> Option<Board> {
    let mut board = [['.'; 8]; 8];
    for _ in 0..1 + dice.below(2) {
        let f = dice.below(8) as usize;
        let r = 1 + dice.below(5) as usize;
        if board[r][f] == '.' && board[r + 1][f] == '.' {
            board[r][f] = 'P';
            board[r + 1][f] = 'p';
        }
    }
    drop(dice, &mut board, 'K', 0..8).then_some(())?;
    drop(dice, &mut board, 'k', 0..8).then_some(())?;
    let pool = ['B', 'b', 'N', 'n'];
    for _ in 0..1 + dice.below(2) {
        let piece = pool[dice.below(4) as usize];
        drop(dice, &mut board, piece, 0..8);
    }
    Some(board)
}
