"""An archive written when die_rolled was at version 1 reads as version 2; compaction keeps it as written."""

from __future__ import annotations

from helpers import pig_game

from replay.archive import NEW_STREAM, Archive
from replay.archive.compact import compact
from replay.archive.verify import verify
from replay.events import Event
from replay.games.pig import Pig
from replay.games.pig.events import DieRolledV1, GameEnded, GameStarted, Held
from replay.registry import GameRegistry
from replay.schema import kind_schema, schema_fingerprint

OLD_PIG = type("OldPig", (Pig,), dict(title="Pig as it was", event_types=(GameStarted, DieRolledV1, Held, GameEnded),
                                      upcasters=()))()


def _as_v1(events: list[Event]) -> list[Event]:
    return [
        e._replace(version=1, payload={"seat": e.payload["player"], "value": e.payload["face"]})
        if e.type == "die_rolled" else e
        for e in events
    ]


def test_old_files_are_read_through_the_upcaster(tmp_path, pig):
    old_registry = GameRegistry(load_entry_points=False)
    old_registry.register(OLD_PIG)
    events = pig_game("g1")
    old = Archive.init(tmp_path / "a", registry=old_registry)
    old.append("g1", _as_v1(events)[:20], NEW_STREAM)
    old.append("g1", _as_v1(events)[20:], 19)
    [first, _] = sorted(old.snapshot().files)
    assert old.snapshot().files[first].schema == schema_fingerprint(kind_schema(OLD_PIG))

    today = Archive(tmp_path / "a")  # the installed plug-in: die_rolled v2
    assert today.read_game("g1") == events
    assert verify(today).ok

    today.append("g2", pig_game("g2", seed=2)[:5], NEW_STREAM)  # a new file, at today's layout
    compact(today)
    layouts = sorted(e.schema for e in today.snapshot().files.values())
    # the two old files merged, still in their old layout (events are never rewritten); today's file alone
    assert layouts == sorted([schema_fingerprint(kind_schema(OLD_PIG)), schema_fingerprint(kind_schema(pig))])
    assert today.read_game("g1") == events
    assert [e.version for e, _ in today.read_chain("g1") if e.type == "die_rolled"][0] == 1  # stored as written
    assert verify(today, deep=True).ok
