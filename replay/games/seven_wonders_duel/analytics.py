"""7 Wonders Duel's derived tables (SQL schema ``seven_wonders_duel``), gathered while a game is replayed.

The core derives ``games`` and ``players`` for every kind; the Duel adds what only it knows:

* ``games``: one row per finished game: who started the draft and Age I, how it was won
  (``victory``: the state's victory kind as a string, so a kind an expansion adds is just another
  value), the winner, its length in turns;
* ``players``: one row per seat of a finished game: points by category, coins, the Conflict
  pawn's distance towards the opponent's capital, distinct scientific symbols, Wonders, tokens;
* ``plays``: one row per ``card_played``: the card, what was done with it, the coins it cost,
  the pawn and the symbols after it;
* ``ages``: one row per seat and Age played: the pawn and the symbols when the Age ended (or the
  game, if a supremacy ended it during the Age), what the seat did in it;
* ``wonders``: one row per Wonder drafted: built or not, when;
* ``progress``: one row per progress token taken, from the board or the box (the Great Library);
* ``divinities`` (Pantheon games only): one row per Divinity activated: its mythology, the Age,
  how (a turn's activation, the Gate, the Divine Theater) and the coins paid;
* ``senate`` (Agora games only): one row per seat of a finished game: the chambers it controls at
  the end, the Senate's points, its Senators, the conspiracies it triggered.

Every value comes from the rules' replay (the state after each event, the rules' :func:`check`
for a play's coins, :func:`scores`), never from the events' claims. A seat's ``strategy`` is the
bot that played it (:func:`replay.analytics.strategy.strategies`); null for games not simulated.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from replay.analytics.strategy import strategies
from replay.contract import Analytics, Step, TableObserver
from replay.errors import RuleViolation
from replay.events import Event

from .events import CATEGORIES
from .rules import check
from .scoring import scores
from .state import OVER, State

_SEAT = [("seat", pa.int32()), ("name", pa.string()), ("strategy", pa.string()), ("first", pa.bool_())]
_GAME_END = [("victory", pa.string()), ("won", pa.bool_())]

TABLES: dict[str, pa.Schema] = {
    "games": pa.schema([
        ("game_id", pa.string()), ("first", pa.int32()), ("victory", pa.string()), ("winner", pa.int32()),
        ("shared", pa.bool_()), ("turns", pa.int32()), ("last_age", pa.int32()), ("pawn", pa.int32()),
    ]),
    "players": pa.schema([
        ("game_id", pa.string()), *_SEAT, *_GAME_END, *[(f"vp_{c}", pa.int32()) for c in CATEGORIES],
        ("total", pa.int32()), ("coins", pa.int32()), ("pawn", pa.int32()), ("symbols", pa.int32()),
        ("wonders_built", pa.int32()), ("progress_tokens", pa.int32()), ("constructed", pa.int32()),
        ("chains", pa.int32()), ("discards", pa.int32()), ("coins_paid", pa.int32()),
    ]),
    "plays": pa.schema([
        ("game_id", pa.string()), ("seq", pa.int64()), ("turn", pa.int32()), ("age", pa.int32()), *_SEAT,
        ("card", pa.string()), ("colour", pa.string()), ("action", pa.string()), ("wonder", pa.string()),
        ("free", pa.string()), ("coins_paid", pa.int32()), ("bought", pa.int32()), ("pawn", pa.int32()),
        ("symbols", pa.int32()),
    ]),
    "ages": pa.schema([
        ("game_id", pa.string()), ("age", pa.int32()), *_SEAT, ("complete", pa.bool_()), ("pawn", pa.int32()),
        ("symbols", pa.int32()), ("coins", pa.int32()), ("constructed", pa.int32()), ("wonders_built", pa.int32()),
        ("discards", pa.int32()), ("chains", pa.int32()),
    ]),
    "wonders": pa.schema([
        ("game_id", pa.string()), *_SEAT, *_GAME_END, ("wonder", pa.string()), ("draft_set", pa.int32()),
        ("built", pa.bool_()), ("age_built", pa.int32()), ("turn_built", pa.int32()),
    ]),
    "progress": pa.schema([
        ("game_id", pa.string()), ("seq", pa.int64()), ("age", pa.int32()), *_SEAT, *_GAME_END, ("token", pa.string()),
        ("source", pa.string()),
    ]),
    "divinities": pa.schema([
        ("game_id", pa.string()), *_SEAT, *_GAME_END, ("divinity", pa.string()), ("mythology", pa.string()),
        ("age", pa.int32()), ("via", pa.string()), ("paid", pa.int32()),
    ]),
    "senate": pa.schema([
        ("game_id", pa.string()), *_SEAT, *_GAME_END, ("chambers", pa.int32()), ("controlled", pa.list_(pa.string())),
        ("senate_vp", pa.int32()), ("senators", pa.int32()), ("conspiracies_triggered", pa.int32()),
    ]),
}
EXPANSION_TABLES = {"divinities": "pantheon", "senate": "agora"}
"""The tables only an expansion's games fill, and the expansion."""


