"""DuckDB over an archive: views, named queries, and their parameters.

Views (for one game kind, ``7wonders-dice`` unless asked otherwise):

* ``events``: every event column, straight from the archive's Parquet files;
* ``games``, ``players``, ``turn_states``, ``actions``: the derived tables written by
  ``replay project`` (empty, with their columns, until then).

A named query is a ``.sql`` file in ``queries/`` whose header says the question,
the parameters (with types and defaults) and the output columns::

    -- question: How often does each city win, by player count?
    -- param: min_games int 1  hide cities with fewer games than this
    -- columns: players, city, games, wins, win_rate
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from ..archive import Archive
from ..errors import ReplayError
from ..plugin import registry
from .project import part_paths

VIEWS = ("events", "games", "players", "turn_states", "actions", "dice", "dice_faces")
QUERIES_ENV = "REPLAY_QUERIES"


class QueryError(ReplayError):
    """Bad SQL or an unknown query: DuckDB's message plus what there is to query."""


def _sql_list(paths: list[Path]) -> str:
    return "[" + ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths) + "]"


def connect(archive: Archive, kind: str = "7wonders-dice", threads: int | None = None) -> duckdb.DuckDBPyConnection:
    plugin = registry.get(kind)
    con = duckdb.connect()
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    state = archive.snapshot()
    files = sorted(archive.path_of(f.path) for f in state.files.values() if f.kind == kind)
    if files:
        con.execute(f"CREATE VIEW events AS SELECT * FROM read_parquet({_sql_list(files)}, union_by_name = true)")
    else:
        from ..schema import kind_schema

        con.register("_empty_events", kind_schema(plugin).empty_table())
        con.execute("CREATE VIEW events AS SELECT * FROM _empty_events")
    for name, table in (plugin.reference_tables() if plugin.reference_tables else {}).items():
        con.register(f"_ref_{name}", table)
        con.execute(f"CREATE VIEW {name} AS SELECT * FROM _ref_{name}")
    parts = part_paths(archive, kind)
    for name, schema in (plugin.derived_schemas or {}).items():
        if parts.get(name):
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet({_sql_list(parts[name])})")
        else:
            con.register(f"_empty_{name}", schema.empty_table())
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM _empty_{name}")
    return con


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: Any
    help: str

    def parse(self, text: str) -> Any:
        try:
            return {"int": int, "float": float, "str": str}[self.type](text)
        except ValueError:
            raise QueryError(f"parameter {self.name} must be {self.type}, got {text!r}") from None


@dataclass(frozen=True)
class NamedQuery:
    name: str
    question: str
    columns: str
    sql: str
    params: tuple[Param, ...] = field(default_factory=tuple)
    path: str = ""


def queries_dir() -> Path:
    """``$REPLAY_QUERIES``, else the queries shipped with the package (the repo's ``queries/``)."""
    env = os.environ.get(QUERIES_ENV)
    if env:
        return Path(env)
    return Path(str(resources.files("replay").joinpath("queries")))


def load_queries(directory: Path | None = None) -> dict[str, NamedQuery]:
    directory = directory or queries_dir()
    out = {}
    for path in sorted(directory.glob("*.sql")):
        out[path.stem] = parse_query(path.stem, path.read_text(), str(path))
    return out


def parse_query(name: str, text: str, path: str = "") -> NamedQuery:
    question = columns = ""
    params = []
    for line in text.splitlines():
        if not line.startswith("--"):
            continue
        body = line[2:].strip()
        key, _, value = body.partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "question":
            question = value
        elif key == "columns":
            columns = value
        elif key == "param":
            pname, ptype, default, *rest = value.split(None, 3)
            p = Param(pname, ptype, None, rest[0] if rest else "")
            params.append(Param(pname, ptype, p.parse(default), p.help))
    if not question or not columns:
        raise QueryError(f"{path or name}: the header needs '-- question:' and '-- columns:' lines")
    return NamedQuery(name, question, columns, text, tuple(params), path)


def run_sql(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | None = None) -> pa.Table:
    try:
        relation = con.sql(sql, params=params) if params else con.sql(sql)
        if relation is None:  # a statement with no result (CREATE, SET, ...)
            return pa.table({})
        fetch = getattr(relation, "to_arrow_table", None) or relation.arrow  # DuckDB 2 / DuckDB 1
        return fetch()
    except duckdb.Error as exc:
        views = ", ".join(VIEWS)
        raise QueryError(f"{exc}\n(views: {views}; see `replay query --list` for named queries)") from exc


def run_named(con: duckdb.DuckDBPyConnection, query: NamedQuery, given: dict[str, str]) -> pa.Table:
    known = {p.name: p for p in query.params}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise QueryError(f"{query.name} has no parameter {unknown[0]!r}; it takes: "
                         + (", ".join(known) or "none"))
    values = {p.name: (p.parse(given[p.name]) if p.name in given else p.default) for p in query.params}
    return run_sql(con, query.sql, values or None)
