"""Pig's derived table ``pig.turns``: one row per turn, from the replay."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from replay.contract import Analytics, Step, TableObserver
from replay.events import Event

from .rules import PigState

TURNS = pa.schema([
    ("game_id", pa.string()), ("turn", pa.int32()), ("seat", pa.int32()), ("name", pa.string()),
    ("rolls", pa.int32()), ("banked", pa.int32()), ("bust", pa.bool_()), ("score_after", pa.int32()),
])


class _Turns(TableObserver):
    def __init__(self, start: Event) -> None:
        self.game_id = start.game_id
        self.out: list[dict[str, Any]] = []
        self.rolls = 0

    def before(self, state: PigState, event: Event) -> None:
        self.turn, self.seat, self.total = state.turn, state.current, state.turn_total

    def after(self, step: Step) -> None:
        state: PigState = step.state
        if step.index == 0 or step.refused:
            return
        if step.event.type == "die_rolled":
            self.rolls += 1
            if state.turn != self.turn:  # the bust face ended the turn
                self._row(state, banked=0, bust=True)
        elif step.event.type == "held":
            self._row(state, banked=self.total, bust=False)

    def _row(self, state: PigState, banked: int, bust: bool) -> None:
        self.out.append({"game_id": self.game_id, "turn": self.turn, "seat": self.seat, "name": state.names[self.seat],
                         "rolls": self.rolls, "banked": banked, "bust": bust, "score_after": state.scores[self.seat]})
        self.rolls = 0

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return {"turns": self.out}


class PigAnalytics(Analytics):
    schema = "pig"
    tables = {"turns": TURNS}

    def observer(self, start: Event) -> TableObserver:
        return _Turns(start)
