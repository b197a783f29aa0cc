"""Real processes: concurrent writers, and writers killed with SIGKILL mid-append."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import pig_game, scaled

from replay.archive import NEW_STREAM, Archive
from replay.archive.compact import compact
from replay.archive.verify import verify
from replay.events import Event, Provenance, Seat
from replay.games.pig.events import GameStarted

WORKERS = str(Path(__file__).parent / "workers.py")
APPENDS = 200


def _start(archive: Archive, game: str) -> None:
    start = GameStarted(ruleset=pig_game()[0].payload["ruleset"], seats=[Seat(seat=0, name="A"), Seat(seat=1, name="B")],
                        provenance=Provenance(source="simulated"), target=10**6)
    archive.append(game, [Event.create("pig", game, 0, start)], NEW_STREAM)


def _run(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, WORKERS, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_processes_appending_to_the_same_game_lose_and_duplicate_nothing(archive):
    _start(archive, "shared")
    procs = [_run("shared", str(archive.root), str(w), str(APPENDS), "shared") for w in (0, 1)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    events = archive.read_game("shared")
    assert [e.seq for e in events] == list(range(2 * APPENDS + 1))
    written = sorted((e.payload["player"], e.payload["face"]) for e in events[1:])
    assert written == sorted((w, i + 1) for w in (0, 1) for i in range(APPENDS))
    assert verify(archive).ok


def test_two_processes_appending_to_different_games(archive):
    for game in ("left", "right"):
        _start(archive, game)
    procs = [_run("own", str(archive.root), str(w), str(APPENDS), game) for w, game in enumerate(("left", "right"))]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    for w, game in enumerate(("left", "right")):
        events = archive.read_game(game)
        assert [(e.payload["player"], e.payload["face"]) for e in events[1:]] == [(w, i + 1) for i in range(APPENDS)]
    assert verify(archive).ok and archive.snapshot().generation == 2 + 2 * APPENDS


def _kill_after(proc: subprocess.Popen, delay: float, acknowledged: int = 0) -> list[str]:
    """Wait for 'ready' and ``acknowledged`` commits, let it work ``delay`` seconds more, SIGKILL
    it; return what it acknowledged. Counting commits (not seconds) keeps the test independent of
    the machine's speed."""
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
    seen = [proc.stdout.readline() for _ in range(acknowledged)]
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    out, _ = proc.communicate()
    return [line.strip() for line in seen if line.strip()] + out.splitlines()


def test_writers_killed_at_random_points_leave_exactly_the_committed_events(archive):
    rng = random.Random(20261129)
    known: dict[str, int] = {}  # game -> events stored, as last checked
    rounds = scaled(25, 200)
    for round_ in range(rounds):
        lines = _kill_after(_run("crash", str(archive.root), str(round_ * 1000)), rng.uniform(0.0, 0.03),
                            acknowledged=rng.randrange(2, 11))
        acknowledged = {game: int(length) for _, game, length in (line.split() for line in lines)}
        report = verify(archive)
        assert report.ok, (round_, [str(p) for p in report.problems])
        stored = {g.game_id: g.events for g in archive.games()}
        # Everything acknowledged is there, and at most one commit more (made, not yet printed).
        assert all(stored[g] >= n for g, n in acknowledged.items()), round_
        changed = {g: n for g, n in stored.items() if known.get(g) != n}
        unacknowledged = {g: n for g, n in changed.items() if acknowledged.get(g) != n}
        assert len(unacknowledged) <= 1, (round_, unacknowledged)
        for game, n in changed.items():
            assert archive.read_game(game) == pig_game(game, seed=int(game[1:]))[:n]
        known.update(changed)
        if round_ % 10 == 9:
            compact(archive)  # keeps verify fast, and puts crashes on top of compacted files
    assert len(known) > 2 * rounds  # the kills really landed between many commits


def test_compaction_killed_at_random_points_loses_nothing(archive):
    rng = random.Random(7)
    games = {}
    for i in range(40):
        games[f"k{i:03d}"] = pig_game(f"k{i:03d}", seed=i)
        archive.append(f"k{i:03d}", games[f"k{i:03d}"], NEW_STREAM)
    for round_ in range(10):
        _kill_after(_run("compact", str(archive.root)), rng.uniform(0.0, 0.4))
        report = verify(archive)
        assert report.ok, (round_, [str(p) for p in report.problems])
        assert all(archive.read_game(g) == ev for g, ev in games.items())
        # the next write cleans up whatever the killed compaction left behind
        archive.collect_garbage()
        assert not verify(archive).notes
