"""The tables every game kind has: ``games`` and ``players``, so one query spans an archive.

They come from the same replay as a game's own tables, through the game's views
(its result: winners, scores by category) and the replay (pack, seats, problems,
positions), never from the events' claims. ``games.state_hash`` is the digest of the
final state, so a later version of replay can tell whether it still replays each game
to the same end (``replay regress``).
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from ..contract import Observer
from ..driver import Replay

GAMES = pa.schema([
    ("kind", pa.string()), ("game_id", pa.string()), ("pack_id", pa.string()), ("pack_version", pa.string()),
    ("pack_hash", pa.string()), ("players", pa.int32()), ("names", pa.list_(pa.string())),
    ("winners", pa.list_(pa.int32())), ("winner_names", pa.list_(pa.string())), ("scores", pa.list_(pa.int64())),
    ("top_score", pa.int64()), ("tie_break", pa.string()), ("turns", pa.int32()), ("events", pa.int32()),
    ("status", pa.string()), ("problems", pa.int32()), ("first_problem", pa.string()), ("state_hash", pa.string()),
])
PLAYERS = pa.schema([
    ("kind", pa.string()), ("game_id", pa.string()), ("seat", pa.int32()), ("name", pa.string()),
    ("players", pa.int32()), ("total", pa.int64()), ("rank", pa.int32()), ("won", pa.bool_()),
    ("finished", pa.bool_()), ("categories", pa.map_(pa.string(), pa.int64())),
])
CORE_TABLES: dict[str, pa.Schema] = {"games": GAMES, "players": PLAYERS}


class CoreRows(Observer):
    """The ``games`` row and the ``players`` rows of one game, made when its replay finishes.

    Observe it from the replay's first event: its counts are the replay's own (the events pushed,
    the highest turn), so it wants no step (``after_types``), and a replay with no other observer
    makes none (a step per event cost about as much as the rest of this observer)."""

    after_types = frozenset[str]()

    def __init__(self, replay: Replay[Any], ended: bool) -> None:
        self.replay = replay
        self.ended = ended
        self.out: dict[str, list[dict[str, Any]]] = {"games": [], "players": []}

    def finish(self, state: Any) -> None:
        r, game = self.replay, self.replay.game
        result = game.views.result(state) if state is not None else None
        names, kind, game_id = r.names, game.kind, r.game_id
        scores = sorted(result.scores, key=lambda s: s.seat) if result else []
        winners = list(result.winners) if result else []
        pack = r.pack
        self.out["games"].append({
            "kind": kind, "game_id": game_id,
            "pack_id": pack.id if pack else None, "pack_version": pack.version if pack else None,
            "pack_hash": pack.content_hash if pack else None, "players": len(names), "names": names,
            "winners": winners, "winner_names": [names[w] for w in winners if 0 <= w < len(names)],
            "scores": [s.total for s in scores], "top_score": max((s.total for s in scores), default=None),
            "tie_break": result.tie_break if result else None, "turns": r.turns,
            "events": r.index + 1 if state is not None else 0,
            "status": "finished" if self.ended else "in progress", "problems": len(r.problems),
            "first_problem": r.problems[0].rule_id if r.problems else None,
            "state_hash": game.views.state_hash(state) if state is not None else None,
        })
        for s in scores:
            self.out["players"].append({
                "kind": kind, "game_id": game_id, "seat": s.seat,
                "name": names[s.seat] if 0 <= s.seat < len(names) else None, "players": len(names),
                "total": s.total, "rank": s.rank, "won": s.won, "finished": self.ended,
                "categories": list(s.categories.items()),
            })
