"""7 Wonders Dice event types.

A turn is: ``dice_rolled`` (a chance outcome), one ``action_taken`` per player
(seat order), any ``special_die_swapped`` (a chance outcome: which grey die a
newly unlocked special die replaces), then ``turn_ended``. The game closes with
``game_ended``, whose scores are claims the projector checks.

An action is a list of **steps**: the first is the main action (``build`` with a
die, ``wonder`` or ``pass``); the rest answer, in order, every question the
effects ask (which space to cross, which bonus slot, the extra action, ``skip`` to
decline the second of "up to two"). Every step names its space in full, so a log
never depends on the engine filling anything in.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from replay.events import EventPayload, GameStartedBase, Payload, Seat, upcaster

from .rules_data import Options

KIND = "7wonders-dice"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CitySeat(Seat):
    city: str


class GameStarted(GameStartedBase):
    """Version 2 added ``tags``: the notation's header tags (Event, Date, Site, ...). Version 3
    added the options of pack 0.2 (``completion``, ``income``, ...)."""

    event_type = "game_started"
    version = 3
    # Narrowing the base's seat model is the documented way to extend it; pydantic validates the narrower list.
    seats: list[CitySeat] = Field(min_length=2, max_length=7)  # type: ignore[assignment]
    options: Options | None = Field(default=None, description="the options played under; none: the pack's")
    tags: dict[str, str] = Field(default_factory=dict, description="free header tags: Event, Date, Site, ...")


@upcaster("game_started", 1)
def game_started_v1_to_v2(payload: Payload) -> Payload:
    """Version 1 had no header tags."""
    return {**payload, "tags": {}}


@upcaster("game_started", 2)
def game_started_v2_to_v3(payload: Payload) -> Payload:
    """Version 2 had the five options of pack 0.1; the others were what 0.1's engine did, their defaults."""
    return {**payload, "options": {**Options().model_dump(mode="json"), **(payload.get("options") or {})}}


class ForumDie(_Model):
    id: str = Field(description="stable die id: grey1..grey3, blue, red, yellow, green, black, white, purple")
    colour: str
    face: str
    section: int = Field(ge=0, description="Forum section index; its cost is the ruleset's forum_sections[section]")


class DiceRolled(EventPayload):
    event_type = "dice_rolled"
    turn: int = Field(ge=1)
    dice: list[ForumDie] = Field(min_length=1)


StepKind = Literal["build", "wonder", "pass", "cross", "bonus", "skip"]


class Step(_Model):
    kind: StepKind
    die: str | None = Field(default=None, description="build: the Forum die chosen")
    building: str | None = None
    lane: str | None = Field(default=None, description="the die symbol / arrow followed")
    space: str | None = None
    slot: int | None = Field(default=None, ge=0, description="bonus: which bonus slot")


class Claims(_Model):
    """What the player wrote down for this action; each is checked when present."""

    paid: int | None = Field(default=None, ge=0, description="coins spent by the whole action")
    vp: int | None = Field(default=None, ge=0, description="VP written during the action")
    coins: int | None = Field(default=None, ge=0, description="coins held after the action")


class ActionTaken(EventPayload):
    event_type = "action_taken"
    turn: int = Field(ge=1)
    player: int = Field(ge=0, description="seat")
    steps: list[Step] = Field(min_length=1)
    claims: Claims | None = None


class SpecialDieSwapped(EventPayload):
    event_type = "special_die_swapped"
    turn: int = Field(ge=1)
    die: str = Field(description="the special die entering the Forum (black, white, purple)")
    replaces: str = Field(description="id of the grey die that leaves (a random choice, recorded)")


class TurnEnded(EventPayload):
    event_type = "turn_ended"
    turn: int = Field(ge=1)


class PlayerScore(_Model):
    seat: int = Field(ge=0)
    total: int
    coins: int = Field(ge=0)
    categories: dict[str, int]


class GameEnded(EventPayload):
    event_type = "game_ended"
    scores: list[PlayerScore]
    winners: list[int]
    tie_break: Literal["none", "coins", "shared"]


EVENT_TYPES = (GameStarted, DiceRolled, ActionTaken, SpecialDieSwapped, TurnEnded, GameEnded)
