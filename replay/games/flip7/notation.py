"""A notation for Flip 7 that a person can type from a game they watched (docs/notation.md).

::

    [Game "club-2026-11-20-t1"]
    [Kind "flip7"]
    [Ruleset "flip7-standard 1.0.0 sha256:..."]
    [Seat "0 Ana"]
    [Seat "1 Ben"]
    [Seat "2 Cy"]
    [FirstDealer "Cy"]

    round 1 dealer Cy
    Ana: 7                               # the deal: a card without 'hit'
    Ben: chance                          # a Second Chance, kept
    Cy: flip3 -> Ana (5 12 +4)           # Ana draws the three cards
    Ana: hit 12 bust
    Ben: hit freeze -> Cy frozen
    Ben: hit 8
    Ben: hit 8 saved                     # the Second Chance cancels the duplicate
    Ben: stay
    end round 1: Ana 0 total 0, Ben 8 total 8, Cy 0 total 0

A name and a colon begin a line of one player's cards and choices; inside the parentheses after
a Flip Three the cards are its target's. Consequences are short markers (``bust``, ``saved``,
``flip7``, ``frozen``): the reader emits exactly the events the text says, and the audit says
whether the rules agree.

The draw pile: ``shuffle <cards>`` and ``reshuffle <cards>`` lines give a new pile's whole order
(the writer always writes them). Without one, the reader builds the order from the cards drawn
from that pile, followed by its other cards in the pack's order: that remainder is invented
(nobody saw it), and this is the one place where the notation invents data.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ValidationError

from replay.contract import Notation
from replay.events import GAME_ID_PATTERN, Event, EventPayload
from replay.notation import Collector, Parsed, escape, split_header
from replay.numbers import DIGITS, is_number
from replay.packs import shipped_packs
from replay.problems import Level

from .events import (
    EVENT_TYPES,
    KIND,
    Busted,
    CardDrawn,
    DeckShuffled,
    FlippedSeven,
    Frozen,
    GameEnded,
    GameStarted,
    PlayerHit,
    PlayerStayed,
    RoundEnded,
    RoundStarted,
    SecondChanceUsed,
    TargetChosen,
)
from .pack import Flip7Pack
from .piles import Piles, reconstruct

MODELS: dict[str, type[EventPayload]] = {m.event_type: m for m in EVENT_TYPES}
WRITTEN = {"flip_three": "flip3", "second_chance": "chance"}
"""Cards written otherwise than their code (shorter to type)."""
ALIASES = {"flip3": "flip_three", "flipthree": "flip_three", "f3": "flip_three",
           "chance": "second_chance", "sc": "second_chance", "secondchance": "second_chance"}
MARKERS = ("bust", "saved", "flip7", "frozen")
KEYWORDS = ("hit", "stay", "then", *MARKERS)

ROUND = re.compile(r"^round\s+(" + DIGITS + r")\s*,?\s*dealer\s+(.+)$", re.IGNORECASE)
SHUFFLE = re.compile(r"^(shuffle|reshuffle)\b\s*(.*)$", re.IGNORECASE)
END = re.compile(r"^end\s+round\s+(" + DIGITS + r")\s*(:\s*(.*))?$", re.IGNORECASE)
OVER = re.compile(r"^game\s+over\s*(:\s*(.*))?$", re.IGNORECASE)
RAW = re.compile(r"^!\s*([a-z_]+)\s+(\{.*\})$")
TURN = re.compile(r"^([^:()\[\]{}!]+?)\s*:\s*(.*)$")
WORD = re.compile(r"(?:(?!->)[^\s(),])+")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
UNSAYABLE = re.compile(r"[()\[\]{},=:#!\x00-\x1f\x7f]|->|\s\s")
"""Characters a seat's name may not hold for the compact forms to say it (the raw form still can)."""


def shipped() -> list[Flip7Pack]:
    """The packs shipped beside this module (the ones a header's pin may name)."""
    return list(shipped_packs(Flip7Pack, __package__ or "replay.games.flip7").values())


def find_pack(pin: Sequence[str]) -> Flip7Pack | None:
    """The shipped pack with this exact id, version and content hash."""
    return next((p for p in shipped() if [p.id, p.version, p.content_hash] == list(pin)), None)


