"""``replay compact``: merge many small files into a few large sorted ones.

Appends make one small file each; a scan over thousands of them is slow. Compaction
reads every committed file of a kind (without blocking writers), sorts the events
by (game_id, seq), writes files of at most ``max_rows`` rows (never splitting a
game) with row groups small enough that one game is found through row-group
statistics, checks the new files (rows, checksums, games), and only then swaps them
for the old ones in a single commit. Appends made meanwhile are kept: they are
simply not part of this round.

Old event versions are upcast on the way, so a compacted file holds current
versions only. The whole kind is held in memory while sorting (about the size of
the decoded archive); archives larger than memory need a streaming merge.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import pyarrow as pa

from ..errors import ArchiveError
from ..schema import decode, encode, kind_schema, schema_fingerprint
from . import manifest as mf
from .store import ROW_GROUP_ROWS, Archive, PreparedFile, read_parquet

MAX_ROWS_PER_FILE = 5_000_000


@dataclass(frozen=True)
class CompactionResult:
    kinds: tuple[str, ...]
    files_before: int
    files_after: int
    events: int
    generation: int


def compact(
    archive: Archive,
    max_rows: int = MAX_ROWS_PER_FILE,
    row_group_rows: int = ROW_GROUP_ROWS,
    progress: Callable[[int], None] | None = None,
) -> CompactionResult:
    snapshot = archive.snapshot()
    files_before, generation = len(snapshot.files), snapshot.generation
    by_kind: dict[str, list[mf.FileEntry]] = {}
    for entry in list(snapshot.files.values()):
        by_kind.setdefault(entry.kind, []).append(entry)
    prepared: list[PreparedFile] = []
    sources: list[str] = []
    try:
        for kind, entries in sorted(by_kind.items()):
            if len(entries) == 1 and entries[0].rows <= max_rows:
                continue  # every file is written sorted: one file is already compact
            plugin = archive.plugins.get(kind)
            current = schema_fingerprint(kind_schema(plugin))
            tables = []
            for entry in sorted(entries, key=lambda e: e.path):
                table = read_parquet(archive.path_of(entry.path), dictionaries=False)
                if entry.schema != current:  # an older layout: upcast through the event records
                    table = encode(decode(table, plugin), plugin)
                tables.append(table)
                if progress:
                    progress(1)
            merged = pa.concat_tables(tables).sort_by([("game_id", "ascending"), ("seq", "ascending")])
            expected_rows = sum(e.rows for e in entries)
            if merged.num_rows != expected_rows:
                raise ArchiveError(f"compaction read {merged.num_rows} {kind} events, the manifest says {expected_rows}")
            for chunk in _split_at_games(merged, max_rows):
                prepared.append(archive.prepare_table(chunk, kind, spill=True, row_group_rows=row_group_rows))
            _check_prepared(archive, [p for p in prepared if p.kind == kind], entries)
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


def _split_at_games(table: pa.Table, max_rows: int) -> list[pa.Table]:
    """Slices of at most ``max_rows`` rows that never cut a game in two (a bigger game gets its own slice)."""
    if table.num_rows <= max_rows:
        return [table]
    game_ids = table.column("game_id").to_pylist()
    out, start = [], 0
    while start < len(game_ids):
        end = min(start + max_rows, len(game_ids))
        if end < len(game_ids):
            cut = end
            while cut > start and game_ids[cut] == game_ids[cut - 1]:
                cut -= 1
            if cut == start:  # one game longer than max_rows
                cut = end
                while cut < len(game_ids) and game_ids[cut] == game_ids[cut - 1]:
                    cut += 1
            end = cut
        out.append(table.slice(start, end - start))
        start = end
    return out


def _check_prepared(archive: Archive, prepared: list[PreparedFile], sources: list[mf.FileEntry]) -> None:
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
