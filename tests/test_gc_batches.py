"""The cyclic collector is paused over a batch of events and resumed only once the batch is gone, so
that no collection walks the batch (docs/performance.md, "Sixteenth pass"): `replay simulate`'s batches
and `replay import`'s windows of lines. Measured by what the collector would walk when it resumes: the
young generation's count (``gc.get_count()[0]``: objects made and not yet freed since the last
collection), taken as each pause ends; and by the collections made while a file is read.
"""

from __future__ import annotations

import gc
import io
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import replay.jsonl as jsonl
import replay.services.simulation as simulation
from replay.archive import Archive
from replay.errors import InvalidInput
from replay.gcpause import gc_paused
from replay.jsonl import dump_line
from replay.registry import registry

GAMES = 40  # a batch's events: ~10,000, each a few containers


@pytest.fixture
def young_at_resume(monkeypatch) -> list[int]:
    """The young generation's count as each outermost pause of the simulation service and the importer ends."""
    counts: list[int] = []

    @contextmanager
    def recorded() -> Iterator[None]:
        outermost = gc.isenabled()
        with gc_paused():
            yield
            if outermost:
                counts.append(gc.get_count()[0])

    monkeypatch.setattr(simulation, "gc_paused", recorded)
    monkeypatch.setattr(jsonl, "gc_paused", recorded)
    return counts


def _lines(games: int) -> list[str]:
    game = registry.get("7wonders-dice")
    bots = simulation.check_bots(game, ())
    return [dump_line(e) for i in range(games) for e in simulation.simulated(game, 3, i, 2 + i % 3, bots, game.pack())]


def test_a_simulated_batch_is_gone_before_the_collector_resumes(tmp_path, monkeypatch, young_at_resume):
    simulation.simulate_games(registry.get("7wonders-dice"), Archive.init(tmp_path / "warm"), 2, (2, 4), seed=5)
    young_at_resume.clear()  # the first batch's imports and caches made, they are not what is measured
    monkeypatch.setattr(simulation, "COMMIT_GAMES", GAMES // 2)
    archive = Archive.init(tmp_path / "a")
    written = simulation.simulate_games(registry.get("7wonders-dice"), archive, GAMES, (2, 4), seed=5)
    assert written > 5_000 and len(archive.snapshot().streams) == GAMES
    assert len(young_at_resume) == 2  # one pause a batch
    # held, a batch's events would be ~3 young objects each (the code before: 20,672 and 15,936 here)
    assert max(young_at_resume) < written, young_at_resume


def test_an_import_resumes_the_collector_only_between_batches(tmp_path, monkeypatch, young_at_resume):
    lines = _lines(GAMES)
    monkeypatch.setattr(jsonl, "BATCH_EVENTS", len(lines) // 3 + 1)  # three batches, the last one short
    collections: list[int] = []

    def counted(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(counted)
    try:
        result = jsonl.import_lines(Archive.init(tmp_path / "a"), lines, source="games.jsonl")
    finally:
        gc.callbacks.remove(counted)
    assert result.events == len(lines) and result.games == GAMES
    assert len(young_at_resume) == 3 and max(young_at_resume) < len(lines) // 4, young_at_resume
    # running, the collector would have run every 700 new objects: hundreds of times over ~30,000 events' objects
    assert len(collections) < 30, collections


def test_bad_lines_end_a_window_so_their_cycles_are_collected(tmp_path, monkeypatch, young_at_resume):
    """A file of bad lines keeps nothing, but the collector still resumes every BATCH_EVENTS lines: whatever a bad
    line's exception leaves in a cycle is collected as the file goes on, not held until its end."""
    monkeypatch.setattr(jsonl, "BATCH_EVENTS", 50)
    lines = ['{"game_id": "g", "seq": "not a number"}\n'] * 520
    with pytest.raises(InvalidInput):
        jsonl.import_lines(Archive.init(tmp_path / "a"), io.StringIO("".join(lines)), source="bad.jsonl")
    assert len(young_at_resume) == 11  # ten windows of 50 lines not kept, and the last 20
