"""Fleet's notation: a hand-typed game reads to the events the table saw; notation -> events ->
notation is identical for simulated games (both packs, 2 to 4 players); mistakes are located."""

from __future__ import annotations

import pytest
from helpers import assert_reads_anything, assert_refused, mutate
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.driver import replay
from replay.games.fleet import GAME, simulate_game

NAMES = ["Ana", "Ben", "Cy", "Dev"]
READ = GAME.notation.read


def sim(seed: int, players: int, pack: str = "fleet-base"):
    return simulate_game(f"n{seed}", NAMES[:players], seed, GAME.bots.default, GAME.pack(pack))


@pytest.mark.parametrize("pack", ["fleet-base", "fleet-gone-fishin"])
def test_round_trip(pack):
    for seed in range(12):
        events = sim(seed, 2 + seed % 3, pack)
        text = GAME.notation.write(events)
        parsed = READ(text, "raise", "t")
        assert parsed.events == events
        assert GAME.notation.write(parsed.events) == text
        assert "\n! " not in text  # every event of a valid game has its compact form


def test_unsayable_names_fall_back_to_raw_lines_and_still_round_trip():
    events = simulate_game("n1", ["Ana Lee", "Ben: 2"], 1, GAME.bots.default, GAME.pack())
    text = GAME.notation.write(events)
    assert "\n! " in text
    assert READ(text, "raise").events == events


def test_each_line_is_located():
    text = GAME.notation.write(sim(3, 2))
    lines = text.splitlines()
    parsed = READ(text)
    opened = next(i for i, line in enumerate(lines) if ": open " in line)
    event = next(e for e in parsed.events if e.type == "auction_opened")
    assert parsed.lines[event.seq] == opened + 1


@pytest.mark.parametrize("bad", [
    "Ana: opne cod 4", "Zed: open cod 4", "Ana: open cod four", "Ana: buy cod for x", "round one first Ana",
    "end licenses; scores Zed 3",
    "end fish; scores Ana 3 = whales 2", "end fish; scores Ana 3 = fish 1 + fish 2",
    "Ana: draws cod shrimp", "! no_such {}", "Ana: open whale 4", "hello",
])
def test_mistakes_are_located_never_raised(bad):
    text = GAME.notation.write(sim(3, 2))
    assert_refused(READ, text + bad + "\n")


def test_an_illegal_typed_game_is_the_audit_s_business():
    events = sim(3, 2)
    opened = next(e.payload for e in events if e.type == "auction_opened")
    line = f"open {opened['license']} {opened['bid']}"
    cheap = f"open {opened['license']} {GAME.pack().license[opened['license']].cost - 1}"
    text = GAME.notation.write(events)
    assert line in text
    parsed = READ(text.replace(line, cheap, 1), "raise")  # the form is right: the reader takes it
    r = replay(GAME, parsed.events)
    assert [p.rule_id for p in r.problems][:1] == ["fleet.bid-min"]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_any_text_reads_without_a_traceback(data):
    text = GAME.notation.write(sim(5, 3))
    assert_reads_anything(READ, [mutate(text, data, [":", ",", ";", " for", " with", "!", "[", "#", "-", "9999", "é"])])
