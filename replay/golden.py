"""Golden files of a game: its events as JSON Lines and the narration of every state.

The golden games under ``fixtures/`` are made by each game's ``make_golden.py`` with these, and
their tests compare the files with what these make today.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .contract import Game
from .events import Event
from .jsonl import dump_line
from .narration import narrate


def jsonl_text(events: Sequence[Event]) -> str:
    return "".join(dump_line(e) for e in events)


def narration_text(game: Game[Any, Any], events: Sequence[Event]) -> str:
    return "\n".join(narrate(game, events)) + "\n"


def write_golden(folder: Path, name: str, game: Game[Any, Any], events: Sequence[Event]) -> None:
    """``NAME.jsonl`` and ``NAME.replay.txt`` in ``folder``."""
    (folder / f"{name}.jsonl").write_text(jsonl_text(events), encoding="utf-8")
    (folder / f"{name}.replay.txt").write_text(narration_text(game, events), encoding="utf-8")
    print(f"{name}: {len(events)} events")


def typed_golden(folder: Path, names: Sequence[str], game: Game[Any, Any]) -> None:
    """The golden files of games typed in the game's notation (``NAME.txt`` in ``folder``), read
    strictly: a problem in a text stops with :class:`replay.errors.NotationError`."""
    notation = game.require("notation")
    for name in names:
        write_golden(folder, name, game, notation.read((folder / f"{name}.txt").read_text(encoding="utf-8"), "raise").events)
