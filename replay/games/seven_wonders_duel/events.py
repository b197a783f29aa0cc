"""7 Wonders Duel's event types (the base game).

A game is: ``game_started`` (the two seats; ``first``, the seat that drafts first and starts Age
I), ``tokens_revealed`` (a chance outcome: the progress tokens face up on the board), the Wonder
draft (``wonders_revealed``, a chance outcome: a set of four; four ``wonder_picked``; twice), then
per Age: ``age_dealt`` (a chance outcome: the card in each face-up slot of the structure) and one
``card_played`` a turn, each followed by what it leads to, in this order: a progress token taken
for a new pair of scientific symbols (``progress_taken``), the effects of a Wonder built
(``card_destroyed``, ``discard_built``, ``tokens_drawn`` (chance) and ``progress_taken`` for the
Great Library), and last the face-down cards the turn uncovered (``card_revealed``: chance, one
per card, so a hidden card is not known before it is turned up). Between Ages the player nearest
to defeat picks who starts the next one (``starter_chosen``). ``game_ended`` closes the game
(military or scientific supremacy at once, or the civilian count after Age III), with the scores
by category as claims.

Seats are 0 and 1. The Conflict pawn is counted from the centre towards seat 1's capital
(negative: towards seat 0's): ``+3`` is three spaces into seat 1's side, good for seat 0.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from replay.events import EventPayload, GameStartedBase, Seat

from .agora_events import AGORA_EVENT_TYPES
from .pack import RESOURCES, Resource
from .pantheon_events import EVENT_TYPES as PANTHEON_EVENT_TYPES

KIND = "7wonders-duel"
ID = r"^[a-z][a-z0-9_]{0,40}$"
SLOT = r"^r[1-9]c[0-9]{1,2}$"
Action = Literal["construct", "discard", "wonder"]
Victory = Literal["military", "science", "civilian", "political"]
Category = Literal["civilian", "science", "commercial", "guilds", "wonders", "progress", "military", "treasury"]
CATEGORIES: tuple[Category, ...] = ("civilian", "science", "commercial", "guilds", "wonders", "progress", "military",
                                    "treasury")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GameStarted(GameStartedBase):
    """The two seats; ``first``: the seat that picks first in the draft and starts Age I (drawn at random)."""

    event_type = "game_started"
    seats: list[Seat] = Field(min_length=2, max_length=2)
    first: int = Field(default=0, ge=0, le=1)
    tags: dict[str, str] = Field(default_factory=dict, description="free header tags: Event, Date, Site, ...")


class TokensRevealed(EventPayload):
    """A chance outcome: the progress tokens laid face up on the board (the others are set aside unseen)."""

    event_type = "tokens_revealed"
    tokens: list[str] = Field(min_length=1, max_length=10)


class WondersRevealed(EventPayload):
    """A chance outcome: a set of four Wonders turned up for the draft (``set`` 1 or 2)."""

    event_type = "wonders_revealed"
    set: int = Field(ge=1, le=2)
    wonders: list[str] = Field(min_length=1, max_length=6)


class WonderPicked(EventPayload):
    """A seat takes one of the Wonders on offer (the last of a set too, though nothing is left to choose)."""

    event_type = "wonder_picked"
    seat: int = Field(ge=0, le=1)
    wonder: str = Field(pattern=ID)


class AgeDealt(EventPayload):
    """A chance outcome: the card in each face-up slot of the Age's structure (face-down slots are
    revealed one by one as they are uncovered: ``card_revealed``)."""

    event_type = "age_dealt"
    age: int = Field(ge=1, le=3)
    cards: dict[str, str] = Field(description="slot (r{row}c{col}) -> card id, the face-up slots only")

    @field_validator("cards")
    @classmethod
    def _slots(cls, cards: dict[str, str]) -> dict[str, str]:
        import re

        for slot, card in cards.items():
            if not re.match(SLOT, slot) or not re.match(ID, card):
                raise ValueError(f"{slot!r}: {card!r} is not a slot and a card id")
        return cards


class CardRevealed(EventPayload):
    """A chance outcome: the face-down card of ``slot``, turned up when nothing covers it any more."""

    event_type = "card_revealed"
    age: int = Field(ge=1, le=3)
    slot: str = Field(pattern=SLOT)
    card: str = Field(pattern=ID)


class CardPlayed(EventPayload):
    """A turn: the card of an available slot, constructed, discarded for coins, or put under one of
    the seat's Wonders to build it; and how it was paid: the resource each of the seat's own choice
    producers gave (``choices``, by card or Wonder id), the resources Masonry or Architecture waived
    (``discount``; Agora: also ``coins``, a card's whole coin cost a Decree's symbol left out under
    ``options.decree_coin_symbol: coins``), and the resources bought from the bank (``bought``). Claims: ``paid`` (all the
    coins the play costs), ``pawn`` (the Conflict pawn after it) and ``looted`` (coins the
    opponent lost to military tokens)."""

    event_type = "card_played"
    seat: int = Field(ge=0, le=1)
    age: int = Field(ge=1, le=3)
    slot: str = Field(pattern=SLOT)
    card: str = Field(pattern=ID)
    action: Action
    wonder: str | None = Field(default=None, pattern=ID, description="the Wonder built (action wonder)")
    free: Literal["chain", "engineering"] | None = Field(
        default=None, description="constructed for nothing by its chain symbol (Pantheon: for 1 coin by Engineering)")
    choices: dict[str, Resource] = Field(default_factory=dict)
    discount: dict[str, int] = Field(default_factory=dict)
    bought: dict[str, int] = Field(default_factory=dict)
    paid: int | None = Field(default=None, ge=0, le=1000)
    pawn: int | None = Field(default=None, ge=-20, le=20)
    looted: int | None = Field(default=None, ge=0, le=1000)

    @field_validator("discount", "bought")
    @classmethod
    def _resources(cls, counted: dict[str, int], info: ValidationInfo) -> dict[str, int]:
        for resource, count in counted.items():
            if resource == "coins" and info.field_name == "discount":  # Agora: a Decree's symbol on a coin cost
                if not 1 <= count <= 20:
                    raise ValueError(f"{count} coins left out: 1 to 20")
                continue
            if resource not in RESOURCES:
                raise ValueError(f"{resource!r} is not a resource ({', '.join(RESOURCES)})")
            if not 1 <= count <= 20:
                raise ValueError(f"{count} {resource}: 1 to 20 of a resource")
        return counted


class ProgressTaken(EventPayload):
    """A seat takes a progress token: from the board (a new pair of symbols) or from the ones drawn
    from the box (the Great Library)."""

    event_type = "progress_taken"
    seat: int = Field(ge=0, le=1)
    token: str = Field(pattern=ID)
    source: Literal["board", "box"] = "board"


class TokensDrawn(EventPayload):
    """A chance outcome: the progress tokens drawn from those set aside at the start (the Great Library)."""

    event_type = "tokens_drawn"
    seat: int = Field(ge=0, le=1)
    tokens: list[str] = Field(min_length=1, max_length=10)


class CardDestroyed(EventPayload):
    """A Wonder's power: the opponent's card (of the Wonder's colour) put in the discard pile; none
    when the opponent has no card of that colour."""

    event_type = "card_destroyed"
    seat: int = Field(ge=0, le=1, description="the seat that destroys")
    card: str | None = Field(default=None, pattern=ID)


class DiscardBuilt(EventPayload):
    """The Mausoleum's power: a card of the discard pile constructed for free (none when the pile is empty)."""

    event_type = "discard_built"
    seat: int = Field(ge=0, le=1)
    card: str | None = Field(default=None, pattern=ID)


class StarterChosen(EventPayload):
    """Between Ages: ``seat`` (nearest to defeat, or who took the Age's last card) picks who starts the next Age."""

    event_type = "starter_chosen"
    seat: int = Field(ge=0, le=1)
    starts: int = Field(ge=0, le=1)


class SeatScore(_Model):
    """Claims: one seat's score by category and in total."""

    seat: int = Field(ge=0, le=1)
    civilian: int | None = None
    science: int | None = None
    commercial: int | None = None
    guilds: int | None = None
    wonders: int | None = None
    progress: int | None = None
    military: int | None = None
    treasury: int | None = None
    pantheon: int | None = None
    """Pantheon only: the Grand Temples, the Divinities' VP, the coins on Astarte."""
    total: int | None = None


class GameEnded(EventPayload):
    """The end. Claims: how the game was won, the winners, the scores."""

    event_type = "game_ended"
    victory: Victory | None = None
    winners: list[int] | None = None
    scores: list[SeatScore] = Field(default_factory=list)


EVENT_TYPES = (GameStarted, TokensRevealed, WondersRevealed, WonderPicked, AgeDealt, CardRevealed, CardPlayed,
               ProgressTaken, TokensDrawn, CardDestroyed, DiscardBuilt, StarterChosen, GameEnded)
EVENT_TYPES += (*PANTHEON_EVENT_TYPES, *AGORA_EVENT_TYPES)  # type: ignore[assignment]  # the expansions' own
