"""Durable file operations: what makes an append all-or-nothing across a crash."""

from __future__ import annotations

import errno
import functools
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from ..errors import ArchiveError, ReadOnlyArchive
from .location import AnyPath

_P = ParamSpec("_P")
_R = TypeVar("_R")


def fsync_dir(path: Path) -> None:
    """Make a rename or a new directory entry in ``path`` survive a power cut."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_new_file(path: Path, data: bytes) -> None:
    """Create ``path`` (it must not exist), write ``data`` and fsync it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)


def size_and_sha256(path: AnyPath) -> tuple[int, str]:
    """A file's size and sha256, read a megabyte at a time (archive files can be large)."""
    digest, size = hashlib.sha256(), 0
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new bytes, never a mix."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.unlink()
    except FileNotFoundError:
        pass
    write_new_file(tmp, data)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def writes(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """Mark a function that writes to an archive: a read-only file system, missing permission or a
    full disk becomes one clear error (the commit protocol has already made sure nothing was
    half-committed) instead of a traceback."""

    @functools.wraps(func)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return func(*args, **kwargs)
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise ReadOnlyArchive(
                    f"cannot write {exc.filename or 'to the archive'} ({exc.strerror}): the archive is read-only "
                    "here; commands that only read it (games, events, audit, show, verify, query, ...) still work"
                ) from None
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise ArchiveError(f"no space left to write {exc.filename or 'the archive'} ({exc.strerror}); "
                                   "nothing was committed") from None
            raise ArchiveError(f"cannot write {exc.filename or 'the archive'} ({exc.strerror})") from None

    return wrapper
