"""``replay step``: a walk through one game, forward and back, one command at a time.

The session answers each command with the lines to print; the CLI only reads
commands and prints. Problems are shown at the event they belong to, and ``!``
jumps to the next event with a problem, so a disputed game is walked like any other.
"""

from __future__ import annotations

from ..numbers import is_number
from .review import Review

HELP = """commands: n next event | p previous | N next turn | P previous turn | t N turn N | s N event N
          ! next problem | f NAME follow a player (f: everyone) | b whole table | h help | q quit"""
SHOWN_CHANGES = 40


class StepSession:
    def __init__(self, review: Review) -> None:
        self.review = review
        self.at = 0
        self.follow: str | None = None

    def opening(self) -> list[str]:
        r = self.review
        problems = r.problem_indexes()
        lines = [f"{r.log.source}: {len(r.events)} events. {HELP}"]
        if problems:
            lines.append(f"{sum(len(r.problems_at(i)) for i in problems)} problem(s) at events "
                         + ", ".join(map(str, problems[:20])) + (" ..." if len(problems) > 20 else "")
                         + " (! jumps to the next)")
        return lines + self.move(None)

    def handle(self, command: str) -> list[str]:
        """The lines answering one command (``q`` is the caller's to handle)."""
        r = self.review
        before = self.at
        word, _, arg = command.strip().partition(" ")
        arg = arg.strip()
        if word == "n":
            self.at = min(r.last, self.at + 1)
        elif word == "p":
            self.at = max(0, self.at - 1)
        elif word in ("N", "P"):
            turn = r.turn_of(self.at) or 0
            target = r.turn_start(turn + (1 if word == "N" else -1))
            if target is None:
                return [f"no {'next' if word == 'N' else 'previous'} turn"]
            self.at = target
        elif word == "t":
            found = r.turn_start(int(arg)) if is_number(arg) else None
            if found is None:
                return [f"no turn {arg}" if arg else "t needs a turn number: t 3"]
            self.at = found
        elif word == "s":
            if not is_number(arg):
                return ["s needs an event number: s 12"]
            self.at = max(0, min(r.last, int(arg)))
        elif word == "!":
            later = [i for i in r.problem_indexes() if i > self.at]
            if not later:
                return ["no problem after this event"]
            self.at = later[0]
        elif word == "f":
            if arg and arg.lower() not in (n.lower() for n in r.names):
                return [f"no player {arg!r}; players: {', '.join(r.names)}"]
            self.follow = arg or None
            return [f"following {self.follow or 'everyone'}"]
        elif word == "b":
            return [r.show(self.at, self.follow)]
        elif word in ("h", "help", "?"):
            return [HELP]
        elif word:
            return [f"unknown command {command.strip()!r}. {HELP}"]
        return self.move(before)

    def move(self, before: int | None) -> list[str]:
        r = self.review
        lines = [f"[event {self.at}/{r.last}] {r.headline(self.at)}"]
        lines += [f"  problem: {p}" for p in r.problems_at(self.at)]
        if before is None or before == self.at:
            return lines
        delta = r.changes(before, self.at)
        if self.follow:
            seat = r.seat_of(self.follow)
            delta = [d for d in delta if f"[{seat}]" in d.partition(":")[0]]  # paths into that seat's part
        span = f"event {before} -> {self.at}"
        lines.append(f"  changed ({span}):" if delta else f"  nothing changed for {self.follow or 'the table'} ({span})")
        lines += [f"    {d}" for d in delta[:SHOWN_CHANGES]]
        if len(delta) > SHOWN_CHANGES:
            lines.append(f"    ... and {len(delta) - SHOWN_CHANGES} more")
        return lines
