"""Two Flip 7 games worked by hand (fixtures/flip7/README.md): the notation typed at the table,
its events, the narration of every state, and the hand-worked scores the audit checks.

The claims on the ``end round`` lines and the winners on ``game over`` were worked out by hand
before the engine saw them: the audit comparing them with the engine's scores is the
independent check. The final totals and winners are asserted here once more, as literals.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from replay.cli.main import cli
from replay.contract import Observer, Step
from replay.driver import replay
from replay.events import Event
from replay.games.flip7 import GAME
from replay.games.flip7.notation import Flip7Notation
from replay.games.flip7.notation_syntax import shipped
from replay.jsonl import dump_line, read_events
from replay.narration import narrate
from replay.registry import registry
from replay.services.audit import audit
from replay.services.logs import Log

FIXTURES = Path(__file__).parent.parent / "fixtures" / "flip7"
GAMES = ("golden-3p", "golden-5p")
PACK = shipped()[0]
DECK = Counter({c.card: c.count for c in PACK.deck})

# Worked by hand (fixtures/flip7/README.md): each round's running totals, in seat order.
TOTALS = {
    "golden-3p": {  # Ana, Ben, Cy
        1: [0, 33, 17],
        2: [23, 99, 28],
        3: [23, 99, 94],
        4: [78, 141, 129],
        5: [109, 206, 161],
    },
    "golden-5p": {  # Ana, Ben, Cy, Dee, Eve
        1: [52, 0, 0, 50, 0],
        2: [93, 0, 0, 134, 26],
        3: [171, 41, 0, 180, 68],
        4: [200, 132, 26, 200, 97],
    },
}
WINNERS = {"golden-3p": [1], "golden-5p": [0, 3]}  # Ben 206; Ana and Dee share the victory at 200


def typed(name: str) -> list[Event]:
    return Flip7Notation().read((FIXTURES / f"{name}.txt").read_text(encoding="utf-8"), "raise").events


def recorded(name: str) -> list[Event]:
    return list(read_events((FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines(True), registry))


def problems(events: list[Event]) -> list[Any]:
    return audit(Log(events, GAME, "mutated")).problems


def replaced(events: list[Event], i: int, **payload: Any) -> list[Event]:
    return [*events[:i], events[i]._replace(payload={**events[i].payload, **payload}), *events[i + 1:]]


# ----------------------------------------------------------------------------- the files


@pytest.mark.parametrize("name", GAMES)
def test_the_notation_reads_to_exactly_the_recorded_events(name):
    events = typed(name)
    assert events == recorded(name)
    assert "".join(dump_line(e) for e in events) == (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", GAMES)
def test_the_audit_finds_no_problem_and_checks_every_hand_worked_claim(name):
    result = CliRunner().invoke(cli, ["audit", str(FIXTURES / f"{name}.jsonl"), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] and report["problems"] == []
    seats = len(TOTALS[name][1])
    assert report["checked"]["claims"] == 2 * seats * len(TOTALS[name])  # a score and a total per seat and round
    assert report["checked"]["final scores"] == "yes"
    assert report["result"]["finished"] and report["result"]["winners"] == WINNERS[name]


@pytest.mark.parametrize("name", GAMES)
def test_the_narration_of_every_state_is_as_recorded(name):
    expected = (FIXTURES / f"{name}.replay.txt").read_text(encoding="utf-8")
    assert "\n".join(narrate(GAME, recorded(name))) + "\n" == expected


@pytest.mark.parametrize("name", GAMES)
def test_totals_after_each_round_and_winners_are_the_hand_worked_ones(name):
    class Rounds(Observer):
        def __init__(self) -> None:
            self.totals: dict[int, list[int]] = {}

        def after(self, step: Step) -> None:
            if step.event.type == "round_ended":
                self.totals[step.event.payload["round"]] = list(step.state.total)

    rounds = Rounds()
    r = replay(GAME, recorded(name), GAME.library(), observers=[rounds])
    assert r.problems == []
    assert rounds.totals == TOTALS[name]
    assert r.state.total == TOTALS[name][max(TOTALS[name])]
    assert r.state.winners == WINNERS[name]
    assert r.state.phase == "over"


@pytest.mark.parametrize("name", GAMES)
def test_every_card_of_the_deck_is_somewhere_at_every_step(name):
    class Conservation(Observer):
        def __init__(self) -> None:
            self.steps = 0

        def after(self, step: Step) -> None:
            places = step.state.places()
            assert places == DECK, (step.event.seq, places - DECK, DECK - places)
            assert sum(places.values()) == 94
            self.steps += 1

    watch = Conservation()
    events = recorded(name)
    replay(GAME, events, GAME.library(), observers=[watch])
    assert watch.steps == len(events)


def test_the_games_show_what_they_are_meant_to_show():
    """The events the README promises: each rule at least once between the two games."""
    both = recorded("golden-3p") + recorded("golden-5p")
    seen = Counter(e.type for e in both)
    for kind in ("busted", "frozen", "second_chance_used", "flipped_seven", "game_ended"):
        assert seen[kind], kind
    given = [(e.payload["card"], e.payload["seat"], e.payload["target"]) for e in both if e.type == "target_chosen"]
    assert any(card == "second_chance" and target is not None for card, _, target in given)
    assert any(card == "second_chance" and target is None for card, _, target in given)
    assert any(card == "freeze" and seat == target for card, seat, target in given)
    assert any(card == "freeze" and target is not None and seat != target for card, seat, target in given)
    reshuffles = [e for e in recorded("golden-5p") if e.type == "deck_shuffled" and e.payload["reason"] == "reshuffle"]
    assert [len(e.payload["order"]) for e in reshuffles] == [74]  # the 94 less the 20 cards in play
    assert sum(1 for e in recorded("golden-5p") if e.type == "card_drawn") == 98
    dealers = [e.payload["dealer"] for e in recorded("golden-5p") if e.type == "round_started"]
    assert dealers == [4, 0, 1, 2]  # Eve, then passing left


# ----------------------------------------------------------------------------- mutated copies


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("field", ["score", "total"])
def test_a_claim_off_by_one_is_reported_at_its_round(name, field):
    events = recorded(name)
    for i, e in enumerate(events):
        if e.type != "round_ended":
            continue
        for k, claim in enumerate(e.payload["scores"]):
            scores = [dict(c) for c in e.payload["scores"]]
            scores[k][field] = claim[field] + 1
            found = problems(replaced(events, i, scores=scores))
            assert [(p.rule_id, p.where.seq, p.expected, p.found) for p in found] == \
                [(f"flip7.claim-{field}", i, str(claim[field]), str(claim[field] + 1))]


def test_wrong_winners_are_reported_at_the_end():
    events = recorded("golden-5p")
    found = problems(replaced(events, len(events) - 1, winners=[0]))
    assert [(p.rule_id, p.where.seq, p.expected, p.found) for p in found] == \
        [("flip7.claim-winners", len(events) - 1, "Ana, Dee", "Ana")]


def test_a_card_drawn_that_is_not_on_top_of_the_pile_is_reported_where_it_is_drawn():
    events = recorded("golden-3p")
    i = next(i for i, e in enumerate(events) if e.type == "card_drawn" and e.payload["card"] == "x2")  # Cy's deal, round 3
    found = problems(replaced(events, i, card="+10"))  # in the pile, but lower down
    first = found[0]
    assert (first.rule_id, first.where.seq, first.where.player) == ("flip7.draw", i, "Cy")
    assert (first.expected, first.found) == ("the top card, x2", "+10")
    assert all(p.where.seq is not None and p.where.seq >= i for p in found)


@pytest.mark.parametrize("name", GAMES)
def test_a_missing_bust_is_reported_at_the_event_that_takes_its_place(name):
    events = recorded(name)
    for i in [i for i, e in enumerate(events) if e.type == "busted"]:
        bust = events[i].payload
        shortened = [*events[:i], *(e._replace(seq=e.seq - 1) for e in events[i + 1:])]
        found = problems(shortened)
        assert [(p.rule_id, p.where.seq) for p in found] == [("flip7.expected", i)]
        assert found[0].expected == f"busted {GAME_NAMES[name][bust['seat']]} on {bust['card']}"


GAME_NAMES = {"golden-3p": ["Ana", "Ben", "Cy"], "golden-5p": ["Ana", "Ben", "Cy", "Dee", "Eve"]}


def test_step_shows_the_table_not_the_rules_bookkeeping() -> None:
    """``Views.bookkeeping``: what the rules wait for next is part of the state (and its hash), not
    of what a person stepping through the game is shown as changed."""
    from click.testing import CliRunner

    from replay.cli.main import cli

    path = Path(__file__).parent.parent / "fixtures" / "flip7" / "golden-3p.jsonl"
    result = CliRunner().invoke(cli, ["step", str(path)], input="n\nn\nn\nn\nq\n")
    assert result.exit_code == 0 and "changed" in result.output and "dealer: 0 -> 2" in result.output
    assert "todo:" not in result.output and "expect:" not in result.output
