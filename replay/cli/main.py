"""``replay``: the command line.

Every command that touches an archive takes ``--archive/-a``; without it,
``$REPLAY_ARCHIVE``, else ``./archive``. Errors the tool expects (bad input, a
damaged archive, a concurrent writer, a game without a notation) print one clear
message and exit 1; usage errors exit 2. The commands only parse and print: the
work is in :mod:`replay.services` and :mod:`replay.analytics`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .. import __version__
from ..archive import Archive
from ..errors import ReplayError
from ..registry import registry
from ..tables import render
from .options import default_archive
from .output import write_text


class _Group(click.Group):
    """Turns the tool's own errors into a one-line message and exit status 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ReplayError as exc:
            raise click.ClickException(str(exc)) from exc


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="replay")
def cli() -> None:
    """Replay, audit and query recorded board games.

    Games are append-only logs of events kept in an archive of Parquet files.

    \b
    Start here:
      replay demo                          simulate games of every kind and tour the archive
      replay init                          create ./archive (or $REPLAY_ARCHIVE)
      replay kinds                         the installed games and what each offers
      replay simulate --game pig --games 100     add simulated games
      replay import game.txt               add a typed game (notation) or JSON Lines
      replay games                         list the games
      replay audit GAME_OR_FILE            every rule problem, where and why
      replay step GAME                     walk through a game, forward and back
      replay view GAME                     write its replay page (HTML, opens from disk)
      replay bundle GAME -o dispute.zip    events, notation, rules pack, audit and page in one file
      replay plot scores GAME -o s.svg     score progression; also final-scores, lengths, dice
      replay project && replay query --list      SQL over all the games
      replay verify                        check files, checksums, streams, hash chains, packs
      replay regress                       after an upgrade: do the projected games still end the same?
    """


@cli.command()
@click.argument("path", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--archive", "-a", "archive_path", type=click.Path(file_okay=False, path_type=Path),
              help="the directory to create (the same as PATH)")
def init(path: Path | None, archive_path: Path | None) -> None:
    """Create an empty archive in PATH (or --archive); default $REPLAY_ARCHIVE, else ./archive.

    \b
    Example:
      replay init ~/games/archive
      replay init -a ./club
    """
    if path and archive_path and path != archive_path:
        raise click.UsageError("give the directory once: PATH or --archive")
    target = path or archive_path or default_archive()
    Archive.init(target)
    click.echo(f"created an empty archive in {target}")


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def kinds(fmt: str) -> None:
    """List the installed games: players, what each offers (notation, derived tables, bots), and the
    packs a new game may be played under (the default first; `replay rules list` shows every pack).

    \b
    Example:
      replay kinds --format json
    """
    rows = []
    for game in registry.games():
        rows.append({
            "kind": game.kind, "title": game.title, "players": f"{game.players[0]}-{game.players[1]}",
            "offers": game.offers(), "bots": list(game.bots.names) if game.bots else [],
            "sql schema": game.analytics.schema if game.analytics else None, "packs": list(game.playable_packs()),
            "event types": list(game.models),
        })
    columns = ["kind", "title", "players", "offers", "bots", "sql schema", "packs", "event types"]
    click.echo(render(rows, columns, fmt, max_width=70), nl=False)


@cli.command()
@click.option("--write", "write_dir", type=click.Path(file_okay=False, path_type=Path),
              help="write the schemas into this directory")
@click.option("--check", "check_dir", type=click.Path(file_okay=False, path_type=Path),
              help="exit 1 if the schemas in this directory are out of date")
def schema(write_dir: Path | None, check_dir: Path | None) -> None:
    """Print (or write, or check) every game kind's event schemas.

    For each kind: KIND.events.schema.json (JSON Schema of a JSON Lines record)
    and KIND.arrow.txt (the Parquet columns).

    \b
    Example:
      replay schema --check schemas/
    """
    from ..schema_files import schema_files

    files = schema_files(registry)
    if write_dir:
        try:
            write_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise click.ClickException(f"cannot create {write_dir}: {exc.strerror}") from exc
        for name, text in files.items():
            write_text(write_dir / name, text)
        click.echo(f"wrote {len(files)} files to {write_dir}")
    elif check_dir:
        stale = [n for n, text in files.items() if not (check_dir / n).is_file() or (check_dir / n).read_text() != text]
        if stale:
            raise click.ClickException(f"out of date in {check_dir}: {', '.join(stale)}; run `replay schema --write {check_dir}`")
        click.echo(f"{len(files)} schema files in {check_dir} are up to date")
    else:
        for name, text in files.items():
            click.echo(f"==> {name} <==\n{text}")


@cli.command()
@click.option("--archive", "-a", "archive_path", type=click.Path(file_okay=False, path_type=Path),
              help="keep the demo archive here (a new directory; default: a temporary one)")
@click.option("--games", "n_games", type=click.IntRange(1, 100_000), default=12, show_default=True,
              help="games per kind")
@click.option("--seed", type=int, default=7, show_default=True, help="same seed, same games")
@click.option("--game", "kinds", multiple=True, help="only this kind (repeatable; default: every kind with bots)")
def demo(archive_path: Path | None, n_games: int, seed: int, kinds: tuple[str, ...]) -> None:
    """Simulate games into a fresh archive and walk through what the tool can do.

    \b
    Example:
      replay demo --games 50 --archive ./demo-archive
    """
    from ..demo import run_demo

    run_demo(archive_path, n_games, seed, click.echo, list(kinds))


from .analytics_cmds import project, query, regress, stats  # noqa: E402
from .archive_cmds import compact_, events, export, games, import_, verify_  # noqa: E402
from .games_cmds import rules, simulate  # noqa: E402
from .plot_cmds import plot  # noqa: E402
from .review_cmds import audit, diff, show, step  # noqa: E402
from .view_cmds import bundle, view  # noqa: E402

for command in (import_, export, games, events, verify_, compact_, simulate, rules, audit, show, step, diff,
                view, bundle, project, query, stats, regress, plot):
    cli.add_command(command)


def main() -> None:  # pragma: no cover - console entry
    cli()
