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
``kernel.direct_action(trusted=True)`` does, by the same phases; since the seventeenth, given a random
bot's generator, with the questions its step asks answered as that bot answers them: :func:`bot_answers`),
and since the twelfth the start and usual end of its turns (``start_turn``, ``turn_end``: what
``apply_trusted`` does with them). It declines anything else with nothing changed, and the Python code
then does what it always did: the Python code is the reference and the fallback, and both give the
same states, problems and outputs (``tests/test_wd_compiled.py``).

``REPLAY_PURE=1`` in the environment (read at import) forces the pure-Python code; so does a
machine where the extension was not built (``pip install`` goes on without it when the compiler
fails). :func:`use` switches in-process (the benchmark compares both in one run).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from replay.compiled_ext import PURE, load
from replay.contract import Position
from replay.events import Event
from replay.packs import PackPart
from replay.problems import Problem

from . import cbots
from .engine import SpacePlan, apply_effect

Kernel = Callable[[Any, dict[str, Any]], Any]
Trusted = Callable[[Any, int, dict[str, Any]], "tuple[int, int] | None"]
Step = Callable[[Any, Event], "tuple[Any, ...] | None"]
ApplyAt = Callable[[Any, Event], "tuple[Position, Sequence[Problem]]"]
StartTurn = Callable[[Any, dict[str, tuple[str, int]], int], "bool | None"]


POSITIONS: dict[tuple[int, int | None], Position] = {}
"""One Position per (turn, seat) (rules.position fills it; the compiled ``position`` reads it)."""


def _load() -> tuple[Any, str]:
    """The extension, set up (None where it is not built or was built from other sources), and why not."""
    kernel, why = load(__package__, "_ckernel", "the compiled kernel")
    if kernel is None:
        return None, why
    missing = [name for name in _ENTRIES if not hasattr(kernel, name)]
    if missing:  # built from older sources than these
        return None, (f"the compiled kernel (_ckernel) is built from older sources (no {', '.join(missing)}): "
                      "pip install -e . again")
    try:
        kernel.setup(SpacePlan._fields, apply_effect, POSITIONS, PackPart, Event._fields)
    except (ImportError, TypeError) as stale:  # built from other sources than these (another setup signature)
        return None, str(stale)
    kernel.link_bots(cbots.BUILT_LENT)  # None where the compiled bots are not built: the resolver answers
    return kernel, ""


_ENTRIES = ("action", "roll", "position", "trusted_action", "step", "turn_end", "start_turn", "apply_at", "link",
            "link_bots", "scores")
"""What this module takes from the extension."""


_KERNEL, NOT_BUILT = _load()
"""The extension (None where it is not built), and why not ("" when it is)."""
BUILT_ACTION: Kernel | None = _KERNEL.action if _KERNEL else None
BUILT_ROLL: Kernel | None = _KERNEL.roll if _KERNEL else None
BUILT_POSITION: Callable[[str, dict[str, Any]], Position | None] | None = _KERNEL.position if _KERNEL else None
BUILT_TRUSTED: Trusted | None = _KERNEL.trusted_action if _KERNEL else None
BUILT_STEP: Step | None = _KERNEL.step if _KERNEL else None
BUILT_TURN_END: Kernel | None = _KERNEL.turn_end if _KERNEL else None
BUILT_START_TURN: StartTurn | None = _KERNEL.start_turn if _KERNEL else None
BUILT_APPLY_AT: ApplyAt | None = _KERNEL.apply_at if _KERNEL else None
BUILT_SCORES: Callable[[Any], dict[str, Any] | None] | None = _KERNEL.scores if _KERNEL else None

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
would decline the same step. ``trusted_action(state, seat, step, getrandbits, steps)`` (``cbots.RANDOM_ACTION``'s
call): a random bot's step, whose questions it answers as that bot would (the same draws, from the generator's
state: :func:`bot_answers`), appending each answer's step dict to ``steps``; when it declines, ``steps`` and the
generator are as they were."""
STEP: Step | None = None if PURE else BUILT_STEP
"""``step(state, event)``: ``position`` then ``action``, ``roll``, a swap, the turn's usual end or the game's in one call, for
``Rules.apply_at``: (position, []) (applied, the claims all right), (position, paid, VP) (applied, the claims for the
Python code to check) or None (not cached, another event type, or declined: nothing changed)."""
APPLY_AT: ApplyAt | None = None if PURE else BUILT_APPLY_AT
"""``apply_at(state, event)``: ``WondersDiceRules.apply_at`` in one call, without its Python frame (``step``, and
the Python that :func:`link` names for what ``step`` leaves), or None: the Python method."""
START_TURN: StartTurn | None = None if PURE else BUILT_START_TURN
"""``start_turn(state, roll, turn)``: ``projector._start_turn`` for the simulation's own roll (nothing checked), True;
or None (declined, nothing changed: a table of other types)."""
TURN_END: Kernel | None = None if PURE else BUILT_TURN_END
"""``turn_end(state, payload)``: the usual end of a turn (``step``'s, without a position: the simulation's
``turn_ended``), True; or None (declined, nothing changed: an Agora to settle, a swap waiting, an odd value)."""
SCORES = None if PURE else BUILT_SCORES
"""``scores(state)``: :func:`scoring.final_scores`' result, the same dicts in the same order, or None (an odd value:
the Python's). ``step`` ends a game with it when the phase is "over" and the claims agree with it."""


def active() -> bool:
    """Whether the fold uses the compiled kernel now."""
    return ACTION is not None


@contextmanager
def use(compiled: bool) -> Iterator[bool]:
    """The compiled kernel on (where built) or off for a while; yields whether it is on."""
    global ACTION, ROLL, POSITION, TRUSTED, STEP, TURN_END, APPLY_AT, START_TURN, SCORES
    saved = ACTION, ROLL, POSITION, TRUSTED, STEP, TURN_END, APPLY_AT, START_TURN, SCORES
    built = (BUILT_ACTION, BUILT_ROLL, BUILT_POSITION, BUILT_TRUSTED, BUILT_STEP, BUILT_TURN_END, BUILT_APPLY_AT,
             BUILT_START_TURN, BUILT_SCORES)
    ACTION, ROLL, POSITION, TRUSTED, STEP, TURN_END, APPLY_AT, START_TURN, SCORES = built if compiled else (None,) * 9
    try:
        yield ACTION is not None
    finally:
        ACTION, ROLL, POSITION, TRUSTED, STEP, TURN_END, APPLY_AT, START_TURN, SCORES = saved


def bot_answers(on: bool) -> bool:
    """Whether ``trusted_action``, given a random bot's generator, answers the questions its step asks (``on``,
    where both extensions are built) or declines them to the resolver (the code before the seventeenth pass:
    the same games, drawn the same way; tests/test_wd_cbots_action.py compares both); whether it now does."""
    if _KERNEL is None:
        return False
    capsule = cbots.BUILT_LENT if on else None
    _KERNEL.link_bots(capsule)
    return capsule is not None


def link(position_then_apply: ApplyAt, checked_claims: Callable[[Any, Event, int, int], Sequence[Problem]]) -> None:
    """Name the Python that the compiled ``apply_at`` calls: for an event ``step`` declines (its position, then
    ``projector.apply``) and for an action whose claims it leaves (``projector.checked_claims``). The rules call it
    at import (this module cannot import them: they import it)."""
    if _KERNEL is not None:
        _KERNEL.link(position_then_apply, checked_claims)
