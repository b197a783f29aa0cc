"""``replay step``: an interactive walk through one game."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from ..diff import changes

HELP = """commands: n next event | p previous | N next turn | P previous turn | t N turn N | s N event N
          f NAME follow a player (f: everyone) | b whole table | h help | q quit"""


class Stepper:
    def __init__(self, log: Any, rulesets: list[Any], echo: Callable[[str], None]) -> None:
        self.log, self.echo = log, echo
        plugin = log.plugin
        self.plugin = plugin
        # every state, kept as plain data and as objects for `b`; games are small
        self.events, self.states, self.dicts = [], [], []
        for event, state in plugin.states(log.events, rulesets):
            self.events.append(event)
            self.states.append(copy.deepcopy(state))
            self.dicts.append(plugin.state_dict(state))
        self.names = [s["name"] for s in self.events[0].payload["seats"]]
        self.at = 0
        self.follow: str | None = None

    def run(self, commands: Iterable[str]) -> None:
        self.echo(f"{self.log.source}: {len(self.events)} events. {HELP}")
        self.show_move(None)
        for raw in commands:
            command = raw.strip()
            if command in ("q", "quit", "exit"):
                break
            self.handle(command)
        self.echo("bye")

    def handle(self, command: str) -> None:
        before = self.at
        word, _, arg = command.partition(" ")
        last = len(self.events) - 1
        if word == "n":
            self.at = min(last, self.at + 1)
        elif word == "p":
            self.at = max(0, self.at - 1)
        elif word in ("N", "P"):
            self.at = self._turn_start(self._turn() + (1 if word == "N" else -1)) or self.at
        elif word == "t" and arg.isdigit():
            found = self._turn_start(int(arg))
            if found is None:
                self.echo(f"no turn {arg}")
                return
            self.at = found
        elif word == "s" and arg.isdigit():
            self.at = max(0, min(last, int(arg)))
        elif word == "f":
            if arg and arg.lower() not in (n.lower() for n in self.names):
                self.echo(f"no player {arg!r}; players: {', '.join(self.names)}")
                return
            self.follow = arg or None
            self.echo(f"following {self.follow or 'everyone'}")
            return
        elif word == "b":
            self.echo(self.plugin.show(self.states[self.at], self.follow))
            return
        elif word in ("h", "help", "?"):
            self.echo(HELP)
            return
        elif word:
            self.echo(f"unknown command {command!r}. {HELP}")
            return
        self.show_move(before)

    def _turn(self) -> int:
        return self.dicts[self.at].get("turn", 0)

    def _turn_start(self, turn: int) -> int | None:
        for i, e in enumerate(self.events):
            if e.type == "dice_rolled" and e.payload.get("turn") == turn:
                return i
        return None

    def show_move(self, before: int | None) -> None:
        e = self.events[self.at]
        self.echo(f"[event {self.at}/{len(self.events) - 1}] {self.plugin.headline(e, self.names)}")
        if before is None or before == self.at:
            return
        delta = changes(self.dicts[before], self.dicts[self.at])
        if self.follow:
            seat = [n.lower() for n in self.names].index(self.follow.lower())
            delta = [d for d in delta if d.startswith(f"players[{seat}]")]
        span = f"event {before} -> {self.at}"
        self.echo(f"  changed ({span}):" if delta else f"  nothing changed for {self.follow or 'the table'} ({span})")
        for line in delta[:40]:
            self.echo(f"    {line}")
        if len(delta) > 40:
            self.echo(f"    ... and {len(delta) - 40} more")
