"""From a query in DuckDB's dialect to one read-only Spark SQL statement, by sqlglot.

The named queries are written once, in DuckDB's dialect; ad-hoc SQL given to ``--engine spark``
is read the same way, so one query runs on either engine. Everything Spark is given is
*generated* by sqlglot from a checked syntax tree, never the user's text itself, so:

* only one query is run (a SELECT, WITH ..., UNION/INTERSECT/EXCEPT, VALUES): DDL, DML,
  ``INSERT OVERWRITE DIRECTORY``, ``SET``, ``ADD JAR``, ``CACHE TABLE``, script transforms
  (``TRANSFORM ... USING 'cmd'``) and the functions that call Java methods (``reflect``,
  ``java_method``) are refused before Spark sees them;
* a query reads the archive's views and nothing else: a qualified name that is not one
  (``parquet.`/etc/x```, ``spark_catalog.db.t``) is refused (and the session has
  ``spark.sql.runSQLOnFiles`` off besides);
* parameters (``$name``) become literals rendered by sqlglot, quoted and escaped for Spark:
  a value is never pasted into the text;
* the archive's ``<schema>.<table>`` views become Spark temporary views with the dotted name
  quoted (```pig.turns```): Spark's temporary views cannot sit in a database, and a
  per-kind database would be shared by every query on a cluster.

This module needs sqlglot only (the ``spark`` extra), not pyspark, so it is tested without a JVM.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..analytics.named import QueryError

ENGINE = "Spark SQL"

ALLOWED = "one read-only query (SELECT, WITH ..., UNION/INTERSECT/EXCEPT, VALUES)"

DIALECTS = ("duckdb", "spark")
"""The dialects a query may be written in: DuckDB's (the named queries', the default) or Spark's own."""

_JAVA_CALLS = frozenset({"reflect", "java_method", "try_reflect"})
"""Spark SQL functions that call a static Java method: as good as running code on the cluster."""


@dataclass(frozen=True)
class Translation:
    """The Spark SQL to run and the archive's views it reads (by their archive names: ``pig.turns``)."""

    sql: str
    reads: frozenset[str]


def refused(what: str) -> QueryError:
    return QueryError(f"refused: {what}; `replay query --engine spark` runs {ALLOWED} over the archive's views")


def translate(sql: str, views: Collection[str], params: dict[str, Any] | None = None,
              dialect: str = "duckdb") -> Translation:
    """``sql`` (in ``dialect``) as one Spark SQL query over ``views``, with ``params`` bound as literals.

    Raises :class:`QueryError`: for SQL sqlglot cannot read or cannot write as Spark SQL,
    for anything but one read-only query (``refused: ...``), and for a parameter not given."""
    import sqlglot
    from sqlglot.errors import ErrorLevel, ParseError, TokenError, UnsupportedError

    try:
        with _quiet("sqlglot"):  # it logs a warning before reading a statement it does not know as a Command
            statements = [s for s in sqlglot.parse(sql, read=dialect) if s is not None]
    except (ParseError, TokenError) as exc:
        raise _unreadable(sql, views, dialect, exc) from exc
    if not statements:
        raise QueryError("no SQL statement to run (only comments or blanks)")
    if len(statements) > 1:
        raise refused(f"{len(statements)} statements ({', '.join(_kind(s) for s in statements)})")
    tree = statements[0]
    _check(tree, {v.lower(): v for v in views})
    reads = _rename_views(tree, {v.lower(): v for v in views})
    _bind(tree, params or {})
    try:
        text = tree.sql(dialect="spark", unsupported_level=ErrorLevel.RAISE, comments=False)
    except UnsupportedError as exc:
        raise QueryError(f"{ENGINE}: sqlglot cannot write this query as Spark SQL: {_first_line(exc)}") from exc
    return Translation(text, frozenset(reads))


