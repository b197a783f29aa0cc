"""Shared helpers for the tests of a game's named queries: ask one through the command line, and
compare its answer with values counted in the test (importable because conftest puts tests/ on
sys.path)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import pyarrow as pa
import pytest
from click.testing import CliRunner

from replay.analytics.project import derive_game
from replay.analytics.sql import all_queries, connect, run_sql
from replay.archive import Archive
from replay.cli.main import cli
from replay.contract import AnyGame
from replay.services.simulation import simulate_games


def projected(tmp_path_factory: pytest.TempPathFactory, game: AnyGame, games: int, players: tuple[int, int],
              bots: tuple[str, ...], seed: int) -> Archive:
    """An archive of simulated games of one kind, projected through the command (``replay project``)."""
    archive = Archive.init(tmp_path_factory.mktemp(game.kind) / "archive")
    simulate_games(game, archive, games, players, bots, seed=seed)
    result = CliRunner().invoke(cli, ["project", "-a", str(archive.root)])
    assert result.exit_code == 0, result.output
    return archive


def ask(archive: Archive, name: str, **params: Any) -> list[dict[str, Any]]:
    """A named query's answer (``name``: ``schema.query``) through the command, in the sandbox (the default)."""
    args = ["query", "-a", str(archive.root), "--name", name, "--format", "json"]
    for k, v in params.items():
        args += ["--param", f"{k}={v}"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


def places(column: str) -> int:
    return 4 if column.endswith(("_rate", "_share", "_odds")) else 2


def agree(got: list[dict[str, Any]], keys: tuple[str, ...], expected: dict[tuple[Any, ...], dict[str, Any]]) -> None:
    """Every row of the answer, by its key columns, has the expected values (floats to the query's rounding)."""
    by_key = {tuple(row[k] for k in keys): row for row in got}
    assert set(by_key) == set(expected)
    for key, values in expected.items():
        for column, want in values.items():
            have = by_key[key][column]
            if isinstance(want, float):
                assert have is not None and abs(have - want) <= 0.5 * 10 ** -places(column) + 1e-9, (key, column, have, want)
            else:
                assert have == want, (key, column, have, want)


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def rate(items: list[Any], test: Callable[[Any], bool]) -> float:
    return sum(1 for x in items if test(x)) / len(items)


def grouped(rows: Iterable[tuple[Any, dict[str, Any]]]) -> dict[Any, list[dict[str, Any]]]:
    out: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for key, row in rows:
        out[key].append(row)
    return out


def every(games: list[dict[str, Any]], table: str) -> Iterable[tuple[dict[str, Any], dict[str, Any]]]:
    """(game, row) of each row of one of the hand count's tables, game by game."""
    for g in games:
        for row in g[table]:
            yield g, row


def check_tables(archive: Archive, game: AnyGame, counts: dict[str, int], derived: int = 5) -> None:
    """Each of the game's own tables has its columns and ``counts`` rows; the rows of the first
    ``derived`` games have exactly their tables' columns and every value fits its column."""
    assert game.analytics is not None
    schema, tables = game.analytics.schema, dict(game.analytics.tables)
    con = connect(archive)
    for name, table_schema in tables.items():
        described = run_sql(con, f"DESCRIBE {schema}.{name}").to_pylist()
        assert [c["column_name"] for c in described] == table_schema.names
        assert run_sql(con, f"SELECT count(*) AS n FROM {schema}.{name}").to_pylist() == [{"n": counts[name]}]
    for g in list(archive.games())[:derived]:
        rows = derive_game(game, archive.read_game(g.game_id), archive.library(game.kind), ended=True)
        for name, table_schema in tables.items():
            for row in rows[f"{schema}.{name}"]:
                assert set(row) == set(table_schema.names), (name, set(row) ^ set(table_schema.names))
            pa.Table.from_pylist(rows[f"{schema}.{name}"], schema=table_schema)  # every value fits its column


def strategies_unrecorded(game: AnyGame, bots: tuple[str, ...], tables: tuple[str, ...]) -> None:
    """A simulated game whose start says it was typed: its rows (of ``tables``) have no strategy."""
    assert game.bots is not None and game.analytics is not None
    events = game.bots.simulate("typed", ["Ana", "Ben", "Chloe"], 3, bots, game.pack())
    start = events[0]
    events[0] = start._replace(payload={**start.payload, "provenance": {"source": "typed", "detail": ""}})
    rows = derive_game(game, events, game.library(), ended=True)
    schema = game.analytics.schema
    assert rows[f"{schema}.players"] and all(r["strategy"] is None for t in tables for r in rows[f"{schema}.{t}"])


def check_named(archive: Archive, kind: str, schema: str, names: tuple[str, ...]) -> None:
    """The game's named queries are exactly ``names``, each with its question and columns, and each
    answers (through the command) with rows of exactly those columns."""
    from replay.registry import registry

    queries = {k: q for k, q in all_queries(registry).items() if q.kind == kind}
    assert set(queries) == {f"{schema}.{q}" for q in names}
    assert all(q.question and q.columns for q in queries.values())
    for name in names:
        rows = ask(archive, f"{schema}.{name}")
        assert rows, name
        assert list(rows[0]) == [c.strip() for c in queries[f"{schema}.{name}"].columns.split(",")], name
