"""``replay verify``: check everything the archive claims, and name every problem.

Checks, in order: the manifest log (checksums, no missing commit); each
committed file against its manifest entry (present, size, sha256, readable,
schema, row count, game spans); then every game across files (seqs 0..n once
each, a start event first, nothing after an end event). Files on disk that no
commit names are reported too: as *notes* when they are leftovers of an
interrupted write (removed by the next write), as *problems* otherwise.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ..chain import GENESIS, link
from ..errors import ReplayError
from ..events import Event
from ..plugin import PluginRegistry
from ..schema import ENVELOPE_SCHEMA, decode, schema_fingerprint
from . import manifest as mf
from .store import Archive, game_spans, read_parquet, unreferenced_files


@dataclass(frozen=True)
class Problem:
    what: str
    file: str | None = None
    game: str | None = None
    seq: int | None = None

    def __str__(self) -> str:
        where = [p for p in (self.file, f"game {self.game}" if self.game else None,
                             f"seq {self.seq}" if self.seq is not None else None) if p]
        return (", ".join(where) + ": " if where else "") + self.what


@dataclass
class Report:
    generation: int = 0
    files: int = 0
    games: int = 0
    events: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(
    archive: Archive, deep: bool = False, progress: Callable[[int], None] | None = None
) -> Report:
    """Check the whole archive under a shared lock (writers wait; readers do not)."""
    report = Report()
    with archive._lock(exclusive=False):
        try:
            state = mf.load(archive.manifest_dir)
        except ReplayError as exc:
            report.problems.append(Problem(f"manifest: {exc}"))
            return report
        report.generation = state.generation
        seqs: dict[str, list[tuple[int, str, str]]] = {}
        links = _Links()
        for entry in sorted(state.files.values(), key=lambda f: f.path):
            _check_file(archive, entry, archive.plugins, deep, report, seqs, links)
            report.files += 1
            if progress:
                progress(1)
        _check_games(seqs, state, archive.plugins, report)
        links.resolve(report)
        for u in unreferenced_files(archive.root, state):
            if u.generation_above:
                report.notes.append(Problem("left by an interrupted write; removed by the next write", u.relative))
            elif u.retired:
                report.notes.append(Problem("replaced by compaction; removed by the next write", u.relative))
            else:
                report.problems.append(Problem("on disk but not in the manifest (was the manifest edited?)", u.relative))
        report.games = len(seqs)
    return report


def _check_file(
    archive: Archive,
    entry: mf.FileEntry,
    plugins: PluginRegistry,
    deep: bool,
    report: Report,
    seqs: dict[str, list[tuple[int, str, str]]],
    links: _Links,
) -> None:
    path: Path = archive.path_of(entry.path)
    problem = lambda what, **kw: report.problems.append(Problem(what, entry.path, **kw))  # noqa: E731
    if not path.is_file():
        problem("missing: the manifest lists it but it is not on disk")
        return
    data = path.read_bytes()
    if len(data) != entry.bytes:
        problem(f"size is {len(data)} bytes, the manifest says {entry.bytes} (truncated or replaced?)")
    if hashlib.sha256(data).hexdigest() != entry.sha256:
        problem("sha256 does not match the manifest: the file was altered or damaged")
    try:
        table = read_parquet(path, dictionaries=False)
    except (OSError, pa.ArrowException) as exc:
        problem(f"not readable as Parquet: {exc}")
        return
    if table.num_rows != entry.rows:
        problem(f"holds {table.num_rows} events, the manifest says {entry.rows}")
    stored = pq.read_schema(path)
    if schema_fingerprint(stored) != entry.schema:
        problem(f"schema {schema_fingerprint(stored)} differs from the manifest's {entry.schema}")
    for want in ENVELOPE_SCHEMA:
        got = stored.field(want.name) if want.name in stored.names else None
        if got is None or got.type != want.type:
            problem(f"envelope column {want.name} is missing or not {want.type}")
            return
    try:
        plugin = plugins.get(entry.kind)
    except ReplayError as exc:
        problem(str(exc))
        return
    kinds = set(table.column("kind").to_pylist())
    if kinds - {entry.kind}:
        problem(f"holds events of kind {sorted(kinds - {entry.kind})} in a {entry.kind} file")
    sorted_table = table.sort_by([("game_id", "ascending"), ("seq", "ascending")])
    keys = list(zip(table.column("game_id").to_pylist(), table.column("seq").to_pylist()))
    if keys != sorted(keys):
        problem("rows are not sorted by (game_id, seq): one-game lookups would miss events")
    try:
        spans = game_spans(sorted_table, plugin)
    except (KeyError, pa.ArrowException) as exc:
        problem(f"cannot index games: {exc}")
        return
    if spans != entry.games:
        for g in sorted(set(spans) | set(entry.games)):
            if spans.get(g) != entry.games.get(g):
                problem(f"the manifest says {_span_text(entry.games.get(g))}, the file holds {_span_text(spans.get(g))}", game=g)
    try:
        events = decode(sorted_table, plugin)
        links.add(entry.path, decode(sorted_table, plugin, upcast=False), sorted_table.column("hash").to_pylist())
    except ReplayError as exc:
        problem(f"events cannot be decoded: {exc}")
        return
    for e in events:
        seqs.setdefault(e.game_id, []).append((e.seq, e.type, entry.path))
        if deep:
            try:
                plugin.models[e.type].model_validate(e.payload)
            except Exception as exc:  # pydantic.ValidationError, reported not raised
                problem(f"payload fails validation: {str(exc).splitlines()[0]}", game=e.game_id, seq=e.seq)
    report.events += len(events)


class _Links:
    """Checks every event's chain hash; links that cross files are resolved at the end."""

    def __init__(self) -> None:
        self.broken: dict[str, tuple[int, str]] = {}          # game -> (first broken seq, file)
        self.pending: list[tuple[Event, int, str]] = []        # (first event of a game in a file, its hash, file)
        self.ends: dict[tuple[str, int], int] = {}             # (game, seq) -> stored hash, at file ends

    def add(self, path: str, events: list[Event], hashes: list[int]) -> None:
        for i, (e, stored) in enumerate(zip(events, hashes)):
            prev = events[i - 1] if i else None
            if prev is not None and prev.game_id == e.game_id and prev.seq == e.seq - 1:
                if link(hashes[i - 1], e) != stored:
                    self._break(e, path)
            else:
                self.pending.append((e, stored, path))
            nxt = events[i + 1] if i + 1 < len(events) else None
            if nxt is None or nxt.game_id != e.game_id:
                self.ends[(e.game_id, e.seq)] = stored

    def _break(self, e: Event, path: str) -> None:
        if e.game_id not in self.broken or e.seq < self.broken[e.game_id][0]:
            self.broken[e.game_id] = (e.seq, path)

    def resolve(self, report: Report) -> None:
        for e, stored, path in self.pending:
            prev = GENESIS if e.seq == 0 else self.ends.get((e.game_id, e.seq - 1))
            if prev is not None and link(prev, e) != stored:
                self._break(e, path)
        for game, (seq, path) in sorted(self.broken.items()):
            report.problems.append(Problem(
                "hash chain broken here: this event (or its stored hash) was altered after it was written; "
                "the first altered event", path, game, seq))


