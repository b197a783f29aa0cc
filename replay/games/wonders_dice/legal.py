"""Every legal action of a player, with every effect choice, by exploring the one resolver."""

from __future__ import annotations

from .engine import Chooser, Prompt, StepKey, resolve
from .state import GameState


class _Branch(Exception):
    def __init__(self, options: list[StepKey]) -> None:
        self.options = options


class _Script(Chooser):
    def __init__(self, prefix: list[StepKey]) -> None:
        self.prefix = prefix
        self.i = 0

    def choose(self, prompt: Prompt) -> StepKey:
        if self.i < len(self.prefix):
            self.i += 1
            return self.prefix[self.i - 1]
        raise _Branch(prompt.options())


def legal_actions(state: GameState, seat: int) -> list[list[StepKey]]:
    """All complete step lists ``seat`` may play now (the state must be in its action phase)."""
    if state.phase != "actions":
        return []
    found: list[list[StepKey]] = []
    stack: list[list[StepKey]] = [[]]
    while stack:
        prefix = stack.pop()
        trial = state.copy()
        try:
            resolve(trial, seat, _Script(prefix))
        except _Branch as branch:
            stack.extend(prefix + [o] for o in reversed(branch.options))
            continue
        found.append(prefix)
    return found
