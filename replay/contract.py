"""The game contract: everything the core needs of a game, and nothing more.

A game is a subclass of :class:`Game` (sqlglot's dialects are the model): the
base gives a default for everything that has a sensible one, so a game
overrides only what differs. Its parts are separate objects, because they are
separate concerns (OpenSpiel keeps a game, its state and what a player may
observe apart; python-chess keeps state, legality and notation apart):

* the **description** (class attributes of :class:`Game`): kind, title, player
  range, event models and upcasters, the pack model;
* :class:`Rules`: a new state from the start event and the pinned pack, applying
  an event (or saying why it is illegal), legal actions, whether the game is
  over, where an event belongs (turn, round, seat), snapshots of a state;
* :class:`Views`: a state as plain data, what one seat may see, a headline per
  event, the result, the table as text;
* optional parts, ``None`` where a game does not offer them, which the CLI then
  says in one sentence ("Pig has no notation"): :class:`Notation`,
  :class:`Analytics` (derived tables, their schemas, named queries), :class:`Bots`.

A replay hands each :class:`Step` to :class:`Observer` objects; a game's derived
tables are such an observer. docs/plugins.md walks through adding a game.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import Any, ClassVar, Generic, TypeVar

import pyarrow as pa

from .analytics.named import NamedQuery, load_queries
from .canonical import canonical_json
from .errors import NotOffered, PluginError, UpcastError
from .events import ENVELOPE_FIELDS, Event, EventPayload, GameStartedBase, Payload, Upcaster
from .notation import Parsed
from .packs import PackLibrary, PackSource, RulesPack, shipped_packs
from .problems import Level, Problem

S = TypeVar("S")
"""A game's state: whatever the game likes, as long as its Rules and Views read it."""
P = TypeVar("P", bound=RulesPack)

_SNAKE = re.compile(r"^[a-z][a-z0-9_]{0,62}$")
_KIND = re.compile(r"^[a-z0-9][a-z0-9\-]{0,62}$")


# ----------------------------------------------------------------------------- what a replay sees


@dataclass(frozen=True, slots=True)
class Position:
    """Where an event belongs, for navigation: its turn, round and acting seat, where the game has them."""

    turn: int | None = None
    round: int | None = None
    seat: int | None = None


NO_POSITION = Position()


@dataclass(frozen=True, slots=True)
class Step:
    """One event of a replay: where it belongs, the problems it raised, and the state after it.

    ``state`` is the live state: the next step changes it. An observer that wants
    to keep it takes a view or a snapshot of it.
    """

    index: int
    event: Event
    position: Position
    problems: tuple[Problem, ...]
    state: Any
    refused: bool = False
    """The rules refused the event: it changed nothing (beyond what recovery did)."""


class Observer:
    """Sees a replay step by step. Override what you need: ``before`` is called only if
    overridden, with the state just before an event is applied (and not yet changed)."""

    after_types: frozenset[str] | None = None
    """The event types ``after`` is called for; None (the default): every event. A replay makes a
    :class:`Step` only for an event some observer wants, so an observer that reads a few types says
    which (a projection's observers read three of 7 Wonders Dice's six, and the core's none), and the
    replay skips the rest; ``frozenset()`` for an observer that needs only ``finish``. Set it on the
    class, or on the instance before the observer is added."""

    def before(self, state: Any, event: Event) -> None:
        """Called before each event after the first, with the state it applies to."""

    def after(self, step: Step) -> None:
        """Called after each event (each of :attr:`after_types`), with the state it left."""

    def finish(self, state: Any) -> None:
        """Called once, when the caller says the replay is over."""


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Score:
    """One seat's score: the total, its rank (1 = best, shared on a tie), VP by category."""

    seat: int
    total: int
    rank: int
    won: bool
    categories: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Result:
    """The result of a game, or the standing of an unfinished one (``finished`` False)."""

    winners: tuple[int, ...]
    scores: tuple[Score, ...]
    finished: bool
    tie_break: str = "none"


