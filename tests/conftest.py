from __future__ import annotations

import sys
from pathlib import Path

import pytest

from replay.archive import Archive
from replay.games.pig import GAME as PIG

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))


@pytest.fixture
def archive(tmp_path: Path) -> Archive:
    return Archive.init(tmp_path / "archive")


@pytest.fixture
def pig():
    return PIG




@pytest.fixture(scope="session")
def spark():
    """One local Spark session (2 cores) for every Spark test: starting the JVM takes seconds.

    Skipped, saying why, only where Spark cannot start (no Java runtime, or pyspark not installed);
    CI installs both, so there it runs."""
    from replay.spark.session import SparkSettings, missing, session

    why = missing()
    if why:
        pytest.skip(why)
    spark = session(SparkSettings(master="local[2]", conf={"spark.sql.shuffle.partitions": "4",
                                                           "spark.default.parallelism": "4"}))
    yield spark
    spark.stop()
