"""Shared helpers for the tests of a game's named queries: ask one through the command line, and
compare its answer with values counted in the test (importable because conftest puts tests/ on
sys.path)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from click.testing import CliRunner

from replay.archive import Archive
from replay.cli.main import cli


def ask(archive: Archive, name: str, **params: Any) -> list[dict[str, Any]]:
    """A named query's answer (``name``: ``schema.query``) through the command, in the sandbox (the default)."""
    args = ["query", "-a", str(archive.root), "--name", name, "--format", "json"]
    for k, v in params.items():
        args += ["--param", f"{k}={v}"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


def places(column: str) -> int:
    return 4 if column.endswith(("_rate", "_share", "_odds")) else 2


def agree(got: list[dict[str, Any]], keys: tuple[str, ...], expected: dict[tuple[Any, ...], dict[str, Any]]) -> None:
    """Every row of the answer, by its key columns, has the expected values (floats to the query's rounding)."""
    by_key = {tuple(row[k] for k in keys): row for row in got}
    assert set(by_key) == set(expected)
    for key, values in expected.items():
        for column, want in values.items():
            have = by_key[key][column]
            if isinstance(want, float):
                assert have is not None and abs(have - want) <= 0.5 * 10 ** -places(column) + 1e-9, (key, column, have, want)
            else:
                assert have == want, (key, column, have, want)


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def rate(items: list[Any], test: Callable[[Any], bool]) -> float:
    return sum(1 for x in items if test(x)) / len(items)


def grouped(rows: Iterable[tuple[Any, dict[str, Any]]]) -> dict[Any, list[dict[str, Any]]]:
    out: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for key, row in rows:
        out[key].append(row)
    return out
