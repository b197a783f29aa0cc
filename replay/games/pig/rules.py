"""Pig's rules: its pack, its state, and the rules that check every event.

One turn: the player rolls until they hold (the turn total is added to their
score) or roll the bust face (the turn total is lost). The first to reach the
target when holding wins at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from pydantic import Field

from replay.contract import Position, Rules
from replay.driver import replay
from replay.errors import RuleViolation
from replay.events import Event
from replay.packs import Provenanced, RulesPack
from replay.problems import Location, Problem


class PigPack(RulesPack, Provenanced):
    """Every number the rules use, with its source and confidence."""

    die_faces: int = Field(ge=2, le=1000)
    bust_face: int = Field(ge=1, le=1000)
    target: int = Field(ge=1, le=1_000_000)


@dataclass
class PigState:
    """The table after some events. ``turn`` counts turns from 1."""

    names: list[str] = field(default_factory=list)
    target: int = 0
    die_faces: int = 6
    bust_face: int = 1
    scores: list[int] = field(default_factory=list)
    current: int = 0
    turn_total: int = 0
    turn: int = 0
    ended: bool = False
    winners: list[int] = field(default_factory=list)
    events: int = 0


RULES = {
    "pig.start": "A game has at least one seat, numbered 0, 1, 2, ...",
    "pig.over": "Nothing happens after the game is won.",
    "pig.turn-order": "Only the player whose turn it is may act.",
    "pig.die": "A die shows one of its faces.",
    "pig.claim": "What is written down is what the rules give.",
    "pig.end": "A game ends when a player reaches the target.",
}


def _problem(state: PigState, event: Event, rule_id: str, expected: str, found: str) -> Problem:
    player = state.names[state.current] if state.names else None
    return Problem(rule_id, RULES[rule_id], expected, found, Location(seq=event.seq, turn=state.turn or None, player=player))


class PigRules(Rules[PigState, PigPack]):
    def start(self, event: Event, pack: PigPack) -> PigState:
        p = event.payload
        seats = sorted(p["seats"], key=lambda s: s["seat"])
        state = PigState(names=[s["name"] for s in seats], target=p["target"], die_faces=pack.die_faces,
                         bust_face=pack.bust_face, scores=[0] * len(seats), turn=1, events=1)
        if [s["seat"] for s in seats] != list(range(len(seats))):
            raise RuleViolation(_problem(state, event, "pig.start", f"seats 0..{len(seats) - 1}",
                                         str([s["seat"] for s in p["seats"]])))
        return state

    def apply(self, state: PigState, event: Event) -> Sequence[Problem]:
        problems = self._apply(state, event)
        state.events += 1
        return problems

    def recover(self, state: PigState, event: Event, problem: Problem) -> Sequence[Problem]:
        state.events += 1  # the event is skipped, but counted
        return ()

    def _apply(self, state: PigState, event: Event) -> list[Problem]:
        p = event.payload
        if state.ended or (state.winners and event.type != "game_ended"):
            raise RuleViolation(_problem(state, event, "pig.over", "no event", event.type))
        if event.type in ("die_rolled", "held") and p["player"] != state.current:
            raise RuleViolation(_problem(state, event, "pig.turn-order", f"seat {state.current}", f"seat {p['player']}"))
        if event.type == "die_rolled":
            face = p["face"]
            if not 1 <= face <= state.die_faces:
                raise RuleViolation(_problem(state, event, "pig.die", f"1..{state.die_faces}", str(face)))
            if face == state.bust_face:
                _next_turn(state)
            else:
                state.turn_total += face
            return []
        if event.type == "held":
            problems = []
            if p["banked"] is not None and p["banked"] != state.turn_total:
                problems.append(_problem(state, event, "pig.claim", str(state.turn_total), str(p["banked"])))
            state.scores[state.current] += state.turn_total
            if state.scores[state.current] >= state.target:
                state.winners = [state.current]
            else:
                _next_turn(state)
            return problems
        if event.type == "game_ended":
            if not state.winners:
                raise RuleViolation(_problem(state, event, "pig.end", f"a score of {state.target}",
                                             f"best {max(state.scores)}"))
            state.ended = True
            if p["scores"] != state.scores or p["winners"] != state.winners:
                return [_problem(state, event, "pig.claim", f"scores {state.scores}, winners {state.winners}",
                                 f"scores {p['scores']}, winners {p['winners']}")]
            return []
        raise RuleViolation(_problem(state, event, "pig.turn-order", "a roll, a hold or the end", event.type))

    def is_over(self, state: PigState) -> bool:
        return bool(state.winners)

    def position(self, state: PigState, event: Event) -> Position:
        return Position(turn=state.turn, seat=event.payload.get("player", state.current))

    def legal_actions(self, state: PigState, seat: int) -> Sequence[str]:
        if state.winners or seat != state.current:
            return []
        return ["roll", "hold"]

    def action_of(self, event: Event) -> str | None:
        return {"die_rolled": "roll", "held": "hold"}.get(event.type)

    def snapshot(self, state: PigState) -> dict[str, Any]:
        return asdict(state)

    def restore(self, data: dict[str, Any], pack: PigPack) -> PigState:
        return PigState(**data)


def _next_turn(state: PigState) -> None:
    state.turn_total = 0
    state.current = (state.current + 1) % len(state.names)
    state.turn += 1


def fold(events: Iterable[Event]) -> PigState:
    """Replay a Pig game, raising :class:`RuleViolation` at the first problem (strict)."""
    from . import GAME

    state = replay(GAME, events, level="raise").state
    assert state is not None
    return state


def standard_ruleset() -> PigPack:
    from . import GAME

    pack = GAME.pack("pig-standard")
    assert isinstance(pack, PigPack)
    return pack
