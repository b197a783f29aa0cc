"""7 Wonders' event types.

A game is: ``game_started`` (each seat's Wonder board and side), then per Age: ``age_dealt`` (a
chance outcome: every seat's hand of seven), six turns of one ``card_played`` per seat (the seats
choose at once; the order of their events within a turn does not matter), a ``discard_built``
after a turn in which a seat gained Halicarnassus' power, the seventh card of a seat with
Babylon's (``card_played`` with turn 7), and ``age_ended`` (the conflicts; its tokens are
claims). ``game_ended`` closes the game with each seat's scores by category as claims.

A ``card_played`` records the whole payment: which resource each of the seat's own
choice-producing cards gave (``choices``), what was bought from each neighbour (``left``,
``right``), or that the card was free (``free``: by a chain, or by Olympia's power). The coins
paid to each neighbour ride along as claims the rules check.

Seats sit clockwise; a seat's **left** neighbour is the next seat (seat + 1), its **right**
neighbour the previous one. Passing left gives a hand to the left neighbour.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from replay.events import EventPayload, GameStartedBase, Seat

from .pack import RESOURCES, Resource

KIND = "7wonders"
CARD_ID = r"^[a-z][a-z0-9_]{0,40}$"
Action = Literal["build", "wonder", "discard"]
Category = Literal["military", "treasury", "wonder", "civilian", "commercial", "guilds", "science"]
CATEGORIES: tuple[Category, ...] = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WonderSeat(Seat):
    wonder: str = Field(pattern=CARD_ID)
    side: Literal["a", "b"]


class GameStarted(GameStartedBase):
    """Seats clockwise, each with its Wonder board and the side played (a chance outcome or a choice)."""

    event_type = "game_started"
    seats: list[WonderSeat] = Field(min_length=3, max_length=7)  # type: ignore[assignment]
    tags: dict[str, str] = Field(default_factory=dict, description="free header tags: Event, Date, Site, ...")


class AgeDealt(EventPayload):
    """A chance outcome: the hand each seat is dealt at the start of an Age, by seat."""

    event_type = "age_dealt"
    age: int = Field(ge=1, le=3)
    hands: list[list[str]] = Field(min_length=3, max_length=7)


class Paid(_Model):
    """Claims: the coins the seat pays to each neighbour (the rules compute them from the prices)."""

    to_left: int | None = Field(default=None, ge=0, le=1000)
    to_right: int | None = Field(default=None, ge=0, le=1000)


class CardPlayed(EventPayload):
    """One seat's choice of a turn: a card from its hand, built, put under its Wonder (the next
    stage), or discarded for coins; and how it was paid."""

    event_type = "card_played"
    seat: int = Field(ge=0)
    age: int = Field(ge=1, le=3)
    turn: int = Field(ge=1, le=7)
    card: str = Field(pattern=CARD_ID)
    action: Action
    free: Literal["chain", "power"] | None = Field(default=None, description="built for nothing: by a chain from a "
                                                  "structure the seat owns, or by Olympia's once-per-Age power")
    choices: dict[str, Resource] = Field(default_factory=dict, description="the resource each of the seat's own "
                                         "choice-producing cards (by id; a Wonder stage as stage1..stage4) gave")
    left: dict[str, int] = Field(default_factory=dict, description="resources bought from the left neighbour")
    right: dict[str, int] = Field(default_factory=dict, description="resources bought from the right neighbour")
    paid: Paid | None = None

    @field_validator("left", "right")
    @classmethod
    def _resources(cls, bought: dict[str, int]) -> dict[str, int]:
        for resource, count in bought.items():
            if resource not in RESOURCES:
                raise ValueError(f"{resource!r} is not a resource ({', '.join(RESOURCES)})")
            if not 1 <= count <= 20:
                raise ValueError(f"{count} {resource}: buy 1 to 20 of a resource")
        return bought


class DiscardBuilt(EventPayload):
    """Halicarnassus' power, at the end of the turn its stage was built: a card of the discard pile
    built for free (none when no card there can be built)."""

    event_type = "discard_built"
    seat: int = Field(ge=0)
    card: str | None = Field(default=None, pattern=CARD_ID)


class AgeEnded(EventPayload):
    """The Age's conflicts; ``tokens`` (claims): the military tokens each seat gained, by seat."""

    event_type = "age_ended"
    age: int = Field(ge=1, le=3)
    tokens: list[list[int]] | None = None


class SeatScore(_Model):
    """Claims: one seat's score by category and in total."""

    seat: int = Field(ge=0)
    military: int | None = None
    treasury: int | None = None
    wonder: int | None = None
    civilian: int | None = None
    commercial: int | None = None
    guilds: int | None = None
    science: int | None = None
    total: int | None = None


class GameEnded(EventPayload):
    event_type = "game_ended"
    scores: list[SeatScore] = Field(default_factory=list)


EVENT_TYPES = (GameStarted, AgeDealt, CardPlayed, DiscardBuilt, AgeEnded, GameEnded)
