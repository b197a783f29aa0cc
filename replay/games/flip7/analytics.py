"""Flip 7's derived tables (SQL schema ``flip7``), gathered while a game is replayed.

The core derives ``games`` and ``players`` for every kind; Flip 7 adds what only it knows:

* ``decisions``: one row per Hit-or-Stay decision, with the seat's standing before it and, for
  a hit, the card drawn, what it did and what it gained (the push-your-luck question);
* ``rounds``: one row per seat and round (the round's score by category, how the seat left it);
* ``targets``: one row per ``target_chosen`` (who gave a Freeze, Flip Three or Second Chance to whom);
* ``players``: one row per seat of a finished game (strategy, position, total, rank, won);
* ``deck``: a reference table of the default pack's cards.

Every value comes from the rules' replay (the state before and after each event), never from
counters of the events' claims. A seat's ``strategy`` is the bot that played it, read from the
start event's provenance (``replay.games.flip7 seed=N bots=a,b,c``, cycled over the seats as the
simulation does: :func:`replay.analytics.strategy.strategies`); it is null for games not
simulated, where nothing records a strategy.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pyarrow as pa

from replay.analytics.strategy import strategies
from replay.contract import Analytics, Step, TableObserver
from replay.events import Event

from .state import ACTIVE, State

TABLES: dict[str, pa.Schema] = {
    "decisions": pa.schema([
        ("game_id", pa.string()), ("seq", pa.int64()), ("round", pa.int32()), ("turn", pa.int32()),
        ("seat", pa.int32()), ("name", pa.string()), ("players", pa.int32()), ("strategy", pa.string()),
        ("decision", pa.string()), ("numbers", pa.int32()), ("distinct_numbers", pa.int32()),
        ("number_sum", pa.int32()), ("score_before", pa.int32()), ("has_second_chance", pa.bool_()),
        ("bust_odds", pa.float64()), ("card", pa.string()), ("card_kind", pa.string()), ("outcome", pa.string()),
        ("score_after", pa.int32()), ("gain", pa.int32()),
    ]),
    "rounds": pa.schema([
        ("game_id", pa.string()), ("round", pa.int32()), ("seat", pa.int32()), ("name", pa.string()),
        ("players", pa.int32()), ("strategy", pa.string()), ("dealer", pa.bool_()), ("number_cards", pa.int32()),
        ("number_sum", pa.int32()), ("numbers", pa.int32()), ("x2", pa.int32()), ("modifiers", pa.int32()),
        ("bonus", pa.int32()), ("score", pa.int32()), ("total_after", pa.int32()), ("cards_held", pa.int32()),
        ("status", pa.string()), ("hits", pa.int32()), ("second_chances_used", pa.int32()),
    ]),
    "targets": pa.schema([
        ("game_id", pa.string()), ("seq", pa.int64()), ("round", pa.int32()), ("turn", pa.int32()),
        ("phase", pa.string()), ("players", pa.int32()), ("card", pa.string()), ("seat", pa.int32()),
        ("name", pa.string()), ("strategy", pa.string()), ("chooser_total", pa.int32()), ("chooser_rank", pa.int32()),
        ("target", pa.int32()), ("target_name", pa.string()), ("to_self", pa.bool_()), ("discarded", pa.bool_()),
        ("target_total", pa.int32()), ("target_rank", pa.int32()), ("target_standing", pa.int32()),
        ("target_numbers", pa.int32()),
    ]),
    "players": pa.schema([
        ("game_id", pa.string()), ("seat", pa.int32()), ("name", pa.string()), ("players", pa.int32()),
        ("strategy", pa.string()), ("position", pa.int32()), ("rounds", pa.int32()), ("total", pa.int32()),
        ("rank", pa.int32()), ("won", pa.bool_()), ("busts", pa.int32()), ("flip7s", pa.int32()),
    ]),
}

DECK = pa.schema([("card", pa.string()), ("kind", pa.string()), ("value", pa.int32()), ("count", pa.int32())])

def standing(state: State, seat: int) -> int:
    """The seat's round score as it stands (0 once busted), bonus included."""
    return sum(state.round_score(seat).values())


def number_sum(state: State, seat: int) -> int:
    return sum(state.cards.value.get(c, 0) for c in state.line[seat])


