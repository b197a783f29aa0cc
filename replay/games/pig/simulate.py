"""Seeded Pig games: every die roll becomes an event, so replay never draws a number."""

from __future__ import annotations

import random

from replay.events import Event, Provenance, Seat

from .events import DieRolled, GameEnded, GameStarted, Held
from .rules import PigRuleset, standard_ruleset

KIND = "pig"


def simulate_game(
    game_id: str,
    names: list[str],
    seed: int,
    ruleset: PigRuleset | None = None,
    hold_at: int = 20,
) -> list[Event]:
    """One complete game; players hold at ``hold_at`` points or when holding wins."""
    rules = ruleset or standard_ruleset()
    rng = random.Random(seed)
    start = GameStarted(
        ruleset=rules.pin,
        seats=[Seat(seat=i, name=n) for i, n in enumerate(names)],
        provenance=Provenance(source="simulated", detail=f"replay.games.pig seed={seed}"),
        target=rules.target,
    )
    events = [Event.create(KIND, game_id, 0, start)]

    def add(payload) -> None:
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
            if total >= hold_at or scores[player] + total >= rules.target:
                add(Held(player=player, banked=total))
                scores[player] += total
                break
        if scores[player] >= rules.target:
            add(GameEnded(scores=scores, winners=[player]))
            return events
        player = (player + 1) % len(names)
