"""7 Wonders Dice benchmark: replay with full validation, and simulation.

    python bench/wonders_dice_bench.py              # 300 games per player count
    python bench/wonders_dice_bench.py --games 50   # quick
    python bench/wonders_dice_bench.py --sim-only   # simulation only

Replay is measured from the archive: read the Parquet files, decode to event records,
fold every game with every rule check and claim. The baseline in the same run reads
the same files and folds trivially (counts each game's events), so the ratio shows what
the rules cost; the last row is the fold alone (the events already decoded, in memory).
Simulation is measured per bot, with the compiled bots (``_cbots.c``: listing and shuffling the
candidates, where built) and with the pure-Python code, alternating ``--rounds`` times (medians): each
player count's games made and then freed with the cyclic collector paused, as ``replay simulate`` makes a
batch (until the sixteenth pass the games were freed later and a collection over them was measured too,
as the service then paid it: docs/performance.md).
Replay and the fold are measured twice in the same run, with the compiled kernel
(``replay/games/wonders_dice/_ckernel.c``, where it is built) and with the pure-Python code
(``compiled.use(False)`` and the driver's Python loop, what ``REPLAY_PURE=1`` gives), and with the compiled kernel but pyarrow's
decoding instead of the compiled column decoder (``replay/columns.py``: the code before the sixth pass),
alternating ``--rounds`` times: the rows are the medians, and the last rows the ratios. The baseline
is measured both ways too. Times are the process's CPU time (``time.process_time``): on a
shared machine, wall-clock time measures the neighbours too.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from game_bench import timed_replays

from replay import columns, driver
from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.archive.compact import compact
from replay.games.wonders_dice import cbots, compiled, simulate_game
from replay.games.wonders_dice.projector import fold
from replay.gcpause import gc_paused

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300, help="games per player count")
    ap.add_argument("--rounds", type=int, default=3, help="replays of each path, alternated (the rows are medians)")
    ap.add_argument("--no-sim", action="store_true", help="simulate random bots only (the games to replay)")
    ap.add_argument("--sim-only", action="store_true", help="measure simulation only (no replay)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="replay-wd-bench-"))
    archive = Archive.init(work / "archive")
    print(f"{'':<36}" + "".join(f"{n}p".rjust(12) for n in range(2, 8)))

    sim = {}
    for bots in (("random",),) if args.no_sim else (("random",), ("greedy",)):
        # with the compiled bots (cbots.py, where built) and kernel (the one-step action: compiled.TRUSTED), and
        # with the pure-Python code, alternated
        rates: dict[bool, list[list[float]]] = {True: [[] for _ in range(2, 8)], False: [[] for _ in range(2, 8)]}
        for r in range(args.rounds):
            for on in (True, False) if cbots.BUILT_CANDIDATES is not None else (False,):
                with cbots.use(on), compiled.use(on):
                    for n in range(2, 8):
                        # as `replay simulate` makes each batch it commits: the collector paused until the
                        # batch is gone (no collection walks it), its games freed in the time measured
                        with gc_paused():
                            t = time.process_time()
                            games = [simulate_game(f"{bots[0]}-{n}-{i}", NAMES[:n], n * 100_000 + i, bots)
                                     for i in range(args.games)]
                            del games
                            rates[on][n - 2].append(args.games / (time.process_time() - t))
                        if bots == ("random",) and r == 0 and not on:  # the games to replay, made again untimed
                            archive.append_many([StreamAppend(f"{bots[0]}-{n}-{i}", NEW_STREAM, simulate_game(
                                f"{bots[0]}-{n}-{i}", NAMES[:n], n * 100_000 + i, bots)) for i in range(args.games)])
        for on, label in ((True, ""), (False, " pure")):
            if rates[on][0]:
                sim[bots[0] + label] = row = [statistics.median(v) for v in rates[on]]
                print(f"{'simulate ' + bots[0] + ' games/s' + label:<36}" + "".join(f"{v:12,.0f}" for v in row))
    for bot in ("random", "greedy"):
        if bot in sim and bot + " pure" in sim:
            ratios = [a / b for a, b in zip(sim[bot], sim[bot + " pure"])]
            print(f"{'simulate ' + bot + ': compiled/pure':<36}" + "".join(f"{v:12,.2f}" for v in ratios))
    if args.sim_only:
        shutil.rmtree(work)
        return
    compact(archive)

    # True: compiled kernel and column decoder; False: pure Python and pyarrow (REPLAY_PURE=1);
    # "decode": the compiled kernel with pyarrow's decoding (the code before the sixth pass)
    runs: dict[bool | str, list[dict[int, tuple[int, int, float, float]]]] = {True: [], False: [], "decode": []}
    trivial: dict[bool, list[dict[int, tuple[int, int, float, float]]]] = {True: [], False: []}
    for _ in range(args.rounds):
        for on in (False, True):
            with columns.use(on):
                trivial[on].append(timed_replays(archive, "7wonders-dice", None))
        for on in (False, "decode", True):
            with compiled.use(on is not False), columns.use(on is True), driver.use(on is not False):
                runs[on].append(timed_replays(archive, "7wonders-dice", fold))

    def median(on: bool | str, n: int, i: int) -> float:
        """The median over the rounds of events (i=2: over all the CPU time; i=3: over the fold's)."""
        return statistics.median(r[n][0] / r[n][i] for r in runs[on])

    counts = runs[False][0]
    print(f"compiled kernel: {'built' if compiled.BUILT_ACTION is not None else compiled.NOT_BUILT}")
    print(f"column decoder: {'built' if columns.BUILT is not None else columns.NOT_BUILT}")
    print(f"compiled bots: {'built' if cbots.BUILT_CANDIDATES is not None else cbots.NOT_BUILT}")
    paths: tuple[tuple[bool | str, str], ...] = ((True, "compiled"), ("decode", "kernel, pyarrow decoding"), (False, "pure"))
    for on, label in paths:
        if on is not False and compiled.BUILT_ACTION is None:
            continue
        print(f"{'replay events/s ' + label:<36}" + "".join(f"{median(on, n, 2):12,.0f}" for n in range(2, 8)))
        print(f"{'fold only events/s ' + label:<36}" + "".join(f"{median(on, n, 3):12,.0f}" for n in range(2, 8)))
        ms = [1000 * (counts[n][0] / counts[n][1]) / median(on, n, 2) for n in range(2, 8)]
        print(f"{'ms per game ' + label:<36}" + "".join(f"{v:12,.2f}" for v in ms))
    if compiled.BUILT_ACTION is not None:
        for label, i in (("replay: compiled/pure", 2), ("fold: compiled/pure", 3)):
            print(f"{label:<36}" + "".join(f"{median(True, n, i) / median(False, n, i):12,.2f}" for n in range(2, 8)))
        print(f"{'replay: compiled/pyarrow decoding':<36}"
              + "".join(f"{median(True, n, 2) / median('decode', n, 2):12,.2f}" for n in range(2, 8)))
    for on, label in ((True, "column decoder"), (False, "pyarrow")):
        rate = [statistics.median(r[n][0] / r[n][2] for r in trivial[on]) for n in range(2, 8)]
        print(f"{'baseline events/s ' + label:<36}" + "".join(f"{v:12,.0f}" for v in rate))
    print(f"{'events per game':<36}" + "".join(f"{counts[n][0] / counts[n][1]:12,.0f}" for n in range(2, 8)))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
