"""The words and shapes of Flip 7's notation, shared by its reader and its writer (notation.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from replay.events import Event, EventPayload
from replay.numbers import DIGITS
from replay.packs import shipped_packs

from .events import EVENT_TYPES
from .pack import Flip7Pack

MODELS: dict[str, type[EventPayload]] = {m.event_type: m for m in EVENT_TYPES}

WRITTEN = {"flip_three": "flip3", "second_chance": "chance"}
"""Cards written otherwise than their code (shorter to type)."""
ALIASES = {"flip3": "flip_three", "flipthree": "flip_three", "f3": "flip_three",
           "chance": "second_chance", "sc": "second_chance", "secondchance": "second_chance"}
MARKERS = ("bust", "saved", "flip7", "frozen")
KEYWORDS = ("hit", "stay", "then", *MARKERS)

ROUND = re.compile(r"^round\s+(" + DIGITS + r")\s*,?\s*dealer\s+(.+)$", re.IGNORECASE)
SHUFFLE = re.compile(r"^(shuffle|reshuffle)\b\s*(.*)$", re.IGNORECASE)
END = re.compile(r"^end\s+round\s+(" + DIGITS + r")\s*(:\s*(.*))?$", re.IGNORECASE)
OVER = re.compile(r"^game\s+over\s*(:\s*(.*))?$", re.IGNORECASE)
TURN = re.compile(r"^([^:()\[\]{}!]+?)\s*:\s*(.*)$")
WORD = re.compile(r"(?:(?!->)[^\s(),])+")
UNSAYABLE = re.compile(r"[()\[\]{},=:#!\x00-\x1f\x7f]|->|\s\s")
"""Characters a seat's name may not hold for the compact forms to say it (the raw form still can)."""


def shipped() -> list[Flip7Pack]:
    """The packs shipped beside this module (the ones a header's pin may name)."""
    return list(shipped_packs(Flip7Pack, __package__ or "replay.games.flip7").values())


def find_pack(pin: Sequence[str]) -> Flip7Pack | None:
    """The shipped pack with this exact id, version and content hash."""
    return next((p for p in shipped() if [p.id, p.version, p.content_hash] == list(pin)), None)


def card_text(card: str) -> str:
    return WRITTEN.get(card, card)


class Seen:
    """What a compact token leaves unsaid, as reader and writer both follow it: the card each seat
    drew last (``bust``), the last Freeze's target (``frozen``), whether a hit awaits its card."""

    def __init__(self) -> None:
        self.last_drawn: dict[int, str] = {}
        self.last_freeze: int | None = None
        self.pending_hit = False

    def apply(self, event: Event) -> None:
        p = event.payload
        if event.type == "round_started":
            self.last_drawn.clear()
            self.last_freeze = None
            self.pending_hit = False
        elif event.type == "card_drawn":
            self.last_drawn[p["seat"]] = p["card"]
            if p["reason"] == "hit":
                self.pending_hit = False
        elif event.type == "target_chosen" and p["card"] == "freeze":
            self.last_freeze = p["target"]
        elif event.type in ("player_hit", "player_stayed"):
            self.pending_hit = event.type == "player_hit"
