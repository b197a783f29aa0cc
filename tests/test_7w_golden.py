"""Two 7 Wonders games with their scores worked out by hand (fixtures/7wonders/README.md): the
events of two seeded simulations, the narration of every state, and the hand-worked scores.

There is no 7 Wonders notation yet, so the games are JSON Lines made by
``fixtures/7wonders/make_golden.py`` from a seed. The scores below were worked out by hand, from
each city's cards and stages and the cards' data (the README's worksheet), before they were
compared with the engine: here they are literals, checked against the audit, the ``game_ended``
claims and the final state.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from replay.cli.main import cli
from replay.driver import replay
from replay.events import Event
from replay.games.seven_wonders import GAME
from replay.jsonl import read_events
from replay.narration import narrate
from replay.registry import registry
from replay.services.audit import audit
from replay.services.logs import Log

FIXTURES = Path(__file__).parent.parent / "fixtures" / "7wonders"
GAMES = ("golden-3p", "golden-5p")
NAMES = {"golden-3p": ["Ana", "Ben", "Cy"], "golden-5p": ["Ana", "Ben", "Cy", "Dee", "Eve"]}
CATEGORIES = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science")

# Worked by hand (fixtures/7wonders/README.md), by seat: military, treasury, wonder, civilian,
# commercial, guilds, science, total.
HAND = {
    "golden-3p": [
        (2, 4, 3, 0, 0, 10, 9, 28),      # Ana, Babylon B
        (18, 4, 0, 6, 0, 4, 25, 57),     # Ben, Halicarnassus B
        (-4, 15, 3, 10, 4, 0, 0, 28),    # Cy, Olympia A
    ],
    "golden-5p": [
        (7, 9, 10, 0, 0, 2, 0, 28),      # Ana, Halicarnassus A
        (-3, 15, 5, 0, 0, 4, 4, 25),     # Ben, Olympia B (copies Ana's Craftsmens Guild)
        (0, 10, 3, 0, 1, 0, 4, 18),      # Cy, Ephesus A
        (-3, 17, 3, 0, 0, 0, 4, 21),     # Dee, Babylon A
        (17, 7, 3, 0, 1, 0, 0, 28),      # Eve, Rhodes B
    ],
}
COINS = {"golden-3p": [14, 12, 45], "golden-5p": [27, 45, 32, 53, 21]}  # traced by hand to the end
WINNERS = {"golden-3p": [1], "golden-5p": [0]}  # Ben 57; Ana and Eve 28 each, Ana has more coins (27 to 21)
TOKENS = {  # each Age's conflicts, by seat
    "golden-3p": {1: [[-1], [1, 1], [-1]], 2: [[-1], [3, 3], [-1]], 3: [[-1, 5], [5, 5], [-1, -1]]},
    "golden-5p": {1: [[1], [-1], [], [-1], [1]], 2: [[3, -1], [-1], [], [-1], [3, 3]],
                  3: [[5, -1], [-1], [], [-1], [5, 5]]},
}


def recorded(name: str) -> list[Event]:
    return list(read_events((FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines(True), registry))


def make_golden() -> Any:
    spec = importlib.util.spec_from_file_location("make_7w_golden", FIXTURES / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def problems(events: list[Event]) -> list[Any]:
    return audit(Log(events, GAME, "mutated")).problems


def replaced(events: list[Event], i: int, **payload: Any) -> list[Event]:
    return [*events[:i], events[i]._replace(payload={**events[i].payload, **payload}), *events[i + 1:]]


def hand(name: str, seat: int) -> dict[str, int]:
    return dict(zip((*CATEGORIES, "total"), HAND[name][seat]))


# ----------------------------------------------------------------------------- the files


@pytest.mark.parametrize("name", GAMES)
def test_the_files_are_what_make_golden_makes_today(name):
    maker = make_golden()
    events = maker.events_of(name)
    assert maker.jsonl(events) == (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8")
    assert events == recorded(name)
    assert maker.narration(events) == (FIXTURES / f"{name}.replay.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", GAMES)
def test_the_narration_of_every_state_is_as_recorded(name):
    expected = (FIXTURES / f"{name}.replay.txt").read_text(encoding="utf-8")
    assert "\n".join(narrate(GAME, recorded(name))) + "\n" == expected


@pytest.mark.parametrize("name", GAMES)
def test_the_audit_finds_no_problem_and_its_result_is_the_hand_worked_one(name):
    result = CliRunner().invoke(cli, ["audit", str(FIXTURES / f"{name}.jsonl"), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] and report["problems"] == []
    assert report["result"]["finished"] and report["result"]["winners"] == WINNERS[name]
    for score in report["result"]["scores"]:
        assert {**score["categories"], "total": score["total"]} == hand(name, score["seat"]), NAMES[name][score["seat"]]


@pytest.mark.parametrize("name", GAMES)
def test_the_claims_written_at_the_end_are_the_hand_worked_scores(name):
    end = recorded(name)[-1]
    assert end.type == "game_ended"
    assert [{k: v for k, v in c.items() if k != "seat"} for c in end.payload["scores"]] == \
        [hand(name, seat) for seat in range(len(NAMES[name]))]
    tokens = {e.payload["age"]: e.payload["tokens"] for e in recorded(name) if e.type == "age_ended"}
    assert tokens == TOKENS[name]


@pytest.mark.parametrize("name", GAMES)
def test_final_state_scores_coins_and_winners_are_the_hand_worked_ones(name):
    from replay.games.seven_wonders.scoring import scores

    r = replay(GAME, recorded(name), GAME.library())
    assert r.problems == []
    assert r.state.phase == "over"
    assert scores(r.state) == [hand(name, seat) for seat in range(len(NAMES[name]))]
    assert r.state.coins == COINS[name]
    assert [sum(t) for t in r.state.tokens] == [row[0] for row in HAND[name]]
    assert [c // 3 for c in COINS[name]] == [row[1] for row in HAND[name]]
    assert r.state.winners == WINNERS[name]


def test_the_games_show_what_they_are_meant_to_show():
    """What the README's table "What each game shows" promises, each at least once."""
    three, five = recorded("golden-3p"), recorded("golden-5p")
    plays = [(g, e.payload) for g, events in (("3p", three), ("5p", five)) for e in events if e.type == "card_played"]

    def find(game: str, **want: Any) -> list[dict[str, Any]]:
        return [p for g, p in plays if g == game and all(p.get(k) == v for k, v in want.items())]

    # purchases from both neighbours in one play, at the trading posts' and the Marketplace's prices
    assert find("3p", seat=0, age=2, turn=5, card="foundry", action="wonder")[0]["paid"] == {"to_left": 2, "to_right": 2}
    assert find("3p", seat=1, age=1, turn=6, card="stockade")[0]["paid"] == {"to_left": 0, "to_right": 1}  # East TP
    assert find("3p", seat=2, age=1, turn=6, card="press")[0]["paid"] == {"to_left": 1, "to_right": 0}  # West TP
    assert find("5p", seat=3, age=2, turn=3)[0]["paid"] == {"to_left": 3, "to_right": 0}  # West TP: 3 wood
    assert find("5p", seat=0, age=3, turn=5)[0]["paid"] == {"to_left": 1, "to_right": 0}  # Marketplace: textile
    assert find("5p", seat=1, age=2, turn=2, card="library")[0]["paid"] == {"to_left": 0, "to_right": 2}  # Olympia B
    # choice cards, chains, Olympia A's free builds, Babylon B's seventh cards, Halicarnassus
    assert any(p["choices"] for _, p in plays)
    assert len([p for _, p in plays if p["free"] == "chain"]) == 8
    assert [(p["age"], p["card"]) for p in find("3p", free="power")] == [(2, "caravansery"), (3, "palace")]
    assert [(p["age"], p["card"], p["action"]) for p in find("3p", turn=7)] == \
        [(2, "statue", "wonder"), (3, "siege_workshop", "build")]
    assert [e.payload for e in five if e.type == "discard_built"] == [{"seat": 0, "card": "brickyard"}]
    # military: victories and defeats in every Age; ties in Ages I and II (3p) and in every Age (5p)
    ties = [(g, e.payload["age"]) for g, events in (("3p", three), ("5p", five)) for e in events
            if e.type == "age_ended" and any(len(t) < 2 for t in e.payload["tokens"])]
    assert ties == [("3p", 1), ("3p", 2), ("5p", 1), ("5p", 2), ("5p", 3)]
    for e in three + five:
        if e.type == "age_ended":
            assert {x > 0 for t in e.payload["tokens"] for x in t} == {True, False}
    # guilds built: five in all; the copied one and the wild symbols are in the scores
    r3, r5 = replay(GAME, three, GAME.library()).state, replay(GAME, five, GAME.library()).state
    guilds = Counter(c.id for st in (r3, r5) for s in range(st.n) for c in st.cards(s) if c.colour == "purple")
    assert sorted(guilds) == ["craftsmens_guild", "magistrates_guild", "philosophers_guild", "spies_guild", "traders_guild"]


