"""What people see of a Pig game: the scores, a line per event, the result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from replay.contract import Result, Score, Views, ranks
from replay.events import Event
from replay.problems import Problem

from .rules import PigState


class PigViews(Views[PigState]):
    def data(self, state: PigState) -> dict[str, Any]:
        data = asdict(state)
        del data["die_faces"], data["bust_face"]  # the pack's, not the table's
        return data

    def headline(self, event: Event, names: Sequence[str]) -> str:
        p = event.payload
        if event.type == "game_started":
            return f"game started: {', '.join(names)}; target {p['target']}"
        who = names[p["player"]] if "player" in p and 0 <= p["player"] < len(names) else "?"
        if event.type == "die_rolled":
            return f"{who} rolls {p['face']}"
        if event.type == "held":
            return f"{who} holds" + (f" (banked {p['banked']})" if p["banked"] is not None else "")
        if event.type == "game_ended":
            return "game ended: " + ", ".join(f"{n} {s}" for n, s in zip(names, p["scores"]))
        return super().headline(event, names)

    def result(self, state: PigState) -> Result:
        rank = ranks(state.scores)
        return Result(tuple(state.winners),
                      tuple(Score(i, s, rank[i], i in state.winners) for i, s in enumerate(state.scores)),
                      finished=state.ended or bool(state.winners))

    def show(self, state: PigState, player: str | None = None) -> str:
        lines = [f"turn {state.turn}: {state.names[state.current]} to play, turn total {state.turn_total}"
                 + (f"; target {state.target}" if state.target else "")]
        for seat, (name, score) in enumerate(zip(state.names, state.scores)):
            if player and name.lower() != player.lower():
                continue
            mark = "  winner" if seat in state.winners else ""
            lines.append(f"  {name:<12} {score:>4}{mark}")
        return "\n".join(lines)

    def summary(self, state: PigState, names: Sequence[str]) -> str:
        return render(state)

    def explain(self, problem: Problem) -> str:
        who = problem.player or "the table"
        text = {
            "pig.turn-order": f"it was {problem.expected}'s turn, not {problem.found}'s",
            "pig.claim": f"the rules give {problem.expected}; the sheet says {problem.found}",
        }.get(problem.rule_id, f"expected {problem.expected}, found {problem.found}")
        return f"turn {problem.turn}, {who}: {text}" if problem.turn else f"{who}: {text}"

    def dispute(self, events: Sequence[Event]) -> tuple[int, dict[str, Any], str] | None:
        """The first turn total written down, five more."""
        for i, e in enumerate(events):
            if e.type == "held" and e.payload.get("banked") is not None:
                return i, {**e.payload, "banked": e.payload["banked"] + 5}, "one written turn total changed"
        return None

def render(state: PigState) -> str:
    lines = [f"after {state.events} events, turn {state.turn}:"]
    for seat, (name, score) in enumerate(zip(state.names, state.scores)):
        mark = "  winner" if seat in state.winners else ""
        lines.append(f"  {name:<12} {score:>4}{mark}")
    return "\n".join(lines)
