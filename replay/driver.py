"""The one replay driver: each event applied once, each step handed to observers.

Every command that needs the state of a game (audit, show, step, diff, derived
tables, narration, simulation) replays it through :class:`Replay`, and sees it
through :class:`replay.contract.Observer` objects (python-chess's one reader
with many visitors is the model).

A replay is lenient by default (level ``collect``): a problem is recorded where
it occurs and the game goes on (an illegal event changes nothing; a wrong claim
yields to the rules' value), so every event of a disputed game can be reached.
At level ``raise`` it stops at the first problem; at ``ignore`` problems are
dropped. Even a bug in a game's rules does not escape as a traceback: it becomes
a ``replay.internal`` problem at the event that set it off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Generic, TypeVar

from .compiled_ext import PURE, load
from .contract import NO_POSITION, Game, Observer, Position, Step
from .errors import PackError, ReplayError, RuleViolation
from .events import Event, EventPayload
from .gcpause import gc_paused
from .packs import PackLibrary, RulesPack
from .problems import Level, Location, Problem

S = TypeVar("S")


class Replay(Generic[S]):
    """One game replayed through its rules. Feed it events with :meth:`push` or :meth:`run`."""

    def __init__(
        self,
        game: Game[S, Any],
        library: PackLibrary | None = None,
        *,
        level: Level = "collect",
        observers: Sequence[Observer] = (),
        source: str | None = None,
        lines: Mapping[int, int] | None = None,
    ) -> None:
        self.game = game
        self.rules = game.rules
        self.library = library if library is not None else game.library()
        self.level = level
        self.observers: list[Observer] = []
        self._before: list[Observer] = []
        self.observe(*observers)
        self.source = source
        self.lines = lines or {}
        self.state: S | None = None
        self.game_id = ""
        self.pack: RulesPack | None = None
        self.names: list[str] = []
        self.problems: list[Problem] = []
        self.index = -1
        """Index of the last event pushed (events are counted from 0, the start event)."""
        self.turns = 0
        """The highest turn the events pushed belong to (by their positions; 0 while none has one): the
        turns a game has played, kept here so an observer that counts them needs no step per event."""
        self.unplayable: Problem | None = None
        """Set when the start event cannot be played: nothing after it can be replayed."""

    def observe(self, *observers: Observer) -> Replay[S]:
        """Add observers (they see the steps from now on)."""
        self.observers.extend(observers)
        self._before = [o for o in self.observers if type(o).before is not Observer.before]
        return self

    # ------------------------------------------------------------------ feeding events

    def run(self, events: Iterable[Event]) -> Replay[S]:
        """Push every event. The cyclic garbage collector is paused meanwhile (a replay makes many
        small objects and few cycles: letting it run every few hundred allocations cost a sixth of
        the time); what it would have collected is collected when it runs again.

        The same as :meth:`push` for each event, in one loop with the lookups made once: a step is
        made only for an event some observer overriding ``after`` wants (``Observer.after_types``;
        ``push`` returns one whatever)."""
        with gc_paused():
            it = iter(events)
            if self.index < 0 or self.state is None:
                for event in it:
                    self.push(event)
                    if self.state is not None:
                        break
            state = self.state
            if state is None:  # every event pushed, or a game that could not start
                for event in it:
                    self.push(event)
                return self
            self._run(state, it)
        return self

    def _run(self, state: S, events: Iterator[Event]) -> None:
        """:meth:`push` for every event after the first of a game that started, a step made only for
        an event some observer overriding ``after`` wants (``observers`` is the list ``observe``
        extends, so one added meanwhile sees the next step, as with ``push``). :meth:`_apply` is written
        out in the loop (a call and a tuple less per event: about 2% of a 7 Wonders Dice fold).

        The same loop runs compiled where ``replay._cdriver`` is built (:data:`LOOP`); this one is its
        reference, and what ``REPLAY_PURE=1`` runs."""
        apply_at, record = self.rules.apply_at, self._record
        if LOOP is not None:
            LOOP(self, state, events, apply_at, record)
            return
        observers = self.observers
        seen, after = 0, []  # the observers of ``after``, found again when the list's length changes
        wanted: dict[str, list[Observer]] = {}  # by event type, those of ``after`` that want it
        index, turns = self.index, self.turns
        for event in events:
            index += 1
            self.index = index
            for observer in self._before:  # read each time: ``observe`` replaces the list
                observer.before(state, event)
            try:
                position, found = apply_at(state, event)
                refused = False
            except Exception as exc:
                position = self._position(state, event)
                found, refused = self._refusal(state, event, exc), True
            problems = record(found, event) if found else ()
            turn = position.turn
            if turn is not None and turn > turns:
                turns = self.turns = turn
            if observers:
                if len(observers) != seen:  # kept here, not on the replay: clearing ``observers`` frees them
                    seen = len(observers)
                    after = [o for o in observers if _overrides(o, "after")]
                    wanted = {}
                if after:
                    kind = event.type
                    targets = wanted.get(kind)
                    if targets is None:
                        targets = wanted[kind] = [o for o in after if _wants(o, kind)]
                    if targets:
                        step = _step(index, event, position, problems, state, refused)
                        for observer in targets:
                            observer.after(step)

    def push(self, event: Event) -> Step:
        """Apply one event; returns its step (``state`` None once the game is unplayable)."""
        self.index += 1
        if self.index == 0:
            return self._start(event)
        state = self.state
        if state is None:
            return _step(self.index, event, NO_POSITION, (), None, False)
        position, problems, refused = self._apply(state, event)
        step = _step(self.index, event, position, problems, state, refused)
        self._tell(step)
        return step

    def _apply(self, state: S, event: Event) -> tuple[Position, tuple[Problem, ...], bool]:
        """Apply an event after the first: (its position, the problems recorded, whether refused)."""
        for observer in self._before:
            observer.before(state, event)
        refused = False
        try:
            position, found = self.rules.apply_at(state, event)
        except Exception as exc:
            refused = True
            position = self._position(state, event)
            found = self._refusal(state, event, exc)
        return position, self._record(found, event) if found else (), refused

    def _position(self, state: S, event: Event) -> Position:
        """The position of an event the rules refused (the state as before it): none if asking fails too."""
        try:
            return self.rules.position(state, event)
        except Exception:
            return NO_POSITION

    def _refusal(self, state: S, event: Event, exc: Exception) -> list[Problem]:
        """The problems of an event whose rules raised ``exc``: a refusal (``RuleViolation``) and what
        recovery then finds, or a bug in the game's rules (a problem here, never a traceback). Any
        other ``ReplayError`` (a replay at level ``raise`` stopping) goes on up."""
        if isinstance(exc, RuleViolation):
            return [exc.problem, *self._recover(state, event, exc.problem)]
        if isinstance(exc, ReplayError):
            raise exc
        return [_internal(event, exc)]

    def push_trusted(self, event: Event) -> Step:
        """Apply an event already known to be legal without checking it (``Rules.apply_trusted``):
        one a simulation made from choices it checked, or one an earlier replay accepted without a
        problem. The start event, and any event of a game that could not start, go through
        :meth:`push`. Observers see the step like any other (with no problems)."""
        state = self.state
        if self.index < 0 or state is None:
            return self.push(event)
        self.index += 1
        for observer in self._before:
            observer.before(state, event)
        position = self.rules.position(state, event)
        self.rules.apply_trusted(state, event)
        step = _step(self.index, event, position, (), state, False)
        self._tell(step)
        return step

    def push_applied(self, event: Event, position: Position = NO_POSITION) -> Step:
        """Record an event the caller has already applied to the state.

        A simulation resolves an action on the table as its bot makes each choice; the
        event it then writes records those choices. Observers see the step like any
        other (``before`` is not called: the state has already moved on).
        """
        self.index += 1
        step = _step(self.index, event, position, (), self.state, False)
        self._tell(step)
        return step

    def finish(self) -> S | None:
        """Tell the observers the replay is over; the final state."""
        for observer in self.observers:
            observer.finish(self.state)
        return self.state

    # ------------------------------------------------------------------ resuming

    @classmethod
    def resume(cls, game: Game[S, Any], pack: RulesPack, state: S, index: int, names: Sequence[str],
               **options: Any) -> Replay[S]:
        """A replay that continues after event ``index`` from ``state`` (restored from a snapshot)."""
        replay = cls(game, **options)
        replay.state, replay.pack, replay.index, replay.names = state, pack, index, list(names)
        return replay

    # ------------------------------------------------------------------ inside

    def _start(self, event: Event) -> Step:
        self.game_id = event.game_id
        start_type = self.game.start_type.event_type
        found: list[Problem] = []
        if event.type != start_type:
            found.append(Problem("replay.start", f"A {self.game.title} game begins with its {start_type} event.",
                                 start_type, event.type, Location(seq=event.seq)))
        else:
            self.names = [s["name"] for s in sorted(event.payload["seats"], key=lambda s: s["seat"])]
            try:
                self.pack = self.library.find(event.payload["ruleset"])
                self.state = self.rules.start(event, self.pack)
            except PackError as missing:
                found.append(Problem("replay.pack", str(missing), where=Location(seq=event.seq)))
            except RuleViolation as refused:
                found.append(refused.problem)
            except ReplayError:
                raise
            except Exception as exc:
                found.append(_internal(event, exc))
        problems = self._record(found, event) if found else ()
        if self.state is None:
            self.unplayable = problems[0] if problems else None
            return _step(0, event, NO_POSITION, problems, None, False)
        step = _step(0, event, NO_POSITION, problems, self.state, False)
        self._tell(step)
        return step

    def _tell(self, step: Step) -> None:
        """Count the step's turn (:attr:`turns`), and hand it to the observers that want its type."""
        turn = step.position.turn
        if turn is not None and turn > self.turns:
            self.turns = turn
        kind = step.event.type
        for observer in self.observers:
            if _wants(observer, kind):
                observer.after(step)

    def _recover(self, state: S, event: Event, problem: Problem) -> Sequence[Problem]:
        if self.level == "raise":
            return ()
        try:
            return self.rules.recover(state, event, problem)
        except RuleViolation as refused:
            return [refused.problem]
        except Exception as exc:
            return [_internal(event, exc)]

    def _record(self, found: Sequence[Problem], event: Event) -> tuple[Problem, ...]:
        views = self.game.views
        located = tuple(
            replace(p, where=replace(p.where, source=p.where.source or self.source,
                                     line=p.where.line if p.where.line is not None else self.lines.get(event.seq),
                                     seq=p.where.seq if p.where.seq is not None else event.seq),
                    explanation=p.explanation or views.explain(p))
            for p in found
        )
        if self.level == "raise":
            raise RuleViolation(located[0])
        if self.level == "collect":
            self.problems.extend(located)
            return located
        return ()


