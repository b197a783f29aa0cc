"""Options shared by every command module."""

from __future__ import annotations

import os
from pathlib import Path

import click

DEFAULT_ARCHIVE = "archive"
ENV_ARCHIVE = "REPLAY_ARCHIVE"


def default_archive() -> Path:
    """``$REPLAY_ARCHIVE`` if set, else ``./archive``."""
    return Path(os.environ.get(ENV_ARCHIVE, DEFAULT_ARCHIVE))


def archive_option(f):
    return click.option(
        "--archive", "-a", "archive_path", type=click.Path(file_okay=False, path_type=Path),
        envvar=ENV_ARCHIVE, default=DEFAULT_ARCHIVE, show_default=True, show_envvar=True,
        help="the archive directory",
    )(f)
