"""The fused action kernel: the usual action checked and applied in a few plain steps.

Most actions (about nine in ten in random games) are one step that asks nothing further:
pass, or build one space (with a die or on the Wonder) whose effects ask no question and
that does not complete a building with a bonus slot still to choose. The resolver
(:mod:`engine`) handles them through a prompt, a chooser and some twenty-five calls; here
they are one function over the board's compiled :class:`engine.SpacePlan`: the die (in
the Forum, unlocked, reaching the lane), the space (on the board, unlocked, open, next on
its arrow, the Guild Court's condition), the payment, then paying, crossing and the
effects (:func:`engine.apply_effect`, the resolver's own).

Anything else is declined (None) before anything changes, and goes the general way, which
reports whatever is wrong exactly as it always did: a declined action is never a problem.
What the kernel accepts, the resolver accepts with the same table (``tests/test_wd_direct.py``,
``tests/test_wd_kernel.py``).
"""

from __future__ import annotations

from typing import Any

from .engine import SpacePlan, apply_effect, board_tables, gained, guild_problem
from .state import GameState, PlayerState

Found = tuple[SpacePlan, str | None, int, int]
"""(the space's plan, the die's colour (None for the Wonder), the die's cost, the player's resources
if the space costs any (else 0): counted once, for the check and the payment)."""


def direct_action(state: GameState, seat: int, step: dict[str, Any], trusted: bool = False) -> tuple[int, int] | None:
    """Apply ``seat``'s one-step main action ``step`` (an event's step, with a ``kind``) in place,
    if it is legal and asks no further question: (coins paid, VP scored). None, with nothing
    changed, otherwise. ``trusted``: the step is known to be legal (``apply_trusted``), so only
    what decides between the kernel and the resolver is looked at."""
    kind = step["kind"]
    p = state.players[seat]
    if kind == "pass":
        p.coins = gained(state.options, p, state.rules.start.pass_coins)
        return 0, 0
    if kind != "build" and kind != "wonder":
        return None
    try:
        found = _found(state, p, kind, step, trusted)
    except (TypeError, KeyError):  # a value of the wrong type, a die never rolled: for the resolver to report
        return None
    if found is None:
        return None
    plan, colour, extra, resources = found
    return _cross(state, p, step["building"], step["space"], plan, colour, extra, resources)


def _found(state: GameState, p: PlayerState, kind: str, step: dict[str, Any], trusted: bool) -> Found | None:
    """What :func:`direct_action` needs to apply a build or Wonder step, or None to decline: the
    step breaks a rule (unless ``trusted``), or it asks a question, or may complete a building
    with a bonus slot to choose."""
    building, lane, space = step["building"], step["lane"], step["space"]  # KeyError if absent: declined
    tables = board_tables(state.rules, p.board)
    plan = tables.plans.get((building, lane, space))
    if plan is None or plan.asks:
        return None
    crossed = p.crossed.get(building)
    if plan.bonus_size and len(crossed or ()) + 1 >= plan.bonus_size and not all(p.bonuses):
        return None  # it may complete the building: a bonus slot to choose
    if kind == "wonder":
        if building != "wonder":
            return None
        colour, die, extra = None, None, 0
    else:
        die = step["die"]
        colour = state.forum[die]
        face, section = state.roll[die]
        if not trusted and ((colour in state.rules.start.special and colour not in p.unlocked)
                            or (building, lane) not in tables.reaches[colour][face]):
            return None
        extra = 0 if colour in p.free_colours else max(
            0, state.rules.start.forum_sections[section] - p.discount_all - p.discount.get(colour, 0))
    resources = max(0, p.resources) if plan.cost else 0
    if not trusted and not _space_ok(state, p, plan, crossed, space, colour, die, extra + max(0, plan.cost - resources)):
        return None
    return plan, colour, extra, resources


def _space_ok(state: GameState, p: PlayerState, plan: SpacePlan, crossed: set[str] | None, space: str,
              colour: str | None, die: str | None, owed: int) -> bool:
    """Whether the space may be built now, as the resolver's ``_space_problem`` decides: unlocked,
    open, next on its arrow, the Guild Court's condition, and the payment (``owed``: the die's
    coins and the missing resources) against the coins held, with income gained when the die is
    chosen, if that is the option."""
    if plan.locked is not None and plan.locked not in p.unlocked:
        return False
    before = plan.before
    if crossed:
        if space in crossed or (before and not crossed.issuperset(before)):
            return False
    elif before:
        return False
    if plan.guild and guild_problem(state, p.seat, die) is not None:
        return False
    options = state.options
    credit = p.income.get(colour, 0) if colour is not None and options.income == "when_chosen" else 0
    return owed <= (gained(options, p, credit) if credit else p.coins)


def _cross(state: GameState, p: PlayerState, building: str, space: str, plan: SpacePlan, colour: str | None,
           extra: int, resources: int) -> tuple[int, int]:
    """Build the space, as the resolver's ``_do_action`` and ``_cross`` do: income when the die is
    chosen, paying (the die and the missing resources), income after paying, crossing, the
    effects, the Agora's completion, income after the action. (paid, VP)."""
    options = state.options
    income = p.income.get(colour, 0) if colour is not None else 0
    when = options.income
    if income and when == "when_chosen":
        p.coins = gained(options, p, income)
    cost = plan.cost
    paid = extra + max(0, cost - resources)
    if cost and options.resources == "spent":
        p.resources_spent += min(cost, resources)
    p.coins -= paid
    if income and when == "after_paying":
        p.coins = gained(options, p, income)
    crossed = p.crossed.setdefault(building, set())
    crossed.add(space)
    p.this_turn.append((building, space))
    vp = 0
    for effect in plan.effects:  # none asks a question, so none crosses: the completion below stands either way
        vp += apply_effect(state, p, effect, plan.category, building)
    if plan.agora_size and len(crossed) == plan.agora_size:
        state.agora_completers.append(p.seat)
    if income and when == "after_action":
        p.coins = gained(options, p, income)
    return paid, vp
