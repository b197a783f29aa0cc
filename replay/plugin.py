"""The one interface through which a game joins the tool.

A game is a :class:`GamePlugin` value exported by its package and named in an
entry point of the group ``replay.games``. The core looks plug-ins up by game
kind and never imports a game module itself. docs/plugins.md describes the
contract in prose.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from .errors import PluginError, UnknownGameKind, UpcastError
from .events import ENVELOPE_FIELDS, Event, EventPayload, GameStartedBase

ENTRY_POINT_GROUP = "replay.games"
_SNAKE = re.compile(r"^[a-z][a-z0-9_]{0,62}$")
_KIND = re.compile(r"^[a-z0-9][a-z0-9\-]{0,62}$")

Payload = dict[str, Any]


@dataclass(frozen=True)
class Upcaster:
    """Turns the stored payload of ``event_type`` at ``from_version`` into ``from_version + 1``.

    Upcasters are small named functions over plain data, applied in a chain
    (v1 -> v2 -> v3) when an old event is read, so stored events are never
    rewritten in place.
    """

    event_type: str
    from_version: int
    function: Callable[[Payload], Payload]


def upcaster(event_type: str, from_version: int) -> Callable[[Callable[[Payload], Payload]], Upcaster]:
    """Decorator form: ``@upcaster("die_rolled", 1) def die_rolled_v1_to_v2(p): ...``."""

    def wrap(function: Callable[[Payload], Payload]) -> Upcaster:
        return Upcaster(event_type, from_version, function)

    return wrap


@dataclass(frozen=True)
class GamePlugin:
    """Everything the core needs to know about one game kind.

    Required: the kind name, its event types (current versions) and which of them
    starts a game and which end one. Optional hooks let generic commands run a
    game without knowing it:

    * ``simulate(game_id, names, seed, bots, ruleset=None)`` makes a complete game
      (``bots`` names a policy per seat, cycled; ``self.bots`` lists them);
    * ``fold(events)`` replays a game with every rule check; ``render(state)`` shows it;
    * ``rulesets()`` gives the shipped ruleset packs by name, ``load_ruleset(path)``
      reads and validates a user's pack. A pack has ``id``, ``version``,
      ``content_hash`` and ``model_dump()``;
    * for review (``audit``, ``show``, ``step``, ``diff``): ``states(events, rulesets)``
      yields (event, state after it), ``state_dict(state)`` is plain data,
      ``show(state, player)`` the table as text, ``headline(event, names)`` one line
      per event, ``audit(events, lines, rulesets)`` an AuditReport;
    * ``read_notation(text, strict, source)`` and ``write_notation(events)`` for a
      text notation people can type;
    * ``derive(events)`` gives a finished game's rows of the derived SQL tables,
      whose Arrow schemas ``derived_schemas`` names (``replay project``), and
      ``reference_tables()`` small Arrow tables of rules data for SQL (dice faces).
    """

    kind: str
    title: str
    event_types: tuple[type[EventPayload], ...]
    start_type: type[GameStartedBase]
    end_types: frozenset[str] = frozenset()
    upcasters: tuple[Upcaster, ...] = ()
    fold: Callable[[Iterable[Event]], Any] | None = None
    render: Callable[[Any], str] | None = None
    simulate: Callable[..., list[Event]] | None = None
    bots: tuple[str, ...] = ()
    rulesets: Callable[[], dict[str, Any]] | None = None
    load_ruleset: Callable[[Path], Any] | None = None
    states: Callable[..., Iterable[tuple[Event, Any]]] | None = None
    state_dict: Callable[[Any], dict[str, Any]] | None = None
    show: Callable[[Any, str | None], str] | None = None
    headline: Callable[[Event, list[str]], str] | None = None
    audit: Callable[..., Any] | None = None
    read_notation: Callable[..., Any] | None = None
    write_notation: Callable[[Iterable[Event]], str] | None = None
    derive: Callable[[list[Event]], dict[str, list[dict[str, Any]]]] | None = None
    derived_schemas: dict[str, Any] | None = None
    reference_tables: Callable[[], dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        problems = list(_plugin_problems(self))
        if problems:
            raise PluginError(f"game plug-in {self.kind!r} is invalid: " + "; ".join(problems))

    @cached_property
    def models(self) -> dict[str, type[EventPayload]]:
        """Event type name -> current payload model."""
        return {m.event_type: m for m in self.event_types}

    @cached_property
    def current_versions(self) -> dict[str, int]:
        return {m.event_type: m.version for m in self.event_types}

    @cached_property
    def _upcasters(self) -> dict[tuple[str, int], Upcaster]:
        return {(u.event_type, u.from_version): u for u in self.upcasters}

    def upcast(self, event_type: str, version: int, payload: Payload) -> Payload:
        """The payload brought from ``version`` to the current version of its type."""
        current = self.current_versions[event_type]
        if version > current:
            raise UpcastError(
                f"{self.kind} event {event_type!r} is at version {version}, newer than this "
                f"tool knows ({current}); upgrade replay to read it"
            )
        while version < current:
            step = self._upcasters.get((event_type, version))
            if step is None:
                raise UpcastError(
                    f"{self.kind} event {event_type!r} version {version} cannot be read: "
                    f"no upcaster from version {version} to {version + 1}"
                )
            payload = step.function(payload)
            version += 1
        return payload


def _plugin_problems(plugin: GamePlugin) -> Iterable[str]:
    if not _KIND.match(plugin.kind):
        yield f"kind {plugin.kind!r} must be lowercase letters, digits and dashes"
    names = [m.event_type for m in plugin.event_types]
    for name in names:
        if not _SNAKE.match(name):
            yield f"event type {name!r} must be snake_case"
        if name in ENVELOPE_FIELDS:
            yield f"event type {name!r} clashes with an envelope column"
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        yield f"event types declared twice: {sorted(duplicates)}"
    if plugin.start_type not in plugin.event_types:
        yield f"start type {plugin.start_type.__name__} is not among the event types"
    unknown_end = set(plugin.end_types) - set(names)
    if unknown_end:
        yield f"end types {sorted(unknown_end)} are not event types"
    versions = {m.event_type: m.version for m in plugin.event_types}
    have = {(u.event_type, u.from_version) for u in plugin.upcasters}
    for name, version in versions.items():
        for v in range(1, version):
            if (name, v) not in have:
                yield f"{name} is at version {version} but has no upcaster from version {v}"
    for u in plugin.upcasters:
        if u.event_type not in versions or u.from_version >= versions[u.event_type]:
            yield f"upcaster {u.function.__name__} ({u.event_type} v{u.from_version}) leads nowhere"


class PluginRegistry:
    """Game kind -> plug-in. Loaded lazily from entry points; tests may register more."""

    def __init__(self, load_entry_points: bool = True) -> None:
        self._plugins: dict[str, GamePlugin] = {}
        self._loaded = not load_entry_points

    def register(self, plugin: GamePlugin) -> None:
        existing = self._plugins.get(plugin.kind)
        if existing is not None and existing is not plugin:
            raise PluginError(f"two plug-ins claim the game kind {plugin.kind!r}")
        self._plugins[plugin.kind] = plugin

    def _load_entry_points(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            plugin = ep.load()
            if not isinstance(plugin, GamePlugin):
                raise PluginError(f"entry point {ep.name} = {ep.value} is not a GamePlugin")
            self.register(plugin)

    def get(self, kind: str) -> GamePlugin:
        self._load_entry_points()
        try:
            return self._plugins[kind]
        except KeyError:
            known = ", ".join(sorted(self._plugins)) or "none"
            raise UnknownGameKind(f"unknown game kind {kind!r} (installed: {known})") from None

    def kinds(self) -> Sequence[str]:
        self._load_entry_points()
        return sorted(self._plugins)


registry = PluginRegistry()
"""The process-wide registry the CLI and the archive use."""