def card_text(card: str) -> str:
    return WRITTEN.get(card, card)


# ----------------------------------------------------------------------------- reading


class _Reader:
    """Reads the body of one text into events, with the problems found on the way."""

    def __init__(self, out: Parsed, problems: Collector, raw: list[str]) -> None:
        self.out, self.problems, self.raw = out, problems, raw
        self.game_id = ""
        self.names: dict[str, int] = {}
        self.pack: Flip7Pack | None = None
        self.piles: Piles | None = None
        self.round_line = 1
        self.queued: list[tuple[int, list[str]]] = []
        """Reshuffle lines read and not yet needed: (line, order)."""
        self.building: tuple[dict[str, Any], Counter[str], list[str]] | None = None
        """The open pile whose order is being reconstructed: its payload, its cards, the cards drawn."""
        self.seen = _Seen()
        # the line being read
        self.number = 0
        self.offset = 0

    # -- problems and events

    def problem(self, column: int, text: str, message: str) -> None:
        self.problems.add(self.number, self.offset + column + 1, text, message)

    def emit(self, model: type[EventPayload], fields: dict[str, Any], line: int | None = None,
             column: int = 0) -> bool:
        """Validate and append one event; a payload the model refuses is a problem at the token."""
        try:
            payload = model(**fields)
        except ValidationError as exc:
            self.problem(column, str(fields)[:80], f"{model.event_type}: {_first_error(exc)}")
            return False
        if model is not DeckShuffled:
            self.flush_new_deck()
        self.append(Event.create(KIND, self.game_id, len(self.out.events), payload), line)
        return True

    def append(self, event: Event, line: int | None = None) -> None:
        seq = len(self.out.events)
        self.out.events.append(event)
        self.out.lines[seq] = line if line is not None else self.number
        self.seen.apply(event)
        if self.piles is not None:
            self.piles.apply(event)
        if event.type == "round_started":
            self.round_line = self.out.lines[seq]
        elif event.type == "card_drawn" and self.building is not None:
            self.building[2].append(event.payload["card"])

    # -- the draw pile

    def flush_new_deck(self) -> None:
        """A round that starts with a new deck and has no shuffle line: reconstruct it."""
        if self.piles is not None and self.piles.new_deck_due:
            self.open_reconstructed("new_deck", Counter(self.piles.deck), self.round_line)

    def before_draw(self) -> None:
        """An empty draw pile: the next reshuffle line's order, or a reconstructed one."""
        self.flush_new_deck()
        if self.piles is None or self.piles.left > 0:
            return
        if self.queued:
            line, order = self.queued.pop(0)
            self.shuffle("reshuffle", order, line)
            return
        content = self.piles.discard()
        if not content:
            self.problem(0, "", "the draw pile is empty and so is the discard pile: no card can be drawn")
            return
        self.open_reconstructed("reshuffle", content, self.number)

    def shuffle(self, reason: str, order: list[str], line: int) -> None:
        """A shuffle whose order the text gives."""
        self.close_reconstructed()
        if self.emit(DeckShuffled, {"reason": reason, "order": order}, line) and self.piles is not None:
            self.piles.shuffled(reason, len(order))

    def open_reconstructed(self, reason: str, content: Counter[str], line: int) -> None:
        """A shuffle the text does not give: its order is completed when the pile is closed."""
        assert self.piles is not None
        self.close_reconstructed()
        payload: dict[str, Any] = {"reason": reason, "order": []}
        self.piles.shuffled(reason, content.total())
        self.append(Event(self.game_id, len(self.out.events), KIND, DeckShuffled.event_type, DeckShuffled.version,
                          payload), line)
        self.building = (payload, content, [])

    def close_reconstructed(self) -> None:
        if self.building is not None and self.piles is not None:
            payload, content, drawn = self.building
            payload["order"] = reconstruct(content, drawn, self.piles.deck)
        self.building = None

    # -- the header

    def start(self, tags: dict[str, str], seats: list[tuple[int, str]], line: int) -> bool:
        """The game_started event from the header; False (and a problem) if it cannot be built."""
        self.number, self.offset = 1, 0
        kind = tags.get("kind", KIND)
        if kind != KIND:
            self.problem(0, kind, f'this is a {KIND} reader; the header says [Kind "{kind}"]')
            return False
        self.game_id = tags.get("game", "")
        if not GAME_ID_PATTERN.match(self.game_id):
            self.problem(0, self.game_id, 'the header needs [Game "<id>"] (letters, digits, . _ : -)')
            return False
        pin = tags.get("ruleset", "").split()
        if len(pin) != 3 or not pin[2].startswith("sha256:"):
            self.problem(0, tags.get("ruleset", ""), 'the header needs [Ruleset "<id> <version> sha256:<hash>"]')
            return False
        self.pack = find_pack(pin)
        if self.pack is None:
            known = ", ".join(f"{p.id} {p.version}" for p in shipped())
            self.problem(0, " ".join(pin), f"unknown rules pack (this reader knows {known}, with their hashes)")
            return False
        if not seats:
            self.problem(0, "", 'the header needs a [Seat "<number> <name>"] per player')
            return False
        seats.sort()
        self.names = {name.lower(): seat for seat, name in seats}
        if len(self.names) != len(seats):
            self.problem(0, "", "two seats have the same name")
            return False
        dealer = self.seat_of(tags.get("firstdealer", str(seats[0][0])))
        if dealer is None:
            self.problem(0, tags.get("firstdealer", ""), "[FirstDealer] names no seat " + self.seat_list())
            return False
        self.piles = Piles(self.pack)
        source = tags.get("source", "typed")
        return self.emit(GameStarted, {
            "ruleset": {"id": pin[0], "version": pin[1], "content_hash": pin[2]},
            "seats": [{"seat": s, "name": n} for s, n in seats],
            "provenance": {"source": source if source in ("simulated", "typed", "imported") else "typed",
                           "detail": tags.get("sourcedetail", "")},
            "first_dealer": dealer,
        }, line)

    def seat_of(self, text: str) -> int | None:
        """A seat by name (any case) or by number."""
        text = text.strip()
        if text.lower() in self.names:
            return self.names[text.lower()]
        if is_number(text) and int(text) in self.names.values():
            return int(text)
        return None

    def seat_list(self) -> str:
        return "(the seats are: " + ", ".join(sorted(self.names)) + ")"

    # -- the body

    def read(self, body: list[tuple[int, str]]) -> None:
        for number, line in body:
            self.number = number
            self.offset = max(self.raw[number - 1].find(line), 0)
            self.line(line)
        self.close_reconstructed()
        for number, _ in self.queued:
            self.problems.add(number, 1, "reshuffle", "this reshuffle was never needed: the draw pile did not run out")

    def line(self, line: str) -> None:
        turn = TURN.match(line)
        if m := CONTROL.search(line):
            self.problem(m.start(), repr(m.group()), "a control character; a line holds printable text only")
        elif turn and turn.group(1).strip().lower() in self.names:
            _Turn(self, self.names[turn.group(1).strip().lower()], turn.group(2), turn.start(2)).read()
        elif m := ROUND.match(line):
            self.round(m)
        elif m := SHUFFLE.match(line):
            self.shuffle_line(m)
        elif m := END.match(line):
            self.end(m)
        elif m := OVER.match(line):
            self.over(m)
        elif m := RAW.match(line):
            self.raw_event(m)
        elif turn:
            self.problem(0, turn.group(1), "unknown player " + self.seat_list())
        else:
            self.problem(0, line, "expected 'round N dealer <name>', '<name>: <cards>', 'shuffle ...', "
                         "'reshuffle ...', 'end round N: ...' or 'game over: ...'")

    def round(self, m: re.Match[str]) -> None:
        dealer = self.seat_of(m.group(2))
        if dealer is None:
            self.problem(m.start(2), m.group(2), "unknown dealer " + self.seat_list())
            return
        self.emit(RoundStarted, {"round": int(m.group(1)), "dealer": dealer})

    def shuffle_line(self, m: re.Match[str]) -> None:
        order = [c for c in (self.card(w.group(), m.start(2) + w.start()) for w in WORD.finditer(m.group(2))) if c]
        if len(order) != len(WORD.findall(m.group(2))):
            return
        if not order:
            self.problem(0, m.group(0), f"{m.group(1).lower()} lists the new draw pile's cards, top first")
        elif m.group(1).lower() == "reshuffle":
            self.queued.append((self.number, order))
        elif self.piles is not None and self.piles.new_deck_due:
            self.shuffle("new_deck", order, self.number)
        else:
            self.problem(0, m.group(1), "no new deck is due here: 'shuffle' follows a round line that starts "
                         "with a new deck (the first round, or every round if the pack rebuilds the deck)")

    def card(self, word: str, column: int) -> str | None:
        """A card code from what was typed (any case, short names for actions), or a problem."""
        low = word.lower()
        code = ALIASES.get(low, str(int(low)) if is_number(low) else low)
        if self.pack is not None and self.pack.card(code) is not None:
            return code
        cards = ", ".join(card_text(c.card) for c in self.pack.deck) if self.pack else ""
        self.problem(column, word, f"unknown card (the pack's cards: {cards})")
        return None

    def end(self, m: re.Match[str]) -> None:
        scores = None if m.group(2) is None else self.claims(m.group(3) or "", m.start(3) if m.group(3) else 0)
        if m.group(2) is not None and scores is None:
            return
        self.emit(RoundEnded, {"round": int(m.group(1)), "scores": scores})

    def claims(self, text: str, start: int) -> list[dict[str, Any]] | None:
        """``<name> [<score>] [total <total>], ...``: what the table wrote for each seat."""
        out: list[dict[str, Any]] = []
        at = start
        for item in text.split(","):
            column = at + len(item) - len(item.lstrip())
            at += len(item) + 1
            if not item.strip():
                continue
            claim = self.claim(item.strip())
            if claim is None:
                self.problem(column, item.strip(), "a claim is '<name> [<score>] [total <total>]' " + self.seat_list())
                return None
            out.append(claim)
        return out

    def claim(self, item: str) -> dict[str, Any] | None:
        name = self.name_at(item)
        if name is None:
            return None
        words = item[len(name[1]):].split()
        score = total = None
        if words and is_number(words[0]):
            score, words = int(words[0]), words[1:]
        if len(words) == 2 and words[0].lower() == "total" and is_number(words[1]):
            total, words = int(words[1]), []
        return None if words else {"seat": name[0], "score": score, "total": total}

    def name_at(self, text: str) -> tuple[int, str] | None:
        """The longest seat name that ``text`` starts with (names may hold spaces): (seat, as typed)."""
        low = text.lower()
        for name in sorted(self.names, key=len, reverse=True):
            rest = low[len(name):]
            if low.startswith(name) and (not rest or not (rest[0].isalnum() or rest[0] == "_")):
                return self.names[name], text[:len(name)]
        return None

    def over(self, m: re.Match[str]) -> None:
        winners: list[int] | None = None
        if m.group(1) is not None:
            text = (m.group(2) or "").strip()
            if not text.lower().startswith("winners"):
                self.problem(m.start(1), text, "after 'game over:' come 'winners <name>, ...'")
                return
            winners = []
            for name in filter(None, (x.strip() for x in text[7:].split(","))):
                seat = self.seat_of(name)
                if seat is None:
                    self.problem(self.raw[self.number - 1].find(name) - self.offset, name,
                                 "unknown player among the winners " + self.seat_list())
                    return
                winners.append(seat)
        self.emit(GameEnded, {"winners": winners})

    def raw_event(self, m: re.Match[str]) -> None:
        """``! <type> <payload JSON>``: an event the compact forms cannot say (never in a valid game)."""
        model = MODELS.get(m.group(1))
        if model is None or model is GameStarted:
            self.problem(0, m.group(1), "unknown event type")
            return
        try:
            fields = json.loads(m.group(2))
        except (ValueError, RecursionError):
            fields = None
        if not isinstance(fields, dict):
            self.problem(m.start(2), m.group(2)[:80], "the payload is a JSON object")
            return
        if model is DeckShuffled:
            self.close_reconstructed()
        if self.emit(model, fields, column=m.start(2)) and model is DeckShuffled and self.piles is not None:
            self.piles.shuffled(str(fields.get("reason")), len(fields.get("order") or []))


