"""The data of a replay page: every step of one game (or two versions of it), ready to be drawn.

The page is an observer of the replay driver: :class:`_Recorder` sees each step once and keeps
what the page shows of it (the headline, where it belongs, its problems, the standing, what
changed). States are kept the way the archive's seek index keeps them, as snapshots: the whole
plain-data state every :data:`KEYFRAME_EVERY` events and, between them, each event's patch, a
short list of the values it changed. The page restores the nearest snapshot before a step and
applies at most that many patches, so a 7-player game stays small and any step is immediate.

A game with hidden information gets one such record per seat (``Views.observe``) beside the
whole table's, so the page can show what one player could see.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import __version__
from ..contract import AnyGame, Observer, Step
from ..diff import changes
from ..driver import Replay
from ..errors import NotOffered, ReplayError
from ..events import Event
from ..packs import RulesPack
from .audit import AuditReport, audit
from .logs import Log

PAGE_FORMAT = 1
KEYFRAME_EVERY = 16
ALL = "all"
"""The view of the whole table (every other view is named after its seat's player)."""

Path_ = list[str | int]
Patch = list[list[Any]]
"""One event's patch: ``[path, value]`` sets a value, ``[path]`` removes a key, and
``[path, start, count, items]`` splices a list (``count`` items at ``start`` replaced by ``items``)."""


# ----------------------------------------------------------------------------- patches


def patch(before: Any, after: Any) -> Patch:
    """The smallest list of sets and removals (by path) that turns ``before`` into ``after``.

    Lists are patched element by element when their lengths agree, else spliced between their
    common head and tail (a card drawn from a pile is one small splice, not the pile again);
    :func:`apply_patch` (and the page's ``applyPatch``) undo exactly this."""
    ops: Patch = []
    _patch(before, after, [], ops)
    return ops


def _patch(a: Any, b: Any, path: Path_, ops: Patch) -> None:
    if a == b and type(a) is type(b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                ops.append([[*path, key]])
        for key, value in b.items():
            if key in a:
                _patch(a[key], value, [*path, key], ops)
            else:
                ops.append([[*path, key], value])
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b)):
                _patch(x, y, [*path, i], ops)
        else:
            ops.append([path, *_splice(a, b)])
        return
    ops.append([path, b])


def _splice(a: list[Any], b: list[Any]) -> tuple[int, int, list[Any]]:
    """(start, count, items): replacing ``count`` items of ``a`` at ``start`` by ``items`` gives ``b``."""
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head] and type(a[head]) is type(b[head]):
        head += 1
    tail = 0
    while (tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]
           and type(a[-1 - tail]) is type(b[-1 - tail])):
        tail += 1
    return head, len(a) - head - tail, b[head:len(b) - tail]


def apply_patch(data: Any, ops: Patch) -> Any:
    """``data`` changed by ``ops``: changed in place, and returned (a patch may replace it whole)."""
    root = [data]  # a holder, so that a path [] is a key like any other
    for op in ops:
        parent: Any = root
        key: str | int = 0
        for step in op[0]:
            parent, key = parent[key], step
        if len(op) == 1:
            del parent[key]
        elif len(op) == 4:
            parent[key][op[1]:op[1] + op[2]] = copy.deepcopy(op[3])
        else:
            parent[key] = copy.deepcopy(op[1])  # never the patch's own object: later patches change the state
    return root[0]


def page_state(version: dict[str, Any], view: str, index: int, every: int = KEYFRAME_EVERY) -> Any:
    """The state a page shows after event ``index`` in ``view`` (as its ``stateAt`` makes it): the
    nearest snapshot at or before it, then each patch up to it."""
    record = version["views"][version["view_alias"].get(view, view)]
    start = index // every * every
    state = copy.deepcopy(record["keyframes"][str(start)])
    for j in range(start + 1, index + 1):
        state = apply_patch(state, record["patches"][j])
    return state


def path_text(path: Sequence[str | int]) -> str:
    """A patch path as the page and ``diff`` write it: ``players[0].coins``."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out


# ----------------------------------------------------------------------------- one game


@dataclass
class _View:
    """One view's snapshots, patches and the changes a person is shown at each event."""

    keyframes: dict[str, Any]
    patches: list[Patch]
    changes: list[list[str]]
    last: Any = None

    def add(self, index: int, data: Any, hidden: frozenset[str]) -> None:
        if index % KEYFRAME_EVERY == 0:
            self.keyframes[str(index)] = data
        if self.last is None:
            self.patches.append([])
            self.changes.append([])
        else:
            self.patches.append(patch(self.last, data))
            self.changes.append(changes(_shown(self.last, hidden), _shown(data, hidden)))
        self.last = data

    def to_json(self) -> dict[str, Any]:
        return {"keyframes": self.keyframes, "patches": self.patches, "changes": self.changes}


def _shown(data: Any, hidden: frozenset[str]) -> Any:
    return {k: v for k, v in data.items() if k not in hidden} if isinstance(data, dict) and hidden else data


