"""Final scoring by category: military, treasury, Wonder, civilian, commercial, guilds, science.

Science scores each symbol's count squared plus ``science_set_vp`` per set of the three; a wild
symbol (the Scientists Guild, Babylon) counts as whichever symbol scores most, chosen here to
the owner's best, as the rules let the owner choose. Olympia's copied guild (side B) is the
neighbour's guild that gives the owner the most, chosen the same way.
"""

from __future__ import annotations

from itertools import product

from .events import CATEGORIES
from .pack import SYMBOLS, Card, Effect
from .state import State


def science_points(counts: list[int], wild: int, set_vp: int) -> int:
    best = 0
    for extra in product(range(wild + 1), repeat=len(counts)):
        if sum(extra) != wild:
            continue
        total = [c + e for c, e in zip(counts, extra)]
        best = max(best, sum(t * t for t in total) + set_vp * min(total))
    return best


def counted(state: State, seat: int, what: str) -> int:
    """How many of ``what`` (a colour, ``wonder_stages`` or ``defeats``) seat has."""
    if what == "wonder_stages":
        return state.stages[seat]
    if what == "defeats":
        return sum(1 for t in state.tokens[seat] if t < 0)
    return sum(1 for c in state.cards(seat) if c.colour == what)


def per_total(state: State, seat: int, e: Effect, field: str) -> int:
    """The coins (``field`` "coins") or VP ("vp") a ``per`` effect gives its owner ``seat``."""
    boards = {"self": seat, "left": state.left(seat), "right": state.right(seat)}
    count = sum(counted(state, boards[b], what) for b in e.boards for what in e.counted)
    return count * (e.coins if field == "coins" else e.vp)


def scores(state: State) -> list[dict[str, int]]:
    """Each seat's points by category (and ``total``), as they stand."""
    return [_seat_scores(state, seat) for seat in range(state.n)]


def _seat_scores(state: State, seat: int, extra_guild: Card | None = None) -> dict[str, int]:
    out: dict[str, int] = dict.fromkeys(CATEGORIES, 0)
    out["military"] = sum(state.tokens[seat])
    out["treasury"] = state.coins[seat] // state.pack.numbers.coins_per_vp
    symbols = dict.fromkeys(SYMBOLS, 0)
    wild = 0
    copy = False
    sources: list[tuple[str, Effect]] = list(state.effects(seat))
    if extra_guild is not None:
        sources += [("copied", e) for e in extra_guild.effects]
    colour: dict[str, str] = {c.id: c.colour for c in state.cards(seat)}
    if extra_guild is not None:
        colour["copied"] = "purple"
    for source, e in sources:
        category = _category(source, colour)
        if e.type == "vp":
            out[category] += e.amount
        elif e.type == "per" and e.vp:
            out[category] += per_total(state, seat, e, "vp")
        elif e.type == "science" and e.symbol is not None:
            symbols[e.symbol] += 1
        elif e.type == "science_any":
            wild += 1
        elif e.type == "copy_guild":
            copy = True
    out["science"] = science_points(list(symbols.values()), wild, state.pack.numbers.science_set_vp)
    if copy and extra_guild is None:
        best = _best_copy(state, seat)
        if best is not None:
            out = best
    out["total"] = sum(out[c] for c in CATEGORIES)
    return out


def _best_copy(state: State, seat: int) -> dict[str, int] | None:
    """The scores with the neighbour guild that gives ``seat`` the most (Olympia, side B)."""
    own = set(state.built[seat])
    guilds = [c for n in (state.left(seat), state.right(seat)) for c in state.cards(n)
              if c.colour == "purple" and c.id not in own]
    options = [_seat_scores(state, seat, g) for g in sorted(guilds, key=lambda c: c.id)]
    for o in options:
        o["total"] = sum(o[c] for c in CATEGORIES)
    return max(options, key=lambda o: o["total"], default=None)


def _category(source: str, colour: dict[str, str]) -> str:
    if source == "board" or source.startswith("stage"):
        return "wonder"
    return {"blue": "civilian", "yellow": "commercial", "purple": "guilds"}.get(colour.get(source, ""), "civilian")


def winners(state: State) -> list[int]:
    """The most points; a tie goes to the most coins; still tied, shared."""
    final = scores(state)
    best = max((s["total"], state.coins[i]) for i, s in enumerate(final))
    return [i for i, s in enumerate(final) if (s["total"], state.coins[i]) == best]
