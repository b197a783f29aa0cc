"""``replay query --engine spark``: the named queries and ad-hoc SQL on Spark SQL.

The same views as DuckDB's (:mod:`replay.analytics.sql`), over the same committed files
(:func:`replay.analytics.sources.sources`: the manifests' lists, never a leftover or
uncommitted file), refused in the same way when a file they read is damaged, and answered
as an Arrow table, so the printer and the formats are DuckDB's.

Each query gets a fresh Spark session (``newSession``: the JVM and the cluster are shared,
the temporary views and settings are not) holding only the views the query reads: making a
view asks Spark for the files' schema, and an archive has many views. The session's
settings are the ones an answer depends on, set whatever the cluster's defaults are:
corrupt or missing files fail the query rather than being skipped (a partial answer is a
wrong answer), direct file queries are off, and ANSI mode is on, so a division by zero is an
error rather than DuckDB's ``inf`` or a silent ``NULL``.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from ..analytics.core import CORE_TABLES
from ..analytics.named import NamedQuery, QueryError
from ..analytics.sources import Sources, sources
from ..analytics.sql import DAMAGE_HINT, ENVELOPE, damaged_views, views
from ..archive import Archive
from ..archive.location import AnyPath
from ..schema import ENVELOPE_SCHEMA, kind_schema
from .session import SparkSettings, session
from .translate import ENGINE, translate

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

SESSION_CONF = {
    "spark.sql.runSQLOnFiles": "false",
    "spark.sql.files.ignoreCorruptFiles": "false",
    "spark.sql.files.ignoreMissingFiles": "false",
    "spark.sql.ansi.enabled": "true",
    "spark.sql.session.timeZone": "UTC",
}
"""Settings of every query's session: what an answer depends on, so not left to the cluster."""

_DAMAGE_CONDITIONS = ("FAILED_READ_FILE", "CANNOT_READ_FILE_FOOTER", "PATH_NOT_FOUND", "UNABLE_TO_INFER_SCHEMA")
"""Spark's error conditions for a file it cannot read (prefixes)."""

_DAMAGE_SIGNS = ("is not a Parquet file", "Could not read footer", "can not read class org.apache.parquet",
                 "ParquetDecodingException", "CorruptStatistics", "Malformed Parquet")
"""What the JVM says of a damaged Parquet file where Spark gives no error condition."""

_GLOB = re.compile(r"([\\{}\[\]*?])")
"""Hadoop's glob pattern characters, each escaped with a backslash."""


def ask(archive: Archive, query: str | NamedQuery, given: dict[str, str] | None = None,
        spark: SparkSession | None = None, settings: SparkSettings | None = None) -> pa.Table:
    """What ``replay query --engine spark`` runs: a named query or SQL over the archive's views on
    ``spark`` (default: the running session, or one started with ``settings``), refused when it reads
    a view whose files are damaged, as DuckDB's :func:`replay.analytics.sql.ask` refuses it."""
    names = views(archive.registry)
    if isinstance(query, NamedQuery):
        translation = translate(query.sql, names, query.values(given or {}))
    else:
        translation = translate(query, names)
    damaged = damaged_views(archive)
    for table in sorted(translation.reads & set(damaged)):
        first = damaged[table][0]
        raise QueryError(f"refused: the query reads {table}, and {first.where.file} is damaged: {first.message}")
    if spark is None:
        spark = session(settings)
    con = connect(spark, archive, translation.reads)
    try:
        return run(con, translation.sql, names)
    finally:  # the session goes, and with it its views; a long-running process (a notebook) keeps none
        for view in con.catalog.listTables():
            if view.isTemporary:
                con.catalog.dropTempView(f"`{view.name}`")


def connect(spark: SparkSession, archive: Archive, names: set[str] | frozenset[str]) -> SparkSession:
    """A new session of ``spark`` with a temporary view for each of ``names`` (archive names:
    ``events``, ``games``, ``pig.turns``) over the archive's committed files."""
    con = spark.newSession()
    for key, value in SESSION_CONF.items():
        con.conf.set(key, value)
    _quiet_spark()
    made: dict[str, DataFrame] = {}
    src = sources(archive)
    for name in sorted(names):
        _make(con, archive, src, name, made)
    return con


def _make(con: SparkSession, archive: Archive, src: Sources, name: str, made: dict[str, DataFrame]) -> DataFrame:
    """The view ``name`` (made once, then registered as a temporary view of that name)."""
    if name in made:
        return made[name]
    frame = _frame(con, archive, src, name, made)
    frame.createOrReplaceTempView(f"`{name}`" if "." in name else name)
    made[name] = frame
    return frame