def _unreadable(sql: str, views: Collection[str], dialect: str, exc: Exception) -> QueryError:
    """Why SQL sqlglot cannot read in ``dialect`` is not run: a statement only Spark has (``ADD JAR``,
    ``TRANSFORM ... USING``) is named as refused; anything else gets sqlglot's reason."""
    import sqlglot
    from sqlglot.errors import ParseError, TokenError

    if dialect != "spark":
        try:
            with _quiet("sqlglot"):
                as_spark = [s for s in sqlglot.parse(sql, read="spark") if s is not None]
        except (ParseError, TokenError):
            as_spark = []
        if len(as_spark) > 1:
            return refused(f"{len(as_spark)} statements ({', '.join(_kind(s) for s in as_spark)})")
        if as_spark:
            try:
                _check(as_spark[0], {v.lower(): v for v in views})
            except QueryError as refusal:
                return refusal
    return QueryError(f"{ENGINE}: sqlglot could not read the SQL ({dialect} dialect; the engines share DuckDB's): "
                      f"{_first_line(exc)}")


def _check(tree: Any, views: dict[str, str]) -> None:
    """Refuse anything but one query that reads the archive's views and calls no Java."""
    from sqlglot import exp

    if not isinstance(tree, (exp.Query, exp.Values)):
        raise refused(f"{_kind(tree)} statement")
    forbidden = tuple(getattr(exp, name) for name in (
        "DDL", "DML", "Command", "QueryTransform", "Set", "Use", "Cache", "Uncache", "Refresh", "LoadData",
        "Copy", "Pragma", "Describe", "Show", "Analyze", "Attach", "Detach", "Install", "Kill", "Grant",
        "Revoke", "Comment", "Directory", "Transaction", "Commit", "Rollback") if hasattr(exp, name))
    for node in tree.walk():
        if isinstance(node, forbidden):
            raise refused(f"{_kind(node)} inside the query")
        if isinstance(node, exp.Func):
            name = (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()
            if name in _JAVA_CALLS:
                raise refused(f"{name}(): it calls Java methods")
        if not isinstance(node, exp.Table) or not isinstance(node.this, exp.Identifier):
            continue
        if node.args.get("db") or node.args.get("catalog"):
            name = ".".join(p.name for p in node.parts)
            if name.lower() not in views:
                raise refused(f"{name} is not one of the archive's views (a query may not read files, such as "
                              f"parquet.`path`, nor other catalogs); views: {', '.join(views.values())}")


def _rename_views(tree: Any, views: dict[str, str]) -> set[str]:
    """Point every reference to a view at its Spark temporary view; the views read, by archive name."""
    from sqlglot import exp

    reads = set()
    for table in list(tree.find_all(exp.Table)):
        if not isinstance(table.this, exp.Identifier):
            continue  # a table function (range(10), unnest(...)): no view
        name = ".".join(p.name for p in table.parts).lower()
        if name not in views:
            continue  # a CTE's name, or a name Spark will say it does not know
        reads.add(views[name])
        if "." in name:
            if not table.alias:  # DuckDB lets `FROM pig.turns` be referred to as `turns`
                table.set("alias", exp.TableAlias(this=exp.to_identifier(table.name)))
            table.set("this", exp.to_identifier(views[name], quoted=True))
            table.set("db", None)
            table.set("catalog", None)
    return reads


def _bind(tree: Any, params: dict[str, Any]) -> None:
    """Replace each ``$name`` by its value as a literal that sqlglot renders (quoted, escaped)."""
    from sqlglot import exp

    for placeholder in list(tree.find_all(exp.Placeholder)):
        name = placeholder.name
        if not name or name == "?":
            raise QueryError(f"{ENGINE}: positional parameters (?) are not supported; name them ($name)")
        if name not in params:
            raise QueryError(f"the SQL names the parameter ${name}, which is not given (given: {', '.join(params) or 'none'})")
        placeholder.replace(exp.convert(params[name]))


def _kind(statement: Any) -> str:
    from sqlglot import exp

    if isinstance(statement, exp.Command):
        return str(statement.this).upper()
    if isinstance(statement, exp.QueryTransform):
        return "TRANSFORM ... USING (a script Spark would run)"
    return type(statement).__name__.upper()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@contextmanager
def _quiet(logger_name: str) -> Iterator[None]:
    logger = logging.getLogger(logger_name)
    before = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(before)
