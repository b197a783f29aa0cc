"""Final scoring: VP by category, then the winner (tie-break on coins, then a shared victory)."""

from __future__ import annotations

from typing import Any

from . import compiled
from .rules_data import Building, made_once
from .state import GameState, PlayerState


def categories(state: GameState) -> list[str]:
    """The scoring categories, in order: the first board's buildings' categories, then ``bonus``."""
    return list(_zeroes(state.players[0].board))


_ZEROES: dict[int, tuple[Any, dict[str, int]]] = {}


def _zeroes(board: dict[str, Building]) -> dict[str, int]:
    """Each category of a board (as :func:`categories` lists them) at 0: rules data, made once per board
    (a game's end counts them for every player; copy before changing)."""
    return made_once(_ZEROES, board, _categories_at_zero)


def _categories_at_zero(board: dict[str, Building]) -> dict[str, int]:
    seen = dict.fromkeys(b.category for b in board.values())
    seen["bonus"] = None
    return dict.fromkeys(seen, 0)


def player_categories(state: GameState, p: PlayerState) -> dict[str, int]:
    out = _zeroes(state.players[0].board).copy()
    for cat, vp in p.vp.items():
        out[cat] = out.get(cat, 0) + vp
    leaders = sum(1 for s in p.crossed.get("gallery", ()) if p.board["gallery"].space[s].leader) if "gallery" in p.board else 0
    for (cat, counted), vp in end_rates(state, p).items():
        out[cat] = out.get(cat, 0) + vp * (leaders if counted == "leaders" else p.count(counted))
    return out


def end_rates(state: GameState, p: PlayerState) -> dict[tuple[str, str], int]:
    """VP at the end per crossed space, by (category, what is counted): several effects on the same
    count add up, or the highest applies (option ``per_space_vp``)."""
    rates: dict[tuple[str, str], int] = {}
    take_max = state.options.per_space_vp == "max"
    for cat, counted, vp in p.end_effects:
        key = (cat, counted)
        rates[key] = max(rates.get(key, 0), vp) if take_max else rates.get(key, 0) + vp
    return rates


def final_scores(state: GameState) -> dict[str, Any]:
    """Each player's score (total, coins, VP by category) and the winners. The compiled kernel makes the same
    dicts where it is built (this code is its reference: ``tests/test_wd_compiled.py``)."""
    fast = compiled.SCORES
    if fast is not None:
        made = fast(state)
        if made is not None:
            return made
    scores: list[dict[str, Any]] = []
    for p in state.players:
        cats = player_categories(state, p)
        scores.append({"seat": p.seat, "total": sum(cats.values()), "coins": p.coins, "categories": cats})
    best_total = max(s["total"] for s in scores)
    top = [s for s in scores if s["total"] == best_total]
    best_coins = max(s["coins"] for s in top)
    winners = [s["seat"] for s in top if s["coins"] == best_coins]
    tie_break = "none" if len(top) == 1 else ("coins" if len(winners) == 1 else "shared")
    return {"scores": scores, "winners": winners, "tie_break": tie_break}
