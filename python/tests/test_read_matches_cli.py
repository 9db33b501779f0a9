"""`pgnkit.read` gives the games, moves, statuses and diagnostics that the
`pgnkit` binary gives for the same files (`check --games --format json` and
`convert --format json`), on every fixture of the test data."""

import pathlib

import pytest

import pgnkit
from conftest import TESTDATA, run_cli

FILES = sorted(
    p
    for folder in (
        "check", "clocks", "notation", "pgn", "repair", "dead", "opening", "convert", "illegal"
    )
    for p in (TESTDATA / folder).glob("*.pgn")
)


def test_the_corpus_is_there():
    assert len(FILES) > 60


STAND = sorted((TESTDATA / "illegal").glob("*.pgn")) + [TESTDATA / "check" / "illegal-ambiguous.pgn"]
CASES = [(p, "stop") for p in FILES] + [(p, "stand") for p in STAND]


@pytest.mark.parametrize(
    "path,illegal_moves", CASES, ids=lambda c: f"{c.parent.name}/{c.name}" if hasattr(c, "name") else c
)
def test_same_games_statuses_and_diagnostics_as_check(pgnkit_bin, path: pathlib.Path, illegal_moves):
    records = run_cli(
        pgnkit_bin, "check", "--games", "--format", "json", "-j1", "--no-config",
        "--illegal-moves", illegal_moves, path.name, cwd=path.parent,
    )
    games = [r for r in records if r["type"] == "game"]
    diagnostics = [r for r in records if r["type"] == "diagnostic"]
    read = list(pgnkit.read(str(path), jobs=2, illegal_moves=illegal_moves))
    assert len(read) == len(games) == records[-1]["games"]
    for game, record in zip(read, games):
        mine = game.record()
        mine["file"] = record["file"]
        assert mine == record
        assert game.status == record["status"]
        assert game.result == record["result"]
        assert game.result_tag == record["result_tag"]
        assert game.claims == record["claims"]
        assert game.plies == record["plies"] == len(game.moves)
        assert game.fen == record["fen"]
    mine = []
    for game in read:
        for d in game.diagnostics:
            r = dict(d.record)
            r["file"] = path.name
            mine.append(r)
            assert (d.code, d.severity, d.ply, d.line, d.column, d.message, d.suggestions) == (
                r["code"], r["severity"], r.get("ply"), r["line"], r["column"], r["message"],
                r["suggestions"],
            )
    assert mine == diagnostics
    assert sum(len(g.errors) for g in read) == records[-1]["errors"] or records[-1].get(
        "omitted"
    )


def _main_line(record: dict) -> tuple[list[str], list[str]]:
    san, uci = [], []
    for m in record["moves"]:
        if "move" not in m:
            break
        san.append(m["move"])
        uci.append(m["uci"])
    return san, uci


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_same_moves_and_tags_as_convert(pgnkit_bin, path: pathlib.Path):
    records = run_cli(
        pgnkit_bin, "convert", "--format", "json", "-j1", "-q", path.name,
        cwd=path.parent,
    )
    converted = [r for r in records if r.get("type") == "game"]
    read = list(pgnkit.read(path))
    assert len(read) == len(converted)
    for game, record in zip(read, converted):
        san, uci = _main_line(record)
        if game.errors:
            # convert writes the main line up to its first error, as read does.
            assert game.moves == san[: len(game.moves)]
        else:
            assert (game.moves, game.uci) == (san, uci)
        assert game.tags == record.get("tags", {})
        assert len(game.moves) == len(game.uci) == len(game)
