"""The fused action kernel (``kernel.direct_action``) against the resolver, action by action: on the
table before every one-step action of simulated games (every option set), and before damaged
versions of those actions, what the kernel accepts the resolver accepts asking nothing further, with
the same table (the whole snapshot, audit memory included), the same coins paid and VP; what it
declines leaves the table untouched; trusted, it gives what it gives checked."""

from __future__ import annotations

import random
from typing import Any

from test_wd_direct import NAMES, _games  # the same simulated games, under the same option sets

from replay.driver import Replay
from replay.errors import RuleViolation
from replay.games.wonders_dice import GAME, simulate_game
from replay.games.wonders_dice.engine import StepKey, Void, _LogChooser, fail_at, resolve
from replay.games.wonders_dice.kernel import direct_action
from replay.games.wonders_dice.state import GameState

SPACES = ["r0c0", "r1c1", "stone", "shield1", "w1", "w2", "nowhere", None, 3]
DICE = ["grey1", "grey2", "red", "blue", "yellow", "green", "black", "purple", "white", None]


def _snapshot(state: GameState) -> Any:
    return GAME.rules.snapshot(state)


def _general(state: GameState, seat: int, step: dict[str, Any]) -> tuple[int, int] | None:
    """The resolver on ``step`` alone: (paid, VP) if it accepts it asking nothing further, else None."""
    chooser = _LogChooser([step], fail_at(state, state.seq + 1, seat))
    try:
        outcome = resolve(state, seat, chooser)
    except (RuleViolation, Void, TypeError, KeyError):
        return None
    return (outcome.paid, outcome.vp) if outcome.steps == [StepKey.of(step)] else None


def _compare(state: GameState, seat: int, step: dict[str, Any]) -> bool:
    """Kernel and resolver on copies of ``state``; whether the kernel accepted."""
    before = _snapshot(state)
    mine, theirs = state.copy(), state.copy()
    found = direct_action(mine, seat, step)
    if found is None:
        assert _snapshot(mine) == before, step
        return False
    general = _general(theirs, seat, step)
    assert general == found, step
    assert _snapshot(mine) == _snapshot(theirs), step
    trusted = state.copy()
    assert direct_action(trusted, seat, step, trusted=True) == found
    assert _snapshot(trusted) == _snapshot(mine)
    return True


def _damaged(step: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    out = dict(step)
    what = rng.randrange(5)
    if what == 0:
        out["space"] = rng.choice(SPACES)
    elif what == 1:
        out["die"] = rng.choice(DICE)
    elif what == 2:
        out["kind"] = rng.choice(["pass", "wonder", "build", "skip", "cross", "bonus"])
    elif what == 3:
        out["lane"] = rng.choice([None, "x", "1", "2", "shield"])
    else:
        out.pop(rng.choice(["die", "building", "lane", "space"]), None)
    return out


def test_kernel_and_resolver_agree_action_by_action():
    rng = random.Random(11)
    accepted = legal = declined_damage = 0
    for events in _games(60, 3):
        r = Replay(GAME, level="raise")
        for e in events:
            state = r.state
            if e.type == "action_taken" and state is not None and state.options.resolution != "two_phase":
                seat, steps = e.payload["player"], e.payload["steps"]
                if len(steps) == 1:
                    legal += 1
                    accepted += _compare(state, seat, steps[0])
                if rng.random() < 0.3:
                    declined_damage += not _compare(state, seat, _damaged(steps[0], rng))
            r.push(e)
    assert accepted > 0.95 * legal  # nearly every one-step action takes the kernel
    assert declined_damage > 50  # and the damage was seen


def test_kernel_declines_an_unhashable_value():
    events = simulate_game("u", NAMES[:3], 5, ("random",))
    r = Replay(GAME, level="raise")
    for e in events:
        if e.type == "action_taken":
            state = r.state
            assert state is not None
            before = _snapshot(state)
            step = {"kind": "build", "die": ["grey1"], "building": {}, "lane": "x", "space": "y"}
            assert direct_action(state, e.payload["player"], step) is None
            assert _snapshot(state) == before
            return
        r.push(e)
