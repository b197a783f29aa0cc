"""Instructions a 7 Wonders Dice game costs, counted by valgrind's callgrind: a measure the neighbours'
load does not move, for comparing two trees on a busy machine.

    python bench/instructions.py                        # fold, derive and simulate, this environment
    python bench/instructions.py --work simulate --players 4 --games 100
    python bench/instructions.py --python /tmp/before-venv/bin/python   # another tree's environment

Each workload runs twice under callgrind in separate processes, once doing its work once and once
doing it twice (after the same set-up and warm-up): the difference is the work alone, without the
interpreter's start, the imports or the set-up. ``PYTHONHASHSEED`` is fixed (0) so that dict and set
layouts, and with them the counts, repeat: identical runs agree to a few thousandths; another hash seed
moves a count by up to 5%. ``OPENBLAS_NUM_THREADS`` is 1: numpy's thread pool (pyarrow imports numpy) spins
while it waits, and under valgrind that spinning was counted, up to 15% of a workload, differing run to run.
The games are simulated in the measured environment with a fixed seed (the
simulation's output is pinned, so two trees fold the same games); ``--python`` names the interpreter
of another environment (say, an older tree installed into its own virtual environment with its
extensions built), so that the same command measures both.

Workloads: ``fold`` (every event replayed with its checks, no observer, the events in memory),
``derive`` (the fold and both observers: every derived row, as ``replay project`` makes them) and
``simulate`` (random bots, ``--players`` seats), the three run unless named; and, named with ``--work``,
``import`` (simulated games of 2-4 players appended to an archive: chained, encoded, written to Parquet,
committed), ``pipeline`` (``replay simulate``'s work in one process: the games and the archive) and ``project``
(``replay project --rebuild`` in one process over simulated games of 2-7 players: read, derived, turned into
Arrow tables, the parts written) and ``replay`` (the games ``fold`` replays, read back from an archive first:
``replay`` less ``fold`` is reading and decoding). Under
valgrind the chain hashes with the portable SHA-256 rounds (its processor has no SHA instructions), so
the last column leaves those rounds out: what a processor with SHA instructions runs is nearer to it.
Needs ``valgrind``; slow (about 50 times the uninstrumented run): keep ``--games`` small.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

WORKS = ("fold", "derive", "simulate", "import", "pipeline", "project", "replay")
NAMES = ["ann", "bob", "cy", "di", "ed", "flo", "gus"]


def inner(work: str, games: int, players: int, reps: int) -> None:
    """The measured process: set up, warm up, then do ``work`` ``reps`` times."""
    from replay.analytics.project import derive_records
    from replay.driver import Replay
    from replay.games.wonders_dice import GAME, simulate_game

    gc.disable()
    if work in ("import", "pipeline", "project", "replay"):
        archived(work, games, reps)
        return
    if work == "simulate":
        for i in range(5):
            simulate_game(f"w{i}", NAMES[:players], i, ("random",))
        for _ in range(reps):
            for i in range(games):
                simulate_game(f"g{i}", NAMES[:players], 1_000 + i, ("random",))
        return
    logs = [simulate_game(f"g{i}", NAMES[:2 + i % 6], 1_000 + i, ("random",)) for i in range(games)]
    library = GAME.library()
    for events in logs[:5]:  # warm-up: the caches every run fills alike
        Replay(GAME, library).run(events)
    for _ in range(reps):
        for events in logs:
            if work == "fold":
                Replay(GAME, library, level="collect").run(events)
            else:
                derive_records(GAME, events, library, True)


def archived(work: str, games: int, reps: int) -> None:
    """``import``: simulated games of 2-4 players appended to new archives in batches of 100 (chained, encoded,
    written, committed); ``pipeline``: :func:`simulate_games` into a new archive (one process), the games and
    the archive both; ``project``: every game of an archive projected again, one process; ``replay``: an archive's
    events read and every game replayed with its checks (``fold``'s games)."""
    from replay.archive import NEW_STREAM, Archive, StreamAppend
    from replay.games.wonders_dice import GAME, simulate_game
    from replay.services.simulation import simulate_games

    with tempfile.TemporaryDirectory(prefix="replay-instructions-archive-") as tmp:
        if work == "project":
            from replay.analytics.project import project

            archive = Archive.init(Path(tmp) / "a")
            simulate_games(GAME, archive, games, (2, 7), ("random",), 1)
            project(archive, [GAME], rebuild=True)  # warm-up
            for _ in range(reps):
                project(archive, [GAME], rebuild=True)
            return
        if work == "replay":
            from replay.driver import Replay

            archive = Archive.init(Path(tmp) / "a")
            logs = [simulate_game(f"g{i:06d}", NAMES[:2 + i % 6], 1_000 + i, ("random",)) for i in range(games)]
            archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in logs])
            library = GAME.library()
            for _ in range(1 + reps):  # the first a warm-up
                read: dict[str, list[Any]] = {}
                for event in archive.iter_events(GAME.kind):
                    read.setdefault(event.game_id, []).append(event)
                for events in read.values():
                    Replay(GAME, library, level="collect").run(events)
            return
        if work == "pipeline":
            simulate_games(GAME, Archive.init(Path(tmp) / "warm"), 5, (2, 4), ("random",), 9)
            for rep in range(reps):
                simulate_games(GAME, Archive.init(Path(tmp) / str(rep)), games, (2, 4), ("random",), 1)
            return
        logs = [simulate_game(f"g{i:06d}", NAMES[:2 + i % 3], 1_000 + i, ("random",)) for i in range(games)]
        Archive.init(Path(tmp) / "warm").append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in logs[:5]])
        for rep in range(reps):
            archive = Archive.init(Path(tmp) / str(rep))
            for start in range(0, games, 100):
                archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in logs[start:start + 100]])


