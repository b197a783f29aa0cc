"""Seeded games between bots: every chance outcome (the markers' deal, each card revealed, each
Observatory draw) is drawn here from the seed and recorded; each event is applied strictly as it is
made (``replay.driver.Recording``), so a simulated game audits clean by construction and the same
seed gives byte-identical events."""

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
from .legal import cost
from .pack import StPetePack
from .scoring import phase_income
from .state import State

MAX_EVENTS = 20_000


def deal_markers(n: int, rng: random.Random) -> list[int]:
    """The four markers shuffled and dealt round the table (the BGA setup)."""
    order = list(range(4))
    rng.shuffle(order)
    markers = [0] * 4
    for i, phase in enumerate(order):
        markers[phase] = i % n
    return markers


def draw(state: State, deck: str, k: int, rng: random.Random) -> list[str]:
    """``k`` cards drawn at random from what ``deck`` holds (its order is nobody's knowledge)."""
    pool = [c for c, count in sorted(state.decks[deck].items()) for _ in range(count)]
    return rng.sample(pool, k)


def simulate_game(game_id: str, names: Sequence[str], seed: int, bots: Sequence[str] = ("greedy",),
                  pack: StPetePack | None = None) -> list[Event]:
    from . import GAME

    pack = pack or GAME.pack()  # type: ignore[assignment]
    assert isinstance(pack, StPetePack)
    if not bots:
        raise ReplayError(f"no St. Petersburg bots named (choose from {', '.join(BOTS)})")
    if not 2 <= len(names) <= 4:
        raise ReplayError(f"St. Petersburg is for two to four players, not {len(names)}")
    rng = random.Random(seed)
    players: list[Bot] = []
    for i in range(len(names)):
        bot = make(bots[i % len(bots)], rng)
        if bot is None:
            raise ReplayError(f"unknown St. Petersburg bot {bots[i % len(bots)]!r} (choose from {', '.join(BOTS)})")
        players.append(bot)
    game: Recording[State] = Recording(GAME, game_id, pack)
    game.emit(ev.GameStarted(ruleset=pack.pin, seats=[Seat(seat=i, name=n) for i, n in enumerate(names)],
                             provenance=Provenance(source="simulated", detail=f"replay.games.st_petersburg seed={seed} "
                                                   f"bots={','.join(bots)}"),
                             markers=deal_markers(len(names), rng)))
    state = game.state
    while state.expect[0] != "none":
        if len(game.events) > MAX_EVENTS:
            raise ReplayError(f"game {game_id} did not end within {MAX_EVENTS} events (seed {seed})")
        game.emit(_next(state, players, rng))
    return game.events


def _next(state: State, players: list[Bot], rng: random.Random) -> EventPayload:
    e: list[Any] = state.expect
    what = e[0]
    if what == "reveal":
        return ev.CardsRevealed(deck=e[1], cards=draw(state, e[1], e[2], rng))
    if what in ("turn", "observatory"):
        return action_event(state, e[1], players[e[1]].choose(state, e[1]), rng)
    if what == "phase_end":
        income = [phase_income(state, s, e[1]) if e[1] != "trading" else (0, 0) for s in range(state.n)]
        return ev.PhaseEnded(phase=e[1], income=[ev.Income(seat=s, rubles=r, points=p) for s, (r, p) in enumerate(income)])
    if what == "pub":
        seat = e[1]
        most = min(state.pack.scoring.pub_points * state.owns(seat, "pub"), state.rubles[seat] // state.pack.scoring.pub_price)
        return ev.PubUsed(seat=seat, points=players[seat].pub(state, seat, most))
    if what == "round_end":
        return ev.RoundEnded(round=e[1], markers=[(m + 1) % state.n for m in state.markers])
    from .scoring import final_scoring
    probe = State.of_data(state.data(), state.pack)
    final_scoring(probe)
    return ev.GameEnded(scores=[ev.FinalScore(seat=s, total=probe.points[s]) for s in range(state.n)],
                        winners=list(probe.winners))


def action_event(state: State, seat: int, action: str, rng: random.Random) -> EventPayload:
    """The event that records ``action`` (one of the legal actions), with the payment written down."""
    words = action.split()
    if words[0] == "pass":
        return ev.Passed(seat=seat)
    if words[0] == "take":
        return ev.CardTaken(seat=seat, card=words[1], source=words[3])  # type: ignore[arg-type]
    if words[0] == "discard":
        return ev.CardDiscarded(seat=seat, card=words[1])
    if words[0] == "observatory":
        return ev.ObservatoryUsed(seat=seat, deck=words[1], card=draw(state, words[1], 1, rng)[0])  # type: ignore[arg-type]
    by_id = state.pack.by_id
    displaced = words[5] if len(words) > 5 else None
    paid = cost(state, seat, by_id[words[1]], words[3], by_id[displaced] if displaced else None)
    return ev.CardBought(seat=seat, card=words[1], source=words[3], displaces=displaced, paid=paid)  # type: ignore[arg-type]


class StPeteBots(Bots):
    names = BOTS
    default = ("greedy", "saver", "random")

    def simulate(self, game_id: str, names: Sequence[str], seed: int, bots: Sequence[str], pack: Any) -> list[Event]:
        return simulate_game(game_id, names, seed, bots, pack)
