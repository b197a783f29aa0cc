"""What every game's text notation shares: located problems, and header tags.

A game's notation module reads text into events in two modes, like python-chess
and sqlglot: **lenient** collects every problem (line, column, the offending text)
and keeps going; **strict** raises at the first. Both return where each event came
from, so an audit can point at the line a player typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import ReplayError
from .events import Event

TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')


@dataclass(frozen=True)
class NotationProblem:
    line: int
    column: int
    text: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message} (at {self.text!r})"


class NotationError(ReplayError):
    def __init__(self, problems: list[NotationProblem], source: str = "") -> None:
        self.problems = problems
        prefix = f"{source}: " if source else ""
        shown = "\n  ".join(prefix + str(p) for p in problems[:50])
        more = f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else ""
        super().__init__(f"{len(problems)} notation problem(s):\n  {shown}{more}")


@dataclass
class Parsed:
    """Events read from text, the line each came from, and (lenient mode) the problems found."""

    events: list[Event] = field(default_factory=list)
    lines: dict[int, int] = field(default_factory=dict)
    problems: list[NotationProblem] = field(default_factory=list)


class Collector:
    """Problems of one reading: strict raises at the first, lenient keeps them all."""

    def __init__(self, strict: bool, source: str = "") -> None:
        self.strict, self.source = strict, source
        self.problems: list[NotationProblem] = []

    def add(self, line: int, column: int, text: str, message: str) -> None:
        problem = NotationProblem(line, column, text, message)
        self.problems.append(problem)
        if self.strict:
            raise NotationError([problem], self.source)


def strip_comment(line: str) -> str:
    """Text before a ``#`` (comments run to the end of the line)."""
    return line.split("#", 1)[0].rstrip()


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)
