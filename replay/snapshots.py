"""Snapshots of a game's state, and the index that lets show, step and pages seek quickly.

A :class:`Snapshot` is a game's whole state as plain data (``Rules.snapshot``),
versioned by the game's ``snapshot_version`` and tied to the pack it was played
under: restoring it gives an equal state, and replaying on from it gives the
same state hashes as a replay from the start (the conformance suite checks both
for every game).

A :class:`GameIndex` is what one lenient replay of a game learns for navigation:
every event's position and problems, and a snapshot every :data:`EVERY` events.
Seeking to event *n* restores the nearest snapshot at or before *n* and replays
at most ``EVERY - 1`` events, whatever the game's length. The index is derived
data: :class:`IndexCache` keeps it under the archive's ``cache/`` and rebuilds it
whenever the game has changed (its length or last chain hash), its snapshot
version or the game's pack differ. Deleting ``cache/`` loses nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .archive.fsutil import atomic_write
from .contract import Game, Observer, Position, Step
from .driver import Replay
from .events import Event
from .packs import PackLibrary, RulesPack
from .problems import Location, Problem

EVERY = 16
"""Events between two snapshots of an index: a seek replays at most EVERY - 1 events."""
INDEX_FORMAT = 1


@dataclass(frozen=True)
class Snapshot:
    """A state after event ``index``, as plain data (or as its JSON text, read from a cache and
    parsed only when this snapshot is restored)."""

    kind: str
    version: int
    pack: str
    index: int
    state: dict[str, Any] | str


def take(game: Game[Any, Any], state: Any, index: int, pack: RulesPack) -> Snapshot:
    return Snapshot(game.kind, game.rules.snapshot_version, pack.content_hash, index, game.rules.snapshot(state))


def restore(game: Game[Any, Any], snapshot: Snapshot, pack: RulesPack) -> Any:
    if snapshot.kind != game.kind or snapshot.version != game.rules.snapshot_version:
        raise ValueError(f"a {snapshot.kind} snapshot v{snapshot.version} is not a {game.kind} "
                         f"v{game.rules.snapshot_version} snapshot")
    if snapshot.pack != pack.content_hash:
        raise ValueError(f"the snapshot was taken under pack {snapshot.pack}, not {pack.content_hash}")
    # through JSON: the restored state shares nothing with the cached data
    text = snapshot.state if isinstance(snapshot.state, str) else json.dumps(snapshot.state)
    return game.rules.restore(json.loads(text), pack)


class _Snapshotter(Observer):
    def __init__(self, game: Game[Any, Any], replay: Replay[Any], every: int) -> None:
        self.game, self.replay, self.every = game, replay, every
        self.positions: list[Position] = []
        self.problems: list[tuple[Problem, ...]] = []
        self.snapshots: list[Snapshot] = []

    def after(self, step: Step) -> None:
        self.positions.append(step.position)
        self.problems.append(step.problems)
        if step.index % self.every == 0 and step.state is not None and self.replay.pack is not None:
            self.snapshots.append(take(self.game, step.state, step.index, self.replay.pack))


@dataclass
class GameIndex:
    """Positions, problems and snapshots of one game: what seeking and navigation need."""

    kind: str
    events: int
    head: str
    """Identifies the events indexed (the last stored chain hash, or a digest of the events)."""
    names: list[str]
    pack: str
    positions: list[Position]
    problems: list[tuple[Problem, ...]]
    snapshots: list[Snapshot] = field(default_factory=list)
    unplayable: Problem | None = None

    @classmethod
    def build(cls, game: Game[Any, Any], events: Sequence[Event], library: PackLibrary, head: str,
              every: int = EVERY, source: str | None = None, lines: dict[int, int] | None = None) -> GameIndex:
        replay: Replay[Any] = Replay(game, library, source=source, lines=lines)
        watcher = _Snapshotter(game, replay, every)
        replay.observe(watcher)
        replay.run(events)
        replay.finish()
        positions = watcher.positions + [Position()] * (len(events) - len(watcher.positions))
        problems = watcher.problems + [()] * (len(events) - len(watcher.problems))
        if replay.unplayable is not None and not problems[0]:
            problems[0] = (replay.unplayable,)
        return cls(game.kind, len(events), head, replay.names, replay.pack.content_hash if replay.pack else "",
                   positions, problems, watcher.snapshots, replay.unplayable)

    def all_problems(self) -> list[Problem]:
        return [p for step in self.problems for p in step]

    def seek(self, game: Game[Any, Any], events: Sequence[Event], index: int, library: PackLibrary) -> Any:
        """The state after event ``index`` (restored from the nearest snapshot, then replayed on)."""
        if self.unplayable is not None:
            raise ValueError("the game cannot be replayed")
        base = max((s for s in self.snapshots if s.index <= index), key=lambda s: s.index)
        pack = library.find(events[0].payload["ruleset"])
        state = restore(game, base, pack)
        replay = Replay.resume(game, pack, state, base.index, self.names, library=library)
        # an event this index's replay accepted without a problem is legal here too (the same state
        # before it): applied trusted (Rules.apply_trusted); any other is checked as it was
        for i in range(base.index + 1, index + 1):
            if self.problems[i]:
                replay.push(events[i])
            else:
                replay.push_trusted(events[i])
        return replay.state

    # ------------------------------------------------------------------ as JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "format": INDEX_FORMAT, "kind": self.kind, "events": self.events, "head": self.head,
            "names": self.names, "pack": self.pack,
            "positions": [[p.turn, p.round, p.seat] for p in self.positions],
            "problems": {str(i): [_problem_json(p) for p in ps] for i, ps in enumerate(self.problems) if ps},
            "snapshots": [{**asdict(s), "state": s.state if isinstance(s.state, str) else json.dumps(s.state)}
                          for s in self.snapshots],
            "unplayable": _problem_json(self.unplayable) if self.unplayable else None,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> GameIndex:
        problems: list[tuple[Problem, ...]] = [()] * int(raw["events"])
        for i, ps in raw["problems"].items():
            problems[int(i)] = tuple(_problem_of(p) for p in ps)
        return cls(raw["kind"], int(raw["events"]), raw["head"], list(raw["names"]), raw["pack"],
                   [Position(*p) for p in raw["positions"]], problems,
                   [Snapshot(**s) for s in raw["snapshots"]],
                   _problem_of(raw["unplayable"]) if raw["unplayable"] else None)


def _problem_json(p: Problem) -> dict[str, Any]:
    return {**asdict(p), "where": asdict(p.where)}


def _problem_of(raw: dict[str, Any]) -> Problem:
    return Problem(**{**raw, "where": Location(**raw["where"])})


def events_digest(events: Sequence[Event]) -> str:
    """Identifies a log that is not in the archive (a file), for an in-memory index."""
    h = hashlib.sha256()
    for e in events:
        h.update(json.dumps([e.seq, e.type, e.version, e.payload], sort_keys=True).encode())
    return h.hexdigest()[:16]


def stamp(last_seq: int, files: Sequence[str]) -> str:
    """What identifies an archived game's events without reading them: its length and the
    (immutable) files that hold it, from the manifest. Compaction moves a game to new files,
    so its stamp changes and its cached index is rebuilt."""
    return f"{last_seq}:" + hashlib.sha256("|".join(files).encode()).hexdigest()[:16]


class IndexCache:
    """Game indexes kept under ``<archive>/cache/index/<kind>/``: derived, rebuildable, never trusted blindly.

    An entry holds a game's index and its events, so that opening a game for show or
    step reads neither Parquet nor replays anything. It is used only if it was built
    for the game's current stamp (its length and the files that hold it, from the
    manifest) and the game's current snapshot version; anything else rebuilds it.
    Writing is best effort: a read-only archive simply goes without a cache.
    """

    def __init__(self, root: Path) -> None:
        self.root = root / "cache" / "index"

    def path(self, kind: str, game_id: str) -> Path:
        return self.root / kind / f"{game_id}.json"

    def load(self, game: Game[Any, Any], game_id: str, head: str) -> tuple[GameIndex, list[Event]] | None:
        try:
            raw = json.loads(self.path(game.kind, game_id).read_bytes())
            if (raw.get("format") != INDEX_FORMAT or raw["head"] != head
                    or any(s["version"] != game.rules.snapshot_version for s in raw["snapshots"])):
                return None
            events = [Event(game_id, seq, game.kind, t, v, p) for seq, (t, v, p) in enumerate(raw["log"])]
            if len(events) != raw["events"]:
                return None
            return GameIndex.from_json(raw), events
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save(self, game_id: str, index: GameIndex, events: Sequence[Event]) -> bool:
        path = self.path(index.kind, game_id)
        body = {**index.to_json(), "log": [[e.type, e.version, e.payload] for e in events]}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, json.dumps(body, separators=(",", ":")).encode())
            return True
        except OSError:
            return False

    def clear(self) -> int:
        removed = 0
        if self.root.is_dir():
            for folder, _, files in os.walk(self.root):
                for f in files:
                    (Path(folder) / f).unlink(missing_ok=True)
                    removed += 1
        return removed
