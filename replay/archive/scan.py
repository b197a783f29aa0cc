"""Many games of one kind, read in one pass: every file once, a row group at a time.

Reading games one by one (:meth:`Archive.read_game`) opens their files again for
each; a command that replays thousands of games (project, rules impact, regress)
reads each file once instead, and a game is handed on as soon as all its events
have been gathered, so memory holds only the games not yet complete.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import groupby
from operator import itemgetter

import pyarrow as pa
import pyarrow.compute as pc

from ..contract import AnyGame
from ..errors import DamagedFile
from ..events import Event
from ..schema import decode
from .manifest import FileEntry, StreamInfo
from .store import Archive, reading, row_groups_between


def iter_games(archive: Archive, game: AnyGame, streams: Mapping[str, StreamInfo],
               unreadable: dict[str, str] | None = None) -> Iterator[list[Event]]:
    """The events of every game in ``streams`` (all of ``game``'s kind), each game in seq order,
    in the order they complete in the files.

    A damaged file does not stop the others: the games it holds are left out, and put in
    ``unreadable`` (game id -> why) when the caller passes a dict for them; without one, the
    first damaged file raises :class:`DamagedFile`.
    """
    if not streams:
        return
    buffers: dict[str, list[Event]] = {}
    wanted = pa.array(sorted(streams))
    damaged: dict[str, str] = {}
    completed: set[str] = set()
    files = archive.snapshot().files
    for path in sorted({p for s in streams.values() for p in s.files}):
        try:
            if path not in files:
                raise DamagedFile(f"{path} left the archive while it was read (a compaction?); run the command again")
            for events in _file_games(archive, game, files[path], streams, wanted, buffers):
                completed.add(events[0].game_id)
                yield events
        except DamagedFile as exc:
            if unreadable is None:
                raise
            damaged[path] = str(exc)
    if unreadable is not None:
        touched = {g for g, s in streams.items() if damaged.keys() & set(s.files)}
        for game_id in (buffers.keys() | touched) - completed:
            reasons = [damaged[p] for p in streams[game_id].files if p in damaged]
            unreadable[game_id] = reasons[0] if reasons else "some of its events could not be read"


def _file_games(archive: Archive, game: AnyGame, entry: FileEntry, streams: Mapping[str, StreamInfo], wanted: pa.Array,
                buffers: dict[str, list[Event]]) -> Iterator[list[Event]]:
    path = entry.path
    pf = archive.open_data(entry, by_row_group=True)
    for group in range(pf.metadata.num_row_groups):
        with reading(path):
            table = _rows_of(pf.read_row_group(group), wanted)
            for game_id, run in groupby(decode(table, game), key=GAME_ID):  # a file's games are runs of rows
                buf = buffers.setdefault(game_id, [])
                need = streams[game_id].last_seq + 1
                events = list(run)
                while events:  # a game is handed on the moment it has its events (extra ones start a new buffer)
                    take = need - len(buf)
                    if take <= 0:  # a stream the manifest says is empty: never complete
                        buf.extend(events)
                        break
                    buf.extend(events[:take])
                    events = events[take:]
                    if len(buf) == need:
                        yield sorted(buffers.pop(game_id), key=SEQ)
                        buf = buffers.setdefault(game_id, [])
                if not buf:
                    del buffers[game_id]


GAME_ID, SEQ = itemgetter(0), itemgetter(1)
"""An Event's game id and seq, as C-level keys (``groupby``, ``sorted``)."""


def _rows_of(table: pa.Table, wanted: pa.Array) -> pa.Table:
    """The rows of the ``wanted`` games. Files are sorted by game id, so they are usually every row or
    one run of rows: then the table itself or a zero-copy slice, not a filter that copies every column."""
    mask = pc.is_in(table.column("game_id"), value_set=wanted)
    rows = pc.indices_nonzero(mask)
    if len(rows) == table.num_rows:
        return table
    if len(rows) == 0:
        return table.slice(0, 0)
    first, last = rows[0].as_py(), rows[-1].as_py()
    if last - first + 1 == len(rows):
        return table.slice(first, len(rows))
    return table.filter(mask)


def read_games(archive: Archive, game: AnyGame, streams: Mapping[str, StreamInfo], files: Mapping[str, FileEntry],
               unreadable: dict[str, str]) -> dict[str, list[Event]]:
    """The events of a few games of ``game``'s kind, each in seq order, reading only the row groups
    that can hold them (files are sorted by game id): what one worker of ``replay project`` reads
    for its share, so that events never travel between processes.

    ``files`` is the snapshot the games were chosen from. A game whose events cannot all be read
    (a damaged row group or file, a file gone) is left out and put in ``unreadable`` with the
    reason, as :func:`iter_games` does; the others are returned, in the order of ``streams``.
    """
    gathered: dict[str, list[Event]] = {g: [] for g in streams}
    by_file: dict[str, list[str]] = {}
    for game_id, info in streams.items():
        for path in info.files:
            by_file.setdefault(path, []).append(game_id)
    damaged: dict[str, str] = {}
    for path in sorted(by_file):
        ids = by_file[path]
        wanted = pa.array(sorted(ids))
        try:
            if path not in files:
                raise DamagedFile(f"{path} left the archive while it was read (a compaction?); run the command again")
            pf = archive.open_data(files[path], by_row_group=True)
            with reading(path):
                groups = row_groups_between(pf, wanted[0].as_py(), wanted[-1].as_py())
        except DamagedFile as exc:
            damaged[path] = str(exc)
            continue
        for group in groups:  # a damaged row group loses its games only
            try:
                with reading(path):
                    table = _rows_of(pf.read_row_group(group, use_threads=False), wanted)
                    events = decode(table, game)
            except DamagedFile as exc:
                damaged.setdefault(path, str(exc))
                continue
            for game_id, run in groupby(events, key=GAME_ID):
                gathered[game_id].extend(run)
    out: dict[str, list[Event]] = {}
    for game_id, events in gathered.items():
        info = streams[game_id]
        if len(events) == info.last_seq + 1:
            out[game_id] = sorted(events, key=SEQ)
        elif info.files:
            reasons = [damaged[p] for p in info.files if p in damaged]
            unreadable[game_id] = reasons[0] if reasons else "some of its events could not be read"
    return out
