"""``replay project`` benchmark: where a projection's time goes, and how it scales with processes.

    python bench/project_bench.py --games 2000                 # 7 Wonders Dice, 2-7 players
    python bench/project_bench.py --kind flip7 --games 1000    # Flip 7, 3-8 players
    python bench/project_bench.py --dir /tmp/pb --games 2000   # keep (and reuse) the archive

Simulates N games (random bots) into a compacted archive once, then measures, in the same run
and on the same archive:

* ``read+decode``: every file read and decoded to event records (``iter_games``), nothing else;
* ``fold``: every game replayed through the rules with no observer (events in memory);
* ``fold+core``: with the core's observer (``games``/``players`` rows);
* ``derive``: with both observers (:func:`derive_records`: every derived row, as a dict or, where
  the game's observer gives them so, as a tuple in column order);
* ``derive+arrow``: and the rows turned into Arrow tables, as a worker hands them on;
* ``project -w 1`` and ``project -w 2``: the whole command (read, derive, write the parts),
  rebuilt from scratch each time, wall clock, and CPU time of every process.

``--ab-decoder`` and ``--ab-rows`` (7 Wonders Dice) also run the stages they touch and both projections
with the column decoder or the compiled rows switched off, alternated run by run (``--repeat`` pairs),
and print the medians: the code before and after a pass, in one run on the same archive.

``--ab-observer TREE`` (7 Wonders Dice) also times the game's observer of an exported older tree
(``git archive <commit> | tar -x -C TREE``) against the current one in this process, alternated
batch by batch on the same games (``--ab-rounds``, medians), and checks that both give the same
Arrow tables: a change of a few percent shows there, where runs minutes apart differ by more.

In-process stages are CPU time (``time.process_time``): this machine is shared, and wall clock
swings with the neighbours' load; the projections are wall clock (what a user waits) with the
CPU time of the main process and its workers beside it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from replay import columns
from replay.analytics.core import CoreRows
from replay.analytics.project import _tables, derive_records, project, tables_of
from replay.archive import Archive
from replay.archive.compact import compact
from replay.archive.scan import iter_games
from replay.driver import Replay
from replay.events import Event
from replay.games.wonders_dice import rows_compiled
from replay.gcpause import gc_paused
from replay.registry import registry
from replay.services.simulation import simulate_games

PLAYERS = {"7wonders-dice": (2, 7), "flip7": (3, 8), "pig": (2, 4)}


def _simulate(args: tuple[str, str, int, int]) -> int:
    root, kind, games, seed = args
    return simulate_games(registry.get(kind), Archive(root), games, PLAYERS[kind], ("random",), seed)


def build(root: Path, kind: str, games: int, workers: int) -> None:
    Archive.init(root)
    share = [games // workers + (1 if i < games % workers else 0) for i in range(workers)]
    with multiprocessing.Pool(workers) as pool:
        pool.map(_simulate, [(str(root), kind, n, 1000 + i) for i, n in enumerate(share)])
    compact(Archive(root))


def cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_project(root: Path, kind: str, workers: int) -> dict[str, float]:
    shutil.rmtree(root / "derived", ignore_errors=True)
    archive = Archive(root)
    cpu, children, wall = time.process_time(), cpu_children(), time.perf_counter()
    result = project(archive, [registry.get(kind)], workers=workers)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    children = cpu_children() - children
    return {"games": result.games, "wall_s": wall, "cpu_main_s": cpu, "cpu_workers_s": children,
            "games_per_s": result.games / wall}


def ab_observer(tree: Path, game: Any, library: Any, games: list[list[Event]], rounds: int) -> dict[str, float]:
    """CPU ms a game of derive (the fold, both observers) with the older tree's 7 Wonders Dice observer
    and with the current one, alternated (which goes first too) on the same games, and of the fold with
    the core observer alone: medians of ``rounds``. The same Arrow tables from both, or an error."""
    path = tree / "replay/games/wonders_dice/analytics.py"
    spec = importlib.util.spec_from_file_location("replay.games.wonders_dice.analytics_before", path)
    assert spec is not None and spec.loader is not None
    before = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(before)
    analytics = type(game.analytics)
    now = analytics.observer
    variants = {"before": lambda self, start: before._Rows(start), "now": now, "core": lambda self, start: None}
    times: dict[str, list[float]] = {k: [] for k in variants}
    try:
        for i in range(rounds):
            tables = {}
            for name in (("before", "now", "core") if i % 2 == 0 else ("now", "before", "core")):
                analytics.observer = variants[name]
                t = time.process_time()
                rows = {g[0].game_id: derive_records(game, g, library, True) for g in games}
                times[name].append(time.process_time() - t)
                if name != "core":
                    tables[name] = _tables(rows, tables_of(game), {})
                del rows
            if any(not tables["before"][t].equals(tables["now"][t]) for t in tables["now"]):
                raise SystemExit("the two observers gave different tables")
    finally:
        analytics.observer = now
    return {k: 1000 * statistics.median(v) / len(games) for k, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kind", default="7wonders-dice", choices=sorted(PLAYERS))
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--dir", type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--repeat", type=int, default=1, help="projections per worker count (the best is kept)")
    ap.add_argument("--ab-decoder", action="store_true",
                    help="also read and project with pyarrow's decoding (columns.use(False)), alternated, CPU medians")
    ap.add_argument("--ab-rows", action="store_true",
                    help="also derive and project with the 7 Wonders Dice rows in Python (rows_compiled.use(False)), "
                         "alternated, CPU medians")
    ap.add_argument("--ab-observer", type=Path, metavar="TREE",
                    help="also time an exported older tree's 7 Wonders Dice observer against this one, alternated")
    ap.add_argument("--ab-rounds", type=int, default=10, help="rounds of --ab-observer (300 games each)")
    args = ap.parse_args()
    ab: dict[str, list[float]] = {}
    # the switch an A/B run turns off (the forked workers inherit it), and what the "before" side is
    switch, before_label = ((columns.use, "pyarrow decoding") if args.ab_decoder
                            else (rows_compiled.use, "rows in Python") if args.ab_rows else (None, ""))
    work = args.dir or Path(tempfile.mkdtemp(prefix="replay-project-"))
    root = work / "archive"
    if not (root / "REPLAY_ARCHIVE").exists():
        build(root, args.kind, args.games, 2)
    archive = Archive(root)
    game = registry.get(args.kind)
    library = game.library(archive.packs)
    streams = {g: s for g, s in archive.snapshot().streams.items() if s.kind == game.kind}
    r: dict[str, Any] = {"kind": args.kind, "games": len(streams)}

    if args.ab_decoder:  # reading with pyarrow's decoding, alternated with the column decoder's below
        for _ in range(args.repeat):
            with columns.use(False):
                t = time.process_time()
                list(iter_games(archive, game, streams))
                ab.setdefault("read_decode_off_s", []).append(time.process_time() - t)
            t = time.process_time()
            list(iter_games(archive, game, streams))
            ab.setdefault("read_decode_s", []).append(time.process_time() - t)
    t = time.process_time()
    games = list(iter_games(archive, game, streams))
    r["read_decode_s"] = time.process_time() - t
    events = sum(len(g) for g in games)
    r["events"] = events

    t = time.process_time()
    for g in games:
        Replay(game, library).run(g).finish()
    r["fold_s"] = time.process_time() - t

    t = time.process_time()
    for g in games:
        replay: Replay[Any] = Replay(game, library)
        replay.observe(CoreRows(replay, True)).run(g).finish()
        replay.observers.clear()
    r["fold_core_s"] = time.process_time() - t

    with gc_paused():  # as a worker derives a chunk (else collections over the rows kept here dominate)
        for _ in range(args.repeat if args.ab_rows else 0):  # alternated with the compiled rows' below
            with rows_compiled.use(False):
                t = time.process_time()
                rows = {g[0].game_id: derive_records(game, g, library, True) for g in games}
                ab.setdefault("derive_off_s", []).append(time.process_time() - t)
            del rows
            t = time.process_time()
            rows = {g[0].game_id: derive_records(game, g, library, True) for g in games}
            ab.setdefault("derive_s", []).append(time.process_time() - t)
            del rows
        t = time.process_time()
        rows = {g[0].game_id: derive_records(game, g, library, True) for g in games}
        r["derive_s"] = time.process_time() - t
        t = time.process_time()
        ids = list(rows)
        for i in range(0, len(ids), 200):
            _tables({g: rows[g] for g in ids[i:i + 200]}, tables_of(game), {})
        r["arrow_s"] = time.process_time() - t
    r["derive_arrow_s"] = r["derive_s"] + r["arrow_s"]
    del rows
    if args.ab_observer:
        with gc_paused():
            r["ab_observer_ms"] = ab_observer(args.ab_observer, game, library, games[:300], args.ab_rounds)
    del games

    for workers in (1, 2):
        runs = []
        for _ in range(args.repeat):
            if switch is not None:  # the forked workers inherit the switch
                with switch(False):
                    before = timed_project(root, args.kind, workers)
                ab.setdefault(f"project_w{workers}_cpu_off_s", []).append(before["cpu_main_s"] + before["cpu_workers_s"])
                ab.setdefault(f"project_w{workers}_wall_off_s", []).append(before["wall_s"])
            runs.append(timed_project(root, args.kind, workers))
            ab.setdefault(f"project_w{workers}_cpu_s", []).append(runs[-1]["cpu_main_s"] + runs[-1]["cpu_workers_s"])
            ab.setdefault(f"project_w{workers}_wall_s", []).append(runs[-1]["wall_s"])
        best = min(runs, key=lambda x: x["wall_s"])
        r.update({f"project_w{workers}_{k}": v for k, v in best.items() if k != "games"})
    r["speedup_1_to_2"] = r["project_w1_wall_s"] / r["project_w2_wall_s"]
    # what two free cores would give: one process's wall clock against the busier of the two
    # processes' CPU (the workers share the work evenly; the main process only writes parts)
    w2_cpu = r["project_w2_cpu_main_s"] + r["project_w2_cpu_workers_s"]
    r["speedup_1_to_2_cpu"] = r["project_w1_cpu_main_s"] / max(w2_cpu / 2, r["project_w2_cpu_main_s"])

    n = r["games"]
    print(f"{args.kind}: {n:,} games, {events:,} events ({events / n:.0f} per game)")
    print(f"{'stage (one process, CPU time)':<34}{'s':>9}{'games/s':>10}{'ms/game':>9}")
    for key, label in (("read_decode_s", "read + decode"), ("fold_s", "fold (no observer)"),
                       ("fold_core_s", "fold + core observer"), ("derive_s", "fold + both observers"),
                       ("arrow_s", "rows -> Arrow"), ("derive_arrow_s", "derive + Arrow")):
        print(f"{label:<34}{r[key]:>9.2f}{n / r[key]:>10.0f}{1000 * r[key] / n:>9.2f}")
    for label, spent in (("- of which the core observer", r["fold_core_s"] - r["fold_s"]),
                         ("- of which the game observer", r["derive_s"] - r["fold_core_s"])):
        print(f"{label:<34}{spent:>9.2f}{'':>10}{1000 * spent / n:>9.2f}")
    print(f"{'project (wall clock)':<34}{'s':>9}{'games/s':>10}{'cpu main':>10}{'cpu workers':>12}")
    for w in (1, 2):
        print(f"{f'-w {w}':<34}{r[f'project_w{w}_wall_s']:>9.2f}{r[f'project_w{w}_games_per_s']:>10.0f}"
              f"{r[f'project_w{w}_cpu_main_s']:>10.2f}{r[f'project_w{w}_cpu_workers_s']:>12.2f}")
    print(f"speed-up from 1 to 2 processes: {r['speedup_1_to_2']:.2f}x wall clock; "
          f"{r['speedup_1_to_2_cpu']:.2f}x on two free cores (from the CPU times)")
    if switch is not None:
        print(f"A/B, CPU seconds (all processes) and wall clock, {before_label} -> now, medians of", args.repeat)
        for key in ("read_decode" if args.ab_decoder else "derive", "project_w1_cpu", "project_w2_cpu",
                    "project_w1_wall", "project_w2_wall"):
            a = statistics.median(ab[f"{key}_off_s"])
            b = statistics.median(ab[f"{key}_s"])
            print(f"{key:<34}{a:>9.2f} ->{b:>7.2f}  x{a / b:.2f}  ({1000 * a / n:.2f} -> {1000 * b / n:.2f} ms/game)")
        r["ab"] = ab
    if args.ab_observer:
        ms = r["ab_observer_ms"]
        game_before, game_now = ms["before"] - ms["core"], ms["now"] - ms["core"]
        print(f"A/B, the game observer, CPU ms a game (medians of {args.ab_rounds}, alternated): before {game_before:.3f}, "
              f"now {game_now:.3f} (x{game_before / game_now:.2f}); derive {ms['before']:.3f} -> {ms['now']:.3f} "
              f"(x{ms['before'] / ms['now']:.2f}); the same tables")
    if args.json:
        args.json.write_text(json.dumps(r, indent=2))
    if args.dir is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
