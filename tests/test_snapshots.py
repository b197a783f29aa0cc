"""Seeking: the game index and its cache under the archive are derived data, exact and rebuildable."""

from __future__ import annotations

import pytest

from replay.archive import NEW_STREAM, Archive
from replay.contract import Observer
from replay.driver import replay
from replay.registry import registry
from replay.services.review import open_review
from replay.snapshots import EVERY, GameIndex, IndexCache, restore


class _Datas(Observer):
    def __init__(self, game):
        self.game, self.datas = game, []

    def after(self, step):
        self.datas.append(self.game.views.data(step.state))


@pytest.mark.parametrize("kind, players", [("pig", 3), ("7wonders-dice", 4)])
def test_seeking_any_event_equals_a_straight_replay(kind, players, tmp_path):
    game = registry.get(kind)
    events = game.bots.simulate("g", ["Ana", "Ben", "Chloe", "Dev"][:players], 11, game.bots.default, game.pack())
    archive = Archive.init(tmp_path / "a")
    archive.append("g", events, NEW_STREAM)
    straight = _Datas(game)
    replay(game, events, observers=[straight])
    review = open_review("g", archive)
    assert len(review.index.snapshots) == 1 + (len(events) - 1) // EVERY
    for i in list(range(len(events))) + [5, 3, len(events) - 1, 0]:  # forward, then back and forth
        assert review.data(i) == straight.datas[i], i


def test_the_index_is_cached_and_rebuilt_when_the_game_changes(tmp_path, monkeypatch):
    game = registry.get("pig")
    events = game.bots.simulate("g", ["Ana", "Ben"], 4, game.bots.default, game.pack())
    archive = Archive.init(tmp_path / "a")
    archive.append("g", events[:20], NEW_STREAM)
    first = open_review("g", archive)
    cached = IndexCache(archive.root).path("pig", "g")
    assert cached.is_file() and first.index.events == 20

    def no_rebuild(*args, **kwargs):
        raise AssertionError("the cached index should have been used")

    monkeypatch.setattr(GameIndex, "build", classmethod(lambda cls, *a, **k: no_rebuild()))
    again = open_review("g", archive)
    assert again.events == archive.read_game("g")  # the cached events are the archive's
    assert again.index.positions == first.index.positions and again.index.problems == first.index.problems
    assert [restore(game, s, game.pack()) for s in again.index.snapshots] == [
        restore(game, s, game.pack()) for s in first.index.snapshots]
    monkeypatch.undo()

    archive.append("g", events[20:], 19)  # the game grew: its index is rebuilt
    grown = open_review("g", archive)
    assert grown.index.events == len(events) and IndexCache(archive.root).load(game, "g", grown.index.head) is not None
    cached.write_text("{not json")  # a damaged cache is rebuilt, never trusted
    assert open_review("g", archive).index.events == len(events)


def test_an_archive_whose_cache_cannot_be_written_still_seeks(tmp_path):
    game = registry.get("pig")
    events = game.bots.simulate("g", ["Ana", "Ben"], 4, game.bots.default, game.pack())
    archive = Archive.init(tmp_path / "a")
    archive.append("g", events, NEW_STREAM)
    (archive.root / "cache").write_text("not a directory")
    review = open_review("g", archive)
    assert review.data(review.last) == game.views.data(replay(game, events).state)
