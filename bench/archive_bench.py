"""Archive benchmark: import, append, scan, lookup, compaction, size.

Every figure is reported beside a baseline measured in the same run on the same
data, so the ratio means something on any machine:

* bulk import  vs  pyarrow writing the same Arrow table to one Parquet file;
* per-game append (fsync)  vs  writing and fsyncing one tiny Parquet file per game;
* full scan to event records  vs  pyarrow reading the same files into Arrow;
* one-game lookup before and after compaction  vs  a full scan;
* import of JSON Lines (``replay import``'s path: each line parsed and validated, then the bulk import)  vs
  orjson reading the same lines.

    python bench/archive_bench.py                # 100,000 games of ~200 events (a few minutes)
    python bench/archive_bench.py --games 2000   # a quick run
    python bench/archive_bench.py --games 4000 --import-only   # the bulk import figures alone
    python bench/archive_bench.py --games 4000 --import-only --compare   # and the pure-Python path, batch for batch

Games are synthetic Pig games (target 200, so about 200 events each) generated
straight as event records: generating them is not what is measured.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import orjson
import pyarrow.parquet as pq

from replay import chain_compiled
from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.archive.compact import compact
from replay.archive.store import read_parquet
from replay.chain import chain, chain_words, words_to_array
from replay.events import Event
from replay.games.pig.rules import standard_ruleset
from replay.jsonl import dump_line, import_lines
from replay.registry import registry
from replay.schema import encode

TARGET = 200


def synthetic_game(game_id: str, seed: int) -> list[Event]:
    """A legal Pig game to 200 points, built as records directly (fast, deterministic)."""
    rng = random.Random(seed)
    pin = standard_ruleset().pin.model_dump()
    players = 2 + seed % 3
    seats = [{"seat": i, "name": f"P{i}"} for i in range(players)]
    ev = [Event(game_id, 0, "pig", "game_started", 1, {
        "ruleset": pin, "seats": seats, "provenance": {"source": "simulated", "detail": f"bench {seed}"}, "target": TARGET})]
    scores = [0] * players
    p = 0
    while True:
        total = 0
        while True:
            face = rng.randint(1, 6)
            ev.append(Event(game_id, len(ev), "pig", "die_rolled", 2, {"player": p, "face": face}))
            if face == 1:
                break
            total += face
            if total >= 25 or scores[p] + total >= TARGET:
                ev.append(Event(game_id, len(ev), "pig", "held", 1, {"player": p, "banked": total}))
                scores[p] += total
                break
        if scores[p] >= TARGET:
            ev.append(Event(game_id, len(ev), "pig", "game_ended", 1, {"scores": scores, "winners": [p]}))
            return ev
        p = (p + 1) % players


def data_digest(archive: Archive) -> str:
    """sha256 over the data files' sha256s in path order: the same archive bytes give the same digest."""
    files = sorted(archive.snapshot().files)
    digests = "".join(hashlib.sha256(archive.path_of(p).read_bytes()).hexdigest() for p in files)
    return hashlib.sha256(digests.encode()).hexdigest()


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def lookup_latency(archive: Archive, game_ids: list[str], samples: int = 200) -> tuple[float, float]:
    rng = random.Random(1)
    picks = [rng.choice(game_ids) for _ in range(samples)]
    times = []
    for g in picks:
        t = time.perf_counter()
        archive.read_game(g)
        times.append(time.perf_counter() - t)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)]


def scan(archive: Archive) -> tuple[int, float, float]:
    """(events, seconds decoding to records, seconds reading Arrow only) over the same files."""
    def records():
        return sum(1 for _ in archive.iter_events())

    def arrow_only():
        return sum(read_parquet(archive.path_of(p)).num_rows for p in sorted(archive.snapshot().files))

    n, t_rec = timed(records)
    _, t_arrow = timed(arrow_only)
    return n, t_rec, t_arrow


