#!/usr/bin/env python3
"""Writes real games in descriptive notation as books printed it.

Reads games in SAN with python-chess (an independent reader and move
generator, not pgnkit) and writes every move the way a book of the
descriptive era would: the mover and what it takes by their letters
(`P`, `Kt` or `N`, `B`, `R`, `Q`, `K`), squares named from the mover's
side with the files' full names (`KB3`, `QKt5`) or short ones (`B3`) when
that is enough, made unique first by the square taken or gone to, then by
the mover's square (in parentheses or after a slash, `N/1-B3`,
`R(KB1)-K1`), check as a word of its own or glued (`ch`, `ch.`,
`dis ch`, `dis. ch.`, `dbl ch`, `QxQch`), `mate`, `PxP e.p.`, `Castles`,
`Castles(QR)`, `Castles QR` or `O-O-O`, and the move numbers of each book (`1.` or `1`).
Each game takes one of four house styles in turn.

    python3 make_book_games.py > book-games.pgn

and beside it `book-games.uci`: each game's moves as played, in UCI, one
game a line, as python-chess reads the source.
"""

import sys

import chess
import chess.pgn

HERE = __file__.rsplit("/", 1)[0]
SOURCES = [
    ("../WorldChamp1886.pgn", 20),
    ("../Capablanca.pgn", 100),
    ("../London1851.pgn", 30),
]
FULL = ["QR", "QKt", "QB", "Q", "K", "KB", "KKt", "KR"]
SHORT = ["R", "Kt", "B", "Q", "K", "B", "Kt", "R"]
LETTER = {
    chess.PAWN: "P",
    chess.KNIGHT: "Kt",
    chess.BISHOP: "B",
    chess.ROOK: "R",
    chess.QUEEN: "Q",
    chess.KING: "K",
}
# The house styles: knight letter, check words (check, discovered, double),
# whether check is glued to the move, castling words, slash for squares,
# move numbers with a dot.
STYLES = [
    dict(kt="Kt", ch=("ch", "dis ch", "dbl ch"), glued=False,
         castles=("Castles", "Castles(QR)"), slash=False, dot=True),
    dict(kt="Kt", ch=("ch.", "dis. ch.", "dbl. ch."), glued=False,
         castles=("Castles", "O-O-O"), slash=False, dot=False),
    dict(kt="N", ch=("ch", "dis ch", "dbl ch"), glued=True,
         castles=("O-O", "O-O-O"), slash=True, dot=True),
    dict(kt="N", ch=("ch", "ch", "dbl ch"), glued=False,
         castles=("Castles", "Castles QR"), slash=True, dot=False),
]


def rank_of(sq, color):
    r = chess.square_rank(sq)
    return r + 1 if color == chess.WHITE else 8 - r


def square_forms(sq, color):
    """Names of a square from `color`'s side: short first, then full, with
    the squares each names."""
    f, r = chess.square_file(sq), rank_of(sq, color)
    short = {s for s in chess.SQUARES
             if SHORT[chess.square_file(s)] == SHORT[f] and rank_of(s, color) == r}
    forms = []
    if len(short) > 1:
        forms.append((f"{SHORT[f]}{r}", short))
    forms.append((f"{FULL[f]}{r}", {sq}))
    return forms


def taken_square(board, m):
    if board.is_en_passant(m):
        return chess.square(chess.square_file(m.to_square), chess.square_rank(m.from_square))
    return m.to_square


