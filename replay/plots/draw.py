"""The plots, drawn with matplotlib (the Agg canvas: no display, no pyplot state).

Each ``draw_*`` takes the plain data of :mod:`replay.services.series` and returns a
:class:`~matplotlib.figure.Figure`; :func:`write` saves one as PNG or SVG. The same data
gives the same bytes: the SVG carries no date and a fixed hash salt for its ids, the PNG
no software version. The lines, boxes and bars carry ids (``seat-0``, ``group-giza``,
``die-red-axe``) that an SVG keeps, for tests and for styling.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..services.series import DiceResiduals, FinalScores, GameLengths, ScoreSeries

MAX_TOP_LABELS = 24
"""Turn or round numbers written along the top of a score plot before they are thinned out."""
DIE_COLOURS = {"grey": "0.6", "black": "0.15", "white": "0.97", "red": "#c0392b", "blue": "#2e6fbd",
               "yellow": "#e0b000", "green": "#2e8b57", "purple": "#7d3c98"}
FAIR = 1.96
"""A fair die's residuals stay within about ±1.96 (95%) when there are many rolls."""


@contextmanager
def style() -> Iterator[None]:
    """The plots' settings, for drawing and for writing (the SVG's hash salt is read when it is written)."""
    with matplotlib.rc_context({
        "svg.hashsalt": "replay",  # the ids of clip paths and glyphs: fixed, so the same data gives the same SVG
        "svg.fonttype": "path", "font.size": 9.0, "axes.spines.top": False, "axes.spines.right": False,
        "axes.grid": True, "grid.color": "0.92", "grid.linewidth": 0.6,
    }):
        yield


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def write(fig: Figure, path: Path, fmt: str) -> None:
    """Save ``fig`` to ``path`` as ``fmt`` (``png`` or ``svg``), reproducibly."""
    with style():
        if fmt == "svg":
            fig.savefig(path, format="svg", metadata={"Date": None})
        else:
            fig.savefig(path, format="png", dpi=120, metadata={"Software": None})


# ----------------------------------------------------------------------------- one game


def draw_scores(series: ScoreSeries) -> Figure:
    """Each seat's total after every event (a step line per seat), the turns or rounds along the top."""
    with style():
        fig = _figure(9.0, 4.8)
        ax = fig.add_subplot()
        if len(series.names) > 10:
            cmap = matplotlib.colormaps["tab20"]
            ax.set_prop_cycle(color=[cmap(i % 20) for i in range(len(series.names))])
        x = [p.index for p in series.points]
        for seat, name in enumerate(series.names):
            ax.step(x, series.totals(seat), where="post", label=name, gid=f"seat-{seat}", linewidth=1.6)
        problems = [p.index for p in series.points if p.problems]
        if problems:
            ax.plot(problems, [0] * len(problems), "x", color="#c0392b", markersize=6, clip_on=False,
                    label=f"problem ({len(problems)})", gid="problems")
        _boundaries(ax, series)
        ax.set_xlim(0, max(1, x[-1]))
        ax.set_ylim(bottom=min(0, *(min(p.totals) for p in series.points)))
        ax.set_xlabel("event")
        ax.grid(axis="x", visible=False)  # the turn or round lines instead
        ax.set_ylabel("score")
        state = "final" if series.finished else "unfinished: the standing after the last event"
        ax.set_title(f"{series.title} {series.game_id}: score after each event ({state})", loc="left")
        ax.legend(loc="upper left", ncols=1 + len(series.names) // 10, fontsize=8, frameon=False)
    return fig


def _boundaries(ax: Axes, series: ScoreSeries) -> None:
    """A faint line where each turn or round begins, numbered along the top (thinned when many)."""
    bounds = series.boundaries()
    if not bounds:
        return
    for index, _ in bounds:
        ax.axvline(index, color="0.85", linewidth=0.5, zorder=0)
    shown = bounds[::math.ceil(len(bounds) / MAX_TOP_LABELS)]
    top = ax.secondary_xaxis("top")
    top.set_xticks([i for i, _ in shown], labels=[str(n) for _, n in shown])
    top.tick_params(labelsize=7, length=2)
    top.set_xlabel(f"{series.unit} (where it begins)", fontsize=8)


# ----------------------------------------------------------------------------- an archive


def draw_final_scores(data: FinalScores, players: int | None = None) -> Figure:
    """A box of final totals per group (highest median first), its mean a diamond, its count below."""
    groups = data.groups()
    order = sorted(groups, key=lambda g: (-_median(groups[g]), g))
    with style():
        fig = _figure(max(6.0, 0.9 * len(order) + 2), 4.6)
        ax = fig.add_subplot()
        boxes = ax.boxplot([groups[g] for g in order], showmeans=True, patch_artist=True,
                           meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "0.2", "markersize": 4},
                           medianprops={"color": "0.1"}, flierprops={"markersize": 3})
        ax.set_xticks(range(1, len(order) + 1), labels=[f"{g}\nn={len(groups[g])}" for g in order])
        for g, box in zip(order, boxes["boxes"]):
            box.set_gid(f"group-{g}")
            box.set_facecolor("#9ecae1")
        games = len({r.game_id for r in data.rows})
        among = f", {players}-player games" if players else ""
        ax.set_title(f"{data.title}: final score by {data.group_by} ({len(data.rows)} seats in {games} finished games{among})",
                     loc="left")
        ax.set_ylabel("final score")
        ax.set_xlabel(data.group_by)
        ax.grid(axis="x", visible=False)
    return fig


