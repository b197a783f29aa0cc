from __future__ import annotations

import os

import pyarrow.parquet as pq
import pytest
from helpers import data_files, pig_game

from replay.archive import NEW_STREAM, Archive
from replay.archive import manifest as mf
from replay.archive.compact import compact
from replay.archive.lock import ArchiveLock
from replay.archive.store import row_groups_for_game
from replay.errors import (
    ArchiveError,
    ArchiveLocked,
    ConcurrencyError,
    DuplicateAppend,
    GameNotFound,
    NotAnArchive,
    StreamError,
)
from replay.events import Event
from replay.games.pig.events import DieRolled


def test_append_then_read_round_trips(archive):
    events = pig_game("g1")
    archive.append("g1", events[:5], NEW_STREAM)
    archive.append("g1", events[5:], 4)
    assert archive.read_game("g1") == events
    assert Archive(archive.root).read_game("g1") == events  # a fresh process sees the same


def test_games_lists_kind_players_length_and_status(archive):
    events = pig_game("g1", players=3)
    archive.append("g1", events[:-1], NEW_STREAM)
    info = archive.games()[0]
    assert (info.game_id, info.kind, info.players, info.events, info.status) == (
        "g1", "pig", ("Ana", "Ben", "Chloe"), len(events) - 1, "in progress")
    archive.append("g1", events[-1:], len(events) - 2)
    assert archive.games()[0].status == "finished"


def test_stale_expected_seq_is_refused_and_writes_nothing(archive):
    events = pig_game("g1")
    archive.append("g1", events[:5], NEW_STREAM)
    before = data_files(archive.root)
    with pytest.raises(ConcurrencyError, match="expected a game ending at seq 2, but it ends at seq 4"):
        archive.append("g1", [Event.create("pig", "g1", 3, DieRolled(player=1, face=6))], 2)
    with pytest.raises(ConcurrencyError, match="id collision"):
        archive.append("g1", pig_game("g1", seed=9)[:2], NEW_STREAM)
    assert data_files(archive.root) == before
    assert archive.last_seq("g1") == 4


def test_same_events_twice_is_named_a_duplicate(archive):
    events = pig_game("g1")
    archive.append("g1", events, NEW_STREAM)
    with pytest.raises(DuplicateAppend, match="already in the archive, identical"):
        archive.append("g1", events, NEW_STREAM)
    with pytest.raises(DuplicateAppend):
        archive.append("g1", events[3:9], 2)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda ev: ev[1:], "expected seq 0, found 1"),
        (lambda ev: [ev[0], ev[2]], "expected seq 1, found 2"),
        (lambda ev: [e._replace(game_id="bad id!") for e in ev[:2]], "game id 'bad id!'"),
        (lambda ev: [ev[0], ev[1]._replace(version=1)], "upcast it to version 2"),
        (lambda ev: [ev[1]._replace(seq=0)], "starts with exactly one game_started"),
        (lambda ev: [ev[0], ev[1]._replace(type="rolled")], "unknown pig event type"),
        (lambda ev: [], "nothing to append"),
    ],
)
def test_malformed_streams_are_refused(archive, mutate, message):
    events = mutate(pig_game("g1"))
    game_id = events[0].game_id if events else "g1"
    with pytest.raises(StreamError, match=message):
        archive.append(game_id, events, NEW_STREAM)
    assert archive.snapshot().generation == 0


def test_nothing_may_follow_the_end_of_a_game(archive):
    events = pig_game("g1")
    archive.append("g1", events, NEW_STREAM)
    extra = Event.create("pig", "g1", len(events), DieRolled(player=0, face=3))
    with pytest.raises(ConcurrencyError, match="has ended"):
        archive.append("g1", [extra], len(events) - 1)


def test_append_many_is_all_or_nothing(archive):
    a, b = pig_game("a", 1), pig_game("b", 2)
    archive.append("b", b[:3], NEW_STREAM)
    from replay.archive import StreamAppend

    with pytest.raises(ConcurrencyError):
        archive.append_many([StreamAppend("a", NEW_STREAM, a), StreamAppend("b", NEW_STREAM, b)])
    assert [g.game_id for g in archive.games()] == ["b"]


def test_unknown_game_and_not_an_archive(tmp_path, archive):
    with pytest.raises(GameNotFound):
        archive.read_game("nope")
    with pytest.raises(NotAnArchive, match="replay init"):
        Archive(tmp_path / "elsewhere")
    with pytest.raises(ArchiveError, match="already an archive"):
        Archive.init(archive.root)


def test_manifest_log_is_checkpointed_and_reloads_identically(archive):
    for i in range(70):
        archive.append(f"g{i:03d}", pig_game(f"g{i:03d}", seed=i)[:3], NEW_STREAM)
    checkpoints, commits = mf.list_records(archive.manifest_dir)
    assert checkpoints == [64]  # the first checkpoint is folded in, old records dropped
    assert commits == list(range(65, 71))
    fresh = Archive(archive.root).snapshot()
    assert fresh.files == archive.snapshot().files
    assert fresh.streams == archive.snapshot().streams


def test_lock_timeout_names_the_holder(archive):
    with ArchiveLock(archive.root / ".lock", exclusive=True):
        slow = Archive(archive.root, lock_timeout=0.2)
        with pytest.raises(ArchiveLocked, match=f"process {os.getpid()}"):
            slow.append("g1", pig_game("g1")[:2], NEW_STREAM)


def test_one_game_is_found_through_row_group_statistics(archive):
    games = {f"g{i:03d}": pig_game(f"g{i:03d}", seed=i) for i in range(60)}
    for g, ev in games.items():
        archive.append(g, ev, NEW_STREAM)
    compact(archive, row_group_rows=500)  # one big sorted file...
    [entry] = archive.snapshot().files.values()
    pf = pq.ParquetFile(archive.path_of(entry.path))
    assert pf.metadata.num_row_groups > 1  # ...with many row groups
    groups = row_groups_for_game(pf, "g031")
    assert 1 <= len(groups) <= 2 < pf.metadata.num_row_groups
    assert archive.read_game("g031") == games["g031"]


def test_files_keep_statistics_for_game_id_and_numbers_only(archive):
    """game_id's min/max choose a game's row groups and a number's serve a query's plan; another string's
    (the kind, an event type, a player's name) prunes nothing, so it is not computed."""
    archive.append("g1", pig_game("g1"), NEW_STREAM)
    [entry] = archive.snapshot().files.values()
    group = pq.ParquetFile(archive.path_of(entry.path)).metadata.row_group(0)
    kept = {group.column(i).path_in_schema: group.column(i).is_stats_set for i in range(group.num_columns)}
    assert kept["game_id"] and kept["seq"]
    assert not kept["kind"] and not kept["type"] and not kept["game_started.seats.list.element.name"]
