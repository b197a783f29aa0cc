"""The compiled bots (``_cbots``, see ``cbots.py``) against the pure-Python code, their reference:
the same draws and orders for the shuffle and ``randrange``, the same candidate list for every prompt
of simulated games, and the same bytes for thousands of whole seeded games under every option set.

Where the extension is not built (no compiler when the package was installed) these tests are
skipped, saying so; with ``REPLAY_REQUIRE_COMPILED=1`` (CI, ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys

import pytest
from helpers import require_compiled, scaled

from replay.games.wonders_dice import cbots, simulate, simulate_game
from replay.games.wonders_dice.bots import RandomBot, below, shuffler
from replay.games.wonders_dice.engine import (
    Prompt,
    StepKey,
    action_candidates,
    board_tables,
    candidate_ok,
    cross_candidates,
    first_legal,
    legal_candidates,
)
from replay.games.wonders_dice.projector import states
from replay.games.wonders_dice.rules_data import shipped_rulesets
from replay.jsonl import dump_line

require_compiled(cbots.BUILT_CANDIDATES, cbots.NOT_BUILT)

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]
UPDATES = [
    ("7wd-default", {}),
    ("7wd-default-0.1.0", {}),
    ("7wd-default", {"resolution": "two_phase", "void_actions": True}),
    ("7wd-default", {"resolution": "seat_order", "free_action_wonder": True, "resources": "spent"}),
    ("7wd-default", {"coin_cap": 12, "barracks": "one_building", "income": "when_chosen", "cross_mandatory": True,
                     "extra_action_pass": True}),
    ("7wd-default", {"completion": "after_effects", "income": "after_action", "resolution": "simultaneous"}),
]


def test_shuffle_and_draws_compiled_are_the_pythons():
    for seed in range(300):
        rngs = [random.Random(seed) for _ in range(3)]
        with cbots.use(True):
            shuffle_c, below_c = shuffler(rngs[0]), below(rngs[0])
        with cbots.use(False):
            shuffle_py, below_py = shuffler(rngs[1]), below(rngs[1])
        for n in [0, 1, 2, 3, 5, 8, 9, 16, 17, 31, 64, 257]:
            lists = [list(range(n)) for _ in range(3)]
            shuffle_c(lists[0])
            shuffle_py(lists[1])
            rngs[2].shuffle(lists[2])
            assert lists[0] == lists[1] == lists[2]
            if n:
                assert below_c(n) == below_py(n) == rngs[2].randrange(n)
        assert rngs[0].getstate() == rngs[1].getstate() == rngs[2].getstate()


def test_draws_read_from_the_generators_state_are_its_own():
    """The compiled draws read the standard generator's state (checked by drawing at import): the same numbers
    as calling ``getrandbits``, across the state's renewals and for every width; a width over 32 bits, or a
    generator whose ``getrandbits`` is its own Python, is called back."""
    assert cbots.DIRECT_DRAWS
    ns = [1, 2, 3, 6, 7, 100, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**40 + 3]
    for seed in range(20):
        direct, called = random.Random(seed), random.Random(seed)
        for i in range(2_000):  # ~3 renewals of the 624-word state
            n = ns[i % len(ns)]
            assert cbots.BUILT_BELOW(direct.getrandbits, n) == called.randrange(n)
        assert direct.getstate() == called.getstate()

    class Counting(random.Random):
        calls = 0

        def getrandbits(self, k: int) -> int:
            Counting.calls += 1
            return super().getrandbits(k)

    counting = Counting(5)
    assert cbots.BUILT_BELOW(counting.getrandbits, 6) == random.Random(5).randrange(6) and Counting.calls >= 1


def test_direct_draws_switch_off_and_on_with_the_same_games():
    try:
        assert not cbots.direct_draws(False)
        off = _digest(scaled(40, 400), 70_000)
        assert cbots.direct_draws(True)
        assert _digest(scaled(40, 400), 70_000) == off
        with pytest.raises(TypeError):
            cbots.BUILT_GENERATOR(1, 2)
        assert not cbots.BUILT_GENERATOR(random.Random(1).getrandbits, random.Random(2).getrandbits)  # not twins
        assert not cbots.BUILT_GENERATOR(len, len)  # not a generator's
    finally:
        cbots.direct_draws(True)
    assert cbots.DIRECT_DRAWS


def test_compiled_functions_refuse_what_they_do_not_take():
    assert cbots.BUILT_SHUFFLE is not None and cbots.BUILT_BELOW is not None and cbots.BUILT_CANDIDATES is not None
    getrandbits = random.Random(1).getrandbits
    with pytest.raises(TypeError):
        cbots.BUILT_SHUFFLE(getrandbits, (1, 2, 3))  # a tuple cannot be shuffled in place
    for n in (0, -3, 2**70):
        with pytest.raises(ValueError):
            cbots.BUILT_BELOW(getrandbits, n)
    with pytest.raises(TypeError):  # a lane that is not (building, ordered, spaces, keys)
        cbots.BUILT_CANDIDATES(None, (("wonder", True, ("a",)),), None, {}, {}, None, {})
    with pytest.raises(TypeError):  # spaces and keys of different lengths
        cbots.BUILT_CANDIDATES(None, (("wonder", False, ("a", "b"), ("k",)),), None, {}, {}, None, {})
    lanes = (("wonder", True, ("a", "b", "c"), ("ka", "kb", "kc")), ("agora", False, ("x", "y", "z"), ("kx", "ky", "kz")))
    assert cbots.BUILT_CANDIDATES("pass", lanes, None, {}, {}, None, {"wonder": {"a"}, "agora": {"y"}}) == [
        "pass", "kb", "kx", "kz"]


class _Comparing(RandomBot):
    """A random bot that first lists every action prompt's candidates both ways (a subclass: the
    simulation asks it through its prompts)."""

    compared = 0

    def choose(self, prompt: Prompt) -> StepKey:
        if prompt.kind in ("main", "extra"):
            with cbots.use(False):
                python = list(prompt.candidates())
            with cbots.use(True):
                compiled = list(prompt.candidates())
            assert compiled == python
            _Comparing.compared += 1
        return super().choose(prompt)


def test_every_prompts_candidates_are_the_pythons(monkeypatch):
    monkeypatch.setattr(simulate, "RandomBot", _Comparing)
    packs = shipped_rulesets()
    for i in range(scaled(60, 600)):
        pack, update = UPDATES[i % len(UPDATES)]
        rules = packs[pack]
        simulate_game(f"p{i}", NAMES[:2 + i % 6], 80_000 + i, ("random",), rules, rules.options.model_copy(update=update))
    assert _Comparing.compared > 10_000


def test_every_candidates_verdict_is_the_pythons():
    """first_ok against candidate_ok, candidate by candidate, for every player after every event of
    simulated games (free and paid dice), and the first legal one and all of them, of each list both ways;
    and the same for every space of the player's board a crossing could take (cross_candidates)."""
    assert cbots.BUILT_FIRST_OK is not None and cbots.BUILT_ALL_OK is not None
    packs = shipped_rulesets()
    asked = []

    def slow(state, p, c, free):  # the Python, for what the C leaves to it (a Guild Court space)
        asked.append(c)
        return candidate_ok(state, p, c, free)

    decided = crossed = legal_crossings = 0
    for i in range(scaled(24, 240)):
        pack, update = UPDATES[i % len(UPDATES)]
        rules = packs[pack]
        options = rules.options.model_copy(update=update)
        events = simulate_game(f"v{i}", NAMES[:2 + i % 6], 90_000 + i, ("random",), rules, options)
        for event, state in states(events):
            if event.type != "dice_rolled" and event.type != "action_taken":
                continue
            for p in state.players:
                candidates = action_candidates(state, p, board_tables(state.rules, p.board))
                for free in (False, True):
                    for c in candidates:
                        expected = candidate_ok(state, p, c, free)
                        assert (cbots.BUILT_FIRST_OK([c], state, p, free, slow) is c) == expected, (c, free)
                        decided += 1
                    with cbots.use(False):
                        python = first_legal(state, p, candidates, free)
                    assert cbots.BUILT_FIRST_OK(candidates, state, p, free, slow) == python
                    with cbots.use(False):
                        python_all = legal_candidates(state, p, candidates, free)
                    assert cbots.BUILT_ALL_OK(candidates, state, p, free, slow) == python_all
                crossings = cross_candidates(state, p, board_tables(state.rules, p.board), tuple(p.board))
                for c in crossings:  # a crossing: a space built with no die (free False), as the Wonder is
                    expected = candidate_ok(state, p, c, False)
                    assert (cbots.BUILT_FIRST_OK([c], state, p, False, slow) is c) == expected, c
                    crossed += 1
                    legal_crossings += expected
                with cbots.use(False):
                    python_crossings = legal_candidates(state, p, crossings, False)
                assert cbots.BUILT_ALL_OK(crossings, state, p, False, slow) == python_crossings
    assert decided > 100_000
    assert crossed > 50_000 and 0 < legal_crossings < crossed  # both verdicts seen
    assert asked and len(asked) < decided / 10  # the Guild Court's spaces went to the Python; the rest did not


