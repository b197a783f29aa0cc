"""What the bots' fast paths rest on: the written-out shuffle and draws give the generator's own
numbers, and a prompt's cheaper check of its listed candidates agrees with its full check."""

from __future__ import annotations

import random
from collections import Counter

from replay.games.wonders_dice import simulate, simulate_game
from replay.games.wonders_dice.bots import GreedyBot, RandomBot, below, shuffler
from replay.games.wonders_dice.engine import Prompt, StepKey
from replay.games.wonders_dice.rules_data import Ruleset, shipped_rulesets
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

    checked: Counter[str] = Counter()
    verdicts: Counter[bool] = Counter()

    def choose(self, prompt: Prompt) -> StepKey:
        if prompt.candidate_ok is not None:
            for c in prompt.candidates():
                ok = prompt.candidate_ok(c)
                assert ok == (prompt.problem(c) is None), (prompt.kind, c, prompt.problem(c))
                _Checking.checked[prompt.kind] += 1
                if prompt.kind == "cross":
                    _Checking.verdicts[ok] += 1
        return super().choose(prompt)


def test_the_cheaper_check_agrees_with_the_full_one(monkeypatch):
    monkeypatch.setattr(simulate, "RandomBot", _Checking)
    _Checking.checked.clear()
    _Checking.verdicts.clear()
    packs = shipped_rulesets()
    heavy = _follow_up_pack()
    updates = [{}, {"income": "when_chosen", "coin_cap": 9, "extra_action_pass": True},
               {"resolution": "seat_order", "free_action_wonder": True, "resources": "spent"},
               {"resolution": "two_phase", "completion": "after_effects"}]
    for i in range(120):
        rules = packs["7wd-default-0.1.0"] if i % 5 == 0 else heavy if i % 3 == 1 else packs["7wd-default"]
        simulate_game(f"c{i}", NAMES[:2 + i % 6], 60_000 + i, ("random",), rules,
                      rules.options.model_copy(update=updates[i % len(updates)]))
    assert _Checking.checked.total() > 50_000
    # the crossings' cheaper check (candidate_ok on cross_candidates) too, both verdicts, and the extra actions'
    assert _Checking.checked["cross"] > 1_000 and _Checking.checked["extra"] > 1_000, _Checking.checked
    assert min(_Checking.verdicts[True], _Checking.verdicts[False]) > 50, _Checking.verdicts


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


class _Asked(RandomBot):
    """A random bot asked through its prompts, counting the questions and answers by kind."""

    asked: Counter[tuple[str, str]] = Counter()

    def choose(self, prompt: Prompt) -> StepKey:
        return _count(prompt, super().choose(prompt))


class _AskedGreedy(GreedyBot):
    def choose(self, prompt: Prompt) -> StepKey:
        return _count(prompt, super().choose(prompt))


def _count(prompt: Prompt, step: StepKey) -> StepKey:
    _Asked.asked[prompt.kind, step.kind] += 1
    if prompt.kind == "cross" and step.building in ("guild_court", "gallery"):
        _Asked.asked["cross", step.building] += 1
    return step


FOLLOW_UPS = [
    {},
    # crossings taken whenever one can be (never skipped), a pass as an extra action, a free die on the Wonder
    {"cross_mandatory": True, "extra_action_pass": True, "free_action_wonder": True},
    # completion after the effects (an extra action completing the building from inside: a second bonus),
    # the Barracks as one building, income when the die is chosen, a low coin cap (more refused answers)
    {"completion": "after_effects", "barracks": "one_building", "income": "when_chosen", "coin_cap": 5},
    {"resolution": "seat_order", "void_actions": True, "resources": "spent", "free_action_wonder": False,
     "income": "after_paying"},
    {"cross_mandatory": True, "completion": "at_crossing", "coin_cap": 7, "extra_action_pass": True, "per_space_vp": "max"},
]


def _follow_up_pack() -> Ruleset:
    """The shipped pack with follow-ups everywhere: every crossing may also take the Guild Court or the
    Gallery (a building locked until its die is unlocked, and one with a condition) and crosses two
    spaces, and every space or bonus that gives coins takes an extra action instead (every second one
    with a free die)."""
    data = shipped_rulesets()["7wd-default"].model_dump(mode="json")
    data["version"] = "0.2.0-follow-ups"
    coins = 0

    def edit(x: object) -> None:
        nonlocal coins
        if isinstance(x, dict):
            if x.get("type") == "cross" and "buildings" in x:
                x["buildings"] = [*x["buildings"], "guild_court", "gallery"]
                x["count"] = 2
            elif x.get("type") == "coins" and "free_die" in x:
                x.update(type="extra_action", amount=0, free_die=coins % 2 == 1)
                coins += 1
            for v in x.values():
                edit(v)
        elif isinstance(x, list):
            for v in x:
                edit(v)

    edit(data)
    assert coins > 5
    return Ruleset.model_validate(data)


def test_the_follow_ups_without_prompts_give_the_same_games(monkeypatch):
    """The follow-up questions (a crossing, an extra action, a bonus slot) asked of the plain bots directly
    (``engine.resolve_chosen``) against every question asked through the resolver's prompts: the same
    events, byte for byte, under option sets that change what each follow-up may be, 2 to 7 players."""
    packs = shipped_rulesets()
    heavy = _follow_up_pack()

    def games() -> list[str]:
        out = []
        for i in range(120):
            rules = packs["7wd-default-0.1.0"] if i % 7 == 0 else heavy if i % 4 == 1 else packs["7wd-default"]
            options = rules.options.model_copy(update=FOLLOW_UPS[i % len(FOLLOW_UPS)])
            bots = [("random",), ("greedy",), ("greedy", "random")][i % 3]
            out += [dump_line(e) for e in simulate_game(f"f{i}", NAMES[:2 + i % 6], 80_000 + i, bots, rules, options)]
        return out

    fast = games()
    _Asked.asked.clear()
    monkeypatch.setattr(simulate, "RandomBot", _Asked)
    monkeypatch.setattr(simulate, "GreedyBot", _AskedGreedy)
    assert games() == fast
    asked = _Asked.asked
    # every follow-up came up often, with each kind of answer (a skip, a pass among the extra actions)
    assert asked["cross", "cross"] > 400 and asked["cross", "skip"] > 20, asked
    assert asked["extra", "build"] > 200 and asked["extra", "wonder"] > 20, asked
    assert asked["extra", "skip"] > 20 and asked["extra", "pass"] > 5, asked
    assert asked["bonus", "bonus"] > 500, asked
    assert asked["cross", "guild_court"] > 5 and asked["cross", "gallery"] > 5, asked  # their condition and lock

