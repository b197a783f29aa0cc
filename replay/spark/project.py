"""``replay project --engine spark``: the derived tables of :mod:`replay.analytics.project`, computed by Spark.

The shape, per game kind, and why:

* The driver takes the kind's lock and prepares its derived folder exactly as the local engine does
  (:func:`~replay.analytics.project.prepare_kind`), then lists the games still to project with the
  committed event files that hold them (the archive's manifest: a leftover or uncommitted file is
  never read).
* Spark reads those files (Parquet, page checksums verified) and joins the events to the small table
  of games to project, which puts each game in a *group* of neighbouring game ids. A grouped Arrow
  function (``applyInArrow``) gets each group's events as one Arrow table, decodes them to events
  and derives every game's rows with the plug-in's own code (:func:`~replay.analytics.project.derive_chunk`,
  the very function the local workers call), so the rows are the local engine's.
* The task writes the group's rows as Parquet parts into a staging folder of the kind's derived
  folder and returns only small metadata rows (part name, table, rows, size, sha256, the games it
  holds, the games skipped and why): rows never travel to the driver.
* The driver moves the parts into place and commits the derived manifest as the local engine does:
  one atomic replacement, with the lock still held. A run that fails leaves the manifest as it was;
  its staging folder is removed (or, after a crash, by the next run of either engine).

A game whose events cannot all be read (a damaged or vanished event file) is skipped and named, as
locally: Spark is told to skip a file it cannot read rather than fail the job, and a game the tasks
did not see whole is named with its files. A game the plug-in cannot project is skipped with the
plug-in's reason. An event type the game does not know fails the run with the decoder's message, as
locally.

The archive must be a path that the driver and every executor see as the same files (a local disk in
local mode, a shared mount on a cluster): the archive's own reader, its locks and the part writer
use POSIX files; see docs/scale-out.md.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import shutil
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from ..analytics.core import CORE_TABLES
from ..analytics.project import (
    CHUNK_GAMES,
    STAGING_PREFIX,
    DerivedChunk,
    ProjectResult,
    commit_live,
    derive_chunk,
    kind_run,
    kinds_to_project,
    tables_of,
    write_part_file,
)
from ..archive import Archive
from ..archive.fsutil import atomic_write, fsync_dir, writes
from ..archive.manifest import StreamInfo
from ..contract import AnyGame
from ..errors import ReplayError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

GAMES_PER_GROUP = 2_000
"""Games per Spark group (one task's work, and one part file per table): a group's events are held
in one Arrow table by its task, so this bounds a task's memory (measured: about 90 KB of Arrow per
7 Wonders Dice game, 180 MB for a group). More groups than this are made when the cluster has more
cores (see :func:`groups_for`)."""

META = ("part string, tbl string, live boolean, rows long, bytes long, sha256 string, "
        "finished string, in_progress string, skipped string, error string")
"""What a task returns: one row per part written, and one summary row (``part`` null) per group."""

_READ_OPTIONS = {
    "mergeSchema": "true",  # files written by different versions may hold different event columns
    "ignoreCorruptFiles": "true",  # a damaged file loses its games (named by the driver), not the run
    "ignoreMissingFiles": "true",  # as a file removed by a compaction meanwhile
    "parquet.page.verify-checksum.enabled": "true",  # as the archive's own reader: never derive from bad pages
}


@dataclass(frozen=True)
class SparkProjectOptions:
    """How the work is cut: at least ``min_groups`` groups (default: Spark's default parallelism),
    and no more than ``games_per_group`` games in one; a task decodes and derives its group
    ``games_per_slice`` games at a time (as a local worker takes a chunk)."""

    games_per_group: int = GAMES_PER_GROUP
    min_groups: int | None = None
    games_per_slice: int = CHUNK_GAMES


def groups_for(games: int, parallelism: int, options: SparkProjectOptions) -> int:
    """How many groups to cut ``games`` into: enough for every core, none bigger than asked."""
    if games == 0:
        return 0
    wanted = max(options.min_groups or parallelism, math.ceil(games / options.games_per_group))
    return max(1, min(games, wanted))


def project_spark(archive: Archive, spark: SparkSession, games: Sequence[AnyGame] | None = None,
                  progress: Callable[[int], None] | None = None, total: Callable[[int], None] | None = None,
                  rebuild: bool = False, options: SparkProjectOptions | None = None) -> ProjectResult:
    """Project every kind (or ``games``) with Spark: the same tables, rows and manifest as
    :func:`replay.analytics.project.project` (parts are cut differently)."""
    options = options or SparkProjectOptions()
    result = ProjectResult()
    for game in kinds_to_project(archive, games, total):
        result.add(_project_kind(archive, spark, game, progress, rebuild, options))
    return result


@writes
def _project_kind(archive: Archive, spark: SparkSession, game: AnyGame, progress: Callable[[int], None] | None,
                  rebuild: bool, options: SparkProjectOptions) -> ProjectResult:
    with kind_run(archive, game, rebuild, progress) as (root, tables, result, manifest, todo):
        run = uuid.uuid4().hex[:12]
        staging = root / f"{STAGING_PREFIX}{run}"
        staging.mkdir()
        try:
            metas = _run(spark, archive, game, todo, staging, run, options) if todo else []
            errors = [m["error"] for m in metas if m["error"]]
            if errors:
                raise ReplayError(errors[0])
            finished, live, skipped = _outcome(metas, todo)
            _commit_finished(root, staging, tables, manifest, metas, finished, result)
            live_parts = _move_parts(root, staging, manifest, [m for m in metas if m["part"] and m["live"]], result)
            commit_live(root, manifest, live_parts, live, skipped)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        if progress:
            progress(len(todo))
    result.games = len(manifest["games"]) - result.already
    result.live = len(live)
    result.skipped = skipped
    return result


def _run(spark: SparkSession, archive: Archive, game: AnyGame, todo: dict[str, StreamInfo], staging: Path, run: str,
         options: SparkProjectOptions) -> list[dict[str, Any]]:
    """The Spark job: read, group, derive and write in the tasks; collect their metadata rows."""
    from pyspark.sql import functions as F

    paths = sorted({p for s in todo.values() for p in s.files})
    order = sorted(todo)
    n = groups_for(len(order), spark.sparkContext.defaultParallelism, options)
    # neighbouring game ids in a group: files are sorted by game id, so a group reads few row groups
    wanted = spark.createDataFrame([(g, i * n // len(order), todo[g].ended, todo[g].last_seq) for i, g in enumerate(order)],
                                   "game_id string, grp int, ended boolean, last_seq long")
    reader = spark.read
    for key, value in _READ_OPTIONS.items():
        reader = reader.option(key, value)
    events: DataFrame = reader.parquet(*[(archive.root / p).resolve().as_uri() for p in paths])
    joined = events.join(F.broadcast(wanted) if len(order) <= 100_000 else wanted, "game_id")
    task = _task(game.kind, str(archive.root.resolve()), str(staging), run, options.games_per_slice)
    try:
        rows = joined.groupBy("grp").applyInArrow(task, META).collect()
    except Exception as error:  # a failed job arrives as a Py4J or Python exception of many kinds
        raise ReplayError(f"Spark could not project {game.kind}, nothing was committed: {_first_line(error)}") from error
    return [r.asDict() for r in rows]


def _first_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return next((line for line in lines if "Error" in line or "Exception" in line), lines[0] if lines else repr(error))


def _task(kind: str, root: str, staging: str, run: str, per_slice: int) -> Callable[[pa.Table], pa.Table]:
    """The grouped Arrow function, closed over plain values only (it is pickled to every executor)."""

    def derive_group(table: pa.Table) -> pa.Table:
        return derive_group_table(kind, root, staging, run, table, per_slice)

    return derive_group


_LIBRARIES: dict[tuple[str, str, str], Any] = {}
"""The rules packs of a (root, kind, run), kept by a Python worker that Spark reuses for many groups."""


def derive_group_table(kind: str, root: str, staging: str, run: str, table: pa.Table,
                       per_slice: int = CHUNK_GAMES) -> pa.Table:
    """In a task: one group's events (every committed row of its games) to parts and metadata rows."""
    from ..archive.packs import PackStore
    from ..gcpause import gc_paused
    from ..registry import registry
    from ..schema import decode

    game = registry.get(kind)
    key = (root, kind, run)
    if key not in _LIBRARIES:
        _LIBRARIES.clear()
        _LIBRARIES[key] = game.library(PackStore(Path(root), registry))
    library = _LIBRARIES[key]
    table = table.sort_by([("game_id", "ascending"), ("seq", "ascending")]).drop_columns(["grp"])
    info = table.group_by("game_id").aggregate([("ended", "max"), ("last_seq", "max"), ("seq", "count")])
    info = info.sort_by("game_id")  # the order of the games in ``table``, so counts give each game's rows
    ids, counts = info.column("game_id").to_pylist(), info.column("seq_count").to_pylist()
    ended = dict(zip(ids, info.column("ended_max").to_pylist()))
    whole = {g for g, last, n in zip(ids, info.column("last_seq_max").to_pylist(), counts) if n == last + 1}
    chunk = DerivedChunk()  # a game not read whole is in none of its lists: the driver names it
    finished: dict[str, list[pa.Table]] = {t: [] for t in tables_of(game)}
    live: dict[str, list[pa.Table]] = {t: [] for t in CORE_TABLES}
    events_only = table.drop_columns(["ended", "last_seq"])
    offset = 0
    try:
        for first in range(0, len(ids), per_slice):  # decoded events of a slice at a time: memory stays bounded
            count = sum(counts[first:first + per_slice])
            piece = DerivedChunk()
            with gc_paused():
                events = decode(events_only.slice(offset, count), game)
                games = {g: list(evs) for g, evs in itertools.groupby(events, key=lambda e: e.game_id) if g in whole}
                del events
                derive_chunk(game, library, games, {g: bool(ended[g]) for g in games}, piece)
                del games
            offset += count
            chunk.finished_ids += piece.finished_ids
            chunk.live_ids += piece.live_ids
            chunk.skipped.update(piece.skipped)
            for t, table_part in piece.finished.items():
                finished[t].append(table_part)
            for t, table_part in piece.live.items():
                live[t].append(table_part)
    except ReplayError as exc:
        return _meta([_row(error=str(exc).splitlines()[0])])
    chunk.finished = {t: pa.concat_tables(parts) for t, parts in finished.items() if parts}
    chunk.live = {t: pa.concat_tables(parts) for t, parts in live.items() if parts}
    rows = [_row(finished=json.dumps(chunk.finished_ids), in_progress=json.dumps(chunk.live_ids),
                 skipped=json.dumps(chunk.skipped))]
    for in_progress, ids, built, names in ((False, chunk.finished_ids, chunk.finished, tables_of(game)),
                                           (True, chunk.live_ids, chunk.live, CORE_TABLES)):
        if not ids:
            continue
        name = f"{'live' if in_progress else 'part'}-{uuid.uuid4().hex[:12]}.parquet"
        for table_name, schema in names.items():
            part = built.get(table_name, schema.empty_table())
            size, digest = write_part_file(Path(staging), table_name, name, part)
            rows.append(_row(part=name, tbl=table_name, live=in_progress, rows=part.num_rows, bytes=size, sha256=digest))
    return _meta(rows)


def _row(**given: Any) -> dict[str, Any]:
    return {"part": None, "tbl": None, "live": None, "rows": None, "bytes": None, "sha256": None, "finished": None,
            "in_progress": None, "skipped": None, "error": None} | given


_META_SCHEMA = pa.schema([("part", pa.string()), ("tbl", pa.string()), ("live", pa.bool_()), ("rows", pa.int64()),
                          ("bytes", pa.int64()), ("sha256", pa.string()), ("finished", pa.string()),
                          ("in_progress", pa.string()), ("skipped", pa.string()), ("error", pa.string())])


def _meta(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=_META_SCHEMA)


# ----------------------------------------------------------------------------- committing, in the driver


def _outcome(metas: list[dict[str, Any]], todo: dict[str, StreamInfo]) -> tuple[list[str], list[str], dict[str, str]]:
    """The games finished, in progress and skipped (with why); a game to project that no task saw
    whole could not be read: it is named with its files, as the local engine names a damaged file."""
    finished: list[str] = []
    live: list[str] = []
    skipped: dict[str, str] = {}
    for m in metas:
        if m["part"] is None:
            finished += json.loads(m["finished"])
            live += json.loads(m["in_progress"])
            skipped.update(json.loads(m["skipped"]))
    for game_id in sorted(todo.keys() - set(finished) - set(live) - skipped.keys()):
        files = ", ".join(todo[game_id].files)
        skipped[game_id] = (f"{files} could not be read whole (damaged, or removed meanwhile); run `replay verify`, "
                            "and restore the file from a backup")
    return finished, live, skipped


def _commit_finished(root: Path, staging: Path, tables: dict[str, pa.Schema], manifest: dict[str, Any],
                     metas: list[dict[str, Any]], finished: list[str], result: ProjectResult) -> None:
    """Move the finished games' parts into place and commit them in one manifest (as ``_flush`` does)."""
    parts = [m for m in metas if m["part"] and not m["live"]]
    if not finished:
        return
    for table_name, names in _move_parts(root, staging, manifest, parts, result).items():
        manifest["parts"].setdefault(table_name, []).extend(names)
    manifest["games"].extend(sorted(finished))
    atomic_write(root / "manifest.json", json.dumps(manifest).encode())


def _move_parts(root: Path, staging: Path, manifest: dict[str, Any], parts: list[dict[str, Any]],
                result: ProjectResult) -> dict[str, list[str]]:
    """Move parts from the staging folder into their tables' folders and record their sums; returns
    the part names by table (not yet committed: the caller writes the manifest)."""
    moved: dict[str, list[str]] = {}
    for m in sorted(parts, key=lambda m: (m["tbl"], m["part"])):
        folder = root / m["tbl"]
        folder.mkdir(exist_ok=True)
        os.replace(staging / m["tbl"] / m["part"], folder / m["part"])
        manifest["sums"][f"{m['tbl']}/{m['part']}"] = {"bytes": m["bytes"], "sha256": m["sha256"]}
        moved.setdefault(m["tbl"], []).append(m["part"])
        result.rows[m["tbl"]] = result.rows.get(m["tbl"], 0) + m["rows"]
    for table_name in moved:
        fsync_dir(root / table_name)
    return moved
