"""An archive read by URI (docs/scale-out.md): the commands that only read take ``s3://``,
``file://`` and the other URIs pyarrow opens, and answer as they do from the local path; the
commands that write refuse a URI before opening anything.

The object store is real S3 protocol: moto's S3 server on loopback (no cloud account), with the
archive copied into a bucket, as a site would upload one. ``file://`` goes through the same
pyarrow filesystem code as S3, and is what Spark reads here (Spark's S3 connector, hadoop-aws,
is not installed on the test machine)."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from spark_compare import differences

from replay.analytics.sql import all_queries, connect, run_named
from replay.archive import Archive
from replay.archive.location import FsPath, listing, reading_root, relative
from replay.cli.main import cli
from replay.errors import NotAnArchive
from replay.registry import registry
from replay.services.simulation import simulate_games

QUERIES = all_queries(registry)
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six simulated games of every kind, projected: every view has rows."""
    archive = Archive.init(tmp_path_factory.mktemp("uri") / "archive")
    for game in registry.games():
        low, high = game.players
        simulate_games(game, archive, 6, (low, min(high, 4)), seed=5)
    done = CliRunner().invoke(cli, ["project", "-a", str(archive.root), "--workers", "1"])
    assert done.exit_code == 0, done.output
    return archive.root


@pytest.fixture(scope="module")
def s3_server() -> Iterator[str]:
    """A local S3 endpoint (host:port), with test credentials in the environment pyarrow reads."""
    server_module = pytest.importorskip("moto.server", reason="moto (the test extra) is not installed")
    saved = {k: os.environ.get(k) for k in CREDENTIALS}
    os.environ.update(CREDENTIALS)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = server_module.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"{host}:{port}"
    finally:
        server.stop()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _client(endpoint: str) -> Any:
    """A boto3 client for the test endpoint. The test writes with single PUTs: pyarrow's output
    streams upload in parts, and moto's server sometimes answers a part upload's completion with
    an error pyarrow retries and then raises on a loaded machine (seen once in CI)."""
    boto3 = pytest.importorskip("boto3", reason="boto3 (moto's dependency, the test extra) is not installed")
    return boto3.client("s3", endpoint_url=f"http://{endpoint}", region_name="us-east-1")


def _upload(local: Path, endpoint: str, bucket: str) -> str:
    """The archive copied into a new bucket, one PUT per file, as a site would upload one; its URI."""
    client = _client(endpoint)
    client.create_bucket(Bucket=bucket)
    for path in sorted(p for p in local.rglob("*") if p.is_file()):
        client.put_object(Bucket=bucket, Key=f"archive/{path.relative_to(local).as_posix()}", Body=path.read_bytes())
    return f"s3://{bucket}/archive?endpoint_override={endpoint}&scheme=http&region=us-east-1"


@pytest.fixture(scope="module")
def s3(local: Path, s3_server: str) -> str:
    return _upload(local, s3_server, "games")


def _file_uri(path: Path) -> str:
    return path.resolve().as_uri()


def test_every_named_query_answers_alike_from_the_path_a_file_uri_and_s3(local, s3) -> None:
    connections = {where: connect(Archive.for_reading(where)) for where in (str(local), _file_uri(local), s3)}
    answered = 0
    for query in QUERIES.values():
        answers = [run_named(con, query, {}) for con in connections.values()]
        assert answers[0].num_rows == answers[1].num_rows == answers[2].num_rows, query.name
        assert differences(answers[0], answers[1]) == [] and differences(answers[0], answers[2]) == [], query.name
        assert answers[0].schema == answers[1].schema == answers[2].schema, query.name
        answered += answers[0].num_rows > 0
    assert answered > len(QUERIES) // 2  # not a comparison of empty answers


def _same_output(local: Path, uri: str, args: list[str]) -> str:
    """The command's output by URI, which must be its output by path (the archive's name aside)."""
    by_path = CliRunner().invoke(cli, [*args, "-a", str(local)])
    by_uri = CliRunner().invoke(cli, [*args, "-a", uri])
    assert by_path.exit_code == 0, by_path.output
    assert by_uri.exit_code == 0, by_uri.output
    shown_uri = re.sub(r"\?.*", "", uri)
    assert by_uri.output.replace(shown_uri, "ARCHIVE") == by_path.output.replace(str(local), "ARCHIVE")
    return by_uri.output


@pytest.mark.parametrize("args", [["games"], ["stats"], ["verify", "--deep"], ["regress"],
                                  ["query", "--format", "csv", "SELECT kind, count(*) AS n FROM events GROUP BY 1 ORDER BY 1"],
                                  ["query", "--format", "csv", "--name", "wonders_dice.win_rate_by_city"]])
def test_the_reading_commands_print_the_same_from_s3_as_from_the_path(local, s3, args) -> None:
    output = _same_output(local, s3, args)
    assert output.strip()


def test_a_game_read_by_file_uri_is_the_game_read_by_path(local) -> None:
    game_id = Archive(local).games()[0].game_id
    output = _same_output(local, _file_uri(local), ["events", game_id, "--format", "json"])
    assert '"type": "game_started"' in output and '"type": "game_ended"' in output


