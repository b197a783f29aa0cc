from __future__ import annotations

import pyarrow.parquet as pq
from helpers import pig_game

from replay.archive import NEW_STREAM, Archive
from replay.archive.compact import compact
from replay.archive.verify import verify


def _fill(archive, n=30):
    games = {}
    for i in range(n):
        gid = f"g{(i * 7) % n:03d}"  # appended out of id order
        games[gid] = pig_game(gid, seed=i)
        half = len(games[gid]) // 2
        archive.append(gid, games[gid][:half], NEW_STREAM)
        archive.append(gid, games[gid][half:], half - 1)
    return games


def _all(archive):
    return sorted(archive.iter_events(), key=lambda e: (e.game_id, e.seq))


def test_compaction_keeps_every_event_and_sorts_them(archive):
    games = _fill(archive)
    before = _all(archive)
    result = compact(archive, max_rows=1000)
    assert (result.files_before, result.events) == (60, len(before))
    assert _all(archive) == before
    for entry in archive.snapshot().files.values():
        table = pq.read_table(archive.path_of(entry.path), columns=["game_id", "seq"])
        keys = list(zip(table.column("game_id").to_pylist(), table.column("seq").to_pylist()))
        assert keys == sorted(keys) and entry.rows <= 1000 + max(len(g) for g in games.values())
    # no game is split across output files
    assert all(len(s.files) == 1 for s in archive.snapshot().streams.values())
    report = verify(archive, deep=True)
    assert report.ok and not report.notes
    assert sorted(p.name for p in (archive.root / "data" / "pig").iterdir()) == sorted(
        e.path.rsplit("/", 1)[1] for e in archive.snapshot().files.values())  # old files are gone


def test_compaction_is_idempotent_and_keeps_later_appends(archive):
    games = _fill(archive, 10)
    compact(archive)
    assert compact(archive).kinds == ()
    extra = pig_game("zz", seed=99)
    archive.append("zz", extra, NEW_STREAM)
    compact(archive)
    assert archive.read_game("zz") == extra
    assert all(archive.read_game(g) == ev for g, ev in games.items())
    assert len(archive.snapshot().files) == 1


def test_compacted_archive_reopens_identically(archive):
    _fill(archive, 8)
    compact(archive)
    assert _all(Archive(archive.root)) == _all(archive)
