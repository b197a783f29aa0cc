"""Adding games to the archive from files: JSON Lines (many games, all or nothing) or notation
(one game, audited first, archived only if clean unless the caller allows problems)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from .. import chain
from ..archive import NEW_STREAM, Archive, StreamAppend
from ..errors import ReplayError
from ..jsonl import ImportResult, import_lines
from ..packs import RulesPack
from .audit import AuditReport, audit
from .logs import Log, read_notation_file, read_notation_text, sniff_format


@dataclass
class NotationImport:
    game_id: str
    events: int
    report: AuditReport
    archived: bool


def import_jsonl(archive: Archive, source: str, handle: IO[str] | Iterable[str], packs: Iterable[RulesPack] = (),
                 progress: Callable[[int], None] | None = None) -> ImportResult:
    """Every game of a JSON Lines stream, in one commit, or nothing (InvalidInput lists every problem)."""
    return import_lines(archive, _warming_up(_utf8_lines(handle, source)), source=source, progress=progress, packs=packs)


def _warming_up(lines: Iterable[str]) -> Iterator[str]:
    """The lines; once there are enough for the link worker to be used (replay.chain.WORKER_EVENTS), it is
    started: it gets ready while the rest is parsed, instead of the first batch waiting for it."""
    for number, line in enumerate(lines, start=1):
        if number == chain.WORKER_EVENTS // 5:
            chain.start_worker(chain.WORKER_EVENTS)
        yield line


def _utf8_lines(handle: IO[str] | Iterable[str], source: str) -> Iterable[str]:
    try:
        yield from handle
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{source}: not UTF-8 text (byte {exc.start}); JSON Lines files are UTF-8") from None


def import_notation(archive: Archive, path: Path, kind: str | None = None, allow_problems: bool = False,
                    packs: Iterable[RulesPack] = ()) -> NotationImport:
    """Read, audit, and archive one game in notation. Problems refuse it unless ``allow_problems``."""
    return _import_log(archive, read_notation_file(path, kind), allow_problems, packs)


def import_notation_text(archive: Archive, text: str, source: str, kind: str | None = None,
                         allow_problems: bool = False, packs: Iterable[RulesPack] = ()) -> NotationImport:
    """:func:`import_notation` for text already read (standard input)."""
    return _import_log(archive, read_notation_text(text, source, kind), allow_problems, packs)


def _import_log(archive: Archive, log: Log, allow_problems: bool, packs: Iterable[RulesPack]) -> NotationImport:
    packs = list(packs)
    report = audit(log, packs)
    if report.ok or allow_problems:
        archive.append_many([StreamAppend(log.game_id, NEW_STREAM, log.events)], packs)
    return NotationImport(log.game_id, len(log.events), report, report.ok or allow_problems)


def peek_format(lines: Iterable[str], source: str, given: str = "auto") -> tuple[str, Iterator[str]]:
    """The format of a stream that cannot be read twice (standard input), and the stream whole again:
    the lines up to the first that is not blank are read to decide (see :func:`sniff_format`)."""
    stream = iter(_utf8_lines(lines, source))
    head: list[str] = []
    for line in stream:
        head.append(line)
        if line.strip():
            break
    else:
        raise ReplayError(f"{source}: empty; nothing to import")
    fmt = given if given != "auto" else sniff_format("".join(head), source)
    return fmt, itertools.chain(head, stream)

