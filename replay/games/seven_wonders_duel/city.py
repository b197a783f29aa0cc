"""What a city produces, what the bank charges it for the rest, and how a cost is paid.

Both directions of one question live here, as for 7 Wonders: :func:`check_payment` says whether a
recorded payment pays a cost (the rules), :func:`payments` lists the ways to pay it (legal
actions and bots); a test holds them to each other.

A resource the city lacks is bought from the bank at 2 coins plus one for each of it the
opponent's brown and grey cards produce (``Effect.priced``), or at the fixed price of the city's
own yellow card for it. Masonry (blue cards) and Architecture (Wonders) waive 2 resources of the
cost, chosen by the owner. The coins paid for resources go to the opponent when the opponent
has Economy.

Agora's Decrees of one cost symbol less waive a resource too; under the pack option
``decree_coin_symbol: coins`` their symbol may instead be the card's coins, shown on the card as
one symbol, so the whole coin cost is waived. A payment records it as ``discount["coins"]`` (the
card's whole coin cost), beside the resources left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from replay.games.resources import PaymentProblem, Production, choice_problem, counts, own_uses, production_of

from .pack import RESOURCES, Cost
from .state import State

COINS = "coins"
"""The key of ``discount`` for a coin cost left out (one cost symbol: all the card's coins)."""

MAX_PAYMENTS = 64
"""At most this many ways to pay are listed per cost (the cheapest first)."""


def production(state: State, seat: int) -> Production:
    return production_of(state.effects(seat))


def prices(state: State, seat: int) -> dict[str, int]:
    """What ``seat`` pays the bank for one of each resource."""
    opponent = 1 - seat
    rival: Counter[str] = Counter()
    for _, e in state.effects(opponent):
        if e.type == "produce" and e.priced:
            rival.update(e.resources)
    out: dict[str, int] = {r: state.pack.numbers.trade_base + rival[r] for r in RESOURCES}
    for _, e in state.effects(seat):
        if e.type == "fixed_price":
            for r in e.resources:
                out[r] = min(out[r], e.amount)
        elif e.type == "trade_rebate":  # Agora: a Decree makes resources cheaper, never below 1 (a fixed price is 1)
            for r in e.resources:
                out[r] = max(1, out[r] - e.amount)
    return out


def waivable(state: State, seat: int, target: str | None) -> int:
    """How many resources of a cost ``seat`` may leave out (Masonry for blue cards, Architecture for Wonders)."""
    if target is None:
        return 0
    return sum(e.amount for _, e in state.effects(seat) if (e.type == "discount" and e.target == target)
               or (e.type == "ignore_cost_symbol" and target in e.colours))  # Agora: a Decree, by colour


def coin_waivable(state: State, seat: int, target: str | None) -> int:
    """How many of the symbols :func:`waivable` counts may be the card's coins instead of a resource:
    the Decrees' (Agora) for the card's colour, and only under ``options.decree_coin_symbol: coins``
    (the default, ``resources``, keeps them to resources, as before the option existed)."""
    if target is None or state.pack.options.decree_coin_symbol != "coins":
        return 0
    return sum(e.amount for _, e in state.effects(seat) if e.type == "ignore_cost_symbol" and target in e.colours)


def trade_coins(state: State, seat: int, bought: Mapping[str, int]) -> int:
    price = prices(state, seat)
    return sum(price[r] * k for r, k in bought.items())


def check_payment(state: State, seat: int, cost: Cost, target: str | None, choices: Mapping[str, str],
                  discount: Mapping[str, int], bought: Mapping[str, int]) -> tuple[PaymentProblem | None, int]:
    """Whether the recorded payment pays ``cost``: (the first problem or None, the coins for resources).
    A coin cost left out (``discount["coins"]``) is one of the Decree's symbols; the coins the play
    costs are then ``cost.coins - discount["coins"]`` and the trade (:func:`own_coins`)."""
    own = production(state, seat)
    wrong = choice_problem(own, choices, "swd.pay.choice", "choice producer")
    if wrong is not None:
        return wrong, 0
    coins_out = discount.get(COINS, 0)
    resources_out = {r: k for r, k in discount.items() if r != COINS}
    if coins_out:
        symbols = coin_waivable(state, seat, target)
        if not symbols or coins_out != cost.coins:
            expected = (f"all {cost.coins} coins of the cost left out as one symbol, or none" if symbols and cost.coins
                        else "no coins left out (a coin cost is left out only by a Decree of one cost symbol less for "
                        "the card's colour, under options.decree_coin_symbol: coins, when the card costs coins)")
            return PaymentProblem("swd.agora.coin_symbol", expected, f"{coins_out} coins left out"), 0
    allowed = waivable(state, seat, target) - (1 if coins_out else 0)
    waived = sum(resources_out.values())
    if waived > allowed or any(k > Counter[str](cost.resources)[r] for r, k in resources_out.items()):
        return PaymentProblem("swd.pay.discount", f"at most {allowed} resources of the cost left out",
                              counts(resources_out)), 0
    have = own.fixed + Counter(choices.values()) + Counter(resources_out) + Counter(bought)
    missing = Counter[str](cost.resources) - have
    if missing:
        return PaymentProblem("swd.pay.resources", counts(cost.resources),
                              f"{counts(have)} (missing {counts(missing)})"), 0
    trade = trade_coins(state, seat, bought)
    if cost.coins - coins_out + trade > state.spendable(seat):
        return PaymentProblem("swd.pay.coins", f"at most {state.spendable(seat)} coins",
                              f"{cost.coins - coins_out + trade} coins"), 0
    return None, trade


def own_coins(cost: Cost, discount: Mapping[str, int]) -> int:
    """The coins of the cost itself that a payment pays: all but a coin cost a Decree left out."""
    return cost.coins - discount.get(COINS, 0)


@dataclass(frozen=True)
class Payment:
    choices: tuple[tuple[str, str], ...]
    discount: tuple[tuple[str, int], ...]
    bought: tuple[tuple[str, int], ...]
    coins: int
    """All the coins it costs: the card's own and the resources bought."""


def payments(state: State, seat: int, cost: Cost, target: str | None = None) -> list[Payment]:
    """The ways ``seat`` can pay ``cost`` now, cheapest first: each use of its own choice producers
    (only for what its fixed production lacks), then the dearest of what is still missing left out
    by a discount, the rest bought. One payment per distinct use; none when it cannot be paid. Where a
    Decree's symbol may be the coins (:func:`coin_waivable`) and the cost has coins, each use is also
    listed with the coins left out and one resource fewer left out."""
    waive_coins = cost.coins > 0 and coin_waivable(state, seat, target) > 0
    if cost.coins > state.spendable(seat) and not waive_coins:
        return []
    own = production(state, seat)
    need = Counter[str](cost.resources) - own.fixed
    price = prices(state, seat)
    allowed = waivable(state, seat, target)
    found: dict[tuple[Any, ...], Payment] = {}
    for used, rest in own_uses(need, list(own.choices)):
        units = sorted(rest.elements(), key=lambda r: (-price[r], r))
        for coins_out in (0, cost.coins) if waive_coins else (0,):
            symbols = allowed - (1 if coins_out else 0)
            discount = Counter(units[:symbols])
            bought = Counter(units[symbols:])
            coins = cost.coins - coins_out + sum(price[r] * k for r, k in bought.items())
            if coins > state.spendable(seat):
                continue
            if coins_out:
                discount[COINS] = coins_out
            payment = Payment(tuple(sorted(used.items())), tuple(sorted(discount.items())),
                              tuple(sorted(bought.items())), coins)
            key = (payment.choices, payment.discount, payment.bought)
            found.setdefault(key, payment)
    ordered = sorted(found.values(), key=lambda p: (p.coins, p.bought, p.discount, p.choices))
    return ordered[:MAX_PAYMENTS]
