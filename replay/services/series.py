"""The data behind the plots (``replay plot``) and the page's score chart, as plain values.

Nothing here draws: :mod:`replay.plots` draws these with matplotlib, and the page of one game
embeds :func:`score_progression` as data.

* one game: :func:`score_progression` replays it through the driver and takes the standing
  after every event from the game's own ``Views.result`` (which gives totals for an
  unfinished game too), with each event's turn and round from ``Rules.position``;
* an archive: :func:`final_scores`, :func:`game_lengths` and :func:`dice_residuals` run named
  queries (``replay query --name ...``) over the derived tables ``replay project`` writes. A
  game offers a plot of an archive by shipping the named query it reads (``final_scores``,
  ``dice_residuals``), so the core names no game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pyarrow as pa

from ..analytics.project import coverage
from ..analytics.sql import all_queries, ask, find_query, freshness
from ..archive import Archive
from ..contract import AnyGame, Observer, Step
from ..driver import Replay
from ..errors import ReplayError
from ..events import Event
from ..packs import PackLibrary, RulesPack
from ..registry import GameRegistry
from .logs import load_log

T = TypeVar("T")

# ----------------------------------------------------------------------------- one game


@dataclass(frozen=True, slots=True)
class ScorePoint:
    """The standing after one event."""

    index: int
    """The event's index in the game (0: the start event)."""
    seq: int
    turn: int | None
    round: int | None
    totals: tuple[int, ...]
    """Each seat's total, by seat."""
    problems: int = 0
    """Problems the replay found at this event (a refused event changes no total)."""

    @property
    def label(self) -> str:
        """Where the event belongs, in words: ``round 2, turn 7``, ``turn 7`` or ``start``."""
        parts = [f"{unit} {n}" for unit, n in (("round", self.round), ("turn", self.turn)) if n is not None]
        return ", ".join(parts) or ("start" if self.index == 0 else f"event {self.index}")


@dataclass(frozen=True, slots=True)
class ScoreSeries:
    """Every seat's total after every event of one game."""

    kind: str
    title: str
    game_id: str
    names: tuple[str, ...]
    """Seat names, by seat."""
    points: tuple[ScorePoint, ...]
    """One per event replayed, in order (the first: the start event)."""
    finished: bool
    """Whether the game is over after its last event (else the last point is the standing so far)."""

    def totals(self, seat: int) -> list[int]:
        """One seat's total after each event."""
        return [p.totals[seat] for p in self.points]

    @property
    def unit(self) -> str | None:
        """What the game is divided into for navigation: ``round`` where events have rounds,
        else ``turn`` where they have turns, else None."""
        if any(p.round is not None for p in self.points):
            return "round"
        if any(p.turn is not None for p in self.points):
            return "turn"
        return None

    def boundaries(self, unit: str | None = None) -> list[tuple[int, int]]:
        """(event index, number) of the first event of each round or turn (``unit``; default :attr:`unit`)."""
        unit = unit or self.unit
        if unit is None:
            return []
        out: list[tuple[int, int]] = []
        for p in self.points:
            n = p.round if unit == "round" else p.turn
            if n is not None and (not out or out[-1][1] != n):
                out.append((p.index, n))
        return out


class _Standing(Observer):
    def __init__(self, game: AnyGame) -> None:
        self.views = game.views
        self.points: list[ScorePoint] = []

    def after(self, step: Step) -> None:
        result = self.views.result(step.state)
        if result is None:
            raise ReplayError(f"a {step.event.kind} game gives no scores (its views have no result)")
        totals = [0] * len(result.scores)
        for score in result.scores:
            totals[score.seat] = score.total
        self.points.append(ScorePoint(step.index, step.event.seq, step.position.turn, step.position.round, tuple(totals),
                                      len(step.problems)))