def jsonl_import(root: Path, events: list[Event]) -> tuple[float, float]:
    """Events/s of ``replay import``'s path for the events as a file's JSON lines (each line parsed, its envelope
    and payload checked against the game's models, then the bulk import), and of its baseline, orjson reading
    the same lines and nothing else."""
    lines = [dump_line(e) for e in events]
    _, t_read = timed(lambda: [orjson.loads(line) for line in lines])
    _, t_import = timed(lambda: import_lines(Archive.init(root), lines, source="sample.jsonl"))
    shutil.rmtree(root)
    return len(lines) / t_read, len(lines) / t_import


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--batch", type=int, default=1_000, help="games per bulk-import commit")
    ap.add_argument("--tiny", type=int, default=10_000, help="games appended one commit each")
    ap.add_argument("--dir", type=Path, default=None, help="work directory (default: a temporary one)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument("--import-only", action="store_true", help="stop after the baselines and the bulk import")
    ap.add_argument("--compare", action="store_true",
                    help="also import every batch by the pure-Python path (no compiled chain), alternating, and compare")
    args = ap.parse_args()
    work = args.dir or Path(tempfile.mkdtemp(prefix="replay-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    plugin = registry.get("pig")
    r: dict[str, float | str] = {"games": args.games}

    # --- baseline: pyarrow writes one Arrow table to one file ------------------------------
    games_sample = [synthetic_game(f"s{i:06d}", i) for i in range(2_000)]
    sample = [e for g in games_sample for e in g]
    # As bulk import chains: a game at a time, links kept as 8-byte words, handed to Arrow as one buffer.
    hashes, t = timed(lambda: words_to_array(b"".join(chain_words(g) for g in games_sample)))
    r["hash_chain_events_per_s"] = len(sample) / t
    table = encode(sample, plugin, hashes)
    _, t = timed(lambda: pq.write_table(table, io.BytesIO(), compression="zstd"))
    r["baseline_arrow_write_events_per_s"] = table.num_rows / t
    _, t = timed(lambda: encode(sample, plugin, hashes))
    r["encode_records_events_per_s"] = len(sample) / t

    # --- bulk import: 100k games in commits of --batch games -------------------------------
    # With --compare, each batch is also imported by the pure-Python path (REPLAY_PURE's) into a second
    # archive, alternating which goes first: the two paths' figures come from the same run, batch for batch.
    # The process's first Arrow conversion imports what pyarrow imports lazily (pandas, where installed:
    # ~0.26 s, once): a cost of starting a process, not of importing events, so it is paid before the clock.
    warm = Archive.init(work / "warm-up")
    _, r["warm_up_s"] = timed(lambda: warm.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games_sample[:2]]))
    big = Archive.init(work / "bulk")
    pure = Archive.init(work / "bulk-pure") if args.compare else None
    events_total, t_import, t_gen, cpu_import, t_pure, cpu_pure = 0, 0.0, 0.0, 0.0, 0.0, 0.0
    ids = []
    for start in range(0, args.games, args.batch):
        t0 = time.perf_counter()
        games = [synthetic_game(f"g{i:07d}", i) for i in range(start, min(start + args.batch, args.games))]
        t1 = time.perf_counter()
        for compiled in ((True, False) if (start // args.batch) % 2 else (False, True)) if pure else (None,):
            with chain_compiled.use(bool(compiled)) if compiled is not None else contextlib.nullcontext():
                target = big if compiled is not False else pure
                assert target is not None
                w, c = time.perf_counter(), time.process_time()
                target.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games])
                w, c = time.perf_counter() - w, time.process_time() - c
            if compiled is False:
                t_pure, cpu_pure = t_pure + w, cpu_pure + c
            else:
                t_import, cpu_import = t_import + w, cpu_import + c
        t_gen += t1 - t0
        events_total += sum(len(g) for g in games)
        ids.extend(g[0].game_id for g in games)
    r["events"] = events_total
    r["events_per_game"] = events_total / args.games
    r["compiled_chain"] = int(chain_compiled.active())
    r["bulk_import_events_per_s"] = events_total / t_import
    # CPU time of this process alone (not of a worker process hashing links): less sensitive to a shared machine
    r["bulk_import_events_per_cpu_s"] = events_total / cpu_import
    r["bulk_files"] = len(big.snapshot().files)
    r["bulk_bytes"] = du(big.root)
    r["bulk_data_sha256"] = data_digest(big)
    if pure is not None:
        r["pure_bulk_import_events_per_s"] = events_total / t_pure
        r["pure_bulk_import_events_per_cpu_s"] = events_total / cpu_pure
        r["pure_bulk_bytes"] = du(pure.root)
        r["pure_bulk_data_sha256"] = data_digest(pure)
        r["compiled_over_pure_cpu"] = cpu_pure / cpu_import
        r["compiled_over_pure_wall"] = t_pure / t_import
        shutil.rmtree(pure.root)
    jsonl_sample = [e for g in games_sample[:args.games] for e in g]  # up to the 2,000 games of the baselines
    r["baseline_jsonl_read_events_per_s"], r["jsonl_import_events_per_s"] = jsonl_import(work / "jsonl", jsonl_sample)
    if args.import_only:
        report(r, args)
        if args.dir is None:
            shutil.rmtree(work)
        return

    n, t_rec, t_arrow = scan(big)
    r["scan_records_events_per_s"] = n / t_rec
    r["scan_arrow_events_per_s"] = n / t_arrow
    _, t_open = timed(lambda: Archive(big.root).snapshot())
    r["open_manifest_s"] = t_open
    r["lookup_before_median_ms"], r["lookup_before_p95_ms"] = (x * 1000 for x in lookup_latency(big, ids))

    _, t_compact = timed(lambda: compact(big))
    r["compact_s"] = t_compact
    r["compacted_files"] = len(big.snapshot().files)
    r["compacted_bytes"] = du(big.root)
    r["lookup_after_median_ms"], r["lookup_after_p95_ms"] = (x * 1000 for x in lookup_latency(big, ids))
    n, t_rec, t_arrow = scan(big)
    r["scan_compacted_records_events_per_s"] = n / t_rec
    r["scan_compacted_arrow_events_per_s"] = n / t_arrow
    shutil.rmtree(big.root)

    # --- per-game appends (fsync), and tiny files vs compacted for a scan -------------------
    tiny_games = [synthetic_game(f"t{i:06d}", i) for i in range(args.tiny)]
    raw_dir = work / "raw-tiny"
    raw_dir.mkdir()

    def raw_tiny():
        for i, g in enumerate(tiny_games[:2000]):
            buf = io.BytesIO()
            pq.write_table(encode(g, plugin, chain(g)), buf, compression="snappy")
            fd = os.open(raw_dir / f"{i}.parquet", os.O_WRONLY | os.O_CREAT | os.O_EXCL)
            os.write(fd, buf.getvalue())
            os.fsync(fd)
            os.close(fd)

    _, t = timed(raw_tiny)
    r["baseline_tiny_files_per_s"] = 2000 / t
    tiny = Archive.init(work / "tiny")

    def appends():
        for g in tiny_games:
            tiny.append(g[0].game_id, g, NEW_STREAM)

    _, t = timed(appends)
    r["append_games_per_s"] = args.tiny / t
    n, t_rec, t_arrow = scan(tiny)
    r["tiny_scan_records_events_per_s"] = n / t_rec
    r["tiny_scan_arrow_events_per_s"] = n / t_arrow
    compact(tiny)
    n, t_rec2, t_arrow2 = scan(tiny)
    r["tiny_compacted_scan_records_events_per_s"] = n / t_rec2
    r["tiny_compacted_scan_arrow_events_per_s"] = n / t_arrow2
    r["tiny_scan_slowdown_records"] = t_rec / t_rec2
    r["tiny_scan_slowdown_arrow"] = t_arrow / t_arrow2
    if args.dir is None:
        shutil.rmtree(work)
    report(r, args)


def report(r: dict[str, float | str], args: argparse.Namespace) -> None:
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(r, indent=2))
    width = max(len(k) for k in r)
    for k, v in r.items():
        print(f"{k:<{width}}  {v:,.3f}" if isinstance(v, float) else f"{k:<{width}}  {v:,}" if isinstance(v, int)
              else f"{k:<{width}}  {v}")


if __name__ == "__main__":
    main()
