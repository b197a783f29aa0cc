"""``replay rules impact``: what correcting a rules pack would do to the games already played under it.

A pack is data, and data gets corrected (a space's VP misread from the board). Every
archived game pinned to the old pack (same id, version and content hash) is replayed
twice through the one replay driver, leniently: under the old pack, as it was played,
and with the new pack standing in for the old one. The start events keep pinning the
old pack and nothing in the archive is written: the report says which results would
change (winners, ranking, scores by category) and, for each, the first event after
which the two replays' states differ, which is where a person should look. It uses
only the game contract, so it serves every kind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..archive import Archive
from ..archive.scan import iter_games
from ..contract import AnyGame, Observer, Result, Step, Views
from ..driver import Replay
from ..errors import ReplayError
from ..events import Event, RulesetPin
from ..packs import PackLibrary, RulesPack, pin_key

ASPECTS = ("playable", "finished", "winners", "ranking", "scores", "categories")
"""What of a result may change, in the order the report names them."""


class Substituted(PackLibrary):
    """A library that hands out ``new`` wherever a game pins ``old``, and defers to ``base`` otherwise.

    The games' start events are not touched: the replay believes it plays the pinned pack."""

    def __init__(self, base: PackLibrary, old: RulesPack, new: RulesPack) -> None:
        super().__init__(base.kind)
        self.base, self.old, self.new = base, pin_key(old.pin), new

    def add(self, pack: RulesPack) -> None:
        self.base.add(pack)

    def find(self, pin: RulesetPin | Mapping[str, Any]) -> RulesPack:
        return self.new if pin_key(pin) == self.old else self.base.find(pin)

    def __iter__(self) -> Any:
        return iter([self.new, *(p for p in self.base if pin_key(p.pin) != self.old)])


@dataclass(frozen=True)
class Outcome:
    """How one replay of a game ends: its result by seat, and how many problems it found."""

    playable: bool
    finished: bool = False
    winners: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    categories: tuple[dict[str, int], ...] = ()
    problems: int = 0

    @classmethod
    def of(cls, replay: Replay[Any]) -> Outcome:
        if replay.state is None:
            return cls(False, problems=len(replay.problems))
        result: Result | None = replay.game.views.result(replay.state)
        if result is None:
            return cls(True, problems=len(replay.problems))
        by_seat = sorted(result.scores, key=lambda s: s.seat)
        return cls(True, result.finished, tuple(result.winners), tuple(s.rank for s in by_seat),
                   tuple(s.total for s in by_seat), tuple(dict(s.categories) for s in by_seat), len(replay.problems))

    def aspects(self) -> dict[str, Any]:
        return {"playable": self.playable, "finished": self.finished, "winners": self.winners,
                "ranking": self.ranks, "scores": self.scores, "categories": self.categories}

    def to_json(self) -> dict[str, Any]:
        return {"playable": self.playable, "finished": self.finished, "winners": list(self.winners),
                "ranks": list(self.ranks), "scores": list(self.scores), "categories": list(self.categories),
                "problems": self.problems}


def changes(old: Outcome, new: Outcome) -> list[str]:
    """The aspects of the result that differ (ASPECTS order)."""
    a, b = old.aspects(), new.aspects()
    return [name for name in ASPECTS if a[name] != b[name]]


@dataclass(frozen=True)
class Divergence:
    """The first event after which the two replays' states differ."""

    index: int
    """Counted from 0, the start event (the seq, for an archived game)."""
    turn: int | None
    headline: str

    def to_json(self) -> dict[str, Any]:
        return {"event": self.index, "turn": self.turn, "headline": self.headline}


@dataclass(frozen=True)
class GameImpact:
    """One game whose result the new pack changes."""

    game_id: str
    names: tuple[str, ...]
    changes: tuple[str, ...]
    old: Outcome
    new: Outcome
    divergence: Divergence | None
    """None when the states never differ (the result reads the pack directly)."""

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "names": list(self.names), "changes": list(self.changes),
                "old": self.old.to_json(), "new": self.new.to_json(),
                "first_divergence": self.divergence.to_json() if self.divergence else None}


