"""The reference plug-in: deterministic simulation and a fold that names broken rules."""

from __future__ import annotations

import pytest
from helpers import pig_game
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.canonical import content_hash
from replay.errors import RuleViolation
from replay.events import Event
from replay.games.pig.events import DieRolled, GameEnded, Held
from replay.games.pig.rules import fold, standard_ruleset
from replay.games.pig.views import render


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_same_seed_same_events_and_every_simulated_game_replays(seed, players):
    events = pig_game("g", seed, players)
    assert events == pig_game("g", seed, players)
    state = fold(events)
    assert len(state.winners) == 1 and state.scores[state.winners[0]] >= state.target
    assert events[-1].payload == {"scores": state.scores, "winners": state.winners}


def test_ruleset_is_pinned_by_content_hash():
    rules = standard_ruleset()
    pin = pig_game()[0].payload["ruleset"]
    assert pin == {"id": "pig-standard", "version": "1.0.0", "content_hash": content_hash(rules.model_dump())}
    changed = rules.model_copy(update={"target": 50})
    assert changed.pin.content_hash != pin["content_hash"]


def _violation(events):
    with pytest.raises(RuleViolation) as caught:
        fold(events)
    return caught.value.violation


def test_out_of_turn_roll_is_named():
    events = pig_game()
    bad = events[:2] + [Event.create("pig", "g1", 2, DieRolled(player=1, face=3))]
    v = _violation(bad)
    assert (v.seq, v.turn, v.player, v.rule_id, v.expected, v.found) == (2, 1, "Ana", "pig.turn-order", "seat 0", "seat 1")


def test_wrong_banked_claim_and_wrong_final_claim_are_named():
    events = pig_game()
    hold = next(i for i, e in enumerate(events) if e.type == "held")
    lie = events[:hold] + [Event.create("pig", "g1", hold, Held(player=events[hold].payload["player"], banked=99))]
    assert _violation(lie).rule_id == "pig.claim"
    end = events[-1]
    wrong = events[:-1] + [Event.create("pig", "g1", end.seq, GameEnded(scores=[0, 0], winners=end.payload["winners"]))]
    v = _violation(wrong)
    assert v.rule_id == "pig.claim" and "scores [0, 0]" in v.found
    assert str(v).startswith(f"event {end.seq}, turn")


def test_render_names_the_winner():
    assert "winner" in render(fold(pig_game()))
