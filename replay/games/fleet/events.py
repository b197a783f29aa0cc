"""Fleet's event types: every chance outcome, every decision, every consequence the table sees.

Chance is recorded as it becomes known: the licenses removed at setup (``licenses_removed``),
the order of the license deck (``license_deck_shuffled``) and of the boat deck
(``boat_deck_shuffled``, again whenever the discard pile is reshuffled), and every card drawn
(``cards_drawn``, checked against the top of the deck). Decisions are the players' (bids,
payments, launches, captains, processing, trades, discards); consequences the rules work out
themselves (the fish each seat catches, the end of the game) are recorded too and checked where
they must come. Written claims (a discount, the price of a license, VP by category, winners) are
optional fields the rules compare.

Cards are named by a code: boats ``shrimp``, ``cod``, ``lobster``, ``tuna``, ``processing``,
``crab`` and the Gone Fishin' card ``gone_fishin``; licenses ``shrimp``, ``cod``, ``lobster``,
``tuna``, ``processing``, ``pub``, ``crab_captains``, ``crab_fish``, ``crab_licenses``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from replay.events import EventPayload, GameStartedBase

KIND = "fleet"

CARD = r"^(shrimp|cod|lobster|tuna|processing|crab|gone_fishin)$"
LICENSE = r"^(shrimp|cod|lobster|tuna|processing|pub|crab_captains|crab_fish|crab_licenses)$"
DrawReason = Literal["cod", "lobster", "trade", "draw"]
Step = Literal["launch", "hire", "process", "trade"]


class GameStarted(GameStartedBase):
    """Seats in turn order; who holds the first-player token in round one."""

    event_type = "game_started"
    first_player: int = Field(default=0, ge=0, le=63)


class LicensesRemoved(EventPayload):
    """A chance outcome of setup: the licenses drawn at random and put back in the box (2 and 3 players)."""

    event_type = "licenses_removed"
    licenses: list[str] = Field(default_factory=list, max_length=100)


class LicenseDeckShuffled(EventPayload):
    """A chance outcome of setup: the license deck, top card first (premium licenses below the first
    two rounds' worth of common ones); the auction row is dealt from its top."""

    event_type = "license_deck_shuffled"
    order: list[str] = Field(min_length=1, max_length=200)


class BoatDeckShuffled(EventPayload):
    """A chance outcome: the boat deck, top card first. ``new_deck`` at setup (after the starting
    hands are taken out), ``reshuffle`` when the deck runs short and the discard pile goes under it."""

    event_type = "boat_deck_shuffled"
    reason: Literal["new_deck", "reshuffle"]
    order: list[str] = Field(min_length=1, max_length=1000)


class HandDealt(EventPayload):
    """``seat`` takes its starting hand (one boat of each type, in the published setup)."""

    event_type = "hand_dealt"
    seat: int = Field(ge=0, le=63)
    cards: list[str] = Field(max_length=100)


class RoundStarted(EventPayload):
    """A round begins; ``first_player`` holds the token (it passes left each round)."""

    event_type = "round_started"
    round: int = Field(ge=1, le=10_000)
    first_player: int = Field(ge=0, le=63)


class AuctionOpened(EventPayload):
    """``seat`` puts ``license`` from the auction row up for auction with an opening bid."""

    event_type = "auction_opened"
    seat: int = Field(ge=0, le=63)
    license: str = Field(pattern=LICENSE)
    bid: int = Field(ge=0, le=1000)


class BidRaised(EventPayload):
    """``seat`` outbids the leader."""

    event_type = "bid_raised"
    seat: int = Field(ge=0, le=63)
    bid: int = Field(ge=0, le=1000)


class BidDropped(EventPayload):
    """``seat`` drops out of the auction in progress (it may still open or bid in a later one this round)."""

    event_type = "bid_dropped"
    seat: int = Field(ge=0, le=63)


class AuctionPassed(EventPayload):
    """``seat`` opens no auction: it is done with this round's auction phase (and, with Gone Fishin',
    takes a Gone Fishin' card)."""

    event_type = "auction_passed"
    seat: int = Field(ge=0, le=63)


class LicenseBought(EventPayload):
    """The auction's winner pays its bid, less its Shrimp discount, with cards from hand (their coin
    values) and processed fish ($1 each), and takes the license. ``price`` and ``discount`` are claims."""

    event_type = "license_bought"
    seat: int = Field(ge=0, le=63)
    license: str = Field(pattern=LICENSE)
    paid: list[str] = Field(default_factory=list, max_length=100)
    fish: int = Field(default=0, ge=0, le=1000)
    price: int | None = Field(default=None, ge=0, le=1000, description="the winning bid (claim)")
    discount: int | None = Field(default=None, ge=0, le=1000, description="the Shrimp discount applied (claim)")


class BoatLaunched(EventPayload):
    """``seat`` launches ``boat`` from its hand, paying its launch cost less the Shrimp discount."""

    event_type = "boat_launched"
    seat: int = Field(ge=0, le=63)
    boat: str = Field(pattern=CARD)
    paid: list[str] = Field(default_factory=list, max_length=100)
    fish: int = Field(default=0, ge=0, le=1000)
    discount: int | None = Field(default=None, ge=0, le=1000, description="the Shrimp discount applied (claim)")


class CaptainHired(EventPayload):
    """``seat`` places ``card`` from its hand face down on its launched boat number ``boat`` (0 = first launched)."""

    event_type = "captain_hired"
    seat: int = Field(ge=0, le=63)
    boat: int = Field(ge=0, le=1000)
    card: str = Field(pattern=CARD)


class StepPassed(EventPayload):
    """``seat`` ends its part of a phase step (launching, hiring, processing, trading) without more."""

    event_type = "step_passed"
    seat: int = Field(ge=0, le=63)
    step: Step


class CardsDrawn(EventPayload):
    """Cards from the top of the boat deck go to ``seat``: a Cod or Lobster bonus, a trade, the draw phase."""

    event_type = "cards_drawn"
    seat: int = Field(ge=0, le=63)
    reason: DrawReason
    cards: list[str] = Field(min_length=1, max_length=100)


class CardsDiscarded(EventPayload):
    """After the draw phase's draw, ``seat`` discards what it may not keep (from the cards just
    drawn, or from its whole hand with a Tuna license)."""

    event_type = "cards_discarded"
    seat: int = Field(ge=0, le=63)
    cards: list[str] = Field(min_length=1, max_length=100)


class FishCaught(EventPayload):
    """Phase three for ``seat``: a crate from the supply on each captained boat below capacity
    (``boats``: their numbers; a consequence, checked)."""

    event_type = "fish_caught"
    seat: int = Field(ge=0, le=63)
    boats: list[int] = Field(default_factory=list, max_length=1000)


class FishProcessed(EventPayload):
    """``seat`` (with a Processing Vessel license) moves one crate from each boat in ``boats`` to its processed supply."""

    event_type = "fish_processed"
    seat: int = Field(ge=0, le=63)
    boats: list[int] = Field(min_length=1, max_length=1000)


class FishTraded(EventPayload):
    """``seat`` trades one processed crate for cards (one per Processing Vessel license; the draw follows)."""

    event_type = "fish_traded"
    seat: int = Field(ge=0, le=63)


class ScoreClaim(BaseModel):
    """What the table wrote down for one seat at the end (each field optional, each checked)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: int = Field(ge=0, le=63)
    total: int | None = Field(default=None, ge=0, le=100_000)
    licenses: int | None = Field(default=None, ge=0, le=100_000, description="VP of licenses")
    boats: int | None = Field(default=None, ge=0, le=100_000, description="VP of launched boats")
    fish: int | None = Field(default=None, ge=0, le=100_000, description="crates on boats")
    king_crab: int | None = Field(default=None, ge=0, le=100_000, description="the three King Crab bonuses")
    gone_fishin: int | None = Field(default=None, ge=0, le=100_000, description="Gone Fishin' cards in hand")


class GameEnded(EventPayload):
    """After phase three of the last round: ``reason`` is ``licenses`` (the auction row could not be
    refilled) or ``fish`` (the supply ran out). Scores and winners are claims."""

    event_type = "game_ended"
    reason: Literal["licenses", "fish"]
    scores: list[ScoreClaim] | None = None
    winners: list[int] | None = None


EVENT_TYPES = (GameStarted, LicensesRemoved, LicenseDeckShuffled, BoatDeckShuffled, HandDealt, RoundStarted,
               AuctionOpened, BidRaised, BidDropped, AuctionPassed, LicenseBought, BoatLaunched, CaptainHired,
               StepPassed, CardsDrawn, CardsDiscarded, FishCaught, FishProcessed, FishTraded, GameEnded)
