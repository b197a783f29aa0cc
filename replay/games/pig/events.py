"""Pig's event types.

``die_rolled`` is at version 2; version 1 (fields ``seat`` and ``value``) is
still read through :func:`die_rolled_v1_to_v2`. Pig is the reference game, so
it keeps one real upcaster for the archive's tests and docs to exercise.
"""

from __future__ import annotations

from pydantic import Field

from replay.events import EventPayload, GameStartedBase, Payload, upcaster


class GameStarted(GameStartedBase):
    event_type = "game_started"
    target: int = Field(ge=1, description="score that wins the game")


class DieRolled(EventPayload):
    """A chance outcome: the face the current player rolled."""

    event_type = "die_rolled"
    version = 2
    player: int = Field(ge=0, description="seat of the roller")
    face: int = Field(ge=1)


class DieRolledV1(EventPayload):
    """The first shape of ``die_rolled``, kept for reading old logs and for tests."""

    event_type = "die_rolled"
    version = 1
    seat: int = Field(ge=0)
    value: int = Field(ge=1)


class Held(EventPayload):
    """The current player banks the turn total; ``banked`` is what they claim it was."""

    event_type = "held"
    player: int = Field(ge=0)
    banked: int | None = Field(default=None, ge=0, description="claimed turn total, checked on replay")


class GameEnded(EventPayload):
    """Final scores as recorded at the table (a claim, checked on replay)."""

    event_type = "game_ended"
    scores: list[int]
    winners: list[int]


@upcaster("die_rolled", 1)
def die_rolled_v1_to_v2(payload: Payload) -> Payload:
    """v1 called the roller ``seat`` and the face ``value``."""
    return {"player": payload["seat"], "face": payload["value"]}
