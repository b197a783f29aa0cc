"""What a seat may play now, every payment included, as small comparable tuples.

A play is ``(card, action, free, choices, left, right)``: the card, ``build``/``wonder``/
``discard``, ``chain``/``power``/None, and the payment as sorted tuples (which of the city's
choice cards gave what; what is bought from each neighbour). A build is listed once per distinct
purchase (:func:`replay.games.seven_wonders.city.payments`: own resources first, never buying what
the city has), so the list stays short; a recorded play is compared with it by :func:`play_of`.
Halicarnassus' build from the discard pile is ``("discard_built", card)``.
"""

from __future__ import annotations

from typing import Any

from replay.events import Event

from .city import Payment, payments
from .rules import buildable_discards, expected_seats
from .state import DISCARD_BUILD, State

Play = tuple[Any, ...]


def play(card: str, action: str, free: str | None = None, payment: Payment | None = None) -> Play:
    if payment is None:
        return (card, action, free, (), (), ())
    return (card, action, free, payment.choices, payment.left, payment.right)


def play_of(event: Event) -> Play:
    """The play an event records, comparable with :func:`legal_plays`' items."""
    p = event.payload
    if event.type == "discard_built":
        return ("discard_built", p["card"])
    return (p["card"], p["action"], p.get("free"), tuple(sorted((p.get("choices") or {}).items())),
            tuple(sorted((p.get("left") or {}).items())), tuple(sorted((p.get("right") or {}).items())))


def legal_plays(state: State, seat: int) -> list[Play]:
    """Every play ``seat`` may make now (empty when it is not the seat's to play)."""
    if state.phase == DISCARD_BUILD:
        if state.pending and state.pending[0] == seat:
            return [("discard_built", c) for c in buildable_discards(state, seat)] or [("discard_built", None)]
        return []
    if seat not in expected_seats(state):
        return []
    out: list[Play] = []
    built = set(state.built[seat])
    side = state.side(seat)
    stage = side.stages[state.stages[seat]] if state.stages[seat] < len(side.stages) else None
    power = state.has_power(seat, "free_build_per_age") and state.power_used[seat] != state.age
    for card_id in sorted(set(state.hands[seat])):
        card = state.pack.card(state.age, card_id)
        if card is None:
            continue
        out.append(play(card_id, "discard"))
        if card.id not in built:
            if set(card.chain_from) & built:
                out.append(play(card_id, "build", "chain"))
            if power:
                out.append(play(card_id, "build", "power"))
            out += [play(card_id, "build", None, p) for p in payments(state, seat, card.cost)]
        if stage is not None:
            out += [play(card_id, "wonder", None, p) for p in payments(state, seat, stage.cost)]
    return out


def payload_of(state: State, seat: int, chosen: Play) -> dict[str, Any]:
    """The ``card_played`` payload (without claims) of a play."""
    card, action, free, choices, left, right = chosen
    return {"seat": seat, "age": state.age, "turn": state.turn, "card": card, "action": action, "free": free,
            "choices": dict(choices), "left": dict(left), "right": dict(right)}
