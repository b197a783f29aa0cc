"""Games between bots, into the archive: seeded, so the same seed gives byte-identical events."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..archive import NEW_STREAM, Archive, StreamAppend
from ..contract import AnyGame, Bots
from ..errors import ReplayError
from ..events import Event
from ..gcpause import gc_paused

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus", "Hana", "Ines", "Jon", "Kofi", "Lea", "Mia", "Nils",
         "Omar", "Pia", "Quinn", "Rosa"]
"""Names for simulated seats: enough for the largest table of any shipped game (Flip 7: 18)."""
COMMIT_GAMES = 500


def check_bots(game: AnyGame, bots: Sequence[str]) -> tuple[str, ...]:
    """The line-up, checked against the game's bots (empty: the game's default line-up)."""
    offered = game.require("bots")
    chosen = tuple(bots) or offered.default
    unknown = [b for b in chosen if b not in offered.names]
    if unknown:
        raise ReplayError(f"{game.title} has no bot {unknown[0]!r}; its bots: {', '.join(offered.names)}")
    return chosen


def check_players(game: AnyGame, players: tuple[int, int]) -> tuple[int, int]:
    low, high = game.players
    if players[0] < low or players[1] > min(high, len(NAMES)):
        raise ReplayError(f"{game.title} is played by {low} to {min(high, len(NAMES))} players, "
                          f"not {players[0]}-{players[1]}")
    return players


def player_counts(games: int, players: tuple[int, int], seed: int) -> list[int]:
    """How many players each of ``games`` simulated games has (drawn from ``seed``)."""
    chooser = random.Random(seed)
    return [chooser.randint(*players) for _ in range(games)]


def simulated(game: AnyGame, seed: int, i: int, players: int, bots: Sequence[str], pack: Any) -> list[Event]:
    """Game ``i`` of a simulation with ``seed``: id ``<kind>-s<seed>-<i>``, seeded from both alone."""
    simulator: Bots = game.require("bots")
    return simulator.simulate(f"{game.kind}-s{seed}-{i:06d}", NAMES[:players], seed * 1_000_003 + i, bots, pack)


def simulate_games(game: AnyGame, archive: Archive, games: int, players: tuple[int, int], bots: Sequence[str] = (),
                   seed: int = 1, pack: Any = None, progress: Callable[[int], None] | None = None) -> int:
    """Simulate ``games`` games into the archive (commits of COMMIT_GAMES); returns events written.

    Game i is seeded from ``seed`` and i alone, so the same seed always gives
    byte-identical events, whatever the batch size. Its id is ``<kind>-s<seed>-<i>``.
    """
    bots = check_bots(game, bots)
    check_players(game, players)
    pack = pack if pack is not None else game.pack()
    counts = player_counts(games, players, seed)
    written = 0
    for start in range(0, games, COMMIT_GAMES):
        # A batch is many small objects held until its commit, and no cycles: with the collector on,
        # its walks over them cost a sixth of the simulation (replay/gcpause.py, docs/performance.md).
        with gc_paused():
            batch = [_append(simulated(game, seed, i, n, bots, pack))
                     for i, n in enumerate(counts[start:start + COMMIT_GAMES], start)]
        archive.append_many(batch, [pack])
        written += sum(len(a.events) for a in batch)
        if progress:
            progress(len(batch))
    return written


def _append(events: list[Event]) -> StreamAppend:
    return StreamAppend(events[0].game_id, NEW_STREAM, events)