def _frame(con: SparkSession, archive: Archive, src: Sources, name: str, made: dict[str, DataFrame]) -> DataFrame:
    games = list(archive.registry.games())
    if name == "events":  # the envelope of every kind: each kind's own events view, or its files
        frames = []
        for game in games:
            if game.analytics is not None:
                frames.append(_make(con, archive, src, f"{game.analytics.schema}.events", made).select(*ENVELOPE))
            elif src.events[game.kind]:
                frames.append(_read(con, name, src.events[game.kind]).select(*ENVELOPE))
        if not frames:
            return _empty(con, pa.schema([f for f in ENVELOPE_SCHEMA if f.name != "hash"]))
        out = frames[0]
        for frame in frames[1:]:
            out = out.unionByName(frame)
        return out
    if name in CORE_TABLES:
        return _parquet(con, name, src.parts[name], CORE_TABLES[name])
    for game in games:
        if game.analytics is None:
            continue
        schema = game.analytics.schema
        if name == f"{schema}.events":
            return _parquet(con, name, src.events[game.kind], kind_schema(game))
        table = name.removeprefix(schema + ".")
        if name.startswith(schema + ".") and table in game.analytics.tables:
            return _parquet(con, name, src.parts.get(name, []), game.analytics.tables[table])
        if name.startswith(schema + "."):
            reference = game.analytics.reference_tables().get(table)
            if reference is not None:
                return con.createDataFrame(reference)
    raise QueryError(f"{name}: no such view")  # translate() only names views that exist: a bug if reached


def _parquet(con: SparkSession, name: str, paths: list[AnyPath], empty: pa.Schema) -> DataFrame:
    """The files with the columns they hold (as DuckDB reads them), or no rows of ``empty``'s columns."""
    return _read(con, name, paths) if paths else _empty(con, empty)


HADOOP_SCHEMES = {"s3://": "s3a://"}
"""pyarrow's URI schemes that Hadoop (and so Spark) spells otherwise: its S3 connector is S3A."""


def hadoop_path(path: AnyPath) -> str:
    """A file as Spark opens it: a local path as it is; a URI with Hadoop's scheme for it."""
    if isinstance(path, Path):
        return str(path)
    uri = str(path)
    for ours, hadoop in HADOOP_SCHEMES.items():
        if uri.startswith(ours):
            return hadoop + uri.removeprefix(ours)
    return uri


def _read(con: SparkSession, name: str, paths: list[AnyPath]) -> DataFrame:
    """The Parquet files, exactly these: Spark reads each path as a glob pattern, so the pattern
    characters an archive's path may hold (``games[1]/``) are escaped. (Turning globbing off
    instead makes Spark 4 read a file once per path given in its folder.)"""
    try:
        return con.read.parquet(*(_GLOB.sub(r"\\\1", hadoop_path(p)) for p in paths))
    except Exception as exc:  # Spark reads a footer here for the schema: a damaged one fails the view
        raise _error(exc, f"{name}: ") from exc


def _empty(con: SparkSession, schema: pa.Schema) -> DataFrame:
    return con.createDataFrame(schema.empty_table())


def run(con: SparkSession, sql: str, names: list[str] | None = None) -> pa.Table:
    """The answer to Spark SQL ``sql`` (already translated and checked) as an Arrow table."""
    try:
        table: pa.Table = con.sql(sql).toArrow()
    except Exception as exc:  # Spark's errors come as PySpark or Py4J exceptions of many classes
        raise _error(exc, "", names, sql) from exc
    return _as_duckdb_numbers(table)


def _as_duckdb_numbers(table: pa.Table) -> pa.Table:
    """Spark's decimal columns as DuckDB gives them: where DuckDB's average of ``1.0``s is a
    float, Spark's is an exact decimal (``avg(CASE WHEN won THEN 1.0 ELSE 0.0 END)``), which
    would print as ``1`` where DuckDB prints ``1.0``. Whole decimals that fit become integers.
    A fraction goes through its decimal text: Arrow's direct cast scales by a power of ten in
    floating point, which turns 0.6667 into 0.6667000000000001; the text is parsed to the nearest float."""
    for i, field in enumerate(table.schema):
        if pa.types.is_decimal(field.type):
            column = table.column(i)
            if field.type.scale == 0 and field.type.precision <= 18:
                column = column.cast(pa.int64())
            else:
                column = column.cast(pa.string()).cast(pa.float64())
            table = table.set_column(i, field.name, column)
    return table


def _error(exc: Exception, prefix: str, names: list[str] | None = None, sql: str = "") -> QueryError:
    """One clear message for a failure inside Spark: damage named as such, the rest with the views."""
    condition = _condition(exc)
    java = getattr(exc, "java_exception", None)  # a Py4J error PySpark did not convert: its first line names only the call
    text = str(java.toString() if java is not None else exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    if condition.startswith(_DAMAGE_CONDITIONS) or any(sign in text for sign in _DAMAGE_SIGNS):
        return QueryError(f"{prefix}{ENGINE}: {first[:400]}\n{DAMAGE_HINT}")
    more = f"\n(views: {', '.join(names)}; see `replay query --list` for named queries)" if names else ""
    sent = f"\n(the query as sent to Spark: {sql})" if sql else ""
    return QueryError(f"{prefix}{ENGINE} refused the query: {first[:400]}{more}{sent}")


def _condition(exc: Exception) -> str:
    get = getattr(exc, "getCondition", None) or getattr(exc, "getErrorClass", None)
    try:
        value = get() if get else None
    except Exception:  # a Py4J error whose Java side has no condition
        value = None
    return str(value or "")


def _quiet_spark() -> None:
    """PySpark logs every query error as JSON on standard error; the tool reports it once itself."""
    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
