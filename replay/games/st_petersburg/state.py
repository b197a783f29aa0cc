"""The St. Petersburg table: the rows, the decks' contents (never their order), each seat's cards,
hand, roubles and points, and what the rules expect next.

Plain lists and dicts only, so a snapshot is the data itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .pack import DECKS, Card, StPetePack

PHASES = DECKS
"""The four phases of a round, named by the deck that fills the board in each."""


def seat_name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"


@dataclass
class State:
    pack: StPetePack = field(compare=False, repr=False)
    names: list[str]
    markers: list[int]
    """The seat holding each phase's starting-player marker."""
    round: int = 1
    phase: int = 0
    turn: int = 0
    seat: int = 0
    """Whose turn it is (within a phase)."""
    passes: int = 0
    """Passes in a row in this phase."""
    top: list[str] = field(default_factory=list)
    bottom: list[str] = field(default_factory=list)
    decks: dict[str, dict[str, int]] = field(default_factory=dict)
    discard: list[str] = field(default_factory=list)
    tableau: list[list[str]] = field(default_factory=list)
    hand: list[list[str]] = field(default_factory=list)
    rubles: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    categories: list[dict[str, int]] = field(default_factory=list)
    observatory_used: list[int] = field(default_factory=list)
    """Observatories each seat has used this round (not scored, not used again, not displaced)."""
    pending: list[Any] = field(default_factory=list)
    """[seat, card] drawn by an Observatory and not yet bought, taken or discarded."""
    pubs_left: list[int] = field(default_factory=list)
    """Pub owners still to answer after the building scoring, in order."""
    last_round: bool = False
    expect: list[Any] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    rubles_left: list[int] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def phase_name(self) -> str:
        return PHASES[self.phase]

    def card(self, card_id: str) -> Card | None:
        return self.pack.by_id.get(card_id)

    def owns(self, seat: int, power: str) -> int:
        by_id = self.pack.by_id
        return sum(1 for c in self.tableau[seat] if by_id[c].power == power)

    def hand_limit(self, seat: int) -> int:
        return self.pack.board.hand_limit + (1 if self.owns(seat, "warehouse") else 0)

    def unused_observatories(self, seat: int) -> int:
        return self.owns(seat, "observatory") - self.observatory_used[seat]

    def deck_size(self, deck: str) -> int:
        return sum(self.decks.get(deck, {}).values())

    def data(self) -> dict[str, Any]:
        return {
            "names": list(self.names), "markers": list(self.markers), "round": self.round, "phase": self.phase,
            "turn": self.turn, "seat": self.seat, "passes": self.passes, "top": list(self.top),
            "bottom": list(self.bottom), "decks": {k: dict(v) for k, v in self.decks.items()},
            "discard": list(self.discard), "tableau": [list(x) for x in self.tableau], "hand": [list(x) for x in self.hand],
            "rubles": list(self.rubles), "points": list(self.points), "categories": [dict(c) for c in self.categories],
            "observatory_used": list(self.observatory_used), "pending": list(self.pending),
            "pubs_left": list(self.pubs_left), "last_round": self.last_round, "expect": list(self.expect),
            "winners": list(self.winners), "rubles_left": list(self.rubles_left),
        }

    @classmethod
    def of_data(cls, data: dict[str, Any], pack: StPetePack) -> State:
        d = dict(data)
        d["decks"] = {k: dict(v) for k, v in d["decks"].items()}
        for key in ("tableau", "hand"):
            d[key] = [list(x) for x in d[key]]
        d["categories"] = [dict(c) for c in d["categories"]]
        for key in ("names", "markers", "top", "bottom", "discard", "rubles", "points", "observatory_used", "pending",
                    "pubs_left", "expect", "winners", "rubles_left"):
            d[key] = list(d[key])
        return cls(pack=pack, **d)
