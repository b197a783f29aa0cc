"""Where games are found: the entry point group ``replay.games``.

A game's package names an instance of its :class:`replay.contract.Game` in an
entry point; the registry loads them the first time a kind is asked for. The
core looks games up by kind and never imports a game module itself (a test
checks that).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import entry_points

from .contract import AnyGame, Game
from .errors import PluginError, UnknownGameKind

ENTRY_POINT_GROUP = "replay.games"


class GameRegistry:
    """Game kind -> game. Loaded lazily from entry points; tests may register more."""

    def __init__(self, load_entry_points: bool = True) -> None:
        self._games: dict[str, AnyGame] = {}
        self._loaded = not load_entry_points

    def register(self, game: AnyGame) -> None:
        existing = self._games.get(game.kind)
        if existing is not None and existing is not game:
            raise PluginError(f"two games claim the kind {game.kind!r}")
        self._games[game.kind] = game

    def _load_entry_points(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            game = ep.load()
            if not isinstance(game, Game):
                raise PluginError(f"entry point {ep.name} = {ep.value} is not a replay.contract.Game instance")
            self.register(game)

    def get(self, kind: str) -> AnyGame:
        self._load_entry_points()
        try:
            return self._games[kind]
        except KeyError:
            raise UnknownGameKind(f"unknown game kind {kind!r} (installed: {', '.join(self.kinds()) or 'none'})") from None

    def kinds(self) -> Sequence[str]:
        self._load_entry_points()
        return sorted(self._games)

    def games(self) -> list[AnyGame]:
        return [self._games[k] for k in self.kinds()]


registry = GameRegistry()
"""The process-wide registry the CLI and the archive use."""
