"""The trusted apply (``Rules.apply_trusted``, ``Replay.push_trusted``) against the checking apply:
the same state hash after every event of simulated games, across player counts, bot mixes and
option sets: 250 games in every run (about 8 s), 2,000 with ``REPLAY_FUZZ=long``, or as many as
``REPLAY_TRUSTED_GAMES`` says."""

from __future__ import annotations

import os
import random

import pytest
from helpers import scaled

from replay.driver import Replay
from replay.events import Event
from replay.games.wonders_dice import GAME, simulate_game
from replay.games.wonders_dice.rules_data import shipped_rulesets

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]
OPTIONS = [
    ("7wd-default", {}),
    ("7wd-default-0.1.0", {}),
    ("7wd-default", {"resolution": "seat_order", "agora_first_same_turn": "none", "resources": "spent"}),
    ("7wd-default", {"resolution": "seat_order", "void_actions": True}),
    ("7wd-default", {"resolution": "two_phase", "void_actions": True}),
    ("7wd-default", {"coin_cap": 12, "barracks": "one_building", "income": "when_chosen", "cross_mandatory": True,
                     "extra_action_pass": True, "per_space_vp": "max", "free_action_wonder": True}),
    ("7wd-default", {"completion": "after_effects", "income": "after_action", "resolution": "two_phase"}),
    ("7wd-default", {"completion": "after_effects", "income": "when_chosen", "coin_cap": 9}),
]
GAMES = int(os.environ.get("REPLAY_TRUSTED_GAMES", scaled(250, 2_000)))


def _games(count: int, seed: int) -> list[list[Event]]:
    rng = random.Random(seed)
    packs = shipped_rulesets()
    games = []
    for i in range(count):
        pack, update = OPTIONS[i % len(OPTIONS)]
        rules = packs[pack]
        players = 2 + i % 6  # every player count under every option set
        bots = rng.choice([("random",), ("greedy",), ("greedy", "random"), ("random", "greedy")])
        games.append(simulate_game(f"t{i}", NAMES[:players], seed * 100_000 + i, bots, rules,
                                   rules.options.model_copy(update=update)))
    return games


def test_trusted_and_checking_apply_agree_after_every_event():
    """The two replays side by side: after every event, the same table (what the state hash digests:
    equal ``to_dict``, equal hash; compared as data, it is quicker), and the hashes themselves every
    16th event and at the end."""
    assert GAMES > 0
    for events in _games(GAMES, 11):
        checked, trusted = Replay(GAME, level="raise"), Replay(GAME, level="raise")
        for i, e in enumerate(events):
            a, b = checked.push(e).state, trusted.push_trusted(e).state
            assert a is not None and b is not None
            assert a.to_dict() == b.to_dict(), f"{e.game_id} event {e.seq} ({e.type})"
            if i % 16 == 0 or i == len(events) - 1:
                assert a.state_hash() == b.state_hash()


def test_trusted_apply_leaves_what_the_checks_keep():
    """The audit memory and the two-phase bookkeeping (outside the hash) agree too: the snapshots match."""
    for events in _games(40, 12):
        checked, trusted = Replay(GAME, level="raise").run(events), Replay(GAME, level="raise")
        for e in events:
            trusted.push_trusted(e)
        assert GAME.rules.snapshot(trusted.state) == GAME.rules.snapshot(checked.state)


@pytest.mark.parametrize("players", [2, 4, 7])
def test_trusted_apply_of_an_unchecked_game_falls_back_on_start(players):
    """The start event always goes the checking way (a pack to find, seats to validate)."""
    events = simulate_game("s", NAMES[:players], 5, ("random",))
    r = Replay(GAME, level="raise")
    step = r.push_trusted(events[0])
    assert step.index == 0 and step.state is not None and r.pack is not None


def test_seeking_a_disputed_game_applies_only_accepted_events_trusted():
    """Seeking replays from a snapshot, trusting the events the index's replay accepted without a
    problem and checking the others: in a game with refused actions and wrong claims, the state at
    every event is the straight lenient replay's."""
    from replay.snapshots import GameIndex

    for k, events in enumerate(_games(16, 13)):
        events = list(events)
        rng = random.Random(k)
        actions = [i for i, e in enumerate(events) if e.type == "action_taken"]
        for i in rng.sample(actions, 6):
            p = dict(events[i].payload)
            if rng.random() < 0.5:
                p["claims"] = {"paid": 9, "vp": 9, "coins": 99}
            else:
                p["steps"] = [{"kind": "build", "die": "grey1", "building": "wonder", "lane": "x", "space": "nowhere"}]
            events[i] = events[i]._replace(payload=p)
        library = GAME.library()
        index = GameIndex.build(GAME, events, library, head="h")
        assert index.all_problems()
        straight, hashes = Replay(GAME, library), []
        for e in events:
            straight.push(e)
            hashes.append(straight.state.state_hash())
        for i in range(len(events)):
            assert index.seek(GAME, events, i, library).state_hash() == hashes[i], (k, i)
