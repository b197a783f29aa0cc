"""Bots: choosers that play. ``random`` picks uniformly among legal answers; ``greedy``
values each answer by what it gains now against what it costs, and plays sensibly."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from . import cbots
from .engine import (
    _PASS,
    BoardTables,
    DirectChooser,
    Prompt,
    StepKey,
    action_candidates,
    candidate_ok,
    construction_coins,
    die_cost,
    first_legal,
    legal_candidates,
)
from .rules_data import Effect
from .state import GameState, PlayerState

_SKIP = StepKey("skip")


def _standard(rng: random.Random) -> bool:
    """Whether ``rng`` draws as CPython's own generator does: ``_randbelow(n)`` is
    ``getrandbits(n.bit_length())`` repeated until below ``n`` (``_randbelow_with_getrandbits``)."""
    methods = vars(random.Random)
    return type(rng) is random.Random and methods.get("_randbelow") is methods.get("_randbelow_with_getrandbits")


def below(rng: random.Random) -> Callable[[int], int]:
    """``n -> rng.randrange(n)``, drawing exactly the same numbers (``rng.choice(seq)`` is
    ``seq[below(len(seq))]``), with fewer calls: for the standard generator, its ``_randbelow``
    written out; for any other, ``rng.choice(range(n))`` itself."""
    if not _standard(rng):
        return lambda n: rng.choice(range(n))
    getrandbits = rng.getrandbits
    fast = cbots.BELOW
    if fast is not None:
        return partial(fast, getrandbits)  # the same loop, compiled (cbots.py)

    def draw(n: int) -> int:
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    return draw


def shuffler(rng: random.Random) -> Callable[[list[Any]], None]:
    """``rng.shuffle``, drawing exactly the same numbers and giving the same order, faster: for the
    standard generator, its Fisher-Yates loop with ``_randbelow`` written out (compiled where
    ``_cbots`` is built); for any other generator (a subclass with its own ``random``),
    ``rng.shuffle`` itself."""
    if not _standard(rng):
        return rng.shuffle
    getrandbits = rng.getrandbits
    fast = cbots.SHUFFLE
    if fast is not None:
        return partial(fast, getrandbits)  # the same loop, compiled (cbots.py)

    def shuffle(x: list[Any]) -> None:
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]

    return shuffle


class RandomBot(DirectChooser):
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.shuffle = shuffler(rng)
        self.getrandbits = rng.getrandbits if _standard(rng) else None
        """The standard generator's own draws, which the compiled ``main`` makes itself; None: another generator."""

    def choose(self, prompt: Prompt) -> StepKey:
        # The first legal answer of a random permutation is uniform among the legal answers,
        # and usually needs only a few checks (the prompt's cheaper check of listed candidates).
        candidates = list(prompt.candidates())
        if prompt.can_skip:
            candidates.append(_SKIP)
        self.shuffle(candidates)
        ok = prompt.candidate_ok
        if ok is None:
            for c in candidates:
                if prompt.check(c) is None:
                    return c
        else:
            for c in candidates:
                if c is _SKIP or ok(c):
                    return c
        raise AssertionError(f"a {prompt.kind} prompt with no legal answer")

    def main(self, state: GameState, p: PlayerState, tables: BoardTables) -> StepKey:
        """The answer :meth:`choose` gives to ``p``'s main prompt, without the prompt (a simulation's
        fast path): the same candidates in the same order, the same draws, the same pick (listed, shuffled
        and checked in one compiled call where built, for the standard generator)."""
        fast = cbots.RANDOM_MAIN
        if fast is not None and self.getrandbits is not None:
            chosen: StepKey | None = fast(self.getrandbits, _PASS, tables, state, p, candidate_ok)
            if chosen is None:
                raise AssertionError("a main prompt with no legal answer")  # pass is always legal
            return chosen
        candidates = action_candidates(state, p, tables)
        self.shuffle(candidates)
        found = first_legal(state, p, candidates, False)
        if found is None:
            raise AssertionError("a main prompt with no legal answer")  # pass is always legal
        return found

    def extra(self, state: GameState, p: PlayerState, tables: BoardTables, allowed: tuple[str, ...], free: bool) -> StepKey:
        """The answer :meth:`choose` gives to the extra prompt: the candidates and skip shuffled, then the
        first legal answer (skip always is one)."""
        found = self._first_answer(state, p, action_candidates(state, p, tables, allowed), True, free)
        assert found is not None  # skip is legal
        return found

    def cross(self, state: GameState, p: PlayerState, candidates: list[StepKey], can_skip: bool) -> StepKey:
        """The answer :meth:`choose` gives to the cross prompt: the first legal answer of the shuffle."""
        found = self._first_answer(state, p, candidates, can_skip, False)
        if found is None:
            raise AssertionError("a cross prompt with no legal answer")
        return found

    def _first_answer(self, state: GameState, p: PlayerState, candidates: list[StepKey], can_skip: bool,
                      free: bool) -> StepKey | None:
        """The first legal answer of ``candidates`` (and skip, when it is one) shuffled, as :meth:`choose` finds
        it: the first legal candidate shuffled before skip (checked in one call, compiled where built), else
        skip; None when there is neither."""
        if can_skip:
            candidates.append(_SKIP)
        self.shuffle(candidates)
        i = candidates.index(_SKIP) if can_skip else len(candidates)
        found = first_legal(state, p, candidates[:i], free) if i else None
        return _SKIP if found is None and can_skip else found

    def bonus(self, candidates: list[StepKey]) -> StepKey:
        """The answer :meth:`choose` gives to the bonus prompt (every free slot is legal): the first of the shuffle."""
        self.shuffle(candidates)
        return candidates[0]