def score_progression(game: AnyGame, events: Sequence[Event], library: PackLibrary | None = None) -> ScoreSeries:
    """Every seat's total after every event of one game, replayed through the driver.

    ``game`` is the game's plug-in (``registry.get(kind)``), ``events`` its events from the start
    event on, and ``library`` where its pinned rules pack is found (``Log.library(packs)`` for a
    log loaded by :func:`replay.services.logs.load_log`; default: the packs the game ships). The
    replay is lenient, as ``replay step``'s: an illegal event is counted in its point's
    ``problems`` and changes nothing. The totals are the game's ``Views.result`` after each
    event, so the last point is the game's result (or, unfinished, its standing); each point
    has its event's turn and round from ``Rules.position``.

    Raises :class:`ReplayError` when there are no events, when the game cannot be started (its
    pack is missing, its start event is unplayable), or when the game gives no scores."""
    if not events:
        raise ReplayError("no events to plot")
    standing = _Standing(game)
    replay = Replay(game, library, observers=[standing]).run(events)
    if replay.state is None:
        raise ReplayError(f"{events[0].game_id}: the game cannot be replayed: {replay.unplayable}")
    state = replay.finish()
    result = game.views.result(state)
    return ScoreSeries(game.kind, game.title, replay.game_id, tuple(replay.names), tuple(standing.points),
                       bool(result and result.finished))


def game_progression(spec: str, archive: Archive | Path | None, kind: str | None = None,
                     packs: Iterable[RulesPack] = ()) -> ScoreSeries:
    """:func:`score_progression` of a game by id in the archive, or of a file (JSON Lines or notation;
    ``kind`` for a notation without a [Kind] tag), with ``packs`` besides the shipped and archived ones."""
    log = load_log(spec, archive, kind)
    return score_progression(log.game, log.events, log.library(packs))


# ----------------------------------------------------------------------------- an archive


@dataclass(frozen=True, slots=True)
class FinalScore:
    """One seat's final total in one finished game, with its group (a city, a strategy)."""

    group: str
    players: int
    game_id: str
    seat: int
    total: int
    won: bool


@dataclass(frozen=True, slots=True)
class FinalScores:
    """The final totals of a kind's finished games, each seat's with its group."""

    kind: str
    title: str
    group_by: str
    """What the groups are (the query's first column: ``city``, ``strategy``)."""
    rows: tuple[FinalScore, ...]
    notes: tuple[str, ...] = ()
    """Where the derived tables are behind the archive (as ``replay query`` notes it)."""

    def groups(self) -> dict[str, list[int]]:
        """Group -> its totals, the groups by name."""
        return {g: [r.total for r in rows] for g, rows in _grouped(sorted(self.rows, key=lambda r: r.group),
                                                                    lambda r: r.group).items()}


@dataclass(frozen=True, slots=True)
class GameLength:
    kind: str
    players: int
    game_id: str
    events: int
    turns: int


@dataclass(frozen=True, slots=True)
class GameLengths:
    rows: tuple[GameLength, ...]
    notes: tuple[str, ...] = ()

    def by_kind(self, measure: str) -> dict[str, dict[int, list[int]]]:
        """Kind -> player count -> ``measure`` (``events`` or ``turns``) of each game."""
        out: dict[str, dict[int, list[int]]] = {}
        for r in self.rows:
            out.setdefault(r.kind, {}).setdefault(r.players, []).append(getattr(r, measure))
        return out


@dataclass(frozen=True, slots=True)
class DiceResidual:
    colour: str
    face: str
    observed: int
    expected: float
    residual: float
    """(observed - expected) / sqrt(expected): about -2..2 for a fair die."""


@dataclass(frozen=True, slots=True)
class DiceResiduals:
    """Every face of every die colour of a kind, against a fair die (``notes``: as :class:`FinalScores`')."""

    kind: str
    title: str
    rows: tuple[DiceResidual, ...]
    notes: tuple[str, ...] = ()

    def by_colour(self) -> dict[str, list[DiceResidual]]:
        """Colour -> its faces, in the query's order."""
        return _grouped(self.rows, lambda r: r.colour)


def _grouped(items: Iterable[T], key: Callable[[T], str]) -> dict[str, list[T]]:
    out: dict[str, list[T]] = {}
    for item in items:
        out.setdefault(key(item), []).append(item)
    return out


FINAL_SCORES = "final_scores"
"""The named query a game ships to offer ``replay plot final-scores``: its first column the group."""
DICE_RESIDUALS = "dice_residuals"
"""The named query a game ships to offer ``replay plot dice``."""
GAME_LENGTHS = "game_lengths"
"""The cross-kind named query of ``replay plot lengths``."""


