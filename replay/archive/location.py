"""Where an archive is read from: a local directory, or a URI that pyarrow's filesystems open
(``s3://``, ``gs://``, ``hdfs://``, ``abfs://``, ``file://``).

Writing an archive needs a POSIX filesystem (its ``flock``, fsyncs and atomic renames), so a
writer takes a local path only (:func:`posix_root`). Reading needs much less: the marker, the
manifest's records, the derived manifests, and the Parquet files they name, each read whole or
by ranges. :class:`FsPath` is those few ``pathlib`` operations over a ``pyarrow.fs`` filesystem,
so the readers work unchanged on either kind of place (:data:`AnyPath`), and mypy holds them to
the operations both kinds have.
"""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import NamedTuple
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.fs as pafs

from ..errors import NotAnArchive

LOCAL_ONLY = ("an archive must be a path on a POSIX filesystem to be written (its locks and manifest need one); "
              "an archive on an object store or HDFS is written through a mount (NFS, a FUSE mount) at the same "
              "path on every machine: give that path. The commands that only read (query, verify, games, events, "
              "export, stats, regress, the plots) also take the URI (docs/scale-out.md)")


def is_uri(text: str) -> bool:
    """Whether ``text`` names a place by URI (``scheme://...``) rather than a local path."""
    return "://" in text


def posix_root(root: Path | str) -> Path:
    """``root`` as a local path, refused (:class:`NotAnArchive`, with the way out) when it is a URI.
    ``Path`` would otherwise turn ``s3://b/a`` into the local folder ``s3:/b/a``; a scheme so
    mangled already (``s3:/b/a``) is refused too."""
    text = str(root)
    first = Path(text).parts[0] if Path(text).parts else ""
    if is_uri(text) or (first.endswith(":") and len(first) > 2):  # "C:" is a drive, not a scheme
        raise NotAnArchive(f"{text}: {LOCAL_ONLY}")
    return Path(root)


class Stat(NamedTuple):
    """The one field of ``os.stat_result`` the readers use."""

    st_size: int


class FsPath:
    """A file or folder on a ``pyarrow.fs`` filesystem, with the ``pathlib`` operations an archive's
    readers use. ``str()`` is its URI (``s3://bucket/archive/data/x.parquet``), for messages and
    for engines that open files themselves (Spark)."""

    __slots__ = ("fs", "path", "prefix")

    def __init__(self, fs: pafs.FileSystem, path: str, prefix: str) -> None:
        self.fs = fs
        self.path = path.rstrip("/") or path
        self.prefix = prefix

    def __truediv__(self, name: str) -> FsPath:
        return FsPath(self.fs, posixpath.join(self.path, name), self.prefix)

    def __str__(self) -> str:
        return self.prefix + self.path

    def __repr__(self) -> str:
        return f"FsPath({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FsPath) and (self.fs, self.path) == (other.fs, other.path)

    def __hash__(self) -> int:
        return hash(self.path)

    def __lt__(self, other: FsPath) -> bool:
        return self.path < other.path

    @property
    def name(self) -> str:
        return posixpath.basename(self.path)

    @property
    def stem(self) -> str:
        return PurePosixPath(self.name).stem

    @property
    def suffix(self) -> str:
        return PurePosixPath(self.name).suffix

    @property
    def parent(self) -> FsPath:
        return FsPath(self.fs, posixpath.dirname(self.path), self.prefix)

    def relative_to(self, other: FsPath) -> PurePosixPath:
        return PurePosixPath(self.path).relative_to(other.path)

    def _info(self) -> pafs.FileInfo:
        return self.fs.get_file_info(self.path)

    def is_file(self) -> bool:
        return bool(self._info().type == pafs.FileType.File)

    def is_dir(self) -> bool:
        return bool(self._info().type == pafs.FileType.Directory)

    def exists(self) -> bool:
        return bool(self._info().type != pafs.FileType.NotFound)

    def stat(self) -> Stat:
        info = self._info()
        if info.type != pafs.FileType.File:
            raise FileNotFoundError(2, "no such file", str(self))
        return Stat(int(info.size))

    def open(self, mode: str = "rb") -> pa.NativeFile:
        """The file for reading, with random access (Parquet reads its footer, then the pages it needs)."""
        if mode != "rb":
            raise ValueError(f"{self}: only read here (mode 'rb'), not {mode!r}")
        try:
            return self.fs.open_input_file(self.path)
        except OSError:  # object stores answer a missing key with a generic OSError: ask which it was
            if not self.is_file():
                raise FileNotFoundError(2, "no such file", str(self)) from None
            raise

    def read_bytes(self) -> bytes:
        with self.open() as f:
            return bytes(f.read())

    def read_text(self, encoding: str = "utf-8") -> str:
        return self.read_bytes().decode(encoding)

    def iterdir(self) -> Iterator[FsPath]:
        if not self.is_dir():
            raise FileNotFoundError(2, "no such folder", str(self))
        for info in self.fs.get_file_info(pafs.FileSelector(self.path)):
            yield FsPath(self.fs, info.path, self.prefix)

    def glob(self, pattern: str) -> Iterator[FsPath]:
        """The entries of this folder whose names match ``pattern`` (one level, as the readers use it)."""
        if self.is_dir():
            yield from (p for p in self.iterdir() if fnmatch.fnmatchcase(p.name, pattern))


AnyPath = Path | FsPath
"""A place an archive's readers read: a local path or a path on a pyarrow filesystem."""


def listing(folder: AnyPath, pattern: str = "*") -> list[AnyPath]:
    """A folder's entries whose names match ``pattern``, in name order (the same on every
    filesystem); none where the folder does not exist."""
    found: list[AnyPath] = list(folder.glob(pattern)) if isinstance(folder, Path) else list(folder.glob(pattern))
    return sorted(found, key=lambda p: p.name)


def relative(path: AnyPath, root: AnyPath) -> str:
    """``path`` from ``root`` (``data/dice/x.parquet``), both on the same kind of place."""
    if isinstance(path, FsPath) and isinstance(root, FsPath):
        return str(path.relative_to(root))
    if isinstance(path, Path) and isinstance(root, Path):
        return str(path.relative_to(root))
    raise ValueError(f"{path} is not under {root}")


def parquet_source(path: AnyPath | pa.NativeFile) -> Path | pa.NativeFile:
    """What pyarrow's Parquet reader opens: a local path or an open file as it is, a remote file opened."""
    return path.open() if isinstance(path, FsPath) else path


def reading_root(root: Path | str) -> AnyPath:
    """The archive at ``root`` for reading: a local path, or the folder a URI names on the
    filesystem pyarrow opens for it (credentials and endpoints as pyarrow takes them: the
    environment, or the URI's query, e.g. ``s3://bucket/archive?endpoint_override=host:9000``).
    :class:`NotAnArchive` names a URI pyarrow cannot open."""
    text = str(root)
    if not is_uri(text):
        return posix_root(root)
    try:
        fs, path = pafs.FileSystem.from_uri(text)
    except (pa.ArrowException, OSError, ValueError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise NotAnArchive(f"{text}: cannot open that location ({first})") from None
    parts = urlsplit(text)
    prefix = f"{parts.scheme}://{parts.netloc}" if path.startswith("/") else f"{parts.scheme}://"
    return FsPath(fs, path, prefix)
