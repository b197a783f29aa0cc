"""7 Wonders Dice benchmark: replay with full validation, and simulation.

    python bench/wonders_dice_bench.py              # 300 games per player count
    python bench/wonders_dice_bench.py --games 50   # quick

Replay is measured from the archive: read the Parquet files, decode to event records,
fold every game with every rule check and claim. The baseline in the same run reads
the same files and folds trivially (counts each game's events), so the ratio shows what
the rules cost; the last row is the fold alone (the events already decoded, in memory).
Simulation is measured per bot. Times are the process's CPU time (``time.process_time``): on a
shared machine, wall-clock time measures the neighbours too.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from game_bench import timed_replays

from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.archive.compact import compact
from replay.games.wonders_dice import simulate_game
from replay.games.wonders_dice.projector import fold

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300, help="games per player count")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="replay-wd-bench-"))
    archive = Archive.init(work / "archive")
    print(f"{'':<24}" + "".join(f"{n}p".rjust(12) for n in range(2, 8)))

    sim = {}
    for bots in (("random",), ("greedy",)):
        row = []
        for n in range(2, 8):
            t = time.process_time()
            games = [simulate_game(f"{bots[0]}-{n}-{i}", NAMES[:n], n * 100_000 + i, bots) for i in range(args.games)]
            row.append(args.games / (time.process_time() - t))
            if bots == ("random",):
                archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games])
        sim[bots[0]] = row
        print(f"simulate {bots[0]:<8} games/s" + "".join(f"{v:12,.0f}" for v in row))
    compact(archive)

    checked, trivial = timed_replays(archive, "7wonders-dice", fold), timed_replays(archive, "7wonders-dice", None)
    print(f"{'replay events/s':<24}" + "".join(f"{checked[n][0] / checked[n][2]:12,.0f}" for n in range(2, 8)))
    print(f"{'replay games/s':<24}" + "".join(f"{checked[n][1] / checked[n][2]:12,.0f}" for n in range(2, 8)))
    print(f"{'baseline events/s':<24}" + "".join(f"{trivial[n][0] / trivial[n][2]:12,.0f}" for n in range(2, 8)))
    print(f"{'events per game':<24}" + "".join(f"{checked[n][0] / checked[n][1]:12,.0f}" for n in range(2, 8)))
    ms = [1000 * checked[n][2] / checked[n][1] for n in range(2, 8)]
    print(f"{'ms per game':<24}" + "".join(f"{v:12,.2f}" for v in ms))
    print(f"{'fold only events/s':<24}" + "".join(f"{checked[n][0] / checked[n][3]:12,.0f}" for n in range(2, 8)))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
