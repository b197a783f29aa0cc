"""`replay query --engine spark`: every named query gives DuckDB's answer on Spark, over the same
committed files, with the same refusals, on a small archive of every kind (one Spark session
for the whole file: the ``spark`` fixture; skipped, saying why, only where Java or pyspark is missing)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from spark_compare import differences

from replay.analytics.named import QueryError
from replay.analytics.project import derived_dir
from replay.analytics.sql import all_queries, views
from replay.analytics.sql import ask as duck_ask
from replay.archive import Archive
from replay.cli.main import cli
from replay.games.pig import GAME as PIG
from replay.games.seven_wonders_duel import GAME as DUEL
from replay.registry import registry
from replay.services.simulation import simulate_games

QUERIES = all_queries(registry)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    """Twenty simulated games of every kind (and 7 Wonders Duel under Pantheon and Agora, whose
    queries read their own tables), projected with the local engine through `replay project`."""
    archive = Archive.init(tmp_path_factory.mktemp("spark") / "archive")
    for game in registry.games():
        low, high = game.players
        simulate_games(game, archive, 20, (low, min(high, 4)), seed=11)
    for seed, pack in ((12, "7wd-duel-pantheon"), (13, "7wd-duel-agora")):
        simulate_games(DUEL, archive, 8, (2, 2), seed=seed, pack=DUEL.pack(pack))
    result = CliRunner().invoke(cli, ["project", "-a", str(archive.root), "--workers", "1"])
    assert result.exit_code == 0, result.output
    return archive


@pytest.fixture(scope="module")
def every_view(mixed, spark):
    """One Spark session with every view of the archive, for the named queries (``ask`` makes a
    session per query with the views it reads; the other tests go through it)."""
    from replay.spark.sql import connect

    return connect(spark, mixed, set(views(registry)))


@pytest.fixture
def copy(mixed: Archive, tmp_path: Path) -> Archive:
    """A copy of the archive to damage, in a folder whose name Spark would read as a glob pattern."""
    shutil.copytree(mixed.root, tmp_path / "games[1]" / "archive")
    return Archive(tmp_path / "games[1]" / "archive")


def _spark_ask(archive, query, spark, given=None):
    from replay.spark.sql import ask

    return ask(archive, query, given, spark=spark)


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_every_named_query_gives_the_same_answer_on_both_engines(mixed, every_view, name):
    from replay.spark.sql import run
    from replay.spark.translate import translate

    query = QUERIES[name]
    duck = duck_ask(mixed, query)
    spark = run(every_view, translate(query.sql, views(registry), query.values({})).sql)
    assert differences(duck, spark) == []


def test_the_archive_answers_nearly_every_named_query(mixed):
    """The comparison above means something only where there are rows to compare."""
    empty = sorted(n for n, q in QUERIES.items() if duck_ask(mixed, q).num_rows == 0)
    assert empty == []


def test_parameters_are_bound_as_literals_not_pasted(mixed, spark):
    query = QUERIES["game_lengths"]
    pig = _spark_ask(mixed, query, spark, {"kind": "pig"})
    assert pig.num_rows == 20 and set(pig.column("kind").to_pylist()) == {"pig"}
    assert differences(duck_ask(mixed, query, {"kind": "pig"}), pig) == []
    for hostile in ("' OR 1=1 --", "it's \\' OR ''='"):  # pasted into the text, these would match every game
        assert _spark_ask(mixed, query, spark, {"kind": hostile}).num_rows == 0
    few = _spark_ask(mixed, QUERIES["seven_wonders.cards_built_by_winners"], spark, {"top": "3"})
    assert few.num_rows == 3


def test_ad_hoc_sql_across_kinds_through_the_command(mixed, spark):
    sql = ("SELECT g.kind, count(*) AS seats, count(*) FILTER (WHERE p.won) AS wins, round(avg(p.total), 3) AS avg_total "
           "FROM games g JOIN players p USING (game_id) GROUP BY g.kind ORDER BY g.kind")
    runner = CliRunner()
    answers = []
    for engine in ("duckdb", "spark"):
        result = runner.invoke(cli, ["query", "-a", str(mixed.root), "--engine", engine, "--format", "json", sql])
        assert result.exit_code == 0, result.output
        answers.append(json.loads(result.stdout))
    assert answers[0] == answers[1] and len(answers[0]) == len(list(registry.games()))
    turns = runner.invoke(cli, ["query", "-a", str(mixed.root), "--engine", "spark", "--format", "json",
                                "SELECT count(*) AS n FROM pig.turns WHERE turns.bust"])
    assert turns.exit_code == 0, turns.output
    local = runner.invoke(cli, ["query", "-a", str(mixed.root), "--format", "json",
                                "SELECT count(*) AS n FROM pig.turns WHERE turns.bust"])
    assert json.loads(turns.stdout) == json.loads(local.stdout) and json.loads(local.stdout)[0]["n"] > 0


def test_only_committed_files_are_read(copy, spark):
    sql = "SELECT (SELECT count(*) FROM pig.turns) AS turns, (SELECT count(*) FROM events) AS events"
    before = _spark_ask(copy, sql, spark).to_pylist()
    part = next((derived_dir(copy, PIG.kind) / "pig.turns").glob("*.parquet"))
    shutil.copy(part, part.with_name("part-leftover.parquet"))  # as a crashed `replay project` leaves it
    data = next(p for p in (copy.root / "data").rglob("*.parquet"))
    shutil.copy(data, data.with_name("uncommitted.parquet"))  # as a crashed append leaves it
    assert _spark_ask(copy, sql, spark).to_pylist() == before == duck_ask(copy, sql).to_pylist()


def test_a_damaged_part_is_refused_or_named_never_answered(copy, spark):
    part = next((derived_dir(copy, PIG.kind) / "pig.turns").glob("*.parquet"))
    data = part.read_bytes()
    part.write_bytes(data[:-100])  # truncated: the size check refuses it before Spark reads anything
    with pytest.raises(QueryError, match="refused: the query reads pig.turns"):
        _spark_ask(copy, "SELECT count(*) FROM pig.turns", spark)
    assert _spark_ask(copy, "SELECT count(*) AS n FROM fleet.players", spark).num_rows == 1  # the other views answer
    part.write_bytes(data[:-8] + b"\0" * 8)  # the same size, the footer destroyed: only reading finds it
    for ask in (duck_ask, lambda a, q: _spark_ask(a, q, spark)):
        with pytest.raises(QueryError, match="could not be read: it may be damaged"):
            ask(copy, "SELECT sum(banked) FROM pig.turns")


@pytest.mark.parametrize("sql, refused", [
    ("CREATE TABLE t AS SELECT 1", "CREATE"),
    ("INSERT OVERWRITE DIRECTORY '/tmp/out' SELECT * FROM games", "INSERT"),
    ("SET spark.sql.runSQLOnFiles = true", "SET"),
    ("ADD JAR /tmp/x.jar", "ADD"),
    ("CACHE TABLE games", "CACHE"),
    ("SELECT TRANSFORM(game_id) USING 'cat' FROM games", "TRANSFORM"),
    ("SELECT * FROM parquet.\"/etc/passwd\"", "not one of the archive's views"),
    ("SELECT * FROM spark_catalog.default.games", "not one of the archive's views"),
    ("SELECT reflect('java.lang.System', 'exit', '0')", "reflect"),
    ("SELECT 1; DROP TABLE games", "2 statements"),
    ("WITH x AS (SELECT 1) INSERT INTO games SELECT * FROM x", "INSERT"),
])
def test_anything_but_one_read_only_query_is_refused(sql, refused):
    """Decided on sqlglot's tree before Spark is asked (no JVM needed)."""
    from replay.spark.translate import translate

    with pytest.raises(QueryError, match="^refused: ") as caught:
        translate(sql, views(registry))
    assert refused in str(caught.value)


