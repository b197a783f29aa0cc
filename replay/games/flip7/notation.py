"""A notation for Flip 7 that a person can type from a game they watched (docs/notation.md).

::

    [Game "club-2026-11-20-t1"]
    [Kind "flip7"]
    [Ruleset "flip7-standard 1.0.0 sha256:..."]
    [Seat "0 Ana"]
    [Seat "1 Ben"]
    [Seat "2 Cy"]
    [FirstDealer "Cy"]

    round 1 dealer Cy
    Ana: 7                               # the deal: a card without 'hit'
    Ben: chance                          # a Second Chance, kept
    Cy: flip3 -> Ana (5 12 +4)           # Ana draws the three cards
    Ana: hit 12 bust
    Ben: hit freeze -> Cy frozen
    Ben: hit 8
    Ben: hit 8 saved                     # the Second Chance cancels the duplicate
    Ben: stay
    end round 1: Ana 0 total 0, Ben 8 total 8, Cy 0 total 0

A name and a colon begin a line of one player's cards and choices; inside the parentheses after
a Flip Three the cards are its target's. Consequences are short markers (``bust``, ``saved``,
``flip7``, ``frozen``): the reader emits exactly the events the text says, and the audit says
whether the rules agree.

The draw pile: ``shuffle <cards>`` and ``reshuffle <cards>`` lines give a new pile's whole order
(the writer always writes them). Without one, the reader builds the order from the cards drawn
from that pile, followed by its other cards in the pack's order: that remainder is invented
(nobody saw it), and this is the one place where the notation invents data.
"""

from __future__ import annotations

from collections.abc import Iterable

from replay.contract import Notation
from replay.events import Event
from replay.notation import Parsed
from replay.problems import Level

from .notation_read import read
from .notation_write import write

__all__ = ["Flip7Notation", "read", "write"]


class Flip7Notation(Notation):
    """Flip 7's notation (see the module's docstring and docs/notation.md)."""

    def read(self, text: str, level: Level = "collect", source: str = "") -> Parsed:
        return read(text, level, source)

    def write(self, events: Iterable[Event]) -> str:
        return write(events)
