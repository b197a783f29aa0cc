"""Narration: every event of a game in words, what it changed, and the state hash after it.

The golden replay files of the fixtures are narrations: a change in any rule
shows up there as a changed line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .contract import Game, Observer, Step
from .diff import changes
from .driver import Replay
from .events import Event
from .packs import PackLibrary


class Narration(Observer):
    """Collects the narration of a replay, line by line."""

    def __init__(self, replay: Replay[Any]) -> None:
        self.replay = replay
        self.views = replay.game.views
        self.lines: list[str] = []
        self._before: dict[str, Any] | None = None

    def after(self, step: Step) -> None:
        self.lines.append(f"{step.event.seq:>4} {self.views.headline(step.event, self.replay.names)}")
        for problem in step.problems:
            self.lines.append(f"       problem: {problem}")
        if step.state is None:
            return
        data = self.views.data(step.state)
        if self._before is not None:
            self.lines.extend(f"       {line}" for line in changes(self._before, data))
        self.lines.append(f"       hash {self.views.state_hash(step.state)[:16]}")
        self._before = data


def narrate(game: Game[Any, Any], events: Iterable[Event], library: PackLibrary | None = None) -> Iterator[str]:
    """The narration of a game, a line at a time (lenient: problems are narrated where they occur)."""
    replay: Replay[Any] = Replay(game, library)
    narration = Narration(replay)
    replay.observe(narration)
    for event in events:
        replay.push(event)
        yield from narration.lines
        narration.lines.clear()
