"""7 Wonders' rules pack: every Age card, every Wonder board (sides A and B), and the numbers of
the rules, as validated data with their source and confidence (docs/games/7-wonders.md).

Effects come from a closed vocabulary (:class:`Effect`), so the rules read data, never a card's
name: a new card of known kinds is data only.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from typing import Literal

from pydantic import Field, model_validator

from replay.packs import PackPart, Provenanced, RulesPack

Resource = Literal["wood", "stone", "clay", "ore", "glass", "papyrus", "textile"]
RAW: tuple[Resource, ...] = ("wood", "stone", "clay", "ore")
MANUFACTURED: tuple[Resource, ...] = ("glass", "papyrus", "textile")
RESOURCES: tuple[Resource, ...] = RAW + MANUFACTURED
Colour = Literal["brown", "grey", "yellow", "blue", "green", "red", "purple"]
COLOURS: tuple[Colour, ...] = ("brown", "grey", "yellow", "blue", "green", "red", "purple")
Symbol = Literal["tablet", "compass", "gear"]
SYMBOLS: tuple[Symbol, ...] = ("tablet", "compass", "gear")
Side = Literal["left", "right"]
Board = Literal["self", "left", "right"]
Counted = Literal["brown", "grey", "yellow", "blue", "green", "red", "purple", "wonder_stages", "defeats"]


class Effect(PackPart):
    """One effect of a card or a Wonder stage.

    ====================  =====================================================================
    type                  meaning
    ====================  =====================================================================
    produce               each turn, ``resources``: all of them (``choice`` false: "clay, clay"),
                          or one of them (``choice`` true: "wood or clay"); ``tradable`` false for
                          what neighbours may not buy (the yellow cards' and Wonders' choices)
    coins                 ``amount`` coins once, when built
    vp                    ``amount`` VP at the end
    shields               ``amount`` shields (military strength)
    science               one ``symbol``
    science_any           one symbol of the owner's choice, chosen at the end to their best
    trade_discount        ``resources`` bought from the neighbours on ``sides`` at ``price`` each
    per                   for each of ``counted`` on ``boards``: ``coins`` once when built and
                          ``vp`` at the end (Vineyard, Haven, the guilds)
    build_from_discard    at the end of this turn, build one card of the discard pile for free
    play_last_card        in each Age, play the seventh card instead of discarding it
    free_build_per_age    once per Age, build a structure for free
    copy_guild            at the end, copy one guild of a neighbour (to the owner's best)
    ====================  =====================================================================
    """

    type: Literal["produce", "coins", "vp", "shields", "science", "science_any", "trade_discount", "per",
                  "build_from_discard", "play_last_card", "free_build_per_age", "copy_guild"]
    resources: tuple[Resource, ...] = ()
    choice: bool = False
    tradable: bool = True
    amount: int = Field(default=0, ge=0, le=100)
    symbol: Symbol | None = None
    sides: tuple[Side, ...] = ()
    price: int = Field(default=0, ge=0, le=10)
    counted: tuple[Counted, ...] = ()
    boards: tuple[Board, ...] = ()
    coins: int = Field(default=0, ge=0, le=100)
    vp: int = Field(default=0, ge=0, le=100)

    @model_validator(mode="after")
    def _parameters(self) -> Effect:
        need = {
            "produce": bool(self.resources) and (not self.choice or len(self.resources) > 1),
            "coins": self.amount > 0, "vp": self.amount > 0, "shields": self.amount > 0,
            "science": self.symbol is not None,
            "trade_discount": bool(self.resources) and bool(self.sides) and self.price > 0,
            "per": bool(self.counted) and bool(self.boards) and (self.coins > 0 or self.vp > 0),
        }
        if not need.get(self.type, True):
            raise ValueError(f"effect {self.type!r} is missing its parameters")
        return self


class Cost(PackPart):
    coins: int = Field(default=0, ge=0, le=20)
    resources: dict[Resource, int] = Field(default_factory=dict)

    @property
    def free(self) -> bool:
        return not self.coins and not any(self.resources.values())


class Card(Provenanced):
    """One Age card: what it costs, what it does, what it chains from and to, and how many copies
    are in the deck at each player count (a guild: one copy; the deck takes players + 2 of them)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]{0,40}$", description="the structure's name, snake_case: two cards "
                    "with one id are the same structure (one city never builds both)")
    name: str
    age: int = Field(ge=1, le=3)
    colour: Colour
    cost: Cost = Field(default_factory=Cost)
    chain_from: tuple[str, ...] = Field(default=(), description="structures whose owner builds this one for free")
    chain_to: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = Field(min_length=1)
    copies: dict[int, int] = Field(description="copies in the deck by player count (3 to 7)")


