"""The compiled driver loop (``replay._cdriver``, ``Replay._run`` in C) against the Python loop, its
reference: the same steps, problems, index, turns and state for every installed game, clean, disputed
and damaged; and, for rules and observers that misbehave, the same problems or the same exception
(by class, words and chaining), with the replay left where the Python loop leaves it.

Where the extension is not built these tests are skipped, saying so; with ``REPLAY_REQUIRE_COMPILED=1``
(CI, ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from helpers import disputed_log, require_compiled, simulated_log

from replay import driver
from replay.contract import Observer, Position, Step
from replay.driver import Replay
from replay.errors import ReplayError, RuleViolation
from replay.events import Event
from replay.problems import Problem
from replay.registry import registry

require_compiled(driver.BUILT, driver.NOT_BUILT)


class Steps(Observer):
    """Every call, with what the step holds (the state by its hash, taken when seen)."""

    def __init__(self, game: Any, types: frozenset[str] | None = None) -> None:
        self.game, self.seen, self.after_types = game, [], types

    def before(self, state: Any, event: Event) -> None:
        self.seen.append(("before", event.seq, self.game.views.state_hash(state)))

    def after(self, step: Step) -> None:
        assert type(step) is Step
        self.seen.append(("after", step.index, step.event, step.position, step.problems, step.refused,
                          self.game.views.state_hash(step.state)))


def _outcome(run: Callable[[], Replay[Any]]) -> Any:
    """What a replay gives, or the exception it raises (class, words, and its context's)."""
    try:
        r = run()
    except BaseException as exc:  # the same failure either way is what is compared
        context = exc.__context__
        return ("raised", type(exc).__name__, str(exc), type(context).__name__ if context else None)
    state = r.state
    return (r.index, r.turns, r.problems, r.game.views.state_hash(state) if state is not None else None,
            [getattr(o, "seen", None) for o in r.observers])


def _both(run: Callable[[], Replay[Any]]) -> Any:
    with driver.use(True) as on:
        assert on
        compiled = _outcome(run)
    with driver.use(False) as on:
        assert not on
        python = _outcome(run)
    assert compiled == python
    return compiled


def _damaged(events: list[Event], rng: random.Random) -> list[Event]:
    """A few events dropped, repeated, swapped or given another event's payload."""
    out = list(events)
    for _ in range(rng.randint(1, 4)):
        i, j = rng.randrange(1, len(out)), rng.randrange(1, len(out))
        how = rng.randrange(4)
        if how == 0:
            del out[i]
        elif how == 1:
            out.insert(i, out[j])
        elif how == 2:
            out[i], out[j] = out[j], out[i]
        else:
            out[i] = out[i]._replace(payload=out[j].payload)
    return out


@pytest.mark.parametrize("kind", sorted(registry.kinds()))
def test_the_compiled_loop_is_the_python_loop(kind: str) -> None:
    game = registry.get(kind)
    rng = random.Random(kind)
    for seed in range(3):
        log = simulated_log(kind, seed, game.players[seed % len(game.players)])
        logs = [log.events, disputed_log(log).events, _damaged(log.events, rng), _damaged(log.events, rng)]
        for events in logs:
            for types in (None, frozenset({events[-1].type}), frozenset()):
                seen: dict[bool, Any] = {}
                for on in (True, False):
                    observers = [Steps(game, types), Steps(game)]
                    with driver.use(on):
                        outcome = _outcome(partial(Replay(game, observers=observers).run, iter(events)))
                    seen[on] = (outcome, [o.seen for o in observers])
                assert seen[True] == seen[False]


class Odd:
    """A game's rules whose ``apply_at`` gives ``odd(state, event, applied)`` from the third event on."""

    def __init__(self, rules: Any, odd: Callable[[Any, Event, Any], Any]) -> None:
        self.rules, self.odd = rules, odd

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)

    def apply_at(self, state: Any, event: Event) -> Any:
        applied = self.rules.apply_at(state, event)
        return self.odd(state, event, applied) if event.seq >= 3 else applied


def _raise(exc: BaseException) -> Callable[..., Any]:
    def odd(state: Any, event: Event, applied: Any) -> Any:
        raise exc
    return odd


