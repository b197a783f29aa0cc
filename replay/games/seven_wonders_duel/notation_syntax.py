"""The words and shapes of 7 Wonders Duel's notation, shared by its reader and its writer (notation.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import get_args

from replay.events import Event, EventPayload
from replay.numbers import DIGITS

from .events import CATEGORIES, EVENT_TYPES, Victory
from .pack import DuelPack

MODELS: dict[str, type[EventPayload]] = {m.event_type: m for m in EVENT_TYPES}
STRUCTURAL = ("game", "kind", "ruleset", "source", "sourcedetail", "seat", "first")
"""Header tags the notation reads itself; every other tag is kept in ``game_started``'s ``tags``."""
RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")

SEAT = re.compile(r"^([01])\s+(.+?)$")
TOKENS = re.compile(r"^tokens\s+(.*)$", re.IGNORECASE)
WONDERS = re.compile(r"^wonders\s+(" + DIGITS + r")\s*:\s*(.*)$", re.IGNORECASE)
AGE = re.compile(r"^age\s+(" + DIGITS + r")\s*:\s*(.*)$", re.IGNORECASE)
REVEAL = re.compile(r"^reveal\s+(\S+)\s+(.+)$", re.IGNORECASE)
OVER = re.compile(r"^game\s+over$", re.IGNORECASE)
VICTORY = re.compile(r"^victory\s+(\S+)$", re.IGNORECASE)
WINNERS = re.compile(r"^winners\s+(.+)$", re.IGNORECASE)
SCORE = re.compile(r"^score\s+([^:]+?)\s*(?::\s*(.*))?$", re.IGNORECASE)
PLAY = re.compile(r"^([^:()\[\]{}!@]+?)\s*:\s*(.*)$")
VERB = re.compile(r"^(pick|construct|build|discard|wonder|progress|draws|destroys|from\s+discard|starter|divinities|choose"
                  r"|activate|power|conspiracies|keep|recruit|prepare|trigger|senate|target|removed|swap|moves)\b\s*(.*)$",
                  re.IGNORECASE)
PANTHEON = re.compile(r"^pantheon\s+(" + DIGITS + r")\s*:\s*(.*)$", re.IGNORECASE)
ENKI = re.compile(r"^enki\s+(.*)$", re.IGNORECASE)
DECREES = re.compile(r"^decrees\s+(.*)$", re.IGNORECASE)
DECREE = re.compile(r"^decree\s+(\S+)\s+(.+)$", re.IGNORECASE)
DRAWN_FROM = re.compile(r"^(?P<what>.+?)\s+from\s+(?P<source>\S+)$", re.IGNORECASE)
"""``<divinity>, ... from <mythology|gate>``: the Divinities drawn and where from."""
SPACE = re.compile(r"^(?P<what>.+?)(?:\s+space\s+(?P<space>" + DIGITS + r"))?$", re.IGNORECASE)
ACTIVATE = re.compile(r"^(?P<what>[^{}]+?)(?:\s+offerings?\s+(?P<offerings>[^{}]*?))?\s*(?:\{(?P<claims>[^{}]*)\})?$",
                      re.IGNORECASE)
"""``<divinity> [offering N, N] [{paid N}]`` (and ``<senator> [@<slot>] [{paid N}]`` without offerings)."""
KEEP = re.compile(r"^(?P<what>[^()]+?)\s*(?:\(\s*other\s+on\s+(?P<place>top|bottom)\s*\))?$", re.IGNORECASE)
RECRUIT = re.compile(r"^(?P<card>[^{}@]+?)\s*(?:@\s*(?P<slot>[^\s{}]+))?\s*(?:\{(?P<claims>[^{}]*)\})?$", re.IGNORECASE)
SENATE = re.compile(r"^(?:(?P<one>place|remove)\s+(?P<chamber>.+)|move\s+(?P<origin>.+?)\s+to\s+(?P<to>.+)"
                    r"|(?P<bare>conspire|skip))$", re.IGNORECASE)
POWER_ITEM = re.compile(r"^(card|slot|wonder|token|space|discarded|applied)\s+(\S(?:.*\S)?)$", re.IGNORECASE)
EFFECTS = ("destroy", "steal", "steal_wonder", "return_wonder", "build_from_last_row", "lock_progress_token",
           "discard_available", "build_from_removed")
SWAP = re.compile(r"^(?P<take>.+?)\s+for\s+(?P<give>.+)$", re.IGNORECASE)
"""Coercion: ``swap <card taken> for <card given>`` (or ``swap nothing``)."""
MOVES = re.compile(r"^decree\s+(?P<decree>.+?)\s+from\s+(?P<origin>.+?)\s+to\s+(?P<to>.+)$", re.IGNORECASE)
"""Insider Influence: ``moves decree <decree|face down> from <chamber> to <chamber>``."""
FACE_DOWN = "face down"
WITH = re.compile(r"^(?P<wonder>.+?)\s+with\s+(?P<rest>.+)$", re.IGNORECASE)
TAIL = re.compile(
    r"^(?P<card>[^(){}@]*?)\s*(?:@\s*(?P<slot>[^\s(){}]+))?(?:\s+free\s+(?P<free>[^\s(){}]+))?"
    r"\s*(?:\((?P<pay>[^()]*)\))?\s*(?:\{(?P<claims>[^{}]*)\})?$", re.IGNORECASE)
