"""Seeded Pig games: every die roll becomes an event, so replay never draws a number."""

from __future__ import annotations

import random
from collections.abc import Sequence

from replay.contract import Bots
from replay.errors import ReplayError
from replay.events import Event, EventPayload, Provenance, Seat

from .events import DieRolled, GameEnded, GameStarted, Held
from .rules import PigPack, standard_ruleset

KIND = "pig"
BOTS = ("hold20", "hold25")


def simulate_game(
    game_id: str,
    names: Sequence[str],
    seed: int,
    bots: Sequence[str] = ("hold20",),
    ruleset: PigPack | None = None,
) -> list[Event]:
    """One complete game; each player holds at the total its bot names (``hold20``: 20 points)
    or when holding wins."""
    rules = ruleset or standard_ruleset()
    unknown = [b for b in bots if b not in BOTS]
    if unknown or not bots:
        raise ReplayError(f"unknown Pig bot {unknown[0] if unknown else '(none)'!r} (choose from {', '.join(BOTS)})")
    hold = [int(bots[i % len(bots)][4:]) for i in range(len(names))]
    rng = random.Random(seed)
    start = GameStarted(
        ruleset=rules.pin,
        seats=[Seat(seat=i, name=n) for i, n in enumerate(names)],
        provenance=Provenance(source="simulated", detail=f"replay.games.pig seed={seed}"),
        target=rules.target,
    )
    events = [Event.create(KIND, game_id, 0, start)]

    def add(payload: EventPayload) -> None:
        events.append(Event.create(KIND, game_id, len(events), payload))

    scores = [0] * len(names)
    player = 0
    while True:
        total = 0
        while True:
            face = rng.randint(1, rules.die_faces)
            add(DieRolled(player=player, face=face))
            if face == rules.bust_face:
                total = 0
                break
            total += face
            if total >= hold[player] or scores[player] + total >= rules.target:
                add(Held(player=player, banked=total))
                scores[player] += total
                break
        if scores[player] >= rules.target:
            add(GameEnded(scores=scores, winners=[player]))
            return events
        player = (player + 1) % len(names)


class PigBots(Bots):
    names = BOTS
    default = BOTS

    def simulate(self, game_id: str, names: Sequence[str], seed: int, bots: Sequence[str], pack: object) -> list[Event]:
        assert pack is None or isinstance(pack, PigPack)
        return simulate_game(game_id, names, seed, bots, pack)
