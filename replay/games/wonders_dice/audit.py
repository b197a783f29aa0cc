"""The audit: replay with every check, report every problem, and keep going after each.

After an illegal action the acting player is treated as having done nothing (the
engine restored their state); after a wrong claim the rules' values stand; an event
out of place is skipped. So one mistake is reported once, and later ones still are.
"""

from __future__ import annotations

from collections.abc import Sequence

from replay.audit import AuditReport, Finding
from replay.errors import RuleViolation, Violation
from replay.events import Event

from .engine import RULES, fail_for
from .projector import RulesetLibrary, _action, _done, apply, start_state
from .render import render
from .rules_data import Ruleset
from .scoring import final_scores
from .state import GameState


def explain(v: Violation) -> str:
    """One line a player understands."""
    who = v.player or "the table"
    head = f"turn {v.turn}, {who}: " if v.turn else f"{who}: "
    text = {
        "claim.paid": f"the action cost {v.expected} coins, but {v.found} were written down",
        "claim.vp": f"the action scored {v.expected} VP, but {v.found} were written down",
        "claim.coins": f"{who} held {v.expected} coins after the action, but {v.found} were written down",
        "pay.coins": f"{who} could not pay: {v.found}, holding {v.expected.removeprefix('at most ').removesuffix(' to pay')}",
        "space.order": f"the next space on that arrow was {v.expected.split(' ')[0]}, not {v.found}",
        "die.locked": f"{who} chose {v.found}: only a player who unlocked a special die may use it",
        "guild.condition": f"the Guild Court needs {v.expected}; {v.found}",
        "claim.score": f"the final scores are {v.expected}; the sheet says {v.found}",
    }.get(v.rule_id, f"expected {v.expected}, found {v.found}")
    return head + text


def audit(events: Sequence[Event], lines: dict[int, int] | None = None, rulesets: Sequence[Ruleset] = ()) -> AuditReport:
    lines = lines or {}
    game_id = events[0].game_id if events else "?"
    report = AuditReport(game_id=game_id, events=len(events))
    library = RulesetLibrary(rulesets) if rulesets else None

    def record(rv: RuleViolation) -> None:
        report.findings.append(Finding(rv.violation, explain(rv.violation), lines.get(rv.violation.seq)))

    try:
        state = start_state(events[0], library)
    except RuleViolation as rv:
        record(rv)
        return report
    claims = actions = 0
    coin_offsets: dict[str | None, int] = {}
    for e in events[1:]:
        if e.type == "action_taken":
            actions += 1
            claims += sum(v is not None for v in (e.payload.get("claims") or {}).values())
        try:
            apply(state, e)
        except RuleViolation as rv:
            v = rv.violation
            if v.rule_id == "claim.coins" and v.found.isdigit() and v.expected.isdigit():
                # After one mistake a sheet's coins stay off by the same amount: report each new offset once.
                offset = int(v.found) - int(v.expected)
                if coin_offsets.get(v.player) == offset:
                    state.seq = e.seq
                    continue
                coin_offsets[v.player] = offset
            record(rv)
            _recover(state, e, v.rule_id, record)
        state.seq = e.seq
    if state.phase in ("over", "ended") and state.result is None:
        state.result = final_scores(state)
    report.result = state.result
    report.state = state
    report.checked = {
        "events": len(events), "turns": state.turn, "actions": actions, "claims": claims,
        "rules": len(RULES), "final scores": "yes" if any(e.type == "game_ended" for e in events) else "no (unfinished)",
    }
    report.summary = _summary(state)
    return report


def _recover(state: GameState, e: Event, rule_id: str, record) -> None:
    """Put the table where the rest of the log can still be checked."""
    p = e.payload
    fail = fail_for(state, e, p.get("player"))
    if e.type == "action_taken":
        if rule_id.startswith("claim."):
            return  # the action was legal and stands; only what was written is wrong
        if rule_id == "turn.order":
            if state.phase == "actions" and p["turn"] == state.turn and p["player"] not in state.acted:
                _try(state, e, record, lambda: _action(state, p, e, fail, in_seat_order=False))
            return  # otherwise (a repeat, a turn with no roll): skipped
        if state.phase == "actions" and p["player"] not in state.acted:
            _done(state, p["player"])  # the illegal action counts as doing nothing
    elif e.type == "dice_rolled" and rule_id == "turn.order" and p["turn"] > state.turn:
        if state.phase in ("actions", "swaps"):  # the previous turn never ended: close it
            state.phase, state.pending_swaps = "swaps", []
            _try(state, e, record, lambda: apply(state, e._replace(type="turn_ended", payload={"turn": state.turn})))
        state.turn = p["turn"] - 1  # a missing turn: go on from this roll
        state.phase = "roll"
        _try(state, e, record, lambda: apply(state, e))
    elif e.type == "turn_ended" and rule_id in ("swap.required", "turn.order") and p["turn"] == state.turn:
        if state.phase in ("actions", "swaps"):
            state.pending_swaps.clear()
            state.phase = "swaps"
            _try(state, e, record, lambda: apply(state, e))
    elif e.type == "game_ended" and state.result is None:
        state.result = final_scores(state)
        state.phase = "ended"


def _try(state: GameState, e: Event, record, step) -> None:
    try:
        step()
    except RuleViolation as rv:
        record(rv)


def _summary(state: GameState) -> str:
    if state.result is None:
        return f"Unfinished: turn {state.turn}, phase {state.phase}."
    names = [p.name for p in state.players]
    winners = ", ".join(names[w] for w in state.result["winners"])
    return f"Winner: {winners} (tie-break: {state.result['tie_break']})\n{render(state)}"
