"""DuckDB over an archive: views across every game kind, each game's own schema, named queries.

Views, for every installed kind at once:

* ``events``: the envelope of every event of every kind (game_id, seq, kind, type, version);
* ``games``, ``players``: the core's derived tables (``replay project``), one row per game
  and per seat, for every kind;
* ``<schema>.events``: one kind's events with their typed payload columns
  (``wonders_dice.events``, ``pig.events``);
* ``<schema>.<table>``: a game's own derived tables and its reference tables
  (``wonders_dice.actions``, ``wonders_dice.dice_faces``, ``pig.turns``).

Every view exists, with its columns, even when there is nothing in it yet.

By default a connection is sandboxed (:mod:`.sandbox`): queries read the archive's
``data/`` and ``derived/`` and nothing else, write nothing, and run one SELECT at a
time. ``unsafe=True`` (``replay query --unsafe-sql``) gives DuckDB's full powers.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.dataset as ds

from ..archive import Archive
from ..archive.location import AnyPath, FsPath
from ..problems import Location, Problem
from ..registry import GameRegistry
from ..schema import ENVELOPE_SCHEMA, kind_schema
from .core import CORE_TABLES
from .named import NamedQuery, QueryError, load_queries, load_query_dir
from .project import check_derived, coverage, damaged_tables
from .sandbox import OPENS, UNSAFE_FLAG, check_read_only, confine, tokenize
from .sources import sources

QUERIES_ENV = "REPLAY_QUERIES"
ENVELOPE = [f.name for f in ENVELOPE_SCHEMA if f.name != "hash"]


def _files(con: duckdb.DuckDBPyConnection, name: str, paths: list[AnyPath]) -> str:
    """What a query reads the Parquet files from: ``read_parquet([...])`` for local files; for an
    archive read by URI, a pyarrow dataset of them registered as ``_files_<name>`` (DuckDB reaches
    an object store only through an extension it would download, and the sandbox forbids that)."""
    local = [p for p in paths if isinstance(p, Path)]
    if len(local) == len(paths):
        return "read_parquet([" + ", ".join("'" + str(p).replace("'", "''") + "'" for p in local) + "])"
    remote = [p for p in paths if isinstance(p, FsPath)]
    alias = "_files_" + name.replace(".", "_")
    try:  # the first file's footer is read here (the schema); the rest as the query reads them
        con.register(alias, ds.dataset([p.path for p in remote], filesystem=remote[0].fs, format="parquet"))
    except (OSError, pa.ArrowException) as exc:
        raise QueryError(f"{name}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}\n{DAMAGE_HINT}") from None
    return alias


def _view(con: duckdb.DuckDBPyConnection, name: str, paths: list[AnyPath], empty: pa.Schema,
          select: str = "*") -> None:
    """``name`` over the Parquet files, or over an empty table of ``empty``'s columns."""
    if paths:
        try:
            con.execute(f"CREATE VIEW {name} AS SELECT {select} FROM {_files(con, name, paths)}")
        except duckdb.Error as exc:  # DuckDB reads the footers here: a damaged one fails the view
            raise QueryError(f"{name}: {exc}\n{DAMAGE_HINT}") from exc
        except UnicodeDecodeError as exc:  # DuckDB's message quotes a damaged footer's bytes
            raise QueryError(f"{name}: {NOT_UTF8}\n{DAMAGE_HINT}") from exc
    else:
        alias = "_empty_" + name.replace(".", "_")
        con.register(alias, empty.empty_table())
        con.execute(f"CREATE VIEW {name} AS SELECT {select} FROM {alias}")


def connect(archive: Archive, threads: int | None = None, unsafe: bool = False,
            leave_out: Collection[str] | None = None) -> duckdb.DuckDBPyConnection:
    """An in-process DuckDB connection with every view of the archive, sandboxed unless ``unsafe``:
    it may then read files under the archive's ``data/`` and ``derived/`` only, load no
    extension, and not change its settings (see :mod:`.sandbox`).

    The views of derived tables found damaged (``leave_out``; by default, by the size check
    of :func:`damaged_views`) are not made: a query that reads one fails to bind rather
    than answer from a damaged file, and an unreadable part cannot stop DuckDB from
    making the other views."""
    con = duckdb.connect()
    damaged = set(damaged_views(archive) if leave_out is None else leave_out)
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    src = sources(archive)
    envelope_parts = []
    for game in archive.registry.games():
        files = src.events[game.kind]
        if game.analytics is None:
            if files:
                envelope_parts.append(f"SELECT {', '.join(ENVELOPE)} FROM {_files(con, game.kind + '_events', files)}")
            continue
        schema = game.analytics.schema
        con.execute(f"CREATE SCHEMA {schema}")
        if f"{schema}.events" not in damaged:
            _view(con, f"{schema}.events", files, kind_schema(game))
            envelope_parts.append(f"SELECT {', '.join(ENVELOPE)} FROM {schema}.events")
        for name, table_schema in game.analytics.tables.items():
            if f"{schema}.{name}" not in damaged:
                _view(con, f"{schema}.{name}", src.parts.get(f"{schema}.{name}", []), table_schema)
        for name, table in game.analytics.reference_tables().items():
            con.register(f"_ref_{schema}_{name}", table)
            con.execute(f"CREATE VIEW {schema}.{name} AS SELECT * FROM _ref_{schema}_{name}")
    if "events" in damaged:
        pass  # some kind's events cannot be read: a union without them would be a wrong answer
    elif envelope_parts:
        con.execute("CREATE VIEW events AS " + " UNION ALL ".join(envelope_parts))
    else:
        _view(con, "events", [], pa.schema([f for f in ENVELOPE_SCHEMA if f.name != "hash"]))
    for name, table_schema in CORE_TABLES.items():
        if name not in damaged:
            _view(con, name, src.parts[name], table_schema)
    if not unsafe:
        confine(con, [archive.base / "data", archive.base / "derived"] if isinstance(archive.base, Path) else [])
    return con


