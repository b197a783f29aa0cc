"""The compiled part of the projection's rows (``_crows``, a C extension built with the package when a
compiler is there), and the switch between it and the pure-Python code.

The game's observer (:mod:`.analytics`) spends most of a projected game describing actions and each
turn's table: per action a dozen reads of the state before it and a few after it, per turn and seat
a row of ~20 values. The extension makes the same rows from the same objects in the usual case
(``action_before``, ``action_after``, ``dice_rows``, ``turn_rows``), and the table as data whose digest ends
each projected game (``state_data``); for anything else (an odd value, a
board that is not the columns') it gives None or asks the Python row, which stays the reference and the
fallback (``tests/test_wd_rows_compiled.py`` compares both on many games, clean
and disputed, under every option).

``REPLAY_PURE=1`` in the environment (read at import) forces the pure-Python code; so does a machine
where the extension was not built. :func:`use` switches in-process (the benchmark compares both).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from replay.compiled_ext import PURE, load
from replay.packs import PackPart

from .engine import defence
from .state import PlayerState

BUILT, NOT_BUILT = load(__package__, "_crows", "the compiled rows")
"""The extension (None where it is not built), and why not ("" when it is)."""
try:
    if BUILT is not None:
        BUILT.setup(PlayerState, PackPart, defence)
        BUILT.state_data  # noqa: B018 (the newest entry: older builds lack it)
except (AttributeError, TypeError):  # built from older sources than these
    BUILT, NOT_BUILT = None, "the compiled rows (_crows) are built from older sources: pip install -e . again"

ROWS: Any = None if PURE else BUILT
"""The extension while in use, else None: ``action_before(state, payload, game_id, seq)`` and
``action_after(state, payload, before)`` (the row's tuple, or None: the Python), ``dice_rows(out, game_id,
turn, forum, roll)`` (a roll's rows appended: True, or False: the Python), ``turn_rows(out,
state, game_id, turn, buildings, fallback)`` (a turn's rows appended, ``fallback(player)`` asked for any it
does not make), ``state_data(state)`` (``GameState.to_dict``'s dict, or None: the Python)."""


def active() -> bool:
    """Whether the observer uses the compiled rows now."""
    return ROWS is not None


@contextmanager
def use(compiled: bool) -> Iterator[bool]:
    """The compiled rows on (where built) or off for a while; yields whether they are on."""
    global ROWS
    saved = ROWS
    ROWS = BUILT if compiled else None
    try:
        yield ROWS is not None
    finally:
        ROWS = saved