def kinds_with(registry: GameRegistry, query: str) -> list[AnyGame]:
    """The installed games that ship the named query ``query`` (and so offer its plot)."""
    return [g for g in registry.games() if g.analytics is not None and query in g.analytics.queries()]


def require_query(registry: GameRegistry, game: AnyGame, query: str, plot: str) -> str:
    """``game``'s SQL schema if it ships the named query ``query``; else an error naming the kinds
    that do (``plot``: the plot that needs it, for the message)."""
    analytics = game.analytics
    if analytics is None or query not in analytics.queries():
        offered = ", ".join(g.kind for g in kinds_with(registry, query)) or "none installed"
        raise ReplayError(f"{game.title} has no {plot} plot; the kinds that have it: {offered}")
    return analytics.schema


def final_scores(archive: Archive, game: AnyGame, players: int | None = None) -> FinalScores:
    """Each seat's final total in every finished, projected game of ``game``'s kind, with its group
    (the game's named query ``final_scores``); ``players``: only games of that many players."""
    table, notes = _ask(archive, game, FINAL_SCORES, "final-scores")
    group_by = table.column_names[0]
    rows = tuple(FinalScore(str(r[group_by]), r["players"], r["game_id"], r["seat"], r["total"], bool(r["won"]))
                 for r in table.to_pylist() if players is None or r["players"] == players)
    return FinalScores(game.kind, game.title, group_by, rows, notes)


def dice_residuals(archive: Archive, game: AnyGame) -> DiceResiduals:
    """Per die colour and face, the rolls against a fair die's (the game's named query ``dice_residuals``)."""
    table, notes = _ask(archive, game, DICE_RESIDUALS, "dice")
    rows = tuple(DiceResidual(r["colour"], r["face"], r["observed"], float(r["expected"]), float(r["residual"]))
                 for r in table.to_pylist())
    return DiceResiduals(game.kind, game.title, rows, notes)


def game_lengths(archive: Archive, game: AnyGame | None = None) -> GameLengths:
    """Events and turns of every finished, projected game (of ``game``'s kind, else of every kind)."""
    if game is not None:
        _check_projected(archive, game)
    else:  # every kind: it is enough that one has projected games (the notes name those behind)
        kinds = [g for g in archive.registry.games() if coverage(archive, g).games]
        if not kinds:
            raise ReplayError(f"the archive {archive.base} holds no games yet: add some with `replay simulate` "
                              "or `replay import`")
        if not any(coverage(archive, g).projected for g in kinds):
            _check_projected(archive, kinds[0])  # says why
    query = find_query(all_queries(archive.registry), GAME_LENGTHS)
    table = ask(archive, query, {"kind": game.kind if game is not None else "all"})
    rows = tuple(GameLength(r["kind"], r["players"], r["game_id"], r["events"], r["turns"]) for r in table.to_pylist())
    return GameLengths(rows, tuple(freshness(archive, query.sql)))


def _ask(archive: Archive, game: AnyGame, name: str, plot: str) -> tuple[pa.Table, tuple[str, ...]]:
    """The answer of ``game``'s named query ``name``, once its derived tables are there to read."""
    schema = require_query(archive.registry, game, name, plot)
    _check_projected(archive, game)
    query = find_query(all_queries(archive.registry), f"{schema}.{name}")
    return ask(archive, query), tuple(freshness(archive, query.sql))


def _check_projected(archive: Archive, game: AnyGame) -> None:
    """A clear error where ``game``'s derived tables cannot answer: no games, none projected, an old layout."""
    c = coverage(archive, game)
    if not c.games:
        raise ReplayError(f"the archive {archive.base} holds no {game.kind} games")
    if c.stale:
        raise ReplayError(f"{game.kind}: the derived tables are of an older layout; run `replay project` to rebuild them")
    if not c.projected and c.live and not c.behind:
        raise ReplayError(f"{game.kind}: no game has finished yet ({c.live} in progress); the plots count finished games")
    if not c.projected:
        raise ReplayError(f"{game.kind}: no finished game is projected yet: run `replay project` first")
