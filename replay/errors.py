"""Small, named exceptions.

Every error the tool raises on purpose derives from :class:`ReplayError`, so the
CLI can print its message and exit non-zero without a traceback, while a bug
(any other exception) still shows one.
"""

from __future__ import annotations

from dataclasses import dataclass


class ReplayError(Exception):
    """Base of every deliberate error: the message is meant for a person."""


class UnknownGameKind(ReplayError):
    """No plug-in is registered for a game kind."""


class PluginError(ReplayError):
    """A plug-in breaks the plug-in contract (names clash, upcasters missing)."""


class SchemaError(ReplayError):
    """A model cannot be mapped to typed Arrow columns, or data does not fit them."""


class UpcastError(ReplayError):
    """An event is stored at a version no chain of upcasters reaches the current one from."""


@dataclass(frozen=True)
class InputProblem:
    """One thing wrong with one record of input, located well enough to fix it by hand."""

    line: int | None
    field: str
    message: str
    source: str | None = None
    code: str = ""
    """A stable name for the kind of problem (pydantic's error type, or our own), for programs and tests."""

    def __str__(self) -> str:
        where = f"{self.source}:" if self.source else ""
        where += f"line {self.line}" if self.line is not None else "input"
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.message}"


class InvalidInput(ReplayError):
    """Input was rejected as a whole; ``problems`` lists every problem found."""

    def __init__(self, problems: list[InputProblem], *, shown: int = 50) -> None:
        self.problems = problems
        lines = [str(p) for p in problems[:shown]]
        if len(problems) > shown:
            lines.append(f"... and {len(problems) - shown} more problems")
        noun = "problem" if len(problems) == 1 else "problems"
        super().__init__(f"{len(problems)} {noun}; nothing was written:\n  " + "\n  ".join(lines))


class ArchiveError(ReplayError):
    """The archive cannot be opened or written as asked."""


class NotAnArchive(ArchiveError):
    """The directory is not a replay archive."""


class ArchiveLocked(ArchiveError):
    """Another process held the archive's lock for longer than we were willing to wait."""


class ManifestError(ArchiveError):
    """The manifest (the record of committed files) is damaged or was edited by hand."""


class ConcurrencyError(ArchiveError):
    """An append named an expected stream position that is not the stream's current one."""


class DuplicateAppend(ConcurrencyError):
    """The events of an append are already in the archive, exactly as given."""


class StreamError(ArchiveError):
    """Events do not form a valid stream (seq gap, wrong first event, mixed kinds)."""


class GameNotFound(ArchiveError):
    """No stream in the archive has this game id."""


@dataclass(frozen=True)
class Violation:
    """Where and why an event breaks a rule of its game."""

    seq: int
    turn: int | None
    player: str | None
    rule_id: str
    rule: str
    expected: str
    found: str

    def __str__(self) -> str:
        where = f"event {self.seq}"
        if self.turn is not None:
            where += f", turn {self.turn}"
        if self.player is not None:
            where += f", {self.player}"
        return f"{where}: [{self.rule_id}] {self.rule} Expected {self.expected}; found {self.found}."


class RuleViolation(ReplayError):
    """An event the rules of its game do not allow; ``violation`` says where and why."""

    def __init__(self, violation: Violation) -> None:
        self.violation = violation
        super().__init__(str(violation))
