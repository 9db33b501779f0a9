//! The replay's rules of the game's end, each tested on its own: repetition
//! (Law 9.2: what makes two positions the same), the 50- and 75-move rules
//! at their exact boundaries (Laws 9.3 and 9.6.2, mate on the 75th move
//! taking precedence), claims by a declared move, Law 6.9 (a loss on time
//! against a player who cannot mate), result records that contradict the
//! rules or each other, and null moves.
//!
//! Real games (the `testdata/check` and `testdata/convert` fixtures, whose
//! origin their READMEs give) are checked against a naive count written here
//! from the Laws: every position compared with every earlier one by its
//! pieces, side to move, castling rights and *legal* en passant square,
//! with no hashing and no incremental state. Constructed FEN positions
//! cover the boundaries no real game hits exactly.

use std::path::PathBuf;

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{
    ClaimKind, Code, GameReport, GameResult, MainMove, Options, Status, Suggestion, replay_game,
};
use shakmaty::{
    Bitboard, Board, Chess, Color, EnPassantMode, Move, Position, Square, uci::UciMove,
};

fn testdata(path: &str) -> Vec<u8> {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(path);
    std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// Replays every game of `pgn`, its language detected, without repair.
fn replay_all(pgn: &[u8]) -> Vec<GameReport> {
    let options = Options {
        suggestions: false,
        ..Options::default()
    };
    let mut reader = Reader::new(pgn);
    let mut game = Game::default();
    let mut reports = Vec::new();
    while reader.read_game(&mut game) {
        reports.push(replay_game(pgn, &game, &options));
    }
    reports
}

fn replay_one(pgn: &str) -> GameReport {
    let mut reports = replay_all(pgn.as_bytes());
    assert_eq!(reports.len(), 1, "{pgn}");
    reports.remove(0)
}

/// A game from `fen` with `moves` and the given tags.
fn from_fen(fen: &str, tags: &str, moves: &str) -> GameReport {
    replay_one(&format!(
        "[Event \"t\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n{tags}\n{moves}\n"
    ))
}

fn codes(report: &GameReport) -> Vec<Code> {
    report.diagnostics.iter().map(|d| d.code).collect()
}

/// Law 9.2's identity, spelled out: pieces, side to move, castling rights,
/// and the en passant square only where a capture there is legal.
type Identity = (Board, Color, Bitboard, Option<Square>);

fn identity(pos: &Chess) -> Identity {
    let s = pos.to_setup(EnPassantMode::Legal);
    (s.board, s.turn, s.castling_rights, s.ep_square)
}

/// What the Laws say of a line, found the slow way.
#[derive(Debug, Default, PartialEq, Eq)]
struct Naive {
    /// First ply whose position stands for the third time (9.2.2).
    threefold: Option<u32>,
    /// First ply after which 50 moves each passed without capture or pawn move (9.3.2).
    fifty: Option<u32>,
    /// First ply of a fifth occurrence (9.6.1).
    fivefold: Option<u32>,
    /// First ply completing 75 moves each, unless it mates (9.6.2).
    seventyfive: Option<u32>,
}

fn naive(start: &Chess, moves: &[MainMove]) -> Naive {
    let mut seen = vec![identity(start)];
    let mut pos = start.clone();
    let mut found = Naive::default();
    for (ply, m) in (1u32..).zip(moves) {
        pos.play_unchecked(m.played);
        let id = identity(&pos);
        let count = seen.iter().filter(|s| **s == id).count() + 1;
        seen.push(id);
        if count >= 3 {
            found.threefold.get_or_insert(ply);
        }
        if count >= 5 {
            found.fivefold.get_or_insert(ply);
        }
        if pos.halfmoves() >= 100 {
            found.fifty.get_or_insert(ply);
        }
        if pos.halfmoves() >= 150 && !pos.is_checkmate() {
            found.seventyfive.get_or_insert(ply);
        }
    }
    found
}

/// The claims of a report by the position on the board (no declared move).
fn board_claim(report: &GameReport, kind: ClaimKind) -> Option<u32> {
    report
        .claims
        .iter()
        .find(|c| c.kind == kind && c.by_move.is_none())
        .map(|c| c.ply)
}

fn declared_claim(report: &GameReport, kind: ClaimKind) -> Option<(u32, String)> {
    report
        .claims
        .iter()
        .find(|c| c.kind == kind)
        .and_then(|c| c.by_move.as_ref().map(|m| (c.ply, m.uci.clone())))
}

/// The positions of the main line, the start included.
fn positions(report: &GameReport) -> Vec<Chess> {
    let mut pos = report.start.clone();
    let mut all = vec![pos.clone()];
    for m in &report.moves {
        pos.play_unchecked(m.played);
        all.push(pos.clone());
    }
    all
}

/// Whether declaring `m` at `ply` brings a position about for the third time.
fn repeats_a_third_time(all: &[Chess], ply: usize, m: Move) -> bool {
    let mut after = all[ply].clone();
    after.play_unchecked(m);
    let id = identity(&after);
    all[..=ply].iter().filter(|p| identity(p) == id).count() >= 2
}

/// Checks a real game's report against the naive count; returns it.
fn agrees_with_naive(report: &GameReport, what: &str) -> Naive {
    let n = naive(&report.start, &report.moves);
    assert_eq!(
        board_claim(report, ClaimKind::Threefold),
        n.threefold,
        "{what}"
    );
    assert_eq!(
        board_claim(report, ClaimKind::FiftyMoves),
        n.fifty,
        "{what}"
    );
    let automatic = match (n.fivefold, n.seventyfive) {
        (Some(a), Some(b)) if b < a => Some((Status::SeventyfiveMoves, b)),
        (Some(a), _) => Some((Status::FivefoldRepetition, a)),
        (None, Some(b)) => Some((Status::SeventyfiveMoves, b)),
        (None, None) => None,
    };
    if let Some((status, ply)) = automatic {
        assert_eq!(report.status, status, "{what}");
        let after = report
            .diagnostics
            .iter()
            .find(|d| d.code == Code::MovesAfterDraw);
        if ply < report.plies {
            // The game went on: the first move after the draw is reported.
            assert_eq!(after.and_then(|d| d.ply), Some(ply + 1), "{what}");
        } else {
            assert!(after.is_none(), "{what}");
        }
    } else {
        assert!(
            !matches!(
                report.status,
                Status::FivefoldRepetition | Status::SeventyfiveMoves
            ),
            "{what}: {:?}",
            report.status
        );
    }
    // A declared threefold claim: the move repeats a position for the third
    // time, and no earlier ply had such a move.
    if let Some((ply, uci)) = declared_claim(report, ClaimKind::Threefold) {
        let all = positions(report);
        let ply = ply as usize;
        let m = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&all[ply]).ok())
            .unwrap_or_else(|| panic!("{what}: {uci} is no legal move at ply {ply}"));
        assert!(repeats_a_third_time(&all, ply, m), "{what}: {uci}");
        for (earlier, pos) in all[..ply].iter().enumerate() {
            for m in pos.legal_moves() {
                assert!(
                    !repeats_a_third_time(&all, earlier, m),
                    "{what}: {m:?} could be declared at ply {earlier}, before {ply}"
                );
            }
        }
        assert!(
            n.threefold.is_none_or(|board| (ply as u32) < board),
            "{what}"
        );
    }
    // A declared 50-move claim: at 99 half-moves, a move that is no capture
    // and no pawn move, at the first such ply.
    if let Some((ply, uci)) = declared_claim(report, ClaimKind::FiftyMoves) {
        let all = positions(report);
        let first = all.iter().position(|p| p.halfmoves() == 99);
        assert_eq!(first, Some(ply as usize), "{what}");
        let pos = &all[ply as usize];
        let m = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(pos).ok())
            .unwrap_or_else(|| panic!("{what}: {uci}"));
        assert!(!m.is_capture() && !m.is_zeroing(), "{what}: {uci}");
    }
    n
}

