"""Whole games: golden replays, determinism, claims, legal moves both ways, bots."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.errors import RuleViolation
from replay.games.wonders_dice import simulate_game
from replay.games.wonders_dice.engine import StepKey, fail_for
from replay.games.wonders_dice.explain import narrate
from replay.games.wonders_dice.legal import legal_actions
from replay.games.wonders_dice.projector import _LogChooser, act, fold, states
from replay.jsonl import dump_line, read_events
from replay.registry import registry

FIXTURES = Path(__file__).parent.parent / "fixtures" / "7wd"
NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]


@pytest.mark.parametrize("name", ["golden-2p", "golden-4p", "golden-2p-0.1.0", "golden-4p-0.1.0"])
def test_golden_games_replay_exactly_as_recorded(name):
    """Every state of the game, as text: each event's changes and the state hash after it. The
    0.1.0 games were recorded under pack 0.1.0 (events at version 2) and replay as they were played."""
    events = list(read_events((FIXTURES / f"{name}.jsonl").read_text().splitlines(True), registry))
    expected = (FIXTURES / f"{name}.replay.txt").read_text()
    assert "\n".join(narrate(events)) + "\n" == expected


def test_golden_fixtures_are_todays_seeded_simulations():
    for name, players, seed in (("golden-2p", NAMES[:2], 11), ("golden-4p", NAMES[:4], 12)):
        events = simulate_game(f"7wd-{name}", players, seed, bots=("greedy", "random"))
        assert "".join(dump_line(e) for e in events) == (FIXTURES / f"{name}.jsonl").read_text()


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 7),
       bots=st.sampled_from([("random",), ("greedy",), ("greedy", "random")]))
def test_same_seed_same_events_and_replays_to_the_same_hashes(seed, players, bots):
    a = simulate_game("g", NAMES[:players], seed, bots)
    assert a == simulate_game("g", NAMES[:players], seed, bots)
    hashes = [s.state_hash() for _, s in states(a)]
    assert hashes == [s.state_hash() for _, s in states(list(a))]
    final = fold(a)
    assert final.phase == "ended" and final.result == a[-1].payload | {}  # the claimed result is the replayed one


def test_a_claim_that_disagrees_with_the_rules_is_reported():
    events = simulate_game("g", NAMES[:3], 5, ("greedy", "random"))
    rng = random.Random(1)
    actions = [i for i, e in enumerate(events) if e.type == "action_taken" and e.payload["claims"]["paid"] > 0]
    for i in rng.sample(actions, 5):
        e = events[i]
        for key in ("paid", "vp", "coins"):
            claims = dict(e.payload["claims"])
            claims[key] += 1
            bad = events[:i] + [e._replace(payload={**e.payload, "claims": claims})] + events[i + 1:]
            with pytest.raises(RuleViolation) as caught:
                fold(bad)
            v = caught.value.violation
            assert (v.rule_id, v.seq, v.turn) == (f"claim.{key}", i, e.payload["turn"])
            assert v.found == str(claims[key]) and v.expected == str(claims[key] - 1)
    end = events[-1]
    scores = [dict(s, total=s["total"] + 1) if s["seat"] == 0 else s for s in end.payload["scores"]]
    with pytest.raises(RuleViolation, match=r"\[claim.score\]"):
        fold(events[:-1] + [end._replace(payload={**end.payload, "scores": scores})])


def _positions(seed: int, players: int, samples: int):
    """States at random action phases of a simulated game (seat, state)."""
    events = simulate_game("g", NAMES[:players], seed, ("random",))
    rng = random.Random(seed)
    picks = sorted(rng.sample([i for i, e in enumerate(events) if e.type == "action_taken"], samples))
    out = []
    for i, (_, state) in enumerate(states(events)):
        if i + 1 in picks:  # the state just before a picked action
            out.append((events[i + 1].payload["player"], state.copy()))
    return out


def _replays(state, seat: int, steps: list[StepKey]) -> bool:
    trial = state.copy()
    trial.next_seat = seat
    dummy = type("E", (), {"seq": 0})()
    chooser = _LogChooser([s.to_dict() for s in steps], fail_for(trial, dummy, seat))
    try:
        act(trial, seat, trial.turn, chooser, fail_for(trial, dummy, seat))
    except RuleViolation:
        return False
    return chooser.i == len(chooser.steps)


@pytest.mark.parametrize("seed, players", [(1, 2), (2, 3), (3, 4), (4, 7)])
def test_legal_actions_replay_and_nothing_legal_is_missing(seed, players):
    for seat, state in _positions(seed, players, 4):
        state.next_seat = seat
        legal = legal_actions(state, seat)
        assert legal and [StepKey("pass")] in legal
        for steps in legal:  # every listed action replays without a violation
            assert _replays(state, seat, steps), steps
        listed = {tuple(s) for s in legal}
        accepted = _fuzz(state, seat, listed, random.Random(seed * 100 + seat))
        assert accepted > 0  # the fuzz really reached legal actions


def _random_step(state, seat: int, rng: random.Random, first: bool) -> StepKey:
    """Any step at all, from every space, die and slot of the board: most are illegal."""
    board = state.players[seat].board
    b = rng.choice(list(board.values()))
    lane = rng.choice(b.lanes)
    space = rng.choice(lane.spaces)
    kinds = ["build", "build", "wonder", "pass"] if first else ["cross", "cross", "bonus", "skip", "build", "wonder"]
    kind = rng.choice(kinds)
    if kind == "build":
        return StepKey("build", rng.choice(list(state.forum) + ["black"]), b.id, lane.symbol, space)
    if kind == "wonder":
        return StepKey("wonder", None, "wonder", "wonder", rng.choice(["step1", "step2", "step3"]))
    if kind == "cross":
        return StepKey("cross", None, b.id, lane.symbol, space)
    if kind == "bonus":
        return StepKey("bonus", slot=rng.randrange(3))
    return StepKey(kind)


def _fuzz(state, seat: int, listed: set, rng: random.Random, tries: int = 600) -> int:
    """Random step lists; each that replays must be among the listed legal actions."""
    accepted = 0
    firsts = sorted({s[0] for s in listed})
    for i in range(tries):
        # half start from a legal first step, so that the random follow-up answers get tested too
        steps = [rng.choice(firsts) if i % 2 else _random_step(state, seat, rng, True)]
        steps += [_random_step(state, seat, rng, False) for _ in range(rng.choice([0, 1, 1, 2]))]
        if _replays(state, seat, steps):
            accepted += 1
            assert tuple(steps) in listed, steps
    return accepted


def test_greedy_beats_random_clearly():
    wins = 0.0
    games = 60
    for i in range(games):
        bots = ("greedy", "random") if i % 2 == 0 else ("random", "greedy")
        result = simulate_game(f"g{i}", NAMES[:2], 1000 + i, bots)[-1].payload
        greedy_seat = bots.index("greedy")
        if greedy_seat in result["winners"]:
            wins += 1 / len(result["winners"])
    assert wins / games > 0.8


def test_many_games_over_every_player_count_replay_cleanly():
    for i in range(70):
        players = 2 + i % 6
        fold(simulate_game(f"g{i}", NAMES[:players], 500 + i, ("greedy", "random")))


def test_thousands_of_simulated_games_replay_cleanly():
    """1,000 games (3,000 with REPLAY_FUZZ=long), every player count, folded with every check."""
    for i in range(scaled(1_000, 3_000)):
        players = 2 + i % 6
        fold(simulate_game(f"g{i}", NAMES[:players], 90_000 + i, ("random", "greedy")))
