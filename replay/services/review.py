"""Looking at a game: seek to any event, show the table there, compare two logs.

A game is opened once as a :class:`Review`: one lenient replay (or the archive's
cached index of it) gives every event's position and problems and a snapshot
every few events, so any later seek restores a snapshot and replays at most a
few events. Disputed games open like any other: their problems are listed
where they occur, and every event can be reached.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..archive import Archive
from ..contract import AnyGame
from ..diff import changes
from ..driver import replay
from ..errors import NotAnArchive, ReplayError, clip
from ..events import Event
from ..numbers import is_signed_number
from ..packs import PackLibrary, RulesPack
from ..problems import Problem
from ..snapshots import GameIndex, IndexCache, events_digest, stamp
from .logs import Log, load_log, same_game


class Review:
    """One game opened for navigation (:func:`open_review` opens one by id or file)."""

    def __init__(self, log: Log, packs: Iterable[RulesPack] = (), index: GameIndex | None = None) -> None:
        self.log = log
        self.game: AnyGame = log.game
        self.events: list[Event] = log.events
        self.library: PackLibrary = log.library(packs)
        self.index = index or GameIndex.build(self.game, self.events, self.library, events_digest(self.events),
                                              source=log.source, lines=log.lines)
        if self.index.unplayable is not None:
            raise ReplayError(f"{log.source}: the game cannot be replayed: {self.index.unplayable}")
        self._state_at: tuple[int, Any] | None = None

    # ------------------------------------------------------------------ where things are

    @property
    def names(self) -> list[str]:
        return self.index.names

    @property
    def last(self) -> int:
        return len(self.events) - 1

    def problems_at(self, i: int) -> tuple[Problem, ...]:
        return self.index.problems[i]

    def problem_indexes(self) -> list[int]:
        return [i for i, ps in enumerate(self.index.problems) if ps]

    def turn_of(self, i: int) -> int | None:
        return self.index.positions[i].turn

    def turn_start(self, turn: int) -> int | None:
        """The first event of turn ``turn``."""
        return next((i for i, p in enumerate(self.index.positions) if p.turn == turn), None)

    def turns(self) -> list[int]:
        return sorted({p.turn for p in self.index.positions if p.turn is not None})

    def locate(self, at: str | None) -> int:
        """``turn:N`` (the first event of turn N), ``seq:N``, ``event:N`` (by index) or None (the end)."""
        if at is None or at == "end":
            return self.last
        kind, _, value = at.partition(":")
        if kind not in ("turn", "seq", "event") or not is_signed_number(value):
            raise ReplayError(f"{clip(at, 60)!r}: use turn:N, seq:N or end")
        n = int(value)
        if kind == "turn":
            found = self.turn_start(n)
            if found is None:
                turns = self.turns()
                span = f"turns {turns[0]}..{turns[-1]}" if turns else "no turns"
                raise ReplayError(f"{self.log.source} has no turn {n} (it has {span})")
            return found
        found = next((i for i, e in enumerate(self.events) if e.seq == n), None) if kind == "seq" else (
            n if 0 <= n <= self.last else None)
        if found is None:
            raise ReplayError(f"{self.log.source} has no {kind} {n} (it ends at seq {self.events[-1].seq})")
        return found

    # ------------------------------------------------------------------ states

    def state(self, i: int) -> Any:
        """The state after event ``i`` (a live object: do not keep it past the next call)."""
        if self._state_at is not None and self._state_at[0] == i:
            return self._state_at[1]
        state = self.index.seek(self.game, self.events, i, self.library)
        self._state_at = (i, state)
        return state

    def data(self, i: int) -> dict[str, Any]:
        return self.game.views.data(self.state(i))

    def headline(self, i: int) -> str:
        return self.game.views.headline(self.events[i], self.names)

    def show(self, i: int, player: str | None = None) -> str:
        """The table after event ``i`` as text, with the problems found at that event."""
        text = self.game.views.show(self.state(i), player)
        problems = self.problems_at(i)
        if problems:
            text += "\n" + "\n".join(f"problem at this event: {p}" for p in problems)
        return text

    def show_data(self, i: int, player: str | None = None) -> dict[str, Any]:
        """The table after event ``i`` as plain data (one seat's view with ``player``), and its problems."""
        state = self.state(i)
        if player is not None:
            seat = self.seat_of(player)
            data = self.game.views.observe(state, seat)
        else:
            data = self.game.views.data(state)
        return {"event": i, "seq": self.events[i].seq, "turn": self.turn_of(i), "state": data,
                "problems": [p.to_json() for p in self.problems_at(i)]}

    def seat_of(self, player: str) -> int:
        lowered = [n.lower() for n in self.names]
        if player.lower() not in lowered:
            raise ReplayError(f"no player {player!r}; players: {', '.join(self.names)}")
        return lowered.index(player.lower())

    def changes(self, before: int, after: int) -> list[str]:
        """What changed, in a person's terms: the game's bookkeeping keys are left out."""
        hidden = self.game.views.bookkeeping
        a, b = self.data(before), self.data(after)
        return changes({k: v for k, v in a.items() if k not in hidden}, {k: v for k, v in b.items() if k not in hidden})


def open_review(spec: str, archive: Archive | Path | None, kind: str | None = None,
                packs: Iterable[RulesPack] = (), cache: bool = True) -> Review:
    """A game for navigation: an archived game by id (its index cached under the archive), or a file."""
    packs = list(packs)
    store = _archive_of(archive) if not Path(spec).exists() else None
    info = store.snapshot().streams.get(spec) if store is not None else None
    if store is None or info is None:
        return Review(load_log(spec, archive, kind), packs)
    game = store.registry.get(info.kind)
    head = stamp(info.last_seq, info.files)
    cached = IndexCache(store.root).load(game, spec, head) if cache else None
    if cached is not None:
        index, events = cached
        return Review(Log(events, game, spec, archive=store), packs, index)
    log = load_log(spec, store, kind)
    index = GameIndex.build(game, log.events, log.library(packs), head, source=spec)
    if cache:
        IndexCache(store.root).save(spec, index, log.events)
    return Review(log, packs, index)


def _archive_of(archive: Archive | Path | None) -> Archive | None:
    if isinstance(archive, Archive) or archive is None:
        return archive
    try:
        return Archive(archive)
    except NotAnArchive:
        return None


@dataclass
class Difference:
    """Two logs of one game compared: where they first differ, and how their tables differ at the end."""

    identical: bool
    events: tuple[int, int]
    first: int | None
    where: tuple[str, str]
    problems: tuple[int, int]
    end_changes: list[str]
    event_changes: list[str] = field(default_factory=list)
    """The values that differ in the first differing event (``payload.claim.total: 12 -> 14``),
    for two versions whose headlines read the same."""


def compare(left: Log, right: Log, packs: Iterable[RulesPack] = ()) -> Difference:
    game = same_game([left, right])
    packs = list(packs)
    first = next((i for i, (x, y) in enumerate(zip(left.events, right.events))
                  if x.payload != y.payload or x.type != y.type), None)
    if first is None and len(left.events) == len(right.events):
        return Difference(True, (len(left.events), len(right.events)), None, ("", ""), (0, 0), [])
    first = first if first is not None else min(len(left.events), len(right.events))
    names = [s["name"] for s in sorted(left.events[0].payload["seats"], key=lambda s: s["seat"])]

    def where(log: Log) -> str:
        if first >= len(log.events):
            return "(no event: the log ends here)"
        line = f" (line {log.lines[first]})" if log.lines and first in log.lines else ""
        return f"{game.views.headline(log.events[first], names)}{line}"

    ends = [replay(game, log.events, log.library(packs)) for log in (left, right)]
    datas = [game.views.data(r.state) if r.state is not None else {} for r in ends]
    in_event = []
    if first < min(len(left.events), len(right.events)):
        x, y = left.events[first], right.events[first]
        in_event = changes({"type": x.type, "payload": x.payload}, {"type": y.type, "payload": y.payload})
    return Difference(False, (len(left.events), len(right.events)), first, (where(left), where(right)),
                      (len(ends[0].problems), len(ends[1].problems)), changes(datas[0], datas[1]), in_event)
