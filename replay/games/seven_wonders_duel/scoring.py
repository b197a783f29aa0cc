"""Scoring by category, as on the scorepad: civilian (blue), science (green), commercial (yellow),
guilds, Wonders, progress tokens, military (the Conflict pawn's zone), treasury (1 VP per 3
coins). The most VP wins; a tie goes to the most civilian VP; still tied, the victory is shared.
"""

from __future__ import annotations

from . import pantheon
from .events import CATEGORIES
from .pack import Effect
from .state import State

COLOUR_CATEGORY = {"blue": "civilian", "green": "science", "yellow": "commercial", "purple": "guilds"}


def counted(state: State, seat: int, what: str) -> int:
    """How many of ``what`` (a colour, ``wonders``, ``coins``, ``progress_tokens``) ``seat`` has."""
    tokens = pantheon.counted(state, seat, what)  # Pantheon: Mythology and Offering tokens
    if tokens is not None:
        return tokens
    if what == "wonders":
        return len(state.built_wonders[seat])
    if what == "coins":
        return state.coins[seat]
    if what == "progress_tokens":
        return len(state.tokens[seat])
    return state.colour_count(seat, what)


def per_total(state: State, seat: int, e: Effect, field: str) -> int:
    """The coins (``field`` "coins") or VP ("vp") a ``per`` effect gives its owner now."""
    cities = (seat,) if e.scope == "own" else (0, 1)
    count = max(sum(counted(state, city, what) for what in e.counted) for city in cities)
    return count // e.each * (e.coins if field == "coins" else e.vp)


def military_points(state: State, seat: int) -> int:
    distance = state.pawn if seat == 0 else -state.pawn
    return state.pack.military.vp(distance) if distance > 0 else 0


def scores(state: State) -> list[dict[str, int]]:
    """Each seat's VP by category (and ``total``), as they stand."""
    return [_seat_scores(state, seat) for seat in (0, 1)]


def _seat_scores(state: State, seat: int) -> dict[str, int]:
    out: dict[str, int] = dict.fromkeys(CATEGORIES, 0)
    colour = {c.id: c.colour or "" for c in state.cards(seat)}
    wonders = set(state.built_wonders[seat])
    for source, e in state.effects(seat):
        category = "wonders" if source in wonders else COLOUR_CATEGORY.get(colour[source], "civilian") \
            if source in colour else "progress"
        if e.type == "vp":
            out[category] += e.amount
        elif e.type == "per" and e.vp:
            out[category] += per_total(state, seat, e, "vp")
    out["military"] = military_points(state, seat)
    out["treasury"] = state.coins[seat] // state.pack.numbers.coins_per_vp
    if state.pantheon is not None:  # Pantheon: Grand Temples, Divinities' VP, Astarte's coins
        out["pantheon"] = pantheon.score(state, seat)
    out["total"] = sum(out.values())
    if state.agora is not None:  # Agora: the chambers' points (category "senate")
        from .agora import add_score

        add_score(state, seat, out)
    return out


def winners(state: State) -> list[int]:
    """After supremacy: its winner. Else the most VP; a tie goes to the most civilian VP; still tied, both."""
    if state.victory in ("military", "science", "political"):
        return list(state.winners)
    final = scores(state)
    best = max((s["total"], s["civilian"]) for s in final)
    return [i for i, s in enumerate(final) if (s["total"], s["civilian"]) == best]