def candidates(board, m, style):
    """(written body, predicate over legal moves), least said first."""
    color = board.turn
    piece = board.piece_type_at(m.from_square)
    letter = LETTER[piece].replace("Kt", style["kt"])
    kt = lambda s: s.replace("Kt", style["kt"])
    same = lambda o: board.piece_type_at(o.from_square) == piece and o.promotion == m.promotion
    promo = ""
    if m.promotion:
        promo = "=" + kt(LETTER[m.promotion])
    capture = board.is_capture(m)
    origins = [("", lambda o: True)]
    if piece != chess.PAWN:
        fr = rank_of(m.from_square, color)
        rank_word = f"/{fr}" if style["slash"] else f"{fr}"
        origins.append((rank_word, lambda o: rank_of(o.from_square, color) == fr))
        for name, squares in square_forms(m.from_square, color):
            word = f"/{kt(name)}" if style["slash"] else f"({kt(name)})"
            origins.append((word, lambda o, s=squares: o.from_square in s))
    else:
        ff = chess.square_file(m.from_square)
        origins.append((kt(FULL[ff]) + "P", lambda o: chess.square_file(o.from_square) == ff))
        name = f"{FULL[ff]}{rank_of(m.from_square, color)}"
        word = f"P/{kt(name)}" if style["slash"] else f"P({kt(name)})"
        origins.append((word, lambda o: o.from_square == m.from_square))
    out = []
    for origin, fits_origin in origins:
        mover = origin if piece == chess.PAWN and origin else letter + origin
        if capture:
            t = taken_square(board, m)
            kind = board.piece_type_at(t) or chess.PAWN
            taken = kt(LETTER[kind])
            targets = [("", {t} | set(chess.SQUARES))]
            targets += [(f"/{kt(n)}" if style["slash"] else f"({kt(n)})", s)
                        for n, s in square_forms(t, color)]
            for where, squares in targets:
                def fits(o, squares=squares, kind=kind, fits_origin=fits_origin):
                    if not board.is_capture(o) or not same(o) or not fits_origin(o):
                        return False
                    ts = taken_square(board, o)
                    return (board.piece_type_at(ts) or chess.PAWN) == kind and ts in squares
                out.append((f"{mover}x{taken}{where}{promo}", fits))
        else:
            for name, squares in square_forms(m.to_square, color):
                def fits(o, squares=squares, fits_origin=fits_origin):
                    return (not board.is_capture(o) and same(o) and fits_origin(o)
                            and not board.is_castling(o) and o.to_square in squares)
                out.append((f"{mover}-{kt(name)}{promo}", fits))
    return out


def write_move(board, m, style):
    if board.is_castling(m):
        word = style["castles"][0 if chess.square_file(m.to_square) == 6 else 1]
    else:
        legal = list(board.legal_moves)
        for word, fits in candidates(board, m, style):
            if [o for o in legal if fits(o)] == [m]:
                break
        else:
            raise SystemExit(f"no unique name for {board.san(m)} in {board.fen()}")
    ep = board.is_en_passant(m)
    after = board.copy(stack=False)
    after.push(m)
    if after.is_checkmate():
        return f"{word} mate"
    if ep:
        word += " e.p."
    if after.is_check():
        checkers = after.checkers()
        check, discovered, double = style["ch"]
        if len(checkers) > 1:
            mark = double
        elif m.to_square not in checkers:
            mark = discovered
        else:
            mark = check
        glue = style["glued"] and mark == "ch" and not ep
        word += mark if glue else f" {mark}"
    return word


def main():
    out = sys.stdout
    uci = open(f"{HERE}/book-games.uci", "w", encoding="utf-8")
    n = 0
    for path, count in SOURCES:
        with open(f"{HERE}/{path}", encoding="utf-8", errors="replace") as f:
            for _ in range(count):
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                style = STYLES[n % len(STYLES)]
                n += 1
                for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"]:
                    out.write(f'[{tag} "{game.headers.get(tag, "?")}"]\n')
                out.write("\n")
                board = game.board()
                words = []
                for i, m in enumerate(game.mainline_moves()):
                    if board.turn == chess.WHITE:
                        num = board.fullmove_number
                        words.append(f"{num}." if style["dot"] else f"{num}")
                    elif i == 0:
                        words.append(f"{board.fullmove_number}...")
                    words.append(write_move(board, m, style))
                    board.push(m)
                words.append(game.headers.get("Result", "*"))
                uci.write(" ".join(m.uci() for m in game.mainline_moves()) + "\n")
                line, lines = "", []
                for w in words:
                    if line and len(line) + 1 + len(w) > 79:
                        lines.append(line)
                        line = w
                    else:
                        line = f"{line} {w}" if line else w
                lines.append(line)
                out.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