def draw_lengths(data: GameLengths, measure: str = "events") -> Figure:
    """Per kind, a box of game lengths (``events`` or ``turns``) per player count."""
    kinds = data.by_kind(measure)
    cols = min(3, len(kinds))
    rows = math.ceil(len(kinds) / cols)
    with style():
        fig = _figure(4.2 * cols + 0.6, 3.6 * rows + 0.4)
        for i, (kind, by_players) in enumerate(sorted(kinds.items())):
            ax = fig.add_subplot(rows, cols, i + 1)
            counts = sorted(by_players)
            boxes = ax.boxplot([by_players[n] for n in counts], patch_artist=True,
                               medianprops={"color": "0.1"}, flierprops={"markersize": 3})
            ax.set_xticks(range(1, len(counts) + 1), labels=[str(n) for n in counts])
            for n, box in zip(counts, boxes["boxes"]):
                box.set_gid(f"length-{kind}-{n}")
                box.set_facecolor("#a1d99b")
            ax.set_title(f"{kind} ({sum(map(len, by_players.values()))} games)", loc="left")
            ax.set_xlabel("players")
            ax.set_ylabel(f"{measure} per game")
            ax.grid(axis="x", visible=False)
        fig.suptitle(f"Game length in {measure}, by player count (finished games)", x=0.01, ha="left")
    return fig


def draw_dice(data: DiceResiduals) -> Figure:
    """Per die colour, a bar per face: (observed - expected) / sqrt(expected), with the fair band."""
    by_colour = data.by_colour()
    cols = min(4, len(by_colour))
    rows = math.ceil(len(by_colour) / cols)
    limit = max(3.0, 1.1 * max((abs(r.residual) for r in data.rows), default=0.0))
    with style():
        fig = _figure(3.0 * cols + 0.4, 2.8 * rows + 0.6)
        for i, (colour, faces) in enumerate(by_colour.items()):
            ax = fig.add_subplot(rows, cols, i + 1)
            ax.axhspan(-FAIR, FAIR, color="0.94", zorder=0)
            ax.axhline(0, color="0.4", linewidth=0.6)
            bars = ax.bar(range(len(faces)), [f.residual for f in faces], color=DIE_COLOURS.get(colour, "0.5"),
                          edgecolor="0.3", linewidth=0.5)
            for face, bar in zip(faces, bars):
                bar.set_gid(f"die-{colour}-{face.face}")
            ax.set_xticks(range(len(faces)), labels=[f.face.replace("_", " ") for f in faces], rotation=40,
                          ha="right", fontsize=7)
            ax.set_ylim(-limit, limit)
            ax.set_title(f"{colour} ({sum(f.observed for f in faces)} rolls)", loc="left")
            ax.grid(axis="x", visible=False)
            if i % cols == 0:
                ax.set_ylabel("residual")
        fig.suptitle(f"{data.title}: each face against a fair die, (observed - expected) / sqrt(expected); "
                     f"the band: ±{FAIR}", x=0.01, ha="left")
    return fig


def _median(values: Sequence[int]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return float(ordered[mid]) if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
