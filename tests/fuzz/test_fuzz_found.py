"""Minimal repros of what the fuzz suite found and what was fixed with it (each fails without its fix).

The repros of what was found and not fixed are xfail(strict=True) tests beside the fuzz test that
found them: test_fuzz_notation.py (number parsing in the notation readers) and test_fuzz_parquet.py
(readers trusting a damaged Parquet footer).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .conftest import Base, data_files, run, scratch


def _files(archive: Path) -> tuple[Path, Path]:
    pig = next(f for f in data_files(archive) if f.parent.name == "pig" and f.name.startswith("0000000001-"))
    wd = next(f for f in data_files(archive) if f.parent.name == "7wonders-dice")
    return pig, wd


@pytest.mark.parametrize("command", [["audit", "7wonders-dice-s2-000000"], ["show", "pig-s1-000000"],
                                     ["diff", "pig-s1-000000", "pig-s1-000000"]])
def test_a_game_whose_file_holds_none_of_its_rows(base: Base, scratch_root: Path, command: list[str]) -> None:
    """The pig and 7wonders-dice files swapped: reading a game by the manifest found none of its rows,
    and `read_game_and_chain` took the first of none (IndexError)."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        pig, wd = _files(archive)
        swapped = tmp / "swap"
        shutil.move(pig, swapped)
        shutil.move(wd, pig)
        shutil.move(swapped, wd)
        result = run([command[0], "-a", archive, *command[1:]], codes=(1,))
        assert "replay verify" in result.output