def _digest(count: int, seed: int) -> str:
    packs = shipped_rulesets()
    h = hashlib.sha256()
    for i in range(count):
        pack, update = UPDATES[i % len(UPDATES)]
        rules = packs[pack]
        bots = ("greedy", "random") if i % 10 == 0 else ("random",)
        for e in simulate_game(f"s{i}", NAMES[:2 + i % 6], seed + i, bots, rules, rules.options.model_copy(update=update)):
            h.update(dump_line(e).encode())
    return h.hexdigest()


def test_whole_seeded_games_are_the_same_bytes_both_ways():
    count = scaled(400, 10_000)
    with cbots.use(True) as on:
        assert on
        compiled = _digest(count, 500_000)
    with cbots.use(False) as on:
        assert not on
        python = _digest(count, 500_000)
    assert compiled == python


def test_replay_pure_forces_the_python_code():
    """REPLAY_PURE=1 in the environment: the compiled bots are off, and a game simulates to the same bytes."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from test_wd_cbots import _digest; "
            "from replay.games.wonders_dice import cbots; print(cbots.active(), _digest(12, 7))")
    env = {**os.environ, "REPLAY_PURE": "1"}
    # run from the tests' folder: from the checkout's root, `replay` would be its sources, never built
    done = subprocess.run([sys.executable, "-c", code, os.path.dirname(__file__)], env=env, capture_output=True, text=True,
                          check=True, cwd=os.path.dirname(__file__))
    with cbots.use(True):
        assert done.stdout.split() == ["False", _digest(12, 7)]


def test_the_listing_finds_a_dies_lanes_again_only_in_the_tables_it_read_them_from():
    """The compiled listing keeps the lanes it read by the addresses of (tables.keys, die, colour, face): the same
    die, colour and face objects in another board's tables give that board's lanes, and tables dropped meanwhile
    cannot lend their address to new ones (the entry holds them)."""
    die, colour, face = "die-x", "grey", "face-y"
    forum, roll = {die: colour}, {die: (face, 0)}

    def lanes(building: str) -> tuple[tuple[str, bool, tuple[str], tuple[StepKey]], ...]:
        return ((building, False, ("s",), (StepKey("build", die, building, "l", "s", None),)),)

    def never(*_key: str) -> None:
        raise AssertionError("every lanes looked up are made already")

    made_a, made_b = {(die, colour, face): lanes("a")}, {(die, colour, face): lanes("b")}
    for _ in range(3):
        assert cbots.BUILT_CANDIDATES(None, (), forum, roll, made_a, never, {}) == [made_a[die, colour, face][0][3][0]]
        assert cbots.BUILT_CANDIDATES(None, (), forum, roll, made_b, never, {}) == [made_b[die, colour, face][0][3][0]]
        assert cbots.BUILT_CANDIDATES(None, (), forum, roll, made_a, never, {"a": {"s"}}) == []
    for i in range(50):  # new tables, each read once, then dropped
        made = {(die, colour, face): lanes(f"n{i}")}
        assert cbots.BUILT_CANDIDATES(None, (), forum, roll, made, never, {})[0].building == f"n{i}"
