"""Two Fleet games checked by hand (fixtures/fleet/README.md): the notation, its events, the
narration of every state, and the final scores worked out by hand from each seat's tableau."""

from __future__ import annotations

from pathlib import Path

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