def views(registry: GameRegistry) -> list[str]:
    """The names a query can read, for error messages and ``--list``."""
    names = ["events", *CORE_TABLES]
    for game in registry.games():
        if game.analytics is not None:
            s = game.analytics.schema
            names += [f"{s}.events"] + [f"{s}.{t}" for t in game.analytics.tables]
            names += [f"{s}.{t}" for t in game.analytics.reference_tables()]
    return names


def freshness(archive: Archive, sql: str = "") -> list[str]:
    """Sentences saying where the derived tables are missing or behind the archive (empty: current),
    and, for ``sql``, which of the tables it names are empty because the archive holds no game
    of their kind."""
    notes = []
    if not archive.snapshot().files:
        return ["the archive holds no games yet: every table is empty (add games with `replay import` or `replay simulate`)"]
    for game in archive.registry.games():
        c = coverage(archive, game)
        if not c.games:
            schema = game.analytics.schema if game.analytics else None
            if schema and f"{schema}." in sql.lower():
                notes.append(f"{game.kind}: the archive holds no {game.kind} games, so the {schema}.* tables are empty")
            continue
        if c.stale:
            notes.append(f"{game.kind}: the derived tables are of an older layout; run `replay project` to rebuild them")
        elif c.projected + c.live == 0 and not c.skipped:
            notes.append(f"{game.kind}: no derived tables yet for its {c.games} games; run `replay project`")
        elif c.behind > 0:
            notes.append(f"{game.kind}: the derived tables cover {c.projected + c.live} of {c.games} games; "
                         "run `replay project`")
        if c.skipped:
            notes.append(f"{game.kind}: {len(c.skipped)} game(s) could not be projected (see `replay stats`)")
    return notes + damage_notes(check_derived(archive, checksums=False))


def damage_notes(problems: list[Problem]) -> list[str]:
    """One sentence per kind whose derived tables :func:`check_derived` found damaged."""
    by_kind: dict[str, list[Problem]] = {}
    for p in problems:
        kind = (p.where.file or "").split("/")[1]
        by_kind.setdefault(kind, []).append(p)
    notes = []
    for kind, found in by_kind.items():
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        notes.append(f"{kind}: the derived tables are damaged: {found[0].where.file}: {found[0].message}{more}; "
                     "queries that read them are refused")
    return notes


# ----------------------------------------------------------------------------- named queries


def queries_dir() -> Path | None:
    """``$REPLAY_QUERIES``: a directory of extra cross-kind queries to try (optional)."""
    env = os.environ.get(QUERIES_ENV)
    return Path(env) if env else None


def all_queries(registry: GameRegistry) -> dict[str, NamedQuery]:
    """Every named query: the cross-kind ones by name, each game's as ``<schema>.<name>``."""
    out = dict(load_queries("replay", "queries"))
    extra = queries_dir()
    if extra is not None:
        out.update(load_query_dir(extra))
    for game in registry.games():
        if game.analytics is not None:
            for name, q in game.analytics.queries().items():
                out[f"{game.analytics.schema}.{name}"] = NamedQuery(
                    f"{game.analytics.schema}.{name}", q.question, q.columns, q.sql, q.params, q.path, game.kind)
    return out


def find_query(queries: dict[str, NamedQuery], name: str) -> NamedQuery:
    """A query by its full name, or by its bare name where only one query has it."""
    if name in queries:
        return queries[name]
    matches = [q for key, q in queries.items() if key.rpartition(".")[2] == name]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise QueryError(f"{name!r} names several queries: {', '.join(q.name for q in matches)}; give the full name")
    raise QueryError(f"no named query {name!r}; there are: {', '.join(queries)}")


def by_kind(queries: dict[str, NamedQuery]) -> dict[str, list[NamedQuery]]:
    """Queries grouped for ``--list``: the cross-kind ones first (under ''), then each kind's."""
    out: dict[str, list[NamedQuery]] = {}
    for q in sorted(queries.values(), key=lambda q: (q.kind, q.name)):
        out.setdefault(q.kind, []).append(q)
    return out


