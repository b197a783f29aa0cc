"""The sandbox ``replay query`` runs SQL in by default: read-only, confined to the archive.

DuckDB can read and write any file the user can (``read_csv('/etc/passwd')``,
``COPY ... TO``), attach databases, install and load extensions and reach the
network. A query typed at the prompt, or a ``.sql`` file in a shared
``$REPLAY_QUERIES`` folder, must not, so two locks are put on every connection:

* DuckDB's own settings (:func:`confine`): file access only under the archive's
  ``data/`` and ``derived/`` directories, no extensions installed or loaded, and
  the configuration locked so the query cannot undo it;
* one statement, and only a read (:func:`check_read_only`): the settings still let
  ``COPY (...) TO`` write *inside* an allowed directory (over a derived table's
  part, say), and ``EXPLAIN ANALYZE`` runs the statement it
  explains, so anything but a ``SELECT`` (DESCRIBE, SHOW, SUMMARIZE, VALUES and
  FROM-first queries are SELECTs to DuckDB) or an ``EXPLAIN [ANALYZE]`` of one is refused.

``--unsafe-sql`` (``unsafe=True``) skips both.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import duckdb

from .named import QueryError

UNSAFE_FLAG = "--unsafe-sql"
ALLOWED = "one read-only statement: a SELECT (DESCRIBE, SHOW, SUMMARIZE, VALUES, FROM ...) or EXPLAIN of one"
OPENS = ("reading and writing any file you can, attaching databases, installing and loading extensions, "
         "reaching the network, and running any statement")


def confine(con: duckdb.DuckDBPyConnection, directories: Iterable[Path]) -> None:
    """Lock ``con`` to reading files under ``directories``: call it after the views are made.

    The order matters: ``allowed_directories`` must be set while external access is
    still on, and ``lock_configuration`` comes last so no query can set any of it back."""
    allowed = "[" + ", ".join("'" + os.path.abspath(d).replace("'", "''") + "'" for d in directories) + "]"
    con.execute(f"SET allowed_directories = {allowed}")
    con.execute("SET enable_external_access = false")
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET lock_configuration = true")


def refused(what: str) -> QueryError:
    return QueryError(f"refused: {what}; `replay query` runs {ALLOWED}; `{UNSAFE_FLAG}` runs anything (see --help)")


def check_read_only(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Raise :class:`QueryError` unless ``sql`` is exactly one SELECT, or an EXPLAIN of one."""
    statements = con.extract_statements(sql)
    if not statements:
        raise QueryError("no SQL statement to run (only comments or blanks)")
    if len(statements) > 1:
        kinds = ", ".join(s.type.name for s in statements)
        raise refused(f"{len(statements)} statements ({kinds})")
    kind = statements[0].type
    if kind == duckdb.StatementType.SELECT:
        return
    if kind == duckdb.StatementType.MULTI:
        raise refused("MULTI statement (DuckDB runs it as several: a PIVOT without `IN (...)` creates a type first; "
                      "list the values with `ON column IN (...)`)")
    if kind != duckdb.StatementType.EXPLAIN:
        raise refused(f"{kind.name} statement")
    if not _explains_a_select(con, sql):
        raise refused("EXPLAIN of something other than a SELECT (EXPLAIN ANALYZE runs the statement it explains)")


def tokenize(sql: str) -> list[tuple[int, Any, str]]:
    """DuckDB's tokens of ``sql``: (offset, token type, text), comments included."""
    found = duckdb.tokenize(sql)
    ends = [start for start, _ in found[1:]] + [len(sql)]
    return [(start, kind, sql[start:end].strip()) for (start, kind), end in zip(found, ends)]


def _explains_a_select(con: duckdb.DuckDBPyConnection, sql: str) -> bool:
    """Whether the statement an EXPLAIN explains is a SELECT.

    After ``EXPLAIN [ANALYZE]`` comes either the statement or ``(options)`` and then the
    statement; ``EXPLAIN (SELECT 1)`` is the statement in parentheses. So the text from
    the parenthesis is tried first, then the text after the closing one; the first that
    parses decides. (A parenthesised SELECT cannot be read as options, nor options as a
    statement, so the two cannot be confused.)"""
    tokens = [(start, kind, text) for start, kind, text in tokenize(sql) if kind != duckdb.token_type.comment]
    words = [text.upper() for _, _, text in tokens]
    i = 1 if words[:1] == ["EXPLAIN"] else len(words)
    if i < len(words) and words[i] in ("ANALYZE", "ANALYSE"):
        i += 1
    candidates = [i] if i < len(words) else []
    if i < len(words) and words[i] == "(":
        depth = 0
        for j in range(i, len(words)):
            if tokens[j][1] == duckdb.token_type.operator:
                depth += words[j].count("(") - words[j].count(")")
            if depth == 0:
                candidates += [j + 1] if j + 1 < len(words) else []
                break
    for at in candidates:
        try:
            statements = con.extract_statements(sql[tokens[at][0]:])
        except duckdb.Error:
            continue
        return len(statements) == 1 and statements[0].type == duckdb.StatementType.SELECT
    return False
