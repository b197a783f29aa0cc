"""``replay project``: the derived tables, materialised to Parquet beside the events.

Every game is replayed once, leniently, through the one replay driver, with two
observers: the core's (``games`` and ``players``, for every kind) and the
game's own (its tables, under its SQL schema). Per game kind, under
``<archive>/derived/<kind>/``:

* ``<table>/part-*.parquet``: rows of finished games, written in parts and never
  rewritten (a second run projects only games that finished since);
* ``<table>/live-*.parquet``: the core rows of games still in progress, replaced
  by every run (game tables hold finished games only);
* ``manifest.json``: the games projected, the parts that hold them, the live
  parts, each part's size and sha256 (``sums``, checked by :func:`check_derived`),
  and the games that could not be projected, each with the reason.

The manifest is replaced atomically after the parts are written, so a crash
leaves the previous projection intact (and at most some unlisted part files,
which nothing reads and the next run removes). A game that cannot be projected
(its pack is missing, its start event is unplayable, a derived row does not fit)
is skipped and named; the others are projected. A disputed game is projected:
its problems are counted in ``games.problems``. When the tables' layout changes,
the next run rebuilds them from the events (derived data loses nothing); so does
``rebuild=True`` (``replay project --rebuild``), for tables found damaged.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa

from ..archive import Archive
from ..archive.columnar import arrow_column, record_column
from ..archive.fsutil import atomic_write, fsync_dir, write_new_file, writes
from ..archive.location import AnyPath, listing, relative
from ..archive.lock import ArchiveLock
from ..archive.manifest import FileEntry, StreamInfo
from ..archive.packs import PackStore
from ..archive.scan import read_games
from ..archive.store import parquet_bytes
from ..contract import AnyGame
from ..driver import Replay
from ..errors import ReplayError
from ..events import Event
from ..gcpause import gc_paused
from ..packs import PackLibrary
from ..problems import Location, Problem
from ..registry import registry as default_registry
from ..schema import schema_text
from ..workers import fork_pool, in_order
from .core import CORE_TABLES, CoreRows

FORMAT = 3
"""3: the manifest records each part's size and sha256. A manifest of another format is
stale: the next run rebuilds the tables."""
OLDER_READABLE = (2,)
"""Formats whose parts a reader that makes do with older tables (``any_layout``) still finds:
2 lists them as 3 does, without their sums, and ``replay regress`` must read the record
made before an upgrade."""
BATCH_GAMES = 20_000
"""Finished games per part file."""
CHUNK_GAMES = 200
"""Games per unit of work handed to a worker process."""


@dataclass
class ProjectResult:
    games: int = 0
    """Finished games projected by this run."""
    already: int = 0
    """Finished games projected by earlier runs."""
    live: int = 0
    """Games in progress, projected (core tables only) afresh."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Games that could not be projected, and why."""
    rows: dict[str, int] = field(default_factory=dict)
    """Rows written by this run, by table (``schema.table`` for a game's own)."""
    rebuilt: list[str] = field(default_factory=list)
    """Kinds whose tables were rebuilt because their layout changed."""
    discarded: list[str] = field(default_factory=list)
    """Kinds whose tables were thrown away on request (``rebuild``) and projected again."""

    def add(self, other: ProjectResult) -> None:
        self.games += other.games
        self.already += other.already
        self.live += other.live
        self.skipped.update(other.skipped)
        self.rebuilt += other.rebuilt
        self.discarded += other.discarded
        for t, n in other.rows.items():
            self.rows[t] = self.rows.get(t, 0) + n


def tables_of(game: AnyGame) -> dict[str, pa.Schema]:
    """The derived tables of a kind: the core's two, then the game's own as ``schema.table``
    (also the names of their folders under ``derived/<kind>/``)."""
    if game.analytics is None:
        return dict(CORE_TABLES)
    schema = game.analytics.schema
    return {**CORE_TABLES, **{f"{schema}.{t}": s for t, s in game.analytics.tables.items()}}


def layout(game: AnyGame) -> str:
    """A fingerprint of the tables' columns: a projection of another layout is rebuilt."""
    text = "".join(f"{name}\n{schema_text(schema)}" for name, schema in tables_of(game).items())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def derived_dir(archive: Archive, kind: str) -> AnyPath:
    """Where a kind's derived tables are read from (writers use ``archive.root``, which must be local)."""
    return archive.base / "derived" / kind


