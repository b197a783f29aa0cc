"""The archive lock: one writer at a time, readers never see a half-applied commit.

``flock`` on ``<archive>/.lock``: writers take it exclusively, readers shared.
The kernel releases it when a process dies, so a killed writer never leaves the
archive locked.

A read-only archive (a read-only mount, a copy shared without write permission)
can still be read: a reader opens the lock file read-only (``flock`` works on it),
and where there is no lock file and none can be made, nobody can be writing, so
it reads without one. A writer is told, in one sentence, that it cannot write.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from types import TracebackType

from ..errors import ArchiveLocked, ReadOnlyArchive


class ArchiveLock:
    def __init__(self, path: Path, *, exclusive: bool, timeout: float = 60.0) -> None:
        self.path = path
        self.exclusive = exclusive
        self.timeout = timeout
        self._fd: int | None = None

    def __enter__(self) -> ArchiveLock:
        fd = self._open()
        if fd is None:
            return self  # a read-only archive without a lock file: no writer can exist
        mode = fcntl.LOCK_EX if self.exclusive else fcntl.LOCK_SH
        deadline = time.monotonic() + self.timeout
        delay = 0.001
        while True:
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = _read_holder(fd)
                    os.close(fd)
                    raise ArchiveLocked(
                        f"the archive at {self.path.parent} has been locked for {self.timeout:.0f}s"
                        f"{' by process ' + holder if holder else ''}; is another replay command running?"
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.05)
        if self.exclusive:
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd
        return self

    def _open(self) -> int | None:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if self.exclusive:
                raise ReadOnlyArchive(
                    f"the archive at {self.path.parent} cannot be written ({exc.strerror}): it is read-only here; "
                    "commands that only read it (games, events, audit, show, verify, query, ...) still work"
                ) from None
        try:
            return os.open(self.path, os.O_RDONLY)
        except OSError:
            return None

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _read_holder(fd: int) -> str:
    try:
        return os.pread(fd, 32, 0).decode().strip()
    except OSError:
        return ""
