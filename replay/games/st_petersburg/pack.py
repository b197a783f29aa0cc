"""St. Petersburg's rules pack: every card (deck, colour, cost, income, points, power, copies) and the
numbers of the game, each card with its source and confidence, and the options where texts differ.

A card whose facts could not be found is listed with ``confidence: "missing"`` and no facts;
:meth:`StPetePack.require_complete` refuses a game under such a pack, naming the card.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from typing import Literal

from pydantic import Field, model_validator

from replay.errors import PackError
from replay.packs import PackPart, Provenanced, RulesPack

Deck = Literal["worker", "building", "aristocrat", "trading"]
Colour = Literal["worker", "building", "aristocrat"]
Power = Literal["pub", "warehouse", "observatory"]
DECKS: tuple[Deck, ...] = ("worker", "building", "aristocrat", "trading")
COLOURS: tuple[Colour, ...] = ("worker", "building", "aristocrat")


class Card(Provenanced):
    """One card of the box. ``colour`` is what it counts as once played (a trading card: the kind it
    displaces); ``worker_kind`` pairs a green trading card with the worker it displaces ("any": Czar and
    Carpenter, displaced by every green trading card); ``value`` is what it is worth when displaced
    (its cost unless printed otherwise: Potjomkin's Village)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]{0,40}$")
    name: str = ""
    deck: Deck
    colour: Colour
    count: int = Field(default=0, ge=0, le=100)
    cost: int = Field(default=0, ge=0, le=1000)
    value: int | None = Field(default=None, ge=0, le=1000)
    rubles: int = Field(default=0, ge=0, le=1000)
    points: int = Field(default=0, ge=0, le=1000)
    worker_kind: str | None = None
    power: Power | None = None
    discount: Colour | None = Field(default=None, description="its owner pays 1 rouble less for cards of this colour")
    rubles_per: Colour | None = Field(default=None, description="scores 1 more rouble per card of this colour its owner has")

    @property
    def trading(self) -> bool:
        return self.deck == "trading"

    @property
    def worth(self) -> int:
        return self.cost if self.value is None else self.value

    @model_validator(mode="after")
    def _facts(self) -> Card:
        if self.confidence == "missing":
            if self.name and self.count:
                raise ValueError(f"card {self.id} is marked missing but has facts")
        elif not self.name or not self.count or not self.cost:
            raise ValueError(f"card {self.id} has no name, count or cost: mark it confidence 'missing'")
        if self.deck != "trading" and self.colour != self.deck:
            raise ValueError(f"card {self.id}: a {self.deck} card is of colour {self.deck}")
        return self


class Scoring(Provenanced):
    starting_rubles: int = Field(default=25, ge=0, le=1000)
    aristocrat_table: list[int] = Field(min_length=2, max_length=30, description="points for 0, 1, 2, ... different aristocrats")
    rubles_per_point: int = Field(default=10, ge=1, le=1000)
    hand_penalty: int = Field(default=5, ge=0, le=1000)
    pub_points: int = Field(default=5, ge=0, le=100, description="points one Pub may buy after the building scoring")
    pub_price: int = Field(default=2, ge=1, le=100, description="roubles a Pub point costs")


class Board(Provenanced):
    spaces: int = Field(default=8, ge=1, le=50, description="a phase fills the board (both rows) up to this many cards")
    first_fill_per_player: int = Field(default=2, ge=1, le=10, description="workers revealed per player in the first phase")
    hand_limit: int = Field(default=3, ge=0, le=20)
    lower_row_discount: int = Field(default=1, ge=0, le=10)


class Options(PackPart):
    """Where the texts could be read two ways (docs/games/st-petersburg.md gives each ruling)."""

    same_card_discount: Literal["same_card", "same_colour"] = Field(
        default="same_card", description="the 1-rouble discount per card already owned: for each identical card "
        "(the printed rules and BGA), or for each card of the same colour")
    tie_break: Literal["rubles_left", "shared"] = Field(
        default="rubles_left", description="equal points: the most roubles left after the final conversion wins "
        "(BGA), or the tied players share the victory")


class StPetePack(RulesPack, Provenanced):
    cards: list[Card] = Field(min_length=4, max_length=200)
    scoring: Scoring
    board: Board = Field(default_factory=Board)
    options: Options = Field(default_factory=Options)

    @model_validator(mode="after")
    def _consistent(self) -> StPetePack:
        twice = [i for i, k in Counter(c.id for c in self.cards).items() if k > 1]
        if twice:
            raise ValueError(f"cards listed twice: {', '.join(sorted(twice))}")
        for deck in DECKS:
            if not any(c.deck == deck for c in self.cards):
                raise ValueError(f"the {deck} deck has no card")
        return self

    @cached_property
    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    def deck(self, deck: str) -> dict[str, int]:
        """The cards of one deck and how many of each, as the box holds them."""
        return {c.id: c.count for c in self.cards if c.deck == deck and c.count}

    def missing(self) -> list[str]:
        return [f"{c.id}" for c in self.cards if c.confidence == "missing"]

    def require_complete(self) -> None:
        """Refuse a game under this pack while a card's facts are missing, naming each card."""
        gaps = self.missing()
        if gaps:
            raise PackError(f"rules pack {self.id} {self.version} lacks the facts of the cards {', '.join(gaps)}: "
                            "give each its count, cost, income and points with a source, or leave it out")
