"""The hash chain that makes each game's log tamper-evident.

Every stored event carries ``hash = sha256(previous hash, canonical event)``, the
event taken exactly as stored (envelope and payload, before any upcasting). Altering
an event breaks the link at that event; ``verify`` and ``audit`` name the first
broken link. Stored events are never rewritten (compaction keeps them as stored), so
a chain stays valid for the life of the archive.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from .canonical import canonical_json
from .events import Event

GENESIS = 0


def link(previous: int, event: Event) -> int:
    body = canonical_json([event.game_id, event.seq, event.kind, event.type, event.version, event.payload])
    digest = hashlib.sha256(previous.to_bytes(8, "big", signed=True) + b"\n" + body).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def chain(events: Iterable[Event], previous: int = GENESIS) -> list[int]:
    """Hashes of consecutive events of one game, continuing from ``previous``."""
    out = []
    for e in events:
        previous = link(previous, e)
        out.append(previous)
    return out