def towards(state: State, seat: int) -> int:
    """The Conflict pawn's distance towards ``seat``'s opponent's capital (negative: towards its own)."""
    return state.pawn if seat == 0 else -state.pawn


def distinct_symbols(state: State, seat: int) -> int:
    return len(set(state.symbols(seat)))


class _Rows(TableObserver):
    """The derived rows of one game, gathered as it is replayed."""

    def __init__(self, start: Event) -> None:
        self.game_id = start.game_id
        self.strategy = strategies(start)
        self.first = int(start.payload.get("first", 0))
        self.out: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
        self.paid: int | None = None
        """The coins the ``card_played`` being applied costs (the rules' check, before it)."""
        self.age = 0

    def _seat(self, state: State, seat: int) -> dict[str, Any]:
        return {"seat": seat, "name": state.names[seat], "strategy": self.strategy[seat], "first": seat == self.first}

    def before(self, state: State, event: Event) -> None:
        self.paid = None
        if event.type == "card_played":
            try:
                self.paid = check(state, event)  # the rules' own check: nothing is gathered from an event they refuse
            except RuleViolation:
                return
        elif event.type == "age_dealt" and state.age:
            self._age_ended(state, complete=True)

    def after(self, step: Step) -> None:
        state, e = step.state, step.event
        if step.index == 0 or state is None or step.refused:
            return
        p = e.payload
        if e.type == "card_played" and self.paid is not None:
            seat = p["seat"]
            self.age = state.age
            self.out["plays"].append({
                "game_id": self.game_id, "seq": e.seq, "turn": len(self.out["plays"]) + 1, "age": state.age,
                **self._seat(state, seat), "card": p["card"], "colour": _colour(state, p["card"]),
                "action": p["action"], "wonder": p["wonder"], "free": p["free"], "coins_paid": self.paid,
                "bought": sum(p["bought"].values()), "pawn": towards(state, seat), "symbols": distinct_symbols(state, seat),
            })
        elif e.type == "progress_taken":
            self.out["progress"].append({"game_id": self.game_id, "seq": e.seq, "age": state.age,
                                         **self._seat(state, p["seat"]), "victory": None, "won": None,
                                         "token": p["token"], "source": p["source"]})

    def _age_ended(self, state: State, complete: bool) -> None:
        plays = [r for r in self.out["plays"] if r["age"] == state.age]
        for seat in (0, 1):
            mine = [r for r in plays if r["seat"] == seat]
            self.out["ages"].append({
                "game_id": self.game_id, "age": state.age, **self._seat(state, seat), "complete": complete,
                "pawn": towards(state, seat), "symbols": distinct_symbols(state, seat), "coins": state.coins[seat],
                **_counts(mine),
            })

    def finish(self, state: State | None) -> None:
        if state is None or state.phase != OVER:
            return
        self._age_ended(state, complete=len(state.taken) == len(state.slots))
        final = scores(state)
        victory = str(state.victory)
        won = set(state.winners)
        for row in self.out["progress"]:
            row.update(victory=victory, won=row["seat"] in won)
        self.out["games"].append({
            "game_id": self.game_id, "first": self.first, "victory": victory,
            "winner": state.winners[0] if len(state.winners) == 1 else None, "shared": len(state.winners) > 1,
            "turns": len(self.out["plays"]), "last_age": state.age, "pawn": state.pawn,
        })
        for seat in (0, 1):
            mine = [r for r in self.out["plays"] if r["seat"] == seat]
            counts = _counts(mine)
            self.out["players"].append({
                "game_id": self.game_id, **self._seat(state, seat), "victory": victory, "won": seat in won,
                **{f"vp_{c}": final[seat][c] for c in CATEGORIES}, "total": final[seat]["total"],
                "coins": state.coins[seat], "pawn": towards(state, seat), "symbols": distinct_symbols(state, seat),
                "wonders_built": len(state.built_wonders[seat]), "progress_tokens": len(state.tokens[seat]),
                "constructed": counts["constructed"], "chains": counts["chains"], "discards": counts["discards"],
                "coins_paid": sum(r["coins_paid"] for r in mine),
            })
            built = {r["wonder"]: r for r in mine if r["action"] == "wonder"}
            for i, wonder in enumerate(state.wonders[seat]):
                play = built.get(wonder)
                self.out["wonders"].append({
                    "game_id": self.game_id, **self._seat(state, seat), "victory": victory, "won": seat in won,
                    "wonder": wonder, "draft_set": 1 + i // 2, "built": play is not None,
                    "age_built": play["age"] if play else None, "turn_built": play["turn"] if play else None,
                })
            if state.pantheon is not None and state.pack.pantheon is not None:
                mythology = {d.id: d.mythology for d in (*state.pack.pantheon.divinities, state.pack.pantheon.gate)}
                self.out["divinities"] += [
                    {"game_id": self.game_id, **self._seat(state, seat), "victory": victory, "won": seat in won,
                     "divinity": a["divinity"], "mythology": mythology[a["divinity"]], "age": a["age"],
                     "via": a["via"], "paid": a["paid"]}
                    for a in state.pantheon["activated"][seat]]
            if state.agora is not None:
                controlled = state.agora["final_control"][seat]
                self.out["senate"].append({
                    "game_id": self.game_id, **self._seat(state, seat), "victory": victory, "won": seat in won,
                    "chambers": len(controlled), "controlled": sorted(controlled), "senate_vp": final[seat]["senate"],
                    "senators": len(state.agora["senators"][seat]),
                    "conspiracies_triggered": len(state.agora["triggered"][seat]),
                })

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return self.out


def _counts(plays: list[dict[str, Any]]) -> dict[str, int]:
    """What a seat's plays (of an Age, or of the game) add up to."""
    return {
        "constructed": sum(1 for r in plays if r["action"] == "construct"),
        "wonders_built": sum(1 for r in plays if r["action"] == "wonder"),
        "discards": sum(1 for r in plays if r["action"] == "discard"),
        "chains": sum(1 for r in plays if r["free"] == "chain"),
    }


class DuelAnalytics(Analytics):
    schema = "seven_wonders_duel"
    tables = TABLES

    def tables_played(self, pack: Any) -> frozenset[str]:
        played = set(pack.options.expansions)
        return frozenset(t for t in TABLES if EXPANSION_TABLES.get(t, "") in played | {""})

    def observer(self, start: Event) -> TableObserver:
        return _Rows(start)


def _colour(state: State, card: str) -> str | None:
    """A card's colour; None for an Agora Senator (discarded or put under a Wonder), which has none."""
    return state.card(card).colour if card in state.pack.by_id else None
