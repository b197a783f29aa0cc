"""``replay project``'s derive + Arrow stage, before and now, in one process, alternated.

    python bench/project_ab.py --before <exported tree> --archive /tmp/pb/archive --games 600 --rounds 4

On a shared machine the wall clock (and even the CPU time) of two runs minutes apart measures
the neighbours as much as the code. This loads the 7 Wonders Dice observer and the projection's
row-to-Arrow code of an exported older tree (``git archive <commit> | tar -x -C <dir>``) beside
the current ones, and times both on the same games chunk by chunk (200 games, as a worker),
alternating which goes first: the ratio of the medians is what the change is worth. The fold
(the rules' replay) is the same code in both, so it is in both times.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import replay.analytics.project as now_project
from replay.analytics.core import CoreRows
from replay.archive import Archive
from replay.archive.scan import iter_games
from replay.driver import Replay
from replay.events import Event
from replay.games.wonders_dice import GAME as WD
from replay.gcpause import gc_paused


def load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True, help="an exported tree of the older code")
    ap.add_argument("--archive", type=Path, required=True, help="an archive of 7 Wonders Dice games (project_bench --dir)")
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    old_analytics = load("replay.games.wonders_dice.analytics_before", args.before / "replay/games/wonders_dice/analytics.py")
    old_project = load("replay.analytics.project_before", args.before / "replay/analytics/project.py")
    archive = Archive(args.archive)
    library = WD.library(archive.packs)
    streams = {g: s for g, s in archive.snapshot().streams.items() if s.kind == WD.kind}
    games = list(iter_games(archive, WD, streams))[: args.games]

    def old_rows(events: list[Event]) -> dict[str, Any]:
        replay: Replay[Any] = Replay(WD, library)
        core, own = CoreRows(replay, True), old_analytics._Rows(events[0])
        replay.observe(core, own).run(events).finish()
        replay.observers.clear()
        return {**core.out, **{f"wonders_dice.{t}": r for t, r in own.rows().items()}}

    def before(chunk: list[list[Event]]) -> float:
        rows = {g[0].game_id: old_rows(g) for g in chunk}
        t = time.process_time()
        old_project._tables(rows, old_project.tables_of(WD), {})
        return time.process_time() - t

    def now(chunk: list[list[Event]]) -> float:
        rows = {g[0].game_id: now_project.derive_records(WD, g, library, True) for g in chunk}
        t = time.process_time()
        now_project._tables(rows, now_project.tables_of(WD), {})
        return time.process_time() - t

    total: dict[str, list[float]] = {"before": [], "now": []}
    arrow: dict[str, list[float]] = {"before": [], "now": []}
    with gc_paused():  # as a worker derives a chunk
        for rnd in range(args.rounds):
            for i in range(0, len(games), 200):
                chunk = games[i:i + 200]
                order = [("before", before), ("now", now)]
                if (rnd + i // 200) % 2:
                    order.reverse()
                for key, run in order:
                    t = time.process_time()
                    spent = run(chunk)
                    total[key].append((time.process_time() - t) / len(chunk))
                    arrow[key].append(spent / len(chunk))
    m = {k: 1000 * statistics.median(v) for k, v in total.items()}
    a = {k: 1000 * statistics.median(v) for k, v in arrow.items()}
    print(f"7 Wonders Dice, {len(games)} games, {len(total['now'])} chunks each, CPU ms a game (medians)")
    print(f"derive + Arrow: before {m['before']:.2f}, now {m['now']:.2f} ({m['before'] / m['now']:.2f}x)")
    print(f"  of which rows -> Arrow: before {a['before']:.2f}, now {a['now']:.2f}")
    print(f"  so derive: before {m['before'] - a['before']:.2f}, now {m['now'] - a['now']:.2f}")


if __name__ == "__main__":
    main()
