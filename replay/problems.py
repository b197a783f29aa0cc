"""One problem type for everything the tool finds wrong, and one error level.

A JSON Lines line with a missing field, a notation line that does not parse, a
file of the archive whose checksum is off, an illegal move and a wrong claimed
score are all a :class:`Problem`: a rule id a program can match, a sentence a
person can read, what was expected and what was found, and a :class:`Location`
precise enough to fix it by hand (file and line, archive file, game, event,
turn, player, field).

Whoever looks for problems takes a :data:`Level` (python-chess's lenient and
strict readers are the model): ``collect`` keeps every problem and goes on,
``raise`` stops at the first, ``ignore`` drops them. :class:`Problems` is that
choice made once, so readers and checkers do not each re-implement it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from .errors import ProblemError, clip

Level = Literal["ignore", "collect", "raise"]
LEVELS: tuple[Level, ...] = ("ignore", "collect", "raise")


@dataclass(frozen=True, slots=True)
class Location:
    """Where a problem is. Every part is optional; what is known is printed, in this order."""

    source: str | None = None
    """The file read (or the game id when the events came from the archive)."""
    line: int | None = None
    column: int | None = None
    file: str | None = None
    """An archive data file, relative to the archive."""
    game: str | None = None
    seq: int | None = None
    turn: int | None = None
    player: str | None = None
    field: str | None = None
    """A path inside a record: ``payload.player``, ``buildings[2](agora).cost``."""

    def __post_init__(self) -> None:
        for name in ("source", "file", "game", "player", "field"):  # these may come from hostile input
            value = getattr(self, name)
            if value is not None and len(value) > 200:
                object.__setattr__(self, name, clip(value))

    def __str__(self) -> str:
        head = self.source or ""
        if self.line is not None:
            head = f"{head}:line {self.line}" if head else f"line {self.line}"
        if self.column is not None:
            head += f", column {self.column}"
        parts = [head] if head else []
        parts += [p for p in (self.file, self.game and f"game {self.game}") if p]
        if self.seq is not None:
            parts.append(f"event {self.seq}")
        if self.turn is not None:
            parts.append(f"turn {self.turn}")
        if self.player:
            parts.append(self.player)
        text = ", ".join(parts)
        if self.field:
            text = f"{text}: {self.field}" if text else self.field
        return text


NOWHERE = Location()


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong, where it is, and why.

    ``rule_id`` is stable and namespaced (``jsonl.missing``, ``notation.syntax``,
    ``archive.chain``, a game's own ids such as ``claim.paid``); ``message`` is the
    rule or the complaint in a sentence; ``expected`` and ``found`` say it in
    values; ``explanation`` says it as a player would (audits fill it in).
    """

    rule_id: str
    message: str
    expected: str | None = None
    found: str | None = None
    where: Location = NOWHERE
    explanation: str | None = None
    text: str | None = None
    """The offending text, where the input was text (a notation line)."""

    def __post_init__(self) -> None:
        # Messages quote the input; a multi-megabyte value is cut, its location is kept.
        for name, limit in (("message", 1000), ("expected", 200), ("found", 200), ("explanation", 1000), ("text", 200)):
            value = getattr(self, name)
            if value is not None and len(value) > limit:
                object.__setattr__(self, name, clip(value, limit))

    # Shortcuts for the parts of the location that are read most.
    @property
    def seq(self) -> int | None:
        return self.where.seq

    @property
    def turn(self) -> int | None:
        return self.where.turn

    @property
    def player(self) -> str | None:
        return self.where.player

    @property
    def line(self) -> int | None:
        return self.where.line

    @property
    def column(self) -> int | None:
        return self.where.column

    @property
    def field(self) -> str | None:
        return self.where.field

    @property
    def rule(self) -> str:
        """The rule's sentence (a game's rule problems carry the rule as their message)."""
        return self.message

    def at(self, **where: Any) -> Problem:
        """The same problem with more of its location filled in."""
        return replace(self, where=replace(self.where, **where))

    def __str__(self) -> str:
        where = str(self.where)
        text = f"[{self.rule_id}] {self.message}"
        if self.expected is not None or self.found is not None:
            text += f" Expected {self.expected}; found {self.found}."
        if self.text:
            text += f" (at {self.text!r})"
        return f"{where}: {text}" if where else text

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule_id": self.rule_id, "message": self.message}
        for key in ("expected", "found", "explanation", "text"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["where"] = {k: v for k, v in asdict(self.where).items() if v is not None}
        return out


@dataclass
class Problems:
    """The problems found by one reader or checker, at one :data:`Level`.

    ``raise`` raises ``error`` (a :class:`ProblemError` class) at the first problem;
    ``collect`` keeps them all; ``ignore`` keeps none (but still counts them).
    """

    level: Level = "collect"
    error: type[ProblemError] = ProblemError
    found: list[Problem] = field(default_factory=list)
    ignored: int = 0

    def add(self, problem: Problem) -> None:
        if self.level == "raise":
            raise self.error([problem])
        if self.level == "ignore":
            self.ignored += 1
            return
        self.found.append(problem)

    def extend(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        for p in problems:
            self.add(p)

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.found)

    def __len__(self) -> int:
        return len(self.found)

    def __bool__(self) -> bool:
        return bool(self.found)
