"""``replay``: the command line.

Every command works on an archive: ``--archive`` if given, else the
``REPLAY_ARCHIVE`` environment variable, else ``./archive``. Errors the tool
expects (bad input, a damaged archive, a concurrent writer) print one clear
message and exit 1; usage errors exit 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from .. import __version__
from ..archive import Archive
from ..archive.compact import MAX_ROWS_PER_FILE, compact
from ..archive.verify import verify
from ..errors import ReplayError
from ..jsonl import dump_line, import_lines
from ..plugin import registry
from .options import archive_option, default_archive
from .output import format_option, render



class _Group(click.Group):
    """Turns the tool's own errors into a one-line message and exit status 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ReplayError as exc:
            raise click.ClickException(str(exc)) from exc


def _open(path: Path) -> Archive:
    return Archive(path)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="replay")
def cli() -> None:
    """Replay, audit and query recorded board games.

    Games are append-only logs of events kept in an archive of Parquet files.

    \b
    Start here:
      replay demo                      simulate a few games and walk through the archive
      replay init                      create ./archive (or $REPLAY_ARCHIVE)
      replay simulate --games 100      add simulated 7 Wonders Dice games
      replay import game.txt           add a typed game (notation) or JSON Lines
      replay games                     list the games
      replay audit GAME_OR_FILE        every rule problem, where and why
      replay step GAME                 walk through a game, forward and back
      replay project && replay query --list    SQL over all the games
      replay verify                    check files, checksums, streams, hash chains
    """


@cli.command()
@click.argument("path", required=False, type=click.Path(file_okay=False, path_type=Path))
def init(path: Path | None) -> None:
    """Create an empty archive.

    PATH defaults to $REPLAY_ARCHIVE, else ./archive.

    \b
    Example:
      replay init ~/games/archive
    """
    target = path or default_archive()
    Archive.init(target)
    click.echo(f"created an empty archive in {target}")


@cli.command(name="import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--allow-problems", is_flag=True, help="notation: archive a game even if its audit finds problems")
@archive_option
def import_(files: tuple[Path, ...], allow_problems: bool, archive_path: Path) -> None:
    """Add games from JSON Lines (.jsonl, - for standard input) or notation files.

    JSON Lines: one event per line, {"game_id", "seq", "kind", "type", "version",
    "payload"}. Each file is checked whole first; a file with any problem (bad JSON,
    unknown type, missing field, wrong type, a seq gap, events already in the
    archive) is rejected with every problem's line and field, and nothing of it is
    written. A file may continue games already in the archive from their next seq.

    Notation (any other file, see docs/notation.md): the game is read (every
    syntax problem with its line and column), audited, and archived only if the
    audit finds nothing wrong (or with --allow-problems).

    \b
    Example:
      replay import tournament.jsonl
      replay import typed-game.txt
      replay export g1 | replay import -a other-archive -
    """
    archive = _open(archive_path)
    for f in files:
        name = "<stdin>" if str(f) == "-" else str(f)
        if str(f) != "-" and f.suffix != ".jsonl":
            _import_notation(archive, f, allow_problems)
            continue
        if str(f) == "-":
            result = import_lines(archive, sys.stdin, source=name)
        else:
            size = f.stat().st_size
            with f.open(encoding="utf-8") as handle, click.progressbar(
                length=size, label=f"reading {name}", file=sys.stderr, show_eta=True
            ) as bar:
                result = import_lines(archive, handle, source=name, progress=lambda n: bar.update(n))
        click.echo(f"{name}: imported {result.events} events of {result.games} games (generation {result.generation})")


def _import_notation(archive: Archive, path: Path, allow_problems: bool) -> None:
    from ..archive import NEW_STREAM
    from .review_cmds import read_notation_file, run_audit

    log = read_notation_file(path)
    report = run_audit(log, [])
    if not report.ok and not allow_problems:
        click.echo(report.to_text(), nl=False)
        raise ReplayError(f"{path}: the audit found {len(report.findings)} problem(s); nothing was written "
                          "(use --allow-problems to archive it anyway)")
    archive.append(log.events[0].game_id, log.events, NEW_STREAM)
    verdict = "clean" if report.ok else f"{len(report.findings)} audit problem(s), archived anyway"
    click.echo(f"{path}: imported game {log.events[0].game_id}, {len(log.events)} events ({verdict})")


