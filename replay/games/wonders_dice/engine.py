"""The projector: a pure fold from events to state that checks every rule.

Every action is resolved by one routine, :func:`resolve`, which asks a *chooser*
each question the rules pose (which die and space, which bonus slot, the extra
action, which space an effect crosses). Replay answers from the event's steps and
checks each answer; bots answer from the listed options; ``legal_actions``
explores every answer. One code path, so what is listed as legal is exactly what
replay accepts. (Replay applies the usual one-step action through the fused kernel,
``kernel.py``, which accepts only what this resolver accepts, with the same result, and
declines the rest to it: ``tests/test_wd_kernel.py``.)

Violations are :class:`replay.errors.RuleViolation` carrying the event's seq,
turn, player, a rule id from :data:`RULES`, and expected against found.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from replay.errors import RuleViolation
from replay.events import Event
from replay.problems import Location, Problem

from . import cbots
from .rules_data import Building, Effect, Face, Lane, Options, Ruleset, made_once
from .state import GameState, PlayerState

RULES: dict[str, str] = {
    "start.seats": "Seats are numbered 0, 1, 2, ... and every city is a board of the ruleset.",
    "start.ruleset": "A game is replayed under the exact ruleset it pins.",
    "turn.order": "A turn is a roll, one action per player in seat order, any special-die swaps, then the turn's end.",
    "turn.roll": "Every die in the Forum is rolled each turn, showing one of its faces in one Forum section.",
    "action.main": "An action is building with a die, building the Wonder, or passing.",
    "die.forum": "A chosen die must be in the Forum this turn.",
    "die.locked": "A special die can be chosen only by a player who has unlocked it.",
    "die.target": "A die builds only the spaces its face reaches.",
    "space.order": "Spaces follow the arrow's order of construction; the Market's in any order.",
    "space.taken": "A space is crossed once.",
    "space.unknown": "The space must exist on that building's arrow.",
    "pay.coins": "A payment cannot exceed the coins held.",
    "guild.condition": (
        "A Guild Court space needs, in the building the purple die shows, at least as many crossed spaces as "
        "each neighbour (strictly more than the opponent with 2 players), counting spaces crossed before this turn."
    ),
    "effect.choice": "Each effect is answered by one valid choice, in order.",
    "bonus.slot": "Completing a building (not the Warehouse) crosses one free bonus slot of your choice.",
    "space.locked": "The Guild Court and the Gallery of Leaders are built only by a player who unlocked their die.",
    "swap.required": "A special die unlocked for the first time replaces a grey die of the Forum at the end of that turn.",
    "end.trigger": "When a player has crossed 3 bonuses, the turn is finished and one final turn is played; then scoring.",
    "claim.paid": "The coins written as paid are what the action cost.",
    "claim.vp": "The VP written during an action are what the rules give.",
    "claim.coins": "The coins written after an action are what the player holds.",
    "claim.score": "The final scores and winners are what the rules give.",
}


Fail = Callable[[str, str, str], RuleViolation]
"""Makes the violation of a rule, from (rule id, expected, found), for the caller to raise."""


class StepKey(NamedTuple):
    """One answer: the fields of an event step, as a hashable tuple."""

    kind: str
    die: str | None = None
    building: str | None = None
    lane: str | None = None
    space: str | None = None
    slot: int | None = None

    @classmethod
    def of(cls, step: dict[str, Any]) -> StepKey:
        return cls(step["kind"], step.get("die"), step.get("building"), step.get("lane"), step.get("space"), step.get("slot"))

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self._asdict().items() if v is not None}

    def __str__(self) -> str:
        parts = [self.kind]
        if self.die:
            parts.append(f"die {self.die}")
        if self.building:
            parts.append(f"{self.building}/{self.lane}/{self.space}")
        if self.slot is not None:
            parts.append(f"slot {self.slot}")
        return " ".join(parts)


@dataclass
class Prompt:
    """A question the rules ask a player: the answers allowed, and why any other is refused.

    ``voids`` says, for a refused answer, whether the rules make it void (it does nothing)
    rather than illegal: an action chosen at the start of the turn that an earlier player's
    action made impossible (option ``void_actions``).
    """

    kind: str                                       # main | extra | cross | bonus
    candidates: Callable[[], Iterable[StepKey]]
    problem: Callable[[StepKey], tuple[str, str, str] | None]
    can_skip: bool = False
    voids: Callable[[StepKey, tuple[str, str, str]], bool] | None = None
    candidate_ok: Callable[[StepKey], bool] | None = None
    """A cheaper check, valid only for what ``candidates`` lists: True exactly when ``problem`` is None
    (the listing already rules out what it leaves out: dice outside the Forum, spaces out of reach,
    taken or out of order)."""

    def options(self) -> list[StepKey]:
        ok = self.candidate_ok
        if ok is not None:
            out = [c for c in self.candidates() if ok(c)]
        else:
            out = [c for c in self.candidates() if self.problem(c) is None]
        if self.can_skip:
            out.append(StepKey("skip"))
        return out

    def check(self, step: StepKey) -> tuple[str, str, str] | None:
        if step.kind == "skip":
            return None if self.can_skip else ("effect.choice", f"a {self.kind} choice (it cannot be skipped)", "skip")
        return self.problem(step)


class Chooser:
    """Answers prompts. Subclasses: replay (from a log), bots, legal-move exploration."""

    def choose(self, prompt: Prompt) -> StepKey:  # pragma: no cover - interface
        raise NotImplementedError


_PASS = StepKey("pass")


class Outcome(NamedTuple):
    paid: int
    vp: int
    steps: list[StepKey]
    void: bool = False


# ----------------------------------------------------------------------------- compiled tables


LaneKeys = tuple[str, bool, tuple[str, ...], tuple[StepKey, ...]]
"""(building, ordered, spaces, the step crossing each space): one lane a step may cross."""


class SpacePlan(NamedTuple):
    """One space of a board, reached along one lane, as the fused action kernel reads it
    (``kernel.py``): what checking and crossing it needs, compiled once per board."""

    before: tuple[str, ...]
    """The spaces of the lane that must be crossed first (the arrow's order; none on an unordered lane)."""
    cost: int
    effects: tuple[Effect, ...]
    category: str
    locked: str | None
    """The special die's colour a player must have unlocked to build here (None: anyone may)."""
    guild: bool
    asks: bool
    """Whether an effect asks a question (crosses a space, takes another action)."""
    bonus_size: int
    """The building's number of spaces if completing it earns a bonus slot, else 0."""
    agora_size: int
    """The Agora's number of spaces if this is the Agora (its first completion is scored), else 0."""


def _space_plans(rules: Ruleset, board: dict[str, Building]) -> dict[tuple[str, str, str], SpacePlan]:
    """Every (building, lane symbol, space) of a board, with its :class:`SpacePlan`."""
    special = rules.start.special
    plans: dict[tuple[str, str, str], SpacePlan] = {}
    for key, b in board.items():
        for lane in b.lanes:
            for i, x in enumerate(lane.spaces):
                effects = b.space[x].effects
                plans[key, lane.symbol, x] = SpacePlan(
                    lane.spaces[:i] if lane.ordered else (), b.space[x].cost, effects, b.category,
                    b.colour if b.colour in special else None, b.guild,
                    any(e.type in ("cross", "extra_action") for e in effects),
                    len(b.spaces) if b.bonus_on_complete else 0, len(b.spaces) if b.id == "agora" else 0,
                )
    return plans


class BoardTables:
    """A board compiled once against its ruleset's dice: for each die colour and face, the
    (building, lane) pairs the face reaches, in board order (what the resolver lists), and the
    same as a set of (building id, lane symbol) (what it checks); and each space's plan (what
    the fused action kernel reads). Plain reads instead of walking every building of the board
    for every die and every question."""

    __slots__ = ("board", "reach", "reaches", "plans", "keys", "wonder_keys", "cross_keys")

    def __init__(self, rules: Ruleset, board: dict[str, Building]) -> None:
        self.board = board  # held, so the id keying the cache stays its own
        self.plans = _space_plans(rules, board)
        """By (building, lane symbol, space): what the fused action kernel checks and applies."""
        self.reach: dict[str, dict[str, tuple[tuple[str, Lane], ...]]] = {}
        self.reaches: dict[str, dict[str, frozenset[tuple[str, str]]]] = {}
        for colour, faces in rules.faces.items():
            reach = self.reach[colour] = {}
            reaches = self.reaches[colour] = {}
            for name, face in faces.items():
                wide = bool(face.colours or face.buildings)
                pairs: list[tuple[str, Lane]] = []
                for b in board.values():
                    if wide:
                        if b.colour in face.colours or b.id in face.buildings:
                            pairs.extend((b.id, lane) for lane in b.lanes)
                    elif b.colour == colour:
                        pairs.extend((b.id, lane) for lane in b.lanes if lane.symbol in face.symbols)
                reach[name] = tuple(pairs)
                reaches[name] = frozenset(
                    (key, lane.symbol) for key, b in board.items() for lane in b.lanes
                    if ((b.colour in face.colours or b.id in face.buildings) if wide
                        else (b.colour == colour and lane.symbol in face.symbols))
                )
        self.keys: dict[tuple[str, str, str], tuple[LaneKeys, ...]] = {}
        """By (die id, colour, face): what :meth:`die_keys` gives (filled on first use, an entry never replaced:
        the compiled listing finds an entry it has read again by the four objects' addresses)."""
        wonder = board.get("wonder")
        self.wonder_keys: tuple[LaneKeys, ...] = tuple(
            ("wonder", lane.ordered, lane.spaces,
             tuple(StepKey("wonder", None, "wonder", lane.symbol, x, None) for x in lane.spaces))
            for lane in (wonder.lanes if wonder is not None else ())
        )
        """The Wonder's lanes, with the step building each of their spaces."""
        self.cross_keys: dict[tuple[str, ...], tuple[LaneKeys, ...]] = {}
        """By the buildings a crossing may take: what :meth:`cross_lanes` gives (filled on first use)."""

    def cross_lanes(self, buildings: tuple[str, ...]) -> tuple[LaneKeys, ...]:
        """For a crossing of a space of ``buildings``: their lanes on this board, in that order (a building
        not on the board has none), each with the step crossing each of its spaces (made once, then shared)."""
        found = self.cross_keys.get(buildings)
        if found is None:
            board = self.board
            found = self.cross_keys[buildings] = tuple(
                (bid, lane.ordered, lane.spaces, tuple(StepKey("cross", None, bid, lane.symbol, x, None) for x in lane.spaces))
                for bid in buildings if bid in board for lane in board[bid].lanes
            )
        return found

    def die_keys(self, die: str, colour: str, face: str) -> tuple[LaneKeys, ...]:
        """For a die showing a face: the lanes it reaches, in board order, each with the step
        building each of its spaces with that die (made once, then shared: steps are immutable)."""
        found = self.keys.get((die, colour, face))
        if found is None:
            found = self.keys[die, colour, face] = tuple(
                (building, lane.ordered, lane.spaces,
                 tuple(StepKey("build", die, building, lane.symbol, x, None) for x in lane.spaces))
                for building, lane in self.reach[colour][face]
            )
        return found



def board_tables(rules: Ruleset, board: dict[str, Building]) -> BoardTables:
    """The compiled tables of a board under a ruleset (built on first use, then kept by the ruleset)."""
    cache: dict[int, Any] = rules.compiled
    tables = cache.get(id(board))
    if tables is None or tables.board is not board:
        tables = cache[id(board)] = BoardTables(rules, board)
    return tables


# ----------------------------------------------------------------------------- costs


def forum_cost(state: GameState, die: str) -> int:
    return state.rules.start.forum_sections[state.roll[die][1]]


def die_cost(state: GameState, p: PlayerState, die: str, free: bool) -> int:
    colour = state.forum[die]
    if free or colour in p.free_colours:
        return 0
    return max(0, forum_cost(state, die) - p.discount_all - p.discount.get(colour, 0))


def construction_coins(p: PlayerState, cost: int) -> int:
    if not cost:
        return 0  # nothing to pay whatever the resources (and they need not be counted)
    return max(0, cost - max(0, p.resources))


# ----------------------------------------------------------------------------- the resolver


FollowUp = list[Any]
"""A question an effect will ask later, as plain data (it may sit in a snapshot):
``["effect", building, space, i]`` (the i-th effect of a space), ``["bonus_effect", slot, i]``,
``["bonus"]`` (choosing a bonus slot)."""


class Void(Exception):
    """An action the rules make void: it does nothing (option ``void_actions``)."""

    def __init__(self, step: StepKey) -> None:
        self.step = step


class _Action:
    """Resolves one player's action against the state, asking ``chooser`` every question.

    With a ``queue`` (two-phase resolution), every question an effect asks (which space to
    cross, the extra action, the bonus slot) is put on the queue instead of being asked;
    :func:`resolve_follow_ups` asks them later, in order, after every seat's main action.
    """

    __slots__ = ("state", "p", "chooser", "rules", "options", "queue", "paid", "vp", "steps", "tables")

    def __init__(self, state: GameState, p: PlayerState, chooser: Chooser, queue: list[FollowUp] | None = None) -> None:
        self.state, self.p, self.chooser = state, p, chooser
        self.rules: Ruleset = state.rules
        self.options: Options = state.options
        self.queue = queue
        self.paid = 0
        self.vp = 0
        self.steps: list[StepKey] = []
        self.tables = board_tables(self.rules, p.board)

    def ask(self, prompt: Prompt) -> StepKey:
        step = self.chooser.choose(prompt)
        self.steps.append(step)
        return step

    # -- the main action and extra actions ------------------------------------------------

    def main(self) -> None:
        step = self.ask(Prompt("main", self._action_candidates, lambda s: self._action_problem(s, free=False, main=True),
                               voids=self._voids, candidate_ok=lambda s: self._candidate_ok(s, False)))
        self._do_action(step, free=False)

    def _voids(self, step: StepKey, problem: tuple[str, str, str]) -> bool:
        """Void, not illegal: the Guild Court condition held at the start of the turn and an
        earlier player's action this turn broke it (sequential resolutions, option ``void_actions``)."""
        if not self.options.void_actions or self.options.resolution == "simultaneous" or problem[0] != "guild.condition":
            return False
        return step.kind == "build" and self._guild_problem(step.die, at_start=True) is None

    def _do_action(self, step: StepKey, free: bool) -> None:
        p = self.p
        if step.kind == "pass":
            self._gain(self.rules.start.pass_coins)
        elif step.kind == "wonder":
            assert step.space is not None  # the prompt refused a step without one
            self._cross("wonder", step.space, extra_coins=0)
        elif step.kind == "build":
            assert step.die is not None and step.building is not None and step.space is not None  # checked by the prompt
            cost = die_cost(self.state, p, step.die, free)
            income = p.income.get(self.state.forum[step.die], 0)
            when = self.options.income
            if income and when == "when_chosen":
                self._gain(income)
            self._cross(step.building, step.space, extra_coins=cost, income=income if when == "after_paying" else 0)
            if income and when == "after_action":
                self._gain(income)

    def _extra_allowed(self, free_die: bool) -> tuple[str, ...]:
        """What 'take another action' may be (ruling 8, options ``extra_action_pass`` and ``free_action_wonder``)."""
        kinds = ["build"]
        if not free_die or self.options.free_action_wonder:
            kinds.append("wonder")
        if self.options.extra_action_pass and not free_die:
            kinds.append("pass")
        return tuple(kinds)

    def _action_candidates(self, allowed: tuple[str, ...] = ("pass", "wonder", "build")) -> Iterable[StepKey]:
        """Every action worth checking, in a fixed order (bots draw from it): :func:`action_candidates`."""
        return action_candidates(self.state, self.p, self.tables, allowed)

    def _candidate_ok(self, s: StepKey, free: bool) -> bool:
        """Whether an action listed by :meth:`_action_candidates` is legal: :func:`candidate_ok`."""
        return candidate_ok(self.state, self.p, s, free)

    def _reach(self, die: str) -> Iterable[tuple[str, Lane]]:
        """The (building, lane) pairs the die's face reaches on this board, in board order (compiled once)."""
        return self.tables.reach[self.state.forum[die]][self.state.roll[die][0]]

    def _reaches(self, die: str, building: str | None, lane: str | None) -> bool:
        b = self.p.board.get(building) if building else None
        if b is None or lane not in b.lane:
            return False
        return (building, lane) in self.tables.reaches[self.state.forum[die]][self.state.roll[die][0]]

    def _face(self, die: str) -> Face:
        return self.rules.faces[self.state.forum[die]][self.state.roll[die][0]]

    def _action_problem(self, s: StepKey, free: bool, main: bool) -> tuple[str, str, str] | None:
        allowed = ("build", "wonder", "pass") if main else self._extra_allowed(free)
        if s.kind not in allowed:
            return ("action.main" if main else "effect.choice", " or ".join(allowed), s.kind)
        if s.kind == "pass":
            return None
        if s.kind == "wonder":
            if s.building != "wonder":
                return ("action.main", "the wonder building", str(s.building))
            return self._space_problem("wonder", s.lane, s.space, extra=0)
        if s.die not in self.state.forum:
            return ("die.forum", "one of " + ", ".join(self.state.forum), str(s.die))
        colour = self.state.forum[s.die]
        if colour in self.rules.start.special and colour not in self.p.unlocked:
            return ("die.locked", f"a die {self.p.name} has unlocked", f"the {colour} die, still locked")
        if not self._reaches(s.die, s.building, s.lane):
            reach = {(b, lane.symbol) for b, lane in self._reach(s.die)}
            face = self.state.roll[s.die][0]
            where = ", ".join(f"{b}/{lane}" for b, lane in sorted(reach)) or "nothing"
            return ("die.target", f"the {colour} die showing {face} to reach {where}", f"{s.building}/{s.lane}")
        assert s.building is not None  # _reaches is False without a building
        credit = self.p.income.get(colour, 0) if self.options.income == "when_chosen" else 0
        return self._space_problem(s.building, s.lane, s.space, extra=die_cost(self.state, self.p, s.die, free), die=s.die,
                                   credit=credit)

    # -- crossing a space --------------------------------------------------------------------

    def _space_problem(
        self, building: str, lane_symbol: str | None, space: str | None, extra: int, die: str | None = None,
        credit: int = 0,
    ) -> tuple[str, str, str] | None:
        """Why ``space`` cannot be crossed now (None if it can); ``extra`` coins for the die, ``credit``
        coins gained before paying (income when the die is chosen)."""
        p = self.p
        b = p.board.get(building)
        lane = b.lane.get(lane_symbol) if b is not None and lane_symbol is not None else None
        if b is None or lane is None or space not in lane.spaces:
            return ("space.unknown", f"a space on an arrow of {building}", f"{building}/{lane_symbol}/{space}")
        if b.colour in self.rules.start.special and b.colour not in p.unlocked:
            return ("space.locked", f"the {b.colour} die unlocked by {p.name} first", f"{building}, still locked")
        crossed = p.crossed.get(building, ())
        if space in crossed:
            return ("space.taken", f"an open space of {building}", f"{space}, already crossed")
        if lane.ordered:
            nxt = None
            for x in lane.spaces:
                if x not in crossed:
                    nxt = x
                    break
            if space != nxt:
                return ("space.order", f"{nxt} (next on the {lane_symbol} arrow)", space)
        if b.guild:
            problem = self._guild_problem(die)
            if problem:
                return problem
        cost = b.space[space].cost
        owed = extra + construction_coins(p, cost)
        available = self._gained(credit) if credit else p.coins
        if owed > available:
            return ("pay.coins", f"at most {available} coins to pay",
                    f"{owed} owed ({extra} for the die, {construction_coins(p, cost)} for a cost of {cost} "
                    f"with {max(0, p.resources)} resources)")
        return None

    def _guild_problem(self, die: str | None, at_start: bool = False) -> tuple[str, str, str] | None:
        """The Guild Court condition against each neighbour; ``at_start``: as the table stood when the turn began."""
        state = self.state
        purple = next((d for d, c in state.forum.items() if c == "purple"), None) if die is None else die
        if purple is None or state.forum.get(purple) != "purple":
            return ("guild.condition", "the purple die in the Forum to name a building", "none")
        face = self._face(purple)
        assert face.compare is not None, f"purple face {face.face!r} names nothing to compare"  # the pack does not check it
        group = state.rules.compare_groups[face.compare]
        mine = _count(state, self.p.seat, group, own=True)
        left, right = state.neighbours(self.p.seat)
        others = {left, right} - {self.p.seat}
        for o in others:
            theirs = _count(state, o, group, own=False, at_start=at_start)
            need_more = len(state.players) == 2
            if mine < theirs or (need_more and mine == theirs):
                rel = "more than" if need_more else "at least as many as"
                return ("guild.condition", f"{rel} {state.players[o].name}'s {theirs} in {face.compare}",
                        f"{self.p.name} has {mine}")
        return None

    def _cross(self, building: str, space: str, extra_coins: int, income: int = 0) -> None:
        """Pay, cross, gain ``income`` (when it comes after paying), run the space's effects, then
        the completion: the Agora's first completion and the completion bonus. Whether *this*
        crossing completes the building is decided when it is made (option ``completion``:
        ``at_crossing``) or, as 0.1 did, after the effects (an extra action that completes the
        building from inside then completed it twice)."""
        p = self.p
        b = p.board[building]
        cost = b.space[space].cost
        coins = extra_coins + construction_coins(p, cost)
        if self.options.resources == "spent":
            p.resources_spent += min(cost, max(0, p.resources))
        p.coins -= coins
        self.paid += coins
        if income:
            self._gain(income)
        p.crossed.setdefault(building, set()).add(space)
        p.this_turn.append((building, space))
        at_crossing = self.options.completion == "at_crossing"
        if at_crossing:
            agora_done = b.id == "agora" and p.complete("agora")
            completed = b.bonus_on_complete and self._completed(building)
        for i, effect in enumerate(b.space[space].effects):
            self._effect(effect, b.category, building, ["effect", building, space, i])
        if not at_crossing:
            agora_done = b.id == "agora" and p.complete("agora")
            completed = b.bonus_on_complete and self._completed(building)
        if agora_done:
            self.state.agora_completers.append(p.seat)
        if completed and not all(p.bonuses):
            self._follow_up(["bonus"])

    def _take_bonus(self) -> None:
        p = self.p
        free = [i for i, taken in enumerate(p.bonuses) if not taken]
        if not free:
            return  # every slot was taken meanwhile (two-phase: by an earlier follow-up)
        pick = self._ask_bonus(free)
        assert pick.slot is not None  # _bonus_problem refused a step without a free slot
        p.bonuses[pick.slot] = True
        for i, effect in enumerate(self.rules.bonus_slots.slots[pick.slot]):
            self._effect(effect, "bonus", None, ["bonus_effect", pick.slot, i])

    def _ask_bonus(self, free: list[int]) -> StepKey:
        """Which free bonus slot (``free``: their indices, at least one) to cross."""
        return self.ask(Prompt("bonus", lambda: bonus_candidates(free), self._bonus_problem))

    def _follow_up(self, what: FollowUp) -> None:
        """Ask an effect's question now, or put it on the two-phase queue."""
        if self.queue is not None:
            self.queue.append(what)
        else:
            self.run_follow_up(what)

    def run_follow_up(self, what: FollowUp) -> None:
        if what[0] == "bonus":
            self._take_bonus()
        elif what[0] == "effect":
            _, building, space, i = what
            b = self.p.board[building]
            self._ask_effect(b.space[space].effects[i], building)
        else:
            _, slot, i = what
            self._ask_effect(self.rules.bonus_slots.slots[slot][i], None)

    def _completed(self, building: str) -> bool:
        p = self.p
        if not p.complete(building):
            return False
        if self.state.options.barracks == "one_building" and building.startswith("barracks_"):
            other = "barracks_east" if building == "barracks_west" else "barracks_west"
            return p.complete(other)
        return True

    def _bonus_problem(self, s: StepKey) -> tuple[str, str, str] | None:
        free = [i for i, taken in enumerate(self.p.bonuses) if not taken]
        if s.kind != "bonus" or s.slot not in free:
            return ("bonus.slot", "a free bonus slot: " + ", ".join(map(str, free)), str(s))
        return None

    def _gained(self, coins: int) -> int:
        """The coins held after gaining ``coins`` (the cap, if any, applied)."""
        return gained(self.options, self.p, coins)

    def _gain(self, coins: int) -> None:
        self.p.coins = gained(self.options, self.p, coins)

    def _effect(self, e: Effect, category: str, building: str | None, source: FollowUp) -> None:
        """Apply an effect; one that asks a question (crossing, the extra action) is a follow-up."""
        if e.type in ("cross", "extra_action"):
            self._follow_up(source)
        else:
            self.vp += apply_effect(self.state, self.p, e, category, building)

    def _ask_effect(self, e: Effect, building: str | None) -> None:
        """The question of an effect that asks one: which space(s) to cross, or the extra action."""
        if e.type == "cross":
            self._effect_cross(e)
            return
        step = self._ask_extra(self._extra_allowed(e.free_die), e.free_die)
        if step.kind != "skip":
            self._do_action(step, free=e.free_die)

    def _ask_extra(self, allowed: tuple[str, ...], free: bool) -> StepKey:
        """The extra action (or skip): ``allowed`` kinds, the die free or not."""
        return self.ask(Prompt(
            "extra", lambda: self._action_candidates(allowed),
            lambda s: self._action_problem(s, free=free, main=False), can_skip=True,
            candidate_ok=lambda s: self._candidate_ok(s, free),
        ))

    def _cross_candidates(self, buildings: tuple[str, ...]) -> list[StepKey]:
        """Every space of ``buildings`` a crossing could take, in a fixed order (bots draw from it):
        :func:`cross_candidates`."""
        return cross_candidates(self.state, self.p, self.tables, buildings)

    def _cross_problem(self, buildings: tuple[str, ...], s: StepKey) -> tuple[str, str, str] | None:
        """Why ``s`` cannot be the crossing of a space of ``buildings`` (None if it can)."""
        if s.kind != "cross" or s.building not in buildings:
            return ("effect.choice", "a space of " + " or ".join(buildings), str(s))
        return self._space_problem(s.building, s.lane, s.space, extra=0)

    def _ask_cross(self, buildings: tuple[str, ...]) -> StepKey | None:
        """Which space of ``buildings`` to cross (or skip, unless ``cross_mandatory``); None, with no
        question asked, when none can be crossed (the effect lapses)."""
        prompt = Prompt("cross", partial(self._cross_candidates, buildings), partial(self._cross_problem, buildings),
                        can_skip=not self.options.cross_mandatory, candidate_ok=lambda s: self._candidate_ok(s, False))
        if not any(prompt.problem(c) is None for c in self._cross_candidates(buildings)):
            return None
        return self.ask(prompt)

    def _effect_cross(self, e: Effect) -> None:
        buildings = e.buildings
        for _ in range(e.count):
            step = self._ask_cross(buildings)
            if step is None or step.kind == "skip":
                return  # nothing could be crossed (no question asked), or skipped
            assert step.building is not None and step.space is not None  # checked by _cross_problem
            self._cross(step.building, step.space, extra_coins=0)
            buildings = (step.building,)  # "up to two spaces of the building shown": the same building


_ALL_ACTIONS = ("pass", "wonder", "build")


def action_candidates(state: GameState, p: PlayerState, tables: BoardTables,
                      allowed: tuple[str, ...] = _ALL_ACTIONS) -> list[StepKey]:
    """Every action of ``p`` worth checking, in a fixed order (bots draw from it, so the order and
    the length are part of every seeded game): pass, the Wonder's open spaces, then for each Forum
    die the open spaces its face reaches (the board's compiled tables): on an arrow its next space,
    on an unordered lane every open one. (Every other space breaks space.order or space.taken.)
    The compiled bots (``cbots.py``), where built, list the same."""
    fast = cbots.CANDIDATES
    if fast is not None:
        return fast(_PASS if "pass" in allowed else None, tables.wonder_keys if "wonder" in allowed else (),
                    state.forum if "build" in allowed else None, state.roll, tables.keys, tables.die_keys, p.crossed)
    out: list[StepKey] = [_PASS] if "pass" in allowed else []
    crossed_of = p.crossed
    lanes: list[LaneKeys] = list(tables.wonder_keys) if "wonder" in allowed else []
    if "build" in allowed:
        roll, made = state.roll, tables.keys
        for die, colour in state.forum.items():
            key = (die, colour, roll[die][0])
            found = made.get(key)
            lanes += found if found is not None else tables.die_keys(*key)
    _open_steps(out, lanes, crossed_of)
    return out


def _open_steps(out: list[StepKey], lanes: Iterable[LaneKeys], crossed_of: dict[str, set[str]]) -> None:
    """Append the open spaces' steps of ``lanes`` to ``out``: on an arrow (``ordered``) its next space,
    on an unordered lane every open one."""
    append = out.append
    for building, ordered, spaces, keys in lanes:
        crossed = crossed_of.get(building)
        if not crossed:
            if ordered:
                append(keys[0])
            else:
                out += keys
        elif ordered:
            for i, x in enumerate(spaces):
                if x not in crossed:
                    append(keys[i])
                    break
        else:
            out += [k for x, k in zip(spaces, keys) if x not in crossed]


def cross_candidates(state: GameState, p: PlayerState, tables: BoardTables, buildings: tuple[str, ...]) -> list[StepKey]:
    """Every space of ``buildings`` a crossing could take, in a fixed order (bots draw from it): for each
    building on the board and each of its lanes, the open spaces (the next on an arrow, every open one on
    an unordered lane), as :func:`action_candidates` lists a lane; every other space breaks space.order or
    space.taken. Compiled where built, as that listing is."""
    lanes = tables.cross_lanes(buildings)
    fast = cbots.CANDIDATES
    if fast is not None:
        found: list[StepKey] = fast(None, lanes, None, state.roll, tables.keys, tables.die_keys, p.crossed)
        return found
    out: list[StepKey] = []
    _open_steps(out, lanes, p.crossed)
    return out


def candidate_ok(state: GameState, p: PlayerState, s: StepKey, free: bool) -> bool:
    """Whether an action listed by :func:`action_candidates` is legal: exactly the resolver's
    ``_action_problem(s, free, main) is None`` for those (the listing already holds the die to the
    Forum and its reach, and the space to its lane's order; what is left is the locks, the Guild
    Court's condition and the payment); and whether a crossing listed by :func:`cross_candidates` is
    legal (``free`` False): the resolver's ``_cross_problem`` for those, a space built with no die, as
    a Wonder step is. ``tests/test_wd_fast_choice.py`` compares them."""
    kind = s[0]
    if kind == "pass":
        return True
    special = state.rules.start.special
    b = p.board[s[2]]  # type: ignore[index]  # a listed build, Wonder or cross step names its building
    if kind != "build":  # the Wonder, or a crossing: no die
        die, owed, credit = None, 0, 0
    else:
        die = s[1]
        assert die is not None  # a listed build step names its die
        colour = state.forum[die]
        if colour in special and colour not in p.unlocked:
            return False
        owed = die_cost(state, p, die, free)
        credit = p.income.get(colour, 0) if state.options.income == "when_chosen" else 0
    if b.colour in special and b.colour not in p.unlocked:
        return False
    if b.guild and _Action(state, p, _NO_QUESTIONS)._guild_problem(die) is not None:
        return False
    owed += construction_coins(p, b.space[s[4]].cost)  # type: ignore[index]  # and its space
    return owed <= (gained(state.options, p, credit) if credit else p.coins)


def first_legal(state: GameState, p: PlayerState, candidates: list[StepKey], free: bool) -> StepKey | None:
    """The first of ``candidates`` (listed by :func:`action_candidates`) that :func:`candidate_ok`
    finds legal, or None. The compiled bots (``cbots.py``), where built, decide the usual candidate
    themselves and ask :func:`candidate_ok` about any other (a Guild Court space)."""
    fast = cbots.FIRST_OK
    if fast is not None:
        found: StepKey | None = fast(candidates, state, p, free, candidate_ok)
        return found
    for c in candidates:
        if candidate_ok(state, p, c, free):
            return c
    return None


def legal_candidates(state: GameState, p: PlayerState, candidates: list[StepKey], free: bool) -> list[StepKey]:
    """The ``candidates`` (listed by :func:`action_candidates`) that :func:`candidate_ok` finds legal,
    in order; compiled where built, as :func:`first_legal` is."""
    fast = cbots.ALL_OK
    if fast is not None:
        found: list[StepKey] = fast(candidates, state, p, free, candidate_ok)
        return found
    return [c for c in candidates if candidate_ok(state, p, c, free)]


def gained(options: Options, p: PlayerState, coins: int) -> int:
    """The coins ``p`` holds after gaining ``coins`` (the cap, if any, applied)."""
    cap = options.coin_cap
    return min(cap, p.coins + coins) if cap is not None else p.coins + coins


def apply_effect(state: GameState, p: PlayerState, e: Effect, category: str, building: str | None) -> int:
    """Apply an effect that asks no question (every type but ``cross`` and ``extra_action``, which
    the caller handles) to player ``p``; the VP it scores. Shared by the resolver and the fused
    action kernel (``kernel.py``), so that both apply an effect the same way."""
    t = e.type
    if t == "vp":
        vp = e.vp
    elif t == "attack":
        vp = max(0, e.vp - min(2, defence(state, p.seat, building)))
    else:
        if t == "coins":
            p.coins = gained(state.options, p, e.amount)
        elif t == "per_space":
            assert e.building is not None  # Effect._parameters requires it
            p.coins = gained(state.options, p, e.coins * p.count(e.building))
            p.end_effects.append((category, e.building, e.vp))
        elif t == "vp_per_leader_end":
            p.end_effects.append((category, "leaders", e.vp))
        elif t == "die_discount":
            if e.colours:
                for c in e.colours:
                    p.discount[c] = p.discount.get(c, 0) + e.amount
            else:
                p.discount_all += e.amount
        elif t == "die_free":
            p.free_colours.update(e.colours)
        elif t == "income":
            for c in e.colours:
                p.income[c] = p.income.get(c, 0) + e.amount
        elif t == "unlock":
            assert e.die is not None  # Effect._parameters requires a special die
            p.unlocked.add(e.die)
            if e.die not in state.forum.values() and e.die not in state.pending_swaps:
                state.pending_swaps.append(e.die)
        return 0  # resource and shield: read from the crossed spaces
    p.vp[category] = p.vp.get(category, 0) + vp
    return vp


def defence(state: GameState, seat: int, barracks: str | None) -> int:
    """Shields of the city attacked from ``barracks`` (West faces the left neighbour), in its
    facing Barracks, as the rules see them (before this turn, unless resolving in seat order)."""
    left, right = state.neighbours(seat)
    defender, facing = (left, "barracks_east") if barracks == "barracks_west" else (right, "barracks_west")
    return _shields(state, defender, facing)


def _count(state: GameState, seat: int, group: tuple[str, ...], own: bool, at_start: bool = False) -> int:
    """Crossed spaces of a building group, as the Guild Court compares them. The player's own
    spaces crossed this turn never count (the rulebook); a neighbour's count as they stood at the
    start of the turn (ruling 1), or, when actions resolve one after another (``seat_order``,
    ``two_phase``), with what the neighbour's earlier actions this turn added."""
    p = state.players[seat]
    if own or at_start or state.options.resolution == "simultaneous":
        return sum(p.count_before_turn(b) for b in group)
    return sum(p.count(b) for b in group)


def _shields(state: GameState, seat: int, barracks: str) -> int:
    p = state.players[seat]
    if barracks not in p.board:
        return 0
    return p.shields_before_turn(barracks) if state.options.resolution == "simultaneous" else p.shields(barracks)


def resolve(state: GameState, seat: int, chooser: Chooser, queue: list[FollowUp] | None = None) -> Outcome:
    """Resolve one player's action in place; the chooser answers every question (with a ``queue``,
    only the main one: the effects' questions wait on the queue, see :func:`resolve_follow_ups`)."""
    action = _Action(state, state.players[seat], chooser, queue)
    action.main()
    return Outcome(action.paid, action.vp, action.steps)


class DirectChooser(Chooser):
    """A chooser that can also be asked without prompts (the plain bots, ``bots.PLAIN``: a simulation's
    fast path, :func:`resolve_chosen`). Each method gives the answer :meth:`choose` gives to the same
    question's prompt, from the same candidates in the same order (listed and checked by the
    resolver's own functions), with the same draws."""

    def main(self, state: GameState, p: PlayerState, tables: BoardTables) -> StepKey:  # pragma: no cover - interface
        """The main action: the main prompt (its candidates :func:`action_candidates`, checked by
        :func:`candidate_ok` with the die paid)."""
        raise NotImplementedError

    def extra(self, state: GameState, p: PlayerState, tables: BoardTables, allowed: tuple[str, ...],
              free: bool) -> StepKey:  # pragma: no cover - interface
        """The extra action, or skip: the extra prompt (its candidates :func:`action_candidates` of the
        ``allowed`` kinds, checked by :func:`candidate_ok` with the die ``free`` or not; it may be skipped)."""
        raise NotImplementedError

    def cross(self, state: GameState, p: PlayerState, candidates: list[StepKey], can_skip: bool) -> StepKey:  # pragma: no cover
        """Which space a crossing takes, or skip (when ``can_skip``): the cross prompt, whose candidates are
        ``candidates`` (:func:`cross_candidates`; at least one legal), checked by :func:`candidate_ok` (no die)."""
        raise NotImplementedError

    def bonus(self, candidates: list[StepKey]) -> StepKey:  # pragma: no cover - interface
        """Which bonus slot: the bonus prompt, whose candidates (:func:`bonus_candidates`) are all legal."""
        raise NotImplementedError


class _DirectAction(_Action):
    """An action whose follow-up questions are asked of a :class:`DirectChooser` without prompts: the
    same candidates (the resolver's listing) and the same checks, the answer applied as the prompt's
    would be. Sequential resolution only (a two-phase queue is never given one)."""

    __slots__ = ("bot",)

    def __init__(self, state: GameState, p: PlayerState, bot: DirectChooser) -> None:
        super().__init__(state, p, bot)
        self.bot = bot

    def _ask_extra(self, allowed: tuple[str, ...], free: bool) -> StepKey:
        step = self.bot.extra(self.state, self.p, self.tables, allowed, free)
        self.steps.append(step)
        return step

    def _ask_cross(self, buildings: tuple[str, ...]) -> StepKey | None:
        state, p = self.state, self.p
        candidates = cross_candidates(state, p, self.tables, buildings)
        if first_legal(state, p, candidates, False) is None:
            return None  # nothing can be crossed: the effect lapses without a question, as the prompt's
        step = self.bot.cross(state, p, candidates, not self.options.cross_mandatory)
        self.steps.append(step)
        return step

    def _ask_bonus(self, free: list[int]) -> StepKey:
        step = self.bot.bonus(bonus_candidates(free))
        self.steps.append(step)
        return step


def resolve_chosen(state: GameState, seat: int, bot: DirectChooser, first: StepKey) -> Outcome:
    """Resolve ``seat``'s action whose main step ``first`` the bot has chosen (legal: its ``main``), in
    place, asking the bot each follow-up without a prompt: what :func:`resolve` gives with the bot as
    the chooser, for the same table and draws (``tests/test_wd_fast_choice.py``). Sequential resolution."""
    action = _DirectAction(state, state.players[seat], bot)
    action.steps.append(first)
    action._do_action(first, free=False)
    return Outcome(action.paid, action.vp, action.steps)


def bonus_candidates(free: list[int]) -> list[StepKey]:
    """The answers of a bonus question: each free slot (``free``: their indices), in order."""
    return [StepKey("bonus", slot=i) for i in free]


class _NoQuestions(Chooser):
    def choose(self, prompt: Prompt) -> StepKey:
        raise AssertionError(f"a {prompt.kind} question asked where none may be")  # only checks are run with it


_NO_QUESTIONS = _NoQuestions()


def guild_problem(state: GameState, seat: int, die: str | None) -> tuple[str, str, str] | None:
    """The Guild Court condition for ``seat`` building with ``die`` (None: the Forum's purple die),
    as the resolver checks it (for the fused action kernel, which asks nothing)."""
    return _Action(state, state.players[seat], _NO_QUESTIONS)._guild_problem(die)


def resolve_follow_ups(state: GameState, seat: int, chooser: Chooser, queue: list[FollowUp]) -> Outcome:
    """Two-phase resolution, second phase: one seat's queued questions, first come first asked;
    a question an answer raises joins the end of the queue."""
    action = _Action(state, state.players[seat], chooser, queue)
    while queue:
        action.run_follow_up(queue.pop(0))
    return Outcome(action.paid, action.vp, action.steps)


# ----------------------------------------------------------------------------- replaying a log


class _LogChooser(Chooser):
    """Answers from an event's steps, refusing any answer the prompt does not allow."""

    def __init__(self, steps: list[dict[str, Any]], fail: Fail) -> None:
        self.steps = [StepKey.of(s) for s in steps]
        self.i = 0
        self.fail = fail

    def choose(self, prompt: Prompt) -> StepKey:
        if self.i >= len(self.steps):
            options = prompt.options()
            shown = ", ".join(map(str, options[:6])) + (" ..." if len(options) > 6 else "")
            raise self.fail("effect.choice", f"a {prompt.kind} step ({shown})", "no more steps")
        step = self.steps[self.i]
        self.i += 1
        problem = prompt.check(step)
        if problem:
            if prompt.voids is not None and prompt.voids(step, problem):
                raise Void(step)
            raise self.fail(*problem)
        return step


class TrustedChooser(Chooser):
    """Answers from steps known to be legal (an event already checked), without checking them."""

    def __init__(self, steps: list[StepKey]) -> None:
        self.steps = steps
        self.i = 0

    def choose(self, prompt: Prompt) -> StepKey:
        step = self.steps[self.i]
        self.i += 1
        return step


def fail_for(state: GameState, event: Event, seat: int | None) -> Fail:
    return fail_at(state, event.seq, seat)


def fail_at(state: GameState, seq: int, seat: int | None) -> Fail:
    """Makes violations located at event ``seq``, turn and player from the state."""
    def fail(rule_id: str, expected: str, found: str) -> RuleViolation:
        player = state.players[seat].name if seat is not None and 0 <= seat < len(state.players) else None
        return RuleViolation(Problem(rule_id, RULES[rule_id], expected, found,
                                     Location(seq=seq, turn=state.turn or None, player=player)))
    return fail


def new_state(rules: Ruleset, options: Options, seats: list[dict[str, Any]]) -> GameState:
    players = []
    for s in seats:
        board = rules.buildings_of(s["city"])
        players.append(PlayerState(
            seat=s["seat"], name=s["name"], city=s["city"], coins=rules.start.coins, board=board,
            bonuses=[False] * len(rules.bonus_slots.slots),
        ))
    return GameState(rules=rules, options=options, players=players, forum=dict(_start_forum(rules.start.dice)))


_FORUMS: dict[int, tuple[Any, dict[str, str]]] = {}


def _start_forum(dice: tuple[str, ...]) -> dict[str, str]:
    """The Forum at the start (die id -> colour: a colour rolled with several dice numbers them, ``grey1``), made once
    per pack's dice (copy before changing)."""
    return made_once(_FORUMS, dice, _forum_of)


def _forum_of(dice: tuple[str, ...]) -> dict[str, str]:
    forum: dict[str, str] = {}
    counts: dict[str, int] = {}
    for colour in dice:
        counts[colour] = counts.get(colour, 0) + 1
    seen: dict[str, int] = {}
    for colour in dice:
        seen[colour] = seen.get(colour, 0) + 1
        forum[f"{colour}{seen[colour]}" if counts[colour] > 1 else colour] = colour
    return forum
