"""7 Wonders Dice's derived tables (SQL schema ``wonders_dice``), gathered while a game is replayed.

The core derives ``games`` and ``players`` for every kind; this game adds, per game:
one ``wonders_dice.players`` row per seat (city, coins, VP by category), one
``turn_states`` row per turn and seat (the table at the end of the turn), one
``actions`` row per action (what was chosen, what it cost, what it scored) and one
``dice`` row per die rolled (the chance outcomes, flat, for fast counting). Every
value comes from the rules' replay, never from hand-kept counters.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from replay.contract import Analytics, Step, TableObserver
from replay.events import Event

from .engine import construction_coins, defence, die_cost, forum_cost
from .rules_data import Building, default_ruleset
from .scoring import end_rates, final_scores
from .state import GameState, PlayerState

BUILDINGS = tuple(default_ruleset().buildings_of("giza"))
_CROSSED = tuple((f"crossed_{b}", b) for b in BUILDINGS)
CATEGORIES = ("warehouse", "military", "agora", "market", "university", "guild", "gallery", "wonder", "bonus")

TABLES: dict[str, pa.Schema] = {
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


class _Rows(TableObserver):
    """The derived rows of one game, gathered as it is replayed."""

    def __init__(self, start: Event) -> None:
        self.game_id = start.game_id
        self.out: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
        self.pending: dict[str, Any] | None = None

    def before(self, state: GameState, event: Event) -> None:
        self.pending = None
        if event.type == "action_taken":
            try:
                self.pending = _action_before(state, event)
            except (KeyError, IndexError, TypeError):
                pass  # an illegal action: the rules refuse it, and it has no row

    def after(self, step: Step) -> None:
        e, state = step.event, step.state
        if step.refused or step.index == 0:
            return
        if e.type == "action_taken" and self.pending is not None:
            self.out["actions"].append(_action_after(state, e, self.pending))
        elif e.type == "dice_rolled":
            game_id, turn, forum = self.game_id, e.payload["turn"], state.forum
            self.out["dice"].extend(
                {"game_id": game_id, "turn": turn, "die": d, "colour": forum[d], "face": face, "section": section}
                for d, (face, section) in state.roll.items()
            )
        elif e.type == "turn_ended":
            n = len(state.players)
            turn = e.payload["turn"]
            append = self.out["turn_states"].append
            for p in state.players:
                crossed = p.crossed
                row = {"game_id": self.game_id, "turn": turn, "seat": p.seat, "name": p.name, "players": n,
                       "coins": p.coins, "resources": max(0, p.resources), "vp": _vp(state, p),
                       "bonuses": sum(p.bonuses), "unlocked": sorted(p.unlocked),
                       "completed": [b for b, size in _sizes(p.board) if len(crossed.get(b, ())) == size]}
                for key, b in _CROSSED:
                    row[key] = len(crossed.get(b, ()))
                append(row)

    def finish(self, state: GameState | None) -> None:
        if state is None:
            return
        result = state.result or final_scores(state)
        n = len(state.players)
        order = sorted(result["scores"], key=lambda s: (-s["total"], -s["coins"]))
        for s in result["scores"]:
            p = state.players[s["seat"]]
            rank = 1 + sum(1 for o in order if (o["total"], o["coins"]) > (s["total"], s["coins"]))
            row = {"game_id": self.game_id, "seat": p.seat, "name": p.name, "city": p.city, "players": n,
                   "total": s["total"], "coins": s["coins"], "rank": rank, "won": s["seat"] in result["winners"]}
            row.update({f"vp_{c}": s["categories"].get(c, 0) for c in CATEGORIES})
            self.out["players"].append(row)

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return self.out


_SIZES: dict[int, tuple[dict[str, Building], tuple[tuple[str, int], ...]]] = {}


def _sizes(board: dict[str, Building]) -> tuple[tuple[str, int], ...]:
    """(building, number of spaces) of a board, in board order: rules data, computed once per board."""
    found = _SIZES.get(id(board))
    if found is None or found[0] is not board:
        if len(_SIZES) > 64:
            _SIZES.clear()
        found = _SIZES[id(board)] = (board, tuple((b, len(building.spaces)) for b, building in board.items()))
    return found[1]


def _vp(state: GameState, p: PlayerState) -> int:
    """``sum(player_categories(state, p).values())``: the player's VP as it stands, without the
    dict by category (the end effects are the rare part, and taken the rules' own way)."""
    total = sum(p.vp.values())
    if not p.end_effects:
        return total
    crossed = p.crossed
    for (_, counted), vp in end_rates(state, p).items():
        if counted == "leaders":
            gallery = p.board.get("gallery")
            total += vp * (sum(1 for s in crossed.get("gallery", ()) if gallery.space[s].leader) if gallery else 0)
        else:
            total += vp * len(crossed.get(counted, ()))
    return total


def _action_before(state: GameState, e: Event) -> dict[str, Any]:
    """Describe an action from the table before it."""
    p = e.payload
    player = state.players[p["player"]]
    main = p["steps"][0]
    row: dict[str, Any] = {
        "game_id": e.game_id, "seq": e.seq, "turn": p["turn"], "seat": player.seat, "name": player.name,
        "city": player.city, "players": len(state.players), "kind": main["kind"], "die": main.get("die"),
        "colour": None, "section": None, "forum_cost": None, "die_cost": None, "construction_coins": None,
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
    row["_before"] = (sum(player.vp.values()), player.coins, len(player.this_turn))
    return row


def _action_after(state: GameState, e: Event, row: dict[str, Any]) -> dict[str, Any]:
    """Complete an action's row from the table after it."""
    p = e.payload
    before_vp, before_coins, crossed_before = row.pop("_before")
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
    rows: list[dict[str, Any]] = []
    for die in default_ruleset().dice:
        counts: dict[str, int] = {}
        for f in die.faces:
            counts[f.face] = counts.get(f.face, 0) + 1
        rows.extend({"colour": die.colour, "face": face, "sides": n} for face, n in counts.items())
    return {"dice_faces": pa.Table.from_pylist(rows, schema=pa.schema([("colour", pa.string()), ("face", pa.string()),
                                                                       ("sides", pa.int32())]))}


class WondersDiceAnalytics(Analytics):
    schema = "wonders_dice"
    tables = TABLES

    def observer(self, start: Event) -> TableObserver:
        return _Rows(start)

    def reference_tables(self) -> dict[str, pa.Table]:
        return reference_tables()
