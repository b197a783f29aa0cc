"""Shared helpers for tests (importable because conftest puts tests/ on sys.path)."""

from __future__ import annotations

from replay.games.pig import simulate_game

NAMES = ["Ana", "Ben", "Chloe", "Dev"]


def pig_game(game_id: str = "g1", seed: int = 1, players: int = 2):
    return simulate_game(game_id, NAMES[:players], seed)


def data_files(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in (root / "data").rglob("*") if p.is_file())