@dataclass
class ImpactReport:
    kind: str
    old: RulesetPin
    new: RulesetPin
    pinned: int = 0
    """Archived games pinned to the old pack."""
    changed: list[GameImpact] = field(default_factory=list)
    more_problems: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Games whose replay under the new pack finds more problems: (under old, under new)."""
    diverged: int = 0
    """Games whose replays differ at some event, whether or not the result changes."""
    failed: dict[str, str] = field(default_factory=dict)
    """Games that could not be compared (a bug in the game's views), and why."""

    @property
    def unchanged(self) -> int:
        return self.pinned - len(self.changed) - len(self.failed)

    @property
    def other_winners(self) -> int:
        return sum(1 for g in self.changed if "winners" in g.changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "old": self.old.model_dump(), "new": self.new.model_dump(),
            "pinned": self.pinned, "changed": len(self.changed), "unchanged": self.unchanged,
            "other_winners": self.other_winners, "more_problems": len(self.more_problems), "diverged": self.diverged,
            "games": [g.to_json() for g in self.changed],
            "more_problems_games": [{"game_id": g, "old": a, "new": b} for g, (a, b) in self.more_problems.items()],
            "failed": self.failed,
        }

    def to_text(self) -> str:
        """The report for people: the counts, then each changed game and where its replays part."""
        return _text(self)


class _Trace(Observer):
    """The state hash and the turn after every event of one replay."""

    def __init__(self, views: Views[Any]) -> None:
        self.views = views
        self.hashes: list[str] = []
        self.turns: list[int | None] = []

    def after(self, step: Step) -> None:
        self.hashes.append(self.views.state_hash(step.state))
        self.turns.append(step.position.turn)


def first_difference(a: list[str], b: list[str]) -> int | None:
    """The first index where two traces differ (a shorter one differs where it stops); None if equal."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def pinned_to(archive: Archive, game: AnyGame, pack: RulesPack) -> set[str]:
    """The archived games of ``game``'s kind whose start event pins exactly ``pack``."""
    key = pin_key(pack.pin)
    return {g for g, (kind, pin) in archive.pins().items() if kind == game.kind and pin_key(pin) == key}


def impact(archive: Archive, game: AnyGame, old: RulesPack, new: RulesPack,
           progress: Callable[[int], None] | None = None, total: Callable[[int], None] | None = None) -> ImpactReport:
    """Replay every game pinned to ``old`` under ``old`` and under ``new``; report what changes."""
    for name, pack in (("OLD", old), ("NEW", new)):
        if not isinstance(pack, game.pack_model):
            raise ReplayError(f"{name} ({pack.id} {pack.version}) is not a {game.title} rules pack")
    if old.content_hash == new.content_hash:
        raise ReplayError(f"OLD and NEW are the same pack ({old.content_hash}): there is nothing to compare")
    report = ImpactReport(game.kind, old.pin, new.pin)
    ids = pinned_to(archive, game, old)
    streams = {g: s for g, s in archive.snapshot().streams.items() if g in ids}
    report.pinned = len(streams)
    if total:
        total(len(streams))
    as_played = archive.library(game.kind, [old])
    corrected = Substituted(archive.library(game.kind, [old]), old, new)
    for events in iter_games(archive, game, streams):
        try:
            _compare(report, game, events, as_played, corrected)
        except Exception as exc:  # a bug in a game's views: name the game, compare the others
            report.failed[events[0].game_id] = f"{type(exc).__name__}: {exc}"
        if progress:
            progress(1)
    report.changed.sort(key=lambda g: g.game_id)
    report.more_problems = dict(sorted(report.more_problems.items()))
    report.failed = dict(sorted(report.failed.items()))
    return report


def _compare(report: ImpactReport, game: AnyGame, events: list[Event], as_played: PackLibrary,
             corrected: PackLibrary) -> None:
    runs = []
    for library in (as_played, corrected):
        trace = _Trace(game.views)
        replay: Replay[Any] = Replay(game, library, observers=[trace]).run(events)
        replay.finish()
        runs.append((replay, trace, Outcome.of(replay)))
    (before, old_trace, old), (_, new_trace, new) = runs
    game_id = events[0].game_id
    if new.problems > old.problems:
        report.more_problems[game_id] = (old.problems, new.problems)
    first = first_difference(old_trace.hashes, new_trace.hashes)
    if first is not None:
        report.diverged += 1
    changed = changes(old, new)
    if not changed:
        return
    divergence = None
    if first is not None:
        turns = old_trace.turns if first < len(old_trace.turns) else new_trace.turns
        divergence = Divergence(first, turns[first] if first < len(turns) else None,
                                game.views.headline(events[first], before.names))
    report.changed.append(GameImpact(game_id, tuple(before.names), tuple(changed), old, new, divergence))


# ----------------------------------------------------------------------------- text


def _pin(pin: RulesetPin) -> str:
    return f"{pin.id} {pin.version} ({pin.content_hash[:19]}…)"


def _seats(names: Iterable[str], old: tuple[Any, ...], new: tuple[Any, ...], show: Callable[[Any, Any], str]) -> str:
    return "; ".join(f"{name} {show(a, b)}" for name, a, b in zip(names, old, new))


def _arrow(a: Any, b: Any) -> str:
    return f"{a}" if a == b else f"{a} -> {b}"


def _score(a: tuple[int, dict[str, int]], b: tuple[int, dict[str, int]]) -> str:
    cats = [f"{c} {_arrow(a[1].get(c, 0), b[1].get(c, 0))}" for c in dict.fromkeys([*a[1], *b[1]])
            if a[1].get(c, 0) != b[1].get(c, 0)]
    return _arrow(a[0], b[0]) + (f" ({', '.join(cats)})" if cats else "")


def _winners(names: tuple[str, ...], seats: tuple[int, ...]) -> str:
    return ", ".join(names[s] if 0 <= s < len(names) else f"seat {s}" for s in seats) or "none"


SHOWN = 20


def _text(report: ImpactReport) -> str:
    lines = [f"rules impact on {report.kind}: {_pin(report.old)} -> {_pin(report.new)}",
             f"{report.pinned} game(s) pinned to {report.old.id} {report.old.version} ({report.old.content_hash})"]
    if not report.pinned:
        lines.append("nothing to compare: no archived game is pinned to OLD (its id, version and content hash)")
        return "\n".join(lines) + "\n"
    lines += [
        f"  {len(report.changed)} with a changed result ({report.other_winners} with other winners), "
        f"{report.unchanged} unchanged",
        f"  {len(report.more_problems)} with more problems under NEW",
        f"  {report.diverged} whose replays differ at some event",
    ]
    if report.failed:
        lines.append(f"  {len(report.failed)} could not be compared:")
        lines += [f"    {g}: {why}" for g, why in report.failed.items()]
    for g in report.changed:
        lines += ["", f"{g.game_id}: {', '.join(g.changes)}"]
        if not (g.old.playable and g.new.playable):
            lines.append(f"  playable: {_arrow(g.old.playable, g.new.playable)}")
        if "finished" in g.changes:
            lines.append(f"  finished: {_arrow(g.old.finished, g.new.finished)}")
        if "winners" in g.changes:
            lines.append(f"  winners:  {_winners(g.names, g.old.winners)} -> {_winners(g.names, g.new.winners)}")
        if g.old.scores and g.new.scores:
            lines.append("  scores:   " + _seats(g.names, tuple(zip(g.old.scores, g.old.categories)),
                                                  tuple(zip(g.new.scores, g.new.categories)), _score))
        if "ranking" in g.changes and g.old.ranks and g.new.ranks:
            lines.append("  ranks:    " + _seats(g.names, g.old.ranks, g.new.ranks, _arrow))
        lines.append(f"  problems: {_arrow(g.old.problems, g.new.problems)}")
        if g.divergence is None:
            lines.append("  the replays' states never differ: the result reads the pack directly")
        else:
            d = g.divergence
            said = d.turn is None or d.headline.startswith(f"turn {d.turn} ")  # the headline may name it
            turn = "" if said else f", turn {d.turn}"
            lines.append(f"  first divergent event: {d.index}{turn}: {d.headline}")
    others = [g for g in report.more_problems if g not in {c.game_id for c in report.changed}]
    if others:
        shown = ", ".join(f"{g} ({report.more_problems[g][0]} -> {report.more_problems[g][1]})" for g in others[:SHOWN])
        more = f", and {len(others) - SHOWN} more (--format json lists them all)" if len(others) > SHOWN else ""
        lines += ["", f"same result, more problems under NEW: {shown}{more}"]
    return "\n".join(lines) + "\n"
