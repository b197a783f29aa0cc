"""The compiled part of the bots' choice (``_cbots``, a C extension built with the package when a
compiler is there), and the switch between it and the pure-Python code.

Simulating a game is mostly the bots listing, shuffling and checking candidate actions; the
extension does the three: :func:`engine.action_candidates`'s listing (``candidates``),
``random.Random.shuffle`` and ``randrange`` for the standard generator (``shuffle``, ``below``: the
dice are rolled with it too, by ``roll``, which also makes the roll's event dicts), and
:func:`engine.first_legal` and :func:`engine.legal_candidates`, the
first legal candidate and all of them (``first_ok``, ``all_ok``: the usual candidate decided in C, any
other, a Guild Court space, by the Python ``candidate_ok``; a :class:`~.state.PlayerState`'s resources
counted as its property counts them, any other player's read from the property), and the random bot's
main action, those three in one call (``random_main``: ``bots.RandomBot.main``),
each giving exactly what the Python gives, so that seeded games stay byte-identical. Their draws are the
standard generator's ``getrandbits``, read from its state in C once a check by drawing at import has shown
that the extension reads it as CPython does (:data:`DIRECT_DRAWS`); otherwise called back. The Python
code is the reference and the fallback (``tests/test_wd_cbots.py`` compares both on thousands of
seeded games).

``REPLAY_PURE=1`` in the environment (read at import) forces the pure-Python code; so does a machine
where the extension was not built. :func:`use` switches in-process (the benchmark compares both).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from replay.compiled_ext import PURE, load
from replay.packs import PackPart

from .state import PlayerState

_module, NOT_BUILT = load(__package__, "_cbots", "the compiled bots")
try:  # the type whose resources first_ok counts without calling the property back; pack parts' reads kept
    if _module is not None:
        _module.setup(PlayerState, PackPart)
except (AttributeError, TypeError):  # built from older sources than these
    _module, NOT_BUILT = None, "the compiled bots (_cbots) are built from older sources: pip install -e . again"
"""Why the extension is not there ("" when it is)."""

BUILT_CANDIDATES: Callable[..., list[Any]] | None = None if _module is None else _module.candidates
BUILT_SHUFFLE: Callable[[Callable[[int], int], list[Any]], None] | None = None if _module is None else _module.shuffle
BUILT_BELOW: Callable[[Callable[[int], int], int], int] | None = None if _module is None else _module.below
BUILT_FIRST_OK: Callable[..., Any] | None = None if _module is None else _module.first_ok
BUILT_ALL_OK: Callable[..., Any] | None = None if _module is None else _module.all_ok
BUILT_ROLL: Callable[..., tuple[list[dict[str, Any]], dict[str, tuple[str, int]]]] | None = (
    None if _module is None else _module.roll)
BUILT_RANDOM_MAIN: Callable[..., Any] | None = None if _module is None else _module.random_main
BUILT_RANDOM_ACTION: Callable[..., Any] | None = None if _module is None else _module.random_action
BUILT_GENERATOR: Callable[[Any, Any], bool] | None = None if _module is None else getattr(_module, "generator", None)
BUILT_LENT: Any = None if _module is None else getattr(_module, "LENT", None)
"""What the extension lends the compiled kernel (a capsule, ``_lent.h``: its draws and its check of a candidate),
with which the kernel answers a simulated random bot's questions (``compiled.bot_answers``); None where not built."""

CANDIDATES = None if PURE else BUILT_CANDIDATES
"""``candidates(first, wonder_lanes, forum, roll, made, die_keys, crossed_of)``, or None: the Python."""
SHUFFLE = None if PURE else BUILT_SHUFFLE
"""``shuffle(getrandbits, x)``, or None: the Python."""
BELOW = None if PURE else BUILT_BELOW
"""``below(getrandbits, n)``: ``randrange(n)``, or None: the Python."""
FIRST_OK = None if PURE else BUILT_FIRST_OK
"""``first_ok(candidates, state, p, free, slow)``: :func:`engine.first_legal`, or None: the Python."""
ALL_OK = None if PURE else BUILT_ALL_OK
"""``all_ok(candidates, state, p, free, slow)``: :func:`engine.legal_candidates`, or None: the Python."""
ROLL = None if PURE else BUILT_ROLL
"""``roll(getrandbits, forum, faces, sections)``: a simulated roll's (event dice, roll), or None: the Python."""
RANDOM_MAIN = None if PURE else BUILT_RANDOM_MAIN
"""``random_main(getrandbits, first, tables, state, p, slow)``: ``RandomBot.main`` (listed, shuffled, the first
legal), or None: the Python."""
RANDOM_ACTION = None if PURE else BUILT_RANDOM_ACTION
"""``random_action(getrandbits, first, tables, state, p, slow, trusted, seat, done, events, event, game_id, kind, turn)``:
a simulated random bot's action in one call (``simulate_game``'s loop for it: chosen by ``random_main``, applied by
the compiled one-step action, its event appended, the seat done; the claims dict, or the step when the action
asks a question), or None: the Python."""


def direct_draws(on: bool) -> bool:
    """The standard generator's draws taken from its state by the extension (``on``, where its check by
    drawing passes: ``_cbots.generator``) or by calling ``getrandbits`` back; whether they now are."""
    if BUILT_GENERATOR is None:
        return False
    if not on:
        return BUILT_GENERATOR(None, None)
    a, b = random.Random(20261207), random.Random()
    b.setstate(a.getstate())
    return BUILT_GENERATOR(a.getrandbits, b.getrandbits)


DIRECT_DRAWS = direct_draws(not PURE)
"""Whether the compiled draws read the standard generator's state directly (the same numbers as its
``getrandbits``, checked by drawing at import); False: each draw calls ``getrandbits``."""


def active() -> bool:
    """Whether the bots use the compiled code now."""
    return CANDIDATES is not None


@contextmanager
def use(compiled: bool) -> Iterator[bool]:
    """The compiled bots on (where built) or off for a while; yields whether they are on."""
    global CANDIDATES, SHUFFLE, BELOW, FIRST_OK, ALL_OK, ROLL, RANDOM_MAIN, RANDOM_ACTION
    saved = CANDIDATES, SHUFFLE, BELOW, FIRST_OK, ALL_OK, ROLL, RANDOM_MAIN, RANDOM_ACTION
    CANDIDATES, SHUFFLE, BELOW, FIRST_OK, ALL_OK, ROLL, RANDOM_MAIN, RANDOM_ACTION = (
        (BUILT_CANDIDATES, BUILT_SHUFFLE, BUILT_BELOW, BUILT_FIRST_OK, BUILT_ALL_OK, BUILT_ROLL, BUILT_RANDOM_MAIN,
         BUILT_RANDOM_ACTION) if compiled else (None,) * 8)
    try:
        yield CANDIDATES is not None
    finally:
        CANDIDATES, SHUFFLE, BELOW, FIRST_OK, ALL_OK, ROLL, RANDOM_MAIN, RANDOM_ACTION = saved