def _fresh(game: AnyGame) -> dict[str, Any]:
    return {"format": FORMAT, "layout": layout(game), "games": [], "parts": {}, "live": {"games": [], "parts": {}},
            "skipped": {}, "sums": {}}


def load_manifest(archive: Archive, game: AnyGame, any_layout: bool = False) -> dict[str, Any]:
    """The kind's derived manifest; a fresh one if there is none, or if it is of another layout
    (``any_layout``: unless only the layout differs, or the format is one of
    :data:`OLDER_READABLE`, for a reader that can make do with older tables)."""
    path = derived_dir(archive, game.kind) / "manifest.json"
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        return _fresh(game)
    except (OSError, ValueError):
        return _fresh(game) | {"stale": True}
    if not isinstance(manifest, dict):
        return _fresh(game) | {"stale": True}
    if any_layout and manifest.get("format") in OLDER_READABLE:
        return {"sums": {}, **manifest}
    if manifest.get("format") != FORMAT or (manifest.get("layout") != layout(game) and not any_layout):
        return _fresh(game) | {"stale": True}
    return {"sums": {}, **manifest}


def kinds_to_project(archive: Archive, games: Sequence[AnyGame] | None,
                     total: Callable[[int], None] | None) -> list[AnyGame]:
    """The kinds a run projects (``games``, or every kind the archive holds), telling ``total`` how
    many games they hold: the same for both engines."""
    streams = archive.snapshot().streams
    kinds = {s.kind for s in streams.values()}
    chosen = list(games) if games is not None else [g for g in archive.registry.games() if g.kind in kinds]
    if total:
        total(sum(1 for s in streams.values() if s.kind in {g.kind for g in chosen}))
    return chosen


def project(archive: Archive, games: Sequence[AnyGame] | None = None,
            progress: Callable[[int], None] | None = None, total: Callable[[int], None] | None = None,
            workers: int = 1, rebuild: bool = False) -> ProjectResult:
    """Project every kind (or ``games``): finished games not yet projected, and games in progress.

    ``rebuild``: first throw away each chosen kind's derived tables and project every game
    again: the repair for tables :func:`check_derived` finds damaged, since an incremental
    run never rewrites a finished game's part."""
    result = ProjectResult()
    for game in kinds_to_project(archive, games, total):
        result.add(_project_kind(archive, game, progress, workers, rebuild))
    return result


@writes
def _project_kind(archive: Archive, game: AnyGame, progress: Callable[[int], None] | None,
                  workers: int, rebuild: bool = False) -> ProjectResult:
    with kind_run(archive, game, rebuild, progress) as (root, tables, result, manifest, todo):
        finished: dict[str, list[pa.Table]] = {t: [] for t in tables}
        live: dict[str, list[pa.Table]] = {t: [] for t in CORE_TABLES}
        batch: list[str] = []
        skipped: dict[str, str] = {}
        live_games: list[str] = []
        _CONTEXT[(str(archive.root), game.kind)] = (archive, game, dict(archive.snapshot().files))
        pool = fork_pool(workers) if workers > 1 else None
        # with workers, a full batch's parts are written by a thread of this process (pyarrow and
        # sha256 let go of the GIL) while the workers go on: the main loop keeps them fed. One
        # flush at a time, in order: each commits the manifest after its parts, as before.
        writer = ThreadPoolExecutor(1, thread_name_prefix="replay-project-parts") if pool is not None else None
        flushing: Future[None] | None = None
        try:
            for chunk in _derived(archive, game, todo, pool):
                skipped.update(chunk.skipped)
                for name, table in chunk.finished.items():
                    finished[name].append(table)
                for name, table in chunk.live.items():
                    live[name].append(table)
                batch.extend(chunk.finished_ids)
                live_games.extend(chunk.live_ids)
                if progress:
                    progress(len(chunk.finished_ids) + len(chunk.live_ids) + len(chunk.skipped))
                if len(batch) >= BATCH_GAMES:
                    if flushing is not None:
                        flushing.result()  # at most one batch waits to be written: memory stays bounded
                    full = {t: list(parts) for t, parts in finished.items()}
                    if writer is None:
                        _flush(root, game, tables, manifest, full, list(batch), result)
                    else:
                        flushing = writer.submit(_flush, root, game, tables, manifest, full, list(batch), result)
                    for parts in finished.values():
                        parts.clear()
                    batch.clear()
        finally:
            _CONTEXT.pop((str(archive.root), game.kind), None)
            if pool is not None:
                pool.close()
                pool.join()
            if writer is not None:
                writer.shutdown(wait=True)
        if flushing is not None:
            flushing.result()
        _flush(root, game, tables, manifest, finished, batch, result)
        _replace_live(root, game, manifest, live, live_games, skipped, result)
    result.games = len(manifest["games"]) - result.already
    result.live = len(live_games)
    result.skipped = skipped
    return result


