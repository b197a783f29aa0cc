"""What an audit reports, whatever the game: every problem, located and explained."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .errors import Violation


@dataclass(frozen=True)
class Finding:
    seq: int
    turn: int | None
    player: str | None
    rule_id: str
    rule: str
    expected: str
    found: str
    explanation: str
    line: int | None = None

    @classmethod
    def of(cls, v: Violation, explanation: str, line: int | None = None) -> Finding:
        return cls(v.seq, v.turn, v.player, v.rule_id, v.rule, v.expected, v.found, explanation, line)

    def location(self) -> str:
        parts = [f"event {self.seq}"]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.turn is not None:
            parts.append(f"turn {self.turn}")
        if self.player:
            parts.append(self.player)
        return ", ".join(parts)

    def __str__(self) -> str:
        return (f"{self.location()}: [{self.rule_id}] {self.rule}\n"
                f"    expected {self.expected}; found {self.found}\n    {self.explanation}")


@dataclass
class AuditReport:
    game_id: str
    events: int
    findings: list[Finding] = field(default_factory=list)
    checked: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    summary: str = ""
    state: Any = None

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id, "ok": self.ok, "events": self.events,
            "problems": [asdict(f) for f in self.findings], "checked": self.checked, "result": self.result,
        }

    def to_text(self) -> str:
        lines = [f"Audit of {self.game_id}: {self.events} events"]
        if self.findings:
            lines.append(f"{len(self.findings)} problem(s):")
            lines.extend(str(f) for f in self.findings)
        else:
            lines.append("OK: no problem found.")
        checks = ", ".join(f"{k}: {v}" for k, v in self.checked.items())
        lines.append(f"Checked: {checks}")
        if self.summary:
            lines.append(self.summary)
        return "\n".join(lines) + "\n"
