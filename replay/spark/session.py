"""Starting Spark, or saying plainly why it cannot start.

Spark needs two things the tool does not otherwise need: the ``pyspark`` package (the ``spark``
extra) and a Java runtime (17 or newer). Both are checked before Spark is asked to start, so a user
without them gets one sentence naming what to install instead of a Py4J traceback from the JVM.

The settings a user is most likely to change are read from the environment, so that the same
command runs in local mode on a laptop and under ``spark-submit`` on a cluster (where the cluster's
own settings win: a session already started by ``spark-submit`` is reused as it is).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ReplayError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


class SparkUnavailable(ReplayError):
    """Spark cannot start here: pyspark is not installed, or no Java runtime is found."""


LOG_CONFIG = Path(__file__).with_name("log4j2.properties")
"""Errors only from the JVM (its startup WARN lines come before ``setLogLevel``)."""

MASTER_ENV = "REPLAY_SPARK_MASTER"
"""Which Spark to use when the tool starts one itself (``local[2]``, ``spark://host:7077``, ``yarn``)."""

DEFAULT_MASTER = "local[*]"

SUBMITTED_ENV = "PYSPARK_GATEWAY_PORT"
"""Set by ``spark-submit`` for the Python program it runs: the JVM, its master and settings exist."""


@dataclass(frozen=True)
class SparkSettings:
    """What the tool asks of a Spark session it starts itself.

    ``master`` defaults to ``$REPLAY_SPARK_MASTER`` or local mode on every core; ``conf`` holds any
    other ``spark.*`` setting (``spark.driver.memory``, ``spark.sql.shuffle.partitions``, ...)."""

    master: str = field(default_factory=lambda: os.environ.get(MASTER_ENV) or DEFAULT_MASTER)
    app_name: str = "replay"
    conf: dict[str, str] = field(default_factory=dict)

    def options(self) -> dict[str, str]:
        """The settings given to the builder: quiet, no web UI, Arrow on, then the user's own."""
        base = {
            "spark.ui.enabled": "false",
            "spark.ui.showConsoleProgress": "false",
            "spark.sql.execution.arrow.pyspark.enabled": "true",
            "spark.sql.session.timeZone": "UTC",
            "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()}",
        }
        return base | dict(self.conf)


def missing() -> str | None:
    """Why Spark cannot start here, in one sentence; ``None`` when it can."""
    if importlib.util.find_spec("pyspark") is None:
        return ("Spark is not installed: install the extra with `pip install 'boardgame-replay[spark]'` "
                "(it brings pyspark, pandas and sqlglot)")
    java_home = os.environ.get("JAVA_HOME")
    if not (java_home and os.path.exists(os.path.join(java_home, "bin", "java"))) and shutil.which("java") is None:
        return ("Spark needs a Java runtime (17 or newer) and none was found: install one "
                "(Debian: `apt-get install openjdk-17-jre-headless`) or set JAVA_HOME")
    return None


def session(settings: SparkSettings | None = None) -> SparkSession:
    """A Spark session: the one already running in this process (under ``spark-submit``), or a new
    one started with ``settings``. Raises :class:`SparkUnavailable` with the reason when it cannot."""
    why = missing()
    if why:
        raise SparkUnavailable(why)
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    settings = settings or SparkSettings()
    builder: Any = SparkSession.builder.appName(settings.app_name)
    if SUBMITTED_ENV not in os.environ:  # under spark-submit, its --master says where Spark runs
        builder = builder.master(settings.master)
    for key, value in settings.options().items():
        builder = builder.config(key, value)
    try:
        spark: SparkSession = builder.getOrCreate()
    except Exception as error:  # the JVM's failure arrives as a Py4J or runtime error of many kinds
        raise SparkUnavailable(f"Spark did not start ({settings.master}): {str(error).strip().splitlines()[0]}") from error
    spark.sparkContext.setLogLevel("ERROR")
    return spark
