"""Small, named exceptions.

Every error the tool raises on purpose derives from :class:`ReplayError`, so the
CLI can print its message and exit non-zero without a traceback, while a bug
(any other exception) still shows one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .problems import Problem


class ReplayError(Exception):
    """Base of every deliberate error: the message is meant for a person."""


class UnknownGameKind(ReplayError):
    """No game is installed for a game kind."""


class PluginError(ReplayError):
    """A game breaks the game contract (names clash, upcasters missing, parts of the wrong kind)."""


class SchemaError(ReplayError):
    """A model cannot be mapped to typed Arrow columns, or data does not fit them."""


class UpcastError(ReplayError):
    """An event is stored at a version no chain of upcasters reaches the current one from."""


class ProblemError(ReplayError):
    """One or more :class:`replay.problems.Problem` stopped the work; ``problems`` lists them."""

    headline: str | None = None
    """How a list of problems is introduced ({n}: how many, {noun}: problem or problems).
    Without one, a single problem is the whole message."""
    shown = 50

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        n = len(self.problems)
        lines = [str(p) for p in self.problems[: self.shown]]
        if n > self.shown:
            lines.append(f"... and {n - self.shown} more problems")
        if self.headline is None and n == 1:
            message = lines[0]
        else:
            head = (self.headline or "{n} {noun}").format(n=n, noun="problem" if n == 1 else "problems")
            message = head + ":\n  " + "\n  ".join(lines)
        super().__init__(message)


class InvalidInput(ProblemError):
    """Input was rejected as a whole; ``problems`` lists every problem found."""

    headline = "{n} {noun}; nothing was written"


class NotationError(ProblemError):
    """Text in a game's notation could not be read."""

    headline = "{n} notation {noun}"


class RuleViolation(ProblemError):
    """An event the rules of its game do not allow; ``problem`` says where and why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__([problem])

    @property
    def problem(self) -> Problem:
        return self.problems[0]

    violation = problem


class ArchiveError(ReplayError):
    """The archive cannot be opened or written as asked."""


class NotAnArchive(ArchiveError):
    """The directory is not a replay archive."""


class ArchiveLocked(ArchiveError):
    """Another process held the archive's lock for longer than we were willing to wait."""


class ReadOnlyArchive(ArchiveError):
    """A write was asked of an archive that cannot be written here."""


class ManifestError(ArchiveError):
    """The manifest (the record of committed files) is damaged or was edited by hand."""


class ConcurrencyError(ArchiveError):
    """An append named an expected stream position that is not the stream's current one."""


class DuplicateAppend(ConcurrencyError):
    """The events of an append are already in the archive, exactly as given."""


class StreamError(ArchiveError):
    """Events do not form a valid stream (seq gap, wrong first event, mixed kinds)."""


class DamagedFile(ArchiveError):
    """A committed data file cannot be read as written (truncated, bit-flipped, missing)."""


class GameNotFound(ArchiveError):
    """No stream in the archive has this game id."""


class NotOffered(ReplayError):
    """A game does not offer what was asked of it (a notation, bots, derived tables)."""


class PackError(ReplayError):
    """A rules pack is invalid, or the pack a game pins cannot be found."""
