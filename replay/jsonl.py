"""JSON Lines: one event per line, for people and other tools.

A line is the envelope plus the payload::

    {"game_id": "g1", "seq": 0, "kind": "pig", "type": "game_started", "version": 1, "payload": {...}}

Reading is strict about types (``"seq": "3"`` is an error, not 3) and reads the
whole input before anything is written: every problem is reported with its line
number and field, and a file with any problem writes nothing. Old event
versions are accepted and upcast; what is stored is always the current version.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import chain_compiled
from .archive.store import NEW_STREAM, Archive, PreparedFile, StreamPosition
from .errors import InvalidInput, ReplayError
from .events import GAME_ID_PATTERN, Event
from .gcpause import gc_paused
from .numbers import is_number
from .packs import RulesPack
from .problems import Level, Location, Problem, Problems
from .registry import GameRegistry

BATCH_EVENTS = 250_000
"""Events encoded per spilled file while importing: bounds memory on big inputs."""


class _Envelope(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    game_id: str = Field(pattern=GAME_ID_PATTERN.pattern)
    seq: int = Field(ge=0)
    kind: str
    type: str
    version: int = Field(ge=1)
    payload: dict[str, Any]


def _input(line: int | None, field: str, message: str, rule: str) -> Problem:
    return Problem(f"jsonl.{rule}", message, where=Location(line=line, field=field or None))


def validation_problems(exc: ValidationError, line: int | None, prefix: str = "", namespace: str = "jsonl") -> list[Problem]:
    """A pydantic error as problems, one per field, in field order (pydantic promises no order)."""
    out = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"])
        field_name = f"{prefix}.{loc}" if prefix and loc else (prefix or loc)
        found = err.get("input")
        detail = err["msg"]
        if err["type"] not in ("missing", "extra_forbidden") and not isinstance(found, (dict, list)):
            detail += f" (found {json.dumps(found)})"
        out.append(Problem(f"{namespace}.{err['type']}", detail, where=Location(line=line, field=field_name or None)))
    return sorted(out, key=lambda p: (p.field or "", p.rule_id))


def parse_line(text: str, line: int, games: GameRegistry) -> tuple[Event | None, list[Problem]]:
    """One JSON Lines record as a validated, current-version event, or the problems with it."""
    event, problems, _ = _parse(text, line, games)
    return event, problems


def _loads(text: str) -> tuple[Any, bool]:
    """``json.loads(text)``, and whether orjson read it. orjson reads what RFC 8259 allows (not NaN, not a lone
    surrogate) several times faster, and alike but for an integer beyond 64 bits, which it reads as a float where
    json reads an int: so a line orjson reads is taken only if it holds no float (the compiled canonical body
    declines floats, and integers beyond 64 bits, in about a microsecond); any other line, and every error (in
    json's words), is json's. Without the compiled chain, every line is json's."""
    compiled = chain_compiled.CCHAIN
    if compiled is not None:
        try:
            raw = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
        else:
            if compiled.canonical(raw) is not None:
                return raw, True
    return json.loads(text), False


_ENVELOPE_KEYS = frozenset(_Envelope.model_fields)


def _plain_envelope(raw: dict[str, Any]) -> bool:
    """Whether ``raw`` is an envelope :class:`_Envelope` takes as it is (exact types, the id's pattern, the ranges):
    its checks without a model, for the lines that pass them all; any other line is validated by the model."""
    if raw.keys() != _ENVELOPE_KEYS:
        return False
    game_id, seq, version = raw["game_id"], raw["seq"], raw["version"]
    return (type(game_id) is str and GAME_ID_PATTERN.fullmatch(game_id) is not None and type(seq) is int and seq >= 0
            and type(raw["kind"]) is str and type(raw["type"]) is str and type(version) is int and version >= 1
            and type(raw["payload"]) is dict)


def _parse(
    text: str, line: int, games: GameRegistry
) -> tuple[Event | None, list[Problem], tuple[str, str, int] | None]:
    """Like parse_line, plus (game, kind, seq) whenever the envelope was readable."""
    try:
        raw, fast = _loads(text)
    except json.JSONDecodeError as exc:
        return None, [_input(line, "", f"malformed JSON: {exc.msg} (column {exc.colno})", "json")], None
    except RecursionError:
        return None, [_input(line, "", "malformed JSON: nested too deeply", "json")], None
    if not isinstance(raw, dict):
        return None, [_input(line, "", "a line must be one JSON object", "json")], None
    if _plain_envelope(raw):
        game_id, seq, kind, type_, version, payload = (raw["game_id"], raw["seq"], raw["kind"], raw["type"],
                                                      raw["version"], raw["payload"])
    else:
        try:
            env = _Envelope.model_validate(raw)
        except ValidationError as exc:
            return None, validation_problems(exc, line), _loose_position(raw)
        game_id, seq, kind, type_, version, payload = env.game_id, env.seq, env.kind, env.type, env.version, env.payload
    where = (game_id, kind, seq)
    try:
        game = games.get(kind)
    except ReplayError as exc:
        return None, [_input(line, "kind", str(exc), "kind")], where
    model = game.models.get(type_)
    if model is None:
        known = ", ".join(game.models)
        return None, [_input(line, "type", f"unknown {kind} event type {type_!r} (known: {known})", "type")], where
    if version != model.version:
        fast = False  # the upcast payload is the game's own objects: json's text, as always
        try:
            payload = game.upcast(type_, version, payload)
        except KeyError as exc:
            msg = f"Field required by version {version} of {type_}"
            return None, [_input(line, f"payload.{exc.args[0]}", msg, "missing")], where
        except (ReplayError, TypeError, ValueError) as exc:
            return None, [_input(line, "version", f"cannot read version {version}: {exc}", "version")], where
    try:  # what orjson read, orjson writes back (the same JSON values; json's text for anything else)
        validated = model.model_validate_json(orjson.dumps(payload) if fast else json.dumps(payload), strict=True)
    except ValidationError as exc:
        return None, validation_problems(exc, line, "payload"), where
    return Event.create(kind, game_id, seq, validated), [], where


def _loose_position(raw: dict[str, Any]) -> tuple[str, str, int] | None:
    """(game, kind, seq) of a line whose envelope is invalid, when they can still be read.

    Only used to keep following the game, so one bad line yields one problem
    rather than a second "seq gap" on the next line.
    """
    game, kind, seq = raw.get("game_id"), raw.get("kind"), raw.get("seq")
    if isinstance(seq, str) and is_number(seq):
        seq = int(seq)
    if isinstance(game, str) and isinstance(kind, str) and isinstance(seq, int) and not isinstance(seq, bool):
        return game, kind, seq
    return None


@dataclass
class _GameCursor:
    kind: str
    first: int
    last: int
    line: int
    ended: int | None = None  # the line of the game's end event, once seen


@dataclass
class ImportResult:
    events: int = 0
    games: int = 0
    generation: int = 0
    files: tuple[str, ...] = ()


@dataclass
class _Importer:
    """Reads every line, spills validated events to tmp/ in batches, commits once at the end."""

    archive: Archive
    source: str | None
    progress: Callable[[int], None] | None
    extra_packs: tuple[RulesPack, ...] = ()
    problems: list[Problem] = field(default_factory=list)
    packs: list[tuple[str, RulesPack]] = field(default_factory=list)
    games: dict[str, _GameCursor] = field(default_factory=dict)
    batch: list[Event] = field(default_factory=list)
    prepared: list[PreparedFile] = field(default_factory=list)
    heads: dict[str, int] = field(default_factory=dict)
    events: int = 0

    def feed(self, lines: Iterable[str]) -> None:
        # Parsing makes many small objects and no cycles: the collector is paused over a window of lines,
        # which ends when a batch has been spilled (and freed), the last one included. Running, it walked
        # the growing batch again and again, a quarter of an import's time (docs/performance.md, "Sixteenth
        # pass"). A window also ends after BATCH_EVENTS lines not kept (blank, bad or refused), so that what
        # bad lines' exceptions leave in cycles is collected as the file goes on.
        numbered = enumerate(lines, start=1)
        more = True
        while more:
            with gc_paused():
                more = self._feed_window(numbered)
                if not more:
                    self._spill()

    def _feed_window(self, numbered: Iterator[tuple[int, str]]) -> bool:
        """Lines fed until a batch is spilled or BATCH_EVENTS lines are not kept: True; False once all are read."""
        registry = self.archive.registry
        not_kept = 0
        for number, text in numbered:
            kept = len(self.batch)
            if self._feed_line(registry, number, text):
                return True
            if len(self.batch) <= kept:
                not_kept += 1
                if not_kept >= BATCH_EVENTS:
                    return True
        return False

    def _feed_line(self, registry: GameRegistry, number: int, text: str) -> bool:
        """One line read (checked, followed, kept in the batch); whether the batch was spilled."""
        if self.progress:
            self.progress(len(text))
        if not text.strip():
            return False
        event, problems, where = _parse(text, number, registry)
        if problems:
            self._report(problems)
            if where:  # keep following the game, so one bad line is one problem
                self._advance(*where, number)
            return False
        assert event is not None
        if self._fits_stream(event, number):
            self.events += 1
            if not self.problems:
                self.batch.append(event)
                if len(self.batch) >= BATCH_EVENTS:
                    self._spill()
                    return True
        return False

    def _report(self, problems: list[Problem]) -> None:
        self.problems.extend(p.at(source=self.source) for p in problems)
        self.batch.clear()  # nothing will be written: stop holding events

    def _fits_stream(self, e: Event, line: int) -> bool:
        """Seqs of each game must follow one another; games may interleave; nothing follows an end."""
        fits = self._follows(e, line)
        if fits and e.type in self.archive.registry.get(e.kind).end_types:
            self.games[e.game_id].ended = line
        return fits

    def _follows(self, e: Event, line: int) -> bool:
        cur = self.games.get(e.game_id)
        if cur is None:
            self.games[e.game_id] = _GameCursor(e.kind, e.seq, e.seq, line)
            start = self.archive.registry.get(e.kind).start_type.event_type
            if (e.seq == 0) != (e.type == start):
                self._report([_input(line, "type", f"game {e.game_id} begins with seq {e.seq} ({e.type}); a game "
                                     f"starts with one {start} event at seq 0", "start")])
                return False
            if e.seq == 0:
                pack, missing = self.archive.pin_problem(e, self.extra_packs)
                if pack is None:
                    self._report([_input(line, "payload.ruleset", str(missing), "pack")])
                    return False
                self.packs.append((e.kind, pack))
            return True
        if e.kind != cur.kind:
            self._report([_input(line, "kind", f"game {e.game_id} is a {cur.kind} game (line {cur.line}), not {e.kind}",
                                 "kind")])
            return False
        if cur.ended is not None:
            self._report([_input(line, "type", f"game {e.game_id} ended at line {cur.ended}; no event may follow its end",
                                 "end")])
            return False
        if e.seq != cur.last + 1:
            what = "repeated" if e.seq <= cur.last else "gap"
            self._report([_input(line, "seq", f"{what}: game {e.game_id} expected {cur.last + 1} after line {cur.line}, "
                                 f"found {e.seq}", "seq")])
            self._advance(e.game_id, e.kind, e.seq, line)
            return False
        start = self.archive.registry.get(e.kind).start_type.event_type
        if e.type == start:
            self._report([_input(line, "type", f"game {e.game_id}: a second {start} event", "start")])
            return False
        cur.last, cur.line = e.seq, line
        return True

    def _advance(self, game: str, kind: str, seq: int, line: int) -> None:
        cur = self.games.setdefault(game, _GameCursor(kind, seq, seq, line))
        cur.last, cur.line = max(cur.last, seq), line

    def _spill(self) -> None:
        if self.batch:
            self.prepared.extend(self.archive.prepare_files(self.batch, spill=True, heads=self.heads))
            self.batch = []

    def commit(self) -> ImportResult:
        if self.problems:
            raise InvalidInput(self.problems)
        if not self.games:
            raise InvalidInput([_input(None, "", "no events in the input", "empty").at(source=self.source)])
        self._spill()
        positions = {g: StreamPosition(c.kind, c.first - 1, c.last) for g, c in self.games.items()}
        result = self.archive.commit_prepared(self.prepared, positions, self.packs)
        return ImportResult(self.events, len(self.games), result.generation, result.files)

    def discard(self) -> None:
        for p in self.prepared:
            if p.tmp_path is not None:
                p.tmp_path.unlink(missing_ok=True)


def import_lines(
    archive: Archive,
    lines: Iterable[str],
    source: str | None = None,
    progress: Callable[[int], None] | None = None,
    packs: Iterable[RulesPack] = (),
) -> ImportResult:
    """Import JSON Lines into the archive in one commit. Raises InvalidInput listing every problem.

    The pack each new game pins must be shipped, in the archive already, or among ``packs``.
    """
    importer = _Importer(archive, source, progress, tuple(packs))
    try:
        importer.feed(lines)
        return importer.commit()
    finally:
        importer.discard()


def dump_line(event: Event) -> str:
    return json.dumps(event.to_json_obj(), ensure_ascii=False, separators=(", ", ": ")) + "\n"


def export_events(events: Iterable[Event], out: IO[str]) -> int:
    n = 0
    for e in events:
        out.write(dump_line(e))
        n += 1
    return n


def sequence_problems(events: Sequence[Event], lines: Sequence[int], source: str | None = None) -> list[Problem]:
    """Where the events of one game, in file order, are not numbered 0, 1, 2...: one problem per
    line whose seq is not its place (import refuses the same file; a file is audited as it would
    be archived)."""
    return [_input(line, "seq", f"game {e.game_id}: the event at place {place} of the file has seq {e.seq}; "
                   "seqs are 0, 1, 2... in order, without gaps or repeats", "seq").at(source=source)
            for place, (e, line) in enumerate(zip(events, lines)) if e.seq != place]


def read_events(lines: Iterable[str], games: GameRegistry, source: str | None = None,
                level: Level = "raise") -> Iterator[Event]:
    """Validated events from JSON Lines without an archive.

    ``raise``: InvalidInput at the first bad line; ``collect``: every bad line's problems,
    in one InvalidInput at the end; ``ignore``: bad lines are skipped.
    """
    found = Problems(level, InvalidInput)
    for number, text in enumerate(lines, start=1):
        if text.strip():
            event, problems = parse_line(text, number, games)
            for p in problems:
                found.add(p.at(source=source))
            if event is not None and not problems:
                yield event
    if found:
        raise InvalidInput(found.found)


__all__ = ["ImportResult", "NEW_STREAM", "dump_line", "export_events", "import_lines", "parse_line", "read_events",
           "sequence_problems"]