def test_the_sandbox_holds_for_an_archive_read_by_uri(local, s3) -> None:
    done = CliRunner().invoke(cli, ["query", "-a", s3, "SELECT * FROM read_csv('/etc/passwd')"])
    assert done.exit_code == 1 and "refused" in done.output and "root" not in done.output, done.output
    done = CliRunner().invoke(cli, ["query", "-a", s3, "COPY (SELECT 1) TO '/tmp/replay-uri-escape.csv'"])
    assert done.exit_code == 1 and not Path("/tmp/replay-uri-escape.csv").exists(), done.output


def test_a_damaged_file_in_the_bucket_is_named_and_refused(local, s3_server) -> None:
    uri = _upload(local, s3_server, "damaged")
    archive = Archive.for_reading(uri)
    entry = sorted(archive.snapshot().files.values(), key=lambda f: f.path)[0]
    target = archive.path_of(entry.path)
    assert isinstance(target, FsPath)
    data = target.read_bytes()
    bucket, key = target.path.split("/", 1)
    _client(s3_server).put_object(Bucket=bucket, Key=key, Body=data[: len(data) // 2])  # truncated
    verify = CliRunner().invoke(cli, ["verify", "-a", uri])
    assert verify.exit_code == 1 and entry.path in verify.output and "Traceback" not in verify.output, verify.output
    query = CliRunner().invoke(cli, ["query", "-a", uri, "SELECT count(*) FROM events"])
    assert query.exit_code == 1 and "damaged" in query.output and entry.path in query.output, query.output


@pytest.mark.parametrize("args", [["project"], ["project", "--engine", "spark"], ["compact"],
                                  ["simulate", "--game", "pig", "--games", "1"], ["import", "x.jsonl"]])
def test_the_writing_commands_refuse_a_uri_before_opening_it(tmp_path, args) -> None:
    """No endpoint answers here: a command that tried to open the URI would take seconds to fail."""
    for uri in ("s3://bucket/archive?endpoint_override=127.0.0.1:9&scheme=http", "hdfs://namenode/games"):
        done = CliRunner().invoke(cli, [*args, "-a", uri])
        assert done.exit_code == 2 and "POSIX filesystem" in done.output and "Traceback" not in done.output, done.output
    assert not Path("s3:").exists() and not Path("hdfs:").exists()


def test_init_refuses_a_uri() -> None:
    done = CliRunner().invoke(cli, ["init", "s3://bucket/archive"])
    assert done.exit_code == 1 and "POSIX filesystem" in done.output and not Path("s3:").exists(), done.output


def test_a_uri_that_is_no_archive_or_no_place_is_told_apart(s3_server) -> None:
    empty = CliRunner().invoke(cli, ["games", "-a", f"s3://games/elsewhere?endpoint_override={s3_server}&scheme=http"])
    assert empty.exit_code == 1 and "not a replay archive" in empty.output and "replay init" not in empty.output
    unknown = CliRunner().invoke(cli, ["games", "-a", "nosuch://x/y"])
    assert unknown.exit_code == 1 and "cannot open that location" in unknown.output, unknown.output
    with pytest.raises(NotAnArchive, match="cannot open"):
        reading_root("nosuch://x/y")


def test_a_path_on_a_pyarrow_filesystem_reads_as_the_local_path(local) -> None:
    """FsPath's few pathlib operations, against pathlib on the same folder."""
    remote = reading_root(_file_uri(local))
    assert isinstance(remote, FsPath) and str(remote) == _file_uri(local)
    for folder in ("", "manifest", "data", "packs", "derived"):
        here, there = local / folder if folder else local, remote / folder if folder else remote
        assert [p.name for p in listing(there)] == [p.name for p in listing(here)]
        assert [p.is_dir() for p in listing(there)] == [p.is_dir() for p in listing(here)]
    marker = remote / "REPLAY_ARCHIVE"
    assert marker.read_bytes() == (local / "REPLAY_ARCHIVE").read_bytes()
    assert marker.stat().st_size == (local / "REPLAY_ARCHIVE").stat().st_size
    assert relative(remote / "data" / "x.parquet", remote) == "data/x.parquet"
    assert not (remote / "no-such-file").exists() and list(listing(remote / "no-such-folder")) == []
    with pytest.raises(FileNotFoundError):
        (remote / "no-such-file").read_bytes()


def test_spark_reads_an_archive_by_uri(local, spark) -> None:
    from replay.analytics.sql import ask as duck_ask
    from replay.spark.sql import ask as spark_ask

    by_uri = Archive.for_reading(_file_uri(local))
    for name in ("wonders_dice.win_rate_by_city", "game_lengths"):
        query = QUERIES[name]
        assert differences(duck_ask(Archive(local), query), spark_ask(by_uri, query, spark=spark)) == []


def test_spark_is_given_hadoop_s_spelling_of_each_place(local) -> None:
    """Spark opens files through Hadoop, whose S3 connector is S3A: ``s3://`` is given as ``s3a://``;
    other URIs and local paths as they are."""
    from replay.spark.sql import hadoop_path

    assert hadoop_path(local / "data") == str(local / "data")
    remote = reading_root(_file_uri(local)) / "data"
    assert hadoop_path(remote) == _file_uri(local) + "/data"
    s3 = FsPath(remote.fs, "bucket/archive/data/x.parquet", "s3://")
    assert hadoop_path(s3) == "s3a://bucket/archive/data/x.parquet"
    assert hadoop_path(FsPath(remote.fs, "/games/x.parquet", "hdfs://namenode:8020")) == "hdfs://namenode:8020/games/x.parquet"
