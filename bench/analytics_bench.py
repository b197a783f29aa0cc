"""Analytics benchmark: simulate, project, and time every named query.

    python bench/analytics_bench.py --games 100000     # the issue's scale (about half an hour here)
    python bench/analytics_bench.py --games 5000       # quick

Steps, each timed: simulate N 7 Wonders Dice games (random bots, 2-7 players; two
processes append to the one archive concurrently), compact, project the derived
tables, then run every named query three times (best time) over the archive's views,
and the same SQL over pre-flattened tables (the views copied into DuckDB's own
in-memory tables in the same run): the ratio is what reading Parquet through views
costs against already-flat data.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from replay.analytics.named import NamedQuery
from replay.analytics.project import project
from replay.analytics.sql import all_queries, connect, run_named
from replay.archive import Archive
from replay.archive.compact import compact
from replay.registry import registry
from replay.services.simulation import simulate_games

TABLES = ("wonders_dice.events", "games", "players", "wonders_dice.players", "wonders_dice.turn_states",
          "wonders_dice.actions", "wonders_dice.dice", "wonders_dice.dice_faces")
"""Every view the 7 Wonders Dice queries read (longest names first would matter; none is a prefix of another)."""


def _simulate(args: tuple[str, int, int]) -> int:
    root, games, seed = args
    return simulate_games(registry.get("7wonders-dice"), Archive(root), games, (2, 7), ("random",), seed)


def flat_name(view: str) -> str:
    return "flat_" + view.replace(".", "_")


def flattened(q: NamedQuery) -> NamedQuery:
    """The same query over the in-memory copies of the views."""
    sql = q.sql
    for view in TABLES:
        sql = sql.replace(f"FROM {view}", f"FROM {flat_name(view)}").replace(f"JOIN {view}", f"JOIN {flat_name(view)}")
    return NamedQuery(q.name, q.question, q.columns, sql, q.params, q.path, q.kind)


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def best(fn: Callable[[], Any], times: int = 3) -> float:
    out = []
    for _ in range(times):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dir", type=Path)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    work = args.dir or Path(tempfile.mkdtemp(prefix="replay-analytics-"))
    root = work / "archive"
    r: dict[str, float] = {"games": args.games}
    if not (root / "REPLAY_ARCHIVE").exists():
        Archive.init(root)
        share = [args.games // args.workers + (1 if i < args.games % args.workers else 0) for i in range(args.workers)]
        t = time.perf_counter()
        with multiprocessing.Pool(args.workers) as pool:
            events = sum(pool.map(_simulate, [(str(root), n, 1000 + i) for i, n in enumerate(share)]))
        r["simulate_s"] = time.perf_counter() - t
        r["events"] = events
        t = time.perf_counter()
        compact(Archive(root))
        r["compact_s"] = time.perf_counter() - t
    archive = Archive(root)
    r["archive_bytes"] = du(root / "data")
    t = time.perf_counter()
    result = project(archive, [registry.get("7wonders-dice")], workers=args.workers)
    r["project_s"] = time.perf_counter() - t
    r["project_games_per_s"] = result.games / r["project_s"] if result.games else 0.0
    r["derived_bytes"] = du(root / "derived")
    r.update({f"rows_{k}": v for k, v in result.rows.items()})

    con = connect(archive)
    flat = connect(archive)
    for view in TABLES:
        flat.execute(f"CREATE TABLE {flat_name(view)} AS SELECT * FROM {view}")
    queries = {n: q for n, q in all_queries(registry).items() if q.kind in ("7wonders-dice", "")}
    print(f"{'query':<46}{'views ms':>10}{'flat ms':>10}{'ratio':>8}")
    for name, q in queries.items():
        t_view = best(lambda q=q: run_named(con, q, {}))
        t_flat = best(lambda q=q: run_named(flat, flattened(q), {}))
        r[f"q_{name}_ms"] = t_view * 1000
        r[f"q_{name}_flat_ms"] = t_flat * 1000
        print(f"{name:<46}{t_view * 1000:>10.1f}{t_flat * 1000:>10.1f}{t_view / t_flat:>8.2f}")
    for k, v in r.items():
        if not k.startswith("q_"):
            print(f"{k:<36}{v:>16,.2f}" if isinstance(v, float) else f"{k:<36}{v:>16,}")
    if args.json:
        args.json.write_text(json.dumps(r, indent=2))
    if args.dir is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
