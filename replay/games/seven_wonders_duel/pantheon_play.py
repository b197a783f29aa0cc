"""The Pantheon expansion's plays: legal actions (both ways, as the base game's :mod:`.legal`),
what the bots think of them, and the simulation's chance outcomes.

Plays: ``("divinity_activated", divinity, offerings)`` (a turn from Age II: each set of the
seat's Offering tokens it can afford, the cost never below 0), ``("divinity_chosen", divinity,
space)``, ``("divinity_power", divinity, choice)`` (the choice as sorted (field, value) pairs) and
the base game's ``card_played`` with ``free`` ``engineering``. The simulation draws the chance
outcomes from the table: a deck's unknown part in any order (each Divinity of it as likely),
what is known of its top first.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from replay.events import Event, EventPayload

from . import agora, pantheon, pantheon_powers
from . import pantheon_events as pev
from .pack import MYTHOLOGIES
from .state import State

Play = tuple[Any, ...]
ACTIONS = frozenset({"divinity_activated", "divinity_chosen", "divinity_power"})
CHANCE = frozenset({"pantheon_tokens_placed", "divinities_drawn", "enki_drawn"})
FAVOURED = {"military": "roman", "science": "mesopotamian"}


def play_of(event: Event) -> Play:
    p, t = event.payload, event.type
    if t == "divinity_activated":
        return (t, p["divinity"], tuple(sorted(p.get("offerings") or [])))
    if t == "divinity_chosen":
        return (t, p["divinity"], p.get("space"))
    return (t, p["divinity"], tuple(sorted(pantheon_powers.chosen(p).items())))


def choices(state: State, seat: int, t: str) -> list[Play]:
    """The seat's choices for the task at the head of the queue (``t`` its event)."""
    pan = pantheon._pan(state)
    what, _, detail = state.queue[0]
    if t == "divinity_power":
        return [(t, detail, tuple(sorted(o.items()))) for o in pantheon_powers.options(state, seat, detail)]
    if what == "place":
        empty = [i for i, s in enumerate(pan["spaces"]) if s is None]
        return [(t, d, i) for d in pan["drawn"] for i in empty]
    if what == "gate":
        return [(t, d, None) for d in pan["drawn"]]
    return [(t, d, None) for m in MYTHOLOGIES for d in pan["decks"][m]]


def turn_plays(state: State, seat: int) -> list[Play]:
    """Activations and Engineering's constructions ``seat`` may make this turn."""
    from .legal import play

    pan = pantheon._pan(state)
    out: list[Play] = []
    assert state.pack.pantheon is not None
    if state.age >= state.pack.pantheon.components.from_age:
        held = sorted(pan["offerings"][seat])
        sets = sorted({c for k in range(len(held) + 1) for c in combinations(held, k)})
        for i, space in enumerate(pan["spaces"]):
            if space is None or not space["face_up"]:
                continue
            for offered in sets:
                if pantheon.activation_cost(state, seat, i, list(offered)) <= state.spendable(seat):
                    out.append(("divinity_activated", space["divinity"], offered))
    coins = [e.amount for _, e in state.effects(seat) if e.type == "chain_for_coins"]
    if coins and coins[0] <= state.spendable(seat):
        for slot in state.available():
            card_id = state.slots[slot]
            if card_id is not None and not agora.is_senator(state, card_id) and state.card(card_id).chain_from is not None:
                out.append(play(slot, card_id, "construct", free="engineering"))
    return out


def value(bot: str, state: State, seat: int, p: Play) -> tuple[int, int]:
    """A strategy bot's liking for an activation: its own mythology's Divinities as much as its
    favourite cards, the others above a discard only; the cheaper the better."""
    pan = pantheon._pan(state)
    space = next(i for i, s in enumerate(pan["spaces"]) if s is not None and s["divinity"] == p[1])
    cost = pantheon.activation_cost(state, seat, space, list(p[2]))
    mythology = pantheon.divinities(state.pack)[p[1]].mythology
    return (4 if mythology == FAVOURED.get(bot) else 1), -cost - 2 * len(p[2])


def payload(state: State, seat: int, chosen: Play) -> EventPayload:
    t = chosen[0]
    if t == "divinity_activated":
        pan = pantheon._pan(state)
        space = next(i for i, s in enumerate(pan["spaces"]) if s is not None and s["divinity"] == chosen[1])
        return pev.DivinityActivated(seat=seat, age=state.age, divinity=chosen[1], offerings=list(chosen[2]),
                                     paid=pantheon.activation_cost(state, seat, space, list(chosen[2])))
    if t == "divinity_chosen":
        return pev.DivinityChosen(seat=seat, divinity=chosen[1], space=chosen[2])
    return pev.DivinityPower(seat=seat, divinity=chosen[1], **dict(chosen[2]))


def chance(state: State, t: str, rng: random.Random) -> EventPayload:
    """A chance outcome of the expansion, drawn from what the table does not know."""
    pan = pantheon._pan(state)
    task = state.queue[0]
    if t == "pantheon_tokens_placed":
        slots = pantheon.token_slots(state.pack, state.age)
        supply = sorted(pantheon.token_supply(state.pack, state.age).elements())
        return pev.PantheonTokensPlaced(age=state.age, tokens=dict(zip(slots, rng.sample(supply, len(slots)))))
    if t == "enki_drawn":
        pool = pantheon.unseen_tokens(state)
        return pev.EnkiDrawn(tokens=rng.sample(pool, min(pantheon._enki_amount(state), len(pool))))
    if task[0] == "divinities_drawn":
        mythology = task[2]
        assert state.pack.pantheon is not None
        want = min(state.pack.pantheon.components.divinities_drawn, len(pan["decks"][mythology]))
        return pev.DivinitiesDrawn(seat=task[1], mythology=mythology,
                                   divinities=_from_top(pan, mythology, want, rng))
    drawn = [_from_top(pan, m, 1, rng)[0] for m in MYTHOLOGIES if pan["decks"][m]]
    return pev.DivinitiesDrawn(seat=task[1], mythology=None, divinities=drawn)


def _from_top(pan: dict[str, Any], mythology: str, n: int, rng: random.Random) -> list[str]:
    known: list[str] = pan["tops"][mythology][:n]
    rest = sorted(d for d in pan["decks"][mythology] if d not in pan["tops"][mythology])
    return known + rng.sample(rest, n - len(known))
