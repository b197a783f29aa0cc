"""St. Petersburg's notation: a header, then one line per event.

::

    [Game "club-7"]
    [Kind "st-petersburg"]
    [Ruleset "stpete-base 1.0.0 sha256:..."]
    [Markers "0 1 0 1"]                 # seats holding the worker, building, aristocrat, trading markers
    [Seat "0 Ana"]
    [Seat "1 Ben"]

    reveal worker: lumberjack, shepherd, gold-miner, lumberjack
    Ana: buy shepherd top {paid 5}
    Ben: buy fur-shop bottom displacing fur-trapper {paid 3}
    Ana: take author top
    Ben: pass
    Ana: observatory aristocrat judge    # the deck, then the card drawn
    Ana: discard judge
    end worker {Ana 6r 0p, Ben 3r 0p}    # the phase's income as written down (each part optional)
    Ana: pub 3
    round 1 ends {markers 1 0 1 0}
    result Ana 53, Ben 50; winners Ana

``! <type> <payload JSON>`` gives an event the compact lines cannot say (the writer uses it for
nothing a valid game holds). Keywords and names are matched without regard to case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from replay.contract import Notation
from replay.events import Event, EventPayload
from replay.notation import (
    RAW,
    Collector,
    LineReader,
    Parsed,
    header_start,
    name_at,
    numbered_seat_tags,
    numbered_seats,
    raw_fields,
    raw_text,
    split_header,
    start_tags,
)
from replay.numbers import is_number
from replay.problems import Level

from .events import KIND

REVEAL = re.compile(r"^reveal\s+([a-z]+)\s*:\s*(.*)$", re.IGNORECASE)
END = re.compile(r"^end\s+([a-z]+)\s*(?:\{(.*)\})?$", re.IGNORECASE)
ROUND = re.compile(r"^round\s+([0-9]+)\s+ends\s*(?:\{\s*markers\s+([0-9 ]*)\})?$", re.IGNORECASE)
RESULT = re.compile(r"^result\b(.*)$", re.IGNORECASE)
PAID = re.compile(r"\{\s*paid\s+([0-9]+)\s*\}$", re.IGNORECASE)
INCOME = re.compile(r"^(?:([0-9]+)r)?\s*(?:([0-9]+)p)?$", re.IGNORECASE)


class _Reader(LineReader):
    kind = KIND

    def emit_type(self, type_: str, fields: dict[str, Any], at: int = 0) -> None:
        from . import GAME

        payload = self.payload(GAME.models[type_], fields, at)
        if payload is not None:
            self.append(self.event(payload))

    def seat_names(self, text: str) -> list[int] | None:
        out = []
        for part in filter(None, (x.strip() for x in text.split(","))):
            seat = self.names.get(part.lower())
            if seat is None:
                return None
            out.append(seat)
        return out

    def line(self, line: str) -> None:
        if m := RAW.match(line):
            fields = raw_fields(m.group(2))
            from . import GAME

            if fields is None or m.group(1) not in GAME.models:
                self.problem(0, line[:40], "a raw line is '! <event type> <payload JSON object>'")
                return
            self.emit_type(m.group(1), fields)
            return
        if m := REVEAL.match(line):
            cards = [c.strip() for c in m.group(2).split(",") if c.strip() and c.strip() != "-"]
            self.emit_type("cards_revealed", {"deck": m.group(1).lower(), "cards": cards}, m.start(1))
            return
        if m := END.match(line):
            self.end(m.group(1).lower(), m.group(2), m.start(2) if m.group(2) is not None else 0)
            return
        if m := ROUND.match(line):
            markers = [int(x) for x in m.group(2).split()] if m.group(2) is not None else None
            self.emit_type("round_ended", {"round": int(m.group(1)), "markers": markers})
            return
        if m := RESULT.match(line):
            self.result(m.group(1))
            return
        found = name_at(line, self.names)
        if found is None or not line[len(found[1]):].lstrip().startswith(":"):
            self.problem(0, line[:40], "expected '<player>: <action>', 'reveal', 'end', 'round N ends' or 'result' "
                         + self.seat_list())
            return
        seat, typed = found
        rest = line[len(typed):].lstrip()[1:].strip()
        self.action(seat, rest, line.find(rest) if rest else 0)

    def action(self, seat: int, text: str, at: int) -> None:
        paid = None
        if m := PAID.search(text):
            paid = int(m.group(1))
            text = text[:m.start()].strip()
        words = text.split()
        verb = words[0].lower() if words else ""
        if verb == "pass" and len(words) == 1:
            self.emit_type("passed", {"seat": seat}, at)
        elif verb == "buy" and len(words) in (3, 5) and (len(words) == 3 or words[3].lower() == "displacing"):
            self.emit_type("card_bought", {"seat": seat, "card": words[1], "source": words[2].lower(),
                                      "displaces": words[4] if len(words) == 5 else None, "paid": paid}, at)
        elif verb == "take" and len(words) == 3:
            self.emit_type("card_taken", {"seat": seat, "card": words[1], "source": words[2].lower()}, at)
        elif verb == "observatory" and len(words) == 3:
            self.emit_type("observatory_used", {"seat": seat, "deck": words[1].lower(), "card": words[2]}, at)
        elif verb == "discard" and len(words) == 2:
            self.emit_type("card_discarded", {"seat": seat, "card": words[1]}, at)
        elif verb == "pub" and len(words) == 2 and is_number(words[1]):
            self.emit_type("pub_used", {"seat": seat, "points": int(words[1])}, at)
        else:
            self.problem(at, text[:40], "an action is 'pass', 'buy CARD SOURCE [displacing CARD] [{paid N}]', "
                         "'take CARD SOURCE', 'observatory DECK CARD', 'discard CARD' or 'pub N'")

    def end(self, phase: str, claims: str | None, at: int) -> None:
        income: list[dict[str, Any]] | None = None
        if claims is not None:
            income = []
            for item in filter(None, (x.strip() for x in claims.split(","))):
                found = name_at(item, self.names)
                m = INCOME.match(item[len(found[1]):].strip()) if found else None
                if found is None or m is None:
                    self.problem(at, item, "an income is '<player> [Nr] [Np]' " + self.seat_list())
                    return
                income.append({"seat": found[0], "rubles": int(m.group(1)) if m.group(1) else None,
                               "points": int(m.group(2)) if m.group(2) else None})
        self.emit_type("phase_ended", {"phase": phase, "income": income})

    def result(self, text: str) -> None:
        scores_text, semi, winners_text = text.partition(";")
        scores: list[dict[str, Any]] | None = None
        if scores_text.strip() != "-":
            scores = []
            for item in filter(None, (x.strip() for x in scores_text.split(","))):
                name, _, total = item.rpartition(" ")
                seat = self.names.get(name.strip().lower())
                if seat is None or not re.fullmatch(r"-?[0-9]{1,9}", total):
                    self.problem(0, item, "a score is '<player> <points>' " + self.seat_list())
                    return
                scores.append({"seat": seat, "total": int(total)})
        winners = None
        if semi:
            words = winners_text.strip()
            if not words.lower().startswith("winners"):
                self.problem(0, winners_text, "the result ends with '; winners <player>, ...'")
                return
            winners = self.seat_names(words[7:])
            if winners is None:
                self.problem(0, words, "unknown player among the winners " + self.seat_list())
                return
        self.emit_type("game_ended", {"scores": scores, "winners": winners})


class StPeteNotation(Notation):
    def read(self, text: str, level: Level = "collect", source: str = "") -> Parsed:
        out = Parsed()
        problems = Collector(level, source)
        header = split_header(text, problems)
        tags = {k.lower(): v for k, v in header.tags.items()}
        start = header_start(tags, KIND, problems)
        seats = numbered_seats(header, problems)
        markers = tags.get("markers", "").split()
        if start is None:
            out.problems = problems.problems
            return out
        if len(markers) != 4 or not all(is_number(m) for m in markers) or not seats:
            problems.add(1, 1, tags.get("markers", ""), 'the header needs [Markers "<4 seat numbers>"] and a '
                         '[Seat "<number> <name>"] per player')
            out.problems = problems.problems
            return out
        reader = _Reader(out, problems, text.splitlines())
        reader.game_id = start.game_id
        reader.names = {s["name"].lower(): s["seat"] for s in seats}
        from . import GAME

        payload: EventPayload | None = reader.payload(GAME.start_type, {
            "ruleset": start.ruleset, "seats": seats, "provenance": start.provenance,
            "markers": [int(m) for m in markers]})
        if payload is None:
            out.problems = problems.problems
            return out
        reader.append(reader.event(payload), header.body[0][0] if header.body else 1)
        reader.read(header.body)
        out.problems = problems.problems
        return out

    def write(self, events: Iterable[Event]) -> str:
        lines: list[str] = []
        names: list[str] = []
        for e in events:
            if e.type == "game_started":
                p = e.payload
                names = [s["name"] for s in sorted(p["seats"], key=lambda s: s["seat"])]
                lines += start_tags(e, KIND)
                lines.append(f'[Markers "{" ".join(str(m) for m in p["markers"])}"]')
                lines += numbered_seat_tags(p)
                lines.append("")
                continue
            compact = line_of(e, names)
            lines.append(compact if compact is not None and _reads_back(compact, e, names) else raw_text(e))
        return "\n".join(lines) + "\n"


def line_of(e: Event, names: list[str]) -> str | None:
    """The compact line of an event, or None when it has none."""
    p = e.payload

    def who(seat: Any) -> str | None:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else None

    t = e.type
    if t == "cards_revealed":
        return f"reveal {p['deck']}: {', '.join(p['cards']) or '-'}"
    if t == "phase_ended":
        if p.get("income") is None:
            return f"end {p['phase']}"
        parts = []
        for c in p["income"]:
            name = who(c["seat"])
            if name is None:
                return None
            bits = ([f"{c['rubles']}r"] if c.get("rubles") is not None else []) + (
                [f"{c['points']}p"] if c.get("points") is not None else [])
            parts.append(" ".join([name, *bits]))
        return f"end {p['phase']} {{{', '.join(parts)}}}"
    if t == "round_ended":
        marks = p.get("markers")
        return f"round {p['round']} ends" + (f" {{markers {' '.join(str(m) for m in marks)}}}" if marks is not None else "")
    if t == "game_ended":
        scores = p.get("scores")
        text = "-" if scores is None else ", ".join(f"{who(c['seat'])} {c['total']}" for c in scores)
        if scores is not None and any(c.get("total") is None for c in scores):
            return None
        winners = p.get("winners")
        tail = "" if winners is None else "; winners " + ", ".join(str(who(w)) for w in winners)
        return f"result {text}{tail}"
    name = who(p.get("seat"))
    if name is None:
        return None
    if t == "passed":
        return f"{name}: pass"
    if t == "card_bought":
        text = f"{name}: buy {p['card']} {p['source']}" + (f" displacing {p['displaces']}" if p.get("displaces") else "")
        return text + (f" {{paid {p['paid']}}}" if p.get("paid") is not None else "")
    if t == "card_taken":
        return f"{name}: take {p['card']} {p['source']}"
    if t == "observatory_used":
        return f"{name}: observatory {p['deck']} {p['card']}"
    if t == "card_discarded":
        return f"{name}: discard {p['card']}"
    if t == "pub_used":
        return f"{name}: pub {p['points']}"
    return None


def _reads_back(line: str, e: Event, names: list[str]) -> bool:
    """Whether the compact line reads back as exactly this event (else the writer uses a raw line)."""
    out = Parsed()
    reader = _Reader(out, Collector("collect"), [line])
    reader.game_id, reader.names = e.game_id, {n.lower(): i for i, n in enumerate(names)}
    out.events = [e] * e.seq  # the event keeps its number
    reader.read([(1, line)])
    return len(out.events) == e.seq + 1 and out.events[-1] == e and not reader.problems.problems
