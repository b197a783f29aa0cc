"""Fleet's derived tables (SQL schema ``fleet``), gathered while a game is replayed.

* ``licenses``: one row per license bought (round, price, what it cost after the discount, how
  many raises the auction took, whether it was the buyer's first license);
* ``players``: one row per seat of a finished game: VP by category, the first license bought, boats,
  captains, won;
* ``holdings``: one row per seat and license type it owned at the end (copies), with whether it won;
* ``endings``: one row per finished game: player count, rounds, how it ended, the option, the
  winning total and the margin over the runner-up.

Every value comes from the rules' replay (the state before and after each event). A seat's
``strategy`` is the bot that played it, read from the start event's provenance (null for games
not simulated).
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from replay.analytics.strategy import strategies
from replay.contract import Analytics, Step, TableObserver
from replay.events import Event

from . import scoring
from .state import State

TABLES: dict[str, pa.Schema] = {
    "licenses": pa.schema([
        ("game_id", pa.string()), ("seq", pa.int64()), ("round", pa.int32()), ("players", pa.int32()),
        ("seat", pa.int32()), ("name", pa.string()), ("strategy", pa.string()), ("license", pa.string()),
        ("premium", pa.bool_()), ("cost", pa.int32()), ("price", pa.int32()), ("discount", pa.int32()),
        ("paid", pa.int32()), ("raises", pa.int32()), ("first", pa.bool_()), ("gone_fishin", pa.bool_()),
    ]),
    "players": pa.schema([
        ("game_id", pa.string()), ("seat", pa.int32()), ("name", pa.string()), ("players", pa.int32()),
        ("strategy", pa.string()), ("gone_fishin", pa.bool_()), ("first_license", pa.string()),
        ("licenses", pa.int32()), ("boats", pa.int32()), ("captains", pa.int32()), ("total", pa.int32()),
        ("rank", pa.int32()), ("won", pa.bool_()), ("vp_licenses", pa.int32()), ("vp_boats", pa.int32()),
        ("vp_fish", pa.int32()), ("vp_crab", pa.int32()), ("vp_gone_fishin", pa.int32()),
    ]),
    "holdings": pa.schema([
        ("game_id", pa.string()), ("seat", pa.int32()), ("players", pa.int32()), ("license", pa.string()),
        ("copies", pa.int32()), ("won", pa.bool_()),
    ]),
    "endings": pa.schema([
        ("game_id", pa.string()), ("players", pa.int32()), ("gone_fishin", pa.bool_()), ("rounds", pa.int32()),
        ("reason", pa.string()), ("tie_break", pa.string()), ("winning_total", pa.int32()), ("margin", pa.int32()),
        ("fish_left", pa.int32()), ("licenses_left", pa.int32()),
    ]),
}


class _Rows(TableObserver):
    def __init__(self, start: Event) -> None:
        self.game_id = start.game_id
        self.strategy = strategies(start)
        self.out: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
        self.raises = 0
        self.bid = 0
        self.first: dict[int, str] = {}
        self.discount = 0

    def before(self, state: State, event: Event) -> None:
        self.bid = state.auction["bid"] if state.auction else 0
        if event.type == "auction_opened":
            self.raises = 0
        seat = event.payload.get("seat")
        self.discount = state.discount(seat) if isinstance(seat, int) and 0 <= seat < state.n else 0

    def after(self, step: Step) -> None:
        if step.refused or step.index == 0:
            return
        e, state = step.event, step.state
        if e.type == "bid_raised":
            self.raises += 1
        elif e.type == "license_bought":
            p, seat = e.payload, e.payload["seat"]
            license = state.pack.license[p["license"]]
            first = seat not in self.first
            self.first.setdefault(seat, p["license"])
            self.out["licenses"].append({
                "game_id": self.game_id, "seq": e.seq, "round": state.round, "players": state.n, "seat": seat,
                "name": state.names[seat], "strategy": self.strategy[seat], "license": p["license"],
                "premium": license.premium, "cost": license.cost, "price": self.bid,
                "discount": self.discount,
                "paid": sum(state.pack.coins(c) for c in p["paid"]) + p["fish"], "raises": self.raises, "first": first,
                "gone_fishin": state.pack.gone_fishin.enabled})

    def finish(self, state: State | None) -> None:
        if state is None or state.phase != "over":
            return
        n, gf = state.n, state.pack.gone_fishin.enabled
        keys = [scoring.tie_key(state, s) for s in range(n)]
        totals = [k[0] for k in keys]
        for seat in range(n):
            vp = scoring.vp(state, seat)
            won = seat in state.winners
            self.out["players"].append({
                "game_id": self.game_id, "seat": seat, "name": state.names[seat], "players": n,
                "strategy": self.strategy[seat], "gone_fishin": gf, "first_license": self.first.get(seat),
                "licenses": len(state.licenses[seat]), "boats": len(state.boats[seat]), "captains": state.captains(seat),
                "total": totals[seat], "rank": 1 + sum(1 for k in keys if k > keys[seat]), "won": won,
                "vp_licenses": vp["licenses"], "vp_boats": vp["boats"], "vp_fish": vp["fish"],
                "vp_crab": vp["crab_captains"] + vp["crab_fish"] + vp["crab_licenses"], "vp_gone_fishin": vp["gone_fishin"]})
            for license in sorted(set(state.licenses[seat])):
                self.out["holdings"].append({"game_id": self.game_id, "seat": seat, "players": n, "license": license,
                                             "copies": state.licenses[seat].count(license), "won": won})
        ordered = sorted(totals, reverse=True)
        _, tie = scoring.winners(state)
        self.out["endings"].append({
            "game_id": self.game_id, "players": n, "gone_fishin": gf, "rounds": state.round,
            "reason": state.end_reason, "tie_break": tie, "winning_total": ordered[0],
            "margin": ordered[0] - ordered[1] if n > 1 else 0, "fish_left": state.supply,
            "licenses_left": len(state.licenses_deck)})

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return self.out


class FleetAnalytics(Analytics):
    schema = "fleet"
    tables = TABLES

    def observer(self, start: Event) -> TableObserver:
        return _Rows(start)
