"""``replay query`` is sandboxed: one read-only statement, files under the archive only.

Every escape that DuckDB offers (reading or writing files elsewhere, writing inside the
archive, attaching databases, extensions, settings, EXPLAIN ANALYZE of a write) is tried
through the command on a real archive: it is refused with exit 1 and nothing is written;
with --unsafe-sql it runs. A hostile query file in a REPLAY_QUERIES folder is held to the
same rules.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from replay.analytics.named import QueryError
from replay.analytics.project import project
from replay.analytics.sql import all_queries, ask, connect, run_sql
from replay.archive import Archive
from replay.cli.main import cli
from replay.games.pig import GAME as PIG
from replay.games.wonders_dice import GAME as WD
from replay.registry import registry
from replay.services.simulation import simulate_games


@pytest.fixture(scope="module")
def projected(tmp_path_factory) -> Archive:
    archive = Archive.init(tmp_path_factory.mktemp("sandbox") / "archive")
    simulate_games(PIG, archive, 4, (2, 3), (), seed=11)
    simulate_games(WD, archive, 3, (2, 3), (), seed=12)
    project(archive)
    return archive


@pytest.fixture
def archive(projected, tmp_path) -> Archive:
    """A copy per test, so a test that gets through cannot spoil the next."""
    return Archive(shutil.copytree(projected.root, tmp_path / "archive"))


def _tree(root: Path) -> dict[str, str]:
    """Every file under ``root`` (but the lock files) with its sha256: to see that nothing was written."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock"}


def _query(archive: Archive, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["query", "-a", str(archive.root), *args])
    assert "Traceback" not in result.output and not isinstance(result.exception, AssertionError)
    return result.exit_code, result.output


def _escapes(archive: Archive, outside: Path) -> dict[str, tuple[str, Path | None]]:
    """name: (SQL, the file it would write, if any)."""
    secret = outside / "secret.csv"
    secret.write_text("who,what\nmallory,the-secret-value\n")
    part = next((archive.root / "derived" / "pig" / "pig.turns").glob("part-*.parquet"))
    inside = archive.root / "derived" / "stolen.csv"
    return {
        "read a file outside": (f"SELECT * FROM read_csv('{secret}')", None),
        "read a file by ..": (f"SELECT * FROM read_csv('{archive.root}/data/../../{outside.name}/secret.csv')", None),
        "list files outside": (f"SELECT * FROM glob('{outside}/*')", None),
        "write a file outside": (f"COPY (SELECT 1 AS x) TO '{outside / 'out.csv'}'", outside / "out.csv"),
        "write a file inside": (f"COPY (SELECT * FROM games) TO '{inside}'", inside),
        "rewrite a derived part": (f"COPY (SELECT * FROM pig.turns WHERE turn > 1) TO '{part}' (FORMAT parquet)", None),
        "attach a database": (f"ATTACH '{outside / 'db.duckdb'}' AS other", outside / "db.duckdb"),
        "install an extension": ("INSTALL httpfs", None),
        "load an extension": ("LOAD httpfs", None),
        "open the sandbox again": ("SET enable_external_access = true", None),
        "widen the directories": ("SET allowed_directories = ['/']", None),
        "explain analyze a write": (f"EXPLAIN ANALYZE COPY (SELECT 1 AS x) TO '{inside}'", inside),
        "explain (analyze) a write": (f"EXPLAIN (ANALYZE) COPY (SELECT 1 AS x) TO '{inside}'", inside),
        "a read, then a write": (f"SELECT 1; COPY (SELECT 1 AS x) TO '{inside}'", inside),
        "create a table": ("CREATE TABLE t AS SELECT * FROM games", None),
        "drop a view": ("DROP VIEW games", None),
    }


ESCAPES = [
    "read a file outside", "read a file by ..", "list files outside", "write a file outside", "write a file inside",
    "rewrite a derived part", "attach a database", "install an extension", "load an extension",
    "open the sandbox again", "widen the directories", "explain analyze a write", "explain (analyze) a write",
    "a read, then a write", "create a table", "drop a view",
]


@pytest.mark.parametrize("escape", ESCAPES)
def test_every_escape_is_refused_and_writes_nothing(archive, tmp_path, escape):
    outside = tmp_path / "outside"
    outside.mkdir()
    sql, target = _escapes(archive, outside)[escape]
    before, outside_before = _tree(archive.root), _tree(outside)
    status, output = _query(archive, sql)
    assert status == 1, output
    assert "refused" in output and "--unsafe-sql" in output
    assert "the-secret-value" not in output
    assert _tree(archive.root) == before and _tree(outside) == outside_before
    assert target is None or not target.exists()


