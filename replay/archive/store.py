"""The archive: append, read, list. Compaction and verification live beside it.

Layout of an archive directory::

    REPLAY_ARCHIVE            marker (format name and version)
    .lock                     flock: writers exclusive, readers shared
    manifest/                 the commit log (see manifest.py)
    data/<kind>/<gen>-<n>.parquet   immutable event files, named after their commit
    tmp/                      files being prepared by a live process

Every write follows one path, :meth:`Archive._commit`: data files are written and
fsynced under their final names, then one manifest record is renamed into place.
A crash before that rename leaves files no manifest names; the next writer
deletes them (their generation is above the committed one, so nothing can refer
to them).
"""

from __future__ import annotations

import functools
import hashlib
import heapq
import io
import json
import os
import sys
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .. import chain_compiled
from ..chain import (
    BODY_SEPARATOR,
    GENESIS,
    Run,
    canonical_block,
    definition_body,
    fast_canonical_block,
    links_meanwhile,
    start_worker,
    words_to_array,
)
from ..contract import AnyGame
from ..errors import (
    ArchiveError,
    ConcurrencyError,
    DamagedFile,
    DuplicateAppend,
    GameNotFound,
    ManifestError,
    NotAnArchive,
    PackError,
    StreamError,
    clip,
    listed,
)
from ..events import GAME_ID_PATTERN, Event
from ..gcpause import gc_paused
from ..numbers import is_number
from ..packs import PackLibrary, RulesPack
from ..registry import GameRegistry
from ..registry import registry as default_registry
from ..schema import DICTIONARY_COLUMNS, decode, encode, payload_string_columns, schema_fingerprint
from . import manifest as mf
from .columnar import column_builder, encode_columns
from .fsutil import fsync_dir, write_new_file, writes
from .location import LOCAL_ONLY, AnyPath, FsPath, listing, parquet_source, posix_root, reading_root
from .lock import ArchiveLock
from .packs import PackStore

MARKER = "REPLAY_ARCHIVE"
ARCHIVE_FORMAT = {"format": "replay-archive", "version": 1}
_NATIVE = sys.byteorder
_GAME_AND_KIND = itemgetter(0, 2)
"""(game_id, kind) of an Event."""
NEW_STREAM = -1
"""The expected last seq of a stream that does not exist yet."""

DECODE_SLICE_ROWS = 1_024
"""Events decoded at once when a file is streamed (``iter_sorted_events``)."""

ROW_GROUP_ROWS = 16_384
"""Rows per row group in large files: a one-game lookup reads one or two groups."""


@dataclass(frozen=True)
class StreamAppend:
    """Events to add to one game's stream, and where the writer believes the stream ends."""

    game_id: str
    expected_last_seq: int
    events: Sequence[Event]


@dataclass(frozen=True)
class StreamPosition:
    """What a commit will do to one stream: add seqs ``expected_last + 1 .. last``."""

    kind: str
    expected_last: int
    last: int


@dataclass(frozen=True)
class PreparedAppend:
    """An append's data files written (not committed), what it does to each stream, and the packs its new
    games pin: :meth:`Archive.prepare_append`'s result, for :meth:`Archive.commit`. Plain data: it may be
    made in another process and sent back."""

    files: list[PreparedFile]
    positions: dict[str, StreamPosition]
    packs: list[tuple[str, RulesPack]]
    events: int


@dataclass(frozen=True)
class CommitResult:
    generation: int
    files: tuple[str, ...]
    events: int


@dataclass(frozen=True)
class GameInfo:
    game_id: str
    kind: str
    players: tuple[str, ...]
    events: int
    ended: bool

    @property
    def status(self) -> str:
        return "finished" if self.ended else "in progress"


@dataclass(frozen=True)
class PreparedFile:
    """A data file written but not yet committed: bytes in memory or a file in tmp/."""

    kind: str
    rows: int
    sha256: str
    size: int
    schema: str
    games: dict[str, mf.GameSpan]
    data: bytes | None = None
    tmp_path: Path | None = None

    def source(self) -> Path | pa.BufferReader:
        return self.tmp_path if self.tmp_path is not None else pa.BufferReader(self.data)


