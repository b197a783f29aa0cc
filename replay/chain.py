"""The hash chain that makes each game's log tamper-evident.

Every stored event carries ``hash = sha256(previous hash, canonical event)``, the
event taken exactly as stored (envelope and payload, before any upcasting). Altering
an event breaks the link at that event; ``verify`` and ``audit`` name the first
broken link. Stored events are never rewritten (compaction keeps them as stored), so
a chain stays valid for the life of the archive.
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Iterable, Sequence

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
    sha256 = hashlib.sha256
    word = previous.to_bytes(8, "big", signed=True)
    words: list[bytes] = []
    append = words.append
    for body in canonical_bodies(events):
        word = sha256(word + b"\n" + body).digest()[:8]
        append(word)
    return b"".join(words)


def canonical_bodies(events: Sequence[Event]) -> list[bytes]:
    """``canonical_json`` of each event's envelope and payload (what :func:`link` hashes).

    With orjson, the events are serialized in one pass and checked for floats at once (see
    :mod:`replay.canonical`): only the events whose bytes show a float-like mark are looked at
    again, and those that hold a float are re-encoded by the definition.
    """
    dumps = orjson_dumps()
    if dumps is None or not events:
        return [canonical_json([*e]) for e in events]
    try:
        bodies = [dumps([*e], option=OPTIONS) for e in events]  # [*e]: the envelope fields, then the payload
    except TypeError:  # something orjson refuses: event by event, each through canonical_json
        return [canonical_json([*e]) for e in events]
    masked = b"\n".join(bodies).translate(FLOAT_MARKS)  # one body a line: a newline inside one is escaped
    i, start = 0, 0  # body i begins at start
    at = masked.find(b"Xe")
    while at >= 0:
        i += masked.count(b"\n", start, at)  # the body holding the mark
        e = events[i]
        if has_float([*e]):
            bodies[i] = reference_canonical_json([*e])
        i, start = i + 1, masked.find(b"\n", at) + 1
        at = masked.find(b"Xe", start) if start else -1
    return bodies


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
