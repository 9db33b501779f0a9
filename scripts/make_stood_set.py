#!/usr/bin/env python3
"""Builds testdata/illegal/stood.pgn and stood.expected.jsonl: real games
with illegal moves inserted, and what python-chess says of them.

python-chess is the independent reference: `Board.push` applies a move
without asking whether it is legal, so the position after an illegal move
that stood, the plies and the final FEN are its, not pgnkit's.

Each game of testdata/index/twic-232.pgn (Apache-2.0) is replayed to a ply
chosen at random, where the side to move plays an illegal move of one of
three kinds the Laws' broadcasts are full of:

- slide: a bishop, rook or queen through a piece in its way;
- geometry: a piece to a square its kind cannot reach (a bishop one step
  sideways, a knight two squares straight, a rook diagonally);
- king: a king (or a pinned piece) into check.

From there the game goes on with random legal moves (python-chess's, never
one that takes a king) for 8 to 24 plies; a third of the games get a second
illegal move by the same player. The time control says the pace: standard
games with two illegal moves by one player are lost under 7.5.5.

Run from the repository's root: `python3 scripts/make_stood_set.py`
(needs `pip install chess`; seeded, so the output is the same each run).
"""

import json
import random
import sys

import chess
import chess.pgn

SOURCE = "testdata/index/twic-232.pgn"
OUT_PGN = "testdata/illegal/stood.pgn"
OUT_EXPECTED = "testdata/illegal/stood.expected.jsonl"
LETTER = {chess.KNIGHT: "N", chess.BISHOP: "B", chess.ROOK: "R", chess.QUEEN: "Q", chess.KING: "K"}


def ray_squares(frm, to):
    """The squares strictly between two squares on a line, or None."""
    between = chess.SquareSet(chess.between(frm, to))
    return between if chess.square_distance(frm, to) > 1 else chess.SquareSet()


def geometry_reaches(piece_type, frm, to):
    """Whether a piece of this kind reaches `to` from `frm` on an empty board."""
    empty = chess.BaseBoard.empty()
    empty.set_piece_at(frm, chess.Piece(piece_type, chess.WHITE))
    return to in empty.attacks(frm)


def candidates(board, kind):
    """Illegal moves of the side to move of one kind: (move, piece type)."""
    us = board.turn
    found = []
    for frm in board.pieces(chess.BISHOP, us) | board.pieces(chess.ROOK, us) | board.pieces(
        chess.QUEEN, us
    ) | board.pieces(chess.KNIGHT, us) | board.pieces(chess.KING, us):
        piece = board.piece_at(frm)
        for to in chess.SQUARES:
            if to == frm:
                continue
            target = board.piece_at(to)
            if target is not None and (target.color == us or target.piece_type == chess.KING):
                continue
            move = chess.Move(frm, to)
            if board.is_legal(move) or board.is_castling(move):
                continue
            t = piece.piece_type
            reaches = geometry_reaches(t, frm, to)
            attacked_now = to in board.attacks(frm)
            if kind == "slide" and t in (chess.BISHOP, chess.ROOK, chess.QUEEN):
                if reaches and not attacked_now:
                    found.append((move, t))
            elif kind == "geometry" and t in (chess.BISHOP, chess.ROOK, chess.KNIGHT):
                if not reaches and chess.square_distance(frm, to) <= 2:
                    found.append((move, t))
            elif kind == "king" and attacked_now:
                # Pseudo-legal (it attacks the square) yet illegal: into check.
                if t == chess.KING or board.is_pinned(us, frm):
                    found.append((move, t))
    return found


def written(board, move, piece_type):
    """The move as a scoresheet writes it: the letter, the origin square
    where another piece of its kind is on the board, a capture mark."""
    others = [s for s in board.pieces(piece_type, board.turn) if s != move.from_square]
    capture = "x" if board.piece_at(move.to_square) is not None else ""
    origin = chess.square_name(move.from_square) if others and piece_type != chess.KING else ""
    return LETTER[piece_type] + origin + capture + chess.square_name(move.to_square)


def mark(board, tokens):
    """A check mark on the move just written where it gives check, as a
    broadcast writes it."""
    if board.is_check():
        tokens[-1] += "+"


def san_of(board, move):
    return board.san(move)


def continue_randomly(board, rng, plies, tokens):
    """Random legal moves, none taking a king; stops at the end of a game."""
    for _ in range(plies):
        moves = [
            m
            for m in board.legal_moves
            if board.piece_type_at(m.to_square) != chess.KING
        ]
        if not moves or board.is_game_over(claim_draw=False):
            return
        m = rng.choice(moves)
        tokens.append(san_of(board, m))
        board.push(m)


def main():
    rng = random.Random(42)
    games = []
    with open(SOURCE, encoding="utf-8", errors="replace") as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            games.append(g)
    out_pgn = []
    out_expected = []
    kinds = ["slide", "geometry", "king"]
    made = 0
    for number, g in enumerate(games):
        mainline = list(g.mainline_moves())
        if len(mainline) < 24:
            continue
        board = g.board()
        k = rng.randrange(8, min(len(mainline) - 8, 40))
        tokens = []
        for m in mainline[:k]:
            tokens.append(san_of(board, m))
            board.push(m)
        kind = kinds[made % 3]
        found = candidates(board, kind)
        if not found:
            continue
        two = made % 3 == 0
        mover = board.turn
        stood = []
        move, t = rng.choice(found)
        stood.append({"ply": len(tokens) + 1, "side": "white" if mover else "black", "kind": kind})
        tokens.append(written(board, move, t))
        board.push(move)
        mark(board, tokens)
        if two:
            # The opponent moves, then the same player again, illegally.
            continue_randomly(board, rng, 1, tokens)
            if board.turn != mover or board.is_game_over():
                continue
            found = candidates(board, "slide") or candidates(board, "geometry")
            if not found:
                continue
            move, t = rng.choice(found)
            stood.append({"ply": len(tokens) + 1, "side": "white" if mover else "black", "kind": "second"})
            tokens.append(written(board, move, t))
            board.push(move)
            mark(board, tokens)
        continue_randomly(board, rng, rng.randrange(8, 24), tokens)
        control = ["5400+30", "180+2", "900+10"][made % 3] if not two else "5400+30"
        pace = {"5400+30": "standard", "180+2": "blitz", "900+10": "rapid"}[control]
        headers = [
            ("Event", "Broadcast test %d (%s)" % (made + 1, kind)),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "?"),
            ("White", g.headers.get("White", "?")),
            ("Black", g.headers.get("Black", "?")),
            ("Result", "*"),
            ("TimeControl", control),
        ]
        text = "".join('[%s "%s"]\n' % (n, v.replace('"', "'")) for n, v in headers) + "\n"
        words = []
        for i, tok in enumerate(tokens):
            if i % 2 == 0:
                words.append("%d." % (i // 2 + 1))
            words.append(tok)
        text += " ".join(words) + " *\n"
        out_pgn.append(text)
        out_expected.append(
            {
                "game": len(out_pgn),
                "source_game": number + 1,
                "plies": len(tokens),
                "stood": stood,
                "pace": pace,
                "fen": board.fen(en_passant="fen"),
            }
        )
        made += 1
    with open(OUT_PGN, "w", encoding="utf-8") as f:
        f.write("\n".join(out_pgn))
    with open(OUT_EXPECTED, "w", encoding="utf-8") as f:
        for e in out_expected:
            f.write(json.dumps(e) + "\n")
    print("wrote %d games" % len(out_pgn), file=sys.stderr)


if __name__ == "__main__":
    main()
