"""Games between bots, into the archive: seeded, so the same seed gives byte-identical events."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..archive import NEW_STREAM, Archive, PreparedAppend, StreamAppend
from ..contract import AnyGame, Bots
from ..errors import ReplayError
from ..events import Event
from ..gcpause import gc_paused
from ..workers import fork_pool, in_order

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
                   seed: int = 1, pack: Any = None, progress: Callable[[int], None] | None = None,
                   workers: int = 1) -> int:
    """Simulate ``games`` games into the archive (commits of COMMIT_GAMES); returns events written.

    Game i is seeded from ``seed`` and i alone, so the same seed always gives
    byte-identical events, whatever the batch size. Its id is ``<kind>-s<seed>-<i>``.

    With ``workers`` > 1, worker processes (forked: they inherit the game, the pack and the archive)
    simulate the batches and prepare each one's data files (:meth:`Archive.prepare_append`: chained,
    encoded, written to Parquet bytes), and this process commits them in batch order: the archive
    gets the same batches, files and events as with one process.
    """
    bots = check_bots(game, bots)
    check_players(game, players)
    pack = pack if pack is not None else game.pack()
    counts = player_counts(games, players, seed)
    batches = [(start, counts[start:start + COMMIT_GAMES]) for start in range(0, games, COMMIT_GAMES)]
    written = 0
    _BATCH_CONTEXT[id(archive)] = (game, archive, bots, seed, pack)
    pool = fork_pool(min(workers, len(batches))) if workers > 1 and len(batches) > 1 else None
    try:
        for prepared in in_order(pool, partial(_prepared_batch, id(archive)), batches, 2 * workers):
            archive.commit(prepared)
            written += prepared.events
            if progress:
                progress(len(prepared.positions))
    finally:
        _BATCH_CONTEXT.pop(id(archive), None)
        if pool is not None:
            pool.terminate()  # every batch was taken (or one failed, and the rest are not wanted)
            pool.join()
    return written


_BATCH_CONTEXT: dict[int, tuple[AnyGame, Archive, tuple[str, ...], int, Any]] = {}
"""What a batch is simulated with, by the archive's id: set before the workers fork, so that they inherit
it (the game, the archive, the line-up, the seed, the pack) rather than being sent it with every batch."""


def _prepared_batch(context: int, batch: tuple[int, list[int]]) -> PreparedAppend:
    """One batch of games (the first game's index, each game's players) simulated and prepared for its commit."""
    game, archive, bots, seed, pack = _BATCH_CONTEXT[context]
    start, counts = batch
    # A batch is many small objects held until it is prepared, and no cycles: with the collector on,
    # its walks over them cost a sixth of the simulation (replay/gcpause.py, docs/performance.md). It
    # stays paused until the events are gone: resumed while they were held, it walked them all once a
    # batch (a generation of ~700,000 young objects), an eighth of `replay simulate`'s time.
    with gc_paused():
        appends = [_append(simulated(game, seed, i, n, bots, pack)) for i, n in enumerate(counts, start)]
        prepared = archive.prepare_append(appends, [pack])
        del appends
    return prepared


def _append(events: list[Event]) -> StreamAppend:
    return StreamAppend(events[0].game_id, NEW_STREAM, events)
