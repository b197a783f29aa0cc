"""Golden files: the recorded fixtures import, verify, replay, and equal today's seeded simulation."""

from __future__ import annotations

from pathlib import Path

from helpers import pig_game

from replay.archive.verify import verify
from replay.games.pig.rules import fold
from replay.jsonl import dump_line, import_lines

FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_pig_fixture_is_the_seeded_simulation_byte_for_byte(archive):
    text = (FIXTURES / "pig" / "two-games.jsonl").read_text()
    expected = pig_game("pig-a", 1) + pig_game("pig-b", 2, players=3)
    assert text == "".join(dump_line(e) for e in expected)
    import_lines(archive, text.splitlines(keepends=True))
    assert verify(archive, deep=True).ok
    for game in ("pig-a", "pig-b"):
        state = fold(archive.read_game(game))
        assert state.winners and max(state.scores) >= state.target
