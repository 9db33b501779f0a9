#!/usr/bin/env python3
"""Tests of count_games.py's splitter (run: python3 scripts/test_count_games.py).

Small texts for each rule, then real files of the corpus whose game count is
known from their sources (skipped outside CI when the corpus is missing).
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from count_games import count_games, game_spans  # noqa: E402

CORPUS = os.environ.get("CORPUS") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                  "shared", "corpus")


class Rules(unittest.TestCase):
    def test_tagged_games_with_results(self):
        text = b'[Event "a"]\n\n1. e4 e5 1-0\n\n[Event "b"]\n\n1. d4 d5 0-1\n'
        self.assertEqual(count_games(text), 2)
        spans = game_spans(text)
        self.assertEqual(text[spans[1][0]:spans[1][1]], b'[Event "b"]\n\n1. d4 d5 0-1\n')

    def test_games_without_tags(self):
        self.assertEqual(count_games(b"1. e4 e5 1-0\n1. d4 d5 *\n\n1. c4 c5 1/2-1/2\n"), 3)

    def test_game_without_result_ends_at_next_tags_or_first_move_number(self):
        self.assertEqual(count_games(b'[Event "a"]\n\n1. e4 e5\n\n[Event "b"]\n\n1. d4 *\n'), 2)
        self.assertEqual(count_games(b"1. e4 e5 2. Nf3\n\n1. d4 d5\n"), 2)
        # An empty line in the middle of a game is not a new game, nor is
        # black's first move number on its own line.
        self.assertEqual(count_games(b"1. e4 e5\n\n2. Nf3 Nc6 *\n"), 1)
        self.assertEqual(count_games(b"1.\te4\n\n1.\t...\te5\n\n1... Nf3 *\n"), 1)

    def test_chessbase_split_tag_section_is_one_game(self):
        self.assertEqual(count_games(b'[Event "a"]\n\n[Site "b"]\n[White "c"]\n\n1. e4 *\n'), 1)

    def test_tags_only_game_then_event(self):
        self.assertEqual(count_games(b'[Event "a"]\n[Result "?"]\n\n[Event "b"]\n\n1. e4 *\n'), 2)

    def test_comments_and_escapes_start_no_game(self):
        text = b'% escape\n; line comment\n{ a comment\n over lines with [brackets] and 1-0 }\n[Event "a"]\n\n1. e4 { 0-1 } *\n'
        self.assertEqual(count_games(text), 1)

    def test_result_inside_variation_does_not_end_the_game(self):
        self.assertEqual(count_games(b"1. e4 (1. d4 d5 1-0) e5 *\n"), 1)

    def test_unterminated_comment_ends_at_next_game(self):
        self.assertEqual(count_games(b'[Event "a"]\n\n1. e4 { open\n\n[Event "b"]\n\n1. d4 *\n'), 2)

    def test_tags_and_moves_on_one_line(self):
        self.assertEqual(count_games(b'[Event "a"][Result "*"] 1. e4 * [Event "b"] 1. d4 *\n'), 2)

    def test_crlf_cr_and_bom(self):
        self.assertEqual(count_games(b'\xef\xbb\xbf[Event "a"]\r\n\r\n1. e4 *\r\n\r\n[Event "b"]\r\n\r\n1. d4 *\r\n'), 2)
        self.assertEqual(count_games(b'[Event "a"]\r\r1. e4 *\r\r[Event "b"]\r\r1. d4 *\r'), 2)

    def test_empty_and_junk(self):
        self.assertEqual(count_games(b""), 0)
        self.assertEqual(count_games(b"\n\n   \n"), 0)
        self.assertEqual(count_games(b") ] }\n"), 0)
        self.assertEqual(count_games(b"garbage words here\n"), 1)


class RealFiles(unittest.TestCase):
    def count(self, relative):
        path = os.path.join(CORPUS, relative)
        if not os.path.exists(path):
            if os.environ.get("CI") == "true":
                self.fail(f"corpus file missing in CI: {path}")
            self.skipTest(f"no corpus at {CORPUS}")
        with open(path, "rb") as handle:
            return count_games(handle.read())

    def test_twic944(self):
        # A complete TWIC issue: every game has a tag section.
        self.assertEqual(self.count("hauva69__pgn4web/twic944.pgn"), 2953)

    def test_benchmark_file(self):
        # bench/README.md: 42,945 distinct real games.
        self.assertEqual(self.count("bench/real.pgn"), 42945)

    def test_tags_only_first_game(self):
        # Disservin chess-library: a game with tags and no moves, then a game.
        self.assertEqual(self.count("Disservin__chess-library/tests/pgns/empty_body.pgn"), 2)

    def test_one_move_a_line_with_black_move_numbers(self):
        # ictk: junk text line, then a FICS game with `1.\t...\te5` lines.
        self.assertEqual(self.count("jvarsoke__ictk/src/samples/java/RepCheck/noRep.pgn"), 2)

    def test_game_number_in_comments_after_result(self):
        # TCEC Match 5: `; { Game Nr. ...` comment lines after each result.
        self.assertEqual(self.count("TCEC-Chess__tcecgames/master-archive/TCEC_Match_5.pgn"), 32)


if __name__ == "__main__":
    unittest.main()
