"""7 Wonders Dice's derived rows against a plain reference: every row of every game-table, as the
projection's observer gives it, equals the row an obvious observer computes through the rules'
general helpers (``player_categories``, ``PlayerState.count``/``complete``, each space's effects read
from the board), on many simulated games under packs of every option.

The projection's observer takes shortcuts for speed (board facts computed once per board, an action's
values carried from before it to after it; docs/performance.md, "Projection"); this is the check that they compute what the
rules say, independent of the pinned digests of ``test_project_rows_pinned.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_project_rows_pinned import BOTS, NAMES, PACKS

from replay.contract import Step, TableObserver
from replay.driver import Replay
from replay.events import Event
from replay.games.wonders_dice import GAME as WD
from replay.games.wonders_dice import simulate_game
from replay.games.wonders_dice.analytics import BUILDINGS, CATEGORIES
from replay.games.wonders_dice.analytics import NAMES as COLUMNS
from replay.games.wonders_dice.engine import construction_coins, defence, die_cost, forum_cost
from replay.games.wonders_dice.scoring import final_scores, player_categories
from replay.games.wonders_dice.state import GameState


class Reference(TableObserver):
    """Every row as a dict, each value the rules' general way, nothing cached."""

    def __init__(self, start: Event) -> None:
        self.game_id = start.game_id
        self.out: dict[str, list[dict[str, Any]]] = {name: [] for name in COLUMNS}
        self.pending: dict[str, Any] | None = None

    def before(self, state: GameState, event: Event) -> None:
        self.pending = None
        if event.type != "action_taken":
            return
        p = event.payload
        try:
            player = state.players[p["player"]]
            main = p["steps"][0]
            row: dict[str, Any] = {
                "game_id": event.game_id, "seq": event.seq, "turn": p["turn"], "seat": player.seat, "name": player.name,
                "city": player.city, "players": len(state.players), "kind": main["kind"], "die": main.get("die"),
                "colour": None, "section": None, "forum_cost": None, "die_cost": None, "construction_coins": None,
                "building": main.get("building"), "lane": main.get("lane"), "space": main.get("space"),
                "attack_printed": None, "defender_shields": None, "steps": len(p["steps"]),
            }
            if main["kind"] in ("build", "wonder"):
                space = player.board[main["building"]].space[main["space"]]
                row["construction_coins"] = construction_coins(player, space.cost)
                if main["kind"] == "build":
                    die = main["die"]
                    row |= {"colour": state.forum[die], "section": state.roll[die][1], "forum_cost": forum_cost(state, die),
                            "die_cost": die_cost(state, player, die, False)}
                attacks = [x.vp for x in space.effects if x.type == "attack"]
                if attacks:
                    row |= {"attack_printed": attacks[0], "defender_shields": defence(state, player.seat, main["building"])}
        except (KeyError, IndexError, TypeError):
            return
        self.pending = {"row": row, "vp": sum(player.vp.values()), "coins": player.coins, "crossed": len(player.this_turn)}

    def after(self, step: Step) -> None:
        e, state = step.event, step.state
        if step.refused or step.index == 0:
            return
        if e.type == "action_taken" and self.pending is not None:
            p = e.payload
            player = state.players[p["player"]]
            paid = (p.get("claims") or {}).get("paid")
            slots = [s["slot"] for s in p["steps"] if s["kind"] == "bonus"]
            row = self.pending["row"] | {
                "paid": max(0, self.pending["coins"] - player.coins) if paid is None else paid,
                "vp_gained": sum(player.vp.values()) - self.pending["vp"],
                "effects": [x.type for b, s in player.this_turn[self.pending["crossed"]:]
                            for x in player.board[b].space[s].effects],
                "bonus_slot": slots[0] if slots else None,
            }
            self.out["actions"].append({c: row[c] for c in COLUMNS["actions"]})
        elif e.type == "dice_rolled":
            for d, (face, section) in state.roll.items():
                self.out["dice"].append({"game_id": self.game_id, "turn": e.payload["turn"], "die": d,
                                         "colour": state.forum[d], "face": face, "section": section})
        elif e.type == "turn_ended":
            for p in state.players:
                row = {"game_id": self.game_id, "turn": e.payload["turn"], "seat": p.seat, "name": p.name,
                       "players": len(state.players), "coins": p.coins, "resources": max(0, p.resources),
                       "vp": sum(player_categories(state, p).values()), "bonuses": sum(p.bonuses),
                       "unlocked": sorted(p.unlocked), "completed": [b for b in p.board if p.complete(b)]}
                row |= {f"crossed_{b}": p.count(b) for b in BUILDINGS}
                self.out["turn_states"].append(row)

    def finish(self, state: GameState | None) -> None:
        assert state is not None
        result = state.result or final_scores(state)
        keys = [(s["total"], s["coins"]) for s in result["scores"]]
        for s in result["scores"]:
            p = state.players[s["seat"]]
            row = {"game_id": self.game_id, "seat": p.seat, "name": p.name, "city": p.city, "players": len(state.players),
                   "total": s["total"], "coins": s["coins"], "rank": 1 + sum(k > (s["total"], s["coins"]) for k in keys),
                   "won": s["seat"] in result["winners"]} | {f"vp_{c}": s["categories"].get(c, 0) for c in CATEGORIES}
            self.out["players"].append(row)

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return self.out


def both(events: list[Event], pack_name: str) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """(the projection observer's rows, the reference's) of one game, from one replay."""
    assert WD.analytics is not None
    fast, reference = WD.analytics.observer(events[0]), Reference(events[0])
    replay: Replay[Any] = Replay(WD, WD.library(extra=[PACKS[pack_name]]))
    replay.observe(fast, reference).run(events).finish()
    return fast.rows(), reference.rows()


@pytest.mark.parametrize("pack_name", sorted(PACKS))
@pytest.mark.parametrize("bots", sorted(BOTS))
def test_the_observer_gives_the_reference_rows(pack_name, bots):
    rows = {t: 0 for t in COLUMNS}
    for i in range(12):
        events = simulate_game(f"ref-{pack_name}-{bots}-{i}", NAMES[: 2 + i % 6], 9100 + i, BOTS[bots], PACKS[pack_name])
        fast, reference = both(events, pack_name)
        for table, expected in reference.items():
            assert fast[table] == expected, (events[0].game_id, table)
            rows[table] += len(expected)
    assert all(rows.values()), rows  # every table had rows to compare
    assert rows["turn_states"] > 100 and rows["actions"] > 100


def test_the_comparison_sees_a_wrong_value():
    """The comparison above can fail: a row the observer got wrong by one VP is told apart."""
    events = simulate_game("ref-wrong", NAMES[:4], 9001, BOTS["greedy"], PACKS["default"])
    fast, reference = both(events, "default")
    assert fast == reference
    reference["turn_states"][-1]["vp"] += 1
    assert fast["turn_states"] != reference["turn_states"]
