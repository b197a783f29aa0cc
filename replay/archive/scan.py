"""Many games of one kind, read in one pass: every file once, a row group at a time.

Reading games one by one (:meth:`Archive.read_game`) opens their files again for
each; a command that replays thousands of games (project, rules impact, regress)
reads each file once instead, and a game is handed on as soon as all its events
have been gathered, so memory holds only the games not yet complete.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pyarrow as pa
import pyarrow.compute as pc

from ..contract import AnyGame
from ..errors import DamagedFile
from ..events import Event
from ..schema import decode
from .manifest import FileEntry, StreamInfo
from .store import Archive, reading


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
    pf = archive.open_data(entry)
    for group in range(pf.metadata.num_row_groups):
        with reading(path):
            table = pf.read_row_group(group)
            table = table.filter(pc.is_in(table.column("game_id"), value_set=wanted))
            for e in decode(table, game):
                buf = buffers.setdefault(e.game_id, [])
                buf.append(e)
                if len(buf) == streams[e.game_id].last_seq + 1:
                    yield sorted(buffers.pop(e.game_id), key=lambda x: x.seq)