#[test]
fn real_games_count_repetitions_and_moves_as_the_laws_do() {
    let files = [
        "check/claims.pgn",
        "check/status-fivefold.pgn",
        "check/status-seventyfive-moves.pgn",
        "check/status-checkmate.pgn",
        "check/status-stalemate.pgn",
        "convert/twic944-games700-999.pgn",
        "convert/tcec-match3-first2.pgn",
        "convert/kasparov-deep-blue-1997.pgn",
    ];
    let mut seen = Naive::default();
    let mut games = 0;
    for file in files {
        for (i, report) in replay_all(&testdata(file)).iter().enumerate() {
            if report.status == Status::Invalid {
                continue;
            }
            games += 1;
            let n = agrees_with_naive(report, &format!("{file} game {}", i + 1));
            seen.threefold = seen.threefold.or(n.threefold);
            seen.fifty = seen.fifty.or(n.fifty);
            seen.fivefold = seen.fivefold.or(n.fivefold);
            seen.seventyfive = seen.seventyfive.or(n.seventyfive);
        }
    }
    // Not vacuous: every rule occurs in these games.
    assert!(games > 250, "{games}");
    assert!(seen.threefold.is_some() && seen.fifty.is_some(), "{seen:?}");
    assert!(
        seen.fivefold.is_some() && seen.seventyfive.is_some(),
        "{seen:?}"
    );
}