# ----------------------------------------------------------------------------- mutated copies


@pytest.mark.parametrize("name", GAMES)
def test_a_paid_to_left_claim_off_by_one_is_reported_at_its_event(name):
    events = recorded(name)
    checked = 0
    for i, e in enumerate(events):
        if e.type != "card_played" or not e.payload["paid"]["to_left"]:
            continue
        paid = e.payload["paid"]
        seat = e.payload["seat"]
        found = problems(replaced(events, i, paid={**paid, "to_left": paid["to_left"] + 1}))
        left = NAMES[name][(seat + 1) % len(NAMES[name])]
        assert [(p.rule_id, p.where.seq, p.where.player, p.expected, p.found) for p in found] == \
            [("7w.claim.paid", i, NAMES[name][seat], f"{paid['to_left']} coins to {left}", f"{paid['to_left'] + 1} coins")]
        checked += 1
    assert checked == {"golden-3p": 8, "golden-5p": 12}[name]


def test_a_card_that_is_not_in_the_hand_is_reported_where_it_is_played():
    events = recorded("golden-3p")
    i = 31  # Ana, Age II turn 4: school; Ben holds the vineyard
    assert (events[i].payload["seat"], events[i].payload["card"]) == (0, "school")
    found = problems(replaced(events, i, card="vineyard", choices={}, right={}, paid={"to_left": 0, "to_right": 0}))
    first = found[0]
    assert (first.rule_id, first.where.seq, first.where.player, first.found) == ("7w.hand", i, "Ana", "vineyard")
    assert "school" in (first.expected or "") and "vineyard" not in (first.expected or "")
    assert all(p.where.seq is not None and p.where.seq >= i for p in found)


