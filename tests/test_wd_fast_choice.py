"""What the bots' fast paths rest on: the written-out shuffle and draws give the generator's own
numbers, and a prompt's cheaper check of its listed candidates agrees with its full check."""

from __future__ import annotations

import random

from replay.games.wonders_dice import simulate, simulate_game
from replay.games.wonders_dice.bots import GreedyBot, RandomBot, below, shuffler
from replay.games.wonders_dice.engine import Prompt, StepKey
from replay.games.wonders_dice.rules_data import shipped_rulesets
from replay.jsonl import dump_line

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]


def test_shuffle_and_draws_are_the_generators_own():
    for seed in range(200):
        mine, theirs = random.Random(seed), random.Random(seed)
        shuffle, draw = shuffler(mine), below(mine)
        for n in [0, 1, 2, 3, 7, 8, 9, 16, 17, 33, 64, 100]:
            a, b = list(range(n)), list(range(n))
            shuffle(a)
            theirs.shuffle(b)
            assert a == b
            if n:
                assert draw(n) == theirs.randrange(n)
                assert [n, n + 1][draw(2)] == theirs.choice([n, n + 1])
        assert mine.getstate() == theirs.getstate()


class _Odd(random.Random):
    def random(self) -> float:  # a generator of its own: the fast paths step aside
        return super().random()


def test_other_generators_use_their_own_methods():
    rng = _Odd(3)
    assert shuffler(rng) == rng.shuffle
    draw = below(rng)
    other = _Odd(3)
    assert [draw(n) for n in range(1, 30)] == [other.randrange(n) for n in range(1, 30)]


class _Checking(RandomBot):
    """A random bot that first checks the prompt's cheaper check against the full one on every candidate."""

    checked = 0

    def choose(self, prompt: Prompt) -> StepKey:
        if prompt.candidate_ok is not None:
            for c in prompt.candidates():
                assert prompt.candidate_ok(c) == (prompt.problem(c) is None), (prompt.kind, c, prompt.problem(c))
                _Checking.checked += 1
        return super().choose(prompt)


def test_the_cheaper_check_agrees_with_the_full_one(monkeypatch):
    monkeypatch.setattr(simulate, "RandomBot", _Checking)
    packs = shipped_rulesets()
    updates = [{}, {"income": "when_chosen", "coin_cap": 9, "extra_action_pass": True},
               {"resolution": "seat_order", "free_action_wonder": True, "resources": "spent"},
               {"resolution": "two_phase", "completion": "after_effects"}]
    for i in range(120):
        rules = packs["7wd-default-0.1.0" if i % 5 == 0 else "7wd-default"]
        simulate_game(f"c{i}", NAMES[:2 + i % 6], 60_000 + i, ("random",), rules,
                      rules.options.model_copy(update=updates[i % len(updates)]))
    assert _Checking.checked > 50_000


class _Prompted(RandomBot):
    """A random bot asked through its prompts (a subclass: the simulation's fast main path steps aside)."""


class _PromptedGreedy(GreedyBot):
    pass


def test_the_bots_main_without_a_prompt_gives_the_same_games(monkeypatch):
    """The simulation's fast path (the bot's ``main`` and the fused kernel) against every action asked
    through the resolver's prompts: the same events, byte for byte."""
    packs = shipped_rulesets()

    def games() -> list[str]:
        out = []
        for i in range(60):
            rules = packs["7wd-default-0.1.0" if i % 5 == 0 else "7wd-default"]
            options = rules.options.model_copy(update=[{}, {"income": "when_chosen", "coin_cap": 9}, {"resolution": "seat_order"},
                                                       {"completion": "after_effects", "void_actions": True}][i % 4])
            bots = ("greedy", "random") if i % 3 == 0 else ("random",)
            out += [dump_line(e) for e in simulate_game(f"m{i}", NAMES[:2 + i % 6], 70_000 + i, bots, rules, options)]
        return out

    fast = games()
    monkeypatch.setattr(simulate, "RandomBot", _Prompted)
    monkeypatch.setattr(simulate, "GreedyBot", _PromptedGreedy)
    assert games() == fast
