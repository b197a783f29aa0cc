from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games.wonders_dice import simulate_game
from replay.games.wonders_dice.notation import read, write
from replay.notation import NotationError

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]
BROKEN = Path(__file__).parent.parent / "fixtures" / "7wd" / "broken"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 7))
def test_round_trip_events_notation_events_notation(seed, players):
    events = simulate_game(f"g{seed}", NAMES[:players], seed, ("greedy", "random"))
    text = write(events)
    parsed = read(text, "raise")
    assert parsed.events == events
    assert write(parsed.events) == text
    assert sorted(parsed.lines) == list(range(len(events)))


def test_forgiving_of_spacing_case_and_comments():
    events = simulate_game("g", NAMES[:2], 3, ("greedy", "random"))
    text = write(events)
    messy = []
    for line in text.splitlines():
        if line.startswith("["):
            messy.append(line.replace("[", "[ ", 1))
        elif line.startswith("Ana:"):
            messy.append("  ana :   " + line[4:].upper().replace("/", "/").replace("{", "   {") + "   # Ana's move")
        else:
            messy.append(line.replace(", ", " ,  ") + "  ")
    messy.insert(3, "# a comment line")
    parsed = read("\n".join(messy), "raise")
    assert parsed.events == events


def test_header_tags_survive_in_the_start_event():
    events = simulate_game("g", NAMES[:2], 3, ("random",))
    text = write(events).replace('[Kind "7wonders-dice"]', '[Kind "7wonders-dice"]\n[Event "Club night"]\n[Date "2026-11-20"]')
    parsed = read(text, "raise")
    assert parsed.events[0].payload["tags"] == {"Date": "2026-11-20", "Event": "Club night"}
    assert write(parsed.events) == text.replace('[Event "Club night"]\n[Date "2026-11-20"]',
                                                '[Date "2026-11-20"]\n[Event "Club night"]')


def test_lenient_collects_every_problem_with_line_and_column_and_strict_stops_at_the_first():
    text = (BROKEN / "notation-syntax-errors.txt").read_text()
    parsed = read(text)
    found = [(p.line, p.column, p.text) for p in parsed.problems]
    assert found == [
        (12, 6, "biuld grey1 warehouse/wood/wood"),
        (13, 1, "Bob"),
        (14, 9, "grey1 stone"),
        (15, 6, "build grey2 warehouse wood"),
        (16, 12, "paid none"),
        (17, 1, "this line means nothing"),
    ]
    assert "unknown step 'biuld'" in parsed.problems[0].message
    assert "unknown player (the seats are: ana, ben)" in parsed.problems[1].message
    with pytest.raises(NotationError) as caught:
        read(text, "raise")
    assert len(caught.value.problems) == 1 and caught.value.problems[0].line == 12


@pytest.mark.parametrize("header, message", [
    ('[Game "g"]\n[Seat "0 giza Ana"]\n[Seat "1 rhodes Ben"]', "the header needs [Ruleset"),
    ('[Ruleset "7wd-default 0.1.0 sha256:00"]\n[Seat "0 giza Ana"]', 'the header needs [Game'),
    ('[Game "g"]\n[Kind "pig"]', "this is a 7wonders-dice reader"),
    ('[Game "g"]\n[Ruleset "7wd-default 0.1.0 sha256:00"]\n[Seat "zero giza Ana"]', "a seat is"),
])
def test_header_problems_are_named(header, message):
    problems = read(header + "\n").problems
    assert any(message in p.message for p in problems), problems


def test_a_result_line_may_give_totals_only():
    from replay.games.wonders_dice import GAME
    from replay.services.audit import audit
    from replay.services.logs import Log

    events = simulate_game("g", NAMES[:2], 8, ("greedy", "random"))
    text = write(events)
    head, result = text.rstrip("\n").rsplit("\n", 1)
    totals_only = "; ".join(part.split(" [")[0] for part in result.split("; "))
    parsed = read(head + "\n" + totals_only + "\n", "raise")
    assert all(s["categories"] == {} for s in parsed.events[-1].payload["scores"])
    assert audit(Log(parsed.events, GAME, "g", parsed.lines)).ok
    wrong = totals_only.replace(f"coins {events[-1].payload['scores'][0]['coins']}", "coins 99", 1)
    report = audit(Log(read(head + "\n" + wrong + "\n").events, GAME, "g"))
    assert [f.rule_id for f in report.problems] == ["claim.score"]
