"""``replay regress``: does this version of replay still bring every game to the end it was recorded with?

``replay project`` records, in the derived ``games`` table, each game's final state
hash and its result (winners, score totals). After a change of code (a fix in a
game's rules, a new release), regress replays every recorded game with the code now
installed, through the same observer that wrote the row, and names the games whose
final state hash, winners or score totals differ from the record. A game still in
progress when it was projected is replayed up to the event it had reached then (the
log is append-only, so those events are the same). It uses only the game contract,
so it serves every kind. The recorded rows are read with pyarrow from the parts the
projection lists, even when their columns are of an older layout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow.parquet as pq

from ..analytics.core import CoreRows
from ..analytics.project import load_manifest, part_paths
from ..archive import Archive
from ..archive.location import parquet_source
from ..archive.scan import iter_games
from ..contract import AnyGame
from ..driver import Replay
from ..events import Event
from ..packs import PackLibrary
from ..tables import render

COLUMNS = ("game_id", "names", "winners", "scores", "events", "status", "problems", "state_hash")
NEEDED = {"game_id", "winners", "scores", "events", "status"}
"""Without these a recorded row cannot be checked (``state_hash`` came later: without it, the result is)."""


@dataclass(frozen=True)
class End:
    """How a replay of a game ended: what the ``games`` row records of it."""

    state_hash: str | None
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    problems: int | None

    @classmethod
    def of(cls, row: dict[str, Any]) -> End:
        return cls(row.get("state_hash"), tuple(row["winners"] or ()), tuple(row["scores"] or ()), row.get("problems"))

    def to_json(self) -> dict[str, Any]:
        return {"state_hash": self.state_hash, "winners": list(self.winners), "scores": list(self.scores),
                "problems": self.problems}


def differences(recorded: End, now: End) -> tuple[str, ...]:
    """What differs: ``state`` (only where a hash was recorded), ``winners``, ``scores``."""
    return tuple(name for name, differs in (
        ("state", recorded.state_hash is not None and recorded.state_hash != now.state_hash),
        ("winners", recorded.winners != now.winners),
        ("scores", recorded.scores != now.scores),
    ) if differs)


@dataclass(frozen=True)
class Regression:
    """A game this version replays to another end than the recorded one."""

    kind: str
    game_id: str
    names: tuple[str, ...]
    differs: tuple[str, ...]
    recorded: End
    now: End

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "game_id": self.game_id, "names": list(self.names), "differs": list(self.differs),
                "recorded": self.recorded.to_json(), "now": self.now.to_json()}


@dataclass
class KindCheck:
    """One kind's part of the check."""

    kind: str
    games: int = 0
    """Games of the kind in the archive."""
    checked: int = 0
    without_hash: int = 0
    """Checked on their result only: recorded before replay recorded state hashes."""
    older_layout: bool = False
    """The recorded tables have other columns than this version writes (still read)."""

    @property
    def not_projected(self) -> int:
        return self.games - self.checked

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "games": self.games, "checked": self.checked, "not_projected": self.not_projected,
                "without_hash": self.without_hash, "older_layout": self.older_layout}


@dataclass
class RegressReport:
    kinds: list[KindCheck] = field(default_factory=list)
    regressions: list[Regression] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    """Games this version could not replay to a row (a bug in a game's views), and why."""

    @property
    def checked(self) -> int:
        return sum(k.checked for k in self.kinds)

    @property
    def not_projected(self) -> int:
        return sum(k.not_projected for k in self.kinds)

    @property
    def ok(self) -> bool:
        return not self.regressions and not self.failed

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "checked": self.checked, "not_projected": self.not_projected,
                "differ": len(self.regressions), "kinds": [k.to_json() for k in self.kinds],
                "games": [r.to_json() for r in self.regressions], "failed": self.failed}

    def to_text(self) -> str:
        """The counts, what was not or only partly checked, then the games that differ."""
        return _text(self)


def recorded_rows(archive: Archive, game: AnyGame) -> dict[str, dict[str, Any]]:
    """The kind's recorded ``games`` rows by game id, as ``replay project`` wrote them."""
    rows: dict[str, dict[str, Any]] = {}
    for path in part_paths(archive, game, any_layout=True).get("games", []):
        part = pq.ParquetFile(parquet_source(path))
        present = set(part.schema_arrow.names)
        if NEEDED <= present:
            table = part.read(columns=[c for c in COLUMNS if c in present])
            rows.update((row["game_id"], row) for row in table.to_pylist())
    return rows


