"""What a seat may do now, every payment included, as small comparable tuples.

A turn is ``("card_played", slot, card, action, wonder, free, choices, discount, bought)``: the
slot and its card, ``construct``/``discard``/``wonder``, the Wonder built, ``chain`` or None, and
the payment as sorted tuples. A construction or a Wonder is listed once per distinct payment
(:func:`replay.games.seven_wonders_duel.city.payments`: own resources first, the dearest left
out by a discount, never buying what the city has). The other choices are
``("wonder_picked", wonder)``, ``("progress_taken", token, source)``, ``("card_destroyed",
card)``, ``("discard_built", card)`` and ``("starter_chosen", seat)``; a recorded event is
compared with them by :func:`play_of`.
"""

from __future__ import annotations

from typing import Any

from replay.events import Event

from . import pantheon_play
from .agora_events import AGORA_ACTIONS
from .city import Payment, payments
from .rules import buildable_wonders, chain_symbols, choices_of, expected
from .state import State

Play = tuple[Any, ...]
ACTION_EVENTS = frozenset({"card_played", "wonder_picked", "progress_taken", "card_destroyed", "discard_built",
                           "starter_chosen"})
ACTION_EVENTS |= pantheon_play.ACTIONS  # Pantheon
ACTION_EVENTS |= AGORA_ACTIONS  # the Agora expansion's choices (agora_play.py)


def play(slot: str, card: str, action: str, wonder: str | None = None, free: str | None = None,
         payment: Payment | None = None) -> Play:
    paid = (payment.choices, payment.discount, payment.bought) if payment else ((), (), ())
    return ("card_played", slot, card, action, wonder, free, *paid)


def play_of(event: Event) -> Play:
    """The play an event records, comparable with :func:`legal_plays`' items."""
    p, t = event.payload, event.type
    if t in AGORA_ACTIONS:  # Agora
        from .agora_play import agora_play_of

        return agora_play_of(event)
    if t == "card_played":
        return ("card_played", p["slot"], p["card"], p["action"], p.get("wonder"), p.get("free"),
                *(tuple(sorted((p.get(k) or {}).items())) for k in ("choices", "discount", "bought")))
    if t == "wonder_picked":
        return (t, p["wonder"])
    if t == "progress_taken":
        return (t, p["token"], p.get("source", "board"))
    if t == "starter_chosen":
        return (t, p["starts"])
    if t in pantheon_play.ACTIONS:  # Pantheon
        return pantheon_play.play_of(event)
    return (t, p.get("card"))


def legal_plays(state: State, seat: int) -> list[Play]:
    """Every play ``seat`` may make now (empty when it is not the seat's to make)."""
    t, who = expected(state)
    if who != seat or t not in ACTION_EVENTS:
        return []
    if t in AGORA_ACTIONS:  # Agora
        from .agora_play import agora_choices

        return agora_choices(state, seat, t)
    if t == "wonder_picked":
        return [(t, w) for w in sorted(state.offered)]
    if t == "progress_taken":
        source = "board" if state.queue[0][0] == "progress" else "box"
        return [(t, token, source) for token in sorted(state.board_tokens if source == "board" else state.drawn)]
    if t in ("card_destroyed", "discard_built"):
        return [(t, c) for c in choices_of(state)] or [(t, None)]
    if t == "starter_chosen":
        return [(t, 0), (t, 1)]
    if t in pantheon_play.ACTIONS:  # Pantheon
        return pantheon_play.choices(state, seat, t)
    return turn_plays(state, seat)


def turn_plays(state: State, seat: int) -> list[Play]:
    out: list[Play] = []
    chains = chain_symbols(state, seat)
    wonders = buildable_wonders(state, seat)
    wonder_by_id = state.pack.wonder_by_id
    for slot in state.available():
        card_id = state.slots[slot]
        if card_id is None or (state.agora is not None and card_id not in state.pack.by_id):  # Agora: Senators apart
            continue
        card = state.card(card_id)
        assert card.cost is not None
        out.append(play(slot, card_id, "discard"))
        if card.chain_from is not None and card.chain_from in chains:
            out.append(play(slot, card_id, "construct", free="chain"))
        target = card.colour
        out += [play(slot, card_id, "construct", payment=p) for p in payments(state, seat, card.cost, target)]
        for w in wonders:
            cost = wonder_by_id[w].cost
            assert cost is not None
            out += [play(slot, card_id, "wonder", w, payment=p) for p in payments(state, seat, cost, "wonder")]
    if state.pantheon is not None:  # Pantheon: activations, Engineering
        out += pantheon_play.turn_plays(state, seat)
    if state.agora is not None:  # Agora: Senators, conspiracies prepared and triggered
        from .agora_play import agora_turn_plays

        out += agora_turn_plays(state, seat)
    return out


def payload_of(state: State, seat: int, chosen: Play) -> dict[str, Any]:
    """The ``card_played`` payload (without claims) of a play."""
    _, slot, card, action, wonder, free, choices, discount, bought = chosen
    return {"seat": seat, "age": state.age, "slot": slot, "card": card, "action": action, "wonder": wonder,
            "free": free, "choices": dict(choices), "discount": dict(discount), "bought": dict(bought)}