class _Turn:
    """One ``<name>: ...`` line: tokens, each an event or a change of whose cards they are."""

    def __init__(self, reader: _Reader, seat: int, text: str, start: int) -> None:
        self.r, self.text, self.start = reader, text, start
        self.stack = [seat]
        """Whose cards the tokens are: the line's player, then the target of each open Flip Three."""
        self.ref: str | None = None
        """The action card a following '->' gives: the one just drawn, or named by 'then'."""
        self.then = False
        self.flip_target: int | None = None
        """The target of a Flip Three just given: a '(' now opens its cards."""
        self.at = 0

    def problem(self, at: int, text: str, message: str) -> None:
        self.r.problem(self.start + at, text, message)

    def read(self) -> None:
        while True:
            while self.at < len(self.text) and (self.text[self.at].isspace() or self.text[self.at] == ","):
                self.at += 1
            if self.at >= len(self.text):
                break
            if not self.token():
                return
        if self.then:
            self.problem(len(self.text), "then", "'then' names the set-aside action card a '->' gives")
        elif len(self.stack) > 1:
            self.problem(len(self.text), "", "a '(' is not closed")

    def token(self) -> bool:
        """Read the token at ``self.at``; False after a problem (the rest of the line is skipped)."""
        at, text = self.at, self.text
        flip_target, self.flip_target = self.flip_target, None
        if text.startswith("->", at):
            self.at += 2
            return self.target(at)
        if text[at] in "()":
            self.at += 1
            self.ref = None
            return self.paren(at, text[at], flip_target)
        m = WORD.match(text, at)
        assert m is not None
        self.at = m.end()
        word = m.group()
        low = word.lower()
        self.ref = None
        if self.then:
            return self.resolve(at, word)
        if low in KEYWORDS:
            return self.keyword(at, low)
        if "=" in low and low.split("=", 1)[0] in MARKERS:
            return self.marker(at, *low.split("=", 1))
        card = self.r.card(word, self.start + at)
        return card is not None and self.draw(at, card)

    def seat(self) -> int:
        return self.stack[-1]

    def draw(self, at: int, card: str) -> bool:
        reason = "flip_three" if len(self.stack) > 1 else "hit" if self.r.seen.pending_hit else "deal"
        self.r.before_draw()
        self.ref = card
        return self.r.emit(CardDrawn, {"seat": self.seat(), "card": card, "reason": reason},
                           column=self.start + at)

    def keyword(self, at: int, word: str) -> bool:
        top = len(self.stack) == 1
        if word in ("hit", "stay") and not top:
            self.problem(at, word, f"'{word}' is the line's player's choice, not inside a Flip Three's ( )")
            return False
        if word == "hit":
            return self.r.emit(PlayerHit, {"seat": self.seat()}, column=self.start + at)
        if word == "stay":
            return self.r.emit(PlayerStayed, {"seat": self.seat()}, column=self.start + at)
        if word == "then":
            self.then = True
            return True
        return self.marker(at, word, "")

    def marker(self, at: int, word: str, given: str) -> bool:
        """``bust``/``saved`` (the card the seat drew last, or ``=<card>``), ``flip7``, ``frozen``
        (the last Freeze's target, or ``=<name>``)."""
        seat = self.seat()
        column = self.start + at
        if word == "flip7" and not given:
            return self.r.emit(FlippedSeven, {"seat": seat}, column=column)
        if word == "frozen":
            target = self.r.seat_of(given) if given else self.r.seen.last_freeze
            if target is None:
                self.problem(at, word + ("=" + given if given else ""), "frozen: no Freeze was given to anyone "
                             + ("known " + self.r.seat_list() if given else "yet"))
                return False
            return self.r.emit(Frozen, {"seat": target}, column=column)
        if word in ("bust", "saved"):
            card = self.r.card(given, column + len(word) + 1) if given else self.r.seen.last_drawn.get(seat)
            if card is None:
                if not given:
                    self.problem(at, word, f"'{word}' follows the card that was a duplicate")
                return False
            model = Busted if word == "bust" else SecondChanceUsed
            return self.r.emit(model, {"seat": seat, "card": card}, column=column)
        self.problem(at, word, "flip7 takes no '='")
        return False

    def resolve(self, at: int, word: str) -> bool:
        """``then <action card>``: the next '->' gives a card set aside earlier."""
        self.then = False
        card = self.r.card(word, self.start + at)
        if card is None:
            return False
        self.ref = card
        return True

    def target(self, at: int) -> bool:
        """``-> <name>`` or ``-> none``: who gets the action card just drawn (or named by 'then')."""
        card, self.ref = self.ref, None
        rest = self.text[self.at:]
        skip = len(rest) - len(rest.lstrip())
        rest = rest.lstrip()
        found = self.r.name_at(rest)
        if found is None and rest[:4].lower() == "none" and (len(rest) == 4 or not rest[4].isalnum()):
            found = (-1, rest[:4])
        if found is None:
            word = WORD.match(rest)
            self.problem(self.at + skip, word.group() if word else rest, "'->' names a player or 'none' "
                         + self.r.seat_list())
            return False
        self.at += skip + len(found[1])
        if card is None or self.r.pack is None or card not in {c.card for c in self.r.pack.deck if c.kind == "action"}:
            self.problem(at, "->", "'->' follows an action card (freeze, flip3, chance) or 'then <card>'")
            return False
        target = None if found[0] < 0 else found[0]
        ok = self.r.emit(TargetChosen, {"seat": self.seat(), "card": card, "target": target}, column=self.start + at)
        self.flip_target = target if card == "flip_three" else None
        return ok

    def paren(self, at: int, char: str, flip_target: int | None) -> bool:
        if char == "(":
            if flip_target is None:
                self.problem(at, "(", "'(' opens the cards of a Flip Three: it follows 'flip3 -> <name>'")
                return False
            self.stack.append(flip_target)
            return True
        if len(self.stack) == 1:
            self.problem(at, ")", "')' without its '('")
            return False
        self.stack.pop()
        return True


