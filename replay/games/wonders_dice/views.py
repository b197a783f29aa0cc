"""Derived tables for SQL, computed by the projector from the events (never hand-kept counters).

For each finished game: one ``games`` row, one ``players`` row per seat, one
``turn_states`` row per turn and seat (the table at the end of the turn), one
``actions`` row per action (what was chosen, what it cost, what it scored), one
``dice`` row per die rolled (the chance outcomes, flat, for fast counting).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyarrow as pa

from replay.events import Event

from .engine import construction_coins, defence, die_cost, forum_cost
from .projector import RulesetLibrary, apply, start_state
from .rules_data import default_ruleset
from .scoring import final_scores, player_categories

BUILDINGS = tuple(default_ruleset().buildings_of("giza"))
CATEGORIES = ("warehouse", "military", "agora", "market", "university", "guild", "gallery", "wonder", "bonus")

SCHEMAS: dict[str, pa.Schema] = {
    "games": pa.schema([
        ("game_id", pa.string()), ("kind", pa.string()), ("ruleset", pa.string()), ("ruleset_version", pa.string()),
        ("players", pa.int32()), ("turns", pa.int32()), ("events", pa.int32()),
        ("winners", pa.list_(pa.int32())), ("winner_names", pa.list_(pa.string())), ("tie_break", pa.string()),
        ("top_score", pa.int32()),
    ]),
    "players": pa.schema(
        [("game_id", pa.string()), ("seat", pa.int32()), ("name", pa.string()), ("city", pa.string()),
         ("players", pa.int32()), ("total", pa.int32()), ("coins", pa.int32()), ("rank", pa.int32()), ("won", pa.bool_())]
        + [(f"vp_{c}", pa.int32()) for c in CATEGORIES]
    ),
    "turn_states": pa.schema(
        [("game_id", pa.string()), ("turn", pa.int32()), ("seat", pa.int32()), ("name", pa.string()),
         ("players", pa.int32()), ("coins", pa.int32()), ("resources", pa.int32()), ("vp", pa.int32()),
         ("bonuses", pa.int32()), ("unlocked", pa.list_(pa.string())), ("completed", pa.list_(pa.string()))]
        + [(f"crossed_{b}", pa.int32()) for b in BUILDINGS]
    ),
    "dice": pa.schema([
        ("game_id", pa.string()), ("turn", pa.int32()), ("die", pa.string()), ("colour", pa.string()),
        ("face", pa.string()), ("section", pa.int32()),
    ]),
    "actions": pa.schema([
        ("game_id", pa.string()), ("seq", pa.int64()), ("turn", pa.int32()), ("seat", pa.int32()), ("name", pa.string()),
        ("city", pa.string()), ("players", pa.int32()), ("kind", pa.string()), ("die", pa.string()), ("colour", pa.string()),
        ("section", pa.int32()), ("forum_cost", pa.int32()), ("die_cost", pa.int32()), ("construction_coins", pa.int32()),
        ("paid", pa.int32()), ("building", pa.string()), ("lane", pa.string()), ("space", pa.string()),
        ("vp_gained", pa.int32()), ("attack_printed", pa.int32()), ("defender_shields", pa.int32()),
        ("effects", pa.list_(pa.string())), ("steps", pa.int32()), ("bonus_slot", pa.int32()),
    ]),
}


def derive(events: Iterable[Event], library: RulesetLibrary | None = None) -> dict[str, list[dict[str, Any]]]:
    """The derived rows of one finished game."""
    events = list(events)
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in SCHEMAS}
    state = start_state(events[0], library)
    n = len(state.players)
    game_id = events[0].game_id
    for e in events[1:]:
        if e.type == "action_taken":
            rows["actions"].append(_action_row(state, e, n))
            continue
        apply(state, e)
        if e.type == "dice_rolled":
            rows["dice"].extend(
                {"game_id": game_id, "turn": e.payload["turn"], "die": d, "colour": state.forum[d],
                 "face": face, "section": section}
                for d, (face, section) in state.roll.items()
            )
        if e.type == "turn_ended":
            for p in state.players:
                cats = player_categories(state, p)
                row = {"game_id": game_id, "turn": e.payload["turn"], "seat": p.seat, "name": p.name, "players": n,
                       "coins": p.coins, "resources": max(0, p.resources), "vp": sum(cats.values()),
                       "bonuses": sum(p.bonuses), "unlocked": sorted(p.unlocked),
                       "completed": [b for b in p.board if p.complete(b)]}
                row.update({f"crossed_{b}": p.count(b) for b in BUILDINGS})
                rows["turn_states"].append(row)
    result = state.result or final_scores(state)
    order = sorted(result["scores"], key=lambda s: (-s["total"], -s["coins"]))
    for s in result["scores"]:
        p = state.players[s["seat"]]
        rank = 1 + sum(1 for o in order if (o["total"], o["coins"]) > (s["total"], s["coins"]))
        row = {"game_id": game_id, "seat": p.seat, "name": p.name, "city": p.city, "players": n, "total": s["total"],
               "coins": s["coins"], "rank": rank, "won": s["seat"] in result["winners"]}
        row.update({f"vp_{c}": s["categories"].get(c, 0) for c in CATEGORIES})
        rows["players"].append(row)
    start = events[0].payload
    rows["games"].append({
        "game_id": game_id, "kind": events[0].kind, "ruleset": start["ruleset"]["id"],
        "ruleset_version": start["ruleset"]["version"], "players": n, "turns": state.turn, "events": len(events),
        "winners": result["winners"], "winner_names": [state.players[w].name for w in result["winners"]],
        "tie_break": result["tie_break"], "top_score": max(s["total"] for s in result["scores"]),
    })
    return rows


def _action_row(state, e: Event, n: int) -> dict[str, Any]:
    """Describe the action from the table before it, then apply it."""
    p = e.payload
    player = state.players[p["player"]]
    main = p["steps"][0]
    row: dict[str, Any] = {
        "game_id": e.game_id, "seq": e.seq, "turn": p["turn"], "seat": player.seat, "name": player.name,
        "city": player.city, "players": n, "kind": main["kind"], "die": main.get("die"), "colour": None,
        "section": None, "forum_cost": None, "die_cost": None, "construction_coins": None,
        "building": main.get("building"), "lane": main.get("lane"), "space": main.get("space"),
        "attack_printed": None, "defender_shields": None, "steps": len(p["steps"]), "bonus_slot": None,
    }
    if main["kind"] in ("build", "wonder"):
        space = player.board[main["building"]].space[main["space"]]
        row["construction_coins"] = construction_coins(player, space.cost)
        if main["kind"] == "build":
            row["colour"] = state.forum[main["die"]]
            row["section"] = state.roll[main["die"]][1]
            row["forum_cost"] = forum_cost(state, main["die"])
            row["die_cost"] = die_cost(state, player, main["die"], False)
        attack = next((x.vp for x in space.effects if x.type == "attack"), None)
        if attack is not None:
            row["attack_printed"] = attack
            row["defender_shields"] = defence(state, player.seat, main["building"])
    before_vp, before_coins, crossed_before = sum(player.vp.values()), player.coins, len(player.this_turn)
    apply(state, e)
    player = state.players[p["player"]]
    new = player.this_turn[crossed_before:]
    row["effects"] = [x.type for b, s in new for x in player.board[b].space[s].effects]
    slots = [s["slot"] for s in p["steps"] if s["kind"] == "bonus"]
    row["bonus_slot"] = slots[0] if slots else None
    row["vp_gained"] = sum(player.vp.values()) - before_vp
    row["paid"] = (p.get("claims") or {}).get("paid")
    if row["paid"] is None:
        row["paid"] = max(0, before_coins - player.coins)
    return row


def reference_tables() -> dict[str, pa.Table]:
    """Rules data for SQL, from the default pack: ``dice_faces`` (colour, face, sides showing it)."""
    rows = []
    for die in default_ruleset().dice:
        counts: dict[str, int] = {}
        for f in die.faces:
            counts[f.face] = counts.get(f.face, 0) + 1
        rows.extend({"colour": die.colour, "face": face, "sides": n} for face, n in counts.items())
    return {"dice_faces": pa.Table.from_pylist(rows, schema=pa.schema([("colour", pa.string()), ("face", pa.string()),
                                                                       ("sides", pa.int32())]))}
