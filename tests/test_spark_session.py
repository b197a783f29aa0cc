"""Spark starts from the optional extra, and says plainly why when it cannot."""

from __future__ import annotations

import pytest

from replay.spark import session as spark_session
from replay.spark.session import SparkSettings, SparkUnavailable


def test_a_local_session_runs_sql(spark) -> None:
    assert spark.sql("SELECT 40 + 2 AS answer").collect()[0]["answer"] == 42


def test_settings_keep_the_users_own_over_the_defaults() -> None:
    options = SparkSettings(master="local[1]", conf={"spark.ui.enabled": "true", "spark.driver.memory": "2g"}).options()
    assert options["spark.ui.enabled"] == "true"
    assert options["spark.driver.memory"] == "2g"
    assert options["spark.sql.session.timeZone"] == "UTC"


def test_without_java_the_error_names_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAVA_HOME", "/nonexistent")
    monkeypatch.setenv("PATH", "/nonexistent")
    if spark_session.importlib.util.find_spec("pyspark") is None:
        pytest.skip("pyspark is not installed, so the Java check is not reached")
    with pytest.raises(SparkUnavailable, match="Java"):
        spark_session.session()