@cli.command()
@click.argument("game_ids", nargs=-1)
@click.option("--kind", help="only games of this kind")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "notation"]), default="jsonl", show_default=True,
              help="notation: one game, as people read and type it")
@click.option("--output", "-o", type=click.Path(dir_okay=False, allow_dash=True), default="-", help="file to write (default: standard output)")
@archive_option
def export(game_ids: tuple[str, ...], kind: str | None, fmt: str, output: str, archive_path: Path) -> None:
    """Write events as JSON Lines (the given games, or every game), or one game as notation.

    \b
    Example:
      replay export g1 g2 -o two-games.jsonl
      replay export --kind pig > all-pig.jsonl
      replay export g1 --format notation -o g1.txt
    """
    archive = _open(archive_path)
    if fmt == "notation":
        if len(game_ids) != 1:
            raise click.UsageError("--format notation writes one game: name exactly one GAME_ID")
        events = archive.read_game(game_ids[0])
        plugin = registry.get(events[0].kind)
        if plugin.write_notation is None:
            raise ReplayError(f"the {plugin.kind} plug-in has no notation")
        with click.open_file(output, "w", encoding="utf-8") as out:
            out.write(plugin.write_notation(events))
        return
    with click.open_file(output, "w", encoding="utf-8") as out:
        if game_ids:
            for g in game_ids:
                for e in archive.read_game(g):
                    out.write(dump_line(e))
        else:
            for e in sorted(archive.iter_events(kind), key=lambda e: (e.game_id, e.seq)):
                out.write(dump_line(e))


@cli.command()
@click.option("--kind", help="only games of this kind")
@click.option("--status", type=click.Choice(["finished", "in-progress"]), help="only finished or unfinished games")
@format_option()
@archive_option
def games(kind: str | None, status: str | None, fmt: str, archive_path: Path) -> None:
    """List the games: kind, players, length in events, status.

    \b
    Example:
      replay games --kind pig --status finished --format csv
    """
    rows = [
        {"game_id": g.game_id, "kind": g.kind, "players": list(g.players), "events": g.events, "status": g.status}
        for g in _open(archive_path).games()
        if (kind is None or g.kind == kind) and (status is None or g.status == status.replace("-", " "))
    ]
    click.echo(render(rows, ["game_id", "kind", "players", "events", "status"], fmt), nl=False)


@cli.command()
@click.argument("game_id")
@click.option("--type", "types", multiple=True, help="only events of this type (repeatable)")
@click.option("--from-seq", type=int, default=0, show_default=True, help="first seq shown")
@click.option("--to-seq", type=int, help="last seq shown")
@format_option(choices=("table", "json", "csv", "jsonl"))
@archive_option
def events(game_id: str, types: tuple[str, ...], from_seq: int, to_seq: int | None, fmt: str, archive_path: Path) -> None:
    """Show one game's events.

    \b
    Example:
      replay events g1 --type held --from-seq 10
      replay events g1 --format jsonl
    """
    selected = [
        e for e in _open(archive_path).read_game(game_id)
        if (not types or e.type in types) and e.seq >= from_seq and (to_seq is None or e.seq <= to_seq)
    ]
    if fmt == "jsonl":
        click.echo("".join(dump_line(e) for e in selected), nl=False)
        return
    rows = [{"seq": e.seq, "type": e.type, "version": e.version, "payload": e.payload} for e in selected]
    click.echo(render(rows, ["seq", "type", "version", "payload"], fmt, max_width=100), nl=False)


