"""``replay compact``: merge many small files into a few large sorted ones.

Appends make one small file each; a scan over thousands of them is slow. Compaction
reads every committed file of a kind (without blocking writers), sorts the events
by (game_id, seq), writes files of about ``max_rows`` events (never splitting a
game) with row groups small enough that one game is found through row-group
statistics, checks the new files (rows, checksums, games), and only then swaps them
for the old ones in a single commit. Appends made meanwhile are kept: they are
simply not part of this round.

It works one game-id range at a time (about ``max_rows`` events): for each range
it reads, from each file, only the row groups whose statistics overlap it, so
memory stays bounded whatever the archive's size.

Events are never rewritten: files of different column layouts (an event type at an
older version) are compacted separately, each keeping its layout, so every stored
event and its chain hash stay exactly as they were written.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..errors import ArchiveError
from . import manifest as mf
from .fsutil import size_and_sha256, writes
from .store import ROW_GROUP_ROWS, Archive, PreparedFile, read_parquet, reading, row_groups_between

MAX_ROWS_PER_FILE = 2_000_000
"""Events per output file, and so about what compaction holds in memory at once."""


@dataclass(frozen=True)
class CompactionResult:
    kinds: tuple[str, ...]
    files_before: int
    files_after: int
    events: int
    generation: int


@writes
def compact(
    archive: Archive,
    max_rows: int = MAX_ROWS_PER_FILE,
    row_group_rows: int = ROW_GROUP_ROWS,
    progress: Callable[[int], None] | None = None,
) -> CompactionResult:
    """Compact every (kind, layout) held in more than one file. ``progress`` is told events done."""
    snapshot = archive.snapshot()
    files_before, generation = len(snapshot.files), snapshot.generation
    groups: dict[tuple[str, str], list[mf.FileEntry]] = {}
    for entry in list(snapshot.files.values()):
        groups.setdefault((entry.kind, entry.schema), []).append(entry)
    prepared: list[PreparedFile] = []
    sources: list[str] = []
    try:
        for (kind, _layout), entries in sorted(groups.items()):
            if len(entries) == 1 and entries[0].rows <= max_rows:
                continue  # every file is written sorted: one file is already compact
            _check_sources(archive, entries)
            ranges = {e.path: (min(e.games), max(e.games)) for e in entries if e.games}
            ours = []
            for lo, hi in _game_ranges(entries, max_rows):
                tables = []
                for entry in entries:
                    first, last = ranges.get(entry.path, (None, None))
                    if first is None or last is None or last < lo or first > hi:  # both None, or neither
                        continue
                    pf = archive.open_data(entry, dictionaries=False)
                    with reading(entry.path):
                        tables.append(_read_game_range(pf, lo, hi))
                merged = pa.concat_tables(tables)
                ours.append(archive.prepare_table(merged, kind, spill=True, row_group_rows=row_group_rows))
                if progress:
                    progress(merged.num_rows)
            _check_prepared(ours, entries)
            prepared.extend(ours)
            sources.extend(e.path for e in entries)
        if not sources:
            return CompactionResult((), files_before, files_before, 0, generation)
        with archive._lock(exclusive=True):
            state = archive._refresh()
            gone = [p for p in sources if p not in state.files]
            if gone:
                raise ArchiveError(f"another compaction changed the archive meanwhile ({gone[0]} is gone); run compact again")
            result = archive._commit(state, prepared, remove=sources)
            archive._collect_garbage(state)  # deletes the replaced files and records that
    finally:
        for p in prepared:
            if p.tmp_path is not None:
                p.tmp_path.unlink(missing_ok=True)
    return CompactionResult(
        tuple(sorted({p.kind for p in prepared})), files_before,
        files_before - len(sources) + len(prepared), result.events, archive.snapshot().generation,
    )


def _check_sources(archive: Archive, entries: list[mf.FileEntry]) -> None:
    """Copy only files that are what the manifest says: a damaged file merged into a new one
    would pass every later check, its damage laundered."""
    for entry in entries:
        with reading(entry.path):
            size, sha256 = size_and_sha256(archive.root / entry.path)
        if (size, sha256) != (entry.bytes, entry.sha256):
            raise ArchiveError(f"{entry.path}: does not match the manifest (size or sha256); nothing was compacted. "
                               "Run `replay verify` to see what is damaged, and restore that file from a backup")


def _game_ranges(entries: list[mf.FileEntry], max_rows: int) -> list[tuple[str, str]]:
    """Consecutive game-id ranges of about ``max_rows`` events each (a game is never split).

    One output file per range; only one range is in memory at a time, so memory is
    bounded by ``max_rows`` and not by the size of the archive.
    """
    counts: dict[str, int] = {}
    for entry in entries:
        for game, span in entry.games.items():
            counts[game] = counts.get(game, 0) + span.last - span.first + 1
    ranges: list[tuple[str, str]] = []
    low, rows = None, 0
    for game in sorted(counts):
        low = low if low is not None else game
        rows += counts[game]
        if rows >= max_rows:
            ranges.append((low, game))
            low, rows = None, 0
    if low is not None:
        ranges.append((low, max(counts)))
    return ranges


def _read_game_range(pf: pq.ParquetFile, low: str, high: str) -> pa.Table:
    """The rows with ``low <= game_id <= high``, reading only row groups whose statistics overlap."""
    groups = row_groups_between(pf, low, high)
    table = pf.read_row_groups(groups)
    ids = table.column("game_id")
    return table.filter(pc.and_(pc.greater_equal(ids, low), pc.less_equal(ids, high)))


def _check_prepared(prepared: list[PreparedFile], sources: list[mf.FileEntry]) -> None:
    """Re-read what was written: row counts, checksums and per-game seq ranges must add up."""
    rows = 0
    games: dict[str, tuple[int, int]] = {}
    for p in prepared:
        assert p.tmp_path is not None
        data = p.tmp_path.read_bytes()
        if hashlib.sha256(data).hexdigest() != p.sha256 or len(data) != p.size:
            raise ArchiveError(f"compaction output {p.tmp_path} does not match what was written")
        table = read_parquet(p.tmp_path, columns=["game_id"])
        if table.num_rows != p.rows:
            raise ArchiveError(f"compaction output {p.tmp_path} holds {table.num_rows} rows, expected {p.rows}")
        rows += p.rows
        for g, span in p.games.items():
            games[g] = (span.first, span.last)
    expected_rows = sum(e.rows for e in sources)
    if rows != expected_rows:
        raise ArchiveError(f"compaction wrote {rows} events, expected {expected_rows}")
    expected: dict[str, list[int]] = {}
    for e in sources:
        for g, span in e.games.items():
            lo, hi = expected.get(g, [span.first, span.last])
            expected[g] = [min(lo, span.first), max(hi, span.last)]
    if {g: tuple(v) for g, v in expected.items()} != games:
        raise ArchiveError("compaction output does not hold the same games and seq ranges as its inputs")
