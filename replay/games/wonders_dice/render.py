"""Text views of a 7 Wonders Dice state: final scores by category."""

from __future__ import annotations

from .scoring import categories, final_scores
from .state import GameState


def render(state: GameState) -> str:
    result = state.result or final_scores(state)
    cats = categories(state)
    short = {"military": "milit", "university": "univ", "warehouse": "wareh"}
    head = f"{'player':<10} {'city':<13}" + "".join(f"{short.get(c, c)[:6]:>7}" for c in cats) + f"{'total':>7}{'coins':>7}"
    lines = [f"after {state.seq + 1} events, turn {state.turn}:", head]
    for s in sorted(result["scores"], key=lambda s: -s["total"]):
        p = state.players[s["seat"]]
        mark = "  winner" if s["seat"] in result["winners"] else ""
        lines.append(f"{p.name:<10} {p.city:<13}" + "".join(f"{s['categories'].get(c, 0):>7}" for c in cats)
                     + f"{s['total']:>7}{s['coins']:>7}{mark}")
    if result["tie_break"] != "none":
        lines.append(f"tie broken by: {result['tie_break']}")
    return "\n".join(lines)