class Archive:
    """An archive directory. Cheap to open; the manifest is read lazily and refreshed per call."""

    def __init__(self, root: Path | str | FsPath, registry: GameRegistry | None = None, lock_timeout: float = 60.0):
        self.base: AnyPath = root if isinstance(root, FsPath) else posix_root(root)
        """Where the archive is read from: its local directory, or a folder on a pyarrow filesystem
        (:meth:`for_reading`), which only the readers reach (:attr:`root` refuses it)."""
        self.registry = registry or default_registry
        self.packs = PackStore(self.base, self.registry)
        self.lock_timeout = lock_timeout
        self._state: mf.ManifestState | None = None
        self._footers: dict[str, pq.FileMetaData] = {}
        self._payload_strings: dict[str, list[str]] = {}  # by schema fingerprint
        marker = self.base / MARKER
        try:
            found_marker = marker.is_file()
        except OSError as exc:  # an object store or HDFS that cannot be reached, or refuses us
            raise NotAnArchive(f"{self.base}: cannot read it ({str(exc).splitlines()[0]})") from None
        if not found_marker:
            create = (f"create one with `replay init {self.base}`" if isinstance(self.base, Path)
                      else "check the URI; an archive is created on a local path, then copied or mounted there")
            raise NotAnArchive(f"{self.base} is not a replay archive (no {MARKER} file); {create}")
        try:
            found = json.loads(marker.read_text())
        except (OSError, ValueError, RecursionError) as exc:
            raise NotAnArchive(f"{marker} is damaged: {type(exc).__name__}") from None
        if not isinstance(found, dict):
            raise NotAnArchive(f"{marker} is damaged: not a marker")
        if found.get("format") != ARCHIVE_FORMAT["format"] or found.get("version") != ARCHIVE_FORMAT["version"]:
            raise NotAnArchive(f"{self.base}: unsupported archive format {found}")

    @classmethod
    def for_reading(cls, root: Path | str, registry: GameRegistry | None = None) -> Archive:
        """The archive at a local path or at a URI pyarrow opens (``s3://bucket/archive``): for the
        commands that only read. Where it is a URI, reads take no lock (an object store has none):
        the manifest's records are never rewritten, so a reader sees one committed generation,
        and a file that compaction removes meanwhile is reported as missing (run again)."""
        return cls(reading_root(root), registry)

    @property
    def root(self) -> Path:
        """The archive's local directory, which writing needs; refused where it is read by URI."""
        if isinstance(self.base, FsPath):
            raise NotAnArchive(f"{self.base}: {LOCAL_ONLY}")
        return self.base

    # ------------------------------------------------------------------ paths and locks

    @classmethod
    @writes
    def init(cls, root: Path | str, registry: GameRegistry | None = None) -> Archive:
        root = posix_root(root)
        if (root / MARKER).exists():
            raise ArchiveError(f"{root} is already an archive")
        if root.exists() and any(root.iterdir()):
            raise ArchiveError(f"{root} exists and is not empty; choose a new directory")
        for sub in ("data", "tmp"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        mf.new_manifest(root / "manifest")
        (root / MARKER).write_text(json.dumps(ARCHIVE_FORMAT) + "\n")
        fsync_dir(root)
        return cls(root, registry)

    @property
    def manifest_dir(self) -> AnyPath:
        return self.base / "manifest"

    def _lock(self, exclusive: bool) -> AbstractContextManager[object]:
        """The archive's lock: writers exclusive, readers shared. A reader by URI takes none (see
        :meth:`for_reading`); a writer there is refused by :attr:`root`."""
        if isinstance(self.base, FsPath) and not exclusive:
            return nullcontext()
        return ArchiveLock(self.root / ".lock", exclusive=exclusive, timeout=self.lock_timeout)

    def _refresh(self) -> mf.ManifestState:
        """The committed state; call with a lock held."""
        try:
            self._state = mf.load(self.manifest_dir, self._state)
        except Exception:
            self._state = None
            raise
        return self._state

    def snapshot(self) -> mf.ManifestState:
        """The committed state now (a reader's consistent view).

        It is the archive's own cached state, updated in place by later calls:
        read what you need from it before writing through the same object.
        """
        with self._lock(exclusive=False):
            return self._refresh()

    def path_of(self, relative: str) -> AnyPath:
        return self.base / relative

    def _footer(self, entry: mf.FileEntry) -> pq.FileMetaData:
        """A committed file's Parquet footer, parsed and checked once per process (files never
        change; a path is never reused for other content once committed).

        No page checksum covers a footer: its columns must be the ones the manifest recorded,
        or a reader would decode renamed or retyped columns (a KeyError, bytes where strings
        belong) instead of naming the damaged file.
        """
        meta = self._footers.get(entry.path)
        if meta is None:
            if len(self._footers) >= FOOTER_CACHE_FILES:
                self._footers.clear()
            with reading(entry.path):
                source = parquet_source(self.path_of(entry.path))
                meta = pq.read_metadata(source)
                layouts = file_layouts(source, meta)
            if layouts != {entry.schema}:
                raise DamagedFile(f"{entry.path} is damaged (its columns are not the ones the manifest recorded); "
                                  "run `replay verify`, and restore the file from a backup")
            self._footers[entry.path] = meta
        return meta

    def open_data(self, entry: mf.FileEntry, dictionaries: bool = True, by_row_group: bool = False) -> pq.ParquetFile:
        """A committed data file to read, its footer checked (:meth:`_footer`) and its pages verified. With
        ``dictionaries`` its envelope strings are read as the dictionaries they are stored as; ``by_row_group``
        (for a reader that reads one row group at a time) adds the payloads' strings (``payload_string_columns``:
        pyarrow cannot make them for a read of several row groups)."""
        meta = self._footer(entry)
        wanted = list(DICTIONARY_COLUMNS) if dictionaries else []
        if dictionaries and by_row_group:
            strings = self._payload_strings.get(entry.schema)
            if strings is None:
                leaves = [meta.schema.column(i).path for i in range(len(meta.schema))]
                strings = self._payload_strings[entry.schema] = payload_string_columns(meta.schema.to_arrow_schema(), leaves)
            wanted += strings
        with reading(entry.path):
            return pq.ParquetFile(parquet_source(self.path_of(entry.path)), metadata=meta, page_checksum_verification=True,
                                  read_dictionary=wanted or None)

    # ------------------------------------------------------------------ reading

    def last_seq(self, game_id: str) -> int:
        """The last committed seq of a game, or NEW_STREAM when it has none."""
        info = self.snapshot().streams.get(game_id)
        return info.last_seq if info else NEW_STREAM

    def games(self) -> list[GameInfo]:
        state = self.snapshot()
        return [
            GameInfo(g, s.kind, s.players or (), s.last_seq + 1, s.ended)
            for g, s in sorted(state.streams.items())
        ]

    def read_game(self, game_id: str) -> list[Event]:
        """Every event of one game, in seq order, read through row-group statistics."""
        with self._lock(exclusive=False):
            state = self._refresh()
            info = state.streams.get(game_id)
            if info is None:
                raise GameNotFound(f"no game {game_id!r} in {self.base}")
            game = self.registry.get(info.kind)
            events: list[Event] = []
            for path in info.files:
                with reading(path):
                    table = _read_game_rows(self.path_of(path), game_id, self._footer(state.files[path]))
                events.extend(decode(table, game))
        events.sort(key=lambda e: e.seq)
        if [e.seq for e in events] != list(range(info.last_seq + 1)):
            raise ManifestError(
                f"game {game_id}: the files do not hold seqs 0..{info.last_seq} exactly once; run `replay verify`"
            )
        return events

    def pins(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Game id -> (kind, the rules pack pin of its start event), reading only the start events' column."""
        out: dict[str, tuple[str, dict[str, Any]]] = {}
        with self._lock(exclusive=False):
            for entry in sorted(self._refresh().files.values(), key=lambda f: f.path):
                start = self.registry.get(entry.kind).start_type.event_type
                pf = self.open_data(entry, dictionaries=False)
                with reading(entry.path):
                    table = pf.read(columns=["game_id", "type", start])
                table = table.filter(pc.equal(table.column("type"), start))
                for game_id, payload in zip(table.column("game_id").to_pylist(), table.column(start).to_pylist()):
                    out[game_id] = (entry.kind, payload["ruleset"])
        return out

    def iter_events(self, kind: str | None = None) -> Iterator[Event]:
        """Every event (of ``kind``), file by file in commit order, a row group at a time (so that its payloads'
        strings are read as dictionaries: :meth:`open_data`)."""
        with self._lock(exclusive=False):
            entries = sorted(self._refresh().files.values(), key=lambda f: f.path)
            for entry in entries:
                if kind is None or entry.kind == kind:
                    game = self.registry.get(entry.kind)
                    pf = self.open_data(entry, by_row_group=True)
                    for group in range(pf.metadata.num_row_groups):
                        with reading(entry.path):
                            table = pf.read_row_group(group)
                        yield from decode(table, game)

    def iter_sorted_events(self, kind: str | None = None) -> Iterator[Event]:
        """Every event (of ``kind``) in (game_id, seq) order, streamed: each file is read a row group
        at a time and the files are merged, so memory holds one row group per file, not the archive."""
        with self._lock(exclusive=False):
            entries = sorted(self._refresh().files.values(), key=lambda f: f.path)
        streams = [self._file_events(e) for e in entries if kind is None or e.kind == kind]
        yield from heapq.merge(*streams, key=lambda e: (e.game_id, e.seq))

    def _file_events(self, entry: mf.FileEntry) -> Iterator[Event]:
        game = self.registry.get(entry.kind)
        pf = self.open_data(entry, by_row_group=True)
        for group in range(pf.metadata.num_row_groups):
            with reading(entry.path):
                table = pf.read_row_group(group)
            # Columnar rows are small; Python events are not: decode a slice at a time, so a merge
            # of many one-group files holds their Arrow data, not all their events at once.
            for offset in range(0, table.num_rows, DECODE_SLICE_ROWS):
                yield from decode(table.slice(offset, DECODE_SLICE_ROWS), game)

    # ------------------------------------------------------------------ appending

    def append(self, game_id: str, events: Sequence[Event], expected_last_seq: int) -> CommitResult:
        """Append to one stream if it still ends at ``expected_last_seq`` (NEW_STREAM for a new game)."""
        return self.append_many([StreamAppend(game_id, expected_last_seq, events)])

    def append_many(self, appends: Sequence[StreamAppend], packs: Sequence[RulesPack] = ()) -> CommitResult:
        """Append to several streams in one commit: all of them, or none.

        The pack each new game pins must be shipped, already in the archive, or among
        ``packs``; it is stored with the game.
        """
        return self.commit(self.prepare_append(appends, packs))

    def prepare_append(self, appends: Sequence[StreamAppend], packs: Sequence[RulesPack] = ()) -> PreparedAppend:
        """:meth:`append_many`'s work before its commit: the events checked, chained, encoded and written to
        Parquet bytes, the packs they pin found. It takes no lock and changes nothing, so another process may
        do it (``replay simulate --workers``: each worker prepares its batches, this process commits them in
        order); :meth:`commit` checks the streams' positions then, under the lock, as ``append_many`` does."""
        with gc_paused():  # checking and encoding make millions of short-lived objects, none in a cycle
            tables = self._vouched_tables(appends)
            if tables is None:
                _check_shapes(appends, self.registry)  # names the problems, as it always did
            pinned = self.pinned_packs([a.events[0] for a in appends if a.events[0].seq == 0], packs)
            if tables is None:
                tables = self._encoded(_events_of(appends), {})
            prepared = [self.prepare_table(table, kind) for kind, table in tables]
        positions = {
            a.game_id: StreamPosition(a.events[0].kind, a.expected_last_seq, a.events[-1].seq) for a in appends
        }
        return PreparedAppend(prepared, positions, _distinct_packs(pinned), sum(len(a.events) for a in appends))

    def commit(self, prepared: PreparedAppend) -> CommitResult:
        """Commit what :meth:`prepare_append` prepared: all of it, or nothing (its streams must still end where
        the appends expected)."""
        return self.commit_prepared(prepared.files, prepared.positions, prepared.packs)

    def _vouched_tables(self, appends: Sequence[StreamAppend]) -> list[tuple[str, pa.Table]] | None:
        """The appends' events chained and encoded (in append order), if their shapes can be vouched
        for on the encoded columns (:func:`_shapes_fine`: a few Arrow passes, not a Python step per
        event); else None, and the caller goes the exact way: :func:`_check_shapes`, the packs, then
        the encoding, so that errors come as before and in the same order.
        """
        try:
            tables = self._encoded(_events_of(appends), {})
            if len(tables) == 1 and _shapes_fine(tables[0][1], appends, self.registry.get(tables[0][0])):
                return tables
        except Exception:  # whatever it was, the exact way raises it in its turn
            pass
        return None

    def library(self, kind: str, extra: Iterable[RulesPack] = ()) -> PackLibrary:
        """Where the packs of this archive's games of ``kind`` are found: ``extra``, shipped, stored."""
        return self.registry.get(kind).library(self.packs, extra)

    def pin_problem(self, start: Event, extra: Iterable[RulesPack] = ()) -> tuple[RulesPack | None, str | None]:
        """(the pack a start event pins, None) or (None, why it cannot be found)."""
        try:
            return self.library(start.kind, extra).find(start.payload["ruleset"]), None
        except PackError as exc:
            return None, f"game {start.game_id}: {exc}"

    def pinned_packs(self, starts: Iterable[Event], extra: Iterable[RulesPack] = ()) -> list[tuple[str, RulesPack]]:
        """(kind, pack) that new games pin; PackError naming every game whose pack cannot be found."""
        extra = list(extra)
        found, missing = [], []
        for start in starts:
            pack, problem = self.pin_problem(start, extra)
            if pack is not None:
                found.append((start.kind, pack))
            else:
                missing.append(problem)
        if missing:
            raise PackError(listed([m for m in missing if m]) + "; nothing was written")
        return found

    @writes
    def commit_prepared(self, prepared: Sequence[PreparedFile], positions: dict[str, StreamPosition],
                        packs: Sequence[tuple[str, RulesPack]] = ()) -> CommitResult:
        """Commit prepared files if every stream still ends where its writer expects.

        The check and the commit happen under one exclusive lock: that is the
        optimistic-concurrency guarantee. On a mismatch nothing is written. The
        packs the new games pin are stored before the commit point.
        """
        with self._lock(exclusive=True):
            state = self._refresh()
            problems, duplicates = _check_positions(self, state, prepared, positions)
            if problems:
                cls = DuplicateAppend if duplicates == len(problems) else ConcurrencyError
                raise cls(listed(problems) + "; nothing was written")
            for kind, pack in packs:
                self.packs.put(kind, pack)
            return self._commit(state, prepared, remove=())

    def prepare_files(
        self, events: Sequence[Event], spill: bool = False, heads: dict[str, int] | None = None
    ) -> list[PreparedFile]:
        """Encode events into one Parquet file per kind, sorted by (game_id, seq), chained.

        Done before the lock is taken: encoding is the slow part and needs no lock.
        With ``spill`` the bytes go to tmp/ instead of staying in memory. ``heads``
        carries each game's last chain hash across calls (an import in batches).
        """
        with gc_paused():  # a batch's bodies, links and columns: millions of objects, none in a cycle
            return [self.prepare_table(table, kind, spill) for kind, table in self._encoded(events, heads)]

    def _encoded(self, events: Sequence[Event], heads: dict[str, int] | None) -> list[tuple[str, pa.Table]]:
        """(kind, its events chained and encoded, in the order given) per kind; ``heads`` as in :meth:`prepare_files`."""
        heads = {} if heads is None else heads
        compiled = chain_compiled.CCHAIN
        ends = compiled.event_run_ends(events) if compiled is not None else None  # None: not all 6-tuples
        if compiled is not None and ends is not None:
            return self._encoded_compiled(compiled, events, ends, heads)
        start_worker(len(events))
        columns = tuple(zip(*events))  # the six fields as columns: for the canonical bodies, and for encoding one kind
        block = fast_canonical_block(events, columns)  # the whole batch's bodies at once, when orjson vouches for them
        blocks: list[bytes] = []  # else each run's, made in turn below, so that what fails fails where it did
        runs: list[Run] = []
        by_kind: dict[str, tuple[list[Event], list[int]]] = {}  # its events, and the runs they came in
        last_run: dict[str, int] = {}
        for (game_id, kind), group in groupby(events, key=_GAME_AND_KIND):  # runs of one game's events
            run = list(group)
            follows = last_run.get(game_id)  # the game's events came earlier in this batch too
            previous = heads.get(game_id, GENESIS) if follows is None else GENESIS
            if follows is None and game_id not in heads and run[0].seq != 0:
                previous = self.stored_hash(game_id, run[0].seq - 1)
            last_run[game_id] = len(runs)
            if block is None:
                blocks.append(canonical_block(run))  # what cannot be hashed fails here, before encoding, as it did
            runs.append(Run(len(run), previous, follows))
            evs, indices = by_kind.setdefault(kind, ([], []))
            evs.extend(run)
            indices.append(len(runs) - 1)
        if block is None:
            block = BODY_SEPARATOR.join(blocks)
        with links_meanwhile(runs, block) as links:  # hashed by a worker process while this one encodes
            one_kind = columns if len(by_kind) == 1 else None  # then its events are the batch's, in order
            tables = [(kind, encode(evs, self.registry.get(kind), pa.repeat(0, len(evs)), columns=one_kind))
                      for kind, (evs, _) in by_kind.items()]
            words = links()
        for game_id, i in last_run.items():
            heads[game_id] = int.from_bytes(words[i][-8:], "big", signed=True)
        return [(kind, _with_hashes(table, words_to_array(b"".join(words[i] for i in by_kind[kind][1]))))
                for kind, table in tables]

    def _encoded_compiled(self, compiled: Any, events: Sequence[Event], ends: list[int],
                          heads: dict[str, int]) -> list[tuple[str, pa.Table]]:
        """:meth:`_encoded` with the links made in this process by the compiled chain (:mod:`replay.chain_compiled`),
        run by run in the same order as the Python path (a run's previous link is looked up, then its events are
        hashed: what cannot be hashed fails where it failed before). Hashing in C costs less than sending the
        bodies to the worker process would. ``ends``: where each run of one game's events ends. The chain's pass
        also writes each kind's columns (:func:`column_builder`), so the batch is never transposed unless a
        builder declines."""
        words: list[bytes] = []  # per run: its links as int64s in this machine's order (the hash column's buffer)
        by_kind: dict[str, tuple[list[Event], list[int]]] = {}  # its events, and the runs they came in
        builders: dict[str, Any] = {}  # per kind: its columns, written by the chain's pass as it hashes
        last_run: dict[str, int] = {}
        start = 0
        for end in ends:  # runs of one game's events
            game_id, seq, kind = events[start][:3]
            follows = last_run.get(game_id)  # the game's events came earlier in this batch too
            previous = heads.get(game_id, GENESIS) if follows is None else GENESIS
            if follows is None and game_id not in heads and seq != 0:
                previous = self.stored_hash(game_id, seq - 1)
            if follows is not None:
                previous = int.from_bytes(words[follows][-8:], _NATIVE, signed=True)
            last_run[game_id] = len(words)
            if kind not in builders:  # None for a kind not installed: its error comes where it came, after the links
                builders[kind] = column_builder(compiled, self.registry, kind, len(events))
            words.append(compiled.chain(events, start, end, previous.to_bytes(8, "big", signed=True), definition_body, True,
                                        builders[kind]))
            evs, indices = by_kind.setdefault(kind, ([], []))
            evs.extend(events[start:end])
            indices.append(len(words) - 1)
            start = end
        tables = [(kind, encode_columns(compiled, evs, self.registry.get(kind),
                                        pa.Array.from_buffers(pa.int64(), len(evs),
                                                              [None, pa.py_buffer(b"".join(words[i] for i in indices))]),
                                        fused=None if builders[kind] is None else compiled.builder_finish(builders[kind])))
                  for kind, (evs, indices) in by_kind.items()]
        for game_id, i in last_run.items():
            heads[game_id] = int.from_bytes(words[i][-8:], _NATIVE, signed=True)
        return tables

    def stored_hash(self, game_id: str, seq: int) -> int:
        """The chain hash stored with one event (GENESIS if the archive has no such event)."""
        with self._lock(exclusive=False):
            state = self._refresh()
            info = state.streams.get(game_id)
            holding = [p for p in (info.files if info else ()) if _overlaps(state.files[p].games[game_id], seq, seq)]
            for path in holding:  # the one file whose span of this game holds seq
                with reading(path):
                    table = _read_game_rows(self.path_of(path), game_id, self._footer(state.files[path]))
                hit = table.filter(pc.equal(table.column("seq"), seq))
                if hit.num_rows:
                    stored: int = hit.column("hash")[0].as_py()
                    return stored
        return GENESIS

    def read_game_and_chain(self, game_id: str) -> tuple[list[Event], list[tuple[Event, int]]]:
        """One read for both: the game's events (upcast) and as stored with their chain hashes."""
        chain = self.read_chain(game_id)
        if not chain:  # the files the manifest names for it hold none of its rows (swapped, replaced)
            raise ManifestError(f"game {game_id}: the files do not hold its events; run `replay verify`")
        game = self.registry.get(chain[0][0].kind)
        current = game.current_versions
        events = [e if e.version == current[e.type] else
                  e._replace(version=current[e.type], payload=game.upcast(e.type, e.version, e.payload))
                  for e, _ in chain]
        if [e.seq for e in events] != list(range(len(events))):
            raise ManifestError(f"game {game_id}: the files do not hold seqs 0..{len(events) - 1} exactly once; "
                                "run `replay verify`")
        return events, chain

    def read_chain(self, game_id: str) -> list[tuple[Event, int]]:
        """One game's events exactly as stored (no upcasting), each with its stored chain hash."""
        with self._lock(exclusive=False):
            state = self._refresh()
            info = state.streams.get(game_id)
            if info is None:
                raise GameNotFound(f"no game {game_id!r} in {self.base}")
            game = self.registry.get(info.kind)
            rows: list[tuple[Event, int]] = []
            for path in info.files:
                with reading(path):
                    table = _read_game_rows(self.path_of(path), game_id, self._footer(state.files[path]))
                rows.extend(zip(decode(table, game, upcast=False), table.column("hash").to_pylist()))
        rows.sort(key=lambda r: r[0].seq)
        return rows

    @writes
    def prepare_table(
        self, table: pa.Table, kind: str, spill: bool = False, row_group_rows: int = ROW_GROUP_ROWS
    ) -> PreparedFile:
        if not in_key_order(table):
            table = table.sort_by([("game_id", "ascending"), ("seq", "ascending")])
        data = parquet_bytes(table, row_group_rows)
        prepared = PreparedFile(
            kind=kind,
            rows=table.num_rows,
            sha256=hashlib.sha256(data).hexdigest(),
            size=len(data),
            schema=schema_fingerprint(table.schema),
            games=game_spans(table, self.registry.get(kind)),
            data=data,
        )
        if not spill:
            return prepared
        tmp = self.root / "tmp" / f"{os.getpid()}-{uuid.uuid4().hex}.parquet"
        write_new_file(tmp, data)
        return PreparedFile(**{**prepared.__dict__, "data": None, "tmp_path": tmp})

    def _commit(
        self, state: mf.ManifestState, prepared: Sequence[PreparedFile], remove: Sequence[str]
    ) -> CommitResult:
        """Write and commit under the exclusive lock. The manifest rename is the commit point."""
        self._collect_garbage(state)
        generation = state.generation + 1
        added = []
        touched_dirs = set()
        for i, p in enumerate(prepared):
            rel = f"data/{p.kind}/{generation:010d}-{i:04d}.parquet"
            target = self.root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if p.tmp_path is not None:
                os.rename(p.tmp_path, target)
            else:
                assert p.data is not None
                write_new_file(target, p.data)
            touched_dirs.add(target.parent)
            added.append(mf.FileEntry(rel, p.kind, p.rows, p.size, p.sha256, p.schema, p.games))
        for d in touched_dirs:
            fsync_dir(d)
        mf.write_commit(self.root / "manifest", state, mf.Commit(generation, tuple(added), tuple(remove)))
        if mf.checkpoint_due(state):
            mf.write_checkpoint(self.root / "manifest", state)
        return CommitResult(generation, tuple(a.path for a in added), sum(p.rows for p in prepared))

    def _collect_garbage(self, state: mf.ManifestState) -> None:
        """Clear what no committed generation refers to: leftovers of crashed writers.

        Safe only under the exclusive lock: then no one else is between writing a
        data file and committing it. A crashed writer can only have left files of
        the next generation (it never committed), so those few names are probed
        instead of listing every file. Such files are moved to ``lost+found/``,
        never deleted: had the commit record naming them been lost instead, they
        would be the only copy of acknowledged events. When HEAD shows that is what
        happened, nothing is touched and the write is refused.
        """
        lost = mf.lost_generations(self.manifest_dir, state)
        if lost:
            raise ArchiveError(
                f"the manifest lost its newest commit record(s) (generation {lost.start}..{lost.stop - 1}: "
                f"manifest/HEAD says they were committed, manifest/ does not hold them); writes are refused so "
                f"that their data files are not overwritten. Run `replay verify` to see those files; restore the "
                f"commit file(s) from a backup, or delete manifest/HEAD to accept the loss (see docs/archive.md)"
            )
        next_gen = state.generation + 1
        for kind_dir in (self.root / "data").iterdir():
            i = 0
            while (orphan := kind_dir / f"{next_gen:010d}-{i:04d}.parquet").exists():
                _move_to_lost_and_found(self.root, orphan)
                i += 1
        for tmp in (self.root / "tmp").iterdir():
            pid = tmp.name.split("-", 1)[0]
            if not is_number(pid) or not _process_alive(int(pid)):
                tmp.unlink(missing_ok=True)
        if state.retired:
            for rel in state.retired:
                (self.root / rel).unlink(missing_ok=True)
            mf.write_commit(self.root / "manifest", state, mf.Commit(next_gen, purge=tuple(state.retired)))

    @writes
    def collect_garbage(self) -> None:
        with self._lock(exclusive=True):
            self._collect_garbage(self._refresh())


@dataclass(frozen=True)
class Unreferenced:
    relative: str
    generation_above: bool
    retired: bool


def unreferenced_files(root: AnyPath, state: mf.ManifestState) -> list[Unreferenced]:
    """Files under data/ that the committed state does not name."""
    out = []
    data = root / "data"
    retired = set(state.retired)
    for kind_dir in (p for p in listing(data) if p.is_dir()):
        for f in listing(kind_dir):
            rel = f"data/{kind_dir.name}/{f.name}"
            if rel not in state.files:
                out.append(Unreferenced(rel, mf.generation_of(rel) > state.generation, rel in retired))
    return out


LOST_AND_FOUND = "lost+found"


def _move_to_lost_and_found(root: Path, orphan: Path) -> None:
    """Move an uncommitted data file aside under a name that never collides (kind, name, a counter)."""
    target_dir = root / LOST_AND_FOUND
    target_dir.mkdir(exist_ok=True)
    n = 0
    while (target := target_dir / f"{orphan.parent.name}--{orphan.stem}--{n}{orphan.suffix}").exists():
        n += 1
    os.rename(orphan, target)


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# ---------------------------------------------------------------------- checks before a commit


def _check_shapes(appends: Sequence[StreamAppend], games: GameRegistry) -> None:
    """What can be checked without the archive: ids, seqs, kinds, versions, first events."""
    problems = []
    seen = set()
    for a in appends:
        g = a.game_id
        if not GAME_ID_PATTERN.match(g):
            problems.append(f"game id {clip(repr(g))} must be 1-128 letters, digits or . _ : - (not starting with a symbol)")
        if g in seen:
            problems.append(f"game {g} appears twice in one append")
        seen.add(g)
        if not a.events:
            problems.append(f"game {g}: nothing to append")
            continue
        kind = a.events[0].kind
        game = games.get(kind)
        start = game.start_type.event_type
        for offset, e in enumerate(a.events):
            want = a.expected_last_seq + 1 + offset
            if e.game_id != g:
                problems.append(f"game {g}: event {e.seq} belongs to game {e.game_id}")
            elif e.seq != want:
                problems.append(f"game {g}: expected seq {want}, found {e.seq} (seqs must follow without gaps)")
            elif e.kind != kind:
                problems.append(f"game {g} seq {e.seq}: kind {e.kind} in a {kind} game")
            elif e.type not in game.models:
                problems.append(f"game {g} seq {e.seq}: unknown {kind} event type {e.type!r}")
            elif e.version != game.current_versions[e.type]:
                problems.append(
                    f"game {g} seq {e.seq}: {e.type} is version {e.version}; upcast it to "
                    f"version {game.current_versions[e.type]} before appending"
                )
            elif (e.seq == 0) != (e.type == start):
                problems.append(
                    f"game {g} seq {e.seq}: a game starts with exactly one {start} event, at seq 0 (found {e.type})"
                )
            elif e.type in game.end_types and offset < len(a.events) - 1:
                problems.append(f"game {g}: {e.type} at seq {e.seq} ends the game, but events follow it; "
                                "no event may follow its end")
            if problems:
                break
    if problems:
        raise StreamError(listed(problems) + "; nothing was written")


def _distinct_packs(pinned: list[tuple[str, RulesPack]]) -> list[tuple[str, RulesPack]]:
    """Each (kind, pack) once, in the order first pinned: a batch of new games mostly pins one pack."""
    seen: dict[tuple[str, str], tuple[str, RulesPack]] = {}
    for kind, pack in pinned:
        seen.setdefault((kind, pack.content_hash), (kind, pack))
    return list(seen.values())


def _events_of(appends: Sequence[StreamAppend]) -> list[Event]:
    """The appends' events in one list: ``+=`` copies each append's list at once (not a step per event)."""
    events: list[Event] = []
    for a in appends:
        events += a.events
    return events


def _with_hashes(table: pa.Table, hashes: pa.Array) -> pa.Table:
    """The table with its hash column (encoded before the links were known) holding the links."""
    where = table.schema.get_field_index("hash")
    return table.set_column(where, table.schema.field(where), hashes)


def _shapes_fine(table: pa.Table, appends: Sequence[StreamAppend], game: AnyGame) -> bool:
    """Whether :func:`_check_shapes` finds nothing, decided on the encoded columns of the appends' events
    (one kind, rows in append order): a few Arrow passes over whole columns, Python once per game.

    It may say False where :func:`_check_shapes` finds nothing (the caller then runs that, which
    decides); it never says True where it would find a problem. Each row must hold its append's game
    id and the seq following the one before (``expected_last_seq + 1`` first), the appends' kind, the
    current version of a known type, a start event exactly at seq 0, and an end event only last.
    """
    ids: list[str] = []
    ends: list[int] = []
    seq_base: list[int] = []  # per append: its seq at row r is seq_base + r
    for a in appends:
        g, rows = a.game_id, len(a.events)
        if not (isinstance(g, str) and rows and a.expected_last_seq >= NEW_STREAM and GAME_ID_PATTERN.match(g)):
            return False
        first_row = ends[-1] if ends else 0
        ids.append(g)
        seq_base.append(a.expected_last_seq + 1 - first_row)
        ends.append(first_row + rows)
    if len(set(ids)) != len(ids) or ends[-1] != table.num_rows:
        return False
    game_ids = pc.run_end_encode(_plain_strings(table.column("game_id")))  # a run per append, in order
    if game_ids.values.to_pylist() != ids or game_ids.run_ends.to_pylist() != ends:
        return False
    types = _plain_strings(table.column("type"))
    distinct = types.dictionary_encode()
    names = distinct.dictionary.to_pylist()
    if not all(t in game.models for t in names):
        return False
    seqs = table.column("seq").combine_chunks()
    row = pc.subtract(pc.cumulative_sum(pa.repeat(1, table.num_rows)), 1)
    per_row = [
        pc.equal(seqs, pc.add(_per_append(seq_base, ends), row)),
        pc.equal(_plain_strings(table.column("kind")), appends[0].events[0].kind),
        pc.equal(table.column("version").combine_chunks(),
                 pa.array([game.current_versions[t] for t in names], pa.int32()).take(distinct.indices)),
        pc.equal(pc.equal(types, game.start_type.event_type), pc.equal(seqs, 0)),
    ]
    if not all(pc.all(pc.fill_null(check, False)).as_py() for check in per_row):
        return False
    last_rows = {end - 1 for end in ends}
    ending = pc.is_in(types, pa.array(sorted(game.end_types), pa.string()))
    return all(r in last_rows for r in pc.indices_nonzero(ending).to_pylist())


def _per_append(values: list[int], ends: list[int]) -> pa.Array:
    """One value per append, repeated over its rows (``ends``: each append's last row + 1)."""
    runs = pa.RunEndEncodedArray.from_arrays(pa.array(ends, pa.int64()), pa.array(values, pa.int64()))
    return pc.run_end_decode(runs)


def _check_positions(
    archive: Archive,
    state: mf.ManifestState,
    prepared: Sequence[PreparedFile],
    positions: dict[str, StreamPosition],
) -> tuple[list[str], int]:
    """Optimistic concurrency: each stream must end where the writer expects. Returns the
    problems, and how many of them are appends of events already stored."""
    problems = []
    duplicates = 0
    for game, pos in positions.items():
        info = state.streams.get(game)
        current = info.last_seq if info else NEW_STREAM
        if current == pos.expected_last:
            if info and info.kind != pos.kind:
                problems.append(f"game {game} is a {info.kind} game, not {pos.kind}")
            elif info and info.ended:
                problems.append(f"game {game} has ended; no event may follow its end")
            continue
        first = pos.expected_last + 1
        if info and current >= pos.last and _already_stored(archive, state, game, prepared, first, pos.last):
            duplicates += 1
            problems.append(
                f"game {game}: events {first}..{pos.last} are already in the archive, identical "
                f"(the same events appended twice)"
            )
        elif pos.expected_last == NEW_STREAM:
            problems.append(
                f"game {game}: id collision: the archive already holds a game with this id (ending at seq {current}) "
                f"whose events differ from these; choose another id, or append to the stored game"
            )
        else:
            want = f"a game ending at seq {pos.expected_last}"
            have = "no such game" if current == NEW_STREAM else f"it ends at seq {current}"
            problems.append(f"game {game}: the writer expected {want}, but {have}; re-read the game and retry")
    return problems, duplicates


def _already_stored(
    archive: Archive, state: mf.ManifestState, game: str, prepared: Sequence[PreparedFile], first: int, last: int
) -> bool:
    """Whether the events about to be written for ``game`` equal the stored ones at the same seqs.

    Only the stored files whose span of this game overlaps ``first..last`` are read.
    """
    info = state.streams[game]
    kind = archive.registry.get(info.kind)
    overlapping = [p for p in info.files if _overlaps(state.files[p].games[game], first, last)]
    stored: dict[int, Event] = {}
    for path in overlapping:
        with reading(path):
            stored.update((e.seq, e) for e in decode(_read_game_rows(archive.path_of(path), game), kind))
    incoming = [
        e for p in prepared if p.kind == info.kind and game in p.games
        for e in decode(_read_game_rows(p.source(), game), kind)
    ]
    return bool(incoming) and all(stored.get(e.seq) == e for e in incoming)


def _overlaps(span: mf.GameSpan, first: int, last: int) -> bool:
    return span.first <= last and first <= span.last


# ---------------------------------------------------------------------- Parquet helpers


@contextmanager
def reading(relative: str) -> Iterator[None]:
    """What pyarrow raises on a damaged data file, as one clear error naming the file."""
    try:
        yield
    except FileNotFoundError:
        raise DamagedFile(f"{relative} is missing, though the manifest lists it; run `replay verify`") from None
    except (OSError, pa.ArrowException, UnicodeDecodeError) as exc:  # a damaged footer: names, statistics not UTF-8
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DamagedFile(f"{relative} is damaged ({first}); run `replay verify`, and restore the file "
                          "from a backup") from None


FOOTER_CACHE_FILES = 1_024
"""Parsed Parquet footers kept per Archive object, for repeated lookups in one process."""

SMALL_FILE_ROWS = 10_000
"""Below this, snappy: zstd's per-column set-up costs more than it saves on a tiny append."""


def parquet_bytes(table: pa.Table, row_group_rows: int = ROW_GROUP_ROWS) -> bytes:
    sink = io.BytesIO()
    pq.write_table(
        table,
        sink,
        row_group_size=row_group_rows,
        compression="snappy" if table.num_rows < SMALL_FILE_ROWS else "zstd",
        write_statistics=statistics_columns(table.schema),
        write_page_index=True,
        write_page_checksum=True,
    )
    return sink.getvalue()


@functools.lru_cache(maxsize=64)
def statistics_columns(schema: pa.Schema) -> tuple[str, ...]:
    """The Parquet columns (leaf paths) whose statistics a file written with ``schema`` keeps: ``game_id``,
    by which a lookup and compaction choose row groups, and every column not stored as bytes (numbers,
    flags), whose ranges a query engine prunes and plans by. The other strings' min/max cost a fifth of a
    derived part's write, each value compared byte by byte, and prune nothing: every row group holds every
    building, die, player name and event type."""
    sink = io.BytesIO()
    pq.write_table(schema.empty_table(), sink)
    stored = pq.read_metadata(pa.BufferReader(sink.getvalue())).schema
    columns = (stored.column(i) for i in range(len(stored)))
    return tuple(c.path for c in columns if c.path == "game_id" or c.physical_type not in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"))


def file_layouts(path: Path | pa.NativeFile, meta: pq.FileMetaData) -> set[str]:
    """The column layouts (schema fingerprints) a data file's footer declares: its Parquet schema's
    and the Arrow schema's stored beside it. A sound file declares one, the manifest's."""
    return {schema_fingerprint(meta.schema.to_arrow_schema()),
            schema_fingerprint(pq.ParquetFile(path, metadata=meta).schema_arrow)}


def read_parquet(path: AnyPath, columns: list[str] | None = None, dictionaries: bool = True) -> pa.Table:
    """A whole file (page checksums verified). With ``dictionaries`` the envelope strings stay
    dictionary-encoded as stored, which ``decode`` turns into Python strings far faster."""
    read_dictionary = [c for c in DICTIONARY_COLUMNS if columns is None or c in columns] if dictionaries else None
    return pq.read_table(parquet_source(path), columns=columns, read_dictionary=read_dictionary, page_checksum_verification=True)


def row_groups_for_game(pf: pq.ParquetFile, game_id: str) -> list[int]:
    """Row groups whose game_id min/max statistics admit ``game_id``: a lookup reads only these."""
    return row_groups_between(pf, game_id, game_id)


def row_groups_between(pf: pq.ParquetFile, low: str, high: str) -> list[int]:
    """Row groups whose game_id statistics overlap ``low..high``.

    Archive files are sorted by game_id, so a binary search finds the first
    candidate group; groups are then taken while their minimum admits the range.
    A file without statistics is read whole.
    """
    meta = pf.metadata
    col = pf.schema_arrow.get_field_index("game_id")
    n = meta.num_row_groups

    def bounds(i: int) -> tuple[str, str] | None:
        chunk = meta.row_group(i).column(col)
        if chunk.physical_type != "BYTE_ARRAY":  # a damaged footer; pyarrow would abort the process on .statistics
            raise pa.ArrowInvalid(f"row group {i}: game_id is stored as {chunk.physical_type}, not as strings")
        stats = chunk.statistics
        return (stats.min, stats.max) if stats is not None and stats.has_min_max else None

    lo, hi = 0, n
    while lo < hi:  # first group whose max >= low
        mid = (lo + hi) // 2
        b = bounds(mid)
        if b is None:
            return list(range(n))
        if b[1] < low:
            lo = mid + 1
        else:
            hi = mid
    groups = []
    for i in range(lo, n):
        b = bounds(i)
        if b is None or b[0] > high:
            break
        groups.append(i)
    return groups


def _read_game_rows(
    source: AnyPath | pa.BufferReader, game_id: str, metadata: pq.FileMetaData | None = None
) -> pa.Table:
    """Only the row groups that can hold ``game_id``, then only its rows.

    One game is a small read: a single thread is faster than waking a pool for it, and
    steadier (the pool's start-up dominated the slowest lookups). Files are sorted by
    game id, so the game's rows are one run: a zero-copy slice, not a copying filter.
    """
    pf = pq.ParquetFile(
        parquet_source(source), metadata=metadata, page_checksum_verification=True, read_dictionary=list(DICTIONARY_COLUMNS)
    )
    groups = row_groups_for_game(pf, game_id)
    if not groups:
        return pf.schema_arrow.empty_table()
    table = pf.read_row_groups(groups, use_threads=False)
    mask = pc.equal(table.column("game_id"), game_id)
    rows = pc.indices_nonzero(mask)
    if len(rows) == 0:
        return table.slice(0, 0)
    first, last = rows[0].as_py(), rows[-1].as_py()
    if last - first + 1 == len(rows):
        return table.slice(first, len(rows))
    return table.filter(mask)  # not one run (a file written unsorted): filter


def in_key_order(table: pa.Table) -> bool:
    """Whether the rows already run in (game_id, seq) order, as a bulk import of whole games in id order does.

    Then the (stable) sort would return the same rows in the same order, and is skipped: comparing
    neighbours costs a tenth of sorting. Strings compare as UTF-8 bytes in both; nulls count as disorder.
    """
    if table.num_rows < 2:
        return True
    ids = _plain_strings(table.column("game_id"))
    seqs = table.column("seq").combine_chunks()
    before, after = ids.slice(0, len(ids) - 1), ids.slice(1)
    same_game_in_seq_order = pc.and_(pc.equal(before, after), pc.less_equal(seqs.slice(0, len(seqs) - 1), seqs.slice(1)))
    ordered = pc.or_(pc.less(before, after), same_game_in_seq_order)
    return bool(pc.all(pc.fill_null(ordered, False)).as_py())


def game_spans(table: pa.Table, game: AnyGame) -> dict[str, mf.GameSpan]:
    """Per game in a table sorted by (game_id, seq): its seq range, players and whether it ended.

    Computed by Arrow over whole columns (each game's rows are one run of its id); Python sees one
    value per game, not one per event: this runs on every file written and verified.
    """
    if table.num_rows == 0:
        return {}
    game_ids = _plain_strings(table.column("game_id"))
    runs = pc.run_end_encode(game_ids)
    ends = runs.run_ends.to_pylist()
    seqs = table.column("seq")
    firsts = seqs.take([0, *ends[:-1]]).to_pylist()
    lasts = seqs.take([end - 1 for end in ends]).to_pylist()
    types = _plain_strings(table.column("type"))
    start = game.start_type.event_type
    is_start = pc.equal(types, start)
    players = {g: tuple(s["name"] for s in sorted(payload["seats"], key=lambda s: s["seat"]))
               for g, payload in zip(game_ids.filter(is_start).to_pylist(), table.column(start).filter(is_start).to_pylist())}
    ended = set(game_ids.filter(pc.is_in(types, pa.array(sorted(game.end_types), pa.string()))).to_pylist())
    return {g: mf.GameSpan(first, last, players.get(g), g in ended)
            for g, first, last in zip(runs.values.to_pylist(), firsts, lasts)}


def _plain_strings(column: pa.ChunkedArray) -> pa.Array:
    """A string column as one plain (not dictionary-encoded) array, as run and comparison kernels take it."""
    array = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    return pc.cast(array, pa.string()) if pa.types.is_dictionary(array.type) else array
