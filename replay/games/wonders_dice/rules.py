"""7 Wonders Dice on the game contract: start, apply, recovery after an illegal event,
legal actions, positions, and lossless snapshots of the table."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from replay.contract import Position, Rules
from replay.errors import RuleViolation
from replay.events import Event
from replay.problems import Problem

from . import compiled
from .engine import StepKey, fail_for
from .legal import legal_actions
from .projector import _action, _done, apply, apply_trusted, checked_claims, finish_actions, start_state
from .rules_data import Options, Ruleset
from .scoring import final_scores
from .state import GameState, PlayerState

_POSITIONS = compiled.POSITIONS  # one Position per (turn, seat), read by the compiled kernel too


class WondersDiceRules(Rules[GameState, Ruleset]):
    snapshot_version = 2  # 2: two-phase follow-ups and pending actions

    def start(self, event: Event, pack: Ruleset) -> GameState:
        return start_state(event, pack)

    def apply(self, state: GameState, event: Event) -> Sequence[Problem]:
        return apply(state, event)

    def apply_trusted(self, state: GameState, event: Event) -> None:
        apply_trusted(state, event)

    def recover(self, state: GameState, event: Event, problem: Problem) -> Sequence[Problem]:
        """Put the table where the rest of the log can still be checked.

        An illegal action counts as the player doing nothing (an action merely out of
        seat order is accepted after being reported); a roll for a later turn closes the
        turns in between; a turn's end with swaps missing ends the turn; a refused end of
        the game still scores it.
        """
        state.seq = event.seq
        p = event.payload
        rule_id = problem.rule_id
        n = len(state.players)
        if event.type == "action_taken":
            seat = p["player"]
            if not 0 <= seat < n or state.phase != "actions" or seat in state.acted:
                return ()  # a repeat, an unknown seat, a turn with no roll: skipped
            if rule_id == "turn.order":
                if p["turn"] != state.turn:
                    return ()
                fail = fail_for(state, event, seat)
                return _attempt(lambda: _action(state, p, event, fail, in_seat_order=False))
            _done(state, seat)
            return finish_actions(state)[0]  # two-phase: the last seat's turn came, even as nothing
        if event.type == "dice_rolled" and rule_id == "turn.order" and p["turn"] > state.turn:
            found: list[Problem] = []
            if state.phase in ("actions", "swaps"):  # the previous turn never ended: close it
                state.phase, state.pending_swaps = "swaps", []
                found += _attempt(lambda: apply(state, event._replace(type="turn_ended", payload={"turn": state.turn})))
            state.turn = p["turn"] - 1  # a missing turn: go on from this roll
            state.phase = "roll"
            return found + _attempt(lambda: apply(state, event))
        if event.type == "turn_ended" and rule_id in ("swap.required", "turn.order") and p["turn"] == state.turn:
            if state.phase in ("actions", "swaps"):
                found = finish_actions(state, force=True)[0]  # two-phase: the seats that did act
                state.pending_swaps.clear()
                state.phase = "swaps"
                return found + _attempt(lambda: apply(state, event))
            return ()
        if event.type == "game_ended" and state.result is None:
            state.result = final_scores(state)
            state.phase = "ended"
        return ()

    def is_over(self, state: GameState) -> bool:
        return state.phase in ("over", "ended")

    @property
    def apply_at(self) -> Callable[[GameState, Event], tuple[Position, Sequence[Problem]]]:
        """:func:`apply_at`, or the compiled kernel's ``apply_at`` (the same in one call, a Python frame less an
        event) where it is built and on. A property: the driver reads it once a run, the switch each time."""
        return compiled.APPLY_AT or apply_at

    def position(self, state: GameState, event: Event) -> Position:
        return position(state, event)

    def legal_actions(self, state: GameState, seat: int) -> Sequence[list[StepKey]]:
        return legal_actions(state, seat)

    def action_of(self, event: Event) -> list[StepKey] | None:
        return [StepKey.of(s) for s in event.payload["steps"]] if event.type == "action_taken" else None

    # ------------------------------------------------------------------ snapshots

    def snapshot(self, state: GameState) -> dict[str, Any]:
        return {
            "options": state.options.model_dump(mode="json"),
            "players": [_player_snapshot(p) for p in state.players],
            "forum": list(state.forum.items()),
            "roll": [[d, face, section] for d, (face, section) in state.roll.items()],
            "turn": state.turn, "phase": state.phase, "next_seat": state.next_seat, "acted": sorted(state.acted),
            "pending_swaps": list(state.pending_swaps), "final_turn": state.final_turn,
            "agora_first_done": state.agora_first_done, "agora_completers": list(state.agora_completers),
            "seq": state.seq, "result": copy.deepcopy(state.result), "coin_offsets": list(state.coin_offsets.items()),
            "follow_ups": [[s, copy.deepcopy(q)] for s, q in state.follow_ups.items()],
            "pending": [[s, copy.deepcopy(info)] for s, info in state.pending.items()],
        }

    def restore(self, data: dict[str, Any], pack: Ruleset) -> GameState:
        return GameState(
            rules=pack, options=Options.model_validate(data["options"]),
            players=[_player_of(p, pack) for p in data["players"]],
            forum={d: c for d, c in data["forum"]},
            roll={d: (face, section) for d, face, section in data["roll"]},
            turn=data["turn"], phase=data["phase"], next_seat=data["next_seat"], acted=set(data["acted"]),
            pending_swaps=list(data["pending_swaps"]), final_turn=data["final_turn"],
            agora_first_done=data["agora_first_done"], agora_completers=list(data["agora_completers"]),
            seq=data["seq"], result=data["result"], coin_offsets={s: o for s, o in data["coin_offsets"]},
            follow_ups={s: q for s, q in data["follow_ups"]}, pending={s: info for s, info in data["pending"]},
        )


def position(state: GameState, event: Event) -> Position:
    """Where ``event`` belongs: its turn and, for an action, its seat (``WondersDiceRules.position``)."""
    fast = compiled.POSITION
    if fast is not None:  # the compiled kernel: a cached position, or None for the code below
        cached = fast(event.type, event.payload)
        if cached is not None:
            return cached
    p = event.payload
    turn = p.get("turn")
    if not isinstance(turn, int):
        turn = state.turn
    seat = p.get("player") if event.type == "action_taken" else None
    if type(turn) is not int or (seat is not None and type(seat) is not int):
        return Position(turn=turn, seat=seat)  # odd payloads (a bool, a string) are not cached
    key = (turn, seat)
    found = _POSITIONS.get(key)
    if found is None:
        found = Position(turn=turn, seat=seat)
        if len(_POSITIONS) < 100_000:
            _POSITIONS[key] = found  # positions are immutable: one per (turn, seat)
    return found


def apply_at(state: GameState, event: Event) -> tuple[Position, Sequence[Problem]]:
    """The event's position, then what applying it claims wrongly (``Rules.apply_at``): the compiled kernel's
    ``step`` for the usual action, roll or turn end in one call, the Python for anything it declines."""
    fast = compiled.STEP
    if fast is not None:  # the compiled kernel: the cached position and the usual action, roll or turn end, in one call
        done = fast(state, event)
        if done is not None:
            if len(done) == 2:
                return done
            return done[0], checked_claims(state, event, done[1], done[2])
    return _position_then_apply(state, event)


def _position_then_apply(state: GameState, event: Event) -> tuple[Position, Sequence[Problem]]:
    """The Python's position and apply: for an event ``step`` declines (nothing changed yet; the compiled
    ``apply_at`` calls it too), and for every event when the kernel is off."""
    return position(state, event), apply(state, event)


compiled.link(_position_then_apply, checked_claims)


def _player_snapshot(p: PlayerState) -> dict[str, Any]:
    return {
        "seat": p.seat, "name": p.name, "city": p.city, "coins": p.coins,
        "crossed": [[b, sorted(s)] for b, s in p.crossed.items()], "vp": dict(p.vp), "bonuses": list(p.bonuses),
        "unlocked": sorted(p.unlocked), "resources_spent": p.resources_spent, "discount_all": p.discount_all,
        "discount": dict(p.discount), "free_colours": sorted(p.free_colours), "income": dict(p.income),
        "end_effects": [list(e) for e in p.end_effects], "this_turn": [list(t) for t in p.this_turn],
    }


def _player_of(d: dict[str, Any], pack: Ruleset) -> PlayerState:
    return PlayerState(
        seat=d["seat"], name=d["name"], city=d["city"], coins=d["coins"], board=pack.buildings_of(d["city"]),
        crossed={b: set(s) for b, s in d["crossed"]}, vp=dict(d["vp"]), bonuses=list(d["bonuses"]),
        unlocked=set(d["unlocked"]), resources_spent=d["resources_spent"], discount_all=d["discount_all"],
        discount=dict(d["discount"]), free_colours=set(d["free_colours"]), income=dict(d["income"]),
        end_effects=[(c, b, v) for c, b, v in d["end_effects"]], this_turn=[(b, s) for b, s in d["this_turn"]],
    )


def _attempt(step: Callable[[], Sequence[Problem] | None]) -> list[Problem]:
    """Run one recovery step; what it finds wrong is reported, whether refused or claimed."""
    try:
        return list(step() or ())
    except RuleViolation as refused:
        return [refused.problem]