def portable_sha(out: Path) -> int:
    """The instructions of the portable SHA-256 rounds in a callgrind file (0 if none): valgrind's processor has
    no SHA instructions, so the chain hashes there with the rounds a processor without them uses."""
    done = subprocess.run(["callgrind_annotate", str(out)], capture_output=True, text=True)
    found = re.search(r"^\s*([\d,]+)\s.*:rounds_portable\b", done.stdout, re.M)
    return int(found.group(1).replace(",", "")) if found else 0


def counted(python: str, work: str, games: int, players: int, reps: int, folder: Path) -> tuple[int, int]:
    """Instructions of one measured process (callgrind's total), and of them the portable SHA rounds'."""
    out = folder / f"{work}.{reps}.out"
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, __file__,
               "--inner", work, "--games", str(games), "--players", str(players), "--reps", str(reps)]
    # one OpenBLAS thread: numpy (which pyarrow imports) otherwise starts a pool whose threads spin while they
    # wait, and valgrind, running one thread at a time, counts a varying share of their spinning (up to 15%)
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    found = re.search(r"Collected\s*:\s*([\d,]+)", done.stderr) or re.search(r"I\s+refs:\s*([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"the measured run failed ({' '.join(command)}):\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), portable_sha(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", choices=WORKS, action="append", help="workloads (all three unless named)")
    ap.add_argument("--games", type=int, default=60, help="games a workload does once (default 60)")
    ap.add_argument("--players", type=int, default=4, help="seats of a simulated game (default 4)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter of the environment to measure")
    ap.add_argument("--inner", choices=WORKS, help=argparse.SUPPRESS)
    ap.add_argument("--reps", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        inner(args.inner, args.games, args.players, args.reps)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind): it counts the instructions")
    print(f"{'work':<10}{'games':>7}{'M instructions a game':>24}{'without portable SHA':>22}   ({args.python})")
    with tempfile.TemporaryDirectory(prefix="replay-instructions-") as tmp, ThreadPoolExecutor(2) as pool:
        for work in args.work or WORKS[:3]:
            runs = [pool.submit(counted, args.python, work, args.games, args.players, reps, Path(tmp)) for reps in (1, 2)]
            (once, sha_once), (twice, sha_twice) = (run.result() for run in runs)
            label = f"{work} {args.players}p" if work == "simulate" else work
            each = (twice - once) / args.games / 1e6
            print(f"{label:<10}{args.games:>7}{each:>24.3f}{each - (sha_twice - sha_once) / args.games / 1e6:>22.3f}",
                  flush=True)


if __name__ == "__main__":
    main()
