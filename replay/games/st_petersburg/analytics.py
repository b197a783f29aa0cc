"""St. Petersburg's derived tables (SQL schema ``stpete``), gathered while a game is replayed.

* ``actions``: one row per turn action (buy, take, pass, observatory, discard), with the price the
  rules charged and the printed cost, so the lower row's discount and the hand can be measured;
* ``phases``: one row per seat and scored phase (the income it gave, the standing after);
* ``rounds``: one row per round end (what the lower row held when discarded, what moved down);
* ``players``: one row per seat of a finished game (points by category, the first aristocrat bought);
* ``cards``: a reference table of the default pack's cards.

Every value comes from the rules' replay (the state before and after each event), never from the
claims. ``strategy`` is the bot behind the seat of a simulated game (:mod:`replay.analytics.strategy`).
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from replay.analytics.strategy import strategies
from replay.contract import Analytics, Step, TableObserver
from replay.events import Event

from .legal import cost
from .scoring import aristocrat_types
from .state import State

TABLES: dict[str, pa.Schema] = {
    "actions": pa.schema([
        ("game_id", pa.string()), ("seq", pa.int64()), ("round", pa.int32()), ("phase", pa.string()),
        ("turn", pa.int32()), ("seat", pa.int32()), ("name", pa.string()), ("players", pa.int32()),
        ("strategy", pa.string()), ("action", pa.string()), ("card", pa.string()), ("card_deck", pa.string()),
        ("colour", pa.string()), ("source", pa.string()), ("displaced", pa.string()), ("price", pa.int32()),
        ("printed_cost", pa.int32()), ("rubles_before", pa.int32()), ("hand_before", pa.int32()),
    ]),
    "phases": pa.schema([
        ("game_id", pa.string()), ("round", pa.int32()), ("phase", pa.string()), ("seat", pa.int32()),
        ("name", pa.string()), ("players", pa.int32()), ("strategy", pa.string()), ("rubles_income", pa.int32()),
        ("points_income", pa.int32()), ("rubles_after", pa.int32()), ("points_after", pa.int32()),
    ]),
    "rounds": pa.schema([
        ("game_id", pa.string()), ("round", pa.int32()), ("players", pa.int32()), ("lower_row_discarded", pa.int32()),
        ("lower_row_value", pa.int32()), ("moved_down", pa.int32()), ("moved_down_value", pa.int32()),
    ]),
    "players": pa.schema([
        ("game_id", pa.string()), ("seat", pa.int32()), ("name", pa.string()), ("players", pa.int32()),
        ("strategy", pa.string()), ("rounds", pa.int32()), ("total", pa.int32()), ("rank", pa.int32()),
        ("won", pa.bool_()), ("worker_points", pa.int32()), ("building_points", pa.int32()),
        ("aristocrat_points", pa.int32()), ("pub_points", pa.int32()), ("aristocrat_types", pa.int32()),
        ("aristocrat_type_points", pa.int32()), ("ruble_points", pa.int32()), ("hand_cards", pa.int32()),
        ("hand_points", pa.int32()), ("rubles_left", pa.int32()), ("first_aristocrat", pa.string()),
        ("first_aristocrat_round", pa.int32()),
    ]),
}

CARDS = pa.schema([("card", pa.string()), ("name", pa.string()), ("deck", pa.string()), ("colour", pa.string()),
                   ("cost", pa.int32()), ("rubles", pa.int32()), ("points", pa.int32()), ("count", pa.int32())])

ACTIONS = {"passed": "pass", "card_bought": "buy", "card_taken": "take", "observatory_used": "observatory",
           "card_discarded": "discard"}


class _Rows(TableObserver):
    def __init__(self, start: Event) -> None:
        self.game_id = start.game_id
        self.strategy = strategies(start)
        self.out: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
        self.pending: dict[str, Any] | None = None
        self.first_aristocrat: dict[int, tuple[str, int]] = {}

    def before(self, state: State, event: Event) -> None:
        self.pending = None
        t, p = event.type, event.payload
        if t in ACTIONS:
            seat = p["seat"]
            card = state.card(p.get("card", "")) if t in ("card_bought", "card_taken", "card_discarded") else None
            if t == "observatory_used":
                card = state.card(p["card"])
            price = None
            if t == "card_bought" and card is not None:
                displaced = state.card(p["displaces"]) if p.get("displaces") else None
                price = cost(state, seat, card, p["source"], displaced)
            self.pending = {
                "game_id": self.game_id, "seq": event.seq, "round": state.round, "phase": state.phase_name,
                "turn": state.turn + (0 if state.expect[0] == "observatory" else 1), "seat": seat,
                "name": state.names[seat], "players": state.n, "strategy": self.strategy[seat], "action": ACTIONS[t],
                "card": card.id if card else None, "card_deck": card.deck if card else None,
                "colour": card.colour if card else None, "source": p.get("source", "observatory" if card else None),
                "displaced": p.get("displaces"), "price": price, "printed_cost": card.cost if card else None,
                "rubles_before": state.rubles[seat], "hand_before": len(state.hand[seat]),
            }
            if t == "observatory_used":
                self.pending["source"] = p["deck"]
        elif t == "phase_ended" and p["phase"] != "trading":
            self.pending = {"before": (list(state.rubles), list(state.points)), "round": state.round, "phase": p["phase"]}
        elif t == "round_ended":
            by_id = state.pack.by_id
            self.pending = {"game_id": self.game_id, "round": state.round, "players": state.n,
                            "lower_row_discarded": len(state.bottom),
                            "lower_row_value": sum(by_id[c].cost for c in state.bottom),
                            "moved_down": len(state.top), "moved_down_value": sum(by_id[c].cost for c in state.top)}

    def after(self, step: Step) -> None:
        row, self.pending = self.pending, None
        if row is None or step.refused:
            return
        t = step.event.type
        state: State = step.state
        if t in ACTIONS:
            self.out["actions"].append(row)
            card = row["card"]
            if t == "card_bought" and row["colour"] == "aristocrat" and row["seat"] not in self.first_aristocrat:
                self.first_aristocrat[row["seat"]] = (card, row["round"])
        elif t == "phase_ended":
            rubles, points = row["before"]
            for s in range(state.n):
                self.out["phases"].append({
                    "game_id": self.game_id, "round": row["round"], "phase": row["phase"], "seat": s,
                    "name": state.names[s], "players": state.n, "strategy": self.strategy[s],
                    "rubles_income": state.rubles[s] - rubles[s], "points_income": state.points[s] - points[s],
                    "rubles_after": state.rubles[s], "points_after": state.points[s]})
        elif t == "round_ended":
            self.out["rounds"].append(row)

    def finish(self, state: State | None) -> None:
        if state is None or state.expect[0] != "none":
            return
        for s in range(state.n):
            cats = state.categories[s]
            first = self.first_aristocrat.get(s)
            self.out["players"].append({
                "game_id": self.game_id, "seat": s, "name": state.names[s], "players": state.n,
                "strategy": self.strategy[s], "rounds": state.round, "total": state.points[s],
                "rank": 1 + sum(1 for t in state.points if t > state.points[s]), "won": s in state.winners,
                "worker_points": cats["worker"], "building_points": cats["building"],
                "aristocrat_points": cats["aristocrat"], "pub_points": cats["pub"],
                "aristocrat_types": aristocrat_types(state, s), "aristocrat_type_points": cats["aristocrat_types"],
                "ruble_points": cats["rubles"], "hand_cards": len(state.hand[s]), "hand_points": cats["hand"],
                "rubles_left": state.rubles_left[s], "first_aristocrat": first[0] if first else None,
                "first_aristocrat_round": first[1] if first else None})

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return self.out


def cards_table() -> pa.Table:
    from . import GAME

    pack = GAME.pack()
    cards = getattr(pack, "cards", [])
    return pa.Table.from_pylist([{"card": c.id, "name": c.name, "deck": c.deck, "colour": c.colour, "cost": c.cost,
                                  "rubles": c.rubles, "points": c.points, "count": c.count} for c in cards], schema=CARDS)


class StPeteAnalytics(Analytics):
    schema = "stpete"
    tables = TABLES

    def observer(self, start: Event) -> TableObserver:
        return _Rows(start)

    def reference_tables(self) -> dict[str, pa.Table]:
        return {"cards": cards_table()}
