"""What a city produces, what its neighbours sell it and at what price, and how a cost is paid.

Both directions of one question live here: :func:`check_payment` says whether a recorded payment
pays a cost (the rules), :func:`payments` lists the ways to pay it (legal actions and bots). A
test holds them to each other: every listed payment is accepted, and every accepted payment of
the simulated games is listed.

Each choice-producing card gives one resource a turn, to its owner and, separately, to each
neighbour who buys from it (the official rules: buying does not use the seller's card up).
Everything is read from the table at the start of the turn: what a seat builds this turn
produces from the next turn on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

from replay.games.resources import (
    PaymentProblem,
    Production,
    can_supply,
    choice_problem,
    counts,
    own_uses,
    production_of,
    production_words,
)

from .pack import Cost
from .state import State

MAX_PAYMENTS = 64
"""At most this many ways to pay are listed per cost (the cheapest first)."""


def production(state: State, seat: int, tradable_only: bool = False) -> Production:
    """What ``seat`` produces each turn (for sale only, with ``tradable_only``)."""
    made: Production = state.remembered("sells" if tradable_only else "makes", seat,
                                        lambda: _production(state, seat, tradable_only))
    return made


def _production(state: State, seat: int, tradable_only: bool) -> Production:
    return production_of(state.effects(seat), (lambda e: e.tradable) if tradable_only else (lambda e: True))


def price(state: State, seat: int, side: str, resource: str) -> int:
    """What ``seat`` pays for one ``resource`` from its neighbour on ``side``."""
    best = state.pack.numbers.trade_price
    for _, e in state.effects(seat):
        if e.type == "trade_discount" and side in e.sides and resource in e.resources:
            best = min(best, e.price)
    return best


def trade_coins(state: State, seat: int, side: str, bought: Mapping[str, int]) -> int:
    return sum(price(state, seat, side, r) * k for r, k in bought.items())


# ----------------------------------------------------------------------------- checking a payment


def check_payment(state: State, seat: int, cost: Cost, choices: Mapping[str, str], left: Mapping[str, int],
                  right: Mapping[str, int]) -> tuple[PaymentProblem | None, int, int]:
    """Whether the recorded payment pays ``cost``: (the first problem or None, coins to the left
    neighbour, coins to the right one)."""
    own = production(state, seat)
    wrong = choice_problem(own, choices, "7w.pay.choice", "choice-producing card")
    if wrong is not None:
        return wrong, 0, 0
    to_left = trade_coins(state, seat, "left", left)
    to_right = trade_coins(state, seat, "right", right)
    for side, bought, neighbour in (("left", left, state.left(seat)), ("right", right, state.right(seat))):
        if any(k < 0 for k in bought.values()):
            return PaymentProblem("7w.pay.neighbour", "whole resources bought", counts(bought)), 0, 0
        if bought and not can_supply(production(state, neighbour, tradable_only=True), bought):
            return PaymentProblem("7w.pay.neighbour", f"what {state.names[neighbour]} ({side}) produces for sale: "
                                  + production_words(production(state, neighbour, tradable_only=True)),
                                  counts(bought)), 0, 0
    have = own.fixed + Counter(choices.values()) + Counter(left) + Counter(right)
    missing = Counter[str](cost.resources) - have
    if missing:
        return PaymentProblem("7w.pay.resources", counts(cost.resources), f"{counts(have)} (missing {counts(missing)})"), 0, 0
    coins = cost.coins + to_left + to_right
    if coins > state.coins[seat]:
        return PaymentProblem("7w.pay.coins", f"at most {state.coins[seat]} coins", f"{coins} coins"), 0, 0
    return None, to_left, to_right


# ----------------------------------------------------------------------------- listing payments


@dataclass(frozen=True)
class Payment:
    choices: tuple[tuple[str, str], ...]
    left: tuple[tuple[str, int], ...]
    right: tuple[tuple[str, int], ...]
    coins: int
    """All the coins it costs: the card's own coins and the trade."""

    def fields(self) -> dict[str, Any]:
        """The ``card_played`` fields that record it."""
        return {"choices": dict(self.choices), "left": dict(self.left), "right": dict(self.right)}


def payments(state: State, seat: int, cost: Cost) -> list[Payment]:
    """The ways ``seat`` can pay ``cost`` this turn, cheapest first: its own resources first (a
    choice card used only for what the fixed production lacks), then every split of what is
    still missing between the two neighbours that they can sell and the seat can afford. One
    payment per distinct purchase; none when it cannot be paid."""
    if cost.coins > state.coins[seat]:
        return []
    own = production(state, seat)
    need = Counter[str](cost.resources) - own.fixed
    sellers = {"left": production(state, state.left(seat), True), "right": production(state, state.right(seat), True)}
    found: dict[tuple[Any, Any], Payment] = {}
    for choices, rest in own_uses(need, list(own.choices)):
        for left, right in _splits(rest):
            if (left and not can_supply(sellers["left"], left)) or (right and not can_supply(sellers["right"], right)):
                continue
            coins = cost.coins + trade_coins(state, seat, "left", left) + trade_coins(state, seat, "right", right)
            if coins > state.coins[seat]:
                continue
            key = (tuple(sorted(left.items())), tuple(sorted(right.items())))
            if key not in found or coins < found[key].coins:
                found[key] = Payment(tuple(sorted(choices.items())), key[0], key[1], coins)
    ordered = sorted(found.values(), key=lambda p: (p.coins, p.left, p.right))
    return ordered[:MAX_PAYMENTS]


def _splits(rest: Counter[str]) -> Iterable[tuple[dict[str, int], dict[str, int]]]:
    """Every way to buy ``rest`` from the two neighbours: (from the left, from the right)."""
    items = sorted(rest.items())
    for split in product(*[range(k + 1) for _, k in items]):
        left = {r: c for (r, _), c in zip(items, split) if c}
        right = {r: k - c for (r, k), c in zip(items, split) if k - c}
        yield left, right
