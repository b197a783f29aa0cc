"""``Replay.run`` (one loop, a step only for observers that override ``after``) against ``push`` for
each event: the same steps, problems, index and state, for every installed game, clean and disputed."""

from __future__ import annotations

import dataclasses
import gc
import weakref
from typing import Any

import pytest
from helpers import disputed_log, simulated_log

from replay.contract import Observer, Step
from replay.driver import Replay
from replay.registry import registry


class Steps(Observer):
    def __init__(self) -> None:
        self.seen: list[tuple[Any, ...]] = []

    def before(self, state: Any, event: Any) -> None:
        self.seen.append(("before", event.seq))

    def after(self, step: Step) -> None:
        assert type(step) is Step
        self.seen.append(("after", step.index, step.event, step.position, step.problems, step.refused,
                          step.state is not None))


def _replayed(log: Any, feed: str, observers: list[Observer]) -> tuple[Replay[Any], Any]:
    r: Replay[Any] = Replay(log.game, observers=observers)
    if feed == "run":
        r.run(iter(log.events))
    else:
        for event in log.events:
            r.push(event)
    state = r.finish()
    return r, log.game.views.state_hash(state) if state is not None else None


@pytest.mark.parametrize("kind", sorted(registry.kinds()))
@pytest.mark.parametrize("disputed", [False, True])
def test_run_is_push_for_every_event(kind: str, disputed: bool) -> None:
    log = simulated_log(kind, 3, registry.get(kind).players[0])
    if disputed:
        log = disputed_log(log)
    results = {}
    for feed in ("run", "push"):
        for watched in (True, False):
            observer = Steps()
            r, state_hash = _replayed(log, feed, [observer] if watched else [])
            results[feed, watched] = (observer.seen, r.index, r.problems, r.names, r.game_id, state_hash)
    assert results["run", True] == results["push", True]
    assert results["run", False][1:] == results["push", False][1:] == results["push", True][1:]
    assert len(results["push", True][0]) == 2 * len(log.events) - 1
    if disputed:
        assert results["run", True][2]


def test_an_observer_added_during_a_run_sees_the_next_steps() -> None:
    log = simulated_log("pig", 3, 2)
    late = Steps()

    class Adds(Observer):
        def __init__(self, replay: Replay[Any]) -> None:
            self.replay = replay

        def after(self, step: Step) -> None:
            if step.index == 2:
                self.replay.observe(late)

    r: Replay[Any] = Replay(log.game)
    r.observe(Adds(r)).run(log.events)
    assert [s[1] for s in late.seen if s[0] == "after"] == list(range(3, len(log.events)))


def test_steps_from_run_are_frozen_and_equal_to_made_ones() -> None:
    log = simulated_log("pig", 3, 2)
    kept: list[Step] = []

    class Keeps(Observer):
        def after(self, step: Step) -> None:
            kept.append(step)

    Replay(log.game, observers=[Keeps()]).run(log.events)
    step = kept[1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.index = 7  # type: ignore[misc]
    assert step == Step(step.index, step.event, step.position, step.problems, step.state, step.refused)


def test_clearing_the_observers_parts_a_replay_from_them() -> None:
    """An observer that refers to its replay (as ``CoreRows`` does) makes a cycle; clearing
    ``observers`` after the run breaks it, so reference counting alone frees the replay."""
    log = simulated_log("pig", 3, 2)

    class Keeps(Observer):
        def __init__(self, replay: Replay[Any]) -> None:
            self.replay = replay

        def after(self, step: Step) -> None:
            pass

    r: Replay[Any] = Replay(log.game)
    r.observe(Keeps(r)).run(log.events)
    r.finish()
    r.observers.clear()
    freed = weakref.ref(r)
    was = gc.isenabled()
    gc.disable()
    try:
        del r
        assert freed() is None
    finally:
        if was:
            gc.enable()


class Typed(Steps):
    """``Steps``, for the event types it names only."""

    def __init__(self, types: frozenset[str]) -> None:
        super().__init__()
        self.after_types = types


@pytest.mark.parametrize("kind", sorted(registry.kinds()))
@pytest.mark.parametrize("feed", ["run", "push"])
def test_an_observer_sees_the_steps_of_the_types_it_names(kind: str, feed: str) -> None:
    """``after_types``: the steps of those types and no other, the same as an observer of every step
    sees of them (by run and by push); ``frozenset()``: no step at all. The replay's count of turns is
    the highest turn of the steps, whoever wants them."""
    log = disputed_log(simulated_log(kind, 3, registry.get(kind).players[0]))
    types = sorted({e.type for e in log.events})
    some = frozenset(types[::2])
    every, typed, none = Steps(), Typed(some), Typed(frozenset())
    r, _ = _replayed(log, feed, [every, typed, none])
    afters = [s for s in every.seen if s[0] == "after"]
    assert [s for s in typed.seen if s[0] == "after"] == [s for s in afters if s[2].type in some]
    assert 0 < len([s for s in typed.seen if s[0] == "after"]) < len(afters)
    assert none.seen.count(("before", log.events[1].seq)) == 1 and all(s[0] == "before" for s in none.seen)
    assert r.turns == max((s[3].turn for s in afters if s[3].turn is not None), default=0)
    alone, _ = _replayed(log, feed, [])  # with nobody to tell, the same count
    assert alone.turns == r.turns and alone.index == r.index