#[test]
fn threefold_counts_the_start_position() {
    // The start position at plies 0, 4 and 8: claimable on the board at 8,
    // by declaring 4... Ng8 at 7; fivefold at 16 ends the game.
    let moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
                 7. Nf3 Nf6 8. Ng1 Ng8";
    let r = replay_one(&format!("[Event \"t\"]\n\n{moves} 1/2-1/2\n"));
    assert_eq!(board_claim(&r, ClaimKind::Threefold), Some(8));
    assert_eq!(
        declared_claim(&r, ClaimKind::Threefold),
        Some((7, "f6g8".to_owned()))
    );
    assert_eq!(r.status, Status::FivefoldRepetition);
    assert_eq!(r.result, Some(GameResult::Draw));
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    agrees_with_naive(&r, "knights");

    // One move more: played after the automatic draw.
    let r = replay_one(&format!("[Event \"t\"]\n\n{moves} 9. Nf3 *\n"));
    assert_eq!(r.status, Status::FivefoldRepetition);
    assert_eq!(codes(&r), [Code::MovesAfterDraw]);
    assert_eq!(r.diagnostics[0].ply, Some(17));
}

#[test]
fn lost_castling_rights_make_the_same_squares_a_new_position() {
    // After 1. e4 e5 both sides may castle; after 2. Ke2 Ke7 3. Ke1 Ke8 the
    // pieces stand as before, but neither side may castle: a new position.
    // Were the rights ignored, it would stand for the third time at ply 10
    // (plies 2, 6, 10); the first threefold is the kings on e2 and e7 at
    // ply 12 (plies 4, 8, 12), declared by 6... Ke7 at ply 11.
    let r = replay_one(
        "[Event \"t\"]\n\n1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 \
         6. Ke2 Ke7 7. Ke1 Ke8 *\n",
    );
    assert_eq!(board_claim(&r, ClaimKind::Threefold), Some(12));
    assert_eq!(
        declared_claim(&r, ClaimKind::Threefold),
        Some((11, "e8e7".to_owned()))
    );
    agrees_with_naive(&r, "kings");

    // Rooks that move and return: the squares after 1... Nf6 (castling
    // allowed) recur at plies 6 and 10 without the kingside rights, so the
    // first threefold is the rooks on g1 and g8 (plies 4, 8, 12).
    let r = replay_one(
        "[Event \"t\"]\n\n1. Nf3 Nf6 2. Rg1 Rg8 3. Rh1 Rh8 4. Rg1 Rg8 5. Rh1 Rh8 \
         6. Rg1 Rg8 7. Rh1 Rh8 *\n",
    );
    assert_eq!(board_claim(&r, ClaimKind::Threefold), Some(12));
    agrees_with_naive(&r, "rooks");
}

