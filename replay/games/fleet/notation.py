"""Fleet's notation: what a person types from a game at the table (docs/notation.md).

::

    [Game "club-2026-11-30"]
    [Kind "fleet"]
    [Ruleset "fleet-gone-fishin 1.0.0 sha256:..."]
    [Seat "0 Ana"]
    [Seat "1 Ben"]
    [FirstPlayer "Ben"]

    removed cod, pub, ...                 # the licenses put back in the box at setup ('-': none)
    licenses shrimp, cod, lobster, ...     # the license deck, top first
    Ana: hand shrimp, cod, lobster, tuna, processing, crab
    boats tuna, shrimp, ...                # the boat deck, top first ('reshuffle ...' later)
    round 1 first Ben
    Ben: open cod 4
    Ana: bid 5
    Ben: drop
    Ana: buy cod for 5 with tuna, lobster discount 0
    Ben: pass                              # no auction opened (a Gone Fishin' card, with the option)
    Ana: launch cod with tuna fish 1 discount 0
    Ana: pass launch                       # also: pass hire, pass process, pass trade
    Ana: draws cod: shrimp                 # draws <cod|lobster|trade|draw>: <cards>
    Ana: captain shrimp on 0
    Ana: catch 0                           # the boats that took a crate ('-': none)
    Ana: process 0
    Ana: trade
    Ana: discard tuna
    end licenses; scores Ana 41 = licenses 22 + boats 8 + fish 11, Ben 38; winners Ana

``for``, ``discount``, ``scores`` (a total, and VP by category after ``=``: ``licenses``, ``boats``,
``fish``, ``king_crab``, ``gone_fishin``) and ``winners`` are written claims (optional). A line that the
compact form cannot say is written as ``! <type> <json payload>`` and read back as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError

from replay.contract import Notation
from replay.events import Event
from replay.notation import (
    RAW,
    Collector,
    LineReader,
    Parsed,
    escape,
    first_error,
    header_start,
    numbered_seat_tags,
    numbered_seats,
    raw_text,
    split_header,
    start_tags,
)
from replay.numbers import is_number
from replay.problems import Level

from . import events as ev
from .events import KIND

MODELS = {m.event_type: m for m in ev.EVENT_TYPES}
KEYWORDS = {"for", "with", "fish", "discount"}
STEPS = ("launch", "hire", "process", "trade")
CATEGORIES = ("licenses", "boats", "fish", "king_crab", "gone_fishin")


def _cards(words: list[str]) -> str:
    return ", ".join(words) if words else "-"


def _listed(text: str) -> list[str]:
    text = text.strip()
    return [] if text in ("", "-") else [w for w in text.replace(",", " ").split() if w]


class _Reader(LineReader):
    kind = KIND

    def line(self, line: str) -> None:
        if line.startswith("!"):
            if m := RAW.match(line):
                self.raw_line(m, MODELS, ev.GameStarted)
            else:
                self.problem(0, line, "a raw line is '! <event type> <JSON object>'")
            return
        head, colon, rest = line.partition(":")
        seat = self.names.get(head.strip().lower()) if colon else None
        if seat is not None:
            self.seat_line(seat, rest.strip(), len(head) + 1)
            return
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word == "removed":
            self.emit(ev.LicensesRemoved, {"licenses": _listed(rest)})
        elif word == "licenses":
            self.emit(ev.LicenseDeckShuffled, {"order": _listed(rest)})
        elif word in ("boats", "reshuffle"):
            self.emit(ev.BoatDeckShuffled, {"reason": "new_deck" if word == "boats" else "reshuffle", "order": _listed(rest)})
        elif word == "round":
            number, _, who = rest.partition(" first ")
            first = self.names.get(who.strip().lower())
            if not is_number(number.strip()) or first is None:
                self.problem(0, line, "a round line is 'round <n> first <player>' " + self.seat_list())
                return
            self.emit(ev.RoundStarted, {"round": int(number), "first_player": first})
        elif word == "end":
            self.end_line(rest)
        else:
            self.problem(0, line, "expected '<player>: ...', or a line beginning removed, licenses, boats, reshuffle, "
                                  "round, end or !")

    def seat_line(self, seat: int, text: str, at: int) -> None:
        verb, _, rest = text.partition(" ")
        verb = verb.lower()
        words = rest.replace(",", " ").split()
        base: dict[str, Any] = {"seat": seat}
        if verb == "hand":
            self.emit(ev.HandDealt, base | {"cards": _listed(rest)}, at=at)
        elif verb == "open" and len(words) == 2 and is_number(words[1]):
            self.emit(ev.AuctionOpened, base | {"license": words[0], "bid": int(words[1])}, at=at)
        elif verb == "bid" and len(words) == 1 and is_number(words[0]):
            self.emit(ev.BidRaised, base | {"bid": int(words[0])}, at=at)
        elif verb == "drop" and not words:
            self.emit(ev.BidDropped, base, at=at)
        elif verb == "pass" and not words:
            self.emit(ev.AuctionPassed, base, at=at)
        elif verb == "pass" and len(words) == 1 and words[0] in STEPS:
            self.emit(ev.StepPassed, base | {"step": words[0]}, at=at)
        elif verb in ("buy", "launch") and words:
            fields = self.purchase(words[1:], at)
            if fields is None:
                return
            if verb == "buy":
                self.emit(ev.LicenseBought, base | {"license": words[0]} | fields, at=at)
            else:
                fields.pop("price", None)
                self.emit(ev.BoatLaunched, base | {"boat": words[0]} | fields, at=at)
        elif verb == "captain" and len(words) == 3 and words[1] == "on" and is_number(words[2]):
            self.emit(ev.CaptainHired, base | {"card": words[0], "boat": int(words[2])}, at=at)
        elif verb == "draws" and ":" in rest:
            reason, _, cards = rest.partition(":")
            self.emit(ev.CardsDrawn, base | {"reason": reason.strip(), "cards": _listed(cards)}, at=at)
        elif verb == "discard":
            self.emit(ev.CardsDiscarded, base | {"cards": _listed(rest)}, at=at)
        elif verb in ("catch", "process") and all(is_number(w) for w in _listed(rest)):
            boats = [int(w) for w in _listed(rest)]
            self.emit(ev.FishCaught if verb == "catch" else ev.FishProcessed, base | {"boats": boats}, at=at)
        elif verb == "trade" and not words:
            self.emit(ev.FishTraded, base, at=at)
        else:
            self.problem(at, text, "unknown step (steps: hand, open, bid, drop, pass, buy, launch, captain, draws, "
                                   "discard, catch, process, trade)")

    def purchase(self, words: list[str], at: int) -> dict[str, Any] | None:
        """``for N``, ``with cards``, ``fish N``, ``discount N`` in any order."""
        out: dict[str, Any] = {"paid": [], "fish": 0}
        key = None
        for w in words:
            if w in KEYWORDS:
                key = w
                continue
            if key == "with":
                out["paid"].append(w)
            elif key in ("for", "fish", "discount") and is_number(w):
                out["price" if key == "for" else key] = int(w)
                key = None
            else:
                self.problem(at, w, "a payment is '[for N] [with card, ...] [fish N] [discount N]'")
                return None
        return out

    def end_line(self, text: str) -> None:
        parts = [p.strip() for p in text.split(";")]
        fields: dict[str, Any] = {"reason": parts[0], "scores": None, "winners": None}
        for part in parts[1:]:
            word, _, rest = part.partition(" ")
            if word == "scores":
                claims = []
                for item in _items(rest):
                    head, _, by_category = item.partition("=")
                    name, _, total = head.strip().rpartition(" ")
                    seat = self.names.get(name.strip().lower())
                    if seat is None or not (is_number(total) or total == "-"):
                        self.problem(0, item, "a score is '<player> <VP> [= <category> <VP> + ...]' " + self.seat_list())
                        return
                    claim: dict[str, Any] = {"seat": seat, "total": None if total == "-" else int(total)}
                    for piece in filter(None, (x.strip() for x in by_category.split("+"))):
                        key, _, value = piece.partition(" ")
                        if key not in CATEGORIES or not is_number(value.strip()) or key in claim:
                            self.problem(0, piece, "a category is one of " + ", ".join(CATEGORIES) + " and its VP, once")
                            return
                        claim[key] = int(value)
                    claims.append(claim)
                fields["scores"] = claims
            elif word == "winners":
                winners = []
                for name in ([] if rest.strip() == "-" else _items(rest)):
                    if name.lower() not in self.names:
                        self.problem(0, name, "unknown player among the winners " + self.seat_list())
                        return
                    winners.append(self.names[name.lower()])
                fields["winners"] = winners
            else:
                self.problem(0, part, "after 'end <reason>': '; scores ...' and '; winners ...'")
                return
        self.emit(ev.GameEnded, fields)


def _items(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def read(text: str, level: Level = "collect", source: str = "") -> Parsed:
    out = Parsed()
    problems = Collector(level, source)
    header = split_header(text, problems)
    tags = {k.lower(): v for k, v in header.tags.items()}
    start = header_start(tags, KIND, problems)
    seats = numbered_seats(header, problems)
    seats.sort(key=lambda s: s["seat"])
    names = {s["name"].lower(): s["seat"] for s in seats}
    first = names.get(tags.get("firstplayer", "").strip().lower())
    if start is None or not seats or first is None:
        if start is not None:
            problems.add(1, 1, "", 'the header needs a [Seat "<number> <name>"] per player and [FirstPlayer "<name>"]')
        out.problems = problems.problems
        return out
    try:
        payload = ev.GameStarted.model_validate({"ruleset": start.ruleset, "seats": seats, "provenance": start.provenance,
                                                 "first_player": first})
    except ValidationError as exc:
        problems.add(1, 1, "", f"game_started: {first_error(exc)}")
        out.problems = problems.problems
        return out
    reader = _Reader(out, problems, text.splitlines())
    reader.game_id, reader.names = start.game_id, names
    reader.append(Event.create(KIND, start.game_id, 0, payload), 1)
    reader.read(header.body)
    out.problems = problems.problems
    return out


def write(events: Iterable[Event]) -> str:
    lines: list[str] = []
    names: list[str] = []
    for e in events:
        if e.type == "game_started":
            p = e.payload
            names = [s["name"] for s in sorted(p["seats"], key=lambda s: s["seat"])]
            lines += start_tags(e, KIND) + numbered_seat_tags(p)
            lines += [f'[FirstPlayer "{escape(names[p["first_player"]])}"]', ""]
            continue
        text = _compact(e, names)
        lines.append(text if text is not None and e.version == MODELS[e.type].version else raw_text(e))
    return "\n".join(lines) + "\n"


def _score(name: str, claim: dict[str, Any]) -> str:
    text = f"{name} {'-' if claim['total'] is None else claim['total']}"
    parts = [f"{k} {claim[k]}" for k in CATEGORIES if claim.get(k) is not None]
    return text + (" = " + " + ".join(parts) if parts else "")


def _compact(e: Event, names: list[str]) -> str | None:
    p, t = e.payload, e.type

    def who(seat: Any) -> str | None:
        if not isinstance(seat, int) or not 0 <= seat < len(names):
            return None
        name = names[seat]
        bad = any(c in name for c in ":,;#!\"[]") or name != name.strip() or name.lower() in ("end", "round") \
            or " " in name
        return None if bad else name

    if t == "licenses_removed":
        return f"removed {_cards(p['licenses'])}"
    if t == "license_deck_shuffled":
        return f"licenses {_cards(p['order'])}"
    if t == "boat_deck_shuffled":
        return f"{'boats' if p['reason'] == 'new_deck' else 'reshuffle'} {_cards(p['order'])}"
    if t == "round_started":
        first = who(p["first_player"])
        return None if first is None else f"round {p['round']} first {first}"
    if t == "game_ended":
        parts = [f"end {p['reason']}"]
        if p["scores"] is not None:
            if any(who(c["seat"]) is None for c in p["scores"]) or not p["scores"]:
                return None
            parts.append("scores " + ", ".join(_score(str(who(c["seat"])), c) for c in p["scores"]))
        if p["winners"] is not None:
            if any(who(w) is None for w in p["winners"]):
                return None
            parts.append("winners " + (", ".join(str(who(w)) for w in p["winners"]) or "-"))
        return "; ".join(parts)
    name = who(p.get("seat"))
    if name is None:
        return None
    if t == "hand_dealt":
        return f"{name}: hand {_cards(p['cards'])}" if p["cards"] else None
    if t == "auction_opened":
        return f"{name}: open {p['license']} {p['bid']}"
    if t == "bid_raised":
        return f"{name}: bid {p['bid']}"
    if t == "bid_dropped":
        return f"{name}: drop"
    if t == "auction_passed":
        return f"{name}: pass"
    if t == "step_passed":
        return f"{name}: pass {p['step']}"
    if t in ("license_bought", "boat_launched"):
        words = [f"{name}: {'buy ' + p['license'] if t == 'license_bought' else 'launch ' + p['boat']}"]
        if p.get("price") is not None:
            words.append(f"for {p['price']}")
        if p["paid"]:
            words.append("with " + ", ".join(p["paid"]))
        if p["fish"]:
            words.append(f"fish {p['fish']}")
        if p.get("discount") is not None:
            words.append(f"discount {p['discount']}")
        return " ".join(words)
    if t == "captain_hired":
        return f"{name}: captain {p['card']} on {p['boat']}"
    if t == "cards_drawn":
        return f"{name}: draws {p['reason']}: {_cards(p['cards'])}"
    if t == "cards_discarded":
        return f"{name}: discard {_cards(p['cards'])}"
    if t in ("fish_caught", "fish_processed"):
        boats = ", ".join(str(b) for b in p["boats"]) or "-"
        return f"{name}: {'catch' if t == 'fish_caught' else 'process'} {boats}"
    if t == "fish_traded":
        return f"{name}: trade"
    return None


class FleetNotation(Notation):
    """Fleet's notation (see the module's docstring)."""

    def read(self, text: str, level: Level = "collect", source: str = "") -> Parsed:
        return read(text, level, source)

    def write(self, events: Iterable[Event]) -> str:
        return write(events)
