"""``replay project``, ``replay query`` and ``replay stats``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from ..analytics.project import load_manifest, project as run_project
from ..analytics.sql import QueryError, connect, load_queries, run_named, run_sql
from ..archive import Archive
from ..plugin import registry
from .options import archive_option
from .output import render


@click.command()
@click.option("--game", "kind", default="7wonders-dice", show_default=True, help="game kind")
@click.option("--workers", type=click.IntRange(1), default=os.cpu_count() or 1, show_default="all cores",
              help="processes replaying games in parallel")
@archive_option
def project(kind: str, workers: int, archive_path: Path) -> None:
    """Replay every finished game not yet projected and write the derived SQL tables.

    games, players, turn_states and actions come from the projector, under
    ARCHIVE/derived/KIND/. Incremental: a second run only projects new games.

    \b
    Example:
      replay project && replay query --name win_rate_by_city
    """
    archive = Archive(archive_path)
    plugin = registry.get(kind)
    bar = click.progressbar(length=1, label=f"projecting {kind}", file=sys.stderr, show_eta=True)
    with bar:
        result = run_project(archive, plugin, progress=bar.update, total=lambda n: setattr(bar, "length", max(1, n)),
                             workers=workers)
    rows = ", ".join(f"{n} {t}" for t, n in result.rows.items()) if result.games else "nothing new"
    click.echo(f"projected {result.games} new games ({result.already} already projected): {rows}")


def _write(table: pa.Table, fmt: str, output: str | None) -> None:
    if fmt == "parquet" or (output and output.endswith(".parquet")):
        if not output:
            raise click.UsageError("--format parquet needs --output FILE")
        pq.write_table(table, output)
        click.echo(f"wrote {table.num_rows} rows to {output}", err=True)
        return
    if fmt == "csv":
        sink = pa.BufferOutputStream()
        pacsv.write_csv(table, sink)
        text = sink.getvalue().to_pybytes().decode()
    elif fmt == "json":
        text = json.dumps(table.to_pylist(), indent=2, default=str) + "\n"
    else:
        text = render(table.to_pylist(), table.column_names, "table", max_width=60)
    if output:
        Path(output).write_text(text)
        click.echo(f"wrote {table.num_rows} rows to {output}", err=True)
    else:
        click.echo(text, nl=False)


@click.command()
@click.argument("sql", required=False)
@click.option("--name", "name", help="run a named query from queries/ (see --list)")
@click.option("--param", "params", multiple=True, help="k=v for a named query's parameter (repeatable)")
@click.option("--list", "list_", is_flag=True, help="list the named queries with their questions and parameters")
@click.option("--game", "kind", default="7wonders-dice", show_default=True, help="game kind the views show")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json", "parquet"]), default="table", show_default=True)
@click.option("--output", "-o", help="write to this file (.parquet implies --format parquet)")
@archive_option
def query(sql: str | None, name: str | None, params: tuple[str, ...], list_: bool, kind: str, fmt: str,
          output: str | None, archive_path: Path) -> None:
    """Ask the archive in SQL (DuckDB, in-process).

    Views: events (every event column), games, players, turn_states, actions (the
    derived tables: run `replay project` first), dice_faces (rules data).

    \b
    Example:
      replay query "SELECT players, count(*) FROM games GROUP BY ALL"
      replay query --name win_rate_by_city --param min_games=20
      replay query --name dice_fairness --format csv -o fairness.csv
    """
    queries = load_queries()
    if list_:
        for q in queries.values():
            ps = ", ".join(f"{p.name}={p.default} ({p.help})" for p in q.params)
            click.echo(f"{q.name}\n    {q.question}\n    columns: {q.columns}" + (f"\n    params: {ps}" if ps else ""))
        return
    if bool(sql) == bool(name):
        raise click.UsageError("give SQL or --name NAME (or --list)")
    con = connect(Archive(archive_path), kind)
    if name:
        if name not in queries:
            raise QueryError(f"no named query {name!r}; there are: {', '.join(queries)}")
        given = {}
        for item in params:
            key, sep, value = item.partition("=")
            if not sep:
                raise click.BadParameter(f"{item!r}: use k=v", param_hint="--param")
            given[key] = value
        table = run_named(con, queries[name], given)
    else:
        table = run_sql(con, sql)
    _write(table, fmt, output)


@click.command()
@click.option("--game", "kind", default="7wonders-dice", show_default=True)
@archive_option
def stats(kind: str, archive_path: Path) -> None:
    """A short overview of an archive: games, events, files, size, projection.

    \b
    Example:
      replay stats -a sims
    """
    archive = Archive(archive_path)
    state = archive.snapshot()
    games = [s for s in state.streams.values()]
    by_kind: dict[str, list] = {}
    for s in games:
        by_kind.setdefault(s.kind, []).append(s)
    size = sum(f.bytes for f in state.files.values())
    click.echo(f"archive {archive.root}: {len(state.files)} files, {size / 1e6:.1f} MB, generation {state.generation}")
    for k, streams in sorted(by_kind.items()):
        finished = sum(1 for s in streams if s.ended)
        events = sum(s.last_seq + 1 for s in streams)
        counts: dict[int, int] = {}
        for s in streams:
            counts[len(s.players or ())] = counts.get(len(s.players or ()), 0) + 1
        spread = ", ".join(f"{n}p: {c}" for n, c in sorted(counts.items()))
        click.echo(f"  {k}: {len(streams)} games ({finished} finished), {events} events; players {spread}")
    plugin = registry.get(kind)
    if plugin.derive is not None:
        projected = len(load_manifest(archive, kind)["games"])
        click.echo(f"  derived tables ({kind}): {projected} games projected"
                   + ("" if projected else "; run `replay project`"))