def regress(archive: Archive, games: Sequence[AnyGame] | None = None,
            progress: Callable[[int], None] | None = None, total: Callable[[int], None] | None = None) -> RegressReport:
    """Replay every projected game (of every kind in the archive, or of ``games``) and compare its end."""
    streams = archive.snapshot().streams
    present = {s.kind for s in streams.values()}
    chosen = list(games) if games is not None else [g for g in archive.registry.games() if g.kind in present]
    report = RegressReport()
    work = []
    for game in chosen:
        rows = recorded_rows(archive, game)
        mine = {g: s for g, s in streams.items() if s.kind == game.kind}
        rows = {g: r for g, r in rows.items() if g in mine}
        check = KindCheck(game.kind, len(mine), len(rows), sum(1 for r in rows.values() if r.get("state_hash") is None),
                          bool(rows) and bool(load_manifest(archive, game).get("stale")))
        report.kinds.append(check)
        work.append((game, rows, {g: mine[g] for g in rows}))
    if total:
        total(report.checked)
    for game, rows, todo in work:
        library = archive.library(game.kind)
        for events in iter_games(archive, game, todo):
            game_id = events[0].game_id
            try:
                found = _check(game, events, rows[game_id], library)
            except Exception as exc:  # a bug in a game's views: name the game, check the others
                report.failed[game_id] = f"{type(exc).__name__}: {exc}"
                found = None
            if found is not None:
                report.regressions.append(found)
            if progress:
                progress(1)
    report.regressions.sort(key=lambda r: (r.kind, r.game_id))
    report.failed = dict(sorted(report.failed.items()))
    return report


def _check(game: AnyGame, events: list[Event], row: dict[str, Any], library: PackLibrary) -> Regression | None:
    """Replay the events the row was projected from, as ``replay project`` does; a Regression if it ends elsewhere."""
    replay: Replay[Any] = Replay(game, library)
    core = CoreRows(replay, row["status"] == "finished")
    replay.observe(core)
    replay.run(events[: row["events"]])
    replay.finish()
    recorded, now = End.of(row), End.of(core.out["games"][0])
    differs = differences(recorded, now)
    if not differs:
        return None
    return Regression(game.kind, events[0].game_id, tuple(row.get("names") or replay.names), differs, recorded, now)


# ----------------------------------------------------------------------------- text


def _seats(names: tuple[str, ...], seats: tuple[int, ...]) -> str:
    return ", ".join(names[s] if 0 <= s < len(names) else f"seat {s}" for s in seats) or "none"


def _arrow(before: str, after: str) -> str:
    return before if before == after else f"{before} -> {after}"


def _text(report: RegressReport) -> str:
    per_kind = ", ".join(f"{k.kind} {k.checked}" for k in report.kinds)
    lines = [f"checked {report.checked} game(s) against what `replay project` recorded" + (f": {per_kind}" if per_kind else "")]
    if report.not_projected:
        lines.append(f"{report.not_projected} game(s) not projected yet, so not checked: run `replay project` "
                     "(with the version that should set the baseline)")
    for k in report.kinds:
        if k.older_layout:
            lines.append(f"{k.kind}: the recorded tables are of an older layout; read all the same")
        if k.without_hash:
            lines.append(f"{k.kind}: {k.without_hash} game(s) recorded without a state hash (projected by an older "
                         "replay): checked on winners and scores only")
    for game_id, why in report.failed.items():
        lines.append(f"could not replay {game_id}: {why}")
    if not report.regressions:
        lines.append("no difference: every checked game ends as recorded" if report.checked else "nothing to check")
        return "\n".join(lines) + "\n"
    lines.append(f"{len(report.regressions)} of {report.checked} game(s) end differently from the record:")
    rows = [{"game": r.game_id, "kind": r.kind, "differs": ", ".join(r.differs),
             "winners (recorded -> now)": _arrow(_seats(r.names, r.recorded.winners), _seats(r.names, r.now.winners)),
             "scores (recorded -> now)": _arrow(", ".join(map(str, r.recorded.scores)), ", ".join(map(str, r.now.scores))),
             "problems": _arrow(str(r.recorded.problems), str(r.now.problems))}
            for r in report.regressions]
    return "\n".join(lines) + "\n" + render(rows, list(rows[0]), "table")
