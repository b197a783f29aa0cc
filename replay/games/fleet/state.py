"""The Fleet table: where every card is, each seat's fleet, and what the rules wait for next.

Plain lists and dicts only, so snapshots are plain JSON and copies are cheap.

* ``licenses_deck`` (top first), ``row`` (the auction row), ``box`` (licenses out of the game);
* ``deck`` (boat deck, top first), ``discard`` (boat discard pile);
* per seat: ``hand`` (cards, ``gone_fishin`` included), ``licenses``, ``boats`` (each
  ``[boat, captain card or None, crates]``), ``processed`` crates;
* ``supply``: fish crates left; ``gone_supply``: Gone Fishin' cards left;
* ``todo``: a stack of pending work (top last), ``expect``: the event the rules wait for
  (:mod:`.flow` moves from one to the other).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .pack import FleetPack


def seat_name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"


@dataclass
class State:
    pack: FleetPack = field(compare=False, repr=False)
    names: list[str]
    first_player: int
    round: int = 0
    turn: int = 0
    phase: str = "setup"
    licenses_deck: list[str] = field(default_factory=list)
    row: list[str] = field(default_factory=list)
    box: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    hand: list[list[str]] = field(default_factory=list)
    licenses: list[list[str]] = field(default_factory=list)
    boats: list[list[list[Any]]] = field(default_factory=list)
    processed: list[int] = field(default_factory=list)
    supply: int = 0
    gone_supply: int = 0
    done: list[bool] = field(default_factory=list)
    """This round's auction: the seat bought a license or declined to open one."""
    auction: dict[str, Any] | None = None
    """The auction in progress: license, bid, leader, seats still in (turn order), next to act."""
    bought: int = 0
    """Licenses bought this round."""
    launched: list[int] = field(default_factory=list)
    hired: list[int] = field(default_factory=list)
    just_drawn: list[str] = field(default_factory=list)
    final: str | None = None
    """Why this round is the last: ``licenses`` or ``fish``."""
    end_reason: str | None = None
    winners: list[int] = field(default_factory=list)
    todo: list[list[Any]] = field(default_factory=list)
    expect: list[Any] = field(default_factory=lambda: ["licenses_removed"])

    @property
    def n(self) -> int:
        return len(self.names)

    def order(self) -> list[int]:
        """Seats in turn order from this round's first player."""
        return [(self.first_player + i) % self.n for i in range(self.n)]

    def owned(self, seat: int, bonus: str) -> int:
        """How many licenses with ``bonus`` the seat owns."""
        lic = self.pack.license
        return sum(1 for x in self.licenses[seat] if lic[x].bonus == bonus)

    def discount(self, seat: int) -> int:
        return self.owned(seat, "shrimp") * self.pack.bonuses.shrimp_discount

    def money(self, seat: int) -> int:
        """What the seat can pay: its hand's coins and (by the pack's option) its processed crates."""
        coins = sum(self.pack.coins(c) for c in self.hand[seat])
        return coins + (self.processed[seat] if self.pack.options.pay_with_fish else 0)

    def may_launch(self, seat: int, boat: str) -> bool:
        return any(self.pack.license[x].boat == boat for x in self.licenses[seat])

    def max_launches(self, seat: int) -> int:
        return self.pack.bonuses.cod_launches if self.owned(seat, "cod") else 1

    def max_hires(self, seat: int) -> int:
        return self.pack.bonuses.lobster_captains if self.owned(seat, "lobster") else 1

    def captains(self, seat: int) -> int:
        return sum(1 for b in self.boats[seat] if b[1] is not None)

    def open_boats(self, seat: int) -> list[int]:
        return [i for i, b in enumerate(self.boats[seat]) if b[1] is None]

    def tuna(self, seat: int) -> tuple[int, int]:
        """(draw, keep) in the draw phase."""
        owned = self.owned(seat, "tuna")
        rows = [r for r in self.pack.bonuses.tuna if r.licenses <= owned]
        row = max(rows, key=lambda r: r.licenses) if rows else self.pack.bonuses.tuna[0]
        return row.draw, row.keep

    def lobster_draw(self, seat: int) -> int:
        owned, captains = self.owned(seat, "lobster"), self.captains(seat)
        if not owned or not captains:
            return 0
        rows = [r for r in self.pack.bonuses.lobster_draws if r.licenses <= owned]
        if not rows:
            return 0
        top = max(r.licenses for r in rows)
        fitting = [r for r in rows if r.licenses == top and r.captains <= captains]
        return max((r.cards for r in fitting), default=0)

    def places(self) -> Counter[str]:
        """Every boat card wherever it is (hands, boats, captains, deck, discard), Gone Fishin' excluded."""
        found: Counter[str] = Counter(self.deck)
        found.update(self.discard)
        for seat in range(self.n):
            found.update(c for c in self.hand[seat] if c != "gone_fishin")
            for b in self.boats[seat]:
                found[b[0]] += 1
                if b[1] is not None:
                    found[b[1]] += 1
        return found

    def data(self) -> dict[str, Any]:
        return {
            "names": list(self.names), "first_player": self.first_player, "round": self.round, "turn": self.turn,
            "phase": self.phase, "licenses_deck": list(self.licenses_deck), "row": list(self.row), "box": list(self.box),
            "deck": list(self.deck), "discard": list(self.discard), "hand": [list(h) for h in self.hand],
            "licenses": [list(x) for x in self.licenses], "boats": [[list(b) for b in bs] for bs in self.boats],
            "processed": list(self.processed), "supply": self.supply, "gone_supply": self.gone_supply,
            "done": list(self.done), "auction": _copy(self.auction), "bought": self.bought,
            "launched": list(self.launched), "hired": list(self.hired), "just_drawn": list(self.just_drawn),
            "final": self.final, "end_reason": self.end_reason, "winners": list(self.winners),
            "todo": _copy(self.todo), "expect": _copy(self.expect),
        }

    @classmethod
    def of_data(cls, data: dict[str, Any], pack: FleetPack) -> State:
        return cls(pack=pack, **_copy(data))


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value