#[test]
fn an_en_passant_capture_makes_a_position_differ_only_where_it_is_legal() {
    // After 2... d5 White may take en passant; the same squares after
    // 4... Nb8 give no such right. Were the right ignored, they would stand
    // for the third time at ply 12 (plies 4, 8, 12); the first threefold is
    // the knight on f3 at ply 13 (plies 5, 9, 13).
    let r = replay_one(
        "[Event \"t\"]\n\n1. e4 c5 2. e5 d5 3. Nf3 Nc6 4. Ng1 Nb8 5. Nf3 Nc6 6. Ng1 Nb8 \
         7. Nf3 Nc6 8. Ng1 Nb8 *\n",
    );
    assert_eq!(board_claim(&r, ClaimKind::Threefold), Some(13));
    agrees_with_naive(&r, "legal en passant");

    // After 1. e4 no black pawn can take on e3: the double step leaves no
    // right, and the position after it occurs again at plies 5 and 9.
    let r = replay_one("[Event \"t\"]\n\n1. e4 Nf6 2. Ne2 Ng8 3. Ng1 Nf6 4. Ne2 Ng8 5. Ng1 *\n");
    assert_eq!(board_claim(&r, ClaimKind::Threefold), Some(9));
    assert_eq!(
        declared_claim(&r, ClaimKind::Threefold),
        Some((8, "e2g1".to_owned()))
    );
    agrees_with_naive(&r, "no en passant");

    // After 1... c5 the capture b5xc6 is pseudo-legal but illegal (it would
    // open the fifth rank between the rook on h5 and the king on a5): no
    // right, so the position after 1... c5 stands again at plies 5 and 9.
    let r = from_fen(
        "4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1",
        "",
        "1... c5 2. Ka4 Ke7 3. Ka5 Ke8 4. Ka4 Ke7 5. Ka5 Ke8 *",
    );
    assert_eq!(board_claim(&r, ClaimKind::Threefold), Some(9));
    agrees_with_naive(&r, "pinned en passant");
}

/// White: king d3, rook h1; Black: king e6; `clock` half-moves played.
fn rook_ending(clock: u32) -> String {
    format!("8/8/4k3/8/8/3K4/8/7R w - - {clock} 90")
}

#[test]
fn the_fifty_move_rule_at_its_boundary() {
    // 98 half-moves: after one more (99) a player may claim by declaring a
    // quiet move; after two (100) by the position on the board.
    let r = from_fen(&rook_ending(98), "", "90. Rh2 Kd6 *");
    assert_eq!(
        declared_claim(&r, ClaimKind::FiftyMoves).map(|c| c.0),
        Some(1)
    );
    assert_eq!(board_claim(&r, ClaimKind::FiftyMoves), Some(2));
    assert_eq!(r.status, Status::Ongoing);
    assert_eq!(
        r.result, None,
        "the 50-move rule only makes a draw claimable"
    );

    // 97: after two half-moves the clock stands at 99, no claim on the board.
    let r = from_fen(&rook_ending(97), "", "90. Rh2 Kd6 *");
    assert_eq!(board_claim(&r, ClaimKind::FiftyMoves), None);
    assert_eq!(
        declared_claim(&r, ClaimKind::FiftyMoves).map(|c| c.0),
        Some(2)
    );

    // A capture as the 100th half-move resets the clock: only the declared
    // claim before it remains.
    let r = from_fen("8/8/4k3/8/8/3K4/7r/7R w - - 98 90", "", "90. Kc4 Rxh1 *");
    assert_eq!(board_claim(&r, ClaimKind::FiftyMoves), None);
    assert_eq!(
        declared_claim(&r, ClaimKind::FiftyMoves).map(|c| c.0),
        Some(1)
    );
}

#[test]
fn the_seventyfive_move_rule_at_its_boundary() {
    // 148 half-moves: the 150th ends the game (Law 9.6.2), the 149th does not.
    let r = from_fen(&rook_ending(148), "", "90. Rh2 Kd6 *");
    assert_eq!(r.status, Status::SeventyfiveMoves);
    assert_eq!(r.result, Some(GameResult::Draw));
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let r = from_fen(&rook_ending(148), "", "90. Rh2 *");
    assert_eq!(r.status, Status::Ongoing);

    // A move after the 150th half-move is played after the draw.
    let r = from_fen(&rook_ending(148), "", "90. Rh2 Kd6 91. Rh6+ *");
    assert_eq!(r.status, Status::SeventyfiveMoves);
    assert_eq!(codes(&r), [Code::MovesAfterDraw]);
    assert_eq!(r.diagnostics[0].ply, Some(3));

    // The Result tag must say draw.
    let r = from_fen(&rook_ending(148), "[Result \"1-0\"]", "90. Rh2 Kd6 1-0");
    assert_eq!(codes(&r), [Code::ResultMismatch]);
    assert_eq!(
        r.ruling.map(|x| x.reason),
        Some("75 moves without a capture or pawn move (Law 9.6.2)".to_owned())
    );
}

