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


LISTED = 20
"""How many items an error message lists before it says how many more there are."""


def listed(items: Sequence[str], sep: str = "; ") -> str:
    """``items`` joined, the first :data:`LISTED` of them, then a count: an error that concerns a
    thousand games must still be a message a person can read."""
    shown = sep.join(items[:LISTED])
    return shown + (f"{sep}... and {len(items) - LISTED} more" if len(items) > LISTED else "")


def clip(text: str, limit: int = 200) -> str:
    """``text`` cut to about ``limit`` characters, saying how long it was: a value echoed in a
    message must not be the megabyte that caused it."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters, cut)"


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
        lines = _grouped(self.problems)
        if len(lines) > self.shown:
            lines[self.shown:] = [f"... and {len(lines) - self.shown} more"]
        if self.headline is None and n == 1:
            message = lines[0]
        else:
            head = (self.headline or "{n} {noun}").format(n=n, noun="problem" if n == 1 else "problems")
            message = head + ":\n  " + "\n  ".join(lines)
        super().__init__(message)


def _grouped(problems: Sequence[Problem]) -> list[str]:
    """One line per distinct problem: one bad game id on 170 lines is said once, with a count."""
    from dataclasses import replace

    groups: dict[object, list[Problem]] = {}
    for p in problems:
        where = replace(p.where, line=None, column=None, seq=None, turn=None)
        groups.setdefault((p.rule_id, p.message, p.expected, p.found, p.text, where), []).append(p)
    lines = []
    for same in groups.values():
        text = str(same[0])
        if len(same) > 1:
            more = len(same) - 1
            if all(p.line is not None for p in same):
                text += f" [the same on {more} more lines, to line {max(p.line or 0 for p in same)}]"
            elif all(p.seq is not None for p in same):
                text += f" [the same at {more} more events, to event {max(p.seq or 0 for p in same)}]"
            else:
                text += f" [the same {more} more times]"
        lines.append(text)
    return lines


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
