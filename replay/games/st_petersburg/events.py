"""St. Petersburg's event types: every card revealed, every turn's choice and payment, every phase's
end and scoring, every round's end, and the final scoring.

Chance is recorded where it is seen: ``cards_revealed`` names the cards a phase turns up from its
deck (no deck order is ever recorded, since nobody knows it), ``observatory_used`` the card the
Observatory drew. What players write down rides as optional claims (``paid``, the phase's income,
the markers after a round, the final scores and winners); the rules compare them.

Cards are named by their pack id (``lumberjack``, ``mistress-of-ceremonies``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from replay.events import EventPayload, GameStartedBase

KIND = "st-petersburg"
CARD = r"^[a-z][a-z0-9-]{0,40}$"
DeckName = Literal["worker", "building", "aristocrat", "trading"]
Source = Literal["top", "bottom", "hand", "observatory"]


class GameStarted(GameStartedBase):
    """Seats in turn order; ``markers``: the seat holding each starting-player marker (worker,
    building, aristocrat, trading), dealt at random before the first round."""

    event_type = "game_started"
    markers: list[int] = Field(min_length=4, max_length=4)


class CardsRevealed(EventPayload):
    """A chance outcome: the cards a phase turns up from its deck to fill the board."""

    event_type = "cards_revealed"
    deck: DeckName
    cards: list[str] = Field(default_factory=list, max_length=50)


class CardBought(EventPayload):
    """``seat`` buys ``card`` from the upper or lower row, its hand, or the Observatory's draw; a trading
    card names the card it ``displaces``. ``paid``: the roubles written down (a claim)."""

    event_type = "card_bought"
    seat: int = Field(ge=0)
    card: str = Field(pattern=CARD)
    source: Source
    displaces: str | None = Field(default=None, pattern=CARD)
    paid: int | None = Field(default=None, ge=0)


class CardTaken(EventPayload):
    """``seat`` takes ``card`` into its hand from a row or the Observatory's draw."""

    event_type = "card_taken"
    seat: int = Field(ge=0)
    card: str = Field(pattern=CARD)
    source: Literal["top", "bottom", "observatory"]


class Passed(EventPayload):
    event_type = "passed"
    seat: int = Field(ge=0)


class ObservatoryUsed(EventPayload):
    """``seat`` uses an Observatory on ``deck``; ``card`` is what it drew (a chance outcome)."""

    event_type = "observatory_used"
    seat: int = Field(ge=0)
    deck: DeckName
    card: str = Field(pattern=CARD)


class CardDiscarded(EventPayload):
    """``seat`` discards the card its Observatory drew."""

    event_type = "card_discarded"
    seat: int = Field(ge=0)
    card: str = Field(pattern=CARD)


class Income(BaseModel):
    """What the table wrote down for one seat at a phase's scoring."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: int = Field(ge=0)
    rubles: int | None = Field(default=None, ge=0)
    points: int | None = Field(default=None, ge=0)


class PhaseEnded(EventPayload):
    """Everyone passed in a row: the phase ends and (but for trading) is scored."""

    event_type = "phase_ended"
    phase: DeckName
    income: list[Income] | None = Field(default=None, description="claims, checked on replay")


class PubUsed(EventPayload):
    """After the building scoring, a Pub owner buys ``points`` (0 to decline)."""

    event_type = "pub_used"
    seat: int = Field(ge=0)
    points: int = Field(ge=0)


class RoundEnded(EventPayload):
    """The lower row is discarded, the upper row moves down, the markers pass on."""

    event_type = "round_ended"
    round: int = Field(ge=1)
    markers: list[int] | None = Field(default=None, description="the markers' seats after passing (a claim)")


class FinalScore(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: int = Field(ge=0)
    total: int | None = None


class GameEnded(EventPayload):
    """The round in which a deck ran out is over: final scoring. ``scores``/``winners`` are claims."""

    event_type = "game_ended"
    scores: list[FinalScore] | None = None
    winners: list[int] | None = None


EVENT_TYPES = (GameStarted, CardsRevealed, CardBought, CardTaken, Passed, ObservatoryUsed, CardDiscarded, PhaseEnded,
               PubUsed, RoundEnded, GameEnded)
