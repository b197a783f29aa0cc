"""Two St. Petersburg games checked by hand (fixtures/st-petersburg/README.md): the text, its events,
the narration of every state, and the hand-worked numbers asserted as literals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from replay.driver import replay
from replay.events import Event
from replay.games.st_petersburg import GAME
from replay.golden import jsonl_text, narration_text
from replay.jsonl import read_events
from replay.registry import registry
from replay.services.audit import audit
from replay.services.logs import Log

FIXTURES = Path(__file__).parent.parent / "fixtures" / "st-petersburg"
GAMES = ("golden-2p", "golden-4p")

# Worked by hand (the README): final totals, winners, the final scoring's parts.
FINAL = {
    "golden-2p": {"points": [96, 83], "winners": [0], "aristocrat_types": [6, 1], "hand": [0, -5], "rubles": [1, 0]},
    "golden-4p": {"points": [56, 58, 64, 55], "winners": [2], "aristocrat_types": [10, 1, 1, 3], "hand": [0, -5, 0, -5],
                  "rubles": [1, 2, 0, 3], "worker": [0, 5, 0, 0], "building": [40, 51, 63, 48], "aristocrat": [2, 4, 0, 6],
                  "pub": [3, 0, 0, 0]},
}
# The 4-player game by hand (Ana, Ben, Cy, Dee): after each phase's scoring, (roubles, points).
# The Pub is answered after the building scoring; only round 6's answer buys points (Ana: 3 for 6).
PHASES_4P = {
    1: {"worker": ([19, 17, 21, 20], [0, 0, 0, 0]), "building": ([1, 3, 1, 0], [5, 4, 6, 6]),
        "aristocrat": ([1, 3, 1, 0], [5, 4, 6, 6]), "trading": ([1, 3, 1, 0], [5, 4, 6, 6])},
    2: {"worker": ([7, 9, 7, 6], [5, 5, 6, 6]), "building": ([1, 1, 3, 3], [10, 11, 13, 12]),
        "aristocrat": ([3, 1, 3, 4], [10, 11, 13, 12]), "trading": ([3, 1, 3, 4], [10, 11, 13, 12])},
    3: {"worker": ([9, 10, 9, 10], [10, 12, 13, 12]), "building": ([0, 3, 5, 0], [15, 20, 20, 21]),
        "aristocrat": ([4, 3, 2, 1], [15, 20, 20, 21]), "trading": ([1, 3, 2, 1], [15, 20, 20, 21])},
    4: {"worker": ([10, 12, 12, 10], [15, 21, 20, 21]), "building": ([2, 4, 1, 3], [22, 32, 30, 30]),
        "aristocrat": ([9, 4, 2, 4], [22, 32, 30, 30]), "trading": ([5, 4, 2, 4], [22, 32, 30, 30])},
    5: {"worker": ([13, 16, 16, 19], [22, 33, 30, 30]), "building": ([0, 3, 0, 1], [31, 44, 44, 39]),
        "aristocrat": ([8, 8, 2, 8], [31, 46, 44, 42]), "trading": ([8, 8, 2, 8], [31, 46, 44, 42])},
    6: {"worker": ([23, 21, 17, 23], [31, 47, 44, 42]), "building": ([7, 24, 0, 23], [40, 58, 63, 51]),
        "aristocrat": ([14, 29, 2, 30], [45, 60, 63, 54]), "trading": ([14, 29, 2, 30], [45, 60, 63, 54])},
}
# After each Pub answer: (round, roubles, points); after the round ends: the markers.
PUBS_4P = [(r, *PHASES_4P[r]["building"]) for r in range(1, 6)] + [(6, [1, 24, 0, 23], [43, 58, 63, 51])]
MARKERS_4P = {1: [3, 1, 0, 2], 2: [0, 2, 1, 3], 3: [1, 3, 2, 0], 4: [2, 0, 3, 1], 5: [3, 1, 0, 2]}
RUBLES_LEFT_4P = [4, 9, 2, 0]
# The 2-player game's points after each round (Ana, Ben), by hand.
ROUND_POINTS_2P = {1: [6, 6], 2: [13, 13], 3: [22, 20], 4: [33, 27], 5: [49, 39], 6: [66, 58]}


def typed(name: str) -> list[Event]:
    assert GAME.notation is not None
    return GAME.notation.read((FIXTURES / f"{name}.txt").read_text(encoding="utf-8"), "raise").events


def recorded(name: str) -> list[Event]:
    return list(read_events((FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines(True), registry))


@pytest.mark.parametrize("name", GAMES)
def test_the_text_the_events_and_the_narration_are_the_files(name):
    events = typed(name)
    assert events == recorded(name)
    assert jsonl_text(events) == (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8")
    assert narration_text(GAME, events) == (FIXTURES / f"{name}.replay.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", GAMES)
def test_the_audit_agrees_with_every_claim_and_the_hand_count(name):
    events = typed(name)
    assert audit(Log(events, GAME, name)).ok
    state = replay(GAME, events, level="raise").state
    want = FINAL[name]
    assert state.points == want["points"] and state.winners == want["winners"]
    for key in ("aristocrat_types", "hand", "rubles", "worker", "building", "aristocrat", "pub"):
        if key in want:
            assert [c[key] for c in state.categories] == want[key]


def test_the_two_player_game_round_by_round():
    seen: dict[int, list[int]] = {}
    from replay.contract import Observer

    class Rounds(Observer):
        def after(self, step: Any) -> None:
            if step.event.type == "round_ended":
                seen[step.event.payload["round"]] = list(step.state.points)

    replay(GAME, typed("golden-2p"), observers=[Rounds()])
    assert seen == ROUND_POINTS_2P


def test_the_four_player_game_phase_by_phase():
    from replay.contract import Observer

    phases: dict[int, dict[str, tuple[list[int], list[int]]]] = {}
    pubs: list[tuple[int, list[int], list[int]]] = []
    markers: dict[int, list[int]] = {}

    class Phases(Observer):
        def after(self, step: Any) -> None:
            e, st = step.event, step.state
            if e.type == "phase_ended":
                phases.setdefault(st.round, {})[e.payload["phase"]] = (list(st.rubles), list(st.points))
            elif e.type == "pub_used":
                pubs.append((st.round, list(st.rubles), list(st.points)))
            elif e.type == "round_ended":
                markers[e.payload["round"]] = list(st.markers)

    state = replay(GAME, typed("golden-4p"), observers=[Phases()]).state
    assert phases == PHASES_4P
    # Before the final scoring the points are the phases' (and the Pub's); after it, the categories added.
    assert pubs == PUBS_4P
    assert markers == MARKERS_4P
    assert state.rubles_left == RUBLES_LEFT_4P
    assert state.last_round and state.round == 6


@pytest.mark.parametrize(("index_of", "change", "rule_id"), [
    (lambda es: next(i for i, e in enumerate(es) if e.type == "card_bought"), {"paid": 4}, "stpete.claim-paid"),
    (lambda es: next(i for i, e in enumerate(es) if e.type == "card_bought"), {"card": "academy"}, "stpete.card-place"),
    (lambda es: next(i for i, e in enumerate(es) if e.type == "card_bought" and e.payload.get("displaces")),
     {"displaces": "lumberjack"}, "stpete.displace"),
    (lambda es: next(i for i, e in enumerate(es) if e.type == "pub_used" and e.payload["points"]), {"points": 5}, "stpete.pub"),
    (lambda es: next(i for i, e in enumerate(es) if e.type == "round_ended"), {"markers": [0, 1, 1, 0]},
     "stpete.claim-markers"),
    (lambda es: len(es) - 1, {"winners": [1]}, "stpete.claim-winners"),
])
def test_a_changed_event_is_reported_at_it(index_of, change, rule_id):
    events = typed("golden-2p")
    i = index_of(events)
    changed = [*events[:i], events[i]._replace(payload={**events[i].payload, **change}), *events[i + 1:]]
    problems = audit(Log(changed, GAME, "changed")).problems
    assert problems and problems[0].seq == events[i].seq and problems[0].rule_id == rule_id
