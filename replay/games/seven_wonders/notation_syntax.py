"""The words and shapes of 7 Wonders' notation, shared by its reader and its writer (notation.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from replay.events import Event, EventPayload
from replay.numbers import DIGITS

from .events import CATEGORIES, EVENT_TYPES
from .pack import RESOURCES, SevenWondersPack

MODELS: dict[str, type[EventPayload]] = {m.event_type: m for m in EVENT_TYPES}
STRUCTURAL = ("game", "kind", "ruleset", "source", "sourcedetail", "seat")
"""Header tags the notation reads itself; every other tag is kept in ``game_started``'s ``tags``."""

SEAT = re.compile(r"^(" + DIGITS + r")\s+(.+?)\s+(\S+)\s+([AaBb])$")
AGE = re.compile(r"^age\s+(" + DIGITS + r")$", re.IGNORECASE)
TURN = re.compile(r"^turn\s+(" + DIGITS + r")$", re.IGNORECASE)
DEAL = re.compile(r"^deal\s+([^:]+?)\s*:\s*(.*)$", re.IGNORECASE)
CONFLICTS = re.compile(r"^conflicts\s+(?:age\s+)?(" + DIGITS + r")\s*(?::\s*(.*))?$", re.IGNORECASE)
OVER = re.compile(r"^game\s+over$", re.IGNORECASE)
SCORE = re.compile(r"^score\s+([^:]+?)\s*(?::\s*(.*))?$", re.IGNORECASE)
PLAY = re.compile(r"^([^:()\[\]{}!]+?)\s*:\s*(.*)$")
ACTION = re.compile(r"^(build|wonder|discard)\b\s*(.*)$", re.IGNORECASE)
FROM_DISCARD = re.compile(r"^from\s+discard\b\s*(.*)$", re.IGNORECASE)
CHOICE = re.compile(
    r"^(?P<card>[^(){}]*?)(?:\s+free\b\s*(?P<free>[^\s(){}]*))?\s*(?:\((?P<pay>[^()]*)\))?\s*(?:\{(?P<claims>[^{}]*)\})?$",
    re.IGNORECASE)
"""What follows the action: the card, ``free chain|power``, ``(<payment>)``, ``{<claims>}``."""
PURCHASE = re.compile(r"^(?:(?P<buy>buy)\s+)?(?P<what>.+?)\s+from\s+(?P<source>.+)$", re.IGNORECASE)
PAID = re.compile(r"^(?:paid\s+)?(" + DIGITS + r")\s+to\s+(.+)$", re.IGNORECASE)
TOKEN = re.compile(r"^[+-]?" + DIGITS + "$")
LONGEST = 4000
"""A longer line is refused as it is (no game needs one): hostile text never reaches the patterns."""

NOTHING = ("nothing", "none")
FREE = ("chain", "power")
KEYWORDS = ("age", "turn", "deal", "conflicts", "game", "score", "from", "!")
"""First words a seat's name may not have for its lines to be told from the others."""

RESOURCE_WORDS: dict[str, str] = {
    **{r: r for r in RESOURCES}, **{r + "s": r for r in RESOURCES if r != "glass"}, "glasses": "glass",
    "cloth": "textile", "cloths": "textile", "paper": "papyrus", "brick": "clay", "bricks": "clay",
}
"""Resource names as people write them (plurals, a few common other names) -> the pack's."""
CATEGORY_WORDS: dict[str, str] = {
    **{c: c for c in (*CATEGORIES, "total")}, "coins": "treasury", "money": "treasury", "wonders": "wonder",
    "guild": "guilds", "civil": "civilian", "trade": "commercial",
}
WRITTEN_CATEGORY = {"treasury": "coins"}
PAD = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "total")
"""The score pad's columns, in its order: a score line of numbers only gives them in this order."""


def normal(text: str) -> str:
    """A card, Wonder or source as typed (any case, its display name) -> its snake_case id:
    ``Lumber Yard`` -> ``lumber_yard``; ``stage 2`` -> ``stage2``."""
    word = re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")
    return re.sub(r"^stage_([0-9])$", r"stage\1", word)


def find_pack(pin: Sequence[str]) -> SevenWondersPack | None:
    """The shipped pack with this exact id, version and content hash (None: another pack, read
    without checking card names)."""
    from . import GAME

    return next((p for p in GAME.packs().values() if isinstance(p, SevenWondersPack)
                 and [p.id, p.version, p.content_hash] == list(pin)), None)


def sayable(name: str) -> bool:
    """Whether a seat's name can be written in the compact lines (else its events are raw lines)."""
    return (name == name.strip() and "  " not in name and not re.search(r"[:()\[\]{},;!#\"\\\x00-\x1f\x7f]", name)
            and name.split()[0].lower() not in KEYWORDS and name.lower() not in ("left", "right"))


class Context:
    """Where a card line is, as reader and writer both follow it: the Age, the turn, and the seats
    that played this turn (a seat's second line in a turn begins the next turn)."""

    def __init__(self) -> None:
        self.age = 0
        self.turn = 0
        self.played: set[int] = set()

    def next_turn(self, seat: int) -> int:
        """The turn a card line of ``seat`` read now is in."""
        return self.turn if self.turn and seat not in self.played else self.turn + 1

    def turn_line(self, turn: int) -> None:
        self.turn, self.played = turn, set()

    def begin(self, age: int) -> None:
        self.age, self.turn, self.played = age, 0, set()

    def apply(self, event: Event) -> None:
        p = event.payload
        if event.type == "age_dealt":
            self.begin(p["age"])
        elif event.type == "card_played":
            if p["turn"] != self.turn:
                self.turn_line(p["turn"])
            self.played.add(p["seat"])
