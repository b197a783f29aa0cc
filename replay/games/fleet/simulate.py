"""Seeded Fleet games between bots. Every chance outcome is drawn here from ``random.Random(seed)``
and recorded (the licenses removed, both decks' orders, every reshuffle); every other event is a
bot's choice or what the rules give. Each event is applied strictly as it is made (``Recording``),
so a simulated game audits clean by construction and the same seed gives byte-identical events.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from replay.contract import Bots
from replay.driver import Recording
from replay.errors import ReplayError
from replay.events import Event, EventPayload, Provenance, Seat

from . import events as ev
from . import scoring
from .bots import BOTS, decide
from .pack import FleetPack
from .state import State

MAX_EVENTS = 50_000
CHOICE_STEPS = ("auction_open", "bid", "license_bought", "launch", "hire", "process", "trade", "discard")


def setup_licenses(state: State, rng: random.Random) -> tuple[list[str], list[str]]:
    """The licenses removed and the license deck's order: common licenses on top for the first rounds."""
    pack, n = state.pack, state.n
    common = [x.license for x in pack.cards.licenses if not x.premium for _ in range(x.count)]
    premium = [x.license for x in pack.cards.licenses if x.premium for _ in range(x.count)]
    rng.shuffle(common)
    rng.shuffle(premium)
    r = pack.removal(n)
    removed = common[: r.common] + premium[: r.premium]
    common, premium = common[r.common:], premium[r.premium:]
    early = (pack.setup.premium_from_round - 1) * n * pack.setup.auction_row_per_player
    top, rest = common[:early], common[early:] + premium
    rng.shuffle(rest)
    return removed, top + rest


def simulate_game(game_id: str, names: Sequence[str], seed: int, bots: Sequence[str] = ("greedy",),
                  pack: FleetPack | None = None) -> list[Event]:
    from . import GAME

    pack = pack or GAME.pack()  # type: ignore[assignment]
    assert isinstance(pack, FleetPack)
    for b in bots:
        if b not in BOTS:
            raise ReplayError(f"unknown Fleet bot {b!r} (choose from {', '.join(BOTS)})")
    if not bots:
        raise ReplayError(f"no Fleet bots named (choose from {', '.join(BOTS)})")
    if not 2 <= len(names) <= 4:
        raise ReplayError(f"Fleet is for 2 to 4 players, not {len(names)}")
    rng = random.Random(seed)
    players = [bots[i % len(bots)] for i in range(len(names))]
    game: Recording[State] = Recording(GAME, game_id, pack)
    game.emit(ev.GameStarted(ruleset=pack.pin, seats=[Seat(seat=i, name=n) for i, n in enumerate(names)],
                             provenance=Provenance(source="simulated", detail=f"replay.games.fleet seed={seed} "
                                                   f"bots={','.join(bots)}"),
                             first_player=rng.randrange(len(names))))
    state = game.state
    removed, order = setup_licenses(state, rng)
    game.emit(ev.LicensesRemoved(licenses=removed))
    game.emit(ev.LicenseDeckShuffled(order=order))
    while state.expect[0] != "none":
        if len(game.events) > MAX_EVENTS:
            raise ReplayError(f"game {game_id} did not end within {MAX_EVENTS} events (seed {seed})")
        game.emit(_next(state, players, rng))
    return game.events


def _next(state: State, players: list[str], rng: random.Random) -> EventPayload:
    e: list[Any] = state.expect
    what = e[0]
    if what in CHOICE_STEPS:
        return decide(state, e[1], players[e[1]], rng)
    if what == "hand_dealt":
        return ev.HandDealt(seat=e[1], cards=list(state.pack.cards.starting_hand))
    if what == "boat_deck_shuffled":
        order = list(state.deck if e[1] == "new_deck" else state.discard)
        rng.shuffle(order)
        return ev.BoatDeckShuffled(reason=e[1], order=order)
    if what == "round_started":
        return ev.RoundStarted(round=e[1], first_player=e[2])
    if what == "cards_drawn":
        return ev.CardsDrawn(seat=e[1], reason=e[2], cards=state.deck[: e[3]])
    if what == "fish_caught":
        return ev.FishCaught(seat=e[1], boats=list(e[2]))
    if what == "game_ended":
        claims = [ev.ScoreClaim(seat=s, total=scoring.total(state, s), **scoring.claimed(state, s)) for s in range(state.n)]
        reason: Literal["licenses", "fish"] = "fish" if state.final == "fish" else "licenses"
        return ev.GameEnded(reason=reason, scores=claims, winners=scoring.winners(state)[0])
    raise AssertionError(f"nothing to simulate for {e}")


class FleetBots(Bots):
    names = BOTS
    default = ("greedy", "frugal", "greedy", "random")

    def simulate(self, game_id: str, names: Sequence[str], seed: int, bots: Sequence[str], pack: Any) -> list[Event]:
        return simulate_game(game_id, names, seed, bots, pack)
