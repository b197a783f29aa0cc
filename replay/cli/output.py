"""Files the commands write for the user (``export -o``, ``query -o``, ``schema --write``).

A file appears whole or not at all: it is written beside its target under a
temporary name and renamed into place only when complete, so an error half-way
(a full disk, a damaged archive file, Ctrl-C) never leaves a truncated file that
looks like a result. An unwritable path is one clear error, not a traceback.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ..errors import ReplayError


def _cannot_write(path: str | Path, exc: OSError) -> ReplayError:
    # Arrow's writers put their own sentence in strerror, ending in "Detail: [errno 13] Permission denied".
    reason = str(exc.strerror or exc)
    if detail := re.search(r"\[errno \d+\] (.+)$", reason):
        reason = detail.group(1)
    return ReplayError(f"cannot write {path}: {reason}")


@contextmanager
def output_path(path: str | Path) -> Iterator[Path]:
    """A temporary path to write; renamed to ``path`` when the block ends without an error."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        yield tmp
        os.replace(tmp, target)
    except OSError as exc:
        if exc.filename is not None and Path(exc.filename) not in (tmp, target):
            raise  # not about this output: let the caller's handler name it
        raise _cannot_write(path, exc) from exc
    finally:
        tmp.unlink(missing_ok=True)


@contextmanager
def output_text(path: str) -> Iterator[IO[str]]:
    """Standard output for ``-``, else a UTF-8 file that appears only when complete."""
    if path == "-":
        yield sys.stdout
        return
    with output_path(path) as tmp:
        try:
            handle: IO[Any] = tmp.open("w", encoding="utf-8")
        except OSError as exc:
            raise _cannot_write(path, exc) from exc
        with handle:
            yield handle


def write_text(path: str | Path, text: str) -> None:
    """Write a whole text file atomically."""
    with output_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
