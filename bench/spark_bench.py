"""``replay project``: the local engine (2 worker processes) against Spark in local mode, same archive.

    python bench/spark_bench.py --games 2000 --dir /tmp/sb            # 7 Wonders Dice, keep the archive
    python bench/spark_bench.py --kind flip7 --games 1000 --master 'local[2]'

Builds (or reuses, with ``--dir``) a compacted archive of N games (``project_bench.build``), then,
in one run, alternating, ``--rounds`` times each from scratch (derived tables removed):

* ``local``: ``project(..., workers=2)``;
* ``spark``: ``project_spark`` on one Spark session (``--master``, default ``local[2]``). The
  session's start and the first job's warm-up (the JVM's, the Python workers' imports) are timed
  apart, once: ``spark cold`` is the first projection in a new session, the rest are warm.

Reported per engine: wall clock, games/s, and CPU seconds of every process that did the work:
for the local engine this process and its (waited-for) workers; for Spark, the JVM and its Python
workers too, read from ``/proc`` (they are not this process's waited-for children), so the figure
covers what a cluster would bill. Per-game cost is CPU seconds / games. The machine is shared:
compare the engines' ratios within a run, not figures across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from project_bench import PLAYERS, build

from replay.analytics.project import project
from replay.archive import Archive
from replay.registry import registry
from replay.spark.project import project_spark
from replay.spark.session import SparkSettings, session

TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu(root_pid: int, descendants_only: bool = False) -> float:
    """CPU seconds (user + system) of ``root_pid`` and every live descendant (or the descendants
    only: Spark's Python workers), from /proc."""
    stats: dict[int, tuple[int, float]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            text = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        rest = text[text.rfind(")") + 2:].split()
        stats[int(name)] = (int(rest[1]), (int(rest[11]) + int(rest[12])) / TICK)
    tree, grown = {root_pid}, True
    while grown:
        grown = False
        for pid, (ppid, _) in stats.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                grown = True
    if descendants_only:
        tree.discard(root_pid)
    return sum(stats[p][1] for p in tree if p in stats)


def own_cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_local(root: Path, kind: str) -> dict[str, float]:
    shutil.rmtree(root / "derived", ignore_errors=True)
    cpu, wall = own_cpu(), time.perf_counter()
    result = project(Archive(root), [registry.get(kind)], workers=2)
    return {"games": result.games, "wall_s": time.perf_counter() - wall, "cpu_s": own_cpu() - cpu}


def run_spark(root: Path, kind: str, spark: Any, jvm_pid: int) -> dict[str, float]:
    shutil.rmtree(root / "derived", ignore_errors=True)
    cpu, jvm, python, wall = own_cpu(), tree_cpu(jvm_pid), tree_cpu(jvm_pid, True), time.perf_counter()
    result = project_spark(Archive(root), spark, [registry.get(kind)])
    wall = time.perf_counter() - wall
    workers = tree_cpu(jvm_pid, True) - python
    jvm = tree_cpu(jvm_pid) - jvm - workers
    return {"games": result.games, "wall_s": wall, "cpu_s": own_cpu() - cpu + jvm + workers, "cpu_jvm_s": jvm,
            "cpu_python_workers_s": workers}


def summary(runs: list[dict[str, float]]) -> dict[str, float]:
    games = runs[0]["games"]
    wall = statistics.median(r["wall_s"] for r in runs)
    cpu = statistics.median(r["cpu_s"] for r in runs)
    out = {"games": games, "wall_s": round(wall, 2), "games_per_s": round(games / wall, 1), "cpu_s": round(cpu, 2),
           "cpu_ms_per_game": round(1000 * cpu / games, 2)}
    for key in ("cpu_jvm_s", "cpu_python_workers_s"):
        if key in runs[0]:
            out[key] = round(statistics.median(r[key] for r in runs), 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kind", default="7wonders-dice", choices=sorted(PLAYERS))
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--dir", type=Path)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE", help="a Spark setting (repeatable)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    work = args.dir or Path(tempfile.mkdtemp(prefix="replay-spark-"))
    root = work / "archive"
    if not (root / "REPLAY_ARCHIVE").exists():
        build(root, args.kind, args.games, 2)
    out: dict[str, Any] = {"kind": args.kind, "games": args.games, "master": args.master}

    wall, cpu = time.perf_counter(), own_cpu()
    spark = session(SparkSettings(master=args.master, conf=dict(c.split("=", 1) for c in args.conf)))
    gateway: Any = spark.sparkContext._gateway
    jvm_pid = gateway.proc.pid  # the JVM that pyspark launched
    out["spark_start"] = {"wall_s": round(time.perf_counter() - wall, 2),
                          "cpu_s": round(own_cpu() - cpu + tree_cpu(jvm_pid), 2)}
    out["spark_cold"] = summary([run_spark(root, args.kind, spark, jvm_pid)])
    local: list[dict[str, float]] = []
    warm: list[dict[str, float]] = []
    for _ in range(args.rounds):
        local.append(run_local(root, args.kind))
        warm.append(run_spark(root, args.kind, spark, jvm_pid))
    out["local_w2"] = summary(local)
    out["spark_warm"] = summary(warm)
    out["spark_over_local"] = {"wall": round(out["spark_warm"]["wall_s"] / out["local_w2"]["wall_s"], 2),
                               "cpu": round(out["spark_warm"]["cpu_s"] / out["local_w2"]["cpu_s"], 2)}
    spark.stop()
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
