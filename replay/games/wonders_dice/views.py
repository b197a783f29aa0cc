"""What people see of a 7 Wonders Dice game: the table as data and text, each event in
words, the result by category, and each problem as a player would say it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay.contract import Result, Score, Views, ranks
from replay.events import Event
from replay.problems import Problem

from . import rows_compiled
from .engine import RULES
from .explain import headline
from .render import board_layout, render, show
from .scoring import final_scores
from .state import GameState


class WondersDiceViews(Views[GameState]):
    def data(self, state: GameState) -> dict[str, Any]:
        """``state.to_dict()``, made by the compiled rows where they take the table (the digest of every projected
        game's final state hashes it)."""
        compiled = rows_compiled.ROWS
        if compiled is not None and type(state) is GameState:
            made: dict[str, Any] | None = compiled.state_data(state)
            if made is not None:
                return made
        return state.to_dict()

    def headline(self, event: Event, names: Sequence[str]) -> str:
        return headline(event, list(names))

    def result(self, state: GameState) -> Result:
        result = state.result or final_scores(state)
        scores = sorted(result["scores"], key=lambda s: s["seat"])
        rank = ranks([(s["total"], s["coins"]) for s in scores])
        return Result(
            tuple(result["winners"]),
            tuple(Score(s["seat"], s["total"], rank[i], s["seat"] in result["winners"], dict(s["categories"]))
                  for i, s in enumerate(scores)),
            finished=state.phase == "ended",
            tie_break=result["tie_break"],
        )

    def show(self, state: GameState, player: str | None = None) -> str:
        return show(state, player)

    def page_board(self, state: GameState) -> dict[str, Any]:
        return board_layout(state)

    def summary(self, state: GameState, names: Sequence[str]) -> str:
        if state.result is None and state.phase not in ("over", "ended"):
            return f"Unfinished: turn {state.turn}, phase {state.phase}."
        result = state.result or final_scores(state)
        winners = ", ".join(state.players[w].name for w in result["winners"])
        return f"Winner: {winners} (tie-break: {result['tie_break']})\n{render(state)}"

    def checked(self, events: Sequence[Event], state: GameState | None) -> dict[str, Any]:
        actions = [e for e in events if e.type == "action_taken"]
        claims = sum(v is not None for e in actions for v in (e.payload.get("claims") or {}).values())
        return {
            "events": len(events), "turns": state.turn if state else 0, "actions": len(actions), "claims": claims,
            "rules": len(RULES), "final scores": "yes" if any(e.type == "game_ended" for e in events) else "no (unfinished)",
        }

    def explain(self, problem: Problem) -> str:
        who = problem.player or "the table"
        head = f"turn {problem.turn}, {who}: " if problem.turn else f"{who}: "
        expected, found = problem.expected or "", problem.found or ""
        text = {
            "claim.paid": f"the action cost {expected} coins, but {found} were written down",
            "claim.vp": f"the action scored {expected} VP, but {found} were written down",
            "claim.coins": f"{who} held {expected} coins after the action, but {found} were written down",
            "pay.coins": f"{who} could not pay: {found}, holding {expected.removeprefix('at most ').removesuffix(' to pay')}",
            "space.order": f"the next space on that arrow was {expected.split(' ')[0]}, not {found}",
            "die.locked": f"{who} chose {found}: only a player who unlocked a special die may use it",
            "guild.condition": f"the Guild Court needs {expected}; {found}",
            "claim.score": f"the final scores are {expected}; the sheet says {found}",
        }.get(problem.rule_id, f"expected {expected}, found {found}")
        return head + text

    def dispute(self, events: Sequence[Event]) -> tuple[int, dict[str, Any], str] | None:
        """The first payment written down, six coins more."""
        for i, e in enumerate(events):
            claims = e.payload.get("claims")
            if isinstance(claims, dict) and claims.get("paid"):
                return i, {**e.payload, "claims": {**claims, "paid": claims["paid"] + 6}}, "one written payment changed"
        return None
