"""Commands on the archive itself: ``import``, ``export``, ``games``, ``events``, ``verify``, ``compact``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..archive import Archive
from ..archive.compact import MAX_ROWS_PER_FILE, compact
from ..jsonl import dump_line
from ..registry import registry
from ..services.checking import verify_all
from ..services.importing import NotationImport, import_jsonl, import_notation, import_notation_text, peek_format
from ..services.logs import FILE_FORMATS, file_format
from ..services.packs import load_files
from ..tables import render
from .options import archive_option, format_option, game_option, reading_archive_option, ruleset_option
from .output import output_text


@click.command(name="import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FILE_FORMATS), default="auto", show_default=True,
              help="auto: JSON Lines if the first non-blank character is '{' or the name ends .jsonl, else notation")
@click.option("--allow-problems", is_flag=True, help="notation: archive a game even if its audit finds problems")
@game_option("the game of notation files without a [Kind] tag")
@ruleset_option
@archive_option
def import_(files: tuple[Path, ...], fmt: str, allow_problems: bool, kind: str | None, ruleset_files: tuple[Path, ...],
            archive_path: Path) -> None:
    """Add games from JSON Lines or notation files (- for standard input).

    JSON Lines: one event per line, {"game_id", "seq", "kind", "type", "version",
    "payload"}. Each file is checked whole first; a file with any problem (bad JSON,
    unknown type, missing field, wrong type, a seq gap, an event after a game's end,
    events already in the archive, a game id already taken by another game, a rules
    pack that cannot be found) is rejected with every problem's line and field, and
    nothing of it is written. A file may continue games already in the archive from
    their next seq.

    Notation (see docs/notation.md): the game is read (every syntax problem with its
    line and column), audited, and archived only if the audit finds nothing wrong (or
    with --allow-problems).

    The format is told from the content (--format to say it). The rules pack each
    new game pins is stored in the archive with it; give a pack that is not shipped
    with --ruleset.

    \b
    Example:
      replay import tournament.jsonl
      replay import typed-game.txt
      replay export g1 | replay import -a other-archive -
      cat typed-game.txt | replay import --game pig -
    """
    archive = Archive(archive_path)
    packs = load_files(ruleset_files)
    for f in files:
        if str(f) == "-":
            stdin_format, lines = peek_format(sys.stdin, "<stdin>", fmt)
            if stdin_format == "notation":
                _report_notation("<stdin>", import_notation_text(archive, "".join(lines), "<stdin>", kind,
                                                                 allow_problems, packs))
                continue
            result = import_jsonl(archive, "<stdin>", lines, packs)
        elif file_format(f, fmt) == "notation":
            _report_notation(str(f), import_notation(archive, f, kind, allow_problems, packs))
            continue
        else:
            if not f.is_file():
                raise click.ClickException(f"{f}: no such file")
            with f.open(encoding="utf-8") as handle, click.progressbar(
                length=f.stat().st_size, label=f"reading {f}", file=sys.stderr, show_eta=True
            ) as bar:
                result = import_jsonl(archive, str(f), handle, packs, progress=bar.update)
        name = "<stdin>" if str(f) == "-" else str(f)
        click.echo(f"{name}: imported {result.events} events of {result.games} games (generation {result.generation})")


def _report_notation(name: str, done: NotationImport) -> None:
    if not done.archived:
        click.echo(done.report.to_text(), nl=False)
        raise click.ClickException(f"{name}: the audit found {len(done.report.problems)} problem(s); nothing was "
                                   "written (use --allow-problems to archive it anyway)")
    verdict = "clean" if done.report.ok else f"{len(done.report.problems)} audit problem(s), archived anyway"
    click.echo(f"{name}: imported game {done.game_id}, {done.events} events ({verdict})")


@click.command()
@click.argument("game_ids", nargs=-1)
@click.option("--kind", help="only games of this kind")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "notation"]), default="jsonl", show_default=True,
              help="notation: one game, as people read and type it")
@click.option("--output", "-o", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              help="file to write (default: standard output)")
@reading_archive_option
def export(game_ids: tuple[str, ...], kind: str | None, fmt: str, output: str, archive_path: Path | str) -> None:
    """Write events as JSON Lines (the given games, or every game), or one game as notation.

    \b
    Example:
      replay export g1 g2 -o two-games.jsonl
      replay export --kind pig > all-pig.jsonl
      replay export g1 --format notation -o g1.txt
    """
    archive = Archive.for_reading(archive_path)
    if fmt == "notation":
        if len(game_ids) != 1:
            raise click.UsageError("--format notation writes one game: name exactly one GAME_ID")
        events = archive.read_game(game_ids[0])
        text = registry.get(events[0].kind).require("notation").write(events)
        with output_text(output) as out:
            out.write(text)
        return
    with output_text(output) as out:
        if game_ids:
            for g in game_ids:
                for e in archive.read_game(g):
                    out.write(dump_line(e))
        else:
            for e in archive.iter_sorted_events(kind):
                out.write(dump_line(e))


@click.command()
@click.option("--kind", help="only games of this kind")
@click.option("--status", type=click.Choice(["finished", "in-progress"]), help="only finished or unfinished games")
@format_option()
@reading_archive_option
def games(kind: str | None, status: str | None, fmt: str, archive_path: Path | str) -> None:
    """List the games: kind, players, length in events, status.

    \b
    Example:
      replay games --kind pig --status finished --format csv
    """
    rows = [
        {"game_id": g.game_id, "kind": g.kind, "players": list(g.players), "events": g.events, "status": g.status}
        for g in Archive.for_reading(archive_path).games()
        if (kind is None or g.kind == kind) and (status is None or g.status == status.replace("-", " "))
    ]
    click.echo(render(rows, ["game_id", "kind", "players", "events", "status"], fmt), nl=False)


@click.command()
@click.argument("game_id")
@click.option("--type", "types", multiple=True, help="only events of this type (repeatable)")
@click.option("--from-seq", type=int, default=0, show_default=True, help="first seq shown")
@click.option("--to-seq", type=int, help="last seq shown")
@format_option(choices=("table", "json", "csv", "jsonl"))
@reading_archive_option
def events(game_id: str, types: tuple[str, ...], from_seq: int, to_seq: int | None, fmt: str, archive_path: Path | str) -> None:
    """Show one game's events.

    \b
    Example:
      replay events pig-s1-000000 --type held --from-seq 10
      replay events pig-s1-000000 --format jsonl
    """
    selected = [
        e for e in Archive.for_reading(archive_path).read_game(game_id)
        if (not types or e.type in types) and e.seq >= from_seq and (to_seq is None or e.seq <= to_seq)
    ]
    if fmt == "jsonl":
        click.echo("".join(dump_line(e) for e in selected), nl=False)
        return
    rows = [{"seq": e.seq, "type": e.type, "version": e.version, "payload": e.payload} for e in selected]
    click.echo(render(rows, ["seq", "type", "version", "payload"], fmt, max_width=100), nl=False)


@click.command(name="verify")
@click.option("--deep", is_flag=True, help="also validate every payload against its model (slower)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@reading_archive_option
def verify_(deep: bool, fmt: str, archive_path: Path | str) -> None:
    """Check the archive: manifest, files, checksums, schema, seqs, hash chains, rules packs,
    and the derived SQL tables' checksums.

    Every problem is named with its rule id, file, game and event, and says what repairs
    it. Exit status 1 if there is any problem. Notes (files an interrupted write left,
    which the next write moves to lost+found/) do not count as problems; a lost commit
    record does (docs/archive.md).

    \b
    Example:
      replay verify --deep
    """
    archive = Archive.for_reading(archive_path)
    events = sum(f.rows for f in archive.snapshot().files.values())
    with click.progressbar(length=max(1, events), label="verifying", file=sys.stderr, show_eta=True) as bar:
        report = verify_all(archive, deep=deep, progress=bar.update)
    if fmt == "json":
        click.echo(json.dumps({
            "ok": report.ok, "generation": report.generation, "files": report.files, "games": report.games,
            "events": report.events, "packs": report.packs,
            "problems": [p.to_json() for p in report.problems], "notes": [n.to_json() for n in report.notes],
        }, indent=2))
    else:
        for n in report.notes:
            click.echo(f"note: {n}")
        for p in report.problems:
            click.echo(f"problem: {p}")
        verdict = "OK" if report.ok else f"{len(report.problems)} problem(s)"
        click.echo(f"{verdict}: {report.files} files, {report.games} games, {report.events} events, "
                   f"{report.packs} packs, generation {report.generation}")
    if not report.ok:
        sys.exit(1)


@click.command(name="compact")
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
    archive = Archive(archive_path)
    total = sum(f.rows for f in archive.snapshot().files.values())
    with click.progressbar(length=total, label="compacting", file=sys.stderr, show_eta=True) as bar:
        result = compact(archive, max_rows=max_rows, progress=bar.update)
    if not result.kinds:
        click.echo(f"nothing to compact: {result.files_before} file(s), already compact")
    else:
        click.echo(f"compacted {result.events} events: {result.files_before} files -> {result.files_after} "
                   f"(generation {result.generation})")
