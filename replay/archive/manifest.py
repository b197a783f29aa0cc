"""The manifest: which files are committed, and what each holds.

It is a log of small JSON records in ``<archive>/manifest/``:

* ``checkpoint-<gen>.json``: the whole state at generation ``gen``;
* ``commit-<gen>.json``: one commit (files added, removed, purged) on top of ``gen - 1``;
* ``HEAD``: the newest generation committed, written after each commit. It lets
  ``verify`` tell a writer interrupted before its commit (HEAD agrees with the
  log) from a commit record lost afterwards (HEAD is ahead of the log).

A commit becomes visible only when its file is renamed into place (write, fsync,
rename, fsync the directory), so every crash leaves the previous or the next
generation. Each record carries the sha256 of its body, so a hand edit is caught
instead of silently believed. Now and then a writer folds the log into a new
checkpoint; that keeps opening an archive cheap whatever its history.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from ..canonical import canonical_json
from ..errors import ManifestError
from ..numbers import is_number
from .fsutil import atomic_write
from .location import AnyPath

FORMAT = "replay-manifest"
FORMAT_VERSION = 1
_RECORD = re.compile(r"^(checkpoint|commit)-([0-9]{10})\.json$")


class GameSpan(NamedTuple):
    """The events of one game inside one file: seqs ``first..last``.

    ``players`` is known where the file holds the game's first event; ``ended``
    where it holds an end event. They feed ``replay games`` without opening files.
    """

    first: int
    last: int
    players: tuple[str, ...] | None = None
    ended: bool = False

    def to_json(self) -> list[Any]:
        return [self.first, self.last, list(self.players) if self.players is not None else None, self.ended]

    @classmethod
    def from_json(cls, raw: list[Any]) -> GameSpan:
        first, last, players, ended = _typed(raw, list)
        if players is not None:
            _strings(players)
        return cls(_typed(first, int), _typed(last, int), tuple(players) if players is not None else None, ended is True)


@dataclass(frozen=True)
class FileEntry:
    """One committed Parquet file. ``path`` is relative to the archive root."""

    path: str
    kind: str
    rows: int
    bytes: int
    sha256: str
    schema: str
    games: dict[str, GameSpan]

    @property
    def generation(self) -> int:
        return generation_of(self.path)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kind": self.kind,
            "rows": self.rows,
            "bytes": self.bytes,
            "sha256": self.sha256,
            "schema": self.schema,
            "games": {g: s.to_json() for g, s in self.games.items()},
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> FileEntry:
        raw = _typed(raw, dict)
        return cls(
            path=_data_path(raw["path"]),
            kind=_typed(raw["kind"], str),
            rows=_typed(raw["rows"], int),
            bytes=_typed(raw["bytes"], int),
            sha256=_typed(raw["sha256"], str),
            schema=_typed(raw["schema"], str),
            games={_typed(g, str): GameSpan.from_json(s) for g, s in _typed(raw["games"], dict).items()},
        )


T = TypeVar("T")


def _typed(value: Any, kind: type[T]) -> T:
    """``value`` if it is a ``kind`` (an int that is not a bool): a record the checksum vouches for may
    still have been written by a buggy tool, and a wrong type must be a ManifestError, not a crash."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"expected {kind.__name__}, found {type(value).__name__}")
    return value


def _strings(value: Any) -> list[str]:
    items = _typed(value, list)
    for item in items:
        _typed(item, str)
    return items


_DATA_PATH = re.compile(r"data/(?!\.\.?/)[^/\x00]+/[^/\x00]+\.parquet")


def _data_path(value: Any) -> str:
    """A committed file's path: ``data/<kind>/<name>.parquet``, nothing else. Writers delete the files a
    record retires: a path out of data/ ('../..', 'manifest/...') would have them delete that instead."""
    path = _typed(value, str)
    if not _DATA_PATH.fullmatch(path):
        raise ValueError(f"not a data file of the archive: {path[:200]!r}")
    return path


def _data_paths(value: Any) -> list[str]:
    return [_data_path(p) for p in _typed(value, list)]


def generation_of(path: str) -> int:
    """Data files are named ``data/<kind>/<gen>-<n>.parquet`` after the commit that added them."""
    name = path.rsplit("/", 1)[-1]
    try:
        return int(name.split("-", 1)[0])
    except ValueError:
        return -1


@dataclass(frozen=True)
class Commit:
    generation: int
    add: tuple[FileEntry, ...] = ()
    remove: tuple[str, ...] = ()
    purge: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "generation": self.generation,
            "add": [f.to_json() for f in self.add],
            "remove": list(self.remove),
            "purge": list(self.purge),
        }


