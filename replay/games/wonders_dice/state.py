"""The table at one moment: per player and shared. Plain data, hashable to a stable digest."""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from typing import Any

from replay.canonical import canonical_json

from .rules_data import Building, Options, Ruleset, made_once

_PRODUCERS: dict[int, tuple[Any, tuple[tuple[str, tuple[str, ...]], ...]]] = {}


def producers_of(board: dict[str, Building]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(building, the spaces that produce a resource, sorted) of a board: rules data, made once per board (every
    game's start makes a player of each seat; the board is the pack's, shared)."""
    return made_once(_PRODUCERS, board, lambda b: tuple((x.id, tuple(sorted(x.resource_spaces)))
                                                         for x in b.values() if x.resource_spaces))


@dataclass(slots=True)
class PlayerState:
    seat: int
    name: str
    city: str
    coins: int
    board: dict[str, Building]
    crossed: dict[str, set[str]] = field(default_factory=dict)
    vp: dict[str, int] = field(default_factory=dict)
    bonuses: list[bool] = field(default_factory=list)
    unlocked: set[str] = field(default_factory=set)
    resources_spent: int = 0
    # Permanent effects in force, kept as they are crossed (derivable, but read on every payment).
    discount_all: int = 0
    discount: dict[str, int] = field(default_factory=dict)
    free_colours: set[str] = field(default_factory=set)
    income: dict[str, int] = field(default_factory=dict)
    end_effects: list[tuple[str, str, int]] = field(default_factory=list)  # (category, counted building | "leaders", vp each)
    this_turn: list[tuple[str, str]] = field(default_factory=list)  # (building, space) crossed this turn
    producers: tuple[tuple[str, tuple[str, ...]], ...] = field(default=(), compare=False, repr=False)
    """(building, the spaces that produce a resource, sorted) of this board: read on every payment (rules data).
    Tuples, not sets: the extensions count them with no iterator made (_resources.h)."""

    def __post_init__(self) -> None:
        if not self.producers:
            self.producers = producers_of(self.board)

    @property
    def resources(self) -> int:
        """Crossed spaces that produce a resource (the Warehouse's, and any other a board prints),
        less those spent (option ``resources``)."""
        made = 0
        for building, spaces in self.producers:
            crossed = self.crossed.get(building)
            if crossed:
                made += sum(1 for s in spaces if s in crossed)
        return made - self.resources_spent

    def shields(self, barracks: str) -> int:
        shields = self.board[barracks].shield_spaces
        return sum(1 for s in self.crossed.get(barracks, ()) if s in shields)

    def shields_before_turn(self, barracks: str) -> int:
        shields = self.board[barracks].shield_spaces
        return self.shields(barracks) - sum(1 for b, s in self.this_turn if b == barracks and s in shields)

    def count_before_turn(self, building: str) -> int:
        return self.count(building) - sum(1 for b, _ in self.this_turn if b == building)

    def count(self, building: str) -> int:
        return len(self.crossed.get(building, ()))

    def complete(self, building: str) -> bool:
        return len(self.crossed.get(building, ())) == len(self.board[building].spaces)

    def copy(self) -> PlayerState:
        """An independent copy (the board, immutable rules data, is shared)."""
        return PlayerState(
            self.seat, self.name, self.city, self.coins, self.board,
            {b: set(s) for b, s in self.crossed.items()}, dict(self.vp), list(self.bonuses), set(self.unlocked),
            self.resources_spent, self.discount_all, dict(self.discount), set(self.free_colours),
            dict(self.income), list(self.end_effects), list(self.this_turn), self.producers,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "name": self.name, "city": self.city, "coins": self.coins,
            "resources": self.resources,
            "crossed": {b: sorted(s) for b, s in sorted(self.crossed.items()) if s},
            "vp": dict(sorted((k, v) for k, v in self.vp.items() if v)),
            "bonuses": list(self.bonuses), "unlocked": sorted(self.unlocked),
            "effects": {
                "discount_all": self.discount_all, "discount": dict(sorted(self.discount.items())),
                "free": sorted(self.free_colours), "income": dict(sorted(self.income.items())),
                "end": sorted(list(e) for e in self.end_effects),
            },
        }


@dataclass(slots=True)
class GameState:
    rules: Ruleset
    options: Options
    players: list[PlayerState]
    forum: dict[str, str]                   # die id -> colour, in Forum order
    roll: dict[str, tuple[str, int]] = field(default_factory=dict)   # die id -> (face, section) this turn
    turn: int = 0
    phase: str = "roll"                     # roll | actions | swaps | over | ended
    next_seat: int = 0
    acted: set[int] = field(default_factory=set)  # seats that acted this turn (an audit may accept them out of order)
    pending_swaps: list[str] = field(default_factory=list)
    final_turn: int | None = None
    agora_first_done: bool = False
    agora_completers: list[int] = field(default_factory=list)
    seq: int = -1
    result: dict[str, Any] | None = None
    coin_offsets: dict[int, int] = field(default_factory=dict)
    """Audit memory: by how much each player's written coins were last found off (reported once)."""
    follow_ups: dict[int, list[list[Any]]] = field(default_factory=dict)
    """Two-phase resolution: each seat's questions waiting for the second phase (engine.FollowUp)."""
    pending: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Two-phase resolution: each seat's action as logged, waiting for its second phase:
    ``steps`` not yet answered, ``claims``, ``seq``, and ``paid``/``vp`` of the first phase."""

    def neighbours(self, seat: int) -> tuple[int, int]:
        """(left, right): seats are clockwise, so the next seat is on your left."""
        n = len(self.players)
        return (seat + 1) % n, (seat - 1) % n

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn, "phase": self.phase, "next_seat": self.next_seat,
            "forum": {d: (f"{self.roll[d][0]}@{self.roll[d][1]}" if d in self.roll else "not rolled")
                      for d in self.forum},
            "pending_swaps": list(self.pending_swaps), "final_turn": self.final_turn,
            "agora_first_done": self.agora_first_done, "players": [p.to_dict() for p in self.players],
            "result": self.result,
        } | ({"follow_ups": {str(s): q for s, q in sorted(self.follow_ups.items())}} if self.follow_ups else {})

    def state_hash(self) -> str:
        """Stable digest of the whole table: equal states, equal hashes, on any machine."""
        return hashlib.sha256(canonical_json(self.to_dict())).hexdigest()

    def copy(self) -> GameState:
        rules = self.rules
        boards = [p.board for p in self.players]
        clone = copy.deepcopy(self, memo={id(rules): rules, **{id(b): b for b in boards}})
        return clone
