"""The table of a 7 Wonders game: each city, the hands, the discard pile, and what the rules wait for.

Plain lists and dicts (``data`` is the whole table; ``of_data`` makes it again), so a snapshot
is the data and a state hash is the data's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .pack import Card, Effect, SevenWondersPack, WonderSide

CHOOSE, DISCARD_BUILD, AGE_END, DEAL, SCORE, OVER = "choose", "discard_build", "age_end", "deal", "score", "over"


@dataclass
class State:
    pack: SevenWondersPack
    names: list[str]
    wonders: list[list[str]]
    """Each seat's [wonder id, side]."""
    age: int = 0
    turn: int = 0
    phase: str = DEAL
    coins: list[int] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    built: list[list[str]] = field(default_factory=list)
    """Each seat's structures (card ids), in the order built."""
    built_age: list[list[int]] = field(default_factory=list)
    """The Age of each structure in ``built`` (a card's data is looked up by Age and id)."""
    stages: list[int] = field(default_factory=list)
    tokens: list[list[int]] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    chosen: list[dict[str, Any] | None] = field(default_factory=list)
    """This turn's choices, by seat, until every seat has chosen (then the turn is resolved)."""
    power_used: list[int] = field(default_factory=list)
    """The last Age in which each seat used Olympia's free build (0: never)."""
    pending: list[int] = field(default_factory=list)
    """Seats that build from the discard pile before the game goes on (Halicarnassus)."""
    last_card: list[int] = field(default_factory=list)
    """Seats that play their seventh card of this Age (Babylon)."""
    winners: list[int] = field(default_factory=list)
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """What a city has in play and produces, kept per (what, seat, structures, stages): a city only
    ever grows, so the key changes whenever the answer could (not part of the table's data)."""

    def remembered(self, what: str, seat: int, make: Any) -> Any:
        """``make()``, made once while the seat's city stays as it is."""
        key = (what, seat, len(self.built[seat]), self.stages[seat])
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = make()
        return found

    @property
    def n(self) -> int:
        return len(self.names)

    def left(self, seat: int) -> int:
        return (seat + 1) % self.n

    def right(self, seat: int) -> int:
        return (seat - 1) % self.n

    def side(self, seat: int) -> WonderSide:
        wonder_id, side = self.wonders[seat]
        wonder = self.pack.wonder_by_id[wonder_id]
        return wonder.a if side == "a" else wonder.b

    def cards(self, seat: int) -> list[Card]:
        """The seat's structures' cards."""
        pack = self.pack
        return [c for age, cid in zip(self.built_age[seat], self.built[seat]) if (c := pack.card(age, cid)) is not None]

    def effects(self, seat: int) -> list[tuple[str, Effect]]:
        """(source, effect) of everything the seat has in play: its board's resource, its built
        stages (``stage1`` ...), its structures (by id)."""
        result: list[tuple[str, Effect]] = self.remembered("effects", seat, lambda: self._effects(seat))
        return result

    def _effects(self, seat: int) -> list[tuple[str, Effect]]:
        side = self.side(seat)
        out = [("board", side.produces)]
        for i, stage in enumerate(side.stages[: self.stages[seat]]):
            out += [(f"stage{i + 1}", e) for e in stage.effects]
        for card in self.cards(seat):
            out += [(card.id, e) for e in card.effects]
        return out

    def has_power(self, seat: int, power: str) -> bool:
        return any(e.type == power for _, e in self.effects(seat))

    def data(self) -> dict[str, Any]:
        return {
            "names": list(self.names), "wonders": [list(w) for w in self.wonders], "age": self.age, "turn": self.turn,
            "phase": self.phase, "coins": list(self.coins), "hands": [list(h) for h in self.hands],
            "built": [list(b) for b in self.built], "built_age": [list(b) for b in self.built_age],
            "stages": list(self.stages), "tokens": [list(t) for t in self.tokens], "discard": list(self.discard),
            "chosen": [dict(c) if c is not None else None for c in self.chosen], "power_used": list(self.power_used),
            "pending": list(self.pending), "last_card": list(self.last_card), "winners": list(self.winners),
        }

    @classmethod
    def of_data(cls, data: dict[str, Any], pack: SevenWondersPack) -> State:
        import copy

        return cls(pack=pack, **copy.deepcopy(data))

    @classmethod
    def new(cls, pack: SevenWondersPack, names: list[str], wonders: list[list[str]]) -> State:
        n = len(names)
        return cls(pack=pack, names=list(names), wonders=wonders, coins=[pack.numbers.start_coins] * n,
                   hands=[[] for _ in range(n)], built=[[] for _ in range(n)], built_age=[[] for _ in range(n)],
                   stages=[0] * n, tokens=[[] for _ in range(n)], chosen=[None] * n, power_used=[0] * n)
