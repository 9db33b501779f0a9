#!/usr/bin/env python3
"""Count the games in PGN files, independently of pgnkit's lexer.

usage: count_games.py FILE_OR_DIR...      prints "COUNT<TAB>PATH" per .pgn file
       count_games.py --total FILE...     also prints "COUNT<TAB>(total)"

This is a deliberately small, line-oriented state machine written from the
PGN standard and the usual real-world deviations, to cross-check the `games`
figure in `pgnkit check`'s summary. The rules:

* A game starts at a tag section (a `[` outside comments) when no game is
  open or when the open game already has movetext, and at the first movetext
  token (move, move number, NAG, result) when no game is open: a game without
  tags still counts.
* A game ends after a result token (`1-0 0-1 1/2-1/2 *`, and the scoresheet
  forms `1:0 0:1 1/2:1/2 ½-½ ½:½`) outside comments and variations.
* A game without a result ends at the next tag section, or at white's move
  number `1.` (not `1...` or `1. ...`) at the start of a line after an empty line (a new game without tags
  following a game without a result), or at the end of the file.
* A tag section that follows a single tag line and an empty line (ChessBase
  writes `[Event ...]`, an empty line, then the other tags) continues that
  game, unless it opens with `[Event ` or with the same tag name. After a
  complete tag section (two tag lines or more) an empty line and a tag line
  start a new game even without movetext between (results exports, pairing
  tools).
* Comments (`{...}` across lines, `;` to the end of the line) and escape lines
  (`%` in column 1) never start a game on their own; a `{` that is never
  closed is ended by an empty line followed by a `[` line (the next game).
* Junk between games (stray `)`, `]`, `}`) starts no game; any other word does
  (it is movetext of a game, broken or not: no game is dropped uncounted).
* Bytes are read as Latin-1, so any encoding works; a UTF-8 byte order mark
  is whitespace wherever it stands, and one at the start of a line right
  before a `[` starts a new game (files concatenated with `cat`); line ends may be LF, CRLF or CR.
"""
import os
import re
import sys

RESULTS = {b"1-0", b"0-1", b"1/2-1/2", b"*", b"1:0", b"0:1", b"1/2:1/2",
           "½-½".encode(), "½:½".encode(), "½-½".encode("latin-1"), "½:½".encode("latin-1")}
# Movetext tokens: comment start, rest-of-line comment, variation marks, tag
# start, NAG, word (ends at whitespace and at the PGN delimiters).
TOKEN = re.compile(rb'\{|;|\(|\)|\[|\$\d*|[^\s{}()\[\];$"]+|["\]}]')
LINE = re.compile(rb"([^\r\n]*)(\r\n|\r|\n|$)")
TAG_END = re.compile(rb'"[ \t]*\]')
# White's first move number (`1.`, `1.e4`), not black's (`1...`, `1. ...`).
FIRST_MOVE_NUMBER = re.compile(rb"1\.(?![ \t]*(?:\.|\xe2\x80\xa6))")
TAG_NAME = re.compile(rb"\[[ \t]*([^\s\"\]\[]+)")


def is_tag_line(stripped: bytes) -> bool:
    return stripped.startswith(b"[") and stripped.endswith(b"]")


