"""The conformance suite runs for every installed game kind: a new game is held to it
without a line of new test code."""

from __future__ import annotations

import pytest

from replay.registry import registry

GAMES = registry.games()


def pytest_generate_tests(metafunc):
    if "game" in metafunc.fixturenames:
        metafunc.parametrize("game", GAMES, ids=[g.kind for g in GAMES])


@pytest.fixture
def bots(game):
    if game.bots is None:
        pytest.skip(f"{game.title} has no bots: nothing to simulate (give it bots or fixtures)")
    return game.bots
