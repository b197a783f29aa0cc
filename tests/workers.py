"""Writer processes for the concurrency and crash tests (run as scripts, not imported by pytest)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from replay.archive import NEW_STREAM, Archive
from replay.archive.compact import compact
from replay.errors import ConcurrencyError
from replay.events import Event
from replay.games.pig.events import DieRolled


def marker(writer: int, i: int, game: str, seq: int) -> Event:
    """An event that says who wrote it: player = writer, face = i + 1."""
    return Event.create("pig", game, seq, DieRolled(player=writer, face=i + 1))


def append_to_shared(root: str, writer: int, count: int, game: str) -> None:
    """Append ``count`` events to one game, retrying when another writer got there first."""
    archive = Archive(root)
    retries = 0
    for i in range(count):
        while True:
            last = archive.last_seq(game)
            try:
                archive.append(game, [marker(writer, i, game, last + 1)], last)
                break
            except ConcurrencyError:
                retries += 1
    print(f"retries {retries}", flush=True)


def append_to_own(root: str, writer: int, count: int, game: str) -> None:
    archive = Archive(root)
    for i in range(count):
        archive.append(game, [marker(writer, i, game, i + 1)], i)


def crash_writer(root: str, first: int) -> None:
    """Append games forever (two commits each), saying on stdout what was committed."""
    from helpers import pig_game

    archive = Archive(root)
    print("ready", flush=True)
    i = first
    while True:
        events = pig_game(f"c{i:05d}", seed=i)
        archive.append(events[0].game_id, events[:10], NEW_STREAM)
        print(f"committed c{i:05d} 10", flush=True)
        archive.append(events[0].game_id, events[10:], 9)
        print(f"committed c{i:05d} {len(events)}", flush=True)
        i += 1


def compactor(root: str) -> None:
    print("ready", flush=True)
    compact(Archive(root), max_rows=500)
    print("compacted", flush=True)


if __name__ == "__main__":
    mode, root, *rest = sys.argv[1:]
    if mode == "shared":
        append_to_shared(root, int(rest[0]), int(rest[1]), rest[2])
    elif mode == "own":
        append_to_own(root, int(rest[0]), int(rest[1]), rest[2])
    elif mode == "crash":
        crash_writer(root, int(rest[0]))
    elif mode == "compact":
        compactor(root)
