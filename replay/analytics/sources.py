"""Which committed files each SQL view reads: one list for every engine.

DuckDB (:mod:`.sql`) and Spark (:mod:`replay.spark.sql`) must read exactly the files the
archive's manifests name: never a file not yet committed, nor one a crashed run left beside
the committed ones. So the list is made here, once, and both engines make their views from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..archive import Archive
from ..archive.location import AnyPath
from .core import CORE_TABLES
from .project import part_paths


@dataclass(frozen=True)
class Sources:
    """The committed Parquet files behind the views.

    ``events``: each kind's event files (every installed kind, empty when it has none);
    ``parts``: each derived view's parts, the core tables (``games``, ``players``) gathered
    across kinds in the registry's order, a kind's own tables under ``<schema>.<table>``."""

    events: dict[str, list[AnyPath]]
    parts: dict[str, list[AnyPath]]


def sources(archive: Archive) -> Sources:
    """The files of one snapshot of the archive's manifest and of each kind's derived manifest."""
    state = archive.snapshot()
    events: dict[str, list[AnyPath]] = {}
    parts: dict[str, list[AnyPath]] = {t: [] for t in CORE_TABLES}
    for game in archive.registry.games():
        events[game.kind] = sorted(archive.path_of(f.path) for f in state.files.values() if f.kind == game.kind)
        for view, paths in part_paths(archive, game).items():
            if view in CORE_TABLES:
                parts[view] += paths
            else:
                parts[view] = list(paths)
    return Sources(events, parts)