class KindRun(NamedTuple):
    """One kind's projection under way: its folder, tables, result so far, manifest, games to do."""

    root: Path
    tables: dict[str, pa.Schema]
    result: ProjectResult
    manifest: dict[str, Any]
    todo: dict[str, StreamInfo]


@contextmanager
def kind_run(archive: Archive, game: AnyGame, rebuild: bool, progress: Callable[[int], None] | None) -> Iterator[KindRun]:
    """How both engines (this module's and ``replay.spark.project``) begin a kind: its derived folder
    made, its lock held until the block ends, the folder prepared (:func:`prepare_kind`) and the
    games already projected counted as progress."""
    root = archive.root / "derived" / game.kind
    root.mkdir(parents=True, exist_ok=True)
    tables = tables_of(game)
    result = ProjectResult(rows=dict.fromkeys(tables, 0))
    with ArchiveLock(root / ".lock", exclusive=True, timeout=archive.lock_timeout):
        manifest, streams, todo = prepare_kind(archive, game, root, rebuild, result)
        if progress:
            progress(len(streams) - len(todo))
        yield KindRun(root, tables, result, manifest, todo)


def prepare_kind(archive: Archive, game: AnyGame, root: Path, rebuild: bool,
                 result: ProjectResult) -> tuple[dict[str, Any], dict[str, StreamInfo], dict[str, StreamInfo]]:
    """With the kind's lock held: discard (``rebuild``) or renew (stale layout) its tables, remove
    what a crashed run left, and return the manifest, the kind's games and those still to project.
    Shared by both engines (this module's and ``replay.spark.project``), so they start alike."""
    if rebuild:
        _discard(root)
        result.discarded.append(game.kind)
    manifest = load_manifest(archive, game)
    if manifest.pop("stale", False):
        result.rebuilt.append(game.kind)
        atomic_write(root / "manifest.json", json.dumps(manifest).encode())
    _remove_unlisted(root, manifest)
    done = set(manifest["games"])
    streams = {g: s for g, s in archive.snapshot().streams.items() if s.kind == game.kind}
    todo = {g: s for g, s in streams.items() if g not in done}
    result.already = len(done)
    return manifest, streams, todo


# ----------------------------------------------------------------------------- deriving rows


class _Skip(ReplayError):
    """A game that cannot be projected; the message says why."""


Rows = dict[str, list[dict[str, Any]]]
"""Rows by table, each a dict by column."""
Records = dict[str, list[tuple[Any, ...]]]
"""Rows by table, each a tuple of values in the table's column order (``TableObserver.records``)."""


def derive_game(game: AnyGame, events: list[Event], library: PackLibrary, ended: bool) -> Rows:
    """One game's rows of every derived table (its own tables only once it has ended)."""
    rows, records = derive_records(game, events, library, ended)
    tables = tables_of(game)
    rows.update({t: [dict(zip(tables[t].names, r)) for r in recs] for t, recs in records.items()})
    return rows


def derive_records(game: AnyGame, events: list[Event], library: PackLibrary, ended: bool) -> tuple[Rows, Records]:
    """One game's rows of every derived table, as :func:`derive_game`: those the game's observer
    gives as records (tuples in column order) apart, as it gives them."""
    replay: Replay[Any] = Replay(game, library)
    core = CoreRows(replay, ended)
    replay.observe(core)
    own = game.analytics.observer(events[0]) if game.analytics is not None and ended else None
    if own is not None:
        replay.observe(own)
    try:
        replay.run(events)
        if replay.unplayable is not None:
            raise _Skip(f"its start cannot be played: {replay.unplayable}")
        replay.finish()
    finally:  # the core observer and the replay refer to each other: part them, and reference counting frees the game
        replay.observers.clear()
        replay.observe()
    rows: Rows = dict(core.out)
    records: Records = {}
    if own is not None and game.analytics is not None:
        schema = game.analytics.schema
        given = own.records()
        if given is not None:
            records = {f"{schema}.{t}": r for t, r in given.items()}
        if given is None or set(given) != set(game.analytics.tables):
            rows.update({f"{schema}.{t}": r for t, r in own.rows().items() if f"{schema}.{t}" not in records})
    return rows, records


