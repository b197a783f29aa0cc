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
from pathlib import Path

from replay.analytics.project import project
from replay.analytics.sql import connect, load_queries, run_named
from replay.archive import Archive
from replay.archive.compact import compact
from replay.cli.games_cmds import simulate_games
from replay.registry import registry

TABLES = ("events", "games", "players", "turn_states", "actions", "dice", "dice_faces")


def _simulate(args: tuple[str, int, int]) -> int:
    root, games, seed = args
    plugin = registry.get("7wonders-dice")
    return simulate_games(plugin, Archive(root), games, (2, 7), ("random",), seed)


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def best(fn, times: int = 3) -> float:
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
    result = project(archive, registry.get("7wonders-dice"), workers=args.workers)
    r["project_s"] = time.perf_counter() - t
    r["project_games_per_s"] = result.games / r["project_s"] if result.games else 0.0
    r["derived_bytes"] = du(root / "derived")
    r.update({f"rows_{k}": v for k, v in result.rows.items()})

    con = connect(archive)
    flat = connect(archive)
    for table in TABLES:
        flat.execute(f"CREATE TABLE flat_{table} AS SELECT * FROM {table}")
    queries = load_queries()
    print(f"{'query':<36}{'views ms':>10}{'flat ms':>10}{'ratio':>8}")
    for name, q in queries.items():
        sql = q.sql
        for table in TABLES:
            sql = sql.replace(f"FROM {table}", f"FROM flat_{table}").replace(f"JOIN {table}", f"JOIN flat_{table}")
        flat_query = q.__class__(q.name, q.question, q.columns, sql, q.params, q.path)
        t_view = best(lambda: run_named(con, q, {}))
        t_flat = best(lambda: run_named(flat, flat_query, {}))
        r[f"q_{name}_ms"] = t_view * 1000
        r[f"q_{name}_flat_ms"] = t_flat * 1000
        print(f"{name:<36}{t_view * 1000:>10.1f}{t_flat * 1000:>10.1f}{t_view / t_flat:>8.2f}")
    for k, v in r.items():
        if not k.startswith("q_"):
            print(f"{k:<36}{v:>16,.2f}" if isinstance(v, float) else f"{k:<36}{v:>16,}")
    if args.json:
        args.json.write_text(json.dumps(r, indent=2))
    if args.dir is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
