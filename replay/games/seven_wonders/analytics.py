"""7 Wonders' derived tables (SQL schema ``seven_wonders``), gathered while a game is replayed.

The core derives ``games`` and ``players`` for every kind; 7 Wonders adds what only it knows:

* ``plays``: one row per ``card_played`` (and per card Halicarnassus builds from the discard
  pile): the card, what was done with it, and how it was paid (the card's coins, the coins to
  each neighbour, the resources bought);
* ``players``: one row per seat of a finished game: Wonder and side, points by category, rank,
  coins, trade paid and received, chains, discards;
* ``ages``: one row per seat and Age: the conflicts (shields, tokens), what the seat did in it,
  its coins at the Age's end;
* ``cards``: a reference table of the default pack's Age cards.

Every value comes from the rules' replay (the state before and after each event, the rules'
:func:`judge` for a payment, :func:`military` and the tokens the conflicts give, :func:`scores`),
never from the events' claims (``paid``, ``tokens``, ``scores``). A seat's ``strategy`` is the bot
that played it, read from the start event's provenance
(:func:`replay.analytics.strategy.strategies`); it is null for games not simulated.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pyarrow as pa

from replay.analytics.strategy import strategies
from replay.contract import Analytics, Step, TableObserver, ranks
from replay.errors import RuleViolation
from replay.events import Event
from replay.problems import Problem

from .events import CATEGORIES
from .pack import Card
from .rules import card_of, check, judge, military
from .scoring import scores
from .state import State

_SEAT = [("seat", pa.int32()), ("name", pa.string()), ("players", pa.int32()), ("strategy", pa.string())]
_STRINGS = pa.list_(pa.string())

TABLES: dict[str, pa.Schema] = {
    "plays": pa.schema([
        ("game_id", pa.string()), ("seq", pa.int64()), ("age", pa.int32()), ("turn", pa.int32()), *_SEAT,
        ("wonder", pa.string()), ("side", pa.string()), ("card", pa.string()), ("card_age", pa.int32()),
        ("card_name", pa.string()), ("colour", pa.string()), ("action", pa.string()), ("stage", pa.int32()),
        ("free", pa.string()), ("coins_before", pa.int32()), ("cost_coins", pa.int32()), ("to_left", pa.int32()),
        ("to_right", pa.int32()), ("trade_coins", pa.int32()), ("coins_paid", pa.int32()),
        ("bought_left", pa.int32()), ("bought_right", pa.int32()), ("bought", _STRINGS),
    ]),
    "players": pa.schema([
        ("game_id", pa.string()), *_SEAT, ("wonder", pa.string()), ("side", pa.string()),
        *[(f"vp_{c}", pa.int32()) for c in CATEGORIES], ("total", pa.int32()), ("rank", pa.int32()),
        ("won", pa.bool_()), ("coins", pa.int32()), ("shields", pa.int32()), ("structures", pa.int32()),
        ("stages", pa.int32()), ("coins_paid_to_neighbours", pa.int32()), ("coins_from_trade", pa.int32()),
        ("coins_paid_to_bank", pa.int32()), ("chains", pa.int32()), ("power_builds", pa.int32()),
        ("discards", pa.int32()),
    ]),
    "ages": pa.schema([
        ("game_id", pa.string()), ("age", pa.int32()), *_SEAT, ("wonder", pa.string()), ("side", pa.string()),
        ("shields", pa.int32()), ("tokens", pa.list_(pa.int32())), ("military_points", pa.int32()),
        ("victories", pa.int32()), ("defeats", pa.int32()), ("structures", pa.int32()), ("stages", pa.int32()),
        ("discards", pa.int32()), ("chains", pa.int32()), ("coins_paid_to_neighbours", pa.int32()),
        ("coins", pa.int32()),
    ]),
}

CARDS = pa.schema([
    ("age", pa.int32()), ("id", pa.string()), ("name", pa.string()), ("colour", pa.string()),
    ("cost_coins", pa.int32()), ("cost_resources", pa.int32()), ("chain_from", _STRINGS), ("chain_to", _STRINGS),
    ("min_players", pa.int32()),
])


def bought(left: dict[str, int], right: dict[str, int]) -> list[str]:
    """The resources bought from both neighbours, one item per unit, sorted."""
    return sorted(r for side in (left, right) for r, k in side.items() for _ in range(k))


class _Rows(TableObserver):
    """The derived rows of one game, gathered as it is replayed."""

    def __init__(self, start: Event) -> None:
        self.game_id = start.game_id
        self.strategy = strategies(start)
        self.out: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
        self.pending: dict[str, Any] | None = None
        """The ``plays`` row the event being applied makes, built from the state before it."""
        self.age_start: list[tuple[int, int]] = []
        """(shields, tokens held) of each seat just before the Age's conflicts."""
        self.last_turn = 0
        """The turn of the last card played: a build from the discard pile belongs to it."""

    def _seat(self, state: State, seat: int) -> dict[str, Any]:
        wonder, side = state.wonders[seat]
        return {"seat": seat, "name": state.names[seat], "players": state.n, "strategy": self.strategy[seat],
                "wonder": wonder, "side": side}

    # ------------------------------------------------------------------ before each event

    def before(self, state: State, event: Event) -> None:
        self.pending, self.age_start = None, []
        try:
            check(state, event)  # the rules' own check: nothing is gathered from an event they refuse
        except RuleViolation:
            return
        t, p = event.type, event.payload
        if t == "card_played":
            self.pending = self._play(state, event)
        elif t == "discard_built" and p["card"] is not None:
            card = card_of(state, state.age, p["card"])
            assert card is not None
            self.pending = self._row(state, event, p["seat"], card, "build", None, "discard_pile")
        elif t == "age_ended":
            self.age_start = [(military(state, s), len(state.tokens[s])) for s in range(state.n)]

    def _play(self, state: State, event: Event) -> dict[str, Any]:
        p = event.payload
        seat, action, free = p["seat"], p["action"], p.get("free")
        card = state.pack.card(state.age, p["card"])
        assert card is not None
        outcome = judge(state, seat, p)
        assert not isinstance(outcome, Problem)  # check() refused it otherwise
        to_left, to_right = outcome
        stage = state.stages[seat] + 1 if action == "wonder" else None
        if action == "discard" or free is not None:
            cost = 0
        elif stage is not None:
            cost = state.side(seat).stages[stage - 1].cost.coins
        else:
            cost = card.cost.coins
        left, right = p.get("left") or {}, p.get("right") or {}
        self.last_turn = p["turn"]
        return self._row(state, event, seat, card, action, stage, free, cost, to_left, to_right, left, right)

    def _row(self, state: State, event: Event, seat: int, card: Card, action: str, stage: int | None, free: str | None,
             cost: int = 0, to_left: int = 0, to_right: int = 0, left: dict[str, int] | None = None,
             right: dict[str, int] | None = None) -> dict[str, Any]:
        left, right = left or {}, right or {}
        return {
            "game_id": self.game_id, "seq": event.seq, "age": state.age, "turn": self.last_turn,
            **self._seat(state, seat), "card": card.id, "card_age": card.age, "card_name": card.name,
            "colour": card.colour, "action": action, "stage": stage, "free": free, "coins_before": state.coins[seat],
            "cost_coins": cost, "to_left": to_left, "to_right": to_right, "trade_coins": to_left + to_right,
            "coins_paid": cost + to_left + to_right, "bought_left": sum(left.values()),
            "bought_right": sum(right.values()), "bought": bought(left, right),
        }

    # ------------------------------------------------------------------ after each event

    def after(self, step: Step) -> None:
        state = step.state
        if step.index == 0 or state is None or step.refused:
            return
        if self.pending is not None:
            self.out["plays"].append(self.pending)
        elif step.event.type == "age_ended" and self.age_start:
            self._age_ended(state, step.event.payload["age"])

    def _age_ended(self, state: State, age: int) -> None:
        plays = [r for r in self.out["plays"] if r["age"] == age]
        for seat in range(state.n):
            mine = [r for r in plays if r["seat"] == seat]
            shields, held = self.age_start[seat]
            tokens = state.tokens[seat][held:]
            self.out["ages"].append({
                "game_id": self.game_id, "age": age, **self._seat(state, seat), "shields": shields, "tokens": tokens,
                "military_points": sum(tokens), "victories": sum(1 for t in tokens if t > 0),
                "defeats": sum(1 for t in tokens if t < 0), **_counts(mine), "coins": state.coins[seat],
            })

    # ------------------------------------------------------------------ the end

    def finish(self, state: State | None) -> None:
        if state is None or state.phase != "over":
            return
        final = scores(state)
        rank = ranks([(s["total"], state.coins[i]) for i, s in enumerate(final)])
        received: Counter[int] = Counter()
        for r in self.out["plays"]:
            received[state.left(r["seat"])] += r["to_left"]
            received[state.right(r["seat"])] += r["to_right"]
        for seat in range(state.n):
            counts = _totals([r for r in self.out["plays"] if r["seat"] == seat])
            self.out["players"].append({
                "game_id": self.game_id, **self._seat(state, seat),
                **{f"vp_{c}": final[seat][c] for c in CATEGORIES}, "total": final[seat]["total"], "rank": rank[seat],
                "won": seat in state.winners, "coins": state.coins[seat], "shields": military(state, seat),
                "structures": len(state.built[seat]), "stages": state.stages[seat],
                "coins_paid_to_neighbours": counts["coins_paid_to_neighbours"], "coins_from_trade": received[seat],
                "coins_paid_to_bank": counts["coins_paid_to_bank"], "chains": counts["chains"],
                "power_builds": counts["power_builds"], "discards": counts["discards"],
            })

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return self.out


