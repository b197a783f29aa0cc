"""A notation for 7 Wonders that people can type at the table from the cards played and the score
pad (docs/notation.md has the grammar).

::

    [Game "club-2026-11-20-t2"]
    [Kind "7wonders"]
    [Ruleset "7w-base 1.0.0 sha256:98fb7b98..."]
    [Seat "0 Ana babylon B"]
    [Seat "1 Ben halicarnassus A"]
    [Seat "2 Chloe olympia A"]

    age 1
    deal Ana: clay_pool, guard_tower, ore_vein, baths, loom, press, scriptorium
    deal Ben: ...
    deal Chloe: ...
    turn 1
    Ana: build baths (buy stone from left)  {paid 2 to left}
    Ben: wonder tavern (buy 2 wood from left; clay from caravansery)
    Chloe: discard altar
    turn 2
    ...
    Ben: from discard lumber_yard            # Halicarnassus builds from the discard pile
    conflicts age 1: Ana -1, Ben +1 +1, Chloe -1
    ...
    game over
    score Ana: military 15, coins 2, wonder 3, civilian 16, commercial 0, guilds 2, science 1, total 39

A deal is a chance outcome, one line per seat; then each turn one line per seat: what it did with
which card, how it paid (what it bought from which neighbour, which resource each of its own
choice cards gave), and, in braces, the coins it says it paid. The conflicts' tokens and the score
pad are claims. Every claim is optional; the audit checks those written. The reader checks form
only: whether the rules agree is the audit's business.

What the reader cannot know it does not invent: a deal line missing is a problem (the hands dealt
are events), and ``free`` says by what (``free chain`` or ``free power``).
"""

from __future__ import annotations

from collections.abc import Iterable

from replay.contract import Notation
from replay.events import Event
from replay.notation import Parsed
from replay.problems import Level

from .notation_read import read
from .notation_write import write

__all__ = ["SevenWondersNotation", "read", "write"]


class SevenWondersNotation(Notation):
    """7 Wonders' notation (see the module's docstring and docs/notation.md)."""

    def read(self, text: str, level: Level = "collect", source: str = "") -> Parsed:
        return read(text, level, source)

    def write(self, events: Iterable[Event]) -> str:
        return write(events)
