"""What an archive holds, per game kind: games, events, players, projection."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..analytics.project import Coverage, coverage
from ..archive import Archive


@dataclass
class KindOverview:
    kind: str
    games: int = 0
    finished: int = 0
    events: int = 0
    players: dict[int, int] = field(default_factory=dict)
    projection: Coverage | None = None


@dataclass
class Overview:
    root: str
    files: int
    bytes: int
    generation: int
    packs: int
    kinds: list[KindOverview]


def overview(archive: Archive) -> Overview:
    state = archive.snapshot()
    kinds: dict[str, KindOverview] = {}
    for s in state.streams.values():
        k = kinds.setdefault(s.kind, KindOverview(s.kind))
        k.games += 1
        k.finished += s.ended
        k.events += s.last_seq + 1
        n = len(s.players or ())
        k.players[n] = k.players.get(n, 0) + 1
    for k in kinds.values():
        k.projection = coverage(archive, archive.registry.get(k.kind))
    return Overview(str(archive.base), len(state.files), sum(f.bytes for f in state.files.values()),
                    state.generation, sum(1 for _ in archive.packs.stored()), sorted(kinds.values(), key=lambda k: k.kind))
