"""Text views of a 7 Wonders Dice state: final scores by category."""

from __future__ import annotations

from typing import Any

from .rules_data import Effect
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


def show(state: GameState, player: str | None = None) -> str:
    """The whole table: the Forum with each die's cost, then each board (or one)."""
    from .engine import forum_cost
    from .scoring import player_categories

    lines = [f"turn {state.turn}, {state.phase}" + (f", seat {state.next_seat} to act" if state.phase == "actions" else "")
             + f" (after event {state.seq})"]
    if state.roll:
        dice = ", ".join(f"{d} {state.roll[d][0]} ({forum_cost(state, d)})" for d in state.forum if d in state.roll)
        lines.append(f"Forum (die face (cost)): {dice}")
    if state.pending_swaps:
        lines.append("entering the Forum at the end of the turn: " + ", ".join(state.pending_swaps))
    if state.final_turn:
        lines.append(f"final turn: {state.final_turn}")
    for p in state.players:
        if player and p.name.lower() != player.lower():
            continue
        cats = player_categories(state, p)
        bonuses = "".join("x" if b else "." for b in p.bonuses)
        unlocked = ", ".join(sorted(p.unlocked)) or "none"
        lines.append(f"{p.name} ({p.city}): {p.coins} coins, {max(0, p.resources)} resources, "
                     f"{sum(cats.values())} VP so far, bonuses [{bonuses}], unlocked: {unlocked}")
        for b in p.board.values():
            crossed = p.crossed.get(b.id, set())
            marks = " ".join(s.id if s.id in crossed else "." for s in b.spaces)
            lines.append(f"    {b.id:<14} {len(crossed)}/{len(b.spaces)}  {marks}")
        vp = ", ".join(f"{k} {v}" for k, v in cats.items() if v)
        if vp:
            lines.append(f"    VP: {vp}")
    return "\n".join(lines)


def board_layout(state: GameState) -> dict[str, Any]:
    """Each seat's buildings with their spaces in board order (cost, what each gives) and the Forum's
    section costs: what the replay page draws the boards with (``Views.page_board``)."""
    return {
        "forum_sections": list(state.rules.start.forum_sections),
        "seats": [[{"id": b.id, "name": b.name, "colour": b.colour, "category": b.category,
                    "spaces": [{"id": s.id, "cost": s.cost, "leader": s.leader, "gives": [effect_label(e) for e in s.effects]}
                               for s in b.spaces]}
                   for b in p.board.values()] for p in state.players],
    }


def effect_label(e: Effect) -> str:
    """An effect in a few words, for a space on the page's board."""
    labels = {
        "resource": "resource", "shield": "shield", "attack": f"attack {e.vp}", "vp": f"{e.vp} VP",
        "coins": f"{e.amount} coins", "cross": "cross " + "/".join(e.buildings) + (f" x{e.count}" if e.count > 1 else ""),
        "extra_action": "another action" + (" (die free)" if e.free_die else ""),
        "per_space": f"{e.coins} coins + {e.vp} VP per {e.building} space",
        "die_discount": f"{'/'.join(e.colours) or 'all'} dice -{e.amount}", "die_free": f"{'/'.join(e.colours)} dice free",
        "income": f"+{e.amount} coins per {'/'.join(e.colours)} die", "unlock": f"unlock {e.die}",
        "vp_per_leader_end": f"{e.vp} VP per leader",
    }
    return labels[e.type]