def _first_error(exc: ValidationError) -> str:
    e = exc.errors()[0]
    where = ".".join(str(x) for x in e["loc"])
    return f"{where}: {e['msg']}" if where else str(e["msg"])


def read(text: str, level: Level = "collect", source: str = "") -> Parsed:
    """Events from notation. ``collect``: every problem gathered; ``raise``: NotationError at the first."""
    out = Parsed()
    problems = Collector(level, source)
    header = split_header(text, problems)
    tags = {name.lower(): value for name, value in header.tags.items()}
    seats: list[tuple[int, str]] = []
    for number, raw, value in header.seats:
        seat, _, name = value.strip().partition(" ")
        if not is_number(seat) or not name.strip():
            problems.add(number, 1, raw.strip(), 'a seat is [Seat "<number> <name>"]')
        else:
            seats.append((int(seat), name.strip()))
    reader = _Reader(out, problems, text.splitlines())
    if reader.start(tags, seats, header.body[0][0] if header.body else 1):
        reader.read(header.body)
    out.problems = problems.problems
    return out


# ----------------------------------------------------------------------------- writing


class _Writer:
    """Events to the canonical text. Each event is written in its compact form where reading that
    form gives the event back; otherwise (never in a valid game) as a raw ``!`` line."""

    def __init__(self, events: list[Event]) -> None:
        self.events = events
        self.lines: list[str] = []
        self.names: list[str] = []
        self.tokens: list[str] | None = None
        """The turn line being written (None: no line open)."""
        self.line_seat = -1
        self.stack: list[int] = []
        """The targets of the Flip Threes whose '(' is open."""
        self.ref: tuple[int, str] | None = None
        """(seat, card) of the card just drawn: a '->' written now gives that card."""
        self.seen = _Seen()
        self.piles: Piles | None = None

    def write(self) -> str:
        for i, e in enumerate(self.events):
            following = self.events[i + 1] if i + 1 < len(self.events) else None
            if not self.event(e, following):
                self.raw(e)
            self.seen.apply(e)
            if self.piles is not None:
                self.piles.apply(e)
                if e.type == "deck_shuffled":
                    self.piles.shuffled(e.payload["reason"], len(e.payload["order"]))
        self.close()
        return "\n".join(self.lines) + "\n"

    # -- lines and tokens

    def close(self) -> None:
        if self.tokens is not None:
            self.tokens += [")"] * len(self.stack)
            text = " ".join(self.tokens).replace("( ", "(").replace(" )", ")")
            self.lines.append(f"{self.names[self.line_seat]}: {text}")
        self.tokens, self.stack, self.ref = None, [], None

    def open(self, seat: int) -> None:
        self.close()
        self.tokens, self.line_seat = [], seat

    def put(self, *tokens: str) -> None:
        assert self.tokens is not None
        self.tokens += tokens
        self.ref = None

    def seat_now(self) -> int | None:
        """Whose cards a token written now would be."""
        if self.tokens is None:
            return None
        return self.stack[-1] if self.stack else self.line_seat

    def go_to(self, seat: int) -> None:
        """Close the '(' of other players, or begin a line of ``seat``'s, so that tokens are ``seat``'s."""
        while self.stack and self.stack[-1] != seat:
            self.put(")")
            self.stack.pop()
        if self.seat_now() != seat:
            self.open(seat)

    def name(self, seat: int | None) -> str | None:
        """A seat's name, if the text can say it (in range, and no character the reader splits on)."""
        if seat is None or not 0 <= seat < len(self.names):
            return None
        name = self.names[seat]
        return None if UNSAYABLE.search(name) or name != name.strip() or name.lower() == "none" else name

    def raw(self, e: Event) -> None:
        self.close()
        text = json.dumps(e.payload, separators=(",", ":"), sort_keys=True).replace("#", "\\u0023")
        self.lines.append(f"! {e.type} {text}")

    # -- events

    def event(self, e: Event, following: Event | None) -> bool:
        """Write ``e`` compactly; False if it has no compact form here."""
        p = e.payload
        if e.type == "game_started":
            return self.header(e)
        if e.type == "round_started":
            dealer = self.name(p["dealer"])
            if dealer is not None:
                self.close()
                self.lines.append(f"round {p['round']} dealer {dealer}")
            return dealer is not None
        if e.type == "deck_shuffled":
            return self.shuffle(p["reason"], p["order"], following)
        if e.type == "card_drawn":
            return self.draw(p["seat"], p["card"], p["reason"])
        if e.type in ("player_hit", "player_stayed"):
            if self.name(p["seat"]) is None:
                return False
            self.open(p["seat"])
            self.put("hit" if e.type == "player_hit" else "stay")
            return True
        if e.type == "target_chosen":
            return self.target(p["seat"], p["card"], p["target"])
        if e.type in ("busted", "second_chance_used", "flipped_seven"):
            return self.marker(e.type, p["seat"], p.get("card"))
        if e.type == "frozen":
            return self.frozen(p["seat"])
        if e.type == "round_ended":
            return self.end(p["round"], p["scores"])
        if e.type == "game_ended":
            return self.over(p["winners"])
        return False

    def header(self, e: Event) -> bool:
        p = e.payload
        if self.lines:
            return False
        self.names = [s["name"] for s in sorted(p["seats"], key=lambda s: s["seat"])]
        r = p["ruleset"]
        pack = find_pack([r["id"], r["version"], r["content_hash"]])
        self.piles = Piles(pack) if pack is not None else None
        self.lines += [f'[Game "{escape(e.game_id)}"]', f'[Kind "{KIND}"]',
                       f'[Ruleset "{r["id"]} {r["version"]} {r["content_hash"]}"]',
                       f'[Source "{p["provenance"]["source"]}"]']
        if p["provenance"]["detail"]:
            self.lines.append(f'[SourceDetail "{escape(p["provenance"]["detail"])}"]')
        self.lines += [f'[Seat "{s["seat"]} {escape(s["name"])}"]' for s in sorted(p["seats"], key=lambda s: s["seat"])]
        dealer = p["first_dealer"]
        self.lines += [f'[FirstDealer "{escape(self.names[dealer]) if 0 <= dealer < len(self.names) else dealer}"]', ""]
        return True

    def shuffle(self, reason: str, order: list[str], following: Event | None) -> bool:
        """A shuffle line goes where the reader looks for it: a new deck right after its round line,
        a reshuffle before the line whose draw finds the pile empty."""
        if self.piles is None:
            return False
        if reason == "new_deck":
            ok = self.piles.new_deck_due and self.tokens is None and self.lines[-1].startswith("round ")
        else:
            ok = (self.piles.left <= 0 and not self.piles.new_deck_due and following is not None
                  and following.type == "card_drawn")
        if ok:
            self.lines.append(("shuffle " if reason == "new_deck" else "reshuffle ") + " ".join(map(card_text, order)))
        return ok

    def draw(self, seat: int, card: str, reason: str) -> bool:
        if self.piles is None or self.piles.left <= 0 or self.piles.new_deck_due or self.name(seat) is None:
            return False
        if reason == "flip_three":
            if seat not in self.stack:
                return False
            self.go_to(seat)
        elif (reason == "hit") != self.seen.pending_hit:
            return False
        elif self.tokens is not None and self.line_seat == seat:
            while self.stack:
                self.put(")")
                self.stack.pop()
        else:
            self.open(seat)
        self.put(card_text(card))
        self.ref = (seat, card)
        return True

    def target(self, seat: int, card: str, target: int | None) -> bool:
        name = "none" if target is None else self.name(target)
        if name is None or self.name(seat) is None:
            return False
        if self.ref == (seat, card) and self.seat_now() == seat:
            self.put("->", name)
        else:
            self.go_to(seat)
            self.put("then", card_text(card), "->", name)
        if card == "flip_three" and target is not None:
            self.put("(")
            self.stack.append(target)
        return True

    def marker(self, kind: str, seat: int, card: str | None) -> bool:
        if self.name(seat) is None:
            return False
        self.go_to(seat)
        word = {"busted": "bust", "second_chance_used": "saved", "flipped_seven": "flip7"}[kind]
        if card is not None and card != self.seen.last_drawn.get(seat):
            word += "=" + card_text(card)
        self.put(word)
        return True

    def frozen(self, seat: int) -> bool:
        name = self.name(seat)
        if name is None:
            return False
        if self.tokens is None:
            self.open(seat)
        if seat != self.seen.last_freeze and " " in name:
            return False
        self.put("frozen" if seat == self.seen.last_freeze else f"frozen={name}")
        return True

    def end(self, round_: int, scores: list[dict[str, Any]] | None) -> bool:
        claims = []
        for c in scores or []:
            name = self.name(c["seat"])
            if name is None:
                return False
            words = [name] + ([str(c["score"])] if c["score"] is not None else [])
            claims.append(" ".join(words + ([f"total {c['total']}"] if c["total"] is not None else [])))
        self.close()
        self.lines.append(f"end round {round_}" + ("" if scores is None else ": " + ", ".join(claims)))
        return True

    def over(self, winners: list[int] | None) -> bool:
        names = [self.name(w) for w in winners or []]
        if None in names:
            return False
        self.close()
        self.lines.append("game over" + ("" if winners is None else ": winners " + ", ".join(map(str, names))))
        return True


