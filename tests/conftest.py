from __future__ import annotations

import sys
from pathlib import Path

import pytest

from replay.archive import Archive
from replay.games.pig import GAME as PIG

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))


@pytest.fixture
def archive(tmp_path: Path) -> Archive:
    return Archive.init(tmp_path / "archive")


@pytest.fixture
def pig():
    return PIG