def run_sql(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | None = None,
            registry: GameRegistry | None = None, unsafe: bool = False) -> pa.Table:
    """The answer to ``sql``; unless ``unsafe``, only one read-only statement is run (:mod:`.sandbox`)."""
    try:
        if not unsafe:
            check_read_only(con, sql)
        relation = con.sql(sql, params=params) if params else con.sql(sql)
        if relation is None:  # a statement with no result (CREATE, SET, ...)
            return pa.table({})
        fetch = getattr(relation, "to_arrow_table", None) or relation.arrow  # DuckDB 2 / DuckDB 1
        table: pa.Table = fetch()
        return table
    except duckdb.PermissionException as exc:
        raise QueryError(f"refused: {exc}\n`replay query` may read files only under the archive's data/ and derived/, "
                         f"and may not write files, attach databases or load extensions; `{UNSAFE_FLAG}` opens {OPENS}") from exc
    except duckdb.Error as exc:
        if any(sign in str(exc) for sign in _DAMAGE_SIGNS):
            raise QueryError(f"{exc}\n{DAMAGE_HINT}") from exc
        from ..registry import registry as default

        names = ", ".join(views(registry or default))
        raise QueryError(f"{exc}\n(views: {names}; see `replay query --list` for named queries)") from exc
    except UnicodeDecodeError as exc:  # a message or a value quoting bytes of a damaged file
        raise QueryError(f"{NOT_UTF8}\n{DAMAGE_HINT}") from exc


NOT_UTF8 = "DuckDB answered with text that is not UTF-8 (a column name or a value read from a file)"

DAMAGE_HINT = "an archive file could not be read: it may be damaged; `replay verify` names it and says what repairs it"

_DAMAGE_SIGNS = ("TProtocolException", "magic bytes", "parquet", "Parquet", "Corrupt", "corrupt")
"""What DuckDB's messages say when a file it reads is damaged (DuckDB has no error class for it)."""


def run_named(con: duckdb.DuckDBPyConnection, query: NamedQuery, given: dict[str, str], unsafe: bool = False) -> pa.Table:
    """A named query, with the same checks as any other SQL (a shared query folder is no safer than a prompt)."""
    values = query.values(given)
    return run_sql(con, query.sql, values or None, unsafe=unsafe)


def ask(archive: Archive, query: str | NamedQuery, given: dict[str, str] | None = None,
        unsafe: bool = False) -> pa.Table:
    """What ``replay query`` runs: SQL or a named query over a fresh connection, sandboxed unless
    ``unsafe``, refused when it would read a derived table that is damaged (a wrong answer is
    worse than none: ``replay project --rebuild`` repairs it)."""
    sql = query.sql if isinstance(query, NamedQuery) else query
    damaged = damaged_views(archive)
    for table in sorted(reads(sql, damaged)):
        first = damaged[table][0]
        raise QueryError(f"refused: the query reads {table}, and {first.where.file} is damaged: {first.message}")
    con = connect(archive, unsafe=unsafe, leave_out=damaged)
    try:
        if isinstance(query, NamedQuery):
            return run_named(con, query, given or {}, unsafe=unsafe)
        return run_sql(con, query, unsafe=unsafe)
    except QueryError as exc:
        if not damaged:
            raise
        raise QueryError(f"{exc}\n(left out because files they read are damaged: {', '.join(sorted(damaged))}; "
                         "`replay verify` says what repairs them)") from exc


def damaged_views(archive: Archive) -> dict[str, list[Problem]]:
    """Views that must not be made, with why: derived tables whose parts fail the size check,
    and the event views of a kind whose committed files are missing or of the wrong size
    (a stat per file; the full sha256 is `replay verify`'s)."""
    out = damaged_tables(archive)
    schemas = {g.kind: g.analytics.schema for g in archive.registry.games() if g.analytics is not None}
    for entry in archive.snapshot().files.values():
        path = archive.path_of(entry.path)
        size = path.stat().st_size if path.is_file() else None
        if size == entry.bytes:
            continue
        what = "missing" if size is None else f"{size} bytes, the manifest says {entry.bytes}"
        problem = Problem("archive.size", f"{what}; run `replay verify`", where=Location(file=entry.path))
        for view in ("events", f"{schemas[entry.kind]}.events" if entry.kind in schemas else None):
            if view:
                out.setdefault(view, []).append(problem)
    return out


def reads(sql: str, tables: Iterable[str]) -> set[str]:
    """The ``tables`` (view names such as ``games``, ``pig.turns``) that ``sql`` may read.

    By name, from DuckDB's tokens, and on the safe side: a table counts when its last
    name part appears as a word of the query (``turns``, ``"turns"``) or inside a
    string (``query_table('pig.turns')``), whatever the context. DuckDB's own
    ``get_table_names`` cannot bind a query over these views, so it cannot say."""
    words, strings = set(), []
    for _, kind, text in tokenize(sql):
        if kind == duckdb.token_type.string_const:
            strings.append(text.lower())
        elif kind != duckdb.token_type.comment:
            words.add(text.strip('"').lower())
    out = set()
    for table in tables:
        last = table.rpartition(".")[2].lower()
        if last in words or any(last in s for s in strings):
            out.add(table)
    return out

