"""Pausing the cyclic garbage collector around bulk work (decoding, replaying, deriving).

Millions of small objects made in a burst trigger collection after collection, each walking
everything alive; reference counting alone frees what these loops leave behind, so a pause
costs nothing and saves up to a fifth of the time (docs/performance.md).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a while (reference counting still frees everything
    that is not in a cycle); restored as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
