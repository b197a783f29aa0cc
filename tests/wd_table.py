"""A small table for 7 Wonders Dice rule tests: events built by hand, applied one by one."""

from __future__ import annotations

from typing import Any

import pytest

from replay.driver import Replay
from replay.errors import RuleViolation
from replay.events import Event
from replay.games.wonders_dice import GAME
from replay.games.wonders_dice.events import KIND
from replay.games.wonders_dice.rules_data import default_ruleset

RULES = default_ruleset()


def step(kind: str, die=None, building=None, lane=None, space=None, slot=None) -> dict[str, Any]:
    return {"kind": kind, "die": die, "building": building, "lane": lane, "space": space, "slot": slot}


def build(die: str, building: str, lane: str, space: str) -> dict[str, Any]:
    return step("build", die, building, lane, space)


def cross(building: str, lane: str, space: str) -> dict[str, Any]:
    return step("cross", None, building, lane, space)


def wonder(space: str) -> dict[str, Any]:
    return step("wonder", None, "wonder", "wonder", space)


PASS = step("pass")
SKIP = step("skip")


def bonus(slot: int) -> dict[str, Any]:
    return step("bonus", slot=slot)


class Table:
    """Seats named A, B, C, ... with the given cities; ``roll``, ``act``, ``swap``, ``end`` emit events."""

    def __init__(self, cities=("giza", "rhodes"), options: dict | None = None, game_id: str = "t", pack=None) -> None:
        self.game_id = game_id
        self.events: list[Event] = []
        self.pack = pack or RULES
        names = "ABCDEFG"
        self.start = self._emit("game_started", {
            "ruleset": self.pack.pin.model_dump(), "provenance": {"source": "typed", "detail": "test"},
            "seats": [{"seat": i, "name": names[i], "city": c} for i, c in enumerate(cities)],
            "options": {**self.pack.options.model_dump(mode="json"), **(options or {})}, "tags": {},
        })
        self.state = self.replay.state

    def _emit(self, type_: str, payload: dict[str, Any]) -> Event:
        """Apply an event through the replay driver, strictly: any problem raises RuleViolation."""
        event = Event(self.game_id, len(self.events), KIND, type_, 3 if type_ == "game_started" else 1, payload)
        if type_ == "game_started":
            self.replay = Replay(GAME, GAME.library(extra=[self.pack]), level="raise")
        self.replay.push(event)
        self.events.append(event)
        return event

    def player(self, seat: int):
        return self.state.players[seat]

    def roll(self, **faces: tuple[str, int]) -> Event:
        """Every Forum die; those not named show their first face in section 0."""
        dice = []
        for die_id, colour in self.state.forum.items():
            face, section = faces.get(die_id, (RULES.die[colour].faces[0].face, 0))
            dice.append({"id": die_id, "colour": colour, "face": face, "section": section})
        return self._emit("dice_rolled", {"turn": self.state.turn + 1, "dice": dice})

    def act(self, seat: int, *steps: dict[str, Any], claims: dict | None = None) -> Event:
        return self._emit("action_taken", {"turn": self.state.turn, "player": seat, "steps": list(steps), "claims": claims})

    def pass_all(self, *except_seats: int) -> None:
        for seat in range(self.state.next_seat, len(self.state.players)):
            if seat not in except_seats:
                self.act(seat, PASS)

    def swap(self, die: str, replaces: str) -> Event:
        return self._emit("special_die_swapped", {"turn": self.state.turn, "die": die, "replaces": replaces})

    def end(self) -> Event:
        return self._emit("turn_ended", {"turn": self.state.turn})

    def violation(self, fn, *args, **kwargs):
        with pytest.raises(RuleViolation) as caught:
            fn(*args, **kwargs)
        return caught.value.violation