def test_a_refusal_through_the_command(mixed, spark):
    result = CliRunner().invoke(cli, ["query", "-a", str(mixed.root), "--engine", "spark",
                                      "INSERT OVERWRITE DIRECTORY '/tmp/out' SELECT * FROM games"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "refused: INSERT" in result.stderr


def test_the_translation_reads_the_views_it_names():
    from replay.spark.translate import translate

    done = translate("SELECT t.game_id FROM pig.turns t JOIN games USING (game_id) WHERE turns_x = $n",
                     views(registry), {"n": "it's"})
    assert done.reads == {"pig.turns", "games"}
    assert "`pig.turns` AS t" in done.sql and "'it\\'s'" in done.sql
    with pytest.raises(QueryError, match=r"\$n, which is not given"):
        translate("SELECT $n", views(registry))


def test_sql_spark_cannot_run_gets_one_message_naming_the_engine(mixed, spark):
    result = CliRunner().invoke(cli, ["query", "-a", str(mixed.root), "--engine", "spark",
                                      "SELECT list_reduce([1, 2, 3], (a, b) -> a + b) AS s"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "Spark SQL" in result.stderr and "list_reduce" in result.stderr.lower()
    bad = CliRunner().invoke(cli, ["query", "-a", str(mixed.root), "--engine", "spark", "SELEC 1"])
    assert bad.exit_code == 1 and "Spark SQL" in bad.stderr and "Traceback" not in bad.output


def test_spark_only_flags_are_checked(mixed):
    runner = CliRunner()
    unsafe = runner.invoke(cli, ["query", "-a", str(mixed.root), "--engine", "spark", "--unsafe-sql", "SELECT 1"])
    assert unsafe.exit_code == 2 and "--unsafe-sql" in unsafe.stderr
    master = runner.invoke(cli, ["query", "-a", str(mixed.root), "--spark-master", "local[1]", "SELECT 1"])
    assert master.exit_code == 2 and "--engine spark" in master.stderr
    conf = runner.invoke(cli, ["query", "-a", str(mixed.root), "--engine", "spark", "--spark-conf", "no-value", "SELECT 1"])
    assert conf.exit_code == 2 and "KEY=VALUE" in conf.stderr


def test_without_java_one_message_and_no_traceback(tmp_path):
    """A subprocess whose PATH has no `java` and no JAVA_HOME: the check runs before Spark is asked."""
    Archive.init(tmp_path / "archive")
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"} | {"PATH": str(Path(sys.executable).parent)}
    run = subprocess.run([sys.executable, "-m", "replay", "query", "-a", str(tmp_path / "archive"), "--engine", "spark",
                          "SELECT 1"], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "Java" in run.stderr and run.stdout == ""


def test_spark_decimals_become_the_floats_duckdb_prints():
    """Spark's exact decimal averages are given as DuckDB's floats: the nearest float to the decimal,
    so 0.6667 prints as 0.6667 on both engines (Arrow's own cast gives 0.6667000000000001)."""
    import decimal

    import pyarrow as pa

    from replay.spark.sql import _as_duckdb_numbers

    values = [decimal.Decimal("0.6667"), None, decimal.Decimal("-12.3457"), decimal.Decimal("0.0001")]
    table = _as_duckdb_numbers(pa.table({"rate": pa.array(values, pa.decimal128(10, 4)),
                                         "wins": pa.array([decimal.Decimal(3), None, decimal.Decimal(-1), None],
                                                          pa.decimal128(10, 0))}))
    assert table.column("rate").to_pylist() == [0.6667, None, -12.3457, 0.0001]
    assert table.schema.field("wins").type == pa.int64() and table.column("wins").to_pylist() == [3, None, -1, None]
