"""The hash chain that makes each game's log tamper-evident.

Every stored event carries ``hash = sha256(previous hash, canonical event)``, the
event taken exactly as stored (envelope and payload, before any upcasting). Altering
an event breaks the link at that event; ``verify`` and ``audit`` name the first
broken link. Stored events are never rewritten (compaction keeps them as stored), so
a chain stays valid for the life of the archive.
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import os
import struct
import subprocess
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from .canonical import FLOAT_MARKS, OPTIONS, canonical_json, has_float, orjson_dumps, reference_canonical_json
from .events import Event

if Event._fields != ("game_id", "seq", "kind", "type", "version", "payload"):  # [*event] is what link hashes
    raise ImportError("replay.chain: Event's fields changed; the hash chain hashes them in this order")

GENESIS = 0


def link(previous: int, event: Event) -> int:
    """``sha256(previous as 8 signed big-endian bytes, "\\n", canonical event)``, its first 8 bytes as a signed int."""
    body = canonical_json([event.game_id, event.seq, event.kind, event.type, event.version, event.payload])
    digest = hashlib.sha256(previous.to_bytes(8, "big", signed=True) + b"\n" + body).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def chain_words(events: Sequence[Event], previous: int = GENESIS) -> bytes:
    """The links of consecutive events of one game, continuing from ``previous``, as 8-byte big-endian
    words, one per event: :func:`link` exactly, with the canonical bytes made a game at a time."""
    return link_words(canonical_bodies(events), previous.to_bytes(8, "big", signed=True))


def link_words(bodies: Iterable[bytes], word: bytes) -> bytes:
    """The links of consecutive canonical bodies (:func:`canonical_bodies`), continuing from the 8-byte
    word ``word``: the hashing half of :func:`chain_words`, which a worker process can do alone."""
    sha256 = hashlib.sha256
    words: list[bytes] = []
    append = words.append
    for body in bodies:
        word = sha256(word + b"\n" + body).digest()[:8]
        append(word)
    return b"".join(words)


def canonical_bodies(events: Sequence[Event]) -> list[bytes]:
    """``canonical_json`` of each event's envelope and payload (what :func:`link` hashes)."""
    return canonical_lines(events)[0]


def canonical_lines(events: Sequence[Event]) -> tuple[list[bytes], bytes]:
    """:func:`canonical_bodies`, and the same bodies joined by newlines (a body never holds a raw one:
    JSON escapes it), which is what a :class:`LinkWorker` is sent.

    With orjson, the events are serialized in one pass and checked for floats at once (see
    :mod:`replay.canonical`): only the events whose bytes show a float-like mark are looked at
    again, and those that hold a float are re-encoded by the definition.
    """
    dumps = orjson_dumps()
    if dumps is None or not events:
        bodies = [canonical_json([*e]) for e in events]
        return bodies, b"\n".join(bodies)
    try:
        bodies = [dumps([*e], option=OPTIONS) for e in events]  # [*e]: the envelope fields, then the payload
    except TypeError:  # something orjson refuses: event by event, each through canonical_json
        bodies = [canonical_json([*e]) for e in events]
        return bodies, b"\n".join(bodies)
    lines = b"\n".join(bodies)
    masked = lines.translate(FLOAT_MARKS)  # one body a line
    i, start, replaced = 0, 0, False  # body i begins at start
    at = masked.find(b"Xe")
    while at >= 0:
        i += masked.count(b"\n", start, at)  # the body holding the mark
        e = events[i]
        if has_float([*e]):
            bodies[i] = reference_canonical_json([*e])
            replaced = True
        i, start = i + 1, masked.find(b"\n", at) + 1
        at = masked.find(b"Xe", start) if start else -1
    return bodies, (b"\n".join(bodies) if replaced else lines)


_LITTLE_ENDIAN = sys.byteorder == "little"


def words_to_ints(words: bytes) -> list[int]:
    """8-byte big-endian signed words (:func:`chain_words`) as ints, converted in one go."""
    values = array("q")
    values.frombytes(words)
    if _LITTLE_ENDIAN:
        values.byteswap()
    return values.tolist()


def words_to_array(words: bytes) -> pa.Array:
    """8-byte big-endian signed words (:func:`chain_words`) as an Arrow int64 array, without Python ints."""
    values = array("q")
    values.frombytes(words)
    if _LITTLE_ENDIAN:
        values.byteswap()
    return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])


def chain(events: Iterable[Event], previous: int = GENESIS) -> list[int]:
    """Hashes of consecutive events of one game, continuing from ``previous``."""
    return words_to_ints(chain_words(list(events), previous))


# ---------------------------------------------------------------------- links made by a second process


@dataclass(frozen=True)
class Run:
    """Consecutive events of one game in a batch, as their canonical bodies. Their links continue from
    ``previous``, or, with ``follows``, from the last link of that earlier run of the batch (the same
    game, its events interleaved with others')."""

    bodies: list[bytes]
    previous: int = GENESIS
    follows: int | None = None
    lines: bytes = b""
    """The bodies joined by newlines (:func:`canonical_lines`): what the worker is sent (unused in the worker)."""


def run_words(runs: Sequence[Run]) -> list[bytes]:
    """Each run's links as 8-byte words (:func:`link_words`), in this process."""
    words: list[bytes] = []
    for run in runs:
        start = words[run.follows][-8:] if run.follows is not None else run.previous.to_bytes(8, "big", signed=True)
        words.append(link_words(run.bodies, start))
    return words


WORKER_EVENTS = 50_000
"""Batches of at least this many events have their links hashed by the worker process; smaller ones
are hashed in process (the worker's start-up, ~0.2 s once per process, would not pay)."""

