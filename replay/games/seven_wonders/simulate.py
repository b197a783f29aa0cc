"""Seeded 7 Wonders games between bots. Every chance outcome (the Wonder boards and sides, each
Age's deal, the guilds in the Age III deck) is drawn here from ``random.Random(seed)`` and
recorded; every other event is a bot's choice or follows from the rules.

The simulation drives the real rules (each event applied as it is made, strictly), so a
simulated game audits clean by construction and the same seed gives byte-identical events.
Bots choose from :func:`legal_plays` with the table as it was at the start of the turn.

Bots: ``random`` (any legal play), and ``science``, ``military``, ``civilian`` (favour that colour's
structures, then any structure, then a Wonder stage; the cheapest payment; a discard last).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from replay.contract import Bots
from replay.driver import Recording
from replay.errors import ReplayError
from replay.events import Event, EventPayload, Provenance

from . import events as ev
from .city import trade_coins
from .legal import Play, legal_plays, payload_of
from .pack import SevenWondersPack
from .rules import conflict_tokens, expected_seats
from .scoring import scores
from .state import AGE_END, CHOOSE, DEAL, DISCARD_BUILD, SCORE, State

BOTS = ("random", "science", "military", "civilian")
FAVOURED = {"science": "green", "military": "red", "civilian": "blue"}


def choose(bot: str, state: State, seat: int, plays: list[Play], rng: random.Random) -> Play:
    """A bot's play among the legal ones."""
    if bot == "random":
        return plays[rng.randrange(len(plays))]
    favoured = FAVOURED[bot]

    def value(p: Play) -> tuple[int, int]:
        card_id, action = p[0], p[1]
        if card_id == "discard_built":
            return (1, 0) if action is not None else (0, 0)
        card = state.pack.card(state.age, card_id)
        coins = _coins_to(state, seat, p, "left") + _coins_to(state, seat, p, "right")
        if action == "build" and card is not None:
            rank = 4 if card.colour == favoured else 3
            return rank, -coins
        if action == "wonder":
            return 2, -coins
        return 0, 0

    best = max(value(p) for p in plays)
    tied = [p for p in plays if value(p) == best]
    return tied[rng.randrange(len(tied))]


def deal(pack: SevenWondersPack, age: int, players: int, rng: random.Random) -> list[list[str]]:
    """Each seat's hand: the Age's deck (Age III with players + 2 guilds drawn at random), shuffled."""
    cards = sorted(pack.deck(age, players).elements())
    if age == 3:
        cards += rng.sample(sorted(pack.guilds()), players + 2)
    rng.shuffle(cards)
    size = pack.numbers.hand_size
    return [cards[i * size:(i + 1) * size] for i in range(players)]


def simulate_game(game_id: str, names: Sequence[str], seed: int, bots: Sequence[str] = ("random",),
                  pack: SevenWondersPack | None = None) -> list[Event]:
    """One complete game; ``bots`` is cycled over the seats."""
    from . import GAME

    pack = pack or GAME.pack()  # type: ignore[assignment]
    assert isinstance(pack, SevenWondersPack)
    unknown = [b for b in bots if b not in BOTS]
    if not bots or unknown:
        raise ReplayError(f"unknown 7 Wonders bot {', '.join(unknown) or '(none)'} (choose from {', '.join(BOTS)})")
    if not 3 <= len(names) <= 7:
        raise ReplayError(f"7 Wonders is played by 3 to 7 players, not {len(names)}")
    rng = random.Random(seed)
    players = [bots[i % len(bots)] for i in range(len(names))]
    game: Recording[State] = Recording(GAME, game_id, pack)
    emit = game.emit
    wonders = rng.sample(sorted(pack.wonder_by_id), len(names))
    sides: list[Literal["a", "b"]] = [pack.options.sides if pack.options.sides != "chosen" else rng.choice(("a", "b"))
                                      for _ in names]
    emit(ev.GameStarted(ruleset=pack.pin, seats=[ev.WonderSeat(seat=i, name=n, wonder=w, side=s)
                                                 for i, (n, w, s) in enumerate(zip(names, wonders, sides))],
                        provenance=Provenance(source="simulated", detail=f"replay.games.seven_wonders seed={seed} "
                                              f"bots={','.join(bots)}")))
    state = game.state
    while state.phase != "over":
        emit(_next(state, players, rng))
    return game.events


def _next(state: State, players: list[str], rng: random.Random) -> EventPayload:
    if state.phase == DEAL:
        return ev.AgeDealt(age=state.age + 1, hands=deal(state.pack, state.age + 1, state.n, rng))
    if state.phase == CHOOSE:
        seat = expected_seats(state)[0]
        chosen = choose(players[seat], state, seat, legal_plays(state, seat), rng)
        payload = payload_of(state, seat, chosen)
        return ev.CardPlayed(**payload, paid=ev.Paid(to_left=_coins_to(state, seat, chosen, "left"),
                                                     to_right=_coins_to(state, seat, chosen, "right")))
    if state.phase == DISCARD_BUILD:
        seat = state.pending[0]
        chosen = choose(players[seat], state, seat, legal_plays(state, seat), rng)
        return ev.DiscardBuilt(seat=seat, card=chosen[1])
    if state.phase == AGE_END:
        return ev.AgeEnded(age=state.age, tokens=conflict_tokens(state))
    if state.phase == SCORE:
        return ev.GameEnded(scores=[ev.SeatScore(seat=i, **s) for i, s in enumerate(scores(state))])
    raise ReplayError(f"nothing to simulate in phase {state.phase}")


def _coins_to(state: State, seat: int, chosen: Play, side: str) -> int:
    """The coins a play pays the neighbour on ``side``."""
    return trade_coins(state, seat, side, dict(chosen[4] if side == "left" else chosen[5]))


class SevenWondersBots(Bots):
    names = BOTS
    default = ("random", "science", "military", "civilian")

    def simulate(self, game_id: str, names: Sequence[str], seed: int, bots: Sequence[str], pack: Any) -> list[Event]:
        return simulate_game(game_id, names, seed, bots, pack)