@dataclass
class DerivedChunk:
    """What deriving a batch of games gives, by either engine (a local worker, a Spark task): the
    games finished and live, the games skipped with why, and each table's rows of each."""

    finished_ids: list[str] = field(default_factory=list)
    live_ids: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    finished: dict[str, pa.Table] = field(default_factory=dict)
    live: dict[str, pa.Table] = field(default_factory=dict)


_CONTEXT: dict[tuple[str, str], tuple[Archive, AnyGame, dict[str, FileEntry]]] = {}
"""What a worker reads through, by (archive root, kind): set before the pool is forked, so workers
inherit the archive, its snapshot's files and the game instead of being sent them."""


def _context(root: str, kind: str) -> tuple[Archive, AnyGame, dict[str, FileEntry]]:
    found = _CONTEXT.get((root, kind))
    if found is None:  # a worker not forked from the projecting process
        archive = Archive(root)
        found = _CONTEXT[(root, kind)] = (archive, archive.registry.get(kind), dict(archive.snapshot().files))
    return found


def _derive_chunk(args: tuple[str, str, list[tuple[str, StreamInfo]]]) -> DerivedChunk:
    """Rows of a chunk of games, as Arrow tables (compact to hold, cheap to send between processes).

    The worker reads the games' events itself (only the row groups that hold them): events are
    never pickled between processes. The cyclic garbage collector is paused for the chunk (a
    game's rows are many small objects and no cycles; collecting after every game, as
    ``Replay.run`` re-enabling it would, scanned them all again each time)."""
    kind, root, todo = args
    archive, source, files = _context(root, kind)
    game = default_registry.get(kind)
    library = game.library(PackStore(Path(root), default_registry))
    chunk = DerivedChunk()
    streams = dict(todo)
    with gc_paused():
        games = read_games(archive, source, streams, files, chunk.skipped)
        derive_chunk(game, library, games, {g: streams[g].ended for g in games}, chunk)
        del games
    return chunk


def derive_chunk(game: AnyGame, library: PackLibrary, games: dict[str, list[Event]], ended: dict[str, bool],
                 chunk: DerivedChunk) -> None:
    """Derive each game's rows (in seq order, all its events) into ``chunk``'s Arrow tables: finished
    games into every table, games in progress (``ended`` False) into the core tables; a game that
    cannot be projected is put in ``chunk.skipped`` with the reason. What a local worker does with
    the games it read, and what a Spark task does with the games of its group."""
    tables = tables_of(game)
    per_game: dict[str, tuple[bool, tuple[Rows, Records]]] = {}
    for game_id, events in games.items():
        try:
            per_game[game_id] = (ended[game_id], derive_records(game, events, library, ended[game_id]))
        except ReplayError as exc:
            chunk.skipped[game_id] = str(exc).splitlines()[0]
        except Exception as exc:  # a bug in a game's derived rows: name the game, project the others
            chunk.skipped[game_id] = f"{type(exc).__name__}: {exc}"
    for finished in (True, False):
        names = tables if finished else CORE_TABLES
        ids = [g for g, (e, _) in per_game.items() if e == finished]
        built = _tables({g: per_game[g][1] for g in ids}, names, chunk.skipped)
        (chunk.finished if finished else chunk.live).update(built)
        (chunk.finished_ids if finished else chunk.live_ids).extend(g for g in ids if g not in chunk.skipped)
    del per_game


def _tables(rows: dict[str, tuple[Rows, Records]], schemas: dict[str, pa.Schema],
            skipped: dict[str, str]) -> dict[str, pa.Table]:
    """Arrow tables of many games' rows (as dicts or records); a game whose rows do not fit the
    schema is skipped and named (as ``pa.Table.from_pylist`` of its rows as dicts says)."""
    try:
        return {t: _table_of(rows.values(), t, s) for t, s in schemas.items()}
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        good = {}
        for game_id, (game_rows, game_records) in rows.items():
            try:
                for t, s in schemas.items():
                    as_dicts = game_rows.get(t, []) + [dict(zip(s.names, r)) for r in game_records.get(t, [])]
                    pa.Table.from_pylist(as_dicts, schema=s)
                    if t in game_records:
                        _records_table(game_records[t], s)
                good[game_id] = (game_rows, game_records)
            except (pa.ArrowException, TypeError, ValueError, OverflowError) as exc:
                skipped[game_id] = f"a derived row does not fit its table: {exc}"
        return _tables(good, schemas, skipped)


