"""Bots for Fleet: who bids, what it launches, whom it hires, what it keeps.

* ``greedy``: opens an auction on the license it values most (a boat it holds, no copy yet; the
  premium licenses late) at the printed cost, raises a little above it, launches its best
  licensed boat, hires with the card it needs least, processes full boats, always trades, and
  keeps its best cards;
* ``frugal``: like ``greedy`` but never raises and keeps money back (opens only with $3 to spare);
* ``random``: any legal choice, a payment that covers.

Payments are chosen the same way for all: processed fish first, then the cards the seat can use
least (boats it has no license for, lowest coins first), dropping any card not needed to cover.
Every tie is broken by the seeded generator, so a game is a function of its seed.
"""

from __future__ import annotations

import random
from typing import Any

from replay.events import EventPayload

from . import events as ev
from .rules import legal_actions, power
from .state import State

BOTS = ("greedy", "frugal", "random")


def card_value(state: State, seat: int, card: str) -> int:
    """How much the seat wants to keep a card (higher: keep)."""
    if card == "gone_fishin":
        return 6
    boat = state.pack.boat.get(card)
    if boat is None:
        return 0
    return (10 + boat.vp if state.may_launch(seat, card) else 0) + boat.coins


def payment(state: State, seat: int, due: int, keep: str | None = None) -> tuple[list[str], int]:
    """Cards and processed fish covering ``due``: fish first, then the least wanted cards."""
    fish = min(state.processed[seat], due) if state.pack.options.pay_with_fish else 0
    rest = due - fish
    hand = list(state.hand[seat])
    if keep is not None:
        hand.remove(keep)
    hand.sort(key=lambda c: (card_value(state, seat, c), c))
    paid: list[str] = []
    value = 0
    for c in hand:
        if value >= rest:
            break
        paid.append(c)
        value += state.pack.coins(c)
    for c in sorted(paid, key=lambda c: (-card_value(state, seat, c), c)):  # drop what is not needed
        if value - state.pack.coins(c) >= rest:
            paid.remove(c)
            value -= state.pack.coins(c)
    return paid, fish


def license_score(state: State, seat: int, license: str) -> int:
    pack = state.pack
    x = pack.license[license]
    owned = state.licenses[seat].count(license)
    score = x.vp
    if x.boat is not None and x.boat in state.hand[seat] and not state.may_launch(seat, x.boat):
        score += 4
    if x.bonus in ("shrimp", "cod", "tuna", "processing", "lobster") and owned == 0:
        score += 2
    if x.premium and state.round < 6:
        score -= 2
    return score


def decide(state: State, seat: int, bot: str, rng: random.Random) -> EventPayload:
    """The event ``seat``'s bot makes where the rules wait for its choice."""
    e: list[Any] = state.expect
    what = e[0]
    pack = state.pack
    if what == "license_bought":
        paid, fish = payment(state, seat, max(0, e[3] - state.discount(seat)))
        return ev.LicenseBought(seat=seat, license=e[2], paid=paid, fish=fish, price=e[3], discount=state.discount(seat))
    if bot == "random":
        return _from_action(state, seat, rng.choice(legal_actions(state, seat)), rng)
    if what == "auction_open":
        spare = 3 if bot == "frugal" else 0
        top = power(state, seat) - spare
        options = [x for x in sorted(set(state.row)) if pack.license[x].cost <= top]
        if not options:
            return ev.AuctionPassed(seat=seat)
        best = max(options, key=lambda x: (license_score(state, seat, x), rng.random()))
        return ev.AuctionOpened(seat=seat, license=best, bid=pack.license[best].cost)
    if what == "bid":
        a = state.auction
        assert a is not None
        cost = pack.license[a["license"]].cost
        wanted = license_score(state, seat, a["license"]) >= 5
        if bot == "greedy" and wanted and a["bid"] + 1 <= min(power(state, seat), cost + 2):
            return ev.BidRaised(seat=seat, bid=a["bid"] + 1)
        return ev.BidDropped(seat=seat)
    if what == "launch":
        options = [a.split()[1] for a in legal_actions(state, seat) if a.startswith("launch ")]
        if not options:
            return ev.StepPassed(seat=seat, step="launch")
        boat = max(options, key=lambda b: (pack.boat[b].vp, b))
        paid, fish = payment(state, seat, max(0, pack.boat[boat].cost - state.discount(seat)), keep=boat)
        return ev.BoatLaunched(seat=seat, boat=boat, paid=paid, fish=fish, discount=state.discount(seat))
    if what == "hire":
        cards = [c for c in state.hand[seat] if c in pack.boat]
        if not cards:
            return ev.StepPassed(seat=seat, step="hire")
        card = min(cards, key=lambda c: (card_value(state, seat, c), c))
        return ev.CaptainHired(seat=seat, boat=state.open_boats(seat)[0], card=card)
    if what == "process":
        full = [i for i, b in enumerate(state.boats[seat]) if b[2] >= pack.setup.capacity]
        return ev.FishProcessed(seat=seat, boats=full) if full else ev.StepPassed(seat=seat, step="process")
    if what == "trade":
        return ev.FishTraded(seat=seat)
    if what == "discard":
        pool = state.hand[seat] if state.owned(seat, "tuna") else state.just_drawn
        worst = sorted(pool, key=lambda c: (card_value(state, seat, c), c))[: e[2]]
        return ev.CardsDiscarded(seat=seat, cards=worst)
    raise AssertionError(f"no choice is due: {e}")


def _from_action(state: State, seat: int, action: str, rng: random.Random) -> EventPayload:
    """An event for a legal action, with a covering payment where one is due."""
    word, *rest = action.split()
    step = state.expect[0]
    if word == "pass":
        if step == "auction_open":
            return ev.AuctionPassed(seat=seat)
        return ev.StepPassed(seat=seat, step=step)
    if word == "open":
        return ev.AuctionOpened(seat=seat, license=rest[0], bid=int(rest[1]))
    if word == "raise":
        return ev.BidRaised(seat=seat, bid=int(rest[0]))
    if word == "drop":
        return ev.BidDropped(seat=seat)
    if word == "launch":
        boat = rest[0]
        paid, fish = payment(state, seat, max(0, state.pack.boat[boat].cost - state.discount(seat)), keep=boat)
        return ev.BoatLaunched(seat=seat, boat=boat, paid=paid, fish=fish)
    if word == "hire":
        return ev.CaptainHired(seat=seat, card=rest[0], boat=int(rest[2]))
    if word == "process":
        return ev.FishProcessed(seat=seat, boats=[int(x) for x in rest[0].split(",")])
    if word == "trade":
        return ev.FishTraded(seat=seat)
    return ev.CardsDiscarded(seat=seat, cards=rest)
