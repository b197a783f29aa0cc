"""The link worker (replay.chain.LinkWorker): the same links as in process, a fallback when it fails,
no process left behind, and it works under ``python -m replay``."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from helpers import data_files, pig_game

from replay import chain, chain_compiled
from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.errors import SchemaError
from replay.events import Event
from replay.jsonl import dump_line


@pytest.fixture
def worker(monkeypatch):
    """Every batch hashed by the worker (however small); a fresh worker, ended afterwards. The worker serves
    the pure-Python path: where the compiled chain is built it makes the links in process, so it is off here."""
    chain.close_worker()
    monkeypatch.setattr(chain, "_worker_broken", False)
    monkeypatch.setattr(chain, "WORKER_EVENTS", 0)
    with chain_compiled.use(False):
        yield
    chain.close_worker()


def _games(n: int, seed: int = 1) -> list[list]:
    return [pig_game(f"g{i:03d}", seed + i) for i in range(n)]


def _interleaved(games: list[list], chunk: int) -> list:
    """The games' events in chunks, round-robin: each game comes in several runs of one batch."""
    out, at = [], 0
    while any(at < len(g) for g in games):
        for g in games:
            out.extend(g[at:at + chunk])
        at += chunk
    return out


def _prepared_bytes(archive: Archive, events: list, heads: dict[str, int]) -> list[bytes]:
    return [p.data for p in archive.prepare_files(events, heads=heads)]


def test_the_worker_gives_the_links_made_in_process(worker, tmp_path, monkeypatch):
    archive = Archive.init(tmp_path / "a")
    games = _games(4)
    first = _interleaved([g[:40] for g in games], 7)  # runs that follow runs of the same batch
    rest = _interleaved([g[40:] for g in games], 5)  # continuing from heads of the batch before
    heads: dict[str, int] = {}
    by_worker = _prepared_bytes(archive, first, heads) + _prepared_bytes(archive, rest, heads)
    assert chain._worker is not None and chain._worker.process.poll() is None  # it did the hashing
    monkeypatch.setattr(chain, "WORKER_EVENTS", 10**12)
    heads_in_process: dict[str, int] = {}
    in_process = _prepared_bytes(archive, first, heads_in_process) + _prepared_bytes(archive, rest, heads_in_process)
    assert by_worker == in_process and heads == heads_in_process
    assert heads == {g[0].game_id: chain.chain(g)[-1] for g in games}


def test_continuing_stored_games_through_the_worker(worker, archive):
    games = _games(3)
    archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g[:20]) for g in games])
    archive.append_many([StreamAppend(g[0].game_id, 19, g[20:]) for g in games])
    for g in games:
        assert [h for _, h in archive.read_chain(g[0].game_id)] == chain.chain(g)


def test_a_dead_worker_is_reaped_and_the_links_made_in_process(worker, tmp_path):
    games = _games(3)
    dead = chain._the_worker()
    assert dead is not None
    dead.process.kill()
    dead.process.wait()
    archive = Archive.init(tmp_path / "a")
    archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games])
    assert chain._worker is None and chain._worker_broken  # in process from then on
    for g in games:
        assert [h for _, h in archive.read_chain(g[0].game_id)] == chain.chain(g)


def test_an_error_while_encoding_ends_the_worker_and_says_what_it_said(worker, tmp_path, monkeypatch):
    games = _games(2)
    bad = games[1][3]._replace(payload={**games[1][3].payload, "player": "someone"})
    batch = [games[0], [*games[1][:3], bad, *games[1][4:]]]
    archive = Archive.init(tmp_path / "a")
    running = chain._the_worker()
    assert running is not None
    with pytest.raises(SchemaError) as by_worker:
        archive.prepare_files([e for g in batch for e in g])
    assert running.process.poll() is not None and chain._worker is None  # ended, reaped: no answer left unread
    monkeypatch.setattr(chain, "WORKER_EVENTS", 10**12)
    with pytest.raises(SchemaError) as in_process:
        archive.prepare_files([e for g in batch for e in g])
    assert str(by_worker.value) == str(in_process.value)
    monkeypatch.setattr(chain, "WORKER_EVENTS", 0)
    archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games])  # a new worker
    assert chain._worker is not None and chain._worker is not running


def _processes_marked(marker: str) -> list[int]:
    """Live processes whose environment holds ``marker`` (the CLI and the worker it started)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and marker.encode() in (proc / "environ").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_python_m_replay_imports_through_the_worker_and_leaves_no_process(tmp_path):
    games = [[e._replace(game_id=f"c{i:04d}") for e in pig_game("x", 1 + i % 7)] for i in range(900)]
    assert sum(len(g) for g in games) >= chain.WORKER_EVENTS  # large enough for the worker
    source = tmp_path / "games.jsonl"
    source.write_text("".join(dump_line(e) for g in games for e in g))
    marker = f"REPLAY_TEST_MARK={uuid.uuid4().hex}"
    env = {**os.environ, marker.split("=")[0]: marker.split("=")[1], "REPLAY_PURE": "1"}  # the path that uses the worker

    def replay(*args: str) -> None:
        done = subprocess.run([sys.executable, "-m", "replay", *args], capture_output=True, text=True, env=env,
                              timeout=300)
        assert done.returncode == 0, done.stderr

    replay("init", str(tmp_path / "cli"))
    replay("import", "-a", str(tmp_path / "cli"), str(source))
    replay("verify", "-a", str(tmp_path / "cli"))
    assert _processes_marked(marker) == []  # the worker ended with the command
    reference = Archive.init(tmp_path / "ref")
    reference.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games])
    cli_files, ref_files = data_files(tmp_path / "cli"), data_files(tmp_path / "ref")
    assert [(tmp_path / "cli" / f).read_bytes() for f in cli_files] == [(tmp_path / "ref" / f).read_bytes() for f in ref_files]


def test_the_worker_splits_bodies_holding_floats_newlines_and_separators(worker):
    """The block sent to the worker: bodies whose strings hold raw newlines and the separator's characters,
    and floats re-encoded by the definition; its links are those made in process, event by event."""
    events = [Event("g", i, "k", "t", 1, {"s": ",\n,", "t": "\n", "x": 1e-05 * i, "n": None, "h": "9e9"}) for i in range(30)]
    block = chain.canonical_block(events)
    with chain.links_meanwhile([chain.Run(10), chain.Run(20, follows=0)], block) as links:
        words = links()
    assert chain._worker is not None and chain._worker.process.poll() is None  # the worker answered
    assert chain.words_to_ints(words[0] + words[1]) == _links_one_by_one(events)


def _links_one_by_one(events: list[Event]) -> list[int]:
    out, h = [], chain.GENESIS
    for e in events:
        h = chain.link(h, e)
        out.append(h)
    return out
