"""``replay simulate`` benchmark: simulated games into an archive, with one worker and with more.

    python bench/simulate_bench.py                          # 7 Wonders Dice, 2000 games at 2, 3 and 4 players
    python bench/simulate_bench.py --games 1000 --rounds 1  # quick
    python bench/simulate_bench.py --kind flip7 --players 3,6

For each player count, measured in the same run, alternated ``--rounds`` times (the rows are medians):

* ``loop``: the game's simulation alone (``simulated``, every game kept in memory until the loop ends, then
  freed, no archive), one process: the baseline, what ``bench/wonders_dice_bench.py`` calls simulation;
* ``-w 1``: :func:`simulate_games` into a new archive, one process: the simulation, the chain, the
  encoding and the Parquet files, committed in batches of ``COMMIT_GAMES``;
* ``-w N``: the same with N worker processes preparing the batches (each ``--workers`` value given).

Every figure is wall clock (the workers' time is what a user waits for), with the CPU time of this
process and of its workers beside it. The archives are checked to hold the same files whatever the
number of workers. On a shared machine wall clock moves with the neighbours: the ratios, measured
minutes apart at most, are the figures to read.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from replay.archive import Archive
from replay.gcpause import gc_paused
from replay.registry import registry
from replay.services.simulation import COMMIT_GAMES, check_bots, player_counts, simulate_games, simulated


def cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_loop(kind: str, games: int, players: int, bots: tuple[str, ...], seed: int) -> dict[str, float]:
    """The simulation alone: the same games :func:`simulate_games` makes, kept in memory."""
    game = registry.get(kind)
    pack = game.pack()
    counts = player_counts(games, (players, players), seed)
    with gc_paused():  # as simulate_games pauses it for each batch, until the batch is gone (no collection walks it)
        wall, cpu = time.perf_counter(), time.process_time()
        made = [simulated(game, seed, i, n, bots, pack) for i, n in enumerate(counts)]
        events = sum(map(len, made))
        del made
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"wall_s": wall, "cpu_main_s": cpu, "cpu_workers_s": 0.0, "games_per_s": games / wall, "events": events}


def timed_archive(root: Path, kind: str, games: int, players: int, bots: tuple[str, ...], seed: int,
                  workers: int) -> dict[str, Any]:
    """:func:`simulate_games` into a new archive at ``root``, with ``workers`` processes."""
    shutil.rmtree(root, ignore_errors=True)
    archive = Archive.init(root)
    game = registry.get(kind)
    wall, cpu, children = time.perf_counter(), time.process_time(), cpu_children()
    events = simulate_games(game, archive, games, (players, players), bots, seed, workers=workers)
    wall, cpu, children = time.perf_counter() - wall, time.process_time() - cpu, cpu_children() - children
    files = sorted((f.sha256, f.rows) for f in Archive(root).snapshot().files.values())
    return {"wall_s": wall, "cpu_main_s": cpu, "cpu_workers_s": children, "games_per_s": games / wall,
            "events": events, "files": files}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kind", default="7wonders-dice")
    ap.add_argument("--games", type=int, default=2000, help="games per player count")
    ap.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    ap.add_argument("--bot", default="random", help="the line-up, comma-separated (default: random bots)")
    ap.add_argument("--workers", default="2", help="worker counts to compare with one process, comma-separated")
    ap.add_argument("--rounds", type=int, default=3, help="alternated repeats (the rows are medians)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the medians as JSON as well")
    args = ap.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    pools = [int(w) for w in args.workers.split(",") if int(w) > 1]
    bots = check_bots(registry.get(args.kind), [b.strip() for b in args.bot.split(",") if b.strip()])
    labels = ["loop", "-w 1"] + [f"-w {w}" for w in pools]
    runs: dict[tuple[int, str], list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="replay-simulate-bench-") as tmp:
        for players in counts:
            for _ in range(args.rounds):
                runs.setdefault((players, "loop"), []).append(timed_loop(args.kind, args.games, players, bots, args.seed))
                for workers in [1, *pools]:
                    runs.setdefault((players, f"-w {workers}"), []).append(
                        timed_archive(Path(tmp) / "archive", args.kind, args.games, players, bots, args.seed, workers))
            made = {tuple(map(tuple, r["files"])) for label in labels[1:] for r in runs[(players, label)]}
            if len(made) != 1:
                raise SystemExit(f"{players} players: the archives' files differ with the number of workers")

    def median(players: int, label: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[(players, label)])

    print(f"{args.kind}: {args.games} games a player count, bots {','.join(bots)}, commits of {COMMIT_GAMES} games, "
          f"medians of {args.rounds} (wall clock)")
    head = f"{'':34}" + "".join(f"{p:>12}p" for p in counts)
    print(head)
    for label in labels:
        print(f"{label + ' games/s':34}" + "".join(f"{median(p, label, 'games_per_s'):>13,.0f}" for p in counts))
    for label in labels[1:]:
        cpu = [(median(p, label, "cpu_main_s") + median(p, label, "cpu_workers_s")) / median(p, label, "wall_s")
               for p in counts]
        print(f"{label + ' CPU s / wall s':34}" + "".join(f"{c:>13.2f}" for c in cpu))
    print(f"{'events a game':34}" + "".join(f"{median(p, 'loop', 'events') / args.games:>13.0f}" for p in counts))
    print(f"{'-w 1 / loop':34}" + "".join(
        f"{median(p, '-w 1', 'games_per_s') / median(p, 'loop', 'games_per_s'):>13.2f}" for p in counts))
    for label in labels[2:]:
        print(f"{label + ' / -w 1 (speed-up)':34}" + "".join(
            f"{median(p, label, 'games_per_s') / median(p, '-w 1', 'games_per_s'):>13.2f}" for p in counts))
        print(f"{label + ' / loop':34}" + "".join(
            f"{median(p, label, 'games_per_s') / median(p, 'loop', 'games_per_s'):>13.2f}" for p in counts))
    if args.json:
        print(json.dumps({f"{p}p {label}": {k: median(p, label, k) for k in ("games_per_s", "wall_s", "cpu_main_s",
                                                                            "cpu_workers_s")}
                          for p in counts for label in labels}, indent=1))


if __name__ == "__main__":
    main()