class Recording(Generic[S]):
    """A game a simulation makes: each event numbered in turn, kept, and applied strictly as it is
    made, so a simulated game audits clean by construction (or the simulation stops at its bug)."""

    def __init__(self, game: Game[S, Any], game_id: str, pack: RulesPack) -> None:
        self.game_id = game_id
        self.events: list[Event] = []
        self.table: Replay[S] = Replay(game, game.library(extra=[pack]), level="raise")

    def emit(self, payload: EventPayload) -> Event:
        event = Event.create(self.table.game.kind, self.game_id, len(self.events), payload)
        self.events.append(event)
        self.table.push(event)
        return event

    @property
    def state(self) -> S:
        """The table after the events so far (a game that could not start raised already)."""
        assert self.table.state is not None
        return self.table.state


def _overrides(observer: Observer, method: str) -> bool:
    """Whether an observer's ``method`` may do something (its class overrides it, or it was set on the
    instance): :meth:`Replay.run` makes steps only for observers whose ``after`` may."""
    return getattr(type(observer), method) is not getattr(Observer, method) or method in getattr(observer, "__dict__", ())


def _wants(observer: Observer, kind: str) -> bool:
    """Whether an observer's ``after`` wants steps of events of type ``kind`` (``Observer.after_types``)."""
    types = observer.after_types
    return types is None or kind in types


