"""What every game's text notation shares: located problems, and header tags.

A game's notation reads text into events at an error level, like python-chess
and sqlglot: ``collect`` (lenient) gathers every problem (line, column, the
offending text) and keeps going; ``raise`` (strict) stops at the first. Both
return where each event came from, so an audit can point at the line a player
typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import NotationError
from .events import Event
from .problems import Level, Location, Problem, Problems

TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
KIND_TAG = re.compile(r'^\s*\[\s*Kind\s+"([^"]+)"\s*\]', re.IGNORECASE | re.MULTILINE)


@dataclass
class Parsed:
    """Events read from text, the line each came from (by seq), and the problems found."""

    events: list[Event] = field(default_factory=list)
    lines: dict[int, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


class Collector:
    """The problems of one reading, at one level: ``raise`` stops at the first (NotationError)."""

    def __init__(self, level: Level = "collect", source: str = "") -> None:
        self.source = source or None
        self._problems = Problems(level, NotationError)

    def add(self, line: int, column: int, text: str, message: str) -> None:
        self._problems.add(Problem("notation.syntax", message, where=Location(self.source, line, column), text=text))

    @property
    def problems(self) -> list[Problem]:
        return self._problems.found


@dataclass
class Header:
    """A notation text split into its header tags and its body."""

    tags: dict[str, str] = field(default_factory=dict)
    """Tag name as written -> value (unescaped), for every tag but ``Seat``."""
    seats: list[tuple[int, str, str]] = field(default_factory=list)
    """(line number, the line as written, value) of every ``[Seat "..."]`` tag, in order."""
    body: list[tuple[int, str]] = field(default_factory=list)
    """(line number, text without its comment) of every other non-empty line."""


def split_header(text: str, problems: Collector) -> Header:
    """Header tags (``[Name "value"]``) and body lines; a malformed tag is a problem."""
    header = Header()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        if not line.startswith("["):
            header.body.append((number, line))
            continue
        m = TAG.match(line)
        if not m:
            problems.add(number, 1, line, 'a header tag is [Name "value"]')
        elif m.group(1).lower() == "seat":
            header.seats.append((number, raw, unescape(m.group(2))))
        else:
            header.tags[m.group(1)] = unescape(m.group(2))
    return header


def kind_of(text: str) -> str | None:
    """The game kind a notation text names in its ``[Kind "..."]`` tag, if any."""
    m = KIND_TAG.search(text)
    return m.group(1).strip() if m else None


def strip_comment(line: str) -> str:
    """Text before a ``#`` (comments run to the end of the line)."""
    return line.split("#", 1)[0].rstrip()


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)