class _Recorder(Observer):
    """Keeps, for each step, what the page shows of it."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.names: list[str] = []
        self.seats: list[int] = []
        self.views: dict[str, _View] = {}
        self.events: list[dict[str, Any]] = []
        self.totals: list[list[int] | None] = []
        self.board: dict[str, Any] = {}

    def _begin(self, step: Step) -> None:
        """At the start event (which the driver has checked): the seats, the views, the board."""
        views = self.game.views
        self.names = [s["name"] for s in sorted(step.event.payload["seats"], key=lambda s: s["seat"])]
        self.seats = list(range(len(self.names))) if views.hides(step.state) else []
        self.views = {ALL: _View({}, [], [])} | {self.names[s]: _View({}, [], []) for s in self.seats}
        self.board = views.page_board(step.state)

    def after(self, step: Step) -> None:
        views, state = self.game.views, step.state
        if step.index == 0 and state is not None:
            self._begin(step)
        position = step.position
        self.events.append({"seq": step.event.seq, "type": step.event.type,
                            "headline": views.headline(step.event, self.names),
                            "turn": position.turn, "round": position.round, "seat": position.seat,
                            "refused": step.refused})
        if state is None:
            return
        self.views[ALL].add(step.index, views.data(state), views.bookkeeping)
        for seat in self.seats:
            self.views[self.names[seat]].add(step.index, views.observe(state, seat), views.bookkeeping)
        result = views.result(state)
        self.totals.append([s.total for s in sorted(result.scores, key=lambda s: s.seat)] if result else None)


def game_page(log: Log, packs: Iterable[RulesPack] = (), label: str | None = None) -> dict[str, Any]:
    """Every step of the game in ``log`` as the page draws it, with the audit's problems at their events."""
    game, events = log.game, log.events
    report = audit(log, packs)
    recorder = _Recorder(game)
    driver = Replay(game, log.library(packs), observers=[recorder], source=log.source, lines=log.lines).run(events)
    driver.finish()
    if driver.unplayable is not None or driver.state is None:
        why = driver.unplayable or "its start event cannot be played"
        raise ReplayError(f"{log.source}: the game cannot be replayed, so it has no page: {why}")
    pack = driver.pack
    return {
        "label": label or log.source,
        "game_id": log.game_id,
        "kind": game.kind,
        "title": game.title,
        "names": driver.names,
        "pack": {"id": pack.id, "version": pack.version, "hash": pack.content_hash} if pack else None,
        "events": recorder.events,
        "problems": _problems(report, events),
        **_views(recorder.views),
        "board": recorder.board,
        "totals": recorder.totals if any(t is not None for t in recorder.totals) else None,
        "notation": _notation(game, events, log),
        "summary": report.summary,
        "audit": {"ok": report.ok, "problems": len(report.problems), "checked": report.checked},
    }


def _views(views: dict[str, _View]) -> dict[str, Any]:
    """The views, each kept once: a seat whose view is the same as another's at every step (a game
    whose hidden part no seat sees) names that one in ``view_alias``."""
    kept: dict[str, Any] = {}
    alias: dict[str, str] = {}
    first_of: dict[str, str] = {}
    for name, view in views.items():
        record = view.to_json()
        key = json.dumps(record, sort_keys=True)
        if key in first_of:
            alias[name] = first_of[key]
        else:
            first_of[key] = name
            kept[name] = record
    return {"views": kept, "view_alias": alias}


def _problems(report: AuditReport, events: Sequence[Event]) -> list[dict[str, Any]]:
    """The audit's problems, each at the index of its event (the start, if it names none)."""
    at = {e.seq: i for i, e in enumerate(events)}
    out = []
    for p in report.problems:
        index = at.get(p.where.seq, 0) if p.where.seq is not None else 0
        out.append({"event": index, **p.to_json()})
    return out


def _notation(game: AnyGame, events: Sequence[Event], log: Log) -> dict[str, Any] | None:
    """The log in the game's notation, and the line of each event in it: the file's own text when the
    game was read from a notation file, else the text the game writes (read back for its lines)."""
    if game.notation is None:
        return None
    try:
        text = game.notation.write(events)
        lines = game.notation.read(text, "collect").lines
    except (NotOffered, ReplayError):
        return None
    return {"text": text.splitlines(), "lines": [lines.get(e.seq) for e in events]}


# ----------------------------------------------------------------------------- the page


def page_data(logs: Sequence[Log], packs: Iterable[RulesPack] = ()) -> dict[str, Any]:
    """The page's data: one game, or two versions of one game compared from their first difference."""
    if not 1 <= len(logs) <= 2:
        raise ReplayError("a page shows one game, or two versions of one game")
    packs = list(packs)
    if len(logs) == 2 and logs[0].game.kind != logs[1].game.kind:
        raise ReplayError(f"{logs[0].source} is {logs[0].game.title} and {logs[1].source} is {logs[1].game.title}: "
                          "only two versions of one game can be compared")
    versions = [game_page(log, packs) for log in logs]
    first = None
    if len(logs) == 2:
        a, b = logs[0].events, logs[1].events
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x.type != y.type or x.payload != y.payload),
                     None if len(a) == len(b) else min(len(a), len(b)))
    game = logs[0].game
    return {"format": PAGE_FORMAT, "generator": f"replay {__version__}", "title": _title(versions),
            "versions": versions, "first_difference": first,
            "keyframe_every": KEYFRAME_EVERY,
            "hidden_information": game.views.hidden_information or any(len(v["views"]) > 1 for v in versions)}


def _title(versions: Sequence[dict[str, Any]]) -> str:
    if len(versions) == 1:
        return f"{versions[0]['title']}: {versions[0]['label']}"
    return f"{versions[0]['title']}: {versions[0]['label']} against {versions[1]['label']}"


def board_script(game: AnyGame) -> str | None:
    """The game's board script for the page, if it has one."""
    return game.views.page_script()