def ranks(keys: Sequence[Any]) -> list[int]:
    """Competition ranks (1, 2, 2, 4) of seats by a key where more is better."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


# ----------------------------------------------------------------------------- the parts


class Rules(Generic[S, P]):
    """What the rules say: how a game starts and what each event does.

    :meth:`apply` changes the state in place. An illegal event raises
    :class:`replay.errors.RuleViolation` and changes nothing, so a lenient replay
    can go on; problems that do not stop the event (a wrong written claim: the
    rules' value stands) are returned. :meth:`recover` may put the table right
    after an illegal event (the default skips it).
    """

    snapshot_version: ClassVar[int] = 1
    """Bump when the snapshot format changes; cached snapshots of other versions are rebuilt."""

    def start(self, event: Event, pack: P) -> S:
        """The state after the start event, under the pinned pack; RuleViolation if it is unplayable."""
        raise NotImplementedError

    def apply(self, state: S, event: Event) -> Sequence[Problem]:
        """Apply one event after the first, in place; return what it claims wrongly."""
        raise NotImplementedError

    def recover(self, state: S, event: Event, problem: Problem) -> Sequence[Problem]:
        """After ``event`` was refused with ``problem``: put the table where the rest can be checked."""
        return ()

    def apply_trusted(self, state: S, event: Event) -> None:
        """Apply an event already known to be legal, in place, without checking it (python-chess's
        ``push`` beside ``is_legal``): an event a simulation made from choices it checked, or one a
        replay has already accepted without a problem (seeking replays those from a snapshot).

        It must leave the state :meth:`apply` would leave (the same state hash); what it does with
        an event that is *not* legal is undefined. The default is :meth:`apply` itself."""
        self.apply(state, event)

    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def position(self, state: S, event: Event) -> Position:
        """Where ``event`` belongs, given the state just before it."""
        return NO_POSITION

    def apply_at(self, state: S, event: Event) -> tuple[Position, Sequence[Problem]]:
        """:meth:`position`, then :meth:`apply`: the event's position and what it claims wrongly.

        The replay driver calls this once an event; a game whose rules have a compiled fast path
        may do both in one call (the calls around the rules are a fold's largest cost after the
        rules themselves). It must give what the two calls give, and raise as :meth:`apply` raises
        (the driver then asks :meth:`position` again, the state unchanged)."""
        return self.position(state, event), self.apply(state, event)

    def legal_actions(self, state: S, seat: int) -> Sequence[Any]:
        """Every action ``seat`` may take now, in the form :meth:`action_of` gives."""
        raise NotImplementedError

    def action_of(self, event: Event) -> Any | None:
        """The action an event records (None for chance outcomes and bookkeeping)."""
        return None

    def snapshot(self, state: S) -> dict[str, Any]:
        """The whole state as plain JSON data, losing nothing (the pack is not included).

        The data must share nothing mutable with the state: the replay goes on changing it."""
        raise NotImplementedError

    def restore(self, data: dict[str, Any], pack: P) -> S:
        """The state a snapshot was taken of: ``restore(snapshot(s), pack) == s``."""
        raise NotImplementedError


class Views(Generic[S]):
    """What people and programs see of a state."""

    hidden_information: ClassVar[bool] = False
    """Whether some seats may not see all of a state (a hand, a deck's order)."""

    bookkeeping: ClassVar[frozenset[str]] = frozenset()
    """Keys of :meth:`data` the rules keep for themselves (what they wait for next): part of the
    state and its hash, but left out of the changes ``step`` and ``diff`` show a person."""

    def data(self, state: S) -> dict[str, Any]:
        """The whole state as plain data: for ``show --format json``, differences, state hashes."""
        raise NotImplementedError

    def hides(self, state: S) -> bool:
        """Whether the game ``state`` belongs to may hide something from a seat. The default is
        :attr:`hidden_information`; a game whose secrets come with an expansion says so by its
        state (7 Wonders Duel: with Agora, whose conspiracies are secret, or Pantheon, whose Divinities
        are placed face down)."""
        return self.hidden_information

    def state_hash(self, state: S) -> str:
        """A stable digest of the whole state: equal states, equal hashes, on any machine."""
        return hashlib.sha256(canonical_json(self.data(state))).hexdigest()

    def observe(self, state: S, seat: int) -> dict[str, Any]:
        """What ``seat`` may see. The default, for games of perfect information, is everything."""
        return self.data(state)

    def conceal(self, state: S, seat: int, rng: random.Random) -> S | None:
        """A state that differs from ``state`` only in what ``seat`` may not see (for the
        conformance suite: ``observe`` must not tell the two apart); None if nothing is hidden."""
        return None

    def headline(self, event: Event, names: Sequence[str]) -> str:
        """An event in one line of words."""
        p = event.payload
        details = ", ".join(f"{k} {_short(v)}" for k, v in p.items() if k not in ("seats", "ruleset", "provenance"))
        return f"{event.type.replace('_', ' ')}" + (f": {details}" if details else "")

    def result(self, state: S) -> Result | None:
        """Winners and scores by category (as they stand, for an unfinished game), or None."""
        return None

    def show(self, state: S, player: str | None = None) -> str:
        """The whole table as text (``player``: only that player's part). Default: the data as a tree."""
        return "\n".join(_tree(self.data(state), 0))

    def summary(self, state: S, names: Sequence[str]) -> str:
        """The result as a small table (the default lists totals and categories)."""
        result = self.result(state)
        if result is None:
            return ""
        lines = ["finished" if result.finished else "unfinished: the standing so far"]
        for s in sorted(result.scores, key=lambda s: (s.rank, s.seat)):
            cats = ", ".join(f"{k} {v}" for k, v in s.categories.items() if v)
            name = names[s.seat] if s.seat < len(names) else f"seat {s.seat}"
            lines.append(f"  {s.rank}. {name:<12} {s.total:>4}" + (f"  ({cats})" if cats else "") + ("  winner" if s.won else ""))
        return "\n".join(lines)

    def checked(self, events: Sequence[Event], state: S | None) -> dict[str, Any]:
        """What an audit checked, for its report (the default counts the events)."""
        return {"events": len(events)}

    def explain(self, problem: Problem) -> str:
        """A problem as a player would say it. The default restates expected against found."""
        who = problem.player or "the table"
        head = f"turn {problem.turn}, {who}: " if problem.turn else f"{who}: "
        return head + f"expected {problem.expected}, found {problem.found}"

    def page_board(self, state: S) -> dict[str, Any]:
        """What the replay page's board script needs beside the state: what does not change during a
        game and the state does not hold (a board's spaces and costs, from the pack). Taken once, from
        the state after the start event. The default: nothing."""
        return {}

    def page_script(self) -> str | None:
        """The replay page's board script, ``page/board.js`` beside the module that defines this class
        (docs/page.md says what it is given and returns); None, the default without one: the page
        shows the state as a tree."""
        package = _data_package(type(self), Views, "page")
        if package is None:
            return None
        return resources.files(package).joinpath("page", "board.js").read_text(encoding="utf-8")

    def dispute(self, events: Sequence[Event]) -> tuple[int, dict[str, Any], str] | None:
        """A written claim of this game changed, as a dispute at the table would have it: (index of
        the event, its new payload, what was changed in words). The demo shows it; None when the game
        records no claim (the default)."""
        return None


class Notation:
    """A text form of a game that people read and type (what PGN is to chess)."""

    def read(self, text: str, level: Level = "collect", source: str = "") -> Parsed:
        """Events from text, the line of each, and the problems (``raise``: NotationError at the first)."""
        raise NotImplementedError

    def write(self, events: Iterable[Event]) -> str:
        """The canonical text of a game: reading it gives the same events."""
        raise NotImplementedError


class TableObserver(Observer):
    """Collects a game's rows of its derived tables while a replay runs."""

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        raise NotImplementedError

    def records(self) -> dict[str, list[tuple[Any, ...]]] | None:
        """Optional, faster: the same rows of some (or all) tables, each row a tuple of its values
        in its table's column order, which ``replay project`` turns into Arrow columns without a
        dict per row. None (the default): the projection takes :meth:`rows`. A table missing
        from the records is taken from :meth:`rows`."""
        return None


class Analytics:
    """A game's own SQL: derived tables (in the SQL schema ``schema``), reference data, named queries."""

    schema: ClassVar[str]
    """The SQL schema its tables live in (``SELECT * FROM pig.turns``)."""
    tables: ClassVar[Mapping[str, pa.Schema]]

    def observer(self, start: Event) -> TableObserver:
        """A fresh observer for one game, which starts with ``start``."""
        raise NotImplementedError

    def tables_played(self, pack: Any) -> frozenset[str]:
        """The tables that games under ``pack`` fill (default: all). A table of an expansion's
        (the Duel's Divinities) stays empty without it; the conformance suite asks each offered
        pack's games to fill exactly these."""
        return frozenset(self.tables)

    def reference_tables(self) -> dict[str, pa.Table]:
        """Small tables of rules data (dice faces, card counts)."""
        return {}

    def queries(self) -> dict[str, NamedQuery]:
        """The named queries in the ``queries/`` folder beside the module that defines this class."""
        package = _data_package(type(self), Analytics, "queries")
        return load_queries(package, "queries") if package else {}


class Bots:
    """Players the computer plays, and whole simulated games between them."""

    names: ClassVar[tuple[str, ...]]
    default: ClassVar[tuple[str, ...]]
    """The line-up ``simulate`` uses when none is asked for (cycled over the seats)."""

    def simulate(self, game_id: str, names: Sequence[str], seed: int, bots: Sequence[str],
                 pack: Any) -> list[Event]:
        """One complete game. Every chance outcome is drawn here, from ``seed``, and recorded."""
        raise NotImplementedError


# ----------------------------------------------------------------------------- the game


_PART_NAMES = {"notation": "notation", "analytics": "derived tables", "bots": "bots to simulate games with"}


class Game(Generic[S, P]):
    """One game kind. Subclass it, set the description and the parts; the registry finds an
    instance by the entry point ``replay.games``."""

    kind: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[tuple[int, int]]
    """Fewest and most seats."""
    event_types: ClassVar[tuple[type[EventPayload], ...]]
    start_type: ClassVar[type[GameStartedBase]]
    end_types: ClassVar[frozenset[str]]
    upcasters: ClassVar[tuple[Upcaster, ...]] = ()
    pack_model: ClassVar[type[RulesPack]]
    default_pack: ClassVar[str]
    """The shipped pack (by name) new games are played under unless another is given."""
    offered_packs: ClassVar[tuple[str, ...]] = ()
    """Every shipped pack a new game may be played under (each expansion or option set), all held to
    the conformance suite; empty: the default pack alone. Older versions of a pack, kept so pinned
    games replay, are shipped but not offered."""

    rules: Rules[S, P]
    views: Views[S]
    notation: Notation | None = None
    analytics: Analytics | None = None
    bots: Bots | None = None

    def __init__(self) -> None:
        problems = list(self._contract_problems())
        if problems:
            raise PluginError(f"game {getattr(self, 'kind', type(self).__name__)!r} breaks the contract: "
                              + "; ".join(problems))

    # -- what it offers

    def require(self, part: str) -> Any:
        """The part, or NotOffered saying in one sentence that this game does not have it."""
        value = getattr(self, part)
        if value is None:
            raise NotOffered(f"{self.title} has no {_PART_NAMES.get(part, part)}")
        return value

    def offers(self) -> list[str]:
        return ["rules", "views"] + [p for p in _PART_NAMES if getattr(self, p) is not None]

    # -- events

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
            raise UpcastError(f"{self.kind} event {event_type!r} is at version {version}, newer than this "
                              f"tool knows ({current}); upgrade replay to read it")
        while version < current:
            step = self._upcasters.get((event_type, version))
            if step is None:
                raise UpcastError(f"{self.kind} event {event_type!r} version {version} cannot be read: "
                                  f"no upcaster from version {version} to {version + 1}")
            payload = step.function(payload)
            version += 1
        return payload

    # -- packs

    @cached_property
    def _shipped(self) -> dict[str, RulesPack]:
        package = _data_package(type(self), Game, "rulesets")
        return dict(shipped_packs(self.pack_model, package)) if package else {}

    def packs(self) -> dict[str, RulesPack]:
        """The packs shipped with the game, by name."""
        return self._shipped

    def playable_packs(self) -> tuple[str, ...]:
        """The names of the packs a new game may be played under, the default first."""
        return (self.default_pack, *(n for n in self.offered_packs if n != self.default_pack))

    def pack(self, name: str | None = None) -> RulesPack:
        """A shipped pack by name (default: :attr:`default_pack`)."""
        name = name or self.default_pack
        try:
            return self._shipped[name]
        except KeyError:
            raise NotOffered(f"{self.title} ships no pack {name!r} (it ships {', '.join(self._shipped)})") from None

    def library(self, store: PackSource | None = None, extra: Iterable[RulesPack] = ()) -> PackLibrary:
        """Where this game's pinned packs are looked for: ``extra``, then the shipped ones, then ``store``."""
        return PackLibrary(self.kind, self._shipped.values(), store, extra)

    # -- checks

    def _contract_problems(self) -> Iterable[str]:
        for name in ("kind", "title", "players", "event_types", "start_type", "end_types", "pack_model",
                     "default_pack", "rules", "views"):
            if not hasattr(self, name):
                yield f"{name} is not set"
        if not hasattr(self, "event_types") or not hasattr(self, "kind"):
            return
        if not _KIND.match(self.kind):
            yield f"kind {self.kind!r} must be lowercase letters, digits and dashes"
        low, high = getattr(self, "players", (1, 0))
        if not 1 <= low <= high:
            yield f"players {low}..{high} is not a range of seats"
        names = [m.event_type for m in self.event_types]
        for name in names:
            if not _SNAKE.match(name):
                yield f"event type {name!r} must be snake_case"
            if name in ENVELOPE_FIELDS:
                yield f"event type {name!r} clashes with an envelope column"
        duplicates = {n for n in names if names.count(n) > 1}
        if duplicates:
            yield f"event types declared twice: {sorted(duplicates)}"
        if getattr(self, "start_type", None) not in self.event_types:
            yield f"start type {getattr(self, 'start_type', None)!r} is not among the event types"
        unknown_end = set(getattr(self, "end_types", ())) - set(names)
        if unknown_end:
            yield f"end types {sorted(unknown_end)} are not event types"
        versions = {m.event_type: m.version for m in self.event_types}
        have = {(u.event_type, u.from_version) for u in self.upcasters}
        for name, version in versions.items():
            for v in range(1, version):
                if (name, v) not in have:
                    yield f"{name} is at version {version} but has no upcaster from version {v}"
        for u in self.upcasters:
            if u.event_type not in versions or u.from_version >= versions[u.event_type]:
                yield f"upcaster {u.function.__name__} ({u.event_type} v{u.from_version}) leads nowhere"
        pack_model = getattr(self, "pack_model", RulesPack)
        if not (isinstance(pack_model, type) and issubclass(pack_model, RulesPack)):
            yield "pack_model must subclass replay.packs.RulesPack"
        for part, base in (("rules", Rules), ("views", Views), ("notation", Notation), ("analytics", Analytics),
                           ("bots", Bots)):
            value = getattr(self, part, None)
            if value is not None and not isinstance(value, base):
                yield f"{part} must be a {base.__name__}"
        if self.analytics is not None:
            schema = getattr(self.analytics, "schema", "")
            if not _SNAKE.match(schema) or schema in ("main", "pg_catalog", "information_schema"):
                yield f"analytics schema {schema!r} must be a snake_case name of its own"
            for table in getattr(self.analytics, "tables", {}):
                if not _SNAKE.match(table):
                    yield f"derived table {table!r} must be snake_case"
        if self.bots is not None and not set(self.bots.default) <= set(self.bots.names):
            yield f"default bots {self.bots.default} are not all among {self.bots.names}"


def _data_package(cls: type, base: type, folder: str) -> str | None:
    """The package holding ``folder`` beside the nearest class in ``cls``'s ancestry (up to ``base``)
    that was defined in a package: a game's shipped packs and queries live beside its code."""
    for klass in cls.__mro__:
        if klass is base:
            return None
        module = sys.modules[klass.__module__]
        package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
        if package and resources.files(package).joinpath(folder).is_dir():
            return package
    return None


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 40 else text[:37] + "..."


def _tree(data: Any, depth: int) -> Iterable[str]:
    pad = "  " * depth
    if isinstance(data, dict):
        for k, v in data.items():
            nested = isinstance(v, (dict, list)) and any(
                isinstance(x, (dict, list)) for x in (v.values() if isinstance(v, dict) else v))
            if nested:
                yield f"{pad}{k}:"
                yield from _tree(v, depth + 1)
            else:
                yield f"{pad}{k}: {_short(v)}"
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield f"{pad}[{i}]"
            yield from _tree(v, depth + 1)
    else:
        yield f"{pad}{_short(data)}"


AnyGame = Game[Any, Any]
"""A game of any kind, as the core sees it."""
