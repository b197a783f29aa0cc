"""Two Fleet games checked by hand (fixtures/fleet/README.md): the notation, its events, the
narration of every state, and the final scores worked out by hand from each seat's tableau."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from replay.driver import replay
from replay.events import Event
from replay.games.fleet import GAME
from replay.golden import jsonl_text, narration_text
from replay.jsonl import read_events
from replay.registry import registry
from replay.services.audit import audit
from replay.services.logs import Log

FIXTURES = Path(__file__).parent.parent / "fixtures" / "fleet"
GAMES = ("golden-2p", "golden-4p")
# Worked by hand in fixtures/fleet/README.md: each seat's total VP, and the winners.
TOTALS = {"golden-2p": [58, 39], "golden-4p": [31, 27, 55, 54]}
WINNERS = {"golden-2p": [0], "golden-4p": [2]}
ENDS = {"golden-2p": "fish", "golden-4p": "licenses"}


def typed(name: str) -> list[Event]:
    assert GAME.notation is not None
    return GAME.notation.read((FIXTURES / f"{name}.txt").read_text(encoding="utf-8"), "raise").events


@pytest.mark.parametrize("name", GAMES)
def test_the_files_are_what_the_notation_makes(name):
    events = typed(name)
    assert jsonl_text(events) == (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8")
    assert list(read_events((FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines(True), registry)) == events
    assert narration_text(GAME, events) == (FIXTURES / f"{name}.replay.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", GAMES)
def test_the_hand_worked_scores(name):
    events = typed(name)
    assert audit(Log(events, GAME, name)).ok
    r = replay(GAME, events, level="raise")
    result = GAME.views.result(r.state)
    assert [s.total for s in result.scores] == TOTALS[name]
    assert list(result.winners) == WINNERS[name]
    assert r.state.end_reason == ENDS[name]


def test_a_wrong_hand_count_is_reported():
    events = typed("golden-4p")
    end = events[-1]
    scores = [dict(c) for c in end.payload["scores"]]
    scores[3]["total"], scores[3]["king_crab"] = 56, 8  # Dee's King Crab (fish) counted as 8 instead of 18 // 3 = 6
    r = replay(GAME, [*events[:-1], end._replace(payload={**end.payload, "scores": scores})])
    assert [(p.rule_id, p.expected, p.found) for p in r.problems] == [("fleet.claim-score", "54", "56"),
                                                                       ("fleet.claim-score", "6 VP of king_crab", "8")]


# By category, worked by hand in fixtures/fleet/README.md: licenses, boats, fish, King Crab, Gone Fishin'.
CATEGORIES = {"golden-2p": [(22, 8, 21, 7, 0), (7, 7, 25, 0, 0)],
              "golden-4p": [(24, 3, 4, 0, 0), (10, 9, 2, 0, 6), (28, 9, 18, 0, 0), (18, 12, 18, 6, 0)]}


@pytest.mark.parametrize("name", GAMES)
def test_the_hand_worked_categories_are_the_written_claims(name):
    claims = typed(name)[-1].payload["scores"]
    keys = ("licenses", "boats", "fish", "king_crab", "gone_fishin")
    assert [tuple(c[k] for k in keys) for c in claims] == CATEGORIES[name]
    assert [c["total"] for c in claims] == TOTALS[name]


# The 2-player game round by round, worked by hand in fixtures/fleet/README.md from the text, the rules and
# the pack: at the end of each round (after its draw phase; round 10 after its fishing), per seat (Ana, Ben).
LICENSES_2P = {1: [["shrimp"], ["shrimp"]], 2: [["shrimp", "cod"], ["shrimp"]], 3: [["shrimp", "cod"], ["shrimp"]],
               4: [["shrimp", "cod"], ["shrimp", "tuna"]], 5: [["shrimp", "cod"], ["shrimp", "tuna"]],
               6: [["shrimp", "cod"], ["shrimp", "tuna"]], 7: [["shrimp", "cod", "processing"], ["shrimp", "tuna"]],
               8: [["shrimp", "cod", "processing", "tuna"], ["shrimp", "tuna"]],
               9: [["shrimp", "cod", "processing", "tuna", "tuna"], ["shrimp", "tuna"]],
               10: [["shrimp", "cod", "processing", "tuna", "tuna", "crab_fish"], ["shrimp", "tuna"]]}
# Crates on each launched boat, in launch order (so the number of boats is the length).
CRATES_2P = {1: [[1], [1]], 2: [[2, 1], [2]], 3: [[3, 2, 1], [3]], 4: [[4, 3, 2, 1], [4, 1]],
             5: [[4, 4, 3, 2], [4, 2, 1]], 6: [[4, 4, 4, 3], [4, 3, 2, 1]], 7: [[3, 3, 3, 3], [4, 4, 3, 2, 1]],
             8: [[3, 3, 3, 3, 1], [4, 4, 4, 3, 2, 1]], 9: [[3, 3, 3, 3, 2, 1], [4, 4, 4, 4, 3, 2, 1]],
             10: [[4, 4, 4, 4, 3, 2], [4, 4, 4, 4, 4, 3, 2]]}
# (processed crates, hand size) per seat; then the supply, the auction row, license deck and boat deck sizes, discards.
SEATS_2P = {1: [(0, 2), (0, 2)], 2: [(0, 1), (0, 3)], 3: [(0, 1), (0, 4)], 4: [(0, 1), (0, 2)], 5: [(0, 2), (0, 2)],
            6: [(0, 3), (0, 2)], 7: [(3, 3), (0, 2)], 8: [(3, 3), (0, 2)], 9: [(3, 3), (0, 2)], 10: [(0, 0), (0, 2)]}
TABLE_2P = {1: (48, ["cod", "lobster"], 13, 80, 8), 2: (45, ["lobster", "lobster"], 12, 75, 11),
            3: (41, ["cod", "tuna"], 10, 70, 13), 4: (35, ["cod", "crab_captains"], 9, 65, 16),
            5: (30, ["processing", "processing"], 7, 61, 17), 6: (25, ["processing", "tuna"], 5, 57, 18),
            7: (20, ["tuna", "tuna"], 4, 52, 21), 8: (11, ["tuna", "tuna"], 3, 46, 23),
            9: (1, ["tuna", "crab_fish"], 2, 39, 26), 10: (0, ["tuna", "cod"], 1, 39, 29)}
HANDS_2P_END = [[], ["processing", "lobster"]]


def round_ends(name: str) -> dict[int, dict[str, Any]]:
    """The state at the end of each round: just before the next round starts, and the final state."""
    from replay.contract import Observer

    ends: dict[int, dict[str, Any]] = {}

    class Rounds(Observer):
        prev: dict[str, Any] | None = None

        def after(self, step: Any) -> None:
            if step.event.type == "round_started" and self.prev is not None and self.prev["round"] > 0:
                ends[self.prev["round"]] = self.prev
            self.prev = step.state.data()

    state = replay(GAME, typed(name), level="raise", observers=[Rounds()]).state
    ends[state.round] = state.data()
    return ends


def test_the_two_player_game_round_by_round():
    ends = round_ends("golden-2p")
    assert sorted(ends) == list(range(1, 11))
    for rnd, d in ends.items():
        assert d["licenses"] == LICENSES_2P[rnd], rnd
        assert [[b[2] for b in bs] for bs in d["boats"]] == CRATES_2P[rnd], rnd
        assert [(d["processed"][s], len(d["hand"][s])) for s in range(2)] == SEATS_2P[rnd], rnd
        # By hand: each boat launched in this game is captained in the same round (no seat is short of a card).
        assert all(b[1] is not None for bs in d["boats"] for b in bs), rnd
        assert (d["supply"], d["row"], len(d["licenses_deck"]), len(d["deck"]), len(d["discard"])) == TABLE_2P[rnd], rnd
    assert ends[10]["hand"] == HANDS_2P_END


# The 4-player game round by round (Ana, Ben, Cy, Dee), worked by hand in fixtures/fleet/README.md; round 9
# (the last, ended by licenses) after its fishing. License names in the order bought.
_A = ["cod", "tuna", "cod", "processing", "shrimp", "lobster", "tuna"]
_B = ["processing", "processing", "shrimp"]
_C = ["lobster", "tuna", "cod", "shrimp", "cod", "pub"]
_D = ["lobster", "tuna", "processing", "shrimp", "crab_fish"]
OWNED_4P = {1: (1, 1, 1, 1), 2: (2, 2, 2, 2), 3: (3, 2, 3, 2), 4: (3, 3, 3, 2), 5: (4, 3, 4, 3), 6: (5, 3, 5, 3),
            7: (6, 3, 5, 4), 8: (6, 3, 5, 4), 9: (7, 3, 6, 5)}
CRATES_4P = {1: [[], [], [], []], 2: [[], [], [], []], 3: [[], [], [], [1]], 4: [[], [0], [], [2]],
             5: [[], [0, 0], [], [3, 1]], 6: [[], [0, 0, 0], [1, 1], [3, 2, 1]],
             7: [[], [0, 0, 0, 0], [2, 2, 1, 1], [3, 3, 2, 1]],
             8: [[1, 1], [1, 0, 0, 0], [3, 3, 2, 2, 1, 1], [3, 3, 3, 2, 1]],
             9: [[2, 2], [2, 0, 0, 0, 0], [4, 4, 3, 3, 2, 2], [4, 4, 4, 3, 2, 1]]}
# Boats with a captain (what the Lobster draws count).
CAPTAINED_4P = {1: (0, 0, 0, 0), 2: (0, 0, 0, 0), 3: (0, 0, 0, 1), 4: (0, 0, 0, 1), 5: (0, 0, 0, 2), 6: (0, 0, 2, 3),
                7: (0, 0, 4, 4), 8: (2, 1, 6, 5), 9: (2, 1, 6, 6)}
# Hand sizes, Gone Fishin' cards in hand, processed crates.
HANDS_4P = {1: (3, 4, 3, 4), 2: (2, 3, 2, 4), 3: (2, 5, 2, 4), 4: (5, 2, 5, 8), 5: (4, 2, 4, 5), 6: (3, 2, 3, 7),
            7: (2, 2, 4, 6), 8: (3, 3, 6, 9), 9: (1, 3, 3, 4)}
GONE_IN_HAND_4P = {1: (0, 0, 0, 0), 2: (0, 0, 0, 0), 3: (0, 1, 0, 1), 4: (1, 1, 1, 2), 5: (1, 1, 1, 2),
                   6: (0, 1, 0, 2), 7: (0, 1, 0, 1), 8: (0, 2, 1, 2), 9: (0, 3, 0, 0)}
PROCESSED_4P = {r: (0, 0, 0, 1 if r == 8 else 0) for r in range(1, 10)}
# Fish supply, the auction row, license deck, boat deck, discard pile, Gone Fishin' supply.
TABLE_4P = {1: (100, ["tuna", "processing", "tuna", "tuna"], 18, 64, 18, 20),
            2: (100, ["pub", "processing", "cod", "cod"], 14, 56, 29, 20),
            3: (99, ["pub", "processing", "processing", "shrimp"], 12, 47, 36, 18),
            4: (98, ["pub", "processing", "processing", "shrimp"], 11, 38, 40, 15),
            5: (96, ["pub", "cod", "shrimp", "crab_licenses"], 8, 29, 51, 15),
            6: (91, ["pub", "crab_licenses", "shrimp", "lobster"], 6, 16, 55, 17),
            7: (83, ["pub", "crab_licenses", "pub", "crab_captains"], 4, 1, 63, 18),
            8: (69, ["pub", "lobster", "crab_fish", "tuna"], 0, 46, 3, 15),
            9: (54, ["lobster"], 0, 41, 13, 17)}
HANDS_4P_END = [["lobster"], ["gone_fishin"] * 3, ["lobster", "processing", "lobster"],
                ["tuna", "lobster", "lobster", "processing"]]


def test_the_four_player_game_round_by_round():
    ends = round_ends("golden-4p")
    assert sorted(ends) == list(range(1, 10))
    for rnd, d in ends.items():
        assert d["licenses"] == [x[:k] for x, k in zip((_A, _B, _C, _D), OWNED_4P[rnd], strict=True)], rnd
        assert [[b[2] for b in bs] for bs in d["boats"]] == CRATES_4P[rnd], rnd
        assert tuple(sum(b[1] is not None for b in bs) for bs in d["boats"]) == CAPTAINED_4P[rnd], rnd
        assert tuple(len(h) for h in d["hand"]) == HANDS_4P[rnd], rnd
        assert tuple(h.count("gone_fishin") for h in d["hand"]) == GONE_IN_HAND_4P[rnd], rnd
        assert tuple(d["processed"]) == PROCESSED_4P[rnd], rnd
        table = (d["supply"], d["row"], len(d["licenses_deck"]), len(d["deck"]), len(d["discard"]), d["gone_supply"])
        assert table == TABLE_4P[rnd], rnd
    assert ends[9]["hand"] == HANDS_4P_END
    assert ends[9]["end_reason"] == "licenses"