def game_starts(data: bytes) -> list:
    """Byte offsets where the games of `data` start (the first tag or token)."""
    starts = []
    # A byte order mark is whitespace (same length, so offsets stay true);
    # one right before a `[` starts a file of a concatenation: a new game.
    after_bom = {m.end() for m in re.finditer(rb"(?:^|(?<=[\r\n]))\xef\xbb\xbf(?=\[)", data)}
    data = data.replace(b"\xef\xbb\xbf", b"   ")
    offset = 0
    # Consecutive tag lines ending at the last non-blank line, and the name
    # of the last tag line.
    tag_run = 0
    last_tag_name = None
    OUTSIDE, TAGS, MOVETEXT = 0, 1, 2
    state = OUTSIDE
    in_comment = False
    depth = 0
    previous_blank = True
    for line_match in LINE.finditer(data, offset):
        line = line_match.group(1)
        if not line and not line_match.group(2):
            break  # the empty match at the end of the data
        base = line_match.start()
        stripped = line.strip(b" \t\v\f")
        if not stripped:
            previous_blank = True
            continue
        run_before = tag_run
        name_before = last_tag_name
        if is_tag_line(stripped):
            tag_run = 1 if previous_blank else tag_run + 1
            m = TAG_NAME.match(stripped)
            last_tag_name = m.group(1) if m else None
        else:
            tag_run = 0
        pos = 0
        if in_comment or depth > 0:
            # An empty line and then a tag line: the next game, whatever was
            # left open in this one.
            if previous_blank and stripped.startswith(b"["):
                in_comment = False
                depth = 0
        if in_comment:
            close = line.find(b"}")
            if close < 0:
                previous_blank = False
                continue
            in_comment = False
            pos = close + 1
        elif line.startswith(b"%"):
            previous_blank = False
            continue
        if (state == MOVETEXT and previous_blank and depth == 0
                and FIRST_MOVE_NUMBER.match(stripped)):
            state = OUTSIDE  # a game without result, then one without tags
        after_blank = previous_blank
        previous_blank = False
        indent = len(line) - len(line.lstrip())
        while True:
            match = TOKEN.search(line, pos)
            if match is None:
                break
            token = match.group()
            pos = match.end()
            if token == b"{":
                close = line.find(b"}", pos)
                if close < 0:
                    in_comment = True
                    break
                pos = close + 1
            elif token == b";":
                break
            elif token == b"[":
                # `[Event ` at the start of a line after an empty line always
                # opens a new game, even after a tag section without movetext.
                at_start = after_blank and match.start() == indent
                new_event = at_start and line.startswith(b"[Event ", match.start())
                # After a complete tag section (two tag lines or more), or
                # one tag line repeated: a new game.
                name = TAG_NAME.match(line, match.start())
                complete = at_start and run_before > 0 and (
                    run_before >= 2 or (name is not None and name.group(1) == name_before))
                file_start = base + match.start() in after_bom
                if state != TAGS or new_event or complete or file_start:
                    starts.append(base + match.start())
                    state = TAGS
                    depth = 0
                # The tag ends at `"` + blanks + `]`, else at the end of the line.
                end = TAG_END.search(line, pos)
                if end is None:
                    break
                pos = end.end()
            elif token in (b")", b"]", b"}", b'"'):
                if token == b")" and depth > 0:
                    depth -= 1
            else:
                if state == OUTSIDE:
                    starts.append(base + match.start())
                if token == b"(":
                    depth += 1
                    state = MOVETEXT
                elif token in RESULTS and depth == 0:
                    state = OUTSIDE
                else:
                    state = MOVETEXT
    return starts


def game_spans(data: bytes) -> list:
    """(start, end) byte ranges of the games: each runs to the next game's
    start, so comments after a result stay with the game they follow."""
    starts = game_starts(data)
    return list(zip(starts, starts[1:] + [len(data)]))


def count_games(data: bytes) -> int:
    """The number of games in `data`."""
    return len(game_starts(data))


def pgn_files(paths):
    for path in paths:
        if os.path.isdir(path):
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.lower().endswith(".pgn"):
                        yield os.path.join(folder, name)
        else:
            yield path


def main(argv):
    total_wanted = "--total" in argv
    paths = [a for a in argv if a != "--total"]
    if not paths:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    total = 0
    for path in pgn_files(paths):
        try:
            with open(path, "rb") as handle:
                count = count_games(handle.read())
        except OSError as err:
            print(f"count_games.py: {path}: {err}", file=sys.stderr)
            return 2
        total += count
        print(f"{count}\t{path}")
    if total_wanted:
        print(f"{total}\t(total)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
