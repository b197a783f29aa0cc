"""``replay project``, ``replay query``, ``replay stats`` and ``replay regress``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click
import pyarrow as pa
import pyarrow.parquet as pq

from ..analytics.named import NamedQuery
from ..analytics.project import project as run_project
from ..analytics.sandbox import OPENS
from ..analytics.sql import all_queries, ask, by_kind, find_query, freshness
from ..archive import Archive
from ..registry import registry
from ..services.overview import overview
from ..services.regress import regress as run_regress
from ..spark.session import SparkSettings
from ..tables import render, to_json
from .options import archive_option, reading_archive_option, spark_options, spark_settings
from .output import output_path, write_text


@click.command()
@click.option("--game", "kinds", multiple=True, help="only this kind (repeatable; default: every kind in the archive)")
@click.option("--workers", type=click.IntRange(1), default=os.cpu_count() or 1, show_default="all cores",
              help="processes replaying games in parallel (the local engine)")
@click.option("--rebuild", is_flag=True,
              help="first throw away the kind's derived tables (ARCHIVE/derived/KIND/) and project every game again: "
                   "the repair when they are damaged")
@click.option("--engine", type=click.Choice(["local", "spark"]), default="local", show_default=True,
              help="local: this machine's processes (--workers); spark: Apache Spark (the spark extra and Java; "
                   "see docs/scale-out.md)")
@spark_options
@archive_option
def project(kinds: tuple[str, ...], workers: int, rebuild: bool, engine: str, spark_master: str | None,
            spark_conf: tuple[str, ...], archive_path: Path) -> None:
    """Replay the games and write the derived SQL tables.

    Every kind gets the core tables games and players; each game adds its own under
    its SQL schema (wonders_dice.actions, pig.turns, ...), all under ARCHIVE/derived/.
    Incremental: a second run projects only games finished since; games in progress
    are projected afresh each run (core tables). A disputed game is projected with
    its problems counted; a game that cannot be projected is skipped and named.
    Every part is recorded with its size and sha256; `replay verify` checks them, and
    --rebuild makes damaged tables again from the events.

    \b
    Example:
      replay project && replay query --name wonders_dice.win_rate_by_city
      replay project --rebuild --game pig
      replay project --engine spark --spark-master 'local[4]' --spark-conf spark.driver.memory=4g
    """
    archive = Archive(archive_path)
    games = [registry.get(k) for k in kinds] if kinds else None
    settings = spark_settings(engine == "spark", spark_master, spark_conf)
    spark = _spark(settings) if settings else None
    bar = click.progressbar(length=1, label="projecting", file=sys.stderr, show_eta=True)
    with bar:
        if spark is None:
            result = run_project(archive, games, progress=bar.update,
                                 total=lambda n: setattr(bar, "length", max(1, n)), workers=workers, rebuild=rebuild)
        else:
            from ..spark.project import project_spark

            result = project_spark(archive, spark, games, progress=bar.update,
                                   total=lambda n: setattr(bar, "length", max(1, n)), rebuild=rebuild)
    for kind in result.discarded:
        click.echo(f"{kind}: threw away the derived tables (--rebuild); every game is projected again")
    for kind in result.rebuilt:
        click.echo(f"{kind}: the derived tables were of an older layout and were rebuilt")
    rows = ", ".join(f"{n} {t}" for t, n in result.rows.items() if n) if result.games or result.live else "nothing new"
    live = f", {result.live} in progress" if result.live else ""
    click.echo(f"projected {result.games} new games ({result.already} already projected{live}): {rows}")
    for game_id, why in sorted(result.skipped.items()):
        click.echo(f"skipped {game_id}: {why}")
    if result.skipped:
        click.echo(f"{len(result.skipped)} game(s) could not be projected; the others were")


def _spark(settings: SparkSettings) -> Any:
    """A Spark session, or one clear error (SparkUnavailable) saying what is missing."""
    from ..spark.session import session

    return session(settings)


def _write(table: pa.Table, fmt: str, output: str | None) -> None:
    if fmt == "parquet" or (output and output.endswith(".parquet")):
        if not output:
            raise click.UsageError("--format parquet needs --output FILE")
        with output_path(output) as tmp:
            pq.write_table(table, tmp)
        click.echo(f"wrote {table.num_rows} rows to {output}", err=True)
        return
    if fmt == "json":
        text = to_json(table.to_pylist())
    else:  # nested values (structs, lists) as JSON in a cell, which Arrow's CSV writer cannot do
        text = render(table.to_pylist(), table.column_names, fmt, max_width=60 if fmt == "table" else 1 << 30)
    if output:
        write_text(output, text)
        click.echo(f"wrote {table.num_rows} rows to {output}", err=True)
    else:
        click.echo(text, nl=False)


@click.command()
@click.argument("sql", required=False)
@click.option("--name", "name", help="run a named query (see --list); a bare name works where it is unique")
@click.option("--param", "params", multiple=True, help="k=v for a named query's parameter (repeatable)")
@click.option("--list", "list_", is_flag=True, help="list the named queries by game kind, with questions and parameters")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json", "parquet"]), default="table", show_default=True)
@click.option("--output", "-o", help="write to this file (.parquet implies --format parquet)")
@click.option("--unsafe-sql", is_flag=True,
              help=f"run the SQL with DuckDB's full powers: {OPENS}. Only for SQL you trust")
@click.option("--engine", type=click.Choice(["duckdb", "spark"]), default="duckdb", show_default=True,
              help="DuckDB in-process, or Spark SQL (the `spark` extra and Java 17+; the SQL is still DuckDB's dialect, "
                   "translated: see docs/scale-out.md)")
@spark_options
@reading_archive_option
def query(sql: str | None, name: str | None, params: tuple[str, ...], list_: bool, fmt: str,
          output: str | None, unsafe_sql: bool, engine: str, spark_master: str | None, spark_conf: tuple[str, ...],
          archive_path: Path | str) -> None:
    """Ask the archive in SQL (DuckDB, in-process), across every game kind.

    Views: events (every event of every kind: envelope), games and players (one row
    per game and per seat, every kind: run `replay project` first), and each game's
    own schema: wonders_dice.events (typed columns), wonders_dice.actions, pig.turns, ...
    (see docs/analytics.md). A note on standard error says when the derived tables
    are missing, behind the archive, or damaged (a query that reads damaged tables
    is refused).

    Sandboxed: a query, named or not, is one read-only statement (SELECT, DESCRIBE,
    SHOW, SUMMARIZE, VALUES, FROM ..., or EXPLAIN of one) that reads only the archive's
    data/ and derived/ files. COPY, ATTACH, INSTALL/LOAD, SET, CREATE and reading
    other files are refused; --unsafe-sql allows them.

    --engine spark runs the same SQL (DuckDB's dialect, translated) on Spark SQL over
    the same files, read-only (docs/scale-out.md).

    \b
    Example:
      replay query "SELECT kind, count(*) FROM games GROUP BY kind"
      replay query --name wonders_dice.win_rate_by_city --param min_games=20
      replay query --name dice_fairness --format csv -o fairness.csv
      replay query --unsafe-sql "COPY (FROM games) TO 'games.csv'"
      replay query --engine spark --name wonders_dice.win_rate_by_city
    """
    queries = all_queries(registry)
    if list_:
        for kind, group in by_kind(queries).items():
            click.echo(f"== {kind or 'every kind'} ==")
            for q in group:
                ps = ", ".join(f"{p.name}={p.default} ({p.help})" for p in q.params)
                click.echo(f"{q.name}\n    {q.question}\n    columns: {q.columns}" + (f"\n    params: {ps}" if ps else ""))
        return
    if bool(sql) == bool(name):
        raise click.UsageError("give SQL or --name NAME (or --list)")
    settings = spark_settings(engine == "spark", spark_master, spark_conf)
    if settings:
        _spark_ready(unsafe_sql)
    archive = Archive.for_reading(archive_path)
    named = find_query(queries, name) if name else None
    for note in freshness(archive, named.sql if named else sql or ""):
        click.echo(f"note: {note}", err=True)
    if named:
        given = {}
        for item in params:
            key, sep, value = item.partition("=")
            if not sep:
                raise click.BadParameter(f"{item!r}: use k=v", param_hint="--param")
            given[key] = value
        table = _ask(archive, named, given, unsafe_sql, settings)
    else:
        assert sql is not None
        table = _ask(archive, sql, {}, unsafe_sql, settings)
    _write(table, fmt, output)


def _spark_ready(unsafe_sql: bool) -> None:
    """Before anything is read: Spark can start here, and is not asked for what only DuckDB does."""
    from ..spark.session import SparkUnavailable, missing

    if unsafe_sql:
        raise click.UsageError("--unsafe-sql is DuckDB's: --engine spark runs one read-only query")
    why = missing()
    if why:
        raise SparkUnavailable(why)


def _ask(archive: Archive, query: str | NamedQuery, given: dict[str, str], unsafe_sql: bool,
         spark: SparkSettings | None) -> pa.Table:
    if spark:
        from ..spark.sql import ask as spark_ask  # pyspark is imported only when asked for

        return spark_ask(archive, query, given, settings=spark)
    return ask(archive, query, given, unsafe=unsafe_sql)


@click.command()
@reading_archive_option
def stats(archive_path: Path | str) -> None:
    """A short overview of an archive: games, events, files, size, packs, projection.

    \b
    Example:
      replay stats -a sims
    """
    o = overview(Archive.for_reading(archive_path))
    click.echo(f"archive {o.root}: {o.files} files, {o.bytes / 1e6:.1f} MB, {o.packs} rules pack(s), "
               f"generation {o.generation}")
    for k in o.kinds:
        spread = ", ".join(f"{n}p: {c}" for n, c in sorted(k.players.items()))
        click.echo(f"  {k.kind}: {k.games} games ({k.finished} finished), {k.events} events; players {spread}")
        c = k.projection
        if c is None:
            continue
        line = f"    derived tables: {c.projected} games projected, {c.live} in progress"
        if c.stale:
            line += "; of an older layout: run `replay project`"
        elif c.behind:
            line += f"; {c.behind} not yet: run `replay project`"
        click.echo(line)
        if c.skipped:
            click.echo(f"    {len(c.skipped)} game(s) could not be projected:")
            for game_id, why in sorted(c.skipped.items())[:20]:
                click.echo(f"      {game_id}: {why}")


@click.command()
@click.option("--game", "kinds", multiple=True, help="only this kind (repeatable; default: every kind in the archive)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@reading_archive_option
def regress(kinds: tuple[str, ...], fmt: str, archive_path: Path | str) -> None:
    """Check that this version of replay still brings every projected game to its recorded end.

    `replay project` records each game's final state hash and result in the games
    table. This replays every recorded game with the installed code and lists the
    games whose final state hash, winners or score totals now differ. Run it after
    upgrading replay or changing a game's code. Games not projected yet are counted,
    not checked. Nothing is written: a finished game's record stays until the derived
    tables are rebuilt (see docs/changes.md). Exit 1 if any game differs.

    \b
    Example:
      replay project                  # before the change: records how each game ends
      replay regress                  # after it: exit 1 if any game ends differently
      replay regress --game pig --format json
    """
    archive = Archive.for_reading(archive_path)
    games = [registry.get(k) for k in kinds] if kinds else None
    with click.progressbar(length=1, label="replaying", file=sys.stderr, show_eta=True) as bar:
        report = run_regress(archive, games, progress=bar.update, total=lambda n: setattr(bar, "length", max(1, n)))
    if fmt == "json":
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        click.echo(report.to_text(), nl=False)
    if not report.ok:
        sys.exit(1)