def test_the_refusal_names_the_statement_type(archive):
    for sql, kind in [("COPY (SELECT 1) TO 'x.csv'", "COPY"), ("ATTACH ':memory:' AS m", "ATTACH"),
                      ("SET threads = 1", "SET"), ("CREATE VIEW v AS SELECT 1", "CREATE"), ("LOAD json", "LOAD")]:
        with pytest.raises(QueryError, match=f"refused: {kind} statement.*--unsafe-sql"):
            ask(archive, sql)


@pytest.mark.parametrize("escape", ["read a file outside", "list files outside", "write a file outside",
                                    "write a file inside", "attach a database", "widen the directories",
                                    "explain analyze a write", "a read, then a write", "create a table"])
def test_with_unsafe_sql_the_same_statements_run(archive, tmp_path, escape):
    outside = tmp_path / "outside"
    outside.mkdir()
    sql, target = _escapes(archive, outside)[escape]
    status, output = _query(archive, "--unsafe-sql", sql)
    assert status == 0, output
    assert target is None or target.exists()
    if escape == "read a file outside":
        assert "the-secret-value" in output


def test_a_hostile_named_query_in_a_shared_folder_is_refused(archive, tmp_path, monkeypatch):
    shared = tmp_path / "shared-queries"
    shared.mkdir()
    victim = archive.root / "derived" / "pig" / "manifest.json"
    header = "-- question: Innocent looking?\n-- columns: n\n"
    (shared / "innocent.sql").write_text(header + f"COPY (SELECT 1 AS n) TO '{victim}' (FORMAT csv)\n")
    (shared / "peek.sql").write_text(header + f"SELECT count(*) AS n FROM read_text('{tmp_path / 'secret.txt'}')\n")
    (tmp_path / "secret.txt").write_text("the-secret-value")
    monkeypatch.setenv("REPLAY_QUERIES", str(shared))
    before = _tree(archive.root)
    for name in ("innocent", "peek"):
        status, output = _query(archive, "--name", name)
        assert status == 1 and "refused" in output and "--unsafe-sql" in output, output
    assert _tree(archive.root) == before
    status, output = _query(archive, "--name", "peek", "--unsafe-sql")
    assert status == 0 and output.split()[-1] == "1"


def test_reads_of_every_kind_run_in_the_sandbox(archive):
    con = connect(archive)
    for sql in ["SELECT count(*) AS n FROM games", "FROM players LIMIT 1", "DESCRIBE games", "SHOW TABLES",
                "SUMMARIZE pig.turns", "VALUES (1), (2)", "WITH t AS (SELECT * FROM games) SELECT count(*) FROM t",
                "EXPLAIN SELECT * FROM games", "EXPLAIN (FORMAT json) SELECT 1", "EXPLAIN (SELECT 1)",
                "EXPLAIN ANALYZE SELECT count(*) FROM pig.turns", "PIVOT games ON kind IN ('pig') USING count(*)",
                "-- a comment first\nSELECT 1;", f"SELECT count(*) AS n FROM read_parquet('{archive.root}/data/**/*.parquet')",
                f"SELECT count(*) AS n FROM glob('{archive.root}/derived/*/*/*.parquet')"]:
        assert run_sql(con, sql).num_columns >= 1, sql


def test_every_named_query_runs_in_the_sandbox(archive):
    for name, q in all_queries(registry).items():
        assert ask(archive, q).num_columns >= 1, name


def test_nothing_to_run_is_an_error_not_a_refusal(archive):
    with pytest.raises(QueryError, match="no SQL statement"):
        ask(archive, "-- only a comment")


def test_the_service_takes_unsafe_too(archive, tmp_path):
    out = tmp_path / "games.csv"
    with pytest.raises(QueryError, match="refused"):
        ask(archive, f"COPY (FROM games) TO '{out}'")
    assert not out.exists()
    ask(archive, f"COPY (FROM games) TO '{out}'", unsafe=True)
    assert out.read_text().startswith("kind,")
    con = connect(archive, unsafe=True)
    assert run_sql(con, "SELECT 1 AS a; SELECT 2 AS b", unsafe=True).column_names == ["b"]
    with pytest.raises(duckdb.Error):
        connect(archive).execute("SET enable_external_access = true")  # the settings are locked, not only refused
