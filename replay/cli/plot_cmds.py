"""``replay plot``: one game's score progression, and an archive's final scores, game lengths and dice.

The data comes from :mod:`replay.services.series`, the drawing from :mod:`replay.plots.draw`
(matplotlib, imported only here, after checking it is installed). A plot file appears whole
or not at all (:func:`replay.cli.output.output_path`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..archive import Archive
from ..contract import AnyGame
from ..errors import UnknownGameKind
from ..plots import INSTALL, PLOTS, matplotlib_version, plot_format, require_matplotlib
from ..registry import registry
from ..services import series
from ..services.packs import load_files
from .options import archive_option, reading_archive_option, ruleset_option
from .output import output_path

if TYPE_CHECKING:
    from matplotlib.figure import Figure

F = TypeVar("F", bound=Callable[..., Any])


@click.group(name="plot")
def plot() -> None:
    """Draw a plot of one game or of an archive, as PNG or SVG (by the -o file's extension).

    \b
    The plots (`replay plot list` says which game kinds have each):
      replay plot scores GAME -o scores.svg      each seat's score after every event of one game
      replay plot final-scores --game 7wonders-dice -o final.png
                                                 final scores by city (by strategy for flip7)
      replay plot lengths -o lengths.png         game length by player count, every kind
      replay plot dice -o dice.svg               7 Wonders Dice: each face against a fair die

    The plots of an archive read its derived tables: run `replay project` first.
    Needs matplotlib: pip install 'boardgame-replay[plot]'.
    """


def _output(default: str) -> Callable[[F], F]:
    return click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
                        help=f"the file to write: .png or .svg  [default: {default}]")


def _start(output: Path) -> str:
    """What every plot checks before any work: matplotlib is there, the file is .png or .svg."""
    fmt = plot_format(output)
    require_matplotlib()
    return fmt


def _save(fig: Figure, output: Path, fmt: str, what: str, notes: tuple[str, ...] = ()) -> None:
    from ..plots.draw import write

    for note in notes:
        click.echo(f"note: {note}", err=True)
    with output_path(output) as tmp:
        write(fig, tmp, fmt)
    click.echo(f"wrote {output}: {what}")


def _kind(name: str | None, plot_name: str) -> AnyGame:
    """The game of ``--game`` (a kind, or its SQL schema: ``wonders_dice``), or the only kind with the plot."""
    meta = next(p for p in PLOTS if p.name == plot_name)
    if name is None:
        having = meta.kinds(registry)
        if len(having) == 1:
            return registry.get(having[0])
        raise click.UsageError(f"which game? give --game KIND: {' or '.join(having) or 'no installed kind has it'}")
    try:
        game = registry.get(name)
    except UnknownGameKind:
        found = [g for g in registry.games() if g.analytics is not None and g.analytics.schema == name]
        if not found:
            raise
        game = found[0]
    if meta.query is not None:
        series.require_query(registry, game, meta.query, plot_name)
    return game


kind_option = click.option("--game", "--kind", "kind", metavar="KIND",
                           help="the game kind (see `replay kinds`; its SQL schema name works too)")


@plot.command(name="list")
def list_() -> None:
    """The plots, what each shows, the game kinds that have it, and an example.

    \b
    Example:
      replay plot list
    """
    for p in PLOTS:
        click.echo(f"{p.name}\n    {p.what}\n    kinds: {', '.join(p.kinds(registry))}\n    example: {p.example}")
    version = matplotlib_version()
    click.echo(f"matplotlib {version} draws them" if version else f"matplotlib is not installed: {INSTALL}")


@plot.command()
@click.argument("game")
@_output("scores-GAME.png")
@ruleset_option
@click.option("--game", "kind", help="the game of a notation file without a [Kind] tag")
@archive_option
def scores(game: str, output: Path | None, ruleset_files: tuple[Path, ...], kind: str | None, archive_path: Path) -> None:
    """Each seat's score after every event of one game, the turns or rounds marked.

    GAME is a game id in the archive, or a file: JSON Lines (.jsonl) or notation.
    Any kind: the score is the game's own standing after each event (its result
    when it is over). Events where the audit found a problem are marked x.

    \b
    Example:
      replay plot scores 7wonders-dice-s1-000003 -o scores.svg
      replay plot scores my-game.txt -o my-game.png
    """
    out = output or Path(f"scores-{Path(game).stem if Path(game).exists() else game}.png")
    fmt = _start(out)
    from ..plots.draw import draw_scores

    data = series.game_progression(game, archive_path, kind, load_files(ruleset_files))
    last = data.points[-1]
    _save(draw_scores(data), out, fmt, f"{len(data.names)} seats over {len(data.points)} events "
                                      f"({', '.join(f'{n} {t}' for n, t in zip(data.names, last.totals))})")


@plot.command(name="final-scores")
@kind_option
@click.option("--players", type=click.IntRange(1), help="only games of this many players")
@_output("final-scores-KIND.png")
@reading_archive_option
def final_scores(kind: str | None, players: int | None, output: Path | None, archive_path: Path | str) -> None:
    """The spread of final scores by group over the archive's finished games.

    The groups are the game's: city for 7 Wonders Dice, strategy (the bot) for
    Flip 7 (its named query final_scores). A box per group: the middle half of
    the scores, the median, the mean (a diamond), how many seats.

    \b
    Example:
      replay plot final-scores --game 7wonders-dice -o final-scores.png
      replay plot final-scores --game flip7 --players 4 -o flip7-4p.svg
    """
    game = _kind(kind, "final-scores")
    out = output or Path(f"final-scores-{game.kind}.png")
    fmt = _start(out)
    from ..plots.draw import draw_final_scores

    data = series.final_scores(Archive.for_reading(archive_path), game, players)
    if not data.rows:
        raise click.ClickException(f"no finished {game.kind} game" + (f" of {players} players" if players else "")
                                   + " is projected")
    _save(draw_final_scores(data, players), out, fmt,
          f"{len(data.rows)} final scores in {len(data.groups())} {data.group_by} groups", data.notes)


@plot.command()
@kind_option
@click.option("--by", "measure", type=click.Choice(["events", "turns"]), default="events", show_default=True,
              help="count a game's length in events or in turns")
@_output("lengths.png")
@reading_archive_option
def lengths(kind: str | None, measure: str, output: Path | None, archive_path: Path | str) -> None:
    """Game length by player count over the archive's finished games: a panel per kind.

    \b
    Example:
      replay plot lengths -o lengths.png
      replay plot lengths --game pig --by turns -o pig-turns.svg
    """
    game = _kind(kind, "lengths") if kind else None
    out = output or Path("lengths.png")
    fmt = _start(out)
    from ..plots.draw import draw_lengths

    data = series.game_lengths(Archive.for_reading(archive_path), game)
    if not data.rows:
        raise click.ClickException("no finished game is projected")
    kinds = sorted({r.kind for r in data.rows})
    _save(draw_lengths(data, measure), out, fmt, f"{len(data.rows)} games of {', '.join(kinds)}", data.notes)


@plot.command()
@kind_option
@_output("dice.png")
@reading_archive_option
def dice(kind: str | None, output: Path | None, archive_path: Path | str) -> None:
    """Are the dice fair? Each face's count against a fair die's, per colour (7 Wonders Dice).

    A bar per face: (observed - expected) / sqrt(expected), the Pearson residual.
    For fair dice most bars stay inside the grey band (±1.96); the sum of the
    squares per colour is the chi-square of `replay query --name dice_fairness`.

    \b
    Example:
      replay plot dice -o dice.svg
    """
    game = _kind(kind, "dice")
    out = output or Path("dice.png")
    fmt = _start(out)
    from ..plots.draw import draw_dice

    data = series.dice_residuals(Archive.for_reading(archive_path), game)
    _save(draw_dice(data), out, fmt, f"{sum(r.observed for r in data.rows)} faces rolled, "
                                     f"{len(data.by_colour())} colours", data.notes)
