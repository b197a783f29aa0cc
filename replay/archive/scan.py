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
import pyarrow.parquet as pq

from ..contract import AnyGame
from ..events import Event
from ..schema import DICTIONARY_COLUMNS, decode
from .manifest import StreamInfo
from .store import Archive


def iter_games(archive: Archive, game: AnyGame, streams: Mapping[str, StreamInfo]) -> Iterator[list[Event]]:
    """The events of every game in ``streams`` (all of ``game``'s kind), each game in seq order,
    in the order they complete in the files."""
    if not streams:
        return
    buffers: dict[str, list[Event]] = {}
    wanted = pa.array(sorted(streams))
    for path in sorted({p for s in streams.values() for p in s.files}):
        pf = pq.ParquetFile(archive.path_of(path), read_dictionary=list(DICTIONARY_COLUMNS))
        for group in range(pf.metadata.num_row_groups):
            table = pf.read_row_group(group)
            table = table.filter(pc.is_in(table.column("game_id"), value_set=wanted))
            for e in decode(table, game):
                buf = buffers.setdefault(e.game_id, [])
                buf.append(e)
                if len(buf) == streams[e.game_id].last_seq + 1:
                    yield sorted(buffers.pop(e.game_id), key=lambda x: x.seq)
