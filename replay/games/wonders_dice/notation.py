"""A notation for 7 Wonders Dice that people can read and type (what PGN is to chess).

    [Game "club-2026-11-20-t3"]
    [Kind "7wonders-dice"]
    [Event "Club night"]
    [Date "2026-11-20"]
    [Ruleset "7wd-default 0.1.0 sha256:6c096add..."]
    [Options "resolution=simultaneous, resources=permanent"]
    [Seat "0 giza Ana"]
    [Seat "1 rhodes Ben"]

    1. roll grey1 stone 0, grey2 wood 1, grey3 glass 2, blue owl 0, red axe 3, yellow coins 1, green cog 0
    Ana: build grey1 warehouse/stone/stone {paid 0, vp 0, coins 7}
    Ben: pass                        # anything after a hash is a comment
    2. roll ...
    result Ana 45 coins 3; Ben 40 coins 5 [military 12, agora 8]; winners Ana; tiebreak none

Keywords, die ids, buildings and player names are matched without regard to case,
and spacing is free. A turn ends where the next ``roll`` or the ``result`` begins.
See docs/notation.md for the whole grammar.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable
from typing import Any

from replay.contract import Notation
from replay.events import Event
from replay.notation import Collector, Parsed, escape, split_header
from replay.numbers import DIGITS, is_number, is_signed_number
from replay.problems import Level

from .events import KIND
from .rules_data import Options, Ruleset

STRUCTURAL = ("Game", "Kind", "Ruleset", "Options", "Source", "SourceDetail", "Seat")
ROLL = re.compile(r"^(" + DIGITS + r")\s*\.\s*roll\s+(.*)$", re.IGNORECASE)
SWAP = re.compile(r"^swap\s+(\S+)\s+for\s+(\S+)$", re.IGNORECASE)
RESULT = re.compile(r"^result\s+(.*)$", re.IGNORECASE)
ACTION = re.compile(r"^([^:{}#\[\]]+?)\s*:\s*([^{}]*?)\s*(\{([^}]*)\})?$")
STEP_KINDS = ("build", "wonder", "pass", "cross", "bonus", "skip")


def _colour(die: str) -> str:
    return "grey" if die.startswith("grey") else die


def read(text: str, level: Level = "collect", source: str = "") -> Parsed:
    """Events from notation. ``collect``: every problem gathered; ``raise``: NotationError at the first."""
    out = Parsed()
    problems = Collector(level, source)
    header = split_header(text, problems)
    tags = {_tag_name(name): value for name, value in header.tags.items()}
    seats = [s for s in (_seat(value, number, raw, problems) for number, raw, value in header.seats) if s]
    body = header.body
    reader = _Body(out, problems, raw_lines=text.splitlines())
    start = reader.start(tags, seats, body[0][0] if body else 1)
    if start is not None:
        reader.read(body)
    out.problems = problems.problems
    return out


def _options(text: str) -> dict[str, Any]:
    """``name=value, ...``; ``none`` is null only for an option that may be null (``coin_cap``):
    elsewhere it is a value (``agora_first_same_turn=none``)."""
    out: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        key, _, value = (x.strip() for x in item.partition("="))
        field = Options.model_fields.get(key)
        nullable = field is not None and type(None) in typing.get_args(field.annotation)
        if nullable and value.lower() in ("", "none", "null"):
            out[key] = None
        elif is_signed_number(value):
            out[key] = int(value)
        elif value.lower() in ("true", "false"):
            out[key] = value.lower() == "true"
        else:
            out[key] = value
    return out


def _pinned_options(pin: list[str]) -> dict[str, Any]:
    """The options of the pinned pack when it is shipped (a header may list only some options),
    else the options' defaults."""
    from . import GAME

    for pack in GAME.packs().values():
        if isinstance(pack, Ruleset) and [pack.id, pack.version, pack.content_hash] == pin:
            return pack.options.model_dump(mode="json")
    return {}


def _tag_name(name: str) -> str:
    for known in STRUCTURAL:
        if known.lower() == name.lower():
            return known
    return name


