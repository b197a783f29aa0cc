"""The compiled trusted entry (``_ckernel.trusted_action``, ``compiled.TRUSTED``: what the simulation
applies its bots' one-step actions with) against its reference, ``kernel.direct_action(trusted=True)``:
on every action's first step of seeded games under several option sets (what the simulation hands
it), both applied to copies of the table before it: the same verdict ((paid, VP), or None) and the same
table after (state hash). With one of the acting player's values made odd (a big int, a bool), the
compiled entry either agrees or declines with nothing changed.

Where the extension is not built these tests are skipped, saying so (``REPLAY_REQUIRE_COMPILED=1``:
they fail instead).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from helpers import require_compiled, scaled
from test_wd_compiled import _odd_player

from replay.driver import Replay
from replay.events import Event
from replay.games.wonders_dice import GAME, compiled, simulate_game
from replay.games.wonders_dice.kernel import direct_action
from replay.games.wonders_dice.rules_data import shipped_rulesets
from replay.games.wonders_dice.state import GameState

require_compiled(compiled.BUILT_TRUSTED, compiled.NOT_BUILT)

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]
OPTIONS = [
    ("7wd-default", {}),
    ("7wd-default-0.1.0", {}),
    ("7wd-default", {"resolution": "seat_order", "resources": "spent", "income": "when_chosen"}),
    ("7wd-default", {"resolution": "simultaneous", "income": "after_action", "coin_cap": 9}),
    ("7wd-default", {"coin_cap": 12, "barracks": "one_building", "income": "after_paying", "cross_mandatory": True,
                     "free_action_wonder": True, "completion": "after_effects"}),
]


def _games(count: int, seed: int) -> list[list[Event]]:
    packs = shipped_rulesets()
    games = []
    for i in range(count):
        pack, update = OPTIONS[i % len(OPTIONS)]
        rules = packs[pack]
        bots = ("greedy", "random") if i % 6 == 0 else ("random",)
        games.append(simulate_game(f"k{i}", NAMES[:2 + i % 6], seed * 100_000 + i, bots, rules,
                                   rules.options.model_copy(update=update)))
    return games


def _first_steps(games: list[list[Event]]) -> Iterator[tuple[GameState, int, dict[str, Any]]]:
    """(the table before it, the seat, its first step) for every action of the games, as the simulation
    hands them to the kernel (the table replayed purely)."""
    with compiled.use(False):
        for events in games:
            r = Replay(GAME, level="raise")
            for e in events:
                if e.type == "action_taken" and r.state is not None:
                    yield r.state, e.payload["player"], e.payload["steps"][0]
                r.push(e)


def _pure(state: GameState, seat: int, step: dict[str, Any]) -> Any:
    try:
        return direct_action(state, seat, step, trusted=True)
    except (TypeError, ValueError, OverflowError, KeyError) as odd:  # an odd value the Python code trips on
        return type(odd)


def test_trusted_entry_agrees_with_direct_action() -> None:
    """Every first step of 30 games (600 with REPLAY_FUZZ=long) (2-7 players, five option sets): the compiled entry and
    kernel.direct_action give the same verdict and leave the same table; the compiled entry takes at
    least nine in ten of them (it declines only what the Python code declines: a question, a bonus slot)."""
    trusted = compiled.BUILT_TRUSTED
    assert trusted is not None
    compared = taken = 0
    for state, seat, step in _first_steps(_games(scaled(30, 600), 31)):
        mine, theirs = state.copy(), state.copy()
        found = trusted(mine, seat, dict(step))
        assert found == _pure(theirs, seat, dict(step)), (state.seq, step)
        assert mine.state_hash() == theirs.state_hash(), (state.seq, step)
        compared += 1
        taken += found is not None
    assert compared > 3000
    assert taken > 0.85 * compared


def test_trusted_entry_declines_or_agrees_on_odd_values() -> None:
    """Every first step of 12 games applied both ways with one of the acting player's values made odd
    (a big int, a bool, an odd seat): the compiled entry agrees with direct_action, or declines with
    the table untouched."""
    trusted = compiled.BUILT_TRUSTED
    assert trusted is not None
    rng = random.Random(41)
    agreed = declined = 0
    for state, seat, step in _first_steps(_games(12, 42)):
        odd = state.copy()
        _odd_player(odd, seat, rng)
        before = odd.state_hash()
        mine, theirs = odd.copy(), odd.copy()
        found = trusted(mine, seat, dict(step))
        if found is None:
            assert mine.state_hash() == before, step
            declined += 1
            continue
        assert found == _pure(theirs, seat, dict(step)), step
        assert mine.state_hash() == theirs.state_hash(), step
        agreed += 1
    assert agreed > 100 and declined > 100


def test_compiled_roll_draws_and_makes_what_the_python_loop_does() -> None:
    """``cbots.roll`` (the simulation's roll in C) against the loop it replaces, on 300 seeds and the
    Forum of every shipped pack (and one with a special die swapped in): the same event dicts (keys in
    the same order), the same roll, and the generator left in the same state."""
    from replay.games.wonders_dice.bots import below
    from replay.games.wonders_dice.cbots import BUILT_ROLL

    assert BUILT_ROLL is not None
    for rules in shipped_rulesets().values():
        faces = {c: [f.face for f in die.faces] for c, die in rules.die.items()}
        sections = len(rules.start.forum_sections)
        forum = _forum(rules)
        for forum_now in (forum, {**forum, "x": next(c for c in faces if c not in forum.values())}):
            for seed in range(300):
                mine, theirs = random.Random(seed), random.Random(seed)
                dice, roll = BUILT_ROLL(mine.getrandbits, forum_now, faces, sections)
                draw = below(theirs)
                want_dice, want_roll = [], {}
                for d, c in forum_now.items():
                    face = faces[c][draw(len(faces[c]))]
                    section = draw(sections)
                    want_dice.append({"id": d, "colour": c, "face": face, "section": section})
                    want_roll[d] = (face, section)
                assert [list(x.items()) for x in dice] == [list(x.items()) for x in want_dice]
                assert roll == want_roll and list(roll) == list(want_roll)
                assert mine.getstate() == theirs.getstate()


def _forum(rules: Any) -> dict[str, str]:
    """A new game's Forum under ``rules`` (die id to colour), from the first table a simulation starts with."""
    events = simulate_game("f", NAMES[:2], 1, ("random",), rules)
    with compiled.use(False):
        r = Replay(GAME, level="raise")
        r.push(events[0])
        assert r.state is not None
        return dict(r.state.forum)
