"""Seeded Flip 7 games between bots. Every shuffle is drawn here from ``random.Random(seed)`` and
recorded as a ``deck_shuffled`` event; every other event follows from the rules.

The simulation drives the real rules: each event is applied as it is made (strictly), and the
next one is whatever the rules expect (``state.expect``): a bot's decision where a decision is
due, the top card where a card is drawn, the consequence the rules give. So a simulated game
audits clean by construction, and the same seed gives byte-identical events.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from replay.contract import Bots
from replay.driver import Recording
from replay.errors import ReplayError
from replay.events import Event, EventPayload, Provenance, Seat

from . import events as ev
from .bots import BOTS, Bot, make
from .pack import Flip7Pack
from .state import State

MAX_EVENTS = 200_000


def simulate_game(game_id: str, names: Sequence[str], seed: int, bots: Sequence[str] = ("odds",),
                  pack: Flip7Pack | None = None) -> list[Event]:
    """One complete game; ``bots`` is cycled over the seats."""
    from . import GAME

    pack = pack or GAME.pack()  # type: ignore[assignment]
    assert isinstance(pack, Flip7Pack)
    if not bots:
        raise ReplayError(f"no Flip 7 bots named (choose from {', '.join(BOTS)}, or stayN)")
    rng = random.Random(seed)
    players: list[Bot] = []
    for i in range(len(names)):
        bot = make(bots[i % len(bots)], rng)
        if bot is None:
            raise ReplayError(f"unknown Flip 7 bot {bots[i % len(bots)]!r} (choose from {', '.join(BOTS)}, or stayN)")
        players.append(bot)
    game: Recording[State] = Recording(GAME, game_id, pack)
    emit = game.emit
    emit(ev.GameStarted(ruleset=pack.pin, seats=[Seat(seat=i, name=n) for i, n in enumerate(names)],
                        provenance=Provenance(source="simulated", detail=f"replay.games.flip7 seed={seed} "
                                              f"bots={','.join(bots)}"),
                        first_dealer=rng.randrange(len(names))))
    state = game.state
    while state.expect[0] != "none":
        if len(game.events) > MAX_EVENTS:
            raise ReplayError(f"game {game_id} did not end within {MAX_EVENTS} events (seed {seed})")
        emit(_next(state, players, rng))
    return game.events


def _next(state: State, players: list[Bot], rng: random.Random) -> EventPayload:
    """The event the rules expect next, with the bots' choices and the chance outcomes filled in."""
    e: list[Any] = state.expect
    what = e[0]
    if what == "decision":
        return ev.PlayerHit(seat=e[1]) if players[e[1]].wants_card(state, e[1]) else ev.PlayerStayed(seat=e[1])
    if what == "card_drawn":
        return ev.CardDrawn(seat=e[1], card=state.draw[0], reason=e[2])
    if what == "target_chosen":
        return ev.TargetChosen(seat=e[1], card=e[2], target=players[e[1]].target(state, e[1], e[2]))
    if what == "deck_shuffled":
        order = state.cards.box() if e[1] == "new_deck" else list(state.discard)
        rng.shuffle(order)
        return ev.DeckShuffled(reason=e[1], order=order)
    if what == "busted":
        return ev.Busted(seat=e[1], card=e[2])
    if what == "second_chance_used":
        return ev.SecondChanceUsed(seat=e[1], card=e[2])
    if what == "frozen":
        return ev.Frozen(seat=e[1])
    if what == "flipped_seven":
        return ev.FlippedSeven(seat=e[1])
    if what == "round_started":
        return ev.RoundStarted(round=e[1], dealer=e[2])
    if what == "round_ended":
        claims = []
        for seat in range(state.n):
            score = sum(state.round_score(seat).values())
            claims.append(ev.ScoreClaim(seat=seat, score=score, total=state.total[seat] + score))
        return ev.RoundEnded(round=e[1], scores=claims)
    return ev.GameEnded(winners=list(state.winners))


class Flip7Bots(Bots):
    names = BOTS
    default = ("odds", "stay20", "stay25")

    def simulate(self, game_id: str, names: Sequence[str], seed: int, bots: Sequence[str], pack: Any) -> list[Event]:
        return simulate_game(game_id, names, seed, bots, pack)