def _seat(value: str, number: int, raw: str, problems: Collector) -> dict[str, Any] | None:
    parts = value.split(None, 2)
    if len(parts) < 3 or not is_number(parts[0]):
        problems.add(number, raw.find('"') + 2, value, "a seat is [Seat \"<number> <city> <name>\"]")
        return None
    return {"seat": int(parts[0]), "name": parts[2].strip(), "city": parts[1].lower()}


class _Body:
    def __init__(self, out: Parsed, problems: Collector, raw_lines: list[str]) -> None:
        self.out, self.problems, self.raw = out, problems, raw_lines
        self.game_id = ""
        self.names: dict[str, int] = {}
        self.turn = 0
        self.acted: set[int] = set()
        self.n_seats = 0

    def emit(self, line: int, type_: str, version: int, payload: dict[str, Any]) -> None:
        seq = len(self.out.events)
        self.out.events.append(Event(self.game_id, seq, KIND, type_, version, payload))
        self.out.lines[seq] = line

    def col(self, line: int, token: str) -> int:
        text = self.raw[line - 1]
        at = text.lower().find(token.lower()) if token else -1
        return at + 1 if at >= 0 else 1

    def start(self, tags: dict[str, str], seats: list[dict[str, Any]], line: int) -> bool | None:
        p = self.problems
        self.game_id = tags.pop("Game", "")
        kind = tags.pop("Kind", KIND)
        if kind != KIND:
            p.add(1, 1, kind, f"this is a {KIND} reader; the header says [Kind \"{kind}\"]")
            return None
        if not self.game_id:
            p.add(1, 1, "", 'the header needs [Game "<game id>"]')
        ruleset = tags.pop("Ruleset", "")
        parts = ruleset.split()
        if len(parts) != 3 or not parts[2].startswith("sha256:"):
            p.add(1, 1, ruleset, 'the header needs [Ruleset "<id> <version> sha256:<hash>"]')
            return None
        options = None
        if "Options" in tags:
            given = _options(tags.pop("Options"))
            try:
                base = _pinned_options(parts)
                options = Options.model_validate({**base, **given}).model_dump(mode="json")
            except ValueError as exc:
                p.add(1, 1, str(given), f"options: {str(exc).splitlines()[0]}")
                return None
        seats.sort(key=lambda s: s["seat"])
        if len(seats) < 2:
            p.add(1, 1, "", 'the header needs a [Seat "<number> <city> <name>"] for every player (2 to 7)')
            return None
        self.names = {s["name"].lower(): s["seat"] for s in seats}
        self.n_seats = len(seats)
        source = tags.pop("Source", "typed")
        detail = tags.pop("SourceDetail", "")
        self.emit(line, "game_started", 3, {
            "ruleset": {"id": parts[0], "version": parts[1], "content_hash": parts[2]},
            "seats": seats,
            "provenance": {"source": source if source in ("simulated", "typed", "imported") else "typed", "detail": detail},
            "options": options,
            "tags": dict(sorted(tags.items())),
        })
        return True

    def read(self, body: list[tuple[int, str]]) -> None:
        for number, line in body:
            if m := ROLL.match(line):
                self.end_turn(number)
                self.roll(number, int(m.group(1)), m.group(2))
            elif m := SWAP.match(line):
                self.emit(number, "special_die_swapped", 1,
                          {"turn": self.turn, "die": m.group(1).lower(), "replaces": m.group(2).lower()})
            elif m := RESULT.match(line):
                self.end_turn(number)
                self.result(number, m.group(1))
            elif m := ACTION.match(line):
                self.action(number, m)
            else:
                self.problems.add(number, 1, line, "expected a roll, an action, a swap or the result")
        if self.turn and len(self.acted) == self.n_seats and self.out.events[-1].type != "game_ended":
            self.end_turn(body[-1][0])

    def end_turn(self, line: int) -> None:
        if self.turn and self.out.events[-1].type not in ("turn_ended", "game_ended"):
            self.emit(line, "turn_ended", 1, {"turn": self.turn})

    def roll(self, number: int, turn: int, text: str) -> None:
        self.turn, self.acted = turn, set()
        dice = []
        for item in filter(None, (x.strip() for x in text.split(","))):
            parts = item.split()
            if len(parts) != 3 or not is_number(parts[2]):
                self.problems.add(number, self.col(number, item), item, "a die is '<id> <face> <section>'")
                continue
            die = parts[0].lower()
            dice.append({"id": die, "colour": _colour(die), "face": parts[1].lower(), "section": int(parts[2])})
        self.emit(number, "dice_rolled", 1, {"turn": turn, "dice": dice})

    def action(self, number: int, m: re.Match[str]) -> None:
        name = m.group(1).strip()
        seat = self.names.get(name.lower())
        if seat is None:
            known = ", ".join(sorted(self.names))
            self.problems.add(number, 1, name, f"unknown player (the seats are: {known})")
            return
        steps = []
        for chunk in filter(None, (x.strip() for x in m.group(2).split(";"))):
            step = self.step(number, chunk)
            if step is None:
                return
            steps.append(step)
        if not steps:
            self.problems.add(number, self.col(number, ":") + 1, m.group(2), "an action needs at least one step")
            return
        claims = self.claims(number, m.group(4)) if m.group(3) else None
        if m.group(3) and claims is None:
            return
        self.acted.add(seat)
        self.emit(number, "action_taken", 1, {"turn": self.turn, "player": seat, "steps": steps, "claims": claims})

    def step(self, number: int, chunk: str) -> dict[str, Any] | None:
        words = chunk.split()
        kind = words[0].lower()
        step: dict[str, Any] = {"kind": kind, "die": None, "building": None, "lane": None, "space": None, "slot": None}
        bad = None
        if kind in ("pass", "skip") and len(words) == 1:
            return step
        if kind == "wonder" and len(words) == 2:
            return {**step, "building": "wonder", "lane": "wonder", "space": words[1].lower()}
        if kind == "bonus" and len(words) == 2 and is_number(words[1]):
            return {**step, "slot": int(words[1])}
        if kind in ("build", "cross") and len(words) == (3 if kind == "build" else 2):
            where = words[-1].lower().split("/")
            if len(where) == 3:
                building, lane, space = where
                return {**step, "die": words[1].lower() if kind == "build" else None,
                        "building": building, "lane": lane, "space": space}
            bad = "a space is <building>/<lane>/<space>, e.g. agora/mask/r0c1"
        if kind not in STEP_KINDS:
            bad = f"unknown step {words[0]!r} (steps: {', '.join(STEP_KINDS)})"
        forms = {"build": "build <die> <building>/<lane>/<space>", "wonder": "wonder <space>",
                 "cross": "cross <building>/<lane>/<space>", "bonus": "bonus <slot number>",
                 "pass": "pass", "skip": "skip"}
        self.problems.add(number, self.col(number, chunk), chunk, bad or f"a {kind} step is '{forms[kind]}'")
        return None

    def claims(self, number: int, text: str) -> dict[str, Any] | None:
        claims: dict[str, Any] = {"paid": None, "vp": None, "coins": None}
        for item in filter(None, (x.strip() for x in text.split(","))):
            parts = item.split()
            if len(parts) != 2 or parts[0].lower() not in claims or not is_number(parts[1]):
                self.problems.add(number, self.col(number, item), item, "a claim is 'paid N', 'vp N' or 'coins N'")
                return None
            claims[parts[0].lower()] = int(parts[1])
        return claims

    def result(self, number: int, text: str) -> None:
        scores, winners, tie_break = [], [], "none"
        for part in filter(None, (x.strip() for x in text.split(";"))):
            low = part.lower()
            if low.startswith("winners"):
                for name in filter(None, (x.strip() for x in part[7:].split(","))):
                    seat = self.names.get(name.lower())
                    if seat is None:
                        self.problems.add(number, self.col(number, name), name, "unknown player among the winners")
                        return
                    winners.append(seat)
            elif low.startswith("tiebreak"):
                tie_break = low[8:].strip()
                if tie_break not in ("none", "coins", "shared"):
                    self.problems.add(number, self.col(number, part), part, "tiebreak is none, coins or shared")
                    return
            else:
                m = re.match(r"^(.+?)\s+(" + DIGITS + r")\s+coins\s+(" + DIGITS + r")\s*(\[(.*)\])?$", part, re.IGNORECASE)
                seat = self.names.get(m.group(1).strip().lower()) if m else None
                if m is None or seat is None:
                    self.problems.add(number, self.col(number, part), part,
                                      "a score is '<name> <total> coins <coins> [<category> <vp>, ...]'")
                    return
                cats = {}
                for item in filter(None, (x.strip() for x in (m.group(5) or "").split(","))):
                    c = item.split()
                    if len(c) != 2 or not is_number(c[1]):
                        self.problems.add(number, self.col(number, item), item, "a category is '<category> <vp>'")
                        return
                    cats[c[0].lower()] = int(c[1])
                scores.append({"seat": seat, "total": int(m.group(2)), "coins": int(m.group(3)), "categories": cats})
        self.emit(number, "game_ended", 1, {"scores": scores, "winners": winners, "tie_break": tie_break})