class Stage(PackPart):
    cost: Cost
    effects: tuple[Effect, ...] = Field(min_length=1)


class WonderSide(PackPart):
    produces: Effect = Field(description="the resource the board produces from the start")
    stages: tuple[Stage, ...] = Field(min_length=1, max_length=4)


class Wonder(Provenanced):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]{0,40}$")
    name: str
    a: WonderSide
    b: WonderSide


class Numbers(Provenanced):
    """The numbers of the rules (the rules text and the data source agree on each, or the pack says)."""

    start_coins: int = Field(default=3, ge=0, le=100)
    discard_coins: int = Field(default=3, ge=0, le=100)
    trade_price: int = Field(default=2, ge=0, le=100)
    coins_per_vp: int = Field(default=3, ge=1, le=100)
    victory_points: tuple[int, int, int] = (1, 3, 5)
    defeat_points: int = Field(default=-1, ge=-100, le=0)
    science_set_vp: int = Field(default=7, ge=0, le=100)
    hand_size: int = Field(default=7, ge=2, le=20)
    passing: tuple[Side, Side, Side] = ("left", "right", "left")


class Options(PackPart):
    """Where the rules text leaves a choice (docs/games/7-wonders.md)."""

    sides: Literal["chosen", "a", "b"] = Field(
        default="chosen", description="which side of each Wonder board is played: recorded per seat at the start, "
        "or side A (or B) for everyone")


class SevenWondersPack(RulesPack, Provenanced):
    numbers: Numbers = Field(default_factory=Numbers)
    cards: tuple[Card, ...] = Field(min_length=1)
    wonders: tuple[Wonder, ...] = Field(min_length=1)
    options: Options = Field(default_factory=Options)
    changes: tuple[str, ...] = Field(default=(), description="where the text wins over the data source, and why")

    @cached_property
    def by_id(self) -> dict[str, Card]:
        """The first card of each id (cards that share an id are the same structure)."""
        out: dict[str, Card] = {}
        for card in self.cards:
            out.setdefault(card.id, card)
        return out

    @cached_property
    def wonder_by_id(self) -> dict[str, Wonder]:
        return {w.id: w for w in self.wonders}

    def card(self, age: int, card_id: str) -> Card | None:
        """The card of ``card_id`` in the deck of ``age``."""
        return self._by_age.get((age, card_id))

    @cached_property
    def _by_age(self) -> dict[tuple[int, str], Card]:
        return {(c.age, c.id): c for c in self.cards}

    def deck(self, age: int, players: int) -> Counter[str]:
        """The Age's cards (ids, with copies) before the guilds are drawn: the guilds are counted apart."""
        return Counter({c.id: c.copies.get(players, 0) for c in self.cards
                        if c.age == age and c.colour != "purple" and c.copies.get(players, 0)})

    def guilds(self) -> list[str]:
        return [c.id for c in self.cards if c.colour == "purple"]

    @model_validator(mode="after")
    def _consistent(self) -> SevenWondersPack:
        problems = []
        seen: set[tuple[int, str]] = set()
        for c in self.cards:
            if (c.age, c.id) in seen:
                problems.append(f"card {c.id} twice in Age {c.age}")
            seen.add((c.age, c.id))
            for other in (*c.chain_from, *c.chain_to):
                if other not in {x.id for x in self.cards}:
                    problems.append(f"card {c.id} chains with unknown {other}")
        if problems:
            raise ValueError("; ".join(problems))
        return self