class StreamInfo(NamedTuple):
    """What the manifest knows of one game without opening a file."""

    kind: str
    last_seq: int
    players: tuple[str, ...] | None
    ended: bool
    files: tuple[str, ...]


@dataclass
class ManifestState:
    """The committed state at ``generation``: files by path, and files retired but not yet deleted."""

    generation: int = 0
    checkpoint: int = 0
    files: dict[str, FileEntry] = field(default_factory=dict)
    retired: list[str] = field(default_factory=list)
    _streams: dict[str, StreamInfo] | None = None

    def apply(self, commit: Commit) -> None:
        if commit.generation != self.generation + 1:
            raise ManifestError(
                f"commit {commit.generation} does not follow generation {self.generation}"
            )
        for path in commit.remove:
            if path not in self.files:
                raise ManifestError(f"commit {commit.generation} removes {path}, which is not committed")
            del self.files[path]
            self.retired.append(path)
        for entry in commit.add:
            if entry.path in self.files:
                raise ManifestError(f"commit {commit.generation} adds {entry.path} twice")
            self.files[entry.path] = entry
        for path in commit.purge:
            if path in self.retired:
                self.retired.remove(path)
        self.generation = commit.generation
        if commit.remove:
            self._streams = None
        elif self._streams is not None:
            for entry in commit.add:
                _add_spans(self._streams, entry)

    @property
    def streams(self) -> dict[str, StreamInfo]:
        """Game id -> what the manifest knows of it (computed once per generation)."""
        if self._streams is None:
            self._streams = _streams_of(self.files.values())
        return self._streams

    @property
    def size(self) -> int:
        """A rough measure of how expensive a checkpoint of this state is to write."""
        return len(self.files) + sum(len(f.games) for f in self.files.values())

    def checkpoint_json(self) -> dict[str, Any]:
        return {
            "generation": self.generation,
            "files": [f.to_json() for f in sorted(self.files.values(), key=lambda f: f.path)],
            "retired": sorted(self.retired),
        }


def _streams_of(entries: Any) -> dict[str, StreamInfo]:
    streams: dict[str, StreamInfo] = {}
    for entry in sorted(entries, key=lambda e: e.path):
        _add_spans(streams, entry)
    return streams


def _add_spans(streams: dict[str, StreamInfo], entry: FileEntry) -> None:
    """Fold one file's game spans into the per-game index (files in commit order)."""
    for game, span in entry.games.items():
        info = streams.get(game)
        if info is None:
            streams[game] = StreamInfo(entry.kind, span.last, span.players, span.ended, (entry.path,))
        else:
            streams[game] = StreamInfo(
                info.kind,
                max(info.last_seq, span.last),
                info.players if info.players is not None else span.players,
                info.ended or span.ended,
                info.files + (entry.path,),
            )


# ----------------------------------------------------------------------------- on disk


def _record_name(what: str, generation: int) -> str:
    return f"{what}-{generation:010d}.json"


def _encode_record(body: dict[str, Any]) -> bytes:
    digest = hashlib.sha256(canonical_json(body)).hexdigest()
    return json.dumps(
        {"format": FORMAT, "format_version": FORMAT_VERSION, "sha256": digest, "body": body},
        separators=(",", ":"),
    ).encode()


def _decode_record(path: AnyPath) -> dict[str, Any]:
    try:
        raw = json.loads(path.read_bytes())
    except FileNotFoundError:
        raise
    except (OSError, ValueError, RecursionError) as exc:
        raise ManifestError(f"{path}: manifest record is not readable JSON ({type(exc).__name__})") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT or "body" not in raw:
        raise ManifestError(f"{path}: not a replay manifest record")
    if raw.get("format_version") != FORMAT_VERSION:
        raise ManifestError(f"{path}: manifest format version {raw.get('format_version')} is not supported")
    body: dict[str, Any] = raw["body"]  # not checked to be an object: the checksum below vouches for what was written
    if hashlib.sha256(canonical_json(body)).hexdigest() != raw.get("sha256"):
        raise ManifestError(f"{path}: checksum mismatch: the manifest was edited or damaged")
    return body


