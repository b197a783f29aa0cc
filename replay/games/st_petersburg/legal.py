"""What a seat may do: the cost of a card after every reduction, what a trading card may displace,
and the legal actions (both ways: each action names the event that records it, and
:func:`action_of` gives an event's action back).

Actions are short strings: ``pass``, ``buy CARD from SOURCE`` (``... displacing CARD`` for a trading
card), ``take CARD from SOURCE``, ``observatory DECK``, ``discard CARD``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .pack import Card
from .state import State

SOURCES = ("top", "bottom", "hand")


def cost(state: State, seat: int, card: Card, source: str, displaced: Card | None = None) -> int:
    """What ``seat`` pays for ``card`` taken from ``source``: the printed cost, less the lower row's
    discount, 1 per identical card (or card of the colour, by option) already owned, 1 per discount card
    of its colour owned, and the value of the card it displaces; never below 1."""
    pack = state.pack
    by_id = pack.by_id
    owned = [by_id[c] for c in state.tableau[seat]]
    price = card.cost
    if source == "bottom":
        price -= pack.board.lower_row_discount
    if pack.options.same_card_discount == "same_card":
        price -= sum(1 for c in owned if c.id == card.id)
    else:
        price -= sum(1 for c in owned if c.colour == card.colour)
    price -= sum(1 for c in owned if c.discount == card.colour)
    if displaced is not None:
        price -= displaced.worth
    return max(price, 1)


def may_displace(state: State, seat: int, card: Card, target: Card) -> bool:
    """Whether trading ``card`` may displace ``target`` from ``seat``'s play area (cost aside)."""
    if target.trading or target.colour != card.colour or target.id not in state.tableau[seat]:
        return False
    if card.colour == "worker" and "any" not in (card.worker_kind, target.worker_kind) \
            and card.worker_kind != target.worker_kind:
        return False
    if target.power == "observatory" and state.unused_observatories(seat) <= 0:
        return False  # a used Observatory stays until the next round
    return True


def displaceable(state: State, seat: int, card: Card) -> list[Card]:
    by_id = state.pack.by_id
    return [by_id[c] for c in dict.fromkeys(state.tableau[seat]) if may_displace(state, seat, card, by_id[c])]


def buy_action(card: str, source: str, displaces: str | None) -> str:
    return f"buy {card} from {source}" + (f" displacing {displaces}" if displaces else "")


def buys(state: State, seat: int, card: Card, source: str) -> list[str]:
    """The affordable ways to buy ``card`` from ``source``."""
    out = []
    if card.trading:
        for target in displaceable(state, seat, card):
            if cost(state, seat, card, source, target) <= state.rubles[seat]:
                out.append(buy_action(card.id, source, target.id))
    elif cost(state, seat, card, source) <= state.rubles[seat]:
        out.append(buy_action(card.id, source, None))
    return out


def legal_actions(state: State, seat: int) -> list[str]:
    e = state.expect
    by_id = state.pack.by_id
    if e[0] == "observatory" and e[1] == seat:
        card = by_id[e[2]]
        out = buys(state, seat, card, "observatory")
        if len(state.hand[seat]) < state.hand_limit(seat):
            out.append(f"take {card.id} from observatory")
        return out + [f"discard {card.id}"]
    if e[0] != "turn" or e[1] != seat:
        return []
    out = ["pass"]
    full = len(state.hand[seat]) >= state.hand_limit(seat)
    for source, row in (("top", state.top), ("bottom", state.bottom), ("hand", state.hand[seat])):
        for cid in dict.fromkeys(row):
            out += buys(state, seat, by_id[cid], source)
            if source != "hand" and not full:
                out.append(f"take {cid} from {source}")
    if state.phase_name == "building" and state.unused_observatories(seat) > 0:
        out += [f"observatory {d}" for d in state.decks if state.deck_size(d) >= 2]
    return out


def action_of(event_type: str, p: Mapping[str, Any]) -> str | None:
    if event_type == "passed":
        return "pass"
    if event_type == "card_bought":
        return buy_action(p["card"], p["source"], p.get("displaces"))
    if event_type == "card_taken":
        return f"take {p['card']} from {p['source']}"
    if event_type == "observatory_used":
        return f"observatory {p['deck']}"
    if event_type == "card_discarded":
        return f"discard {p['card']}"
    return None