_EFFECT_VALUE = {
    "resource": 2.0, "shield": 1.2, "coins": 0.45, "cross": 2.5, "extra_action": 3.0, "die_discount": 1.5,
    "die_free": 2.0, "income": 1.5, "unlock": 2.5,
}


class GreedyBot(DirectChooser):
    """Best immediate value; ties broken by the seeded generator."""

    def __init__(self, rng: random.Random, state: GameState, seat: int) -> None:
        self.rng, self.state, self.seat = rng, state, seat

    def choose(self, prompt: Prompt) -> StepKey:
        options = prompt.options()
        if not options:
            raise AssertionError(f"a {prompt.kind} prompt with no legal answer")
        return self._best(options)

    def main(self, state: GameState, p: PlayerState, tables: BoardTables) -> StepKey:
        """The answer :meth:`choose` gives to the main prompt, without the prompt (a simulation's
        fast path): the same options in the same order, the same draws, the same pick."""
        return self._best(legal_candidates(state, p, action_candidates(state, p, tables), False))

    def extra(self, state: GameState, p: PlayerState, tables: BoardTables, allowed: tuple[str, ...], free: bool) -> StepKey:
        """The answer :meth:`choose` gives to the extra prompt: the best of its legal candidates and skip."""
        options = legal_candidates(state, p, action_candidates(state, p, tables, allowed), free)
        options.append(_SKIP)
        return self._best(options)

    def cross(self, state: GameState, p: PlayerState, candidates: list[StepKey], can_skip: bool) -> StepKey:
        """The answer :meth:`choose` gives to the cross prompt: the best of its legal answers."""
        options = legal_candidates(state, p, candidates, False)
        if can_skip:
            options.append(_SKIP)
        return self._best(options)

    def bonus(self, candidates: list[StepKey]) -> StepKey:
        """The answer :meth:`choose` gives to the bonus prompt: the best slot (every free one is legal)."""
        return self._best(candidates)

    def _best(self, options: list[StepKey]) -> StepKey:
        p = self.state.players[self.seat]
        scored = [(self._value(p, o), self.rng.random(), o) for o in options]
        return max(scored)[2]

    def _value(self, p: PlayerState, s: StepKey) -> float:
        coin_weight = 0.6 if p.coins < 6 else 0.25  # coins matter less the more you hold
        if s.kind == "skip":
            return 0.0
        if s.kind == "pass":
            return self.state.rules.start.pass_coins * coin_weight
        if s.kind == "bonus":
            assert s.slot is not None  # a bonus option names its slot
            return sum(self._effect_value(p, e) for e in self.state.rules.bonus_slots.slots[s.slot])
        assert s.building is not None and s.space is not None  # every other legal option names its space
        b = p.board[s.building]
        space = b.space[s.space]
        cost = construction_coins(p, space.cost) + (die_cost(self.state, p, s.die, False) if s.die else 0)
        value = 1.0 + sum(self._effect_value(p, e) for e in space.effects)  # every space is progress
        left = len(b.spaces) - len(p.crossed.get(s.building, ())) - 1
        if b.bonus_on_complete:
            value += 4.0 if left == 0 else 2.0 / (1 + left)
        return value - coin_weight * cost

    def _effect_value(self, p: PlayerState, e: Effect) -> float:
        early = max(0.2, 1.0 - self.state.turn / 20)
        if e.type == "vp":
            return float(e.vp)
        if e.type == "attack":
            return max(0.0, e.vp - 1.0)
        if e.type == "coins":
            return e.amount * 0.45
        if e.type == "per_space":
            assert e.building is not None  # Effect._parameters requires it
            n = p.count(e.building) + 1
            return e.coins * n * 0.45 + e.vp * n
        if e.type == "vp_per_leader_end":
            return e.vp * 2.0
        if e.type in ("resource", "die_discount", "die_free", "income", "unlock"):
            return _EFFECT_VALUE[e.type] * (0.5 + early)
        return _EFFECT_VALUE.get(e.type, 0.5)


BOTS = ("random", "greedy")

PLAIN = (RandomBot, GreedyBot)
"""The bots whose ``main`` a simulation calls instead of asking the main prompt (a subclass, e.g. a
test's, is asked through its prompts)."""