def bust_odds(state: State, seat: int) -> float | None:
    """The share of the cards the seat could draw next that repeat a number in its line.

    What a player counting cards knows: the draw pile's contents (every card not in sight),
    or the discard pile's when the draw pile is empty and will be reshuffled; not its order.
    """
    pile = state.draw or state.discard
    if not pile:
        return None
    counts = Counter(pile)
    return sum(counts[c] for c in set(state.line[seat])) / len(pile)


def rank(totals: list[int], seat: int) -> int:
    """1 for the highest total; ties share a rank."""
    return 1 + sum(1 for t in totals if t > totals[seat])


def end_status(state: State, seat: int) -> str:
    """How the seat left the round: stayed, busted, frozen, flip7, active_at_flip7 (another seat's
    Flip 7 ended it), or active (the round ended because no card was left to draw)."""
    if state.seven[seat]:
        return "flip7"
    if state.status[seat] == ACTIVE:
        return "active_at_flip7" if any(state.seven) else "active"
    return state.status[seat]


class _Rows(TableObserver):
    """The derived rows of one game, gathered as it is replayed."""

    def __init__(self, start: Event) -> None:
        self.game_id = start.game_id
        self.strategy = strategies(start)
        self.first_dealer = int(start.payload.get("first_dealer") or 0)
        self.out: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
        self.pending: dict[str, Any] | None = None
        """The row the event being applied makes, built from the state before it."""
        self.hit: dict[str, Any] | None = None
        """A hit whose card (and all it set off) is not resolved yet."""
        self.round_rows: list[dict[str, Any]] = []
        self.hits: Counter[int] = Counter()
        self.saved: Counter[int] = Counter()

    # ------------------------------------------------------------------ before each event

    def before(self, state: State, event: Event) -> None:
        self.pending = None
        e, t, p = state.expect, event.type, event.payload
        if t in ("player_hit", "player_stayed") and e == ["decision", p["seat"]]:
            self.pending = self._decision(state, event)
        elif t == "target_chosen" and e[0] == "target_chosen" and [p["seat"], p["card"]] == e[1:]:
            self.pending = self._target(state, event)
        elif t == "round_ended" and e[0] == "round_ended":
            self.round_rows = [self._round(state, seat) for seat in range(state.n)]

    def _decision(self, state: State, event: Event) -> dict[str, Any]:
        seat = event.payload["seat"]
        return {
            "game_id": self.game_id, "seq": event.seq, "round": state.round, "turn": state.turn, "seat": seat,
            "name": state.names[seat], "players": state.n, "strategy": self.strategy[seat],
            "decision": "hit" if event.type == "player_hit" else "stay", "numbers": len(state.line[seat]),
            "distinct_numbers": len(set(state.line[seat])), "number_sum": number_sum(state, seat),
            "score_before": standing(state, seat), "has_second_chance": state.chance[seat],
            "bust_odds": bust_odds(state, seat), "card": None, "card_kind": None, "outcome": None,
            "score_after": None, "gain": None,
        }

    def _target(self, state: State, event: Event) -> dict[str, Any]:
        p = event.payload
        seat, target = p["seat"], p["target"]
        aimed = isinstance(target, int) and 0 <= target < state.n
        return {
            "game_id": self.game_id, "seq": event.seq, "round": state.round, "turn": state.turn,
            "phase": state.phase, "players": state.n, "card": p["card"], "seat": seat, "name": state.names[seat],
            "strategy": self.strategy[seat], "chooser_total": state.total[seat],
            "chooser_rank": rank(state.total, seat), "target": target if aimed else None,
            "target_name": state.names[target] if aimed else None, "to_self": target == seat if aimed else None,
            "discarded": not aimed, "target_total": state.total[target] if aimed else None,
            "target_rank": rank(state.total, target) if aimed else None,
            "target_standing": standing(state, target) if aimed else None,
            "target_numbers": len(state.line[target]) if aimed else None,
        }

    def _round(self, state: State, seat: int) -> dict[str, Any]:
        parts = state.round_score(seat)
        return {
            "game_id": self.game_id, "round": state.round, "seat": seat, "name": state.names[seat],
            "players": state.n, "strategy": self.strategy[seat], "dealer": seat == state.dealer,
            "number_cards": len(state.line[seat]), "number_sum": number_sum(state, seat), **parts,
            "score": sum(parts.values()), "total_after": None,
            "cards_held": len(state.line[seat]) + len(state.area[seat]), "status": end_status(state, seat),
            "hits": self.hits[seat], "second_chances_used": self.saved[seat],
        }

    # ------------------------------------------------------------------ after each event

    def after(self, step: Step) -> None:
        e, state = step.event, step.state
        if step.index == 0 or state is None:
            return
        if not step.refused:
            self._applied(e, state)
        self.pending = None
        if self.hit is not None and state.expect[0] in ("decision", "round_ended", "none"):
            self._close_hit(state)

    def _applied(self, e: Event, state: State) -> None:
        t, p = e.type, e.payload
        if t == "player_hit" and self.pending is not None:
            self.hit = self.pending
            self.hits[p["seat"]] += 1
        elif t == "player_stayed" and self.pending is not None:
            self.out["decisions"].append(self.pending)
        elif t == "card_drawn" and p["reason"] == "hit" and self.hit is not None and self.hit["card"] is None:
            self._drawn(state, p["card"])
        elif t == "second_chance_used":
            self.saved[p["seat"]] += 1
        elif t == "target_chosen" and self.pending is not None:
            self.out["targets"].append(self.pending)
        elif t == "round_ended":
            for row in self.round_rows:
                row["total_after"] = state.total[row["seat"]]
            self.out["rounds"].extend(self.round_rows)
            self.round_rows = []
            self.hits.clear()
            self.saved.clear()

    def _drawn(self, state: State, card: str) -> None:
        """The hit's card and what it does, read from what the rules expect next."""
        assert self.hit is not None
        kind = state.cards.kind.get(card, "unknown")
        self.hit["card"], self.hit["card_kind"] = card, kind
        e, seat = state.expect, self.hit["seat"]
        if e[0] == "busted":
            outcome = "bust"
        elif e[0] == "second_chance_used":
            outcome = "saved"
        elif e == ["flipped_seven", seat]:
            outcome = "flip7"
        else:
            outcome = {"number": "number", "modifier": "modifier", "multiplier": "modifier"}.get(kind, "action")
        self.hit["outcome"] = outcome

    def _close_hit(self, state: State) -> None:
        """The hit's card and all it set off are resolved: its gain is the standing after minus before."""
        row, self.hit = self.hit, None
        assert row is not None
        if row["card"] is None:
            row["outcome"] = "no_card"  # no card left anywhere: the round ended
        row["score_after"] = standing(state, row["seat"])
        row["gain"] = row["score_after"] - row["score_before"]
        self.out["decisions"].append(row)

    # ------------------------------------------------------------------ the end

    def finish(self, state: State | None) -> None:
        if state is None or state.phase != "over":
            return
        busts: Counter[int] = Counter(r["seat"] for r in self.out["rounds"] if r["status"] == "busted")
        sevens: Counter[int] = Counter(r["seat"] for r in self.out["rounds"] if r["status"] == "flip7")
        n = state.n
        for seat in range(n):
            self.out["players"].append({
                "game_id": self.game_id, "seat": seat, "name": state.names[seat], "players": n,
                "strategy": self.strategy[seat], "position": (seat - self.first_dealer - 1) % n + 1,
                "rounds": state.round, "total": state.total[seat], "rank": rank(state.total, seat),
                "won": seat in state.winners, "busts": busts[seat], "flip7s": sevens[seat],
            })

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return self.out


def deck_table() -> pa.Table:
    """The default pack's deck: card, kind, value, count (rules data for SQL)."""
    from . import GAME

    pack = GAME.pack()
    deck = getattr(pack, "deck", [])
    return pa.Table.from_pylist([{"card": c.card, "kind": c.kind, "value": c.value, "count": c.count} for c in deck],
                                schema=DECK)


class Flip7Analytics(Analytics):
    schema = "flip7"
    tables = TABLES

    def observer(self, start: Event) -> TableObserver:
        return _Rows(start)

    def reference_tables(self) -> dict[str, pa.Table]:
        return {"deck": deck_table()}