def _counts(plays: list[dict[str, Any]]) -> dict[str, int]:
    """What a seat's plays (of an Age, or of the game) add up to."""
    return {
        "structures": sum(1 for r in plays if r["action"] == "build"),
        "stages": sum(1 for r in plays if r["action"] == "wonder"),
        "discards": sum(1 for r in plays if r["action"] == "discard"),
        "chains": sum(1 for r in plays if r["free"] == "chain"),
        "coins_paid_to_neighbours": sum(r["trade_coins"] for r in plays),
    }


def _totals(plays: list[dict[str, Any]]) -> dict[str, int]:
    """What a seat's plays of the whole game add up to."""
    return {**_counts(plays), "coins_paid_to_bank": sum(r["cost_coins"] for r in plays),
            "power_builds": sum(1 for r in plays if r["free"] in ("power", "discard_pile"))}


def cards_table() -> pa.Table:
    """The default pack's Age cards (rules data for SQL): one row per card of each Age."""
    from . import GAME

    pack = GAME.pack()
    rows = [{"age": c.age, "id": c.id, "name": c.name, "colour": c.colour, "cost_coins": c.cost.coins,
             "cost_resources": sum(c.cost.resources.values()), "chain_from": list(c.chain_from),
             "chain_to": list(c.chain_to), "min_players": min((k for k, v in c.copies.items() if v > 0), default=None)}
            for c in getattr(pack, "cards", ())]
    return pa.Table.from_pylist(rows, schema=CARDS)


class SevenWondersAnalytics(Analytics):
    schema = "seven_wonders"
    tables = TABLES

    def observer(self, start: Event) -> TableObserver:
        return _Rows(start)

    def reference_tables(self) -> dict[str, pa.Table]:
        return {"cards": cards_table()}
