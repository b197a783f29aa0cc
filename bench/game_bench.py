"""One game kind's benchmark: replay with full validation, and simulation, per player count.

    python bench/game_bench.py --game 7wonders --players 3,5,7 --bots random --bots science,military --games 50

Replay is measured from the archive: read the Parquet files, decode to event records, and
replay every game through the rules with every check, lenient as an audit is. The baseline in
the same run reads and decodes the same files and folds trivially (counts each game's events),
so the ratio shows what the rules cost; "fold only" is the replay of events already in memory.
Simulation is measured per bot line-up (the last line-up's games are the ones replayed). Times
are the process's CPU time (``time.process_time``): on a shared machine, wall-clock time measures
the neighbours too. ``flip7_bench.py`` and ``seven_wonders_bench.py`` run it with their games' rows.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.archive.compact import compact
from replay.driver import replay
from replay.events import Event
from replay.registry import registry


def timed_replays(archive: Archive, kind: str, fold: Callable[[list[Event]], None] | None
                  ) -> dict[int, tuple[int, int, float, float]]:
    """By player count: (events, games, CPU seconds to read and fold them, of which folding). The
    archive's events are read once and that time is shared out by events; ``fold`` None is the
    baseline (each game's events counted)."""
    t0 = time.process_time()
    events = list(archive.iter_events(kind))
    read = time.process_time() - t0
    games: dict[str, list[Event]] = defaultdict(list)
    for e in events:
        games[e.game_id].append(e)
    by_players: dict[int, list[list[Event]]] = defaultdict(list)
    for g in games.values():
        by_players[len(g[0].payload["seats"])].append(g)
    out = {}
    for n, gs in sorted(by_players.items()):
        n_events = sum(len(g) for g in gs)
        t = time.process_time()
        for g in gs:
            if fold is not None:
                fold(g)
            else:
                sum(1 for _ in g)
        folding = time.process_time() - t
        out[n] = (n_events, len(gs), read * n_events / len(events) + folding, folding)
    return out


def run(kind: str, players: Sequence[int], line_ups: Sequence[Sequence[str]], n_games: int) -> None:
    game: Any = registry.get(kind)
    pack = game.pack()
    work = Path(tempfile.mkdtemp(prefix=f"replay-{kind}-bench-"))
    archive = Archive.init(work / "archive")
    print(f"{'':<36}" + "".join(f"{n}p".rjust(11) for n in players))

    for bots in line_ups:
        row = []
        for n in players:
            names = [f"P{i + 1}" for i in range(n)]
            t = time.process_time()
            games = [game.bots.simulate(f"{bots[0]}-{n}-{i}", names, n * 100_000 + i, bots, pack) for i in range(n_games)]
            row.append(n_games / (time.process_time() - t))
            if bots == line_ups[-1]:
                archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games])
        label = f"simulate {'+'.join(bots)} games/s"
        print(f"{label:<36}" + "".join(f"{v:11,.0f}" for v in row))
    compact(archive)

    library = game.library()

    def fold(g: list[Event]) -> None:
        r = replay(game, g, library)
        assert not r.problems, r.problems[0]

    checked, trivial = timed_replays(archive, kind, fold), timed_replays(archive, kind, None)

    def row(label: str, values: list[float], fmt: str = "11,.0f") -> None:
        print(f"{label:<36}" + "".join(format(v, fmt).rjust(11) for v in values))

    row("replay events/s", [checked[n][0] / checked[n][2] for n in players])
    row("replay games/s", [checked[n][1] / checked[n][2] for n in players])
    row("baseline events/s", [trivial[n][0] / trivial[n][2] for n in players])
    row("events per game", [checked[n][0] / checked[n][1] for n in players])
    row("ms per game", [1000 * checked[n][2] / checked[n][1] for n in players], ",.2f")
    row("fold only events/s", [checked[n][0] / checked[n][3] for n in players])
    shutil.rmtree(work)


def main(kind: str | None = None, players: Sequence[int] = (), line_ups: Sequence[Sequence[str]] = (),
         games: int = 200) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default=kind, required=kind is None, help="the game kind")
    ap.add_argument("--games", type=int, default=games, help="games per player count")
    ap.add_argument("--players", default=",".join(map(str, players)) or None, required=not players,
                    help="player counts, e.g. 3,5,7")
    ap.add_argument("--bots", action="append", help="a bot line-up, comma-separated (repeat for more)")
    args = ap.parse_args()
    ups = [tuple(b.split(",")) for b in args.bots] if args.bots else [tuple(u) for u in line_ups]
    if not ups:
        ap.error("give at least one --bots line-up")
    run(args.game, [int(n) for n in args.players.split(",")], ups, args.games)


if __name__ == "__main__":
    main()
