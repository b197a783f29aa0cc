"""Fleet's rules pack: the cards, the license bonuses, setup and the end, as data.

Numbers come from the BGA game help (../shared/rules/fleet.bga-gamehelp.txt) where it gives
them, and from the public BGA implementation (marcuda/bga-fleet, material.inc.php and the
setup in fleet.game.php) where it does not; each part says which (``source``, ``confidence``).
docs/games/fleet.md lists every ruling.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import Field, model_validator

from replay.packs import PackPart, Provenanced, RulesPack

Bonus = Literal["shrimp", "cod", "lobster", "tuna", "processing", "pub", "crab_captains", "crab_fish", "crab_licenses"]


class BoatType(PackPart):
    """A boat card: its code, money value, launch cost, VP and count in the deck."""

    boat: str = Field(pattern=r"^(shrimp|cod|lobster|tuna|processing|crab)$")
    coins: int = Field(ge=0, le=100)
    cost: int = Field(ge=0, le=100)
    vp: int = Field(ge=0, le=100)
    count: int = Field(ge=0, le=1000)


class LicenseType(PackPart):
    """A license card: its code, printed cost (the lowest opening bid), VP, copies, whether it is
    premium, which boat it lets its owner launch, and its bonus."""

    license: str = Field(pattern=r"^(shrimp|cod|lobster|tuna|processing|pub|crab_captains|crab_fish|crab_licenses)$")
    cost: int = Field(ge=0, le=100)
    vp: int = Field(ge=0, le=100)
    count: int = Field(ge=0, le=100)
    premium: bool = False
    boat: str | None = None
    bonus: Bonus


class Cards(Provenanced):
    boats: list[BoatType] = Field(min_length=1, max_length=20)
    licenses: list[LicenseType] = Field(min_length=1, max_length=20)
    starting_hand: list[str] = Field(max_length=50, description="each seat's hand at setup")


class LobsterRow(PackPart):
    """With at least ``licenses`` Lobster licenses and at least ``captains`` captained boats, draw ``cards``."""

    licenses: int = Field(ge=1, le=10)
    captains: int = Field(ge=1, le=100)
    cards: int = Field(ge=0, le=20)


class TunaRow(PackPart):
    """With exactly ``licenses`` Tuna licenses, the draw phase draws ``draw`` and keeps ``keep``."""

    licenses: int = Field(ge=0, le=10)
    draw: int = Field(ge=0, le=20)
    keep: int = Field(ge=0, le=20)


class CrabRow(PackPart):
    types: int = Field(ge=1, le=20)
    vp: int = Field(ge=0, le=100)


class Bonuses(Provenanced):
    shrimp_discount: int = Field(default=1, ge=0, le=10, description="$ off every purchase per Shrimp license")
    cod_launches: int = Field(default=2, ge=1, le=10, description="boats a Cod license owner may launch per round")
    cod_draw: int = Field(default=1, ge=0, le=10, description="cards per Cod license after launching at least one boat")
    lobster_captains: int = Field(default=2, ge=1, le=10, description="captains a Lobster license owner may hire per round")
    lobster_draws: list[LobsterRow] = Field(max_length=20)
    tuna: list[TunaRow] = Field(min_length=1, max_length=20)
    processing_draw: int = Field(default=1, ge=0, le=10, description="cards per Processing Vessel license for one trade")
    crab_cap: int = Field(default=10, ge=0, le=100)
    crab_fish_per_vp: int = Field(default=3, ge=1, le=100)
    crab_types: list[CrabRow] = Field(max_length=20)


class Removal(PackPart):
    players: int = Field(ge=1, le=8)
    common: int = Field(ge=0, le=100)
    premium: int = Field(ge=0, le=100)


class Setup(Provenanced):
    removals: list[Removal] = Field(max_length=8)
    premium_from_round: int = Field(default=3, ge=1, le=100, description="premium licenses lie below the first "
                                    "(premium_from_round - 1) rounds' worth of common licenses")
    fish_per_player: int = Field(default=25, ge=1, le=1000)
    capacity: int = Field(default=4, ge=1, le=100)
    auction_row_per_player: int = Field(default=1, ge=1, le=10, description="licenses in the auction row per player")


class GoneFishin(Provenanced):
    """The Gone Fishin' cards (Fleet: Arctic Bounty), an option."""

    enabled: bool = False
    count: int = Field(default=20, ge=0, le=1000)
    coins: int = Field(default=2, ge=0, le=100)
    vp: int = Field(default=2, ge=0, le=100)


class Options(PackPart):
    """Where the texts leave room (docs/games/fleet.md gives each ruling)."""

    stale_auction: Literal["replace", "keep"] = Field(
        default="replace", description="a round in which nobody bought a license: the whole auction row is put "
        "back in the box and dealt anew (the BGA implementation), or kept")
    licenses_end: Literal["after_phase_three", "after_round"] = Field(
        default="after_phase_three", description="when the auction row cannot be refilled: the game ends after phase "
        "three of that round (the rules text), or after the whole round (the BGA implementation)")
    pay_with_fish: bool = Field(default=True, description="processed fish crates count $1 each in payments")


class FleetPack(RulesPack, Provenanced):
    cards: Cards
    bonuses: Bonuses
    setup: Setup
    gone_fishin: GoneFishin = Field(default_factory=GoneFishin)
    options: Options = Field(default_factory=Options)

    @model_validator(mode="after")
    def _consistent(self) -> FleetPack:
        boats = [b.boat for b in self.cards.boats]
        if len(set(boats)) != len(boats):
            raise ValueError("cards.boats: a boat is listed twice")
        licenses = [x.license for x in self.cards.licenses]
        if len(set(licenses)) != len(licenses):
            raise ValueError("cards.licenses: a license is listed twice")
        for x in self.cards.licenses:
            if x.boat is not None and x.boat not in boats:
                raise ValueError(f"cards.licenses: {x.license} licenses an unknown boat {x.boat!r}")
        for c in self.cards.starting_hand:
            if c not in boats:
                raise ValueError(f"cards.starting_hand: unknown boat {c!r}")
        return self

    @cached_property
    def boat(self) -> dict[str, BoatType]:
        return {b.boat: b for b in self.cards.boats}

    @cached_property
    def license(self) -> dict[str, LicenseType]:
        return {x.license: x for x in self.cards.licenses}

    def removal(self, players: int) -> Removal:
        return next((r for r in self.setup.removals if r.players == players), Removal(players=players, common=0, premium=0))

    def coins(self, card: str) -> int:
        if card == "gone_fishin":
            return self.gone_fishin.coins
        b = self.boat.get(card)
        return b.coins if b else 0
