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
from typing import Any

import pyarrow as pa

from . import chain_compiled
from .canonical import (
    FLOAT_MARKS,
    OPTIONS,
    canonical_json,
    has_float,
    marks_a_number,
    orjson_module,
    reference_canonical_json,
)
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
    words, one per event: :func:`link` exactly, with the canonical bytes made a game at a time (in one C
    pass where the compiled chain is built: :mod:`replay.chain_compiled`)."""
    word = previous.to_bytes(8, "big", signed=True)
    compiled = chain_compiled.CCHAIN
    if compiled is not None and type(events) in (list, tuple):
        words: bytes = compiled.chain(events, 0, len(events), word, definition_body)
        return words
    return link_words(canonical_bodies(events), word)


def definition_body(event: Event) -> bytes:
    """The canonical body of one event through the Python code (the compiled chain's fallback for an event
    that is not plain JSON data): what it cannot encode raises here, as it always did."""
    return canonical_json([*event])


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
    return split_block(canonical_block(events), len(events))


BODY_SEPARATOR = b",\n,"
"""Between two canonical bodies in a block (:func:`canonical_block`). A body never holds a raw newline (JSON
escapes it), so splitting a block at each separator gives the bodies back exactly."""


def split_block(block: bytes, events: int) -> list[bytes]:
    """The ``events`` canonical bodies of a block (:func:`canonical_block`)."""
    return block.split(BODY_SEPARATOR) if events else []


def canonical_block(events: Sequence[Event]) -> bytes:
    """The canonical bodies of ``events`` (``canonical_json`` of each one's envelope and payload: what
    :func:`link` hashes), joined by :data:`BODY_SEPARATOR`. This is what a :class:`LinkWorker` is sent.

    With orjson the whole batch is one call (:func:`fast_canonical_block`); whatever that cannot vouch for,
    event by event through ``canonical_json``, which raises what the definition raises, at the first
    event that cannot be encoded.
    """
    block = fast_canonical_block(events)
    if block is None:
        block = BODY_SEPARATOR.join([canonical_json([*e]) for e in events])
    return block


def fast_canonical_block(events: Sequence[Event], columns: Sequence[Sequence[Any]] | None = None) -> bytes | None:
    """:func:`canonical_block` by one orjson call over the whole batch, or None if orjson is not installed
    or refuses any of it (the caller then goes event by event, and fails where the definition fails).

    orjson serializes the list ``[event 0, F, event 1, F, ...]``, where ``F`` is a fragment written
    verbatim (a raw newline), so its output is ``[`` + body 0 + ``,\\n,`` + body 1 ... + ``]``: each event
    is serialized exactly as alone (no spaces, keys sorted per object). The output is checked for
    floats at once (see :mod:`replay.canonical`): only the events whose bytes show a float-like mark
    are looked at again, and those that hold a float are re-encoded by the definition. ``columns``: the
    events' six fields as columns (``tuple(zip(*events))``), if the caller has made them (orjson writes
    a tuple as it writes a list).
    """
    if not events or orjson_module() is None:
        return None
    items: list[Any] = [_NEWLINE] * (2 * len(events) - 1)
    items[::2] = map(list, events) if columns is None else zip(*columns)  # the envelope fields, then the payload
    try:
        block: bytes = orjson_module().dumps(items, option=OPTIONS)[1:-1]
    except TypeError:  # something orjson refuses (or nesting beyond its limit)
        return None
    masked = block.translate(FLOAT_MARKS)  # the separator reads "X\nX": it makes no mark
    at = masked.find(b"Xe")
    if at < 0:
        return block
    bodies: list[bytes] | None = None
    i, start = 0, 0  # body i begins at start
    while at >= 0:
        if not marks_a_number(block, at):  # digits inside a string: look further in the same body
            at = masked.find(b"Xe", at + 1)
            continue
        i += masked.count(b"\n", start, at)  # the body holding the mark
        e = events[i]
        if has_float([*e]):
            if bodies is None:
                bodies = block.split(BODY_SEPARATOR)
            bodies[i] = reference_canonical_json([*e])
        i, start = i + 1, masked.find(b"\n", at) + 1
        at = masked.find(b"Xe", start) if start else -1
    return block if bodies is None else BODY_SEPARATOR.join(bodies)


_NEWLINE: Any = None if orjson_module() is None else orjson_module().Fragment(b"\n")


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
    """``events`` consecutive events of one game in a batch, whose canonical bodies come next in the batch's
    block (:func:`canonical_block`). Their links continue from ``previous``, or, with ``follows``, from the
    last link of that earlier run of the batch (the same game, its events interleaved with others')."""

    events: int
    previous: int = GENESIS
    follows: int | None = None


def run_words(runs: Sequence[Run], block: bytes) -> list[bytes]:
    """Each run's links as 8-byte words (:func:`link_words`), in this process; ``block`` holds the runs' bodies in order."""
    bodies = split_block(block, sum(r.events for r in runs))
    words: list[bytes] = []
    at = 0
    for run in runs:
        start = words[run.follows][-8:] if run.follows is not None else run.previous.to_bytes(8, "big", signed=True)
        words.append(link_words(bodies[at:at + run.events], start))
        at += run.events
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

    def send(self, runs: Sequence[Run], block: bytes) -> Callable[[], list[bytes]]:
        """Send a batch (its runs, and their bodies in one block); the returned call waits for its words.
        Raises OSError if the worker is gone.

        The bodies are written at once (the worker reads as they come, through a pipe enlarged where
        the system allows): a writing thread would fight the encoding for the GIL at every chunk.
        """
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        table = b"".join(_RUN.pack(r.previous, -1 if r.follows is None else r.follows, r.events) for r in runs)
        stdin.write(_REQUEST.pack(len(runs), len(block)) + table)
        stdin.write(block)
        stdin.flush()

        def receive() -> list[bytes]:
            head = stdout.read(8)
            count = int.from_bytes(head, "big") if len(head) == 8 else -1
            events = sum(r.events for r in runs)
            data = stdout.read(8 * events) if count == events else b""
            if count != events or len(data) != 8 * events:
                raise OSError("the link worker stopped or answered for another batch")
            words, at = [], 0
            for run in runs:
                words.append(data[at:at + 8 * run.events])
                at += 8 * run.events
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
    the caller makes the batch's canonical bodies). With the compiled chain the links are made in process
    (:mod:`replay.chain_compiled`): no worker."""
    if events >= WORKER_EVENTS and chain_compiled.CCHAIN is None:
        _the_worker()


@contextmanager
def links_meanwhile(runs: Sequence[Run], block: bytes) -> Iterator[Callable[[], list[bytes]]]:
    """Within the block, a call giving each run's links (:func:`run_words`). For a large batch a worker
    process hashes them meanwhile, so the caller's work in the block (encoding) overlaps the hashing;
    otherwise, or if the worker fails, they are hashed in process by the call. Leaving the block before
    the call (an error while encoding) ends the worker, so that no answer is left unread."""
    global _worker_broken
    worker = _the_worker() if sum(r.events for r in runs) >= WORKER_EVENTS else None
    receive: Callable[[], list[bytes]] | None = None
    if worker is not None:
        try:
            receive = worker.send(runs, block)
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
        return run_words(runs, block)

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
        block = source.read(size)
        runs = [Run(events, previous, None if follows < 0 else follows) for previous, follows, events in _RUN.iter_unpack(table)]
        words = b"".join(run_words(runs, block))
        sink.write((len(words) // 8).to_bytes(8, "big") + words)
        sink.flush()