def _table_of(games: Iterable[tuple[Rows, Records]], name: str, schema: pa.Schema) -> pa.Table:
    """One table of many games: from their records when every game gives this table's rows as records."""
    games = list(games)
    if games and all(name in records for _, records in games):
        return _records_table([r for _, records in games for r in records[name]], schema)
    return _table([r for rows, records in games
                   for r in (rows.get(name, []) + [dict(zip(schema.names, x)) for x in records.get(name, [])])], schema)


def _records_table(records: list[tuple[Any, ...]], schema: pa.Schema) -> pa.Table:
    """The table of rows given as tuples in column order: each column read from the records and converted
    against the schema (:func:`record_column`: ``pa.array``'s array, written in C where it can be), as
    :func:`_table` does for dicts (the same table)."""
    if not records:
        return pa.Table.from_pylist([], schema=schema)
    if set(map(len, records)) != {len(schema)}:
        raise ValueError(f"a record of {schema.names[:2]} does not have the table's {len(schema)} columns")
    return pa.Table.from_arrays([record_column(records, j, f.type) for j, f in enumerate(schema)], schema=schema)


def _table(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    """``pa.Table.from_pylist(rows, schema=schema)``, the same table, in a third of the time: the
    rows are turned into columns by ``itemgetter`` and ``zip`` (in C) rather than a lookup per
    value. A row without every column (from_pylist makes the missing ones null) takes the slow way."""
    if not rows:
        return pa.Table.from_pylist(rows, schema=schema)
    try:
        columns = list(zip(*map(itemgetter(*schema.names), rows))) if len(schema) > 1 else None
    except KeyError:
        return pa.Table.from_pylist(rows, schema=schema)
    if columns is None:
        return pa.Table.from_pylist(rows, schema=schema)
    return pa.Table.from_arrays([arrow_column(c, f.type) for c, f in zip(columns, schema)], schema=schema)


def _derived(archive: Archive, game: AnyGame, todo: dict[str, StreamInfo], pool: Any) -> Iterator[DerivedChunk]:
    """Chunks of derived rows. The games are taken file by file (by their first file, then by
    id: files are sorted by game id, so a chunk's games are neighbours in few row groups), and
    each chunk is read and derived by a worker; at most a few chunks are in flight, so memory
    stays bounded whatever the archive's size."""
    root = str(archive.root)

    def chunks() -> Iterator[tuple[str, str, list[tuple[str, StreamInfo]]]]:
        order = sorted(todo.items(), key=lambda item: (min(item[1].files, default=""), item[0]))
        for i in range(0, len(order), CHUNK_GAMES):
            yield game.kind, root, order[i:i + CHUNK_GAMES]

    yield from in_order(pool, _derive_chunk, chunks(), 2 * pool._processes if pool is not None else 1)


# ----------------------------------------------------------------------------- writing parts


def _write_part(root: Path, table_name: str, name: str, table: pa.Table, manifest: dict[str, Any]) -> None:
    """Write a part and record its size and sha256 in ``manifest`` (committed by the caller)."""
    size, digest = write_part_file(root, table_name, name, table)
    manifest["sums"][f"{table_name}/{name}"] = {"bytes": size, "sha256": digest}


def write_part_file(root: Path, table_name: str, name: str, table: pa.Table) -> tuple[int, str]:
    """Write ``root/table_name/name`` (a new file, durably), and return its size and sha256."""
    folder = root / table_name
    folder.mkdir(exist_ok=True)
    data = parquet_bytes(table)
    write_new_file(folder / name, data)
    return len(data), hashlib.sha256(data).hexdigest()


def _flush(root: Path, game: AnyGame, tables: dict[str, pa.Schema], manifest: dict[str, Any],
           rows: dict[str, list[pa.Table]], batch: list[str], result: ProjectResult) -> None:
    if not batch:
        return
    name = f"part-{uuid.uuid4().hex[:12]}.parquet"
    for table_name, schema in tables.items():
        table = pa.concat_tables(rows[table_name]) if rows[table_name] else schema.empty_table()
        _write_part(root, table_name, name, table, manifest)
        manifest["parts"].setdefault(table_name, []).append(name)
        result.rows[table_name] += table.num_rows
        rows[table_name].clear()
    manifest["games"].extend(batch)
    batch.clear()
    atomic_write(root / "manifest.json", json.dumps(manifest).encode())


def _replace_live(root: Path, game: AnyGame, manifest: dict[str, Any], rows: dict[str, list[pa.Table]],
                  live_games: list[str], skipped: dict[str, str], result: ProjectResult) -> None:
    """The live parts (games in progress) are replaced whole; then the old ones are removed."""
    name = f"live-{uuid.uuid4().hex[:12]}.parquet"
    parts: dict[str, list[str]] = {}
    if live_games:
        for table_name, schema in CORE_TABLES.items():
            table = pa.concat_tables(rows[table_name]) if rows[table_name] else schema.empty_table()
            _write_part(root, table_name, name, table, manifest)
            parts[table_name] = [name]
            result.rows[table_name] += table.num_rows
    commit_live(root, manifest, parts, live_games, skipped)


def commit_live(root: Path, manifest: dict[str, Any], parts: dict[str, list[str]], live_games: list[str],
                skipped: dict[str, str]) -> None:
    """Commit the new live parts (already written, their sums in ``manifest``) and this run's skipped
    games, then remove the old live parts (shared by both engines)."""
    old = manifest["live"]["parts"]
    for table_name, names in old.items():
        for n in names:
            manifest["sums"].pop(f"{table_name}/{n}", None)
    manifest["live"] = {"games": sorted(live_games), "parts": parts}
    manifest["skipped"] = dict(sorted(skipped.items()))
    atomic_write(root / "manifest.json", json.dumps(manifest).encode())
    for table_name, names in old.items():
        for n in names:
            (root / table_name / n).unlink(missing_ok=True)


STAGING_PREFIX = ".staging-"
"""Folders under ``derived/<kind>/`` where Spark's tasks write parts before the driver commits them."""


def _remove_unlisted(root: Path, manifest: dict[str, Any]) -> None:
    """Parts a crashed run wrote but never listed, and tables of an older layout."""
    for table_name in os.listdir(root):
        folder = root / table_name
        if table_name.startswith(STAGING_PREFIX) and folder.is_dir():
            shutil.rmtree(folder)  # the staging folder of a Spark run that did not finish (we hold the lock)
        elif folder.is_dir():
            listed = set(manifest["parts"].get(table_name, [])) | set(manifest["live"]["parts"].get(table_name, []))
            for f in folder.iterdir():
                if f.name not in listed:
                    f.unlink()


def _discard(root: Path) -> None:
    """Throw away a kind's derived tables; call with its lock held.

    The manifest goes first (readers then see no tables rather than missing parts);
    the lock file stays, since another projector may be waiting on it: deleting it
    would let the next one lock a new file while this one holds the old."""
    (root / "manifest.json").unlink(missing_ok=True)
    fsync_dir(root)
    for entry in root.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        elif entry.name != ".lock":
            entry.unlink()


def part_paths(archive: Archive, game: AnyGame, any_layout: bool = False) -> dict[str, list[AnyPath]]:
    """Every committed part of each of the kind's tables (finished and live).

    ``any_layout``: also when they were written by a version of replay whose tables had
    other columns (they stay until the next ``replay project`` rebuilds them); the reader
    must check the columns it needs."""
    root = derived_dir(archive, game.kind)
    manifest = load_manifest(archive, game, any_layout)
    if manifest.get("stale"):
        return {}
    out: dict[str, list[AnyPath]] = {}
    for group in (manifest["parts"], manifest["live"]["parts"]):
        for t, parts in group.items():
            out.setdefault(t, []).extend(root / t / p for p in parts)
    return out


@dataclass(frozen=True)
class Coverage:
    """How far a kind's derived tables are behind its games."""

    kind: str
    games: int
    projected: int
    live: int
    skipped: dict[str, str]
    stale: bool

    @property
    def behind(self) -> int:
        return self.games - self.projected - self.live - len(self.skipped)


def coverage(archive: Archive, game: AnyGame) -> Coverage:
    streams = archive.snapshot().streams
    games = sum(1 for s in streams.values() if s.kind == game.kind)
    manifest = load_manifest(archive, game)
    stale = bool(manifest.get("stale"))
    live_now = {g for g in manifest["live"]["games"] if g in streams and not streams[g].ended}
    return Coverage(game.kind, games, len(manifest["games"]), len(live_now), manifest["skipped"], stale)


# ----------------------------------------------------------------------------- integrity

DERIVED_RULE = "archive.derived"


def check_derived(archive: Archive, checksums: bool = True) -> list[Problem]:
    """Every kind's derived tables against their manifest: the manifest readable, every part
    it lists present, of the recorded size and (``checksums``) sha256.

    Each problem (rule id ``archive.derived``) names the file and the command that repairs
    it. ``checksums=False`` stops at presence and size: a ``stat`` per part, cheap enough
    for every query, where hashing every part grows with the archive (docs/analytics.md).

    Not reported: parts on disk the manifest does not list (a crashed run left them,
    nothing reads them, the next run removes them), and a manifest of an older format
    (it records no sums; it is stale, and the next ``replay project`` rebuilds it).

    No lock is taken, so a ``replay project`` that holds a kind's for an hour does not
    stall the check. A concurrent run removes a part only after committing a manifest
    that no longer lists it, so when something looks wrong the manifest is read again,
    and a changed one is checked afresh."""
    return [p for root in _kind_dirs(archive) for _, p in _check_kind(archive, root, checksums)]


def _kind_dirs(archive: Archive) -> list[AnyPath]:
    """The kinds' derived folders, in name order."""
    return [root for root in listing(archive.base / "derived") if root.is_dir()]


def damaged_tables(archive: Archive, checksums: bool = False) -> dict[str, list[Problem]]:
    """:func:`check_derived`'s problems by the table (and SQL view) they damage; a damaged
    manifest damages every table of its kind."""
    out: dict[str, list[Problem]] = {}
    kinds = {g.kind: g for g in archive.registry.games()}
    for root in _kind_dirs(archive):
        for table, problem in _check_kind(archive, root, checksums):
            names = [table] if table else list(tables_of(kinds[root.name])) if root.name in kinds else []
            for name in names:
                out.setdefault(name, []).append(problem)
    return out


def _check_kind(archive: Archive, root: AnyPath, checksums: bool) -> list[tuple[str | None, Problem]]:
    found: list[tuple[str | None, Problem]] = []
    for _ in range(3):
        text = _read_or_none(root / "manifest.json")
        found = _check_manifest(archive, root, text, checksums)
        if not found or _read_or_none(root / "manifest.json") == text:
            break
    return found


def _read_or_none(path: AnyPath) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _check_manifest(archive: Archive, root: AnyPath, text: bytes | None,
                    checksums: bool) -> list[tuple[str | None, Problem]]:
    """(table, problem) for every part of the manifest ``text`` not as recorded (table None: the manifest)."""
    kind = root.name
    fix = f"rebuild the {kind} tables with `replay project --rebuild --game {kind}`"

    def problem(path: AnyPath, what: str) -> Problem:
        return Problem(DERIVED_RULE, f"{what}; {fix}", where=Location(file=relative(path, archive.base)))

    if text is None:
        return []  # nothing committed yet, or a rebuild under way
    try:
        manifest = json.loads(text)
        if manifest.get("format") != FORMAT:
            return []
        sums = manifest["sums"]
        listed = [(t, n) for group in (manifest["parts"], manifest["live"]["parts"]) for t, names in group.items()
                  for n in names]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        return [(None, problem(root / "manifest.json", f"the derived manifest is not readable ({type(exc).__name__}: "
                                                       f"{exc})"))]
    found: list[tuple[str | None, Problem]] = []
    for table, name in listed:
        path = root / table / name
        what = _part_damage(path, sums.get(f"{table}/{name}"), checksums)
        if what:
            found.append((table, problem(path, what)))
    return found


def _part_damage(path: AnyPath, recorded: Any, checksums: bool) -> str | None:
    """What is wrong with one part against its recorded sums, or None."""
    if not isinstance(recorded, dict) or not isinstance(recorded.get("bytes"), int) or "sha256" not in recorded:
        return "the derived manifest records no size and sha256 for this part (was the manifest edited?)"
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return "missing: the derived manifest lists it but it is not on disk"
    if size != recorded["bytes"]:
        return f"size is {size} bytes, the derived manifest says {recorded['bytes']} (truncated or replaced?)"
    if checksums:
        with path.open("rb") as f:
            digest = hashlib.file_digest(f, "sha256").hexdigest()
        if digest != recorded["sha256"]:
            return "sha256 does not match the derived manifest: the file was altered or damaged"
    return None
