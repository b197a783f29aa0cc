"""What an audit reports, whatever the game: every problem, located and explained."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .errors import Violation


@dataclass(frozen=True)
class Finding:
    """A rule violation, with the notation line it came from and a sentence a player understands."""

    violation: Violation
    explanation: str
    line: int | None = None

    def __getattr__(self, name: str) -> Any:
        """seq, turn, player, rule_id, rule, expected and found are the violation's."""
        if name == "violation":  # not set yet (copying, unpickling)
            raise AttributeError(name)
        return getattr(self.violation, name)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self.violation), "explanation": self.explanation, "line": self.line}

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
            "problems": [f.to_json() for f in self.findings], "checked": self.checked, "result": self.result,
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
