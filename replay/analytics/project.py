"""``replay project``: the derived tables, materialised to Parquet beside the events.

Per game kind whose plug-in can ``derive`` rows, every *finished* game not yet
projected is replayed by the projector and its rows written in parts under
``<archive>/derived/<kind>/<table>/``. ``derived/<kind>/manifest.json`` names the
games projected and the parts that hold them; it is replaced atomically after the
parts are written, so a crash leaves the previous projection intact (and at most
some unlisted part files, which nothing reads and the next run removes).
Unfinished games are projected once they end.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..archive import Archive
from ..archive.fsutil import atomic_write, write_new_file
from ..archive.lock import ArchiveLock
from ..archive.store import parquet_bytes
from ..plugin import GamePlugin
from ..schema import DICTIONARY_COLUMNS, decode

BATCH_GAMES = 20_000


@dataclass(frozen=True)
class ProjectResult:
    kind: str
    games: int
    already: int
    rows: dict[str, int]


def derived_dir(archive: Archive, kind: str) -> Path:
    return archive.root / "derived" / kind


def load_manifest(archive: Archive, kind: str) -> dict[str, Any]:
    path = derived_dir(archive, kind) / "manifest.json"
    if not path.exists():
        return {"format": 1, "games": [], "parts": {}}
    return json.loads(path.read_text())


def project(archive: Archive, plugin: GamePlugin, progress: Callable[[int], None] | None = None,
            total: Callable[[int], None] | None = None, workers: int = 1) -> ProjectResult:
    """Project every finished game not yet projected; ``workers`` processes replay games in parallel."""
    if plugin.derive is None or plugin.derived_schemas is None:
        raise ValueError(f"the {plugin.kind} plug-in has no derived tables")
    root = derived_dir(archive, plugin.kind)
    root.mkdir(parents=True, exist_ok=True)
    with ArchiveLock(root / ".lock", exclusive=True, timeout=archive.lock_timeout):
        manifest = load_manifest(archive, plugin.kind)
        _remove_unlisted(root, manifest)
        done = set(manifest["games"])
        state = archive.snapshot()
        todo = {g: s for g, s in state.streams.items() if s.kind == plugin.kind and s.ended and g not in done}
        if total:
            total(len(todo))
        rows: dict[str, list[pa.Table]] = {t: [] for t in plugin.derived_schemas}
        written = dict.fromkeys(plugin.derived_schemas, 0)
        batch: list[str] = []
        pool = multiprocessing.get_context("fork").Pool(workers) if workers > 1 else None
        try:
            for game_ids, derived in _derived(archive, plugin, todo, pool):
                for name, table in derived.items():
                    rows[name].append(table)
                batch.extend(game_ids)
                if progress:
                    progress(len(game_ids))
                if len(batch) >= BATCH_GAMES:
                    _flush(root, plugin, manifest, rows, batch, written)
        finally:
            if pool is not None:
                pool.close()
                pool.join()
        _flush(root, plugin, manifest, rows, batch, written)
    return ProjectResult(plugin.kind, len(todo), len(done), written)


CHUNK_GAMES = 200


def _derive_chunk(args: tuple[str, list[list[Any]]]) -> tuple[list[str], dict[str, pa.Table]]:
    """Rows of a chunk of games, as Arrow tables (compact to hold, cheap to send between processes)."""
    from ..plugin import registry

    kind, games = args
    plugin = registry.get(kind)
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in plugin.derived_schemas}
    for events in games:
        for name, new in plugin.derive(events).items():
            out[name].extend(new)
    tables = {name: pa.Table.from_pylist(rows, schema=plugin.derived_schemas[name]) for name, rows in out.items()}
    return [g[0].game_id for g in games], tables


def _derived(archive: Archive, plugin: GamePlugin, todo: dict[str, Any], pool) -> Iterator[tuple[list[str], dict]]:
    """(game ids, their derived rows) in chunks; every file is read once, a row group at a time,
    and games complete as their events gather. At most a few chunks are in flight, so memory
    stays bounded whatever the archive's size."""
    buffers: dict[str, list] = {}
    ready: list[list[Any]] = []
    wanted = pa.array(sorted(todo))

    def chunks() -> Iterator[tuple[str, list[list[Any]]]]:
        for path in sorted({p for s in todo.values() for p in s.files}):
            pf = pq.ParquetFile(archive.path_of(path), read_dictionary=list(DICTIONARY_COLUMNS))
            for group in range(pf.metadata.num_row_groups):
                table = pf.read_row_group(group)
                table = table.filter(pc.is_in(table.column("game_id"), value_set=wanted))
                for e in decode(table, plugin):
                    buf = buffers.setdefault(e.game_id, [])
                    buf.append(e)
                    if len(buf) == todo[e.game_id].last_seq + 1:
                        ready.append(sorted(buffers.pop(e.game_id), key=lambda x: x.seq))
                        if len(ready) >= CHUNK_GAMES:
                            yield plugin.kind, ready[:]
                            ready.clear()
        if ready:
            yield plugin.kind, ready[:]

    if pool is None:
        yield from map(_derive_chunk, chunks())
        return
    window = 2 * pool._processes  # noqa: SLF001 - how many chunks to keep in flight
    pending: list[Any] = []
    for chunk in chunks():
        pending.append(pool.apply_async(_derive_chunk, (chunk,)))
        if len(pending) >= window:
            yield pending.pop(0).get()
    for result in pending:
        yield result.get()


def _flush(root: Path, plugin: GamePlugin, manifest: dict[str, Any], rows: dict[str, list[pa.Table]],
           batch: list[str], written: dict[str, int]) -> None:
    if not batch:
        return
    name = f"part-{uuid.uuid4().hex[:12]}.parquet"
    for table_name, schema in plugin.derived_schemas.items():
        folder = root / table_name
        folder.mkdir(exist_ok=True)
        table = pa.concat_tables(rows[table_name]) if rows[table_name] else schema.empty_table()
        write_new_file(folder / name, parquet_bytes(table))
        manifest["parts"].setdefault(table_name, []).append(name)
        written[table_name] += table.num_rows
        rows[table_name].clear()
    manifest["games"].extend(batch)
    batch.clear()
    atomic_write(root / "manifest.json", json.dumps(manifest).encode())


def _remove_unlisted(root: Path, manifest: dict[str, Any]) -> None:
    """Parts a crashed run wrote but never listed."""
    for table_name in os.listdir(root):
        folder = root / table_name
        if folder.is_dir():
            listed = set(manifest["parts"].get(table_name, []))
            for f in folder.iterdir():
                if f.name not in listed:
                    f.unlink()


def part_paths(archive: Archive, kind: str) -> dict[str, list[Path]]:
    root = derived_dir(archive, kind)
    manifest = load_manifest(archive, kind)
    return {t: [root / t / p for p in parts] for t, parts in manifest["parts"].items()}
