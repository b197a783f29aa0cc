"""The event-log contract shared by every game.

Two representations, on purpose:

* **Payload models** (pydantic, :class:`EventPayload` subclasses) define each event
  type of a game and validate data where it enters the tool (JSON Lines, notation,
  user files, simulation).
* **Event records** (:class:`Event`, a plain named tuple whose ``payload`` is a
  dict in the shape of the *current* model version) are what the archive stores
  and replay folds over. Parquet is already typed, so reading the archive back
  builds records straight from columns and never pays for model construction.

``Event.create`` turns a validated model into a record; ``EventPayload.of`` turns a
record back into a model when typed access is worth its cost.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, NamedTuple, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator

GAME_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:\-]{0,127}$")
"""Game ids are typed on command lines and used in file names: keep them plain."""


INT64 = (-(2**63), 2**63 - 1)
"""What a typed column holds: an integer outside it is refused where it enters, not at encoding."""


def within_int64(value: Any) -> Any:
    """Every integer in ``value`` (lists, tuples and dicts included) fits a 64-bit column."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not INT64[0] <= value <= INT64[1]:
            raise ValueError(f"{value} does not fit a 64-bit integer")
    elif isinstance(value, (list, tuple)):
        for item in value:
            within_int64(item)
    elif isinstance(value, dict):
        for item in value.values():
            within_int64(item)
    return value


class EventPayload(BaseModel):
    """Base of every event type.

    A subclass sets ``event_type`` (snake_case; also its Parquet column name) and
    ``version`` (bumped on every change to its fields; the old shape is then read
    through an upcaster registered by the game).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    event_type: ClassVar[str]
    version: ClassVar[int] = 1

    @field_validator("*", mode="after")
    @classmethod
    def _fits_a_column(cls, value: Any) -> Any:
        return within_int64(value)

    @classmethod
    def of(cls, event: Event) -> Self:
        """The typed model of a record (validates; not for hot paths)."""
        return cls.model_validate(event.payload)


class Seat(BaseModel):
    """A player at the table. Games may extend it (a city, a colour)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: int = Field(ge=0, le=63, description="0-based seat index, clockwise")
    name: str = Field(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f]+$",
                      description="printable: no line breaks or other control characters")


class RulesetPin(BaseModel):
    """The exact rules a game was played under, so old games replay unchanged."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    version: str = Field(min_length=1)
    content_hash: str = Field(pattern=r"^sha256:[0-9a-f]{64}$")


class Provenance(BaseModel):
    """Where a log came from: a simulation, a person typing it in, another tool."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: Literal["simulated", "typed", "imported"]
    detail: str = Field(default="", description="seed, file name, tool name and version, ...")


class GameStartedBase(EventPayload):
    """The first event of every game (seq 0), whatever the game.

    It pins what replay needs before anything else: the ruleset and its content
    hash, the seats, and the provenance. A game's start event subclasses it and
    may add fields (cities, options) or narrow ``seats`` to its own seat model.
    """

    ruleset: RulesetPin
    seats: list[Seat] = Field(min_length=1)
    provenance: Provenance


class Event(NamedTuple):
    """One stored event: the envelope plus a plain-data payload (current version)."""

    game_id: str
    seq: int
    kind: str
    type: str
    version: int
    payload: dict[str, Any]

    @classmethod
    def create(cls, kind: str, game_id: str, seq: int, payload: EventPayload) -> Event:
        """A record from a validated model (how simulations and parsers make events)."""
        return cls(
            game_id,
            seq,
            kind,
            payload.event_type,
            payload.version,
            payload.model_dump(mode="json"),
        )

    def to_json_obj(self) -> dict[str, Any]:
        """The JSON Lines form: the envelope fields, then the payload."""
        return {
            "game_id": self.game_id,
            "seq": self.seq,
            "kind": self.kind,
            "type": self.type,
            "version": self.version,
            "payload": self.payload,
        }

ENVELOPE_FIELDS: tuple[str, ...] = ("game_id", "seq", "kind", "type", "version", "hash")
"""Columns every event has; no event type may be named after one of them."""


Payload = dict[str, Any]


@dataclass(frozen=True)
class Upcaster:
    """Turns the stored payload of ``event_type`` at ``from_version`` into ``from_version + 1``.

    Upcasters are small named functions over plain data, applied in a chain
    (v1 -> v2 -> v3) when an old event is read, so stored events are never
    rewritten in place.
    """

    event_type: str
    from_version: int
    function: Callable[[Payload], Payload]


def upcaster(event_type: str, from_version: int) -> Callable[[Callable[[Payload], Payload]], Upcaster]:
    """Decorator form: ``@upcaster("die_rolled", 1) def die_rolled_v1_to_v2(p): ...``."""

    def wrap(function: Callable[[Payload], Payload]) -> Upcaster:
        return Upcaster(event_type, from_version, function)

    return wrap