def list_records(directory: AnyPath) -> tuple[list[int], list[int]]:
    """(checkpoint generations, commit generations) present, each ascending."""
    checkpoints: list[int] = []
    commits: list[int] = []
    for name in os.listdir(directory) if isinstance(directory, Path) else (p.name for p in directory.iterdir()):
        m = _RECORD.match(name)
        if m:
            (checkpoints if m.group(1) == "checkpoint" else commits).append(int(m.group(2)))
    return sorted(checkpoints), sorted(commits)


def load(directory: AnyPath, cached: ManifestState | None = None) -> ManifestState:
    """The current state; from ``cached`` only the commits made since are read."""
    checkpoints, commits = list_records(directory)
    if not checkpoints:
        raise ManifestError(f"{directory}: no manifest checkpoint; is this an archive?")
    newest = checkpoints[-1]
    if cached is not None and cached.generation >= newest:
        state = cached
    else:
        body = _decode_record(directory / _record_name("checkpoint", newest))
        try:
            state = ManifestState(
                generation=_typed(body["generation"], int),
                checkpoint=_typed(body["generation"], int),
                files={e.path: e for e in map(FileEntry.from_json, _typed(body["files"], list))},
                retired=_data_paths(body["retired"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ManifestError(f"checkpoint {newest}: malformed ({exc!r})") from exc
        if state.generation != newest:
            raise ManifestError(f"checkpoint-{newest:010d}.json claims generation {state.generation}")
    pending = [g for g in commits if g > state.generation]
    expected = state.generation + 1
    for gen in pending:
        if gen != expected:
            raise ManifestError(f"{directory}: commit {expected} is missing (found {gen} after it)")
        body = _decode_record(directory / _record_name("commit", gen))
        state.apply(_commit_from_json(body, gen))
        expected += 1
    return state


def _commit_from_json(body: dict[str, Any], gen: int) -> Commit:
    try:
        commit = Commit(
            generation=_typed(body["generation"], int),
            add=tuple(FileEntry.from_json(f) for f in _typed(body["add"], list)),
            remove=tuple(_data_paths(body["remove"])),
            purge=tuple(_data_paths(body["purge"])),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ManifestError(f"commit {gen}: malformed ({exc!r})") from exc
    if commit.generation != gen:
        raise ManifestError(f"commit-{gen:010d}.json claims generation {commit.generation}")
    return commit


def write_commit(directory: Path, state: ManifestState, commit: Commit) -> None:
    """Apply ``commit`` to ``state`` and make it durable. The rename is the commit point."""
    atomic_write(directory / _record_name("commit", commit.generation), _encode_record(commit.to_json()))
    state.apply(commit)
    write_head(directory, commit.generation)


def write_head(directory: Path, generation: int) -> None:
    """Record the newest generation. Written after the commit is durable, and without an fsync of
    its own: after a power cut HEAD may be behind or unreadable (both mean "unknown"), but it is
    never ahead of a commit that was made."""
    tmp = directory / f".HEAD.{os.getpid()}.tmp"
    tmp.write_text(f"{generation}\n", encoding="ascii")
    os.replace(tmp, directory / "HEAD")


def read_head(directory: AnyPath) -> int | None:
    """The generation HEAD records; None when there is no readable HEAD (older archives, a power cut)."""
    try:
        text = (directory / "HEAD").read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if is_number(text) and len(text) <= 10 else None


def lost_generations(directory: AnyPath, state: ManifestState) -> range:
    """Generations HEAD says were committed but the log does not hold: the newest commit records were lost."""
    head = read_head(directory)
    return range(state.generation + 1, head + 1) if head is not None and head > state.generation else range(0)


def write_checkpoint(directory: Path, state: ManifestState) -> None:
    """Fold the log into one checkpoint, then drop the records it supersedes."""
    atomic_write(directory / _record_name("checkpoint", state.generation), _encode_record(state.checkpoint_json()))
    state.checkpoint = state.generation
    drop_superseded(directory, state.generation)


def drop_superseded(directory: Path, checkpoint: int) -> None:
    checkpoints, commits = list_records(directory)
    for gen in commits:
        if gen <= checkpoint:
            (directory / _record_name("commit", gen)).unlink(missing_ok=True)
    for gen in checkpoints:
        if gen < checkpoint:
            (directory / _record_name("checkpoint", gen)).unlink(missing_ok=True)


def checkpoint_due(state: ManifestState) -> bool:
    """Checkpoint when the log since the last one costs about as much to read as the state."""
    return state.generation - state.checkpoint >= max(64, state.size // 256)


def new_manifest(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    atomic_write(directory / _record_name("checkpoint", 0), _encode_record(ManifestState().checkpoint_json()))
    write_head(directory, 0)
