"""A problem made and put in words the way the games with their own rule texts do it (7 Wonders, the
Duel, Flip 7, Fleet, St. Petersburg): located at its event, its turn and its seat's player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replay.events import Event
from replay.problems import Location, Problem


def rule_problem(rules: Mapping[str, str], rule_id: str, expected: str, found: str, event: Event,
                 names: list[str], seat: Any = None, turn: int | None = None) -> Problem:
    """The problem of rule ``rule_id`` (its text from ``rules``) at ``event``: ``seat`` names the
    player when it is one of ``names`` (a seat read from a bad payload may be anything)."""
    player = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else None
    return Problem(rule_id, rules[rule_id], expected, found, Location(seq=event.seq, turn=turn, player=player))


def event_words(event: Event, keys: tuple[str, ...]) -> str:
    """``type (key value, ...)``: an event as a problem quotes it, with those of ``keys`` it has."""
    details = [f"{k} {event.payload[k]}" for k in keys if k in event.payload]
    return event.type + (f" ({', '.join(details)})" if details else "")


def explain_rule(problem: Problem, rules: Mapping[str, str]) -> str:
    """"turn N, Ana: <the rule> Expected ...; found ..." (the rule's text from ``rules``, by rule id)."""
    who = problem.player or "the table"
    head = f"turn {problem.turn}, {who}: " if problem.turn else f"{who}: "
    return head + f"{rules.get(problem.rule_id, problem.message)} Expected {problem.expected}; found {problem.found}."
