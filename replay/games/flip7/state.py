"""The Flip 7 table: where every card is, each seat's standing, and what the rules expect next.

Plain lists and dicts only: the state is copied into snapshots at every sixteenth event and
replayed thousands of times in benchmarks, so it stays cheap to build, compare and dump.

Where the cards are (each of the pack's cards in exactly one place at every step):

* ``draw``: the draw pile, top card first;
* ``discard``: the discard pile, in the order cards reached it;
* ``line[s]``: seat ``s``'s numbers; ``area[s]``: everything else in front of it (modifiers,
  x2, a held Second Chance, a Freeze or a Flip Three it was given, the number it busted on);
* ``in_play``: a card drawn and not yet resolved (a Freeze before its target is chosen);
* set aside during a Flip Three: inside the pending work (``todo``), see :mod:`.flow`.

``todo`` is a stack of pending work (top last) and ``expect`` the event the rules wait for;
:mod:`.flow` moves from one to the other. Both are plain lists so snapshots are plain JSON.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .pack import Flip7Pack

ACTIVE, STAYED, BUSTED, FROZEN = "active", "stayed", "busted", "frozen"


def seat_name(names: Sequence[str], seat: Any) -> str:
    """A seat's name, or "seat N" for a number no seat has (a damaged or hostile log)."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"


@dataclass(frozen=True)
class Cards:
    """What the rules need to know of the pack's cards, computed once per pack."""

    kind: dict[str, str]
    value: dict[str, int]
    deck: Counter[str]
    size: int

    @classmethod
    def of(cls, pack: Flip7Pack) -> Cards:
        return cls(kind={c.card: c.kind for c in pack.deck}, value={c.card: c.value for c in pack.deck},
                   deck=Counter({c.card: c.count for c in pack.deck}), size=pack.size())

    def box(self) -> list[str]:
        """The deck as it comes out of the box: every card, in the pack's order."""
        return [code for code, count in self.deck.items() for _ in range(count)]


@dataclass
class State:
    """The table after some events. ``turn`` counts the Hit-or-Stay decisions offered so far."""

    pack: Flip7Pack = field(compare=False, repr=False)
    cards: Cards = field(compare=False, repr=False)
    names: list[str]
    first_dealer: int
    round: int = 0
    dealer: int = 0
    turn: int = 0
    phase: str = "between"
    """``deal``, ``turns``, ``between`` (rounds), ``over`` (after ``game_ended``)."""
    status: list[str] = field(default_factory=list)
    line: list[list[str]] = field(default_factory=list)
    area: list[list[str]] = field(default_factory=list)
    chance: list[bool] = field(default_factory=list)
    """Holds an unused Second Chance (the card itself lies in ``area``)."""
    seven: list[bool] = field(default_factory=list)
    score: list[int] = field(default_factory=list)
    """The last round's score of each seat."""
    total: list[int] = field(default_factory=list)
    categories: list[dict[str, int]] = field(default_factory=list)
    """Points over the game by category: numbers, x2, modifiers, bonus."""
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    in_play: list[str] = field(default_factory=list)
    todo: list[list[Any]] = field(default_factory=list)
    expect: list[Any] = field(default_factory=lambda: ["round_started"])
    last_targeter: int | None = None
    winners: list[int] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.names)

    def active(self, seat: int) -> bool:
        return 0 <= seat < len(self.status) and self.status[seat] == ACTIVE

    def aside(self) -> list[str]:
        """The cards set aside during Flip Threes in progress, in the order they were set aside."""
        out: list[str] = []
        for task in self.todo:
            if task[0] in ("flip3", "aside"):
                out.extend(task[-1])
        return out

    def places(self) -> Counter[str]:
        """Every card wherever it is (the audit's conservation check counts these)."""
        found: Counter[str] = Counter(self.draw)
        found.update(self.discard)
        found.update(self.in_play)
        found.update(self.aside())
        for cards in self.line + self.area:
            found.update(cards)
        return found

    def round_score(self, seat: int) -> dict[str, int]:
        """Seat's score for the round as it stands, by category (all zero when busted)."""
        if self.status[seat] == BUSTED:
            return {"numbers": 0, "x2": 0, "modifiers": 0, "bonus": 0}
        value, kind = self.cards.value, self.cards.kind
        numbers = sum(value.get(c, 0) for c in self.line[seat])
        factor = 1
        modifiers = 0
        for c in self.area[seat]:
            k = kind.get(c)
            if k == "multiplier":
                factor *= value[c]
            elif k == "modifier":
                modifiers += value[c]
        bonus = self.pack.scoring.flip_seven_bonus if self.seven[seat] else 0
        return {"numbers": numbers, "x2": numbers * factor - numbers, "modifiers": modifiers, "bonus": bonus}

    def data(self) -> dict[str, Any]:
        """The whole table as plain data (snapshots and views)."""
        return {
            "names": list(self.names), "first_dealer": self.first_dealer, "round": self.round, "dealer": self.dealer,
            "turn": self.turn, "phase": self.phase, "status": list(self.status),
            "line": [list(x) for x in self.line], "area": [list(x) for x in self.area], "chance": list(self.chance),
            "seven": list(self.seven), "score": list(self.score), "total": list(self.total),
            "categories": [dict(c) for c in self.categories], "draw": list(self.draw), "discard": list(self.discard),
            "in_play": list(self.in_play), "todo": _copy(self.todo), "expect": _copy(self.expect),
            "last_targeter": self.last_targeter, "winners": list(self.winners),
        }

    @classmethod
    def of_data(cls, data: dict[str, Any], pack: Flip7Pack) -> State:
        return cls(pack=pack, cards=Cards.of(pack), **_copy(data))


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data (lists, dicts, scalars), faster than copy.deepcopy."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value
