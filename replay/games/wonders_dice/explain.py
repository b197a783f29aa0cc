"""Plain-words accounts of events: what each one did to the table (step-through, golden files)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from replay.events import Event
from replay.narration import narrate as replay_narrate
from replay.packs import PackLibrary

from .engine import StepKey


def headline(event: Event, names: list[str]) -> str:
    p = event.payload
    if event.type == "game_started":
        seats = ", ".join(f"{s['name']} ({s['city']})" for s in p["seats"])
        return f"game started: {seats}; ruleset {p['ruleset']['id']} {p['ruleset']['version']}"
    if event.type == "dice_rolled":
        dice = " ".join(f"{d['id']}={d['face']}@{d['section']}" for d in p["dice"])
        return f"turn {p['turn']} roll: {dice}"
    if event.type == "action_taken":
        steps = "; ".join(str(StepKey.of(s)) for s in p["steps"])
        return f"turn {p['turn']} {names[p['player']]}: {steps}"
    if event.type == "special_die_swapped":
        return f"turn {p['turn']}: the {p['die']} die replaces {p['replaces']}"
    if event.type == "turn_ended":
        return f"turn {p['turn']} ends"
    if event.type == "game_ended":
        totals = ", ".join(f"{names[s['seat']]} {s['total']}" for s in p["scores"])
        return f"game ended: {totals}; winners {[names[w] for w in p['winners']]} ({p['tie_break']})"
    return event.type


def narrate(events: Iterable[Event], library: PackLibrary | None = None) -> Iterator[str]:
    """For every event: its headline, each change to the table, and the state hash after it."""
    from . import GAME

    return replay_narrate(GAME, events, library)
