"""The direct way of applying the usual action (``projector._direct_action``) against the general
way (the resolver with its prompts): the same states and the same problems, event by event, on
simulated games, under every option set, and on games with damaged actions."""

from __future__ import annotations

import random

import pytest
from helpers import scaled

from replay.driver import Replay
from replay.events import Event
from replay.games.wonders_dice import GAME, projector, simulate_game
from replay.games.wonders_dice.rules_data import shipped_rulesets

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]
OPTIONS = [
    ("7wd-default", {}),
    ("7wd-default-0.1.0", {}),
    ("7wd-default", {"resolution": "seat_order", "void_actions": True, "resources": "spent"}),
    ("7wd-default", {"coin_cap": 12, "barracks": "one_building", "income": "when_chosen", "cross_mandatory": True,
                     "extra_action_pass": True, "completion": "after_effects"}),
]


def _games(count: int, seed: int) -> list[list[Event]]:
    rng = random.Random(seed)
    packs = shipped_rulesets()
    games = []
    for i in range(count):
        pack, update = OPTIONS[i % len(OPTIONS)]
        rules = packs[pack]
        bots = rng.choice([("random",), ("greedy",), ("greedy", "random")])
        games.append(simulate_game(f"d{i}", NAMES[:rng.randint(2, 7)], seed * 100_000 + i, bots, rules,
                                   rules.options.model_copy(update=update)))
    return games


def _damage(events: list[Event], rng: random.Random) -> list[Event]:
    """A few actions changed: another space, die, lane or kind, a step dropped or added, wrong claims."""
    out = list(events)
    actions = [i for i, e in enumerate(out) if e.type == "action_taken"]
    for i in rng.sample(actions, min(4, len(actions))):
        p = dict(out[i].payload)
        steps = [dict(s) for s in p["steps"]]
        what = rng.randrange(6)
        if what == 0:
            steps[0]["space"] = rng.choice(["r0c0", "r1c1", "stone", "shield1", "w1", "w2", "nowhere", None])
        elif what == 1:
            steps[0]["die"] = rng.choice(["grey1", "red", "blue", "black", "purple", "white", None])
        elif what == 2:
            steps[0]["kind"] = rng.choice(["pass", "wonder", "build", "skip", "cross"])
        elif what == 3:
            steps.append({"kind": "bonus", "slot": rng.randrange(4)})
        elif what == 4 and len(steps) > 1:
            steps.pop()
        else:
            p["claims"] = {"paid": rng.randrange(4), "vp": rng.randrange(3), "coins": rng.randrange(12)}
        p["steps"] = steps
        out[i] = out[i]._replace(payload=p)
    if rng.random() < 0.3:  # an action out of seat order
        j = rng.choice(actions)
        p = dict(out[j].payload)
        p["player"] = (p["player"] + 1) % len(out[0].payload["seats"])
        out[j] = out[j]._replace(payload=p)
    return out


def _trace(events: list[Event], direct: bool, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[str, ...]]]:
    with monkeypatch.context() as m:
        if not direct:
            m.setattr(projector, "_direct_action", lambda state, p, fail: None)
        r = Replay(GAME, level="collect")
        out = []
        for e in events:
            step = r.push(e)
            out.append((step.state.state_hash() if step.state is not None else "",
                        tuple(f"{p.rule_id}|{p.expected}|{p.found}|{p.where}" for p in step.problems)))
        return out


def test_direct_and_general_agree_on_thousands_of_games(monkeypatch):
    """400 games (4,000 with REPLAY_FUZZ=long), every option set: the final states and every claim
    agree; every event's state on the first 100."""
    for i, events in enumerate(_games(scaled(400, 4_000), 1)):
        if i < 100:
            assert _trace(events, True, monkeypatch) == _trace(events, False, monkeypatch)
            continue
        with monkeypatch.context() as m:
            general = Replay(GAME, level="collect").run(events)
            m.setattr(projector, "_direct_action", lambda state, p, fail: None)
            slow = Replay(GAME, level="collect").run(events)
        assert general.state is not None and slow.state is not None
        assert general.state.state_hash() == slow.state.state_hash()
        assert general.problems == slow.problems == []


def test_direct_and_general_agree_on_damaged_games(monkeypatch):
    rng = random.Random(7)
    found = 0
    for events in _games(150, 2):
        damaged = _damage(events, rng)
        direct = _trace(damaged, True, monkeypatch)
        assert direct == _trace(damaged, False, monkeypatch)
        found += sum(len(p) for _, p in direct)
    assert found > 150  # the damage was seen