#[test]
fn checkmate_on_the_seventyfifth_move_takes_precedence() {
    // Back-rank mate as the 150th half-move: the mate stands (Law 9.6.2).
    let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100";
    let r = from_fen(mate, "[Result \"1-0\"]", "100. Ra8# 1-0");
    assert_eq!(r.status, Status::Checkmate);
    assert_eq!(r.result, Some(GameResult::WhiteWins));
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    // The same 150th half-move without mate is a draw.
    let r = from_fen(mate, "[Result \"1/2-1/2\"]", "100. Ra7 1/2-1/2");
    assert_eq!(r.status, Status::SeventyfiveMoves);
    assert_eq!(r.result, Some(GameResult::Draw));
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
}

/// A game lost on time from `fen`, the Result tag giving `result`.
fn on_time(fen: &str, moves: &str, result: &str) -> GameReport {
    from_fen(
        fen,
        &format!("[Termination \"Time forfeit\"]\n[Result \"{result}\"]"),
        &format!("{moves} {result}"),
    )
}

#[test]
fn law_6_9_a_loss_on_time_against_a_player_who_cannot_mate_is_a_draw() {
    // Black has king and rook, White a bare king. Black's flag falls
    // (1-0): White cannot checkmate by any series of legal moves, a draw.
    let rook = "8/8/4k3/8/8/3K4/8/7r w - - 0 60";
    let r = on_time(rook, "60. Kc4 Rh2", "1-0");
    assert_eq!(codes(&r), [Code::ResultMismatch]);
    assert!(r.diagnostics[0].message.contains("White cannot checkmate"));
    assert_eq!(r.result, Some(GameResult::Draw));
    let ruling = r.ruling.expect("a ruling");
    assert_eq!(ruling.result, GameResult::Draw);
    assert!(ruling.reason.contains("Law 6.9"), "{}", ruling.reason);
    // White's flag falls (0-1): Black can mate, the win stands.
    let r = on_time(rook, "60. Kc4 Rh2", "0-1");
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.ruling, None);

    // A lone bishop against a pawn can mate with the pawn's help (a pawn
    // on h7 blocks its own king on h8): the win stands.
    let r = on_time("7k/7p/8/8/8/3KB3/8/8 w - - 0 60", "60. Kd4 Kg8", "1-0");
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.ruling, None);

    // A draw recorded, or a game not lost on time: nothing to rule.
    let r = on_time(rook, "60. Kc4 Rh2", "1/2-1/2");
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let r = from_fen(
        rook,
        "[Termination \"Normal\"]\n[Result \"1-0\"]",
        "60. Kc4 Rh2 1-0",
    );
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);

    // Material that is dead for both sides is no loss on time at all: the
    // game ended drawn before (Law 5.2.2).
    let r = on_time("8/8/4k3/8/8/3KB3/8/8 w - - 0 60", "60. Bd4 Kd6", "1-0");
    assert_eq!(r.status, Status::InsufficientMaterial);
    assert_eq!(r.result, Some(GameResult::Draw));
}

#[test]
fn a_result_the_rules_contradict_is_an_error() {
    // The real games of result-mismatch.pgn: a stalemate and mates scored
    // wrongly; every one is ruled, with the Law.
    let reports = replay_all(&testdata("check/result-mismatch.pgn"));
    assert!(reports.len() >= 3);
    for r in &reports {
        assert!(
            codes(r).contains(&Code::ResultMismatch),
            "{:?}",
            r.diagnostics
        );
        let ruling = r.ruling.as_ref().expect("a ruling");
        assert_eq!(Some(ruling.result), r.result);
        assert_eq!(Some(ruling.reason.as_str()), r.status.law());
    }
    assert!(reports.iter().any(|r| r.status == Status::Stalemate));

    // Without a Result tag, the termination marker is the record.
    let r = replay_one("[Event \"t\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
    assert_eq!(codes(&r), [Code::ResultMismatch]);
    assert!(
        r.diagnostics[0]
            .message
            .starts_with("the game is recorded as 1-0, but White is checkmated"),
        "{}",
        r.diagnostics[0].message
    );
    // `*` records no result: nothing to contradict.
    let r = replay_one("[Event \"t\"]\n[Result \"*\"]\n\n1. f3 e5 2. g4 Qh4# *\n");
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.result, Some(GameResult::BlackWins));
}