PIPE_BYTES = 1 << 20
"""The pipe to the worker is enlarged to this where allowed (Linux: /proc/sys/fs/pipe-max-size, 1 MiB by default)."""

_REQUEST = struct.Struct(">QQ")  # runs, bytes of bodies
_RUN = struct.Struct(">qqQ")  # previous, follows (-1: none), events


class LinkWorker:
    """A child process that hashes links (:func:`link_words`) while its parent encodes the same events.

    The parent sends the canonical bodies (it makes them anyway: they are what can fail, and must fail
    there, in order) and receives 8 bytes per event. Only hashing moves: the links are the same bytes
    by construction, and the parent falls back to hashing in process whenever the worker fails.

    It is started with ``sys.executable -c`` (not multiprocessing: nothing depends on ``__main__``, so
    ``python -m replay`` works), exits when its input closes (the parent ended, even killed), and is
    waited for at exit (:func:`close_worker`), so it is never left behind as a zombie.
    """

    def __init__(self) -> None:
        package_root = str(Path(__file__).resolve().parent.parent)  # where this replay package is imported from
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
        self.owner = os.getpid()
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from replay.chain import serve_links; serve_links()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        if hasattr(fcntl, "F_SETPIPE_SZ") and self.process.stdin is not None:
            try:  # a megabyte a write instead of 64 KiB: fewer waits for the worker to drain the pipe
                fcntl.fcntl(self.process.stdin.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
            except OSError:
                pass

    def send(self, runs: Sequence[Run]) -> Callable[[], list[bytes]]:
        """Send a batch; the returned call waits for its words. Raises OSError if the worker is gone.

        The bodies are written at once (the worker reads as they come, through a pipe enlarged where
        the system allows): a writing thread would fight the encoding for the GIL at every chunk.
        """
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        blob = b"\n".join(r.lines for r in runs)
        table = b"".join(_RUN.pack(r.previous, -1 if r.follows is None else r.follows, len(r.bodies)) for r in runs)
        stdin.write(_REQUEST.pack(len(runs), len(blob)) + table)
        stdin.write(blob)
        stdin.flush()

        def receive() -> list[bytes]:
            head = stdout.read(8)
            count = int.from_bytes(head, "big") if len(head) == 8 else -1
            events = sum(len(r.bodies) for r in runs)
            data = stdout.read(8 * events) if count == events else b""
            if count != events or len(data) != 8 * events:
                raise OSError("the link worker stopped or answered for another batch")
            words, at = [], 0
            for run in runs:
                words.append(data[at:at + 8 * len(run.bodies)])
                at += 8 * len(run.bodies)
            return words

        return receive

    def close(self) -> None:
        """End the worker and reap it: its input closed (it exits), killed if it does not within seconds."""
        if self.owner != os.getpid():  # a forked child's copy: the parent owns the process
            return
        process = self.process
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


_worker: LinkWorker | None = None
_worker_broken = False  # a worker failed once in this process: hash in process from then on


def close_worker() -> None:
    """End this process's link worker, if it has one (at exit, and after a failure)."""
    global _worker
    worker, _worker = _worker, None
    if worker is not None:
        worker.close()


atexit.register(close_worker)


def _the_worker() -> LinkWorker | None:
    """This process's worker, started at the first call; None if it cannot be had."""
    global _worker, _worker_broken
    if _worker is not None and _worker.owner != os.getpid():
        _worker = None  # inherited through fork: not ours to talk to
    if _worker is None and not _worker_broken:
        try:
            _worker = LinkWorker()
        except (OSError, ValueError, TypeError):  # no interpreter to start (embedded), no processes allowed
            _worker_broken = True
    return _worker


def start_worker(events: int) -> None:
    """Start the worker now if a batch of ``events`` will use it (it takes ~0.2 s to start: meanwhile
    the caller makes the batch's canonical bodies)."""
    if events >= WORKER_EVENTS:
        _the_worker()


@contextmanager
def links_meanwhile(runs: Sequence[Run]) -> Iterator[Callable[[], list[bytes]]]:
    """Within the block, a call giving each run's links (:func:`run_words`). For a large batch a worker
    process hashes them meanwhile, so the caller's work in the block (encoding) overlaps the hashing;
    otherwise, or if the worker fails, they are hashed in process by the call. Leaving the block before
    the call (an error while encoding) ends the worker, so that no answer is left unread."""
    global _worker_broken
    worker = _the_worker() if sum(len(r.bodies) for r in runs) >= WORKER_EVENTS else None
    receive: Callable[[], list[bytes]] | None = None
    if worker is not None:
        try:
            receive = worker.send(runs)
        except OSError:
            _worker_broken = True
            close_worker()
        except BaseException:  # interrupted mid-request: the worker would read the next one wrong
            close_worker()
            raise
    taken = False

    def words() -> list[bytes]:
        global _worker_broken
        nonlocal taken
        taken = True
        if receive is not None:
            try:
                return receive()
            except OSError:
                _worker_broken = True
                close_worker()
        return run_words(runs)

    try:
        yield words
    finally:
        if receive is not None and not taken:
            close_worker()


def serve_links() -> None:
    """The worker's loop (:class:`LinkWorker`): read a batch of runs, answer with their words; exit at end of input."""
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while len(head := source.read(_REQUEST.size)) == _REQUEST.size:
        count, size = _REQUEST.unpack(head)
        table = source.read(_RUN.size * count)
        bodies = source.read(size).split(b"\n")
        runs, at = [], 0
        for previous, follows, events in _RUN.iter_unpack(table):
            runs.append(Run(bodies[at:at + events], previous, None if follows < 0 else follows))
            at += events
        words = b"".join(run_words(runs))
        sink.write((len(words) // 8).to_bytes(8, "big") + words)
        sink.flush()
