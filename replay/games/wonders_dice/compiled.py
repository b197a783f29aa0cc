"""The compiled fast path of the fold (``_ckernel``, a C extension built with the package when a
compiler is there), and the switch between it and the pure-Python code.

The extension does the usual case of two event types over the same objects as the Python code:
an action (what :func:`kernel.direct_action` takes, and since the seventh and eighth passes the
follow-ups the resolver would ask after a build or Wonder step: the bonus slot a completion asks, an
extra action skipped or taken, the spaces an effect crosses, skips or lets lapse, each answered by the
next logged step and checked as the resolver checks it; its effects applied in C as
:func:`engine.apply_effect` applies them, which it calls for an odd value) and a roll of the Forum's
dice in the Forum's order; and it finds an event's cached position. Since the ninth pass it also applies
the simulation's one-step actions without an event (``trusted_action``: what
``kernel.direct_action(trusted=True)`` does, by the same phases). It declines anything
else with nothing changed, and the Python code then does what it always did: the Python code is
the reference and the fallback, and both give the same states, problems and outputs
(``tests/test_wd_compiled.py``).

``REPLAY_PURE=1`` in the environment (read at import) forces the pure-Python code; so does a
machine where the extension was not built (``pip install`` goes on without it when the compiler
fails). :func:`use` switches in-process (the benchmark compares both in one run).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from replay.compiled_ext import PURE, load
from replay.contract import Position

from .engine import SpacePlan, apply_effect

Kernel = Callable[[Any, dict[str, Any]], Any]
Trusted = Callable[[Any, int, dict[str, Any]], "tuple[int, int] | None"]


POSITIONS: dict[tuple[int, int | None], Position] = {}
"""One Position per (turn, seat) (rules.position fills it; the compiled ``position`` reads it)."""


def _load() -> tuple[Kernel | None, Kernel | None, Callable[[str, dict[str, Any]], Position | None] | None, Trusted | None, str]:
    """(action, roll, position, trusted_action, why not) from the extension, or (None, None, None, None, the reason)."""
    kernel, why = load(__package__, "_ckernel", "the compiled kernel")
    if kernel is None:
        return None, None, None, None, why
    try:
        kernel.setup(SpacePlan._fields, apply_effect, POSITIONS)
    except ImportError as stale:  # built from other sources than these
        return None, None, None, None, str(stale)
    return kernel.action, kernel.roll, kernel.position, kernel.trusted_action, ""


BUILT_ACTION, BUILT_ROLL, BUILT_POSITION, BUILT_TRUSTED, NOT_BUILT = _load()
"""The extension's functions (None where it is not built), and why not ("" when it is)."""

ACTION: Kernel | None = None if PURE else BUILT_ACTION
"""``action(state, payload)``: None (declined, nothing changed), a list (the action applied, its
claims all right: the problems, none) or (paid, VP) (applied, the claims for the Python code to check)."""
ROLL: Kernel | None = None if PURE else BUILT_ROLL
"""``roll(state, payload)``: None (declined, nothing changed) or True (the roll applied)."""
POSITION = None if PURE else BUILT_POSITION
"""``position(event type, payload)``: the cached Position of the event's (turn, seat), or None."""
TRUSTED: Trusted | None = None if PURE else BUILT_TRUSTED
"""``trusted_action(state, seat, step)``: :func:`kernel.direct_action` with ``trusted=True`` for a step
known to be legal (the simulation's bots'): (paid, VP), or None (declined, nothing changed: a question,
a bonus slot to choose, an odd value) for the resolver (``engine.resolve_chosen``) to do: ``direct_action``
would decline the same step."""


def active() -> bool:
    """Whether the fold uses the compiled kernel now."""
    return ACTION is not None


@contextmanager
def use(compiled: bool) -> Iterator[bool]:
    """The compiled kernel on (where built) or off for a while; yields whether it is on."""
    global ACTION, ROLL, POSITION, TRUSTED
    saved = ACTION, ROLL, POSITION, TRUSTED
    ACTION, ROLL, POSITION, TRUSTED = (BUILT_ACTION, BUILT_ROLL, BUILT_POSITION, BUILT_TRUSTED) if compiled else (None,) * 4
    try:
        yield ACTION is not None
    finally:
        ACTION, ROLL, POSITION, TRUSTED = saved
