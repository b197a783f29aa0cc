"""``replay verify``: check everything the archive claims, and name every problem.

Checks, in order: the manifest log (checksums, no missing commit); each
committed file against its manifest entry (present, size, sha256, readable,
schema, row count, game spans); then every game across files (seqs 0..n once
each, a start event first, nothing after an end event); then the rules packs
(every pinned pack stored, every stored pack's content hash equal to its name).
Files on disk that no commit names are reported too: as *notes* when they are
leftovers of an interrupted write (moved to ``lost+found/`` by the next write), as
*problems* when ``manifest/HEAD`` shows that the commit naming them was lost, or
when nothing explains them. Every problem is a :class:`replay.problems.Problem` with a rule id
``archive.*`` and the file, game and event it concerns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.parquet as pq

from ..chain import GENESIS, link
from ..contract import AnyGame
from ..errors import ReplayError
from ..events import Event
from ..problems import Location, Problem
from ..registry import GameRegistry
from ..schema import ENVELOPE_SCHEMA, decode
from . import manifest as mf
from .fsutil import size_and_sha256
from .location import listing, parquet_source
from .location import relative as relative_path
from .store import LOST_AND_FOUND, ROW_GROUP_ROWS, Archive, file_layouts, game_spans, read_parquet, unreferenced_files


def _problem(rule_id: str, what: str, file: str | None = None, game: str | None = None,
             seq: int | None = None) -> Problem:
    return Problem(f"archive.{rule_id}", what, where=Location(file=file, game=game, seq=seq))


@dataclass
class Report:
    generation: int = 0
    files: int = 0
    games: int = 0
    events: int = 0
    packs: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(
    archive: Archive, deep: bool = False, progress: Callable[[int], None] | None = None
) -> Report:
    """Check the whole archive under a shared lock (writers wait; readers do not).

    ``progress`` is told of events as they are checked, a row group at a time, so that one
    large file does not sit at 0%: its total is the sum of the files' rows in the manifest.
    """
    report = Report()
    with archive._lock(exclusive=False):
        try:
            state = mf.load(archive.manifest_dir)
        except ReplayError as exc:
            report.problems.append(_problem("manifest", f"manifest: {exc}"))
            return report
        report.generation = state.generation
        seqs: dict[str, list[tuple[int, str, str]]] = {}
        pins: dict[str, tuple[str, str, str]] = {}
        links = _Links()
        for entry in sorted(state.files.values(), key=lambda f: f.path):
            checked = _check_file(archive, entry, archive.registry, deep, report, seqs, links, pins, progress)
            report.files += 1
            if progress and entry.rows > checked:
                progress(entry.rows - checked)  # what a damaged file did not get to
        _check_games(seqs, state, archive.registry, report)
        links.resolve(report)
        lost = mf.lost_generations(archive.manifest_dir, state)
        if lost:
            report.problems.append(_problem(
                "lost-commit",
                f"manifest/HEAD says generation {lost.stop - 1} was committed, but the log ends at {state.generation}: "
                f"the newest commit record(s) were lost, and with them the events they committed. Restore "
                f"manifest/commit-{lost.start:010d}.json (and any after it) from a backup; writes are refused until then",
            ))
        head_known = mf.read_head(archive.manifest_dir) is not None
        for u in unreferenced_files(archive.base, state):
            if u.generation_above and lost and mf.generation_of(u.relative) in lost:
                report.problems.append(_problem("lost-data", "holds events of the lost commit; keep it", u.relative))
            elif u.generation_above:
                why = ("no commit names it and manifest/HEAD agrees: a writer was interrupted before its commit" if head_known
                       else "no commit names it: a writer was interrupted before its commit, OR the newest commit record "
                            "was lost (this archive has no manifest/HEAD to tell which)")
                report.notes.append(_problem("leftover", f"{why}; the next write moves it to {LOST_AND_FOUND}/", u.relative))
            elif u.retired:
                report.notes.append(_problem("retired", "replaced by compaction; removed by the next write", u.relative))
            else:
                report.problems.append(_problem("unlisted", "on disk but not in the manifest (was the manifest edited?)",
                                                u.relative))
        for kept in listing(archive.base / LOST_AND_FOUND):
            report.notes.append(_problem(
                "lost+found", "an uncommitted data file a write moved aside instead of deleting; delete it once "
                "you are sure no acknowledged events are missing", f"{LOST_AND_FOUND}/{kept.name}",
            ))
        _check_packs(archive, pins, report)
        report.games = len(seqs)
    return report


def _check_file(
    archive: Archive,
    entry: mf.FileEntry,
    games: GameRegistry,
    deep: bool,
    report: Report,
    seqs: dict[str, list[tuple[int, str, str]]],
    links: _Links,
    pins: dict[str, tuple[str, str, str]],
    progress: Callable[[int], None] | None = None,
) -> int:
    """Check one file; returns how many of its events were checked (and reported to ``progress``)."""
    path = archive.path_of(entry.path)

    def problem(rule_id: str, what: str, game: str | None = None, seq: int | None = None) -> None:
        report.problems.append(_problem(rule_id, what, entry.path, game, seq))

    if not path.is_file():
        problem("missing", "missing: the manifest lists it but it is not on disk")
        return 0
    try:
        size, sha256 = size_and_sha256(path)
    except OSError as exc:
        problem("unreadable", f"cannot be read: {exc.strerror}")
        return 0
    if size != entry.bytes:
        problem("size", f"size is {size} bytes, the manifest says {entry.bytes} (truncated or replaced?)")
    if sha256 != entry.sha256:
        problem("checksum", "sha256 does not match the manifest: the file was altered or damaged")
    try:
        table = read_parquet(path, dictionaries=False)
        source = parquet_source(path)
        stored = pq.read_schema(source)
        layouts = file_layouts(source, pq.read_metadata(source))
    except (OSError, pa.ArrowException, UnicodeDecodeError) as exc:
        problem("unreadable", f"not readable as Parquet: {exc}")
        return 0
    if table.num_rows != entry.rows:
        problem("rows", f"holds {table.num_rows} events, the manifest says {entry.rows}")
    if layouts != {entry.schema}:  # its columns cannot be trusted: decoding them would only add noise
        problem("schema", f"schema {', '.join(sorted(layouts))} differs from the manifest's {entry.schema}")
        return 0
    for want in ENVELOPE_SCHEMA:
        got = stored.field(want.name) if want.name in stored.names else None
        if got is None or got.type != want.type:
            problem("envelope", f"envelope column {want.name} is missing or not {want.type}")
            return 0
    try:
        game = games.get(entry.kind)
    except ReplayError as exc:
        problem("kind", str(exc))
        return 0
    kinds = set(table.column("kind").to_pylist())
    if kinds - {entry.kind}:
        problem("kind", f"holds events of kind {sorted(kinds - {entry.kind})} in a {entry.kind} file")
    sorted_table = table.sort_by([("game_id", "ascending"), ("seq", "ascending")])
    keys = list(zip(table.column("game_id").to_pylist(), table.column("seq").to_pylist()))
    if keys != sorted(keys):
        problem("sort", "rows are not sorted by (game_id, seq): one-game lookups would miss events")
    try:
        spans = game_spans(sorted_table, game)
    except (KeyError, pa.ArrowException) as exc:
        problem("index", f"cannot index games: {exc}")
        return 0
    if spans != entry.games:
        for g in sorted(set(spans) | set(entry.games)):
            if spans.get(g) != entry.games.get(g):
                problem("spans", f"the manifest says {_span_text(entry.games.get(g))}, "
                        f"the file holds {_span_text(spans.get(g))}", game=g)
    checked = 0
    for offset in range(0, sorted_table.num_rows, ROW_GROUP_ROWS):
        chunk = sorted_table.slice(offset, ROW_GROUP_ROWS)
        try:
            events = decode(chunk, game)
            links.add(entry.path, decode(chunk, game, upcast=False), chunk.column("hash").to_pylist())
        except ReplayError as exc:
            problem("decode", f"events cannot be decoded: {exc}")
            return checked
        _check_events(events, game, deep, entry.path, seqs, pins, problem)
        report.events += len(events)
        checked += len(events)
        if progress:
            progress(len(events))
    return checked


def _check_events(
    events: list[Event], game: AnyGame, deep: bool, file: str, seqs: dict[str, list[tuple[int, str, str]]],
    pins: dict[str, tuple[str, str, str]], problem: Callable[..., None],
) -> None:
    start = game.start_type.event_type
    for e in events:
        seqs.setdefault(e.game_id, []).append((e.seq, e.type, file))
        if e.type == start:
            ruleset = e.payload["ruleset"]
            pins[e.game_id] = (e.kind, ruleset["content_hash"], f"{ruleset['id']} {ruleset['version']}")
        if deep:
            try:
                game.models[e.type].model_validate(e.payload)
            except Exception as exc:  # pydantic.ValidationError, reported not raised
                problem("payload", f"payload fails validation: {str(exc).splitlines()[0]}", game=e.game_id, seq=e.seq)


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
            report.problems.append(_problem(
                "chain", "hash chain broken here: this event (or its stored hash) was altered after it was written; "
                "the first altered event", path, game, seq))


def _span_text(span: mf.GameSpan | None) -> str:
    return "nothing" if span is None else f"seqs {span.first}..{span.last}"


def _check_games(
    seqs: dict[str, list[tuple[int, str, str]]],
    state: mf.ManifestState,
    registry: GameRegistry,
    report: Report,
) -> None:
    for game_id, rows in seqs.items():
        rows.sort()
        kind = state.streams[game_id].kind if game_id in state.streams else None
        game = registry.get(kind) if kind else None
        expected = 0
        for seq, _type, path in rows:
            if seq < expected:
                report.problems.append(_problem("duplicate", "duplicated seq (also in an earlier row or file)",
                                                path, game_id, seq))
                continue
            if seq > expected:
                missing = f"{expected}" if seq == expected + 1 else f"{expected}..{seq - 1}"
                report.problems.append(_problem("gap", f"seq gap: {missing} missing", path, game_id, seq))
            expected = seq + 1
        if game:
            start, ends = game.start_type.event_type, game.end_types
            first_seq, first_type, first_path = rows[0]
            if first_seq != 0 or first_type != start:
                report.problems.append(_problem("start", f"the first event is not {start}", first_path, game_id,
                                                first_seq))
            for seq, typ, path in rows[1:]:
                if typ == start:
                    report.problems.append(_problem("start", f"a second {start} event", path, game_id, seq))
            for seq, typ, path in rows[:-1]:
                if typ in ends:
                    report.problems.append(_problem("end", f"events follow the end event {typ}", path, game_id, seq))
                    break


def _check_packs(archive: Archive, pins: dict[str, tuple[str, str, str]], report: Report) -> None:
    """Every pinned pack is stored, and every stored pack is intact (its name is its hash)."""
    stored = {(p.kind, p.content_hash): p for p in archive.packs.stored()}
    for game_id, (kind, content_hash, name) in sorted(pins.items()):
        if (kind, content_hash) in stored:
            continue
        shipped = any(p.content_hash == content_hash for p in archive.registry.get(kind).packs().values())
        if shipped:
            report.notes.append(_problem(
                "pack-shipped", f"the rules pack it pins ({name}) is not kept in the archive (an archive from before "
                "packs were kept) but ships with replay; `replay rules store` keeps it", game=game_id))
        else:
            report.problems.append(_problem(
                "pack-missing", f"the rules pack it pins ({name}, {content_hash}) is neither in the archive's packs/ "
                "nor shipped", game=game_id))
    used = {(k, h) for k, h, _ in pins.values()}
    for key, entry in sorted(stored.items()):
        report.packs += 1
        relative = relative_path(entry.path, archive.base)
        wrong = archive.packs.check(entry)
        if wrong:
            report.problems.append(_problem("pack", f"stored rules pack: {wrong}", relative))
        elif key not in used:
            report.notes.append(_problem("pack-unused", "a stored rules pack no game pins (an append that did not "
                                         "commit stored it); harmless", relative))