class _Seen:
    """What a compact token leaves unsaid, as reader and writer both follow it: the card each seat
    drew last (``bust``), the last Freeze's target (``frozen``), whether a hit awaits its card."""

    def __init__(self) -> None:
        self.last_drawn: dict[int, str] = {}
        self.last_freeze: int | None = None
        self.pending_hit = False

    def apply(self, event: Event) -> None:
        p = event.payload
        if event.type == "round_started":
            self.last_drawn.clear()
            self.last_freeze = None
            self.pending_hit = False
        elif event.type == "card_drawn":
            self.last_drawn[p["seat"]] = p["card"]
            if p["reason"] == "hit":
                self.pending_hit = False
        elif event.type == "target_chosen" and p["card"] == "freeze":
            self.last_freeze = p["target"]
        elif event.type in ("player_hit", "player_stayed"):
            self.pending_hit = event.type == "player_hit"


def write(events: Iterable[Event]) -> str:
    """The canonical notation of a game: ``read(write(events)).events == events``."""
    return _Writer(list(events)).write()


class Flip7Notation(Notation):
    """Flip 7's notation (see the module's docstring and docs/notation.md)."""

    def read(self, text: str, level: Level = "collect", source: str = "") -> Parsed:
        return read(text, level, source)

    def write(self, events: Iterable[Event]) -> str:
        return write(events)
