"""Options shared by the command modules."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from ..archive.location import is_uri, posix_root
from ..errors import NotAnArchive
from ..spark.session import SparkSettings
from ..tables import FORMATS

DEFAULT_ARCHIVE = "archive"
ENV_ARCHIVE = "REPLAY_ARCHIVE"

F = TypeVar("F", bound=Callable[..., Any])


def default_archive() -> Path:
    """``$REPLAY_ARCHIVE`` if set, else ``./archive``."""
    return Path(os.environ.get(ENV_ARCHIVE, DEFAULT_ARCHIVE))


class ArchivePlace(click.ParamType):  # type: ignore[type-arg]  # generic only from click 8.3
    """``--archive``: a local directory (a :class:`Path`); for the commands that only read, also a
    URI pyarrow opens (kept as text: ``Path`` would turn ``s3://b/a`` into ``s3:/b/a``). A writer
    given a URI is told why not, and how, before anything is opened."""

    def __init__(self, uris: bool) -> None:
        self.uris = uris
        self.name = "path|uri" if uris else "directory"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path | str:
        text = str(value)
        if self.uris and is_uri(text):
            return text
        try:
            return posix_root(text)
        except NotAnArchive as exc:
            self.fail(str(exc), param, ctx)


def archive_option(f: F) -> F:
    """``--archive`` of a command that writes (or keeps a cache beside the archive): a local directory."""
    return click.option(
        "--archive", "-a", "archive_path", type=ArchivePlace(uris=False),
        envvar=ENV_ARCHIVE, default=DEFAULT_ARCHIVE, show_default=True, show_envvar=True,
        help="the archive directory",
    )(f)


def reading_archive_option(f: F) -> F:
    """``--archive`` of a command that only reads: a local directory, or a URI (docs/scale-out.md)."""
    return click.option(
        "--archive", "-a", "archive_path", type=ArchivePlace(uris=True),
        envvar=ENV_ARCHIVE, default=DEFAULT_ARCHIVE, show_default=True, show_envvar=True,
        help="the archive directory, or its URI where pyarrow reads it (s3://bucket/archive, hdfs://host/path, "
             "file:///path)",
    )(f)


def format_option(default: str = "table", choices: Sequence[str] = FORMATS) -> Callable[[F], F]:
    return click.option(
        "--format", "fmt", type=click.Choice(list(choices)), default=default, show_default=True,
        help="table for people; json or csv for other tools",
    )


def game_option(help: str = "game kind (see `replay kinds`)", required: bool = False) -> Callable[[F], F]:
    return click.option("--game", "kind", required=required, help=help)


def ruleset_option(f: F) -> F:
    return click.option(
        "--ruleset", "ruleset_files", multiple=True, type=click.Path(dir_okay=False, exists=True, path_type=Path),
        help="a rules pack file the game was played under, when it is neither shipped nor in the archive (repeatable)",
    )(f)


def spark_options(f: F) -> F:
    """``--spark-master`` and ``--spark-conf``: the same two for every command that can run on Spark."""
    f = click.option("--spark-conf", "spark_conf", multiple=True, metavar="KEY=VALUE",
                     help="with --engine spark: a Spark setting (repeatable), e.g. spark.driver.memory=4g")(f)
    return click.option("--spark-master", default=None, metavar="URL",
                        help="with --engine spark: where Spark runs (local[2], spark://host:7077, yarn) "
                             "[default: $REPLAY_SPARK_MASTER or local[*]]")(f)


def spark_settings(on_spark: bool, master: str | None, conf: Sequence[str]) -> SparkSettings | None:
    """The settings of ``--spark-master`` and ``--spark-conf``, or ``None`` off Spark (where giving
    either is a usage error rather than silently ignored)."""
    if not on_spark:
        if master or conf:
            raise click.UsageError("--spark-master and --spark-conf go with --engine spark")
        return None
    settings: dict[str, str] = {}
    for item in conf:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r}: use KEY=VALUE", param_hint="--spark-conf")
        settings[key] = value
    return SparkSettings(conf=settings) if master is None else SparkSettings(master=master, conf=settings)