def _span_text(span: mf.GameSpan | None) -> str:
    return "nothing" if span is None else f"seqs {span.first}..{span.last}"


def _check_games(
    seqs: dict[str, list[tuple[int, str, str]]],
    state: mf.ManifestState,
    plugins: PluginRegistry,
    report: Report,
) -> None:
    for game, rows in seqs.items():
        rows.sort()
        kind = state.streams[game].kind if game in state.streams else None
        plugin = plugins.get(kind) if kind else None
        expected = 0
        for seq, _type, path in rows:
            if seq < expected:
                report.problems.append(Problem("duplicated seq (also in an earlier row or file)", path, game, seq))
                continue
            if seq > expected:
                missing = f"{expected}" if seq == expected + 1 else f"{expected}..{seq - 1}"
                report.problems.append(Problem(f"seq gap: {missing} missing", path, game, seq))
            expected = seq + 1
        if plugin:
            start, ends = plugin.start_type.event_type, plugin.end_types
            first_seq, first_type, first_path = rows[0]
            if first_seq != 0 or first_type != start:
                report.problems.append(Problem(f"the first event is not {start}", first_path, game, first_seq))
            for seq, typ, path in rows[1:]:
                if typ == start:
                    report.problems.append(Problem(f"a second {start} event", path, game, seq))
            for seq, typ, path in rows[:-1]:
                if typ in ends:
                    report.problems.append(Problem(f"events follow the end event {typ}", path, game, seq))
                    break
