"""Seek benchmark: the state at any event of a 7-player 7 Wonders Dice game, from a warm archive.

    python bench/seek_bench.py               # 40 games
    python bench/seek_bench.py --games 10    # quick

Each game is opened once so that its index (positions, problems, a snapshot every
EVERY events) is cached under the archive: the archive is then warm. Measured, for
random events of every game, in one run:

* open + seek: what ``replay show GAME --at seq:N`` does in-process: look the game up in
  the manifest, load its cached index (and events), restore the nearest snapshot, replay on;
* seek in an open game: what ``replay step`` does on ``s N`` or ``p``;
* baseline: what the same costs without the index: read the game from the archive and
  replay it from the start to the same event.

Figures are reported by game length (events), so that growth with length shows.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.driver import Replay
from replay.games.wonders_dice import GAME
from replay.services.review import open_review
from replay.snapshots import EVERY

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def long_games(archive: Archive, rng: random.Random, seeks: int) -> None:
    """How seeking grows with length, beyond what 7 Wonders Dice reaches: Pig to ever higher targets."""
    from replay.games.pig import GAME as PIG

    print("\nGrowth with length (Pig, 2 players, targets raised to lengthen the games):")
    print(f"{'events':>8}{'seek p50':>10}{'p95':>8}{'straight p50':>14}{'p95':>8}")
    for target in (100, 1_000, 10_000):
        pack = PIG.pack().model_copy(update={"version": f"long-{target}", "target": target})
        events = PIG.bots.simulate(f"long-{target}", ["Ana", "Ben"], target, ("hold20",), pack)
        archive.append_many([StreamAppend(events[0].game_id, NEW_STREAM, events)], [pack])
        review = open_review(events[0].game_id, archive)
        seek, straight = [], []
        for _ in range(seeks):
            i = rng.randrange(len(events))
            t0 = time.perf_counter()
            review.state(i)
            t1 = time.perf_counter()
            r = Replay(PIG, archive.library(PIG.kind))
            for e in events[: i + 1]:
                r.push(e)
            t2 = time.perf_counter()
            seek.append(t1 - t0)
            straight.append(t2 - t1)
        print(f"{len(events):>8}{pct(seek, 0.5) * 1e3:>10.2f}{pct(seek, 0.95) * 1e3:>8.2f}"
              f"{pct(straight, 0.5) * 1e3:>14.2f}{pct(straight, 0.95) * 1e3:>8.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seeks", type=int, default=25, help="seeks per game")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="replay-seek-bench-"))
    try:
        archive = Archive.init(work / "archive")
        games = [GAME.bots.simulate(f"g{i}", NAMES, 500 + i, ("random", "greedy"), GAME.pack())
                 for i in range(args.games)]
        archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games])
        for g in games:  # warm: build and cache every game's index
            open_review(g[0].game_id, archive)
        rng = random.Random(1)
        rows: dict[str, dict[str, list[float]]] = {}
        library = archive.library(GAME.kind)
        for events in games:
            game_id = events[0].game_id
            bucket = f"{(len(events) // 100) * 100}-{(len(events) // 100) * 100 + 99}"
            times = rows.setdefault(bucket, {"open_seek": [], "seek": [], "straight": [], "events": []})
            times["events"].append(len(events))
            review = open_review(game_id, archive)
            for _ in range(args.seeks):
                i = rng.randrange(len(events))
                t0 = time.perf_counter()
                open_review(game_id, archive).state(i)
                t1 = time.perf_counter()
                review.state(i)
                t2 = time.perf_counter()
                r = Replay(GAME, library)
                for e in archive.read_game(game_id)[: i + 1]:
                    r.push(e)
                t3 = time.perf_counter()
                times["open_seek"].append(t1 - t0)
                times["seek"].append(t2 - t1)
                times["straight"].append(t3 - t2)
        print(f"7 players, {args.games} games, {args.seeks} random events each; a snapshot every {EVERY} events")
        print(f"{'game length':<14}{'games':>6}{'open+seek p50':>15}{'p95':>9}{'seek p50':>10}{'p95':>9}"
              f"{'baseline p50':>14}{'p95':>9}{'p95 ratio':>11}")
        everything: dict[str, list[float]] = {"open_seek": [], "seek": [], "straight": []}
        for bucket, t in sorted(rows.items()):
            for k in everything:
                everything[k] += t[k]
            print(f"{bucket:<14}{len(t['events']):>6}" + "".join(
                f"{pct(t[k], 0.5) * 1e3:>{w}.2f}{pct(t[k], 0.95) * 1e3:>9.2f}"
                for k, w in (("open_seek", 15), ("seek", 10), ("straight", 14)))
                + f"{pct(t['open_seek'], 0.95) / pct(t['straight'], 0.95):>11.2f}")
        print(f"{'all':<14}{args.games:>6}" + "".join(
            f"{pct(everything[k], 0.5) * 1e3:>{w}.2f}{pct(everything[k], 0.95) * 1e3:>9.2f}"
            for k, w in (("open_seek", 15), ("seek", 10), ("straight", 14)))
            + f"{pct(everything['open_seek'], 0.95) / pct(everything['straight'], 0.95):>11.2f}")
        print("(milliseconds; baseline: read the game and replay from the start; ratio: open+seek p95 over "
              "baseline p95, measured in this run)")
        long_games(archive, rng, args.seeks)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