# ----------------------------------------------------------------------------- writing


def write(events: Iterable[Event]) -> str:
    """The canonical notation of a game: ``read(write(events)).events == events``."""
    lines: list[str] = []
    names: list[str] = []
    for e in events:
        p = e.payload
        if e.type == "game_started":
            names = [s["name"] for s in sorted(p["seats"], key=lambda s: s["seat"])]
            r = p["ruleset"]
            lines.append(f'[Game "{escape(e.game_id)}"]')
            lines.append(f'[Kind "{KIND}"]')
            for key, value in p.get("tags", {}).items():
                lines.append(f'[{key} "{escape(value)}"]')
            lines.append(f'[Ruleset "{r["id"]} {r["version"]} {r["content_hash"]}"]')
            if p.get("options") is not None:
                opts = ", ".join(f"{k}={_option_text(v)}" for k, v in p["options"].items())
                lines.append(f'[Options "{opts}"]')
            lines.append(f'[Source "{p["provenance"]["source"]}"]')
            if p["provenance"]["detail"]:
                lines.append(f'[SourceDetail "{escape(p["provenance"]["detail"])}"]')
            for s in sorted(p["seats"], key=lambda s: s["seat"]):
                lines.append(f'[Seat "{s["seat"]} {s["city"]} {escape(s["name"])}"]')
            lines.append("")
        elif e.type == "dice_rolled":
            dice = ", ".join(f"{d['id']} {d['face']} {d['section']}" for d in p["dice"])
            lines.append(f"{p['turn']}. roll {dice}")
        elif e.type == "action_taken":
            steps = "; ".join(_step_text(s) for s in p["steps"])
            claims = p.get("claims")
            tail = ""
            if claims and any(v is not None for v in claims.values()):
                tail = " {" + ", ".join(f"{k} {v}" for k, v in claims.items() if v is not None) + "}"
            lines.append(f"{names[p['player']]}: {steps}{tail}")
        elif e.type == "special_die_swapped":
            lines.append(f"swap {p['die']} for {p['replaces']}")
        elif e.type == "game_ended":
            parts = []
            for s in sorted(p["scores"], key=lambda s: s["seat"]):
                cats = ", ".join(f"{k} {v}" for k, v in s["categories"].items())
                parts.append(f"{names[s['seat']]} {s['total']} coins {s['coins']}" + (f" [{cats}]" if cats else ""))
            parts.append("winners " + ", ".join(names[w] for w in p["winners"]))
            parts.append(f"tiebreak {p['tie_break']}")
            lines.append("result " + "; ".join(parts))
    return "\n".join(lines) + "\n"


def _option_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _step_text(s: dict[str, Any]) -> str:
    kind: str = s["kind"]
    if kind in ("pass", "skip"):
        return kind
    if kind == "wonder":
        return f"wonder {s['space']}"
    if kind == "bonus":
        return f"bonus {s['slot']}"
    where = f"{s['building']}/{s['lane']}/{s['space']}"
    return f"build {s['die']} {where}" if kind == "build" else f"cross {where}"


class WondersDiceNotation(Notation):
    def read(self, text: str, level: Level = "collect", source: str = "") -> Parsed:
        return read(text, level, source)

    def write(self, events: Iterable[Event]) -> str:
        return write(events)
