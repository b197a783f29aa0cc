"""The compiled links of the hash chain (``_cchain``, a C extension built with the package when a
compiler is there), and the switch between it and the pure-Python code.

A bulk import's per-event Python (transposing the events, their canonical JSON, the sha256 of each
link) is done there in one C pass over the same Event tuples: the links are the same bytes as
:func:`replay.chain.link` by construction (the same canonical bytes, the same SHA-256), and any event
that is not plain JSON data (a float, a subclass, a lone surrogate, a huge int) goes through the
Python definition, which also raises what it always raised. ``tests/test_cchain.py`` compares both
paths over generated values and whole imports.

``REPLAY_PURE=1`` in the environment (read at import) forces the pure-Python code; so does a machine
where the extension was not built. :func:`use` switches in-process (the benchmark compares both in
one run).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from .compiled_ext import PURE, load

BUILT, NOT_BUILT = load(__package__, "_cchain", "the compiled chain")
"""The extension (None where it is not built), and why not ("" when it is)."""

CCHAIN: ModuleType | None = None if PURE else BUILT
"""The extension when bulk import uses it now, else None."""


def active() -> bool:
    """Whether bulk import makes its links with the extension now."""
    return CCHAIN is not None


@contextmanager
def use(compiled: bool) -> Iterator[bool]:
    """The extension on (where built) or off for a while; yields whether it is on."""
    global CCHAIN
    saved = CCHAIN
    CCHAIN = BUILT if compiled else None
    try:
        yield CCHAIN is not None
    finally:
        CCHAIN = saved