"""What follows the card's action: the card, ``@<slot>``, ``free chain``, ``(<payment>)``, ``{<claims>}``."""
FROM_BOX = re.compile(r"^(.+?)\s+from\s+box$", re.IGNORECASE)
CHOICE = re.compile(r"^(?P<what>\S+)\s+from\s+(?P<source>.+)$", re.IGNORECASE)
COUNTED = re.compile(r"^(?:(?P<count>" + DIGITS + r")\s+)?(?P<what>\S+)$")
CLAIM = re.compile(r"^(paid|pawn|looted)\s+([+-]?" + DIGITS + r")$", re.IGNORECASE)
NUMBER = re.compile(r"^[+-]?" + DIGITS + "$")
LONGEST = 4000
"""A longer line is refused as it is (no game needs one): hostile text never reaches the patterns."""

NOTHING = ("nothing", "none")
VICTORIES: tuple[str, ...] = get_args(Victory)
"""The kinds of victory the events know (an expansion's is read once its events say it)."""
KEYWORDS = ("tokens", "wonders", "age", "reveal", "game", "victory", "winners", "score", "!", "pantheon", "enki", "decrees",
            "decree")
"""First words a seat's name may not have for its lines to be told from the others."""

RESOURCE_WORDS: dict[str, str] = {
    **{r: r for r in RESOURCES}, **{r + "s": r for r in RESOURCES if r not in ("glass", "papyrus")},
    "glasses": "glass", "paper": "papyrus", "brick": "clay", "bricks": "clay",
}
COIN_WORDS: dict[str, str] = {"coins": "coins", "coin": "coins"}
"""A ``discount`` may also name a card's coin cost an Agora Decree left out (``discount 3 coins``)."""
"""Resource names as people write them (plurals, a few common other names) -> the pack's."""
CATEGORY_WORDS: dict[str, str] = {
    **{c: c for c in (*CATEGORIES, "pantheon", "total")}, "coins": "treasury", "money": "treasury", "wonder": "wonders",
    "guild": "guilds", "blue": "civilian", "green": "science", "yellow": "commercial", "purple": "guilds",
    "tokens": "progress",
}
WRITTEN_CATEGORY = {"treasury": "coins"}


def normal(text: str) -> str:
    """A card, Wonder or token as typed (any case, its display name) -> its snake_case id:
    ``Lumber Yard`` -> ``lumber_yard``; ``Circus Maximus`` -> ``circus_maximus``."""
    return re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")


def find_pack(pin: Sequence[str]) -> DuelPack | None:
    """The shipped pack with this exact id, version and content hash (None: another pack, read
    without checking names)."""
    from . import GAME

    return next((p for p in GAME.packs().values() if isinstance(p, DuelPack)
                 and [p.id, p.version, p.content_hash] == list(pin)), None)


def card_ids(pack: DuelPack) -> list[str]:
    """The cards a line may name: the pack's, and with Agora each Senator's copies (``conspirator_4``)."""
    senators = [f"{s.id}_{k}" for s in pack.agora.senators for k in range(1, s.copies + 1)] if pack.agora else []
    return [*pack.by_id, *senators]


def expansion_ids(pack: DuelPack | None, what: str) -> list[str] | None:
    """The ids of an expansion's pieces (``divinity``, ``conspiracy``, ``decree``, ``chamber``) in
    the pack (none when it lacks the expansion); None when the pack is unknown (then any id is read)."""
    if pack is None:
        return None
    if what == "divinity":
        return [d.id for d in (*pack.pantheon.divinities, pack.pantheon.gate)] if pack.pantheon else []
    pieces = {"conspiracy": "conspiracies", "decree": "decrees", "chamber": "chambers"}[what]
    return [x.id for x in getattr(pack.agora, pieces)] if pack.agora else []


def aliases(pack: DuelPack | None, what: str) -> dict[str, str]:
    """Names people type for an expansion's pieces whose name is not their id: a Decree's
    (``Coins for blue cards`` -> ``blue_age_coins``) and a Senator's, without its copy
    (``Conspirator`` -> ``conspirator``)."""
    if pack is None or pack.agora is None:
        return {}
    if what == "decree":
        return {normal(d.name): d.id for d in pack.agora.decrees}
    if what == "senator":
        return {**{normal(s.name): s.id for s in pack.agora.senators}, **{s.id: s.id for s in pack.agora.senators}}
    return {}


def sayable(name: str) -> bool:
    """Whether a seat's name can be written in the compact lines (else its events are raw lines)."""
    return (name == name.strip() and "  " not in name and not re.search(r"[:()\[\]{},;!@#\"\\\x00-\x1f\x7f]", name)
            and name.split()[0].lower() not in KEYWORDS and name.lower() not in NOTHING)


class Context:
    """Where a line is, as reader and writer both follow it: the Age, and the slot of each card of
    the Age's structure seen so far (a card played is written without its slot when it is there)."""

    def __init__(self) -> None:
        self.age = 0
        self.where: dict[str, str] = {}
        self.gone: set[str] = set()
        """The cards of the Age's structure taken so far (a Senator typed without its copy is one still there)."""

    def apply(self, event: Event) -> None:
        p = event.payload
        if event.type == "age_dealt":
            self.age, self.where = p["age"], {card: slot for slot, card in p["cards"].items()}
            self.gone = set()
        elif event.type == "card_revealed" and p["age"] == self.age:
            self.where[p["card"]] = p["slot"]
        elif event.type in ("card_played", "senator_recruited", "conspiracy_prepared"):
            self.gone.add(p["card"])
