"""What every game's text notation shares: located problems, and header tags.

A game's notation reads text into events at an error level, like python-chess
and sqlglot: ``collect`` (lenient) gathers every problem (line, column, the
offending text) and keeps going; ``raise`` (strict) stops at the first. Both
return where each event came from, so an audit can point at the line a player
typed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from .errors import NotationError
from .events import GAME_ID_PATTERN, Event, EventPayload
from .numbers import is_number
from .problems import Level, Location, Problem, Problems

TAG = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
KIND_TAG = re.compile(r'^\s*\[\s*Kind\s+"([^"]+)"\s*\]', re.IGNORECASE | re.MULTILINE)
RAW = re.compile(r"^!\s*([a-z_]+)\s+(\{.*\})$")
"""``! <type> <payload JSON>``: an event a notation's compact forms cannot say (never in a valid game)."""
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
SOURCES = ("simulated", "typed", "imported")


@dataclass
class Parsed:
    """Events read from text, the line each came from (by seq), and the problems found."""

    events: list[Event] = field(default_factory=list)
    lines: dict[int, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


class Collector:
    """The problems of one reading, at one level: ``raise`` stops at the first (NotationError)."""

    def __init__(self, level: Level = "collect", source: str = "") -> None:
        self.source = source or None
        self._problems = Problems(level, NotationError)

    def add(self, line: int, column: int, text: str, message: str) -> None:
        self._problems.add(Problem("notation.syntax", message, where=Location(self.source, line, column), text=text))

    @property
    def problems(self) -> list[Problem]:
        return self._problems.found


@dataclass
class Header:
    """A notation text split into its header tags and its body."""

    tags: dict[str, str] = field(default_factory=dict)
    """Tag name as written -> value (unescaped), for every tag but ``Seat``."""
    seats: list[tuple[int, str, str]] = field(default_factory=list)
    """(line number, the line as written, value) of every ``[Seat "..."]`` tag, in order."""
    body: list[tuple[int, str]] = field(default_factory=list)
    """(line number, text without its comment) of every other non-empty line."""


def split_header(text: str, problems: Collector) -> Header:
    """Header tags (``[Name "value"]``) and body lines; a malformed tag is a problem."""
    header = Header()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        if not line.startswith("["):
            header.body.append((number, line))
            continue
        m = TAG.match(line)
        if not m:
            problems.add(number, 1, line, 'a header tag is [Name "value"]')
        elif m.group(1).lower() == "seat":
            header.seats.append((number, raw, unescape(m.group(2))))
        else:
            header.tags[m.group(1)] = unescape(m.group(2))
    return header


def numbered_seats(header: Header, problems: Collector) -> list[dict[str, Any]]:
    """``{"seat", "name"}`` of each ``[Seat "<number> <name>"]`` tag, in the order written; a tag of
    another form is a problem at its line (the games whose seats are numbered in the header)."""
    seats = []
    for number, raw, value in header.seats:
        seat, _, name = value.strip().partition(" ")
        if not is_number(seat) or not name.strip():
            problems.add(number, 1, raw.strip(), 'a seat is [Seat "<number> <name>"]')
        else:
            seats.append({"seat": int(seat), "name": name.strip()})
    return seats


def kind_of(text: str) -> str | None:
    """The game kind a notation text names in its ``[Kind "..."]`` tag, if any."""
    m = KIND_TAG.search(text)
    return m.group(1).strip() if m else None


def strip_comment(line: str) -> str:
    """Text before a ``#`` (comments run to the end of the line)."""
    return line.split("#", 1)[0].rstrip()


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


@dataclass
class Start:
    """What every game's header says the same way: ``[Game]``, ``[Ruleset]``, ``[Source]``, ``[SourceDetail]``."""

    game_id: str
    pin: list[str]
    """The ruleset's id, version and ``sha256:`` content hash."""
    provenance: dict[str, str]

    @property
    def ruleset(self) -> dict[str, str]:
        return {"id": self.pin[0], "version": self.pin[1], "content_hash": self.pin[2]}


def header_start(tags: dict[str, str], kind: str, problems: Collector) -> Start | None:
    """The shared tags of a header (``tags`` by lower-case name), or None and a problem at line 1."""
    found = tags.get("kind", kind)
    if found != kind:
        problems.add(1, 1, found, f'this is a {kind} reader; the header says [Kind "{found}"]')
        return None
    game_id = tags.get("game", "")
    if not GAME_ID_PATTERN.match(game_id):
        problems.add(1, 1, game_id, 'the header needs [Game "<id>"] (letters, digits, . _ : -)')
        return None
    pin = tags.get("ruleset", "").split()
    if len(pin) != 3 or not pin[2].startswith("sha256:"):
        problems.add(1, 1, tags.get("ruleset", ""), 'the header needs [Ruleset "<id> <version> sha256:<hash>"]')
        return None
    source = tags.get("source", "typed")
    return Start(game_id, pin, {"source": source if source in SOURCES else "typed", "detail": tags.get("sourcedetail", "")})


def raw_text(event: Event) -> str:
    """An event as a ``!`` line (``#`` escaped in the JSON, so that no comment cuts it)."""
    text = json.dumps(event.payload, separators=(",", ":"), sort_keys=True).replace("#", "\\u0023")
    return f"! {event.type} {text}"


def raw_fields(text: str) -> dict[str, Any] | None:
    """The payload of a ``!`` line, or None when it is not a JSON object."""
    try:
        fields = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return fields if isinstance(fields, dict) else None


def first_error(exc: ValidationError) -> str:
    """The first thing a model refused, in a few words."""
    e = exc.errors()[0]
    where = ".".join(str(x) for x in e["loc"])
    return f"{where}: {e['msg']}" if where else str(e["msg"])


def name_at(text: str, names: dict[str, int]) -> tuple[int, str] | None:
    """The longest seat name (``names``: lower-case name -> seat) that ``text`` starts with, as a
    word (names may hold spaces): (seat, the name as typed)."""
    low = text.lower()
    for name in sorted(names, key=len, reverse=True):
        rest = low[len(name):]
        if low.startswith(name) and (not rest or not (rest[0].isalnum() or rest[0] == "_")):
            return names[name], text[:len(name)]
    return None


def items(text: str, start: int = 0, sep: str = ",") -> Iterator[tuple[int, str]]:
    """The non-empty items of a ``sep``-separated list, stripped, each with its index in the line
    (``text`` begins at index ``start``), so that a problem can point at the item."""
    at = start
    for item in text.split(sep):
        if item.strip():
            yield at + len(item) - len(item.lstrip()), item.strip()
        at += len(item) + 1


class LineReader:
    """What a game's reader of body lines shares: the line being read, problems located in it, and
    events validated and appended with the line each came from."""

    kind = ""

    def __init__(self, out: Parsed, problems: Collector, raw: list[str]) -> None:
        self.out, self.problems, self.raw = out, problems, raw
        self.game_id = ""
        self.names: dict[str, int] = {}
        """Seat by lower-case name."""
        self.number = 0
        """The line being read (1-based)."""
        self.offset = 0
        """Where its text (without indentation) begins in the line as written."""

    def problem(self, at: int, text: str, message: str) -> None:
        """A problem at index ``at`` of the line being read."""
        self.problems.add(self.number, self.offset + at + 1, text, message)

    def seat_list(self) -> str:
        return "(the seats are: " + ", ".join(sorted(self.names)) + ")"

    def payload(self, model: type[EventPayload], fields: dict[str, Any], at: int = 0) -> EventPayload | None:
        """``fields`` as ``model``; a payload the model refuses is a problem at ``at``."""
        try:
            return model(**fields)
        except ValidationError as exc:
            self.problem(at, str(fields)[:80], f"{model.event_type}: {first_error(exc)}")
            return None

    def append(self, event: Event, line: int | None = None) -> None:
        """Append an event read from ``line`` (default: the line being read)."""
        self.out.lines[event.seq] = line if line is not None else self.number
        self.out.events.append(event)

    def event(self, payload: EventPayload) -> Event:
        """The next event of the game, of ``payload``."""
        return Event.create(self.kind, self.game_id, len(self.out.events), payload)

    def emit(self, model: type[EventPayload], fields: dict[str, Any], line: int | None = None, at: int = 0) -> bool:
        """Validate and append one event (then :meth:`follow`); a payload the model refuses is a problem at ``at``."""
        payload = self.payload(model, fields, at)
        if payload is None:
            return False
        event = self.event(payload)
        self.append(event, line)
        self.follow(event)
        return True

    def follow(self, event: Event) -> None:
        """What a game's reader follows of each event it appends (where the text is: an Age, a turn)."""

    def unreadable(self, line: str, longest: int) -> bool:
        """A line too long or with a control character: a problem, and it is not read further."""
        if len(line) > longest:
            self.problem(0, line[:80], f"a line of {len(line)} characters (at most {longest})")
            return True
        if m := CONTROL.search(line):
            self.problem(m.start(), repr(m.group()), "a control character; a line holds printable text only")
            return True
        return False

    def raw_start(self, body: list[tuple[int, str]], start: type[EventPayload]) -> bool | None:
        """A body that begins with a ``! game_started`` line (a start the header cannot say): the
        start read (True) or a problem (False); None when the body does not begin so."""
        if not body or not (m := RAW.match(body[0][1])) or m.group(1) != start.event_type:
            return None
        self.number = body.pop(0)[0]
        fields = raw_fields(m.group(2))
        if fields is None:
            self.problem(0, m.group(2)[:80], "the payload is a JSON object")
            return False
        ok = self.emit(start, fields)
        self.names = {s["name"].lower(): s["seat"] for s in fields.get("seats", [])} if ok else {}
        return ok

    def raw_line(self, m: re.Match[str], models: Mapping[str, type[EventPayload]], start: type[EventPayload]) -> None:
        """``! <type> <payload JSON>`` (``m``: :data:`RAW`'s match): an event the compact forms cannot
        say (never in a valid game); the start is read only at the top (:meth:`raw_start`)."""
        model = models.get(m.group(1))
        if model is None or model is start:
            self.problem(m.start(1), m.group(1), "unknown event type")
            return
        fields = raw_fields(m.group(2))
        if fields is None:
            self.problem(m.start(2), m.group(2)[:80], "the payload is a JSON object")
            return
        self.emit(model, fields, at=m.start(2))

    def read(self, body: list[tuple[int, str]]) -> None:
        """Each body line, in order (``line`` reads one)."""
        for number, line in body:
            self.number = number
            self.offset = max(self.raw[number - 1].find(line), 0)
            self.line(line)

    def line(self, line: str) -> None:
        raise NotImplementedError


class HeaderReader(LineReader):
    """A line reader that begins with the header: what :func:`read_text` drives."""

    def start(self, header: Header) -> bool:
        """The start event from the header; False after a problem (the body is then not read)."""
        raise NotImplementedError

    def begin(self, header: Header, start: type[EventPayload]) -> tuple[Start, dict[str, str]] | bool:
        """The header's shared tags (:func:`header_start`; the game's id kept, the pin given to
        :meth:`pinned`) and every tag by lower-case name. Without seat tags, a body that begins
        with a raw start line is read instead: True, or False after a problem, as is a bad tag."""
        self.number, self.offset = 1, 0
        tags = {name.lower(): value for name, value in header.tags.items()}
        begun = header_start(tags, self.kind, self.problems)
        if begun is None:
            return False
        self.game_id = begun.game_id
        self.pinned(begun.pin)
        if not header.seats and (said := self.raw_start(header.body, start)) is not None:
            return said
        return begun, tags

    def pinned(self, pin: list[str]) -> None:
        """What a game's reader takes from the ruleset's pin (its pack, to check names against)."""

    def seat_tags(self, header: Header, seat: re.Pattern[str], form: str) -> list[tuple[int, str, re.Match[str]]] | None:
        """Each ``[Seat "..."]`` tag matched by ``seat``: (its line, the line as written, the match);
        None after a problem (a tag not of the ``form`` said)."""
        out = []
        for number, raw, value in header.seats:
            self.number = number
            m = seat.match(value.strip())
            if m is None:
                self.problem(0, raw.strip(), f'a seat is [Seat "{form}"]')
                return None
            out.append((number, raw, m))
        return out


def read_text(reader: type[HeaderReader], text: str, level: Level = "collect", source: str = "") -> Parsed:
    """Events from a notation text, read by a game's ``reader``. ``collect``: every problem
    gathered; ``raise``: NotationError at the first."""
    out = Parsed()
    problems = Collector(level, source)
    header = split_header(text, problems)
    lines = reader(out, problems, text.splitlines())
    if lines.start(header):
        lines.read(header.body)
    out.problems = problems.problems
    return out


TAG_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def start_tags(event: Event, kind: str) -> list[str]:
    """The header lines a game's text opens with: the game, its kind, the pack it pins, where it
    comes from (and the detail, when there is one)."""
    p, r = event.payload, event.payload["ruleset"]
    lines = [f'[Game "{escape(event.game_id)}"]', f'[Kind "{kind}"]', f'[Ruleset "{r["id"]} {r["version"]} {r["content_hash"]}"]',
             f'[Source "{p["provenance"]["source"]}"]']
    if p["provenance"].get("detail"):
        lines.append(f'[SourceDetail "{escape(p["provenance"]["detail"])}"]')
    return lines


def numbered_seat_tags(payload: dict[str, Any]) -> list[str]:
    """``[Seat "<number> <name>"]`` of each seat, in seat order (what :func:`numbered_seats` reads)."""
    return [f'[Seat "{s["seat"]} {escape(s["name"])}"]' for s in sorted(payload["seats"], key=lambda s: s["seat"])]


class Writer:
    """What a game's writer of its notation shares: each event in its compact form where reading
    that form gives the event back, otherwise (never in a valid game) as a raw ``!`` line."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: list[str] = []
        self.sayable = False
        """Whether the seats' names can be said (each sayable, no two alike in any case)."""

    def write(self, events: Iterable[Event]) -> str:
        for e in events:
            if not self.event(e):
                self.lines.append(raw_text(e))
            self.follow(e)
        return "\n".join(self.lines) + "\n"

    def event(self, e: Event) -> bool:
        """Write ``e`` compactly; False if it has no compact form here."""
        raise NotImplementedError

    def follow(self, event: Event) -> None:
        """What a game's writer follows of each event written (the reader follows the same)."""

    def name(self, seat: Any) -> str | None:
        ok = self.sayable and isinstance(seat, int) and 0 <= seat < len(self.names)
        return self.names[seat] if ok else None

    def scores(self, names: Iterable[str], claims: Iterable[dict[str, Any]], written: Mapping[str, str]) -> None:
        """``score <name>[: <category> N, ...]`` for each seat's claims (``written``: a category's
        word in the text where it is not its name)."""
        for name, claim in zip(names, claims):
            said = [f"{written.get(c, c)} {v}" for c, v in claim.items() if c != "seat" and v is not None]
            self.lines.append(f"score {name}" + (f": {', '.join(said)}" if said else ""))

    @staticmethod
    def amounts(counted: Mapping[str, int]) -> str:
        """``2 wood, clay``: resources and how many of each (one is said without its number)."""
        return ", ".join(f"{k} {r}" if k > 1 else r for r, k in counted.items())

    @staticmethod
    def tag(name: str, value: str, structural: Iterable[str]) -> bool:
        """Whether a free header tag reads back as itself: not one the notation reads itself (but
        ``SourceDetail``), and no comment's ``#`` or line break to cut it."""
        return (bool(TAG_NAME.match(name)) and (name.lower() not in structural or name == "SourceDetail")
                and "#" not in value and not CONTROL.search(value) and "\n" not in value)
