"""Named queries: SQL files whose header says the question, the parameters and the columns.

::

    -- question: How often does each city win, by player count?
    -- param: min_games int 1  hide rows with fewer games than this
    -- columns: players, city, games, wins, win_rate

The cross-kind ones ship in ``replay/queries/`` (the repository's ``queries/``);
each game's live in a ``queries/`` folder of its own package. Parameters are
passed to DuckDB as ``$name``. This module does not import DuckDB, so the game
contract can name queries without loading the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import ReplayError


class QueryError(ReplayError):
    """Bad SQL or an unknown query: DuckDB's message plus what there is to query."""


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: Any
    help: str

    def parse(self, text: str) -> Any:
        try:
            return {"int": int, "float": float, "str": str}[self.type](text)
        except (KeyError, ValueError):
            raise QueryError(f"parameter {self.name} must be {self.type}, got {text!r}") from None


@dataclass(frozen=True)
class NamedQuery:
    name: str
    question: str
    columns: str
    sql: str
    params: tuple[Param, ...] = field(default_factory=tuple)
    path: str = ""
    kind: str = ""
    """The game kind it is about ('' for the cross-kind queries)."""

    def values(self, given: dict[str, str]) -> dict[str, Any]:
        """Typed parameter values: the given ones parsed, the rest at their defaults."""
        known = {p.name: p for p in self.params}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise QueryError(f"{self.name} has no parameter {unknown[0]!r}; it takes: " + (", ".join(known) or "none"))
        return {p.name: (p.parse(given[p.name]) if p.name in given else p.default) for p in self.params}


def parse_query(name: str, text: str, path: str = "", kind: str = "") -> NamedQuery:
    question = columns = ""
    params = []
    for line in text.splitlines():
        if not line.startswith("--"):
            continue
        key, _, value = line[2:].strip().partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "question":
            question = value
        elif key == "columns":
            columns = value
        elif key == "param":
            parts = value.split(None, 3)
            if len(parts) < 3:
                raise QueryError(f"{path or name}: '-- param: {value}' needs a name, a type and a default")
            pname, ptype, default, *rest = parts
            probe = Param(pname, ptype, None, "")
            params.append(Param(pname, ptype, probe.parse(default), rest[0] if rest else ""))
    if not question or not columns:
        raise QueryError(f"{path or name}: the header needs '-- question:' and '-- columns:' lines")
    return NamedQuery(name, question, columns, text, tuple(params), path, kind)


def load_queries(package: str, folder: str = "queries", kind: str = "") -> dict[str, NamedQuery]:
    """The named queries shipped in ``package/folder/*.sql``, by file stem."""
    base = resources.files(package).joinpath(folder)
    if not base.is_dir():
        return {}
    return _parse_all(((e.name, e.read_text(encoding="utf-8"), f"{package}/{folder}/{e.name}") for e in base.iterdir()),
                      kind)


def load_query_dir(directory: Path, kind: str = "") -> dict[str, NamedQuery]:
    """The named queries in a directory (``$REPLAY_QUERIES`` points at one to try new ones)."""
    return _parse_all(((p.name, p.read_text(encoding="utf-8"), str(p)) for p in directory.glob("*.sql")), kind)


def _parse_all(files: Any, kind: str) -> dict[str, NamedQuery]:
    out = {}
    for name, text, path in sorted(files):
        if name.endswith(".sql"):
            out[name[:-4]] = parse_query(name[:-4], text, path, kind)
    return out