_new = object.__new__
_slots: Mapping[str, Any] = vars(Step)  # the slots' member descriptors
_set_index, _set_event, _set_position = _slots["index"].__set__, _slots["event"].__set__, _slots["position"].__set__
_set_problems, _set_state, _set_refused = _slots["problems"].__set__, _slots["state"].__set__, _slots["refused"].__set__


def _step(index: int, event: Event, position: Position, problems: tuple[Problem, ...], state: Any, refused: bool) -> Step:
    """``Step(index, event, position, problems, state, refused)``, the same object, made without the
    frozen dataclass's ``__init__`` (which sets each field through ``object.__setattr__``: ~1.1 µs
    against ~0.45): each field is set through its slot's descriptor, as that ``__init__`` does."""
    step: Step = _new(Step)
    _set_index(step, index)
    _set_event(step, event)
    _set_position(step, position)
    _set_problems(step, problems)
    _set_state(step, state)
    _set_refused(step, refused)
    return step


def _pair(result: Any) -> tuple[Any, Any]:
    """``position, found = result`` for the compiled loop, given anything but a tuple of two: Python's
    unpacking, with its errors."""
    position, found = result
    return position, found


_MODULE, NOT_BUILT = load(__package__, "_cdriver", "the compiled driver loop")
BUILT: Callable[..., None] | None = None
"""The compiled ``Replay._run`` loop (``replay/_cdriver.c``), None where it is not built; ``NOT_BUILT`` says why."""
if _MODULE is not None:
    _MODULE.setup(Step, _overrides, _wants, _pair)
    BUILT = _MODULE.run
LOOP = None if PURE else BUILT
"""The loop in use now: None under REPLAY_PURE=1 (the Python loop) or where it is not built."""


@contextmanager
def use(compiled: bool) -> Iterator[bool]:
    """The compiled loop on (where built) or off for a while; yields whether it is on."""
    global LOOP
    saved = LOOP
    LOOP = BUILT if compiled else None
    try:
        yield LOOP is not None
    finally:
        LOOP = saved


def _internal(event: Event, exc: Exception) -> Problem:
    return Problem("replay.internal", "The game's rules failed on this event; this is a bug in replay.",
                   "a legal or an illegal event", f"{type(exc).__name__}: {exc}", Location(seq=event.seq))


def replay(game: Game[S, Any], events: Iterable[Event], library: PackLibrary | None = None, *,
           level: Level = "collect", observers: Sequence[Observer] = (), source: str | None = None,
           lines: Mapping[int, int] | None = None) -> Replay[S]:
    """Replay a whole game and tell the observers it is over."""
    r = Replay(game, library, level=level, observers=observers, source=source, lines=lines).run(events)
    r.finish()
    return r