ODD: dict[str, Callable[[Any, Event, Any], Any]] = {
    "a list of two": lambda s, e, a: list(a),
    "a generator of two": lambda s, e, a: (x for x in a),
    "three values": lambda s, e, a: (*a, None),
    "one value": lambda s, e, a: (a[0],),
    "not iterable": lambda s, e, a: 7,
    "found not problems": lambda s, e, a: (a[0], "odd"),
    "problems found": lambda s, e, a: (a[0], [Problem("odd.problem", f"odd at {e.seq}")]),
    "a position without a turn": lambda s, e, a: (object(), a[1]),
    "a turn of another type": lambda s, e, a: (Position(turn="x"), a[1]),  # type: ignore[arg-type]
    "a refusal": _raise(RuleViolation(Problem("odd.refused", "refused"))),
    "a bug": _raise(KeyError("bug")),
    "a replay error": _raise(ReplayError("stop")),
    "a base exception": _raise(KeyboardInterrupt()),
}


UNPACKED_ALIKE = {"a list of two", "a generator of two"}


@pytest.mark.parametrize("name", sorted(ODD))
@pytest.mark.parametrize("level", ["collect", "raise", "ignore"])
def test_odd_rules_give_the_same_problems_or_error(name: str, level: Any) -> None:
    kind = "7wonders-dice"
    game = registry.get(kind)
    events = simulated_log(kind, 1, 3).events

    def run() -> Replay[Any]:
        r: Replay[Any] = Replay(game, level=level, observers=[Steps(game)])
        r.rules = Odd(game.rules, ODD[name])
        return r.run(iter(events))

    outcome = _both(run)
    plain = _outcome(lambda: Replay(game, level=level, observers=[Steps(game)]).run(iter(events)))
    if name in UNPACKED_ALIKE or (level, name) == ("ignore", "problems found"):  # the pair, or problems dropped
        assert outcome == plain
    else:  # the others change what the replay gives, so the comparison above compared something
        assert outcome != plain


class Failing(Observer):
    """An observer whose ``before`` or ``after`` raises at one event."""

    def __init__(self, where: str, at: int, exc: BaseException) -> None:
        self.where, self.at, self.exc = where, at, exc

    def before(self, state: Any, event: Event) -> None:
        if self.where == "before" and event.seq == self.at:
            raise self.exc

    def after(self, step: Step) -> None:
        if self.where == "after" and step.index == self.at:
            raise self.exc


@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("exc", [ValueError("observer"), KeyboardInterrupt()])
def test_an_observer_that_raises_stops_both_loops_alike(where: str, exc: BaseException) -> None:
    kind = "7wonders-dice"
    game = registry.get(kind)
    events = simulated_log(kind, 2, 4).events
    replays: dict[bool, Replay[Any]] = {}

    def run(on: bool) -> Callable[[], Replay[Any]]:
        def go() -> Replay[Any]:
            replays[on] = Replay(game, observers=[Failing(where, 40, exc)])
            return replays[on].run(iter(events))
        return go

    with driver.use(True):
        compiled = _outcome(run(True))
    with driver.use(False):
        python = _outcome(run(False))
    assert compiled == python and compiled[0] == "raised"
    assert replays[True].index == replays[False].index == 40
    assert replays[True].turns == replays[False].turns > 0


def test_observers_added_and_replaced_during_a_run() -> None:
    """An observer added from another's ``after`` sees the next steps; ``_before`` replaced meanwhile is
    read again at the next event; both loops alike."""
    kind = "7wonders-dice"
    game = registry.get(kind)
    events = simulated_log(kind, 3, 2).events

    class Adder(Observer):
        def __init__(self, r: Replay[Any], late: Steps) -> None:
            self.r, self.late = r, late

        def after(self, step: Step) -> None:
            if step.index == 20:
                self.r.observe(self.late)

    seen = {}
    for on in (True, False):
        late = Steps(game)
        r: Replay[Any] = Replay(game)
        r.observe(Adder(r, late))
        with driver.use(on):
            r.run(iter(events))
        seen[on] = late.seen
        assert late.seen[0] == ("before", 21, late.seen[0][2])
    assert seen[True] == seen[False]
