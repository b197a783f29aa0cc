"""A notation for 7 Wonders Duel that people can type at the table from the structure and the
scorepad (docs/notation.md has the grammar).

::

    [Game "club-2026-11-30-d1"]
    [Kind "7wonders-duel"]
    [Ruleset "7wd-duel-base 1.0.0 sha256:ec56133e..."]
    [Seat "0 Ana"]
    [Seat "1 Ben"]
    [First "Ana"]

    tokens philosophy, law, architecture, theology, agriculture
    wonders 1: sphinx, circus_maximus, great_lighthouse, statue_of_zeus
    Ana: pick statue_of_zeus
    ...
    age 1: r1c4 press, r1c6 clay_reserve, r3c2 logging_camp, ...
    Ana: discard wood_reserve
    Ana: wonder piraeus with tavern (buy clay, stone, 2 wood) {paid 8}
    Ana: construct stone_pit {paid 1}
    reveal r4c1 stone_reserve
    Ben: construct garrison (clay from great_lighthouse) {pawn -1}
    Ana: wonder great_library with courthouse (papyrus from piraeus; buy glass, 3 wood)
    Ana: draws mathematics, economy, masonry
    Ana: progress mathematics from box
    Ben: destroys nothing
    Ben: from discard lumber_yard
    Ana: starter Ben
    ...
    game over
    victory civilian
    winners Ana
    score Ana: civilian 12, science 3, ..., coins 4, total 61

Each chance outcome is a line (the tokens on the board, each set of Wonders of the draft, each
Age's face-up cards by slot, each face-down card as it is turned up); each thing a seat does is a
line ``<name>: ...``. A card is taken from its slot, which the reader knows from the cards dealt
and turned up; ``@<slot>`` says it when it does not. Payment is in parentheses, the claims (coins
paid, the Conflict pawn after the play, coins looted) in braces; every claim is optional and the
audit checks those written. The reader checks form only: whether the rules agree is the audit's
business, and what it cannot know (a deal, a card turned up) it does not invent.
"""

from __future__ import annotations

from collections.abc import Iterable

from replay.contract import Notation
from replay.events import Event
from replay.notation import Parsed
from replay.problems import Level

from .notation_read import read
from .notation_write import write

__all__ = ["DuelNotation", "read", "write"]


class DuelNotation(Notation):
    """7 Wonders Duel's notation (see the module's docstring and docs/notation.md)."""

    def read(self, text: str, level: Level = "collect", source: str = "") -> Parsed:
        return read(text, level, source)

    def write(self, events: Iterable[Event]) -> str:
        return write(events)
