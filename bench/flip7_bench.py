"""Flip 7 benchmark: replay with full validation, and simulation, per player count.

    python bench/flip7_bench.py              # 200 games per player count
    python bench/flip7_bench.py --games 30   # quick

Replay is measured from the archive: read the Parquet files, decode to event records, and
replay every game through the rules with every check (the draw against the pile, the deck's
conservation, every consequence and claim), lenient as an audit is. The baseline in the same
run reads and decodes the same files and folds trivially (counts each game's events), so the
ratio shows what the rules cost; "fold only" is the replay of events already in memory.
Simulation is measured per bot line-up. Times are the process's CPU time
(``time.process_time``): on a shared machine, wall-clock time measures the neighbours too.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.archive.compact import compact
from replay.driver import replay
from replay.events import Event
from replay.registry import registry

PLAYERS = (3, 4, 6, 8, 12, 18)
LINE_UPS = (("random",), ("odds",), ("stay20", "odds", "random"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per player count")
    args = ap.parse_args()
    game: Any = registry.get("flip7")
    pack = game.pack()
    work = Path(tempfile.mkdtemp(prefix="replay-flip7-bench-"))
    archive = Archive.init(work / "archive")
    header = f"{'':<36}" + "".join(f"{n}p".rjust(11) for n in PLAYERS)
    print(header)

    for bots in LINE_UPS:
        row = []
        for n in PLAYERS:
            names = [f"P{i + 1}" for i in range(n)]
            t = time.process_time()
            games = [game.bots.simulate(f"{bots[0]}-{n}-{i}", names, n * 100_000 + i, bots, pack) for i in range(args.games)]
            row.append(args.games / (time.process_time() - t))
            if bots == LINE_UPS[-1]:
                archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games])
        label = f"simulate {'+'.join(bots)} games/s"
        print(f"{label:<36}" + "".join(f"{v:11,.0f}" for v in row))
    compact(archive)

    def measure(check: bool) -> dict[int, tuple[int, int, float, float]]:
        t0 = time.process_time()
        events = list(archive.iter_events("flip7"))
        read = time.process_time() - t0
        games: dict[str, list[Event]] = defaultdict(list)
        for e in events:
            games[e.game_id].append(e)
        by_players: dict[int, list[list[Event]]] = defaultdict(list)
        for g in games.values():
            by_players[len(g[0].payload["seats"])].append(g)
        library = game.library()
        out = {}
        for n, gs in sorted(by_players.items()):
            n_events = sum(len(g) for g in gs)
            t = time.process_time()
            for g in gs:
                if check:
                    r = replay(game, g, library)
                    assert not r.problems, r.problems[0]
                else:
                    sum(1 for _ in g)
            fold = time.process_time() - t
            share = read * n_events / len(events)  # reading, apportioned by events
            out[n] = (n_events, len(gs), share + fold, fold)
        return out

    checked, trivial = measure(True), measure(False)

    def row(label: str, values: list[float], fmt: str = "11,.0f") -> None:
        print(f"{label:<36}" + "".join(format(v, fmt).rjust(11) for v in values))

    row("replay events/s", [checked[n][0] / checked[n][2] for n in PLAYERS])
    row("replay games/s", [checked[n][1] / checked[n][2] for n in PLAYERS])
    row("baseline events/s", [trivial[n][0] / trivial[n][2] for n in PLAYERS])
    row("events per game", [checked[n][0] / checked[n][1] for n in PLAYERS])
    row("ms per game", [1000 * checked[n][2] / checked[n][1] for n in PLAYERS], ",.2f")
    row("fold only events/s", [checked[n][0] / checked[n][3] for n in PLAYERS])
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
