"""Pig's notation: a header, then a line per player's run of rolls.

::

    [Game "pig-a"]
    [Kind "pig"]
    [Ruleset "pig-standard 1.0.0 sha256:a4df..."]
    [Target "100"]
    [Source "typed"]
    [Seat "0 Ana"]
    [Seat "1 Ben"]

    1. Ana: 2 5 6 hold {banked 13}
    2. Ben: 4 1
    ...
    result Ana 102, Ben 56; winners Ana

A line's number is for people and is not checked. A roll of the bust face ends
the run by itself; ``hold`` banks the turn (``{banked N}`` is the claimed total).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from replay.contract import Notation
from replay.events import Event
from replay.notation import Collector, Parsed, escape, numbered_seats, split_header
from replay.numbers import DIGITS, is_number
from replay.problems import Level

KIND = "pig"
RUN = re.compile(r"^(?:[0-9]+\s*\.\s*)?([^:\[\]{}#]+?)\s*:\s*(.*)$")
HOLD = re.compile(r"^hold(?:\s*\{\s*banked\s+(" + DIGITS + r")\s*\})?$", re.IGNORECASE)
RESULT = re.compile(r"^result\s+(.*)$", re.IGNORECASE)


class PigNotation(Notation):
    def read(self, text: str, level: Level = "collect", source: str = "") -> Parsed:
        out = Parsed()
        problems = Collector(level, source)
        header = split_header(text, problems)
        tags = {name.lower(): value for name, value in header.tags.items()}
        seats = numbered_seats(header, problems)
        body = header.body
        if not self._start(out, problems, tags, seats, body[0][0] if body else 1):
            out.problems = problems.problems
            return out
        names = {s["name"].lower(): s["seat"] for s in seats}
        for number, line in body:
            self._line(out, problems, names, number, line)
        out.problems = problems.problems
        return out

    def _start(self, out: Parsed, problems: Collector, tags: dict[str, str], seats: list[dict[str, Any]],
               line: int) -> bool:
        kind = tags.get("kind", KIND)
        if kind != KIND:
            problems.add(1, 1, kind, f'this is a {KIND} reader; the header says [Kind "{kind}"]')
            return False
        ruleset = tags.get("ruleset", "").split()
        target = tags.get("target", "")
        missing = [n for n, ok in (('[Game "<id>"]', tags.get("game")),
                                   ('[Ruleset "<id> <version> sha256:<hash>"]',
                                    len(ruleset) == 3 and ruleset[2].startswith("sha256:")),
                                   ('[Target "<points>"]', is_number(target)),
                                   ('a [Seat "<number> <name>"] per player', seats)) if not ok]
        if missing:
            problems.add(1, 1, "", "the header needs " + ", ".join(missing))
            return False
        seats.sort(key=lambda s: s["seat"])
        source = tags.get("source", "typed")
        out.events.append(Event(tags["game"], 0, KIND, "game_started", 1, {
            "ruleset": {"id": ruleset[0], "version": ruleset[1], "content_hash": ruleset[2]},
            "seats": seats,
            "provenance": {"source": source if source in ("simulated", "typed", "imported") else "typed",
                           "detail": tags.get("sourcedetail", "")},
            "target": int(target),
        }))
        out.lines[0] = line
        return True

    def _emit(self, out: Parsed, line: int, type_: str, version: int, payload: dict[str, Any]) -> None:
        seq = len(out.events)
        out.events.append(Event(out.events[0].game_id, seq, KIND, type_, version, payload))
        out.lines[seq] = line

    def _line(self, out: Parsed, problems: Collector, names: dict[str, int], number: int, line: str) -> None:
        if m := RESULT.match(line):
            self._result(out, problems, names, number, m.group(1))
            return
        m = RUN.match(line)
        seat = names.get(m.group(1).strip().lower()) if m else None
        if m is None or seat is None:
            problems.add(number, 1, line, "expected '<player>: <rolls> [hold {banked N}]' or the result line"
                         + (f" (players: {', '.join(sorted(names))})" if m else ""))
            return
        words = m.group(2).split()
        i = 0
        while i < len(words) and is_number(words[i]):
            self._emit(out, number, "die_rolled", 2, {"player": seat, "face": int(words[i])})
            i += 1
        rest = " ".join(words[i:])
        if not rest:
            return
        hold = HOLD.match(rest)
        if hold is None:
            problems.add(number, line.find(rest) + 1, rest, "after the rolls: 'hold' or 'hold {banked N}'")
            return
        banked = int(hold.group(1)) if hold.group(1) else None
        self._emit(out, number, "held", 1, {"player": seat, "banked": banked})

    def _result(self, out: Parsed, problems: Collector, names: dict[str, int], number: int, text: str) -> None:
        scores_text, _, winners_text = text.partition(";")
        scores: dict[int, int] = {}
        for item in filter(None, (x.strip() for x in scores_text.split(","))):
            name, _, score = item.rpartition(" ")
            seat = names.get(name.strip().lower())
            if seat is None or not is_number(score):
                problems.add(number, 1, item, "a score is '<player> <points>'")
                return
            scores[seat] = int(score)
        winners_text = winners_text.strip()
        if not winners_text.lower().startswith("winners"):
            problems.add(number, 1, text, "the result ends with '; winners <player>, ...'")
            return
        winners = []
        for name in filter(None, (x.strip() for x in winners_text[7:].split(","))):
            if name.lower() not in names:
                problems.add(number, 1, name, "unknown player among the winners")
                return
            winners.append(names[name.lower()])
        self._emit(out, number, "game_ended", 1, {"scores": [scores.get(s, 0) for s in range(len(names))],
                                                  "winners": winners})

    def write(self, events: Iterable[Event]) -> str:
        lines: list[str] = []
        names: list[str] = []
        run: list[str] = []
        runs = 0

        def close() -> None:
            nonlocal run, runs
            if run:
                runs += 1
                lines.append(f"{runs}. {' '.join(run)}")
                run = []

        current: int | None = None
        for e in events:
            p = e.payload
            if e.type == "game_started":
                names = [s["name"] for s in sorted(p["seats"], key=lambda s: s["seat"])]
                r = p["ruleset"]
                lines += [f'[Game "{escape(e.game_id)}"]', f'[Kind "{KIND}"]',
                          f'[Ruleset "{r["id"]} {r["version"]} {r["content_hash"]}"]', f'[Target "{p["target"]}"]',
                          f'[Source "{p["provenance"]["source"]}"]']
                if p["provenance"]["detail"]:
                    lines.append(f'[SourceDetail "{escape(p["provenance"]["detail"])}"]')
                lines += [f'[Seat "{i} {escape(n)}"]' for i, n in enumerate(names)] + [""]
            elif e.type in ("die_rolled", "held"):
                if current != p["player"] or not run:
                    close()
                    current = p["player"]
                    run = [f"{names[p['player']]}:"]
                if e.type == "die_rolled":
                    run.append(str(p["face"]))
                else:
                    run.append("hold" + (f" {{banked {p['banked']}}}" if p["banked"] is not None else ""))
                    close()
            elif e.type == "game_ended":
                close()
                scores = ", ".join(f"{names[i]} {s}" for i, s in enumerate(p["scores"]))
                lines.append(f"result {scores}; winners {', '.join(names[w] for w in p['winners'])}")
        close()
        return "\n".join(lines) + "\n"
