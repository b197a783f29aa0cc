"""The conformance suite runs for every installed game kind: a new game is held to it
without a line of new test code."""

from __future__ import annotations

import pytest

from replay.registry import registry

GAMES = registry.games()


# Every pack a new game may be played under (each expansion, each option set) is held to the suite.
OFFERS = [(g, name) for g in GAMES for name in g.playable_packs()]


def pytest_generate_tests(metafunc):
    if "pack" in metafunc.fixturenames:
        metafunc.parametrize(("game", "pack"), [(g, g.pack(name)) for g, name in OFFERS],
                             ids=[g.kind if name == g.default_pack else f"{g.kind}+{name}" for g, name in OFFERS])
    elif "game" in metafunc.fixturenames:
        metafunc.parametrize("game", GAMES, ids=[g.kind for g in GAMES])


@pytest.fixture
def bots(game):
    if game.bots is None:
        pytest.skip(f"{game.title} has no bots: nothing to simulate (give it bots or fixtures)")
    return game.bots
