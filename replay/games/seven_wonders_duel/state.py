"""The table of a 7 Wonders Duel game: the two cities, the structure of the Age, the board, and
what the rules wait for.

Plain lists and dicts (``data`` is the whole table; ``of_data`` makes it again), so a snapshot
is the data and a state hash is the data's. A face-down card is ``None`` in ``slots`` until its
``card_revealed``: the table never holds what nobody has seen.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .pack import Card, DuelPack, Effect

_DECREES: dict[int, tuple[Any, dict[str, tuple[Effect, ...]]]] = {}
"""Agora: each pack's Decrees' effects by id (keyed by the pack part's id, the part kept to be sure)."""

def chamber_decrees(agora: dict[str, Any], chamber: str) -> list[str | None]:
    """Agora: the Decrees in ``chamber`` (None: one lying face down). A chamber holds its one Decree
    (``agora["decrees"][chamber]``, an id or None) until Insider Influence moves one: then the two
    chambers it touched hold a list (none, one or two), so a game without that move keeps its data."""
    held = agora["decrees"][chamber]
    return list(held) if isinstance(held, list) else [held]


TOKENS, DRAFT, DEAL, PLAY, PENDING, STARTER, SCORE, OVER = (
    "tokens", "draft", "deal", "play", "pending", "starter", "score", "over")


@dataclass
class State:
    pack: DuelPack
    names: list[str]
    first: int = 0
    """The seat that drafts first and starts Age I."""
    phase: str = TOKENS
    age: int = 0
    turn: int = 0
    """Turns played in the game so far (a replay turn counts as a turn)."""
    player: int = 0
    """Whose turn it is (in PLAY), or who starts the Age being dealt."""
    coins: list[int] = field(default_factory=list)
    board_tokens: list[str] = field(default_factory=list)
    """Progress tokens still on the board."""
    seen_tokens: list[str] = field(default_factory=list)
    """Every progress token turned up so far (the board's at the start, the Great Library's draws)."""
    tokens: list[list[str]] = field(default_factory=list)
    """Each seat's progress tokens, in the order taken."""
    pairs: list[list[str]] = field(default_factory=list)
    """The symbols each seat has had a pair of (a pair gives a token once)."""
    draft_set: int = 0
    offered: list[str] = field(default_factory=list)
    """The Wonders of the draft's current set not yet taken."""
    picks: int = 0
    """Picks made in the draft's current set."""
    wonders: list[list[str]] = field(default_factory=list)
    """Each seat's Wonders, in the order drafted."""
    built_wonders: list[list[str]] = field(default_factory=list)
    wonders_out: list[str] = field(default_factory=list)
    """Wonders out of the game: the eighth, once seven are built."""
    under: list[list[str]] = field(default_factory=list)
    """The cards put under each seat's built Wonders."""
    built: list[list[str]] = field(default_factory=list)
    """Each seat's buildings (card ids), in the order built."""
    slots: dict[str, str | None] = field(default_factory=dict)
    """The Age's structure: each slot's card (None: face down, not yet revealed)."""
    taken: list[str] = field(default_factory=list)
    """The Age's slots whose card has been taken, in order."""
    seen: list[str] = field(default_factory=list)
    """The cards of this Age turned up so far (dealt face up or revealed)."""
    discard: list[str] = field(default_factory=list)
    pawn: int = 0
    loot: list[list[str]] = field(default_factory=list)
    """The military tokens still on each seat's side of the track (the opponent loses when the pawn reaches one)."""
    queue: list[list[Any]] = field(default_factory=list)
    """What must happen before the next turn, in order: [what, seat, detail], what one of ``progress``,
    ``destroy``, ``discard_build``, ``draw``, ``library``, ``reveal``."""
    drawn: list[str] = field(default_factory=list)
    """Progress tokens drawn for the Great Library, until one is taken."""
    again: bool = False
    """The turn being resolved gives its player another (a Wonder's replay)."""
    last_taker: int = 0
    chooser: int = 0
    victory: str | None = None
    winners: list[int] = field(default_factory=list)
    # --- Pantheon (see pantheon.py): the expansion's part of the table, None without it
    pantheon: dict[str, Any] | None = None
    agora: dict[str, Any] | None = None
    """The Agora expansion's part of the table (:mod:`.agora` says what it holds); None in other games
    (and then left out of :meth:`data`, so a base game's data is what it was)."""

    @property
    def n(self) -> int:
        return 2

    def card(self, card_id: str) -> Card:
        return self.pack.by_id[card_id]

    def cards(self, seat: int) -> list[Card]:
        by_id = self.pack.by_id
        return [by_id[c] for c in self.built[seat]]

    def effects(self, seat: int) -> list[tuple[str, Effect]]:
        """(source, effect) of everything ``seat`` has in play: its buildings, built Wonders and progress tokens (by id)."""
        pack = self.pack
        out = [(c.id, e) for c in self.cards(seat) for e in c.effects]
        out += [(w, e) for w in self.built_wonders[seat] for e in pack.wonder_by_id[w].effects]
        tokens = {t.id: t for t in pack.all_progress_tokens}
        out += [(t, e) for t in self.tokens[seat] for e in tokens[t].effects]
        if self.pantheon is not None:  # Pantheon: activated Divinities' symbols, the Snake's
            from .pantheon import lasting_effects

            out += lasting_effects(self, seat)
        if self.agora is not None:  # Agora: the Decrees of the chambers the seat controls
            out += self.decree_effects(seat)
        return out

    def spendable(self, seat: int) -> int:
        """The coins ``seat`` may spend: its treasury (with Pantheon, and the coins on Astarte's card)."""
        return self.coins[seat] + (self.pantheon["reserve"][seat] if self.pantheon is not None else 0)

    def decree_effects(self, seat: int) -> list[tuple[str, Effect]]:
        """Agora: (chamber, effect) of the revealed Decrees of the chambers ``seat`` controls (more cubes
        than the opponent's)."""
        assert self.agora is not None and self.pack.agora is not None
        decrees = _DECREES.get(id(self.pack.agora))
        if decrees is None or decrees[0] is not self.pack.agora:
            decrees = _DECREES[id(self.pack.agora)] = (self.pack.agora, {d.id: d.effects for d in self.pack.agora.decrees})
        influence = self.agora["influence"]
        return [(ch, e) for ch in self.agora["decrees"] for d in chamber_decrees(self.agora, ch)
                if d is not None and influence[ch][seat] > influence[ch][1 - seat] for e in decrees[1][d]]

    def has(self, seat: int, effect_type: str) -> bool:
        return any(e.type == effect_type for _, e in self.effects(seat))

    def symbols(self, seat: int) -> list[str]:
        """The scientific symbols ``seat`` has, one per card or token."""
        return [e.symbol for _, e in self.effects(seat) if e.type == "science" and e.symbol is not None]

    def colour_count(self, seat: int, colour: str) -> int:
        return sum(1 for c in self.cards(seat) if c.colour == colour)

    def available(self) -> list[str]:
        """The slots whose card may be taken now."""
        return self.pack.layout(self.age).available(frozenset(self.taken)) if self.age else []

    def data(self) -> dict[str, Any]:
        data = {k: copy.deepcopy(v) for k, v in vars(self).items() if k != "pack"}
        if self.pantheon is None:  # Pantheon: only its games have the key, so a base game's data is what it was
            del data["pantheon"]
        if self.agora is None:  # Agora: only its games have the key
            del data["agora"]
        return data

    @classmethod
    def of_data(cls, data: dict[str, Any], pack: DuelPack) -> State:
        return cls(pack=pack, **copy.deepcopy(data))

    @classmethod
    def new(cls, pack: DuelPack, names: list[str], first: int) -> State:
        return cls(pack=pack, names=list(names), first=first, player=first, coins=[pack.numbers.start_coins] * 2,
                   tokens=[[], []], pairs=[[], []], wonders=[[], []], built_wonders=[[], []], under=[[], []],
                   built=[[], []], loot=[[t.id for t in pack.military.tokens] for _ in range(2)])