def test_a_purchase_from_a_neighbour_who_does_not_produce_it_is_reported():
    events = recorded("golden-3p")
    i = 28  # Ana, Age II turn 3: her first stage (clay, textile), the textile bought from Ben's Loom
    assert events[i].payload["left"] == {"textile": 1}
    found = problems(replaced(events, i, left={}, right={"textile": 1}, paid={"to_left": 0, "to_right": 2}))
    first = found[0]  # Cy (right) has a Press and Olympia's wood, no textile
    assert (first.rule_id, first.where.seq, first.where.player, first.found) == ("7w.pay.neighbour", i, "Ana", "textile")
    assert (first.expected or "").startswith("what Cy (right) produces for sale")
    assert all(p.where.seq is not None and p.where.seq >= i for p in found)


@pytest.mark.parametrize("name", GAMES)
def test_a_tokens_claim_changed_is_reported_at_the_end_of_its_age(name):
    events = recorded(name)
    for i, e in enumerate(events):
        if e.type != "age_ended":
            continue
        tokens = [list(t) for t in e.payload["tokens"]]
        seat = e.payload["age"] % len(tokens)  # one more victory token than the conflicts give
        said = sorted(tokens[seat] + [e.payload["age"] * 2 - 1])
        tokens[seat] = said
        found = problems(replaced(events, i, tokens=tokens))
        assert [(p.rule_id, p.where.seq, p.where.player, p.expected, p.found) for p in found] == \
            [("7w.claim.tokens", i, NAMES[name][seat], str(sorted(TOKENS[name][e.payload["age"]][seat])), str(said))]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("category", [*CATEGORIES, "total"])
def test_a_score_claim_changed_is_reported_at_the_end(name, category):
    events = recorded(name)
    i = len(events) - 1
    for seat in range(len(NAMES[name])):
        scores = [dict(c) for c in events[i].payload["scores"]]
        scores[seat][category] += 1
        found = problems(replaced(events, i, scores=scores))
        want = hand(name, seat)[category]
        assert [(p.rule_id, p.where.seq, p.where.player, p.expected, p.found) for p in found] == \
            [("7w.claim.score", i, NAMES[name][seat], f"{category} {want}", f"{category} {want + 1}")]
