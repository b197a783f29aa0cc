"""The audit: replay a game with every check, and report every problem, located and explained.

The replay is lenient, so one mistake is reported once and later ones still are;
an archived game's hash chain is checked too, so an event altered after it was
written is named even when it agrees with itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..chain import GENESIS, link
from ..contract import Result
from ..driver import replay
from ..packs import RulesPack
from ..problems import Location, Problem
from .logs import Log


@dataclass
class AuditReport:
    game_id: str
    kind: str
    events: int
    problems: list[Problem] = field(default_factory=list)
    checked: dict[str, Any] = field(default_factory=dict)
    result: Result | None = None
    summary: str = ""
    state: Any = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        result = None
        if self.result is not None:
            result = {"finished": self.result.finished, "winners": list(self.result.winners),
                      "tie_break": self.result.tie_break,
                      "scores": [{"seat": s.seat, "total": s.total, "rank": s.rank, "won": s.won,
                                  "categories": dict(s.categories)} for s in self.result.scores]}
        return {"game_id": self.game_id, "kind": self.kind, "ok": self.ok, "events": self.events,
                "problems": [p.to_json() for p in self.problems], "checked": self.checked, "result": result}

    def to_text(self) -> str:
        lines = [f"Audit of {self.game_id} ({self.kind}): {self.events} events"]
        if self.problems:
            lines.append(f"{len(self.problems)} problem(s):")
            lines.extend(describe(p) for p in self.problems)
        else:
            lines.append("OK: no problem found.")
        lines.append("Checked: " + ", ".join(f"{k}: {v}" for k, v in self.checked.items()))
        if self.summary:
            lines.append(self.summary)
        return "\n".join(lines) + "\n"


def describe(p: Problem) -> str:
    """A problem in three lines: where and which rule; expected against found; in plain words."""
    text = f"{p.where}: [{p.rule_id}] {p.message}"
    if p.expected is not None or p.found is not None:
        text += f"\n    expected {p.expected}; found {p.found}"
    if p.explanation:
        text += f"\n    {p.explanation}"
    return text


def chain_problem(log: Log) -> Problem | None:
    """The first event whose stored chain hash does not match (archived games only)."""
    if not log.chain:
        return None
    previous = GENESIS
    for event, stored in log.chain:
        if link(previous, event) != stored:
            return Problem("archive.chain", "Each stored event's hash covers it and the hash before it.",
                           "the hash of the event as written", "a different one",
                           Location(source=log.source, seq=event.seq),
                           explanation=f"event {event.seq} was altered after it was written (the first altered event)")
        previous = stored
    return None


def audit(log: Log, packs: Iterable[RulesPack] = ()) -> AuditReport:
    """Every problem of the game in ``log``: the hash chain, then each event against the rules."""
    game = log.game
    r = replay(game, log.events, log.library(packs), source=log.source, lines=log.lines)
    report = AuditReport(log.game_id, game.kind, len(log.events), list(r.problems))
    broken = chain_problem(log)
    if broken:
        report.problems.insert(0, broken)
    report.checked = {**game.views.checked(log.events, r.state),
                      "hash chain": "yes" if log.chain else "no (not archived)"}
    if r.state is not None:
        report.result = game.views.result(r.state)
        report.summary = game.views.summary(r.state, r.names)
        report.state = r.state
    return report
