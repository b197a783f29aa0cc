"""Pig's rules: the ruleset pack and a deterministic fold that checks every event.

One turn: the player rolls until they hold (the turn total is added to their
score) or roll the bust face (the turn total is lost). The first to reach the
target when holding wins at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from replay.errors import ReplayError, RuleViolation, Violation
from replay.events import Event, RulesetPin
from replay.rulesets import content_hash


class PigRuleset(BaseModel):
    """A ruleset pack: every number the rules use, with its source and confidence."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    version: str
    title: str
    source: str
    confidence: str
    die_faces: int = Field(ge=2)
    bust_face: int = Field(ge=1)
    target: int = Field(ge=1)

    @property
    def content_hash(self) -> str:
        return content_hash(self.model_dump())

    @property
    def pin(self) -> RulesetPin:
        return RulesetPin(id=self.id, version=self.version, content_hash=self.content_hash)


def load_ruleset(path: Path) -> PigRuleset:
    try:
        return PigRuleset.model_validate(json.loads(Path(path).read_text()))
    except (OSError, ValueError, ValidationError) as exc:
        raise ReplayError(f"{path}: invalid Pig ruleset: {exc}") from exc


def standard_ruleset() -> PigRuleset:
    text = resources.files(__package__).joinpath("rulesets/pig-standard.json").read_text()
    return PigRuleset.model_validate(json.loads(text))


@dataclass
class PigState:
    """The table after some events. ``turn`` counts turns from 1."""

    names: list[str] = field(default_factory=list)
    target: int = 0
    scores: list[int] = field(default_factory=list)
    current: int = 0
    turn_total: int = 0
    turn: int = 0
    ended: bool = False
    winners: list[int] = field(default_factory=list)
    events: int = 0


def fold(events: Iterable[Event], ruleset: PigRuleset | None = None) -> PigState:
    """Replay a Pig game, raising :class:`RuleViolation` at the first illegal event."""
    rules = ruleset or standard_ruleset()
    state = PigState()
    for event in events:
        _apply(state, event, rules)
        state.events += 1
    return state


def _violation(state: PigState, event: Event, rule_id: str, rule: str, expected: str, found: str) -> RuleViolation:
    player = state.names[state.current] if state.names else None
    return RuleViolation(Violation(event.seq, state.turn or None, player, rule_id, rule, expected, found))


def _apply(state: PigState, event: Event, rules: PigRuleset) -> None:
    p = event.payload
    if event.type == "game_started":
        state.names = [s["name"] for s in p["seats"]]
        state.target = p["target"]
        state.scores = [0] * len(state.names)
        state.turn = 1
        return
    if state.ended or (state.winners and event.type != "game_ended"):
        raise _violation(state, event, "pig.over", "Nothing happens after the game is won.", "no event", event.type)
    if event.type in ("die_rolled", "held") and p["player"] != state.current:
        raise _violation(
            state, event, "pig.turn-order", "Only the player whose turn it is may act.",
            f"seat {state.current}", f"seat {p['player']}",
        )
    if event.type == "die_rolled":
        face = p["face"]
        if not 1 <= face <= rules.die_faces:
            raise _violation(state, event, "pig.die", "A die shows one of its faces.", f"1..{rules.die_faces}", str(face))
        if face == rules.bust_face:
            _next_turn(state)
        else:
            state.turn_total += face
    elif event.type == "held":
        if p["banked"] is not None and p["banked"] != state.turn_total:
            raise _violation(
                state, event, "pig.claim", "The banked amount is the turn total.",
                str(state.turn_total), str(p["banked"]),
            )
        state.scores[state.current] += state.turn_total
        if state.scores[state.current] >= state.target:
            state.winners = [state.current]
        else:
            _next_turn(state)
    elif event.type == "game_ended":
        if not state.winners:
            raise _violation(state, event, "pig.end", "A game ends when a player reaches the target.",
                             f"a score of {state.target}", f"best {max(state.scores)}")
        if p["scores"] != state.scores or p["winners"] != state.winners:
            raise _violation(state, event, "pig.claim", "The recorded result is the replayed one.",
                             f"scores {state.scores}, winners {state.winners}",
                             f"scores {p['scores']}, winners {p['winners']}")
        state.ended = True


def _next_turn(state: PigState) -> None:
    state.turn_total = 0
    state.current = (state.current + 1) % len(state.names)
    state.turn += 1


def render(state: PigState) -> str:
    lines = [f"after {state.events} events, turn {state.turn}:"]
    for seat, (name, score) in enumerate(zip(state.names, state.scores)):
        mark = "  winner" if seat in state.winners else ""
        lines.append(f"  {name:<12} {score:>4}{mark}")
    return "\n".join(lines)