@cli.command(name="verify")
@click.option("--deep", is_flag=True, help="also validate every payload against its model (slower)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@archive_option
def verify_(deep: bool, fmt: str, archive_path: Path) -> None:
    """Check the archive: manifest, files, checksums, schema, seq gaps and duplicates.

    Every problem is named with its file, game and seq. Exit status 1 if there is
    any problem. Notes (leftovers of an interrupted write, which the next write
    removes) do not count as problems.

    \b
    Example:
      replay verify --deep
    """
    archive = _open(archive_path)
    files = len(archive.snapshot().files)
    with click.progressbar(length=files, label="verifying", file=sys.stderr) as bar:
        report = verify(archive, deep=deep, progress=bar.update)
    if fmt == "json":
        click.echo(json.dumps({
            "ok": report.ok, "generation": report.generation, "files": report.files, "games": report.games,
            "events": report.events,
            "problems": [p.__dict__ for p in report.problems], "notes": [n.__dict__ for n in report.notes],
        }, indent=2))
    else:
        for n in report.notes:
            click.echo(f"note: {n}")
        for p in report.problems:
            click.echo(f"problem: {p}")
        verdict = "OK" if report.ok else f"{len(report.problems)} problem(s)"
        click.echo(f"{verdict}: {report.files} files, {report.games} games, {report.events} events, generation {report.generation}")
    if not report.ok:
        sys.exit(1)


@cli.command(name="compact")
@click.option("--max-rows", type=click.IntRange(min=1), default=MAX_ROWS_PER_FILE, show_default=True,
              help="events per output file (about; a game is never split); also bounds memory")
@archive_option
def compact_(max_rows: int, archive_path: Path) -> None:
    """Merge small files into large ones sorted by (game_id, seq).

    New files are checked (rows, checksums, games) before one commit swaps them
    for the old ones; appends made meanwhile are kept.

    \b
    Example:
      replay compact && replay verify
    """
    archive = _open(archive_path)
    events = sum(f.rows for f in archive.snapshot().files.values())
    with click.progressbar(length=events, label="compacting", file=sys.stderr, show_eta=True) as bar:
        result = compact(archive, max_rows=max_rows, progress=bar.update)
    if not result.kinds:
        click.echo(f"nothing to compact: {result.files_before} file(s), already compact")
    else:
        click.echo(f"compacted {result.events} events: {result.files_before} files -> {result.files_after} (generation {result.generation})")


@cli.command()
@click.option("--write", "write_dir", type=click.Path(file_okay=False, path_type=Path), help="write the schemas into this directory")
@click.option("--check", "check_dir", type=click.Path(file_okay=False, path_type=Path), help="exit 1 if the schemas in this directory are out of date")
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
        write_dir.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (write_dir / name).write_text(text)
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
def kinds() -> None:
    """List the installed game plug-ins."""
    rows = [{"kind": k, "title": registry.get(k).title, "event types": list(registry.get(k).models)} for k in registry.kinds()]
    click.echo(render(rows, ["kind", "title", "event types"], "table", max_width=100), nl=False)


@cli.command()
@click.option("--archive", "-a", "archive_path", type=click.Path(file_okay=False, path_type=Path), help="keep the demo archive here (default: a temporary directory)")
@click.option("--games", "n_games", type=click.IntRange(1, 100_000), default=20, show_default=True)
@click.option("--seed", type=int, default=7, show_default=True, help="same seed, same games")
@click.option("--game", "kind", default="7wonders-dice", show_default=True, help="game kind (see `replay kinds`)")
def demo(archive_path: Path | None, n_games: int, seed: int, kind: str) -> None:
    """Simulate games into a fresh archive and walk through what it can do.

    \b
    Example:
      replay demo --games 50 --archive ./demo-archive
    """
    from ..demo import run_demo

    run_demo(archive_path, n_games, seed, click.echo, kind)


from .games_cmds import rules, simulate  # noqa: E402
from .analytics_cmds import project, query, stats  # noqa: E402
from .review_cmds import audit, diff, show, step  # noqa: E402

for command in (simulate, rules, audit, show, step, diff, project, query, stats):
    cli.add_command(command)


def main() -> None:  # pragma: no cover - console entry
    cli()