#[test]
fn the_result_tag_and_the_marker_must_agree() {
    // An unfinished game: the rules decide nothing, the record contradicts itself.
    let r = replay_one("[Event \"t\"]\n[Result \"1-0\"]\n\n1. e4 e5 0-1\n");
    assert_eq!(codes(&r), [Code::ResultMismatch]);
    assert_eq!(r.ruling, None, "the rules do not say who won");
    // A mate, tag right and marker wrong: the ruling says the tag is right.
    let r = replay_one("[Event \"t\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
    assert_eq!(codes(&r), [Code::ResultMismatch]);
    assert_eq!(r.ruling.map(|x| x.result), Some(GameResult::BlackWins));
}

#[test]
fn null_moves_warn_in_the_main_line_and_pass_the_turn() {
    // `--` passes White's turn: 1... e5 is Black's, and the game stays valid.
    let r = replay_one("[Event \"t\"]\n\n1. -- e5 2. e4 *\n");
    assert_eq!(codes(&r), [Code::NullMove]);
    assert_eq!(r.diagnostics[0].side, Some(Color::White));
    assert_eq!(r.status, Status::Ongoing);
    assert_eq!(r.plies, 3);
    let last = r.moves.last().map(|m| m.played);
    assert_eq!(
        last.map(|m| (m.from(), m.to())),
        Some((Some(Square::E2), Square::E4))
    );

    // In a variation a null move is an annotator's idea: no warning.
    let r = replay_one("[Event \"t\"]\n\n1. e4 (1. -- e5) 1... e5 *\n");
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);

    // The real game of null-moves.pgn (`Z0`) has one in its main line.
    let reports = replay_all(&testdata("check/null-moves.pgn"));
    assert!(
        reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .any(|d| d.code == Code::NullMove && !d.variation)
    );
}

/// Found by this test: the tracker looks for claims after each move, never
/// in the start position, so a game set up with 100 half-moves on the clock
/// is reported claimable at ply 1, though the player to move could claim at
/// once (Law 9.3.2; `Claim::ply` 0 is the start position). The same holds
/// for a declared move from a start position at 99 half-moves (Law 9.3.1).
#[test]
fn a_game_from_a_fen_is_claimable_in_its_start_position() {
    let r = from_fen(&rook_ending(100), "", "90. Rh2 *");
    assert_eq!(board_claim(&r, ClaimKind::FiftyMoves), Some(0));
    let r = from_fen(&rook_ending(99), "", "90. Rh2 *");
    assert_eq!(
        declared_claim(&r, ClaimKind::FiftyMoves).map(|c| c.0),
        Some(0)
    );
}

/// The reason given for a slip names the slip, whatever the language the
/// game is written in: a bishop's rank off by one in Russian is that, as in
/// English, and not "a slip of the pen".
#[test]
fn a_slip_is_named_alike_in_every_language() {
    let reason = |pgn: &str| -> Vec<String> {
        let mut game = Game::default();
        assert!(Reader::new(pgn.as_bytes()).read_game(&mut game));
        let report = replay_game(pgn.as_bytes(), &game, &Options::default());
        let first = report.diagnostics.iter().find(|d| d.is_error());
        first
            .map(|d| {
                d.suggestions
                    .iter()
                    .filter_map(|s| match s {
                        Suggestion::Replace { san, reason, .. } if san == "Bb5" => {
                            Some(reason.clone())
                        }
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let english = reason("1. e4 e5 2. Nf3 Nc6 3. Bb6 a6 4. Ba4 Nf6 5. O-O Be7 *");
    assert_eq!(english, ["a rank off by one"]);
    for written in [
        "1. e4 e5 2. Кf3 Кc6 3. Сb6 a6 4. Сa4 Кf6 5. O-O Сe7 *",
        "1. e4 e5 2. Sf3 Sc6 3. Lb6 a6 4. La4 Sf6 5. O-O Le7 *",
        "1. e4 e5 2. Cf3 Cc6 3. Fb6 a6 4. Fa4 Cf6 5. O-O Fe7 *",
        "1. e2-e4 e7-e5 2. Кg1-f3 Кb8-c6 3. Сf1-b6 a7-a6 4. Сb5-a4 Кg8-f6 5. 0-0 Сf8-e7 *",
    ] {
        assert_eq!(reason(written), english, "{written}");
    }
}
