"""St. Petersburg's notation: round trips on seeded games with every kind of event, a typed game read
and audited, located problems (lenient and strict), and any text read without a traceback."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import assert_reads_anything, assert_refused, mutate
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.driver import replay
from replay.games.st_petersburg import GAME, simulate_game

PACK = GAME.pack()
NOTATION = GAME.notation
assert NOTATION is not None
HEADER = (f'[Game "t1"]\n[Kind "st-petersburg"]\n[Ruleset "{PACK.id} {PACK.version} {PACK.content_hash}"]\n'
          '[Markers "0 1 0 1"]\n[Seat "0 Ana"]\n[Seat "1 Ben"]\n\n')


def read(text: str, level: str = "collect"):
    return NOTATION.read(text, level, "t")  # type: ignore[arg-type]


def test_round_trip_on_seeded_games_with_every_kind_of_event():
    seen: Counter[str] = Counter()
    for seed in range(30):
        events = simulate_game(f"n{seed}", ["Ana", "Ben", "Chloe Dupont", "Dev"][:2 + seed % 3], seed,
                               ("greedy", "random", "saver"))
        text = NOTATION.write(events)
        parsed = read(text, "raise")
        assert parsed.events == events and NOTATION.write(parsed.events) == text
        assert not any(line.startswith("!") for line in text.splitlines())  # compact lines say a whole game
        seen.update(e.type for e in events)
    assert set(seen) == set(GAME.models)


def test_a_typed_game_reads_and_replays():
    body = """\
reveal worker: lumberjack, lumberjack, shepherd, gold-miner
Ana: buy lumberjack top {paid 3}
Ben: buy lumberjack top {paid 3}
Ana: take shepherd top
Ben: pass
Ana: pass
end worker {Ana 3r 0p, Ben 3r 0p}
reveal building: market, pub, warehouse, observatory, library, theater, academy
"""
    parsed = read(HEADER + body, "raise")
    r = replay(GAME, parsed.events, level="raise")
    assert r.state.rubles == [25, 25] and r.state.hand[0] == ["shepherd"] and r.state.top[0] == "gold-miner"
    assert len(r.state.top) == 8  # the board filled to 8
    assert parsed.lines[1] == 8  # the line each event came from


def test_a_written_claim_read_from_text_is_checked():
    body = "reveal worker: lumberjack, lumberjack, shepherd, gold-miner\nAna: buy shepherd top {paid 4}\n"
    r = replay(GAME, read(HEADER + body).events)
    assert [p.rule_id for p in r.problems] == ["stpete.claim-paid"]


@pytest.mark.parametrize("line", ["Zed: pass", "Ana: buy", "Ana: jump", "end worker {Zed 3r}", "result Ana x",
                                  "! nothing {}", "round x ends"])
def test_bad_lines_are_located_and_refused_strictly(line):
    assert_refused(read, HEADER + line + "\n")


def test_a_header_without_markers_is_a_problem():
    parsed = read(HEADER.replace('[Markers "0 1 0 1"]\n', ""))
    assert parsed.problems and not parsed.events


def test_any_text_reads_without_a_traceback():
    assert_reads_anything(read, ["", "Ana: pass", HEADER + "reveal: \n", HEADER + "result ;;; winners ,,",
                                 HEADER + "end worker {Ana 3r 4p 5x}", HEADER + "Ana: pub -1"])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 50), data=st.data())
def test_mutated_games_read_without_a_traceback(seed, data):
    text = NOTATION.write(simulate_game("m", ["Ana", "Ben"], seed, ("greedy",)))
    assert_reads_anything(read, [mutate(text, data, ["{", "}", ":", " ", "-", ",", ";", "\x07", "buy", "!"])])
