"""Reading 7 Wonders' notation: text to events, lenient or strict (notation.py says the format)."""

from __future__ import annotations

import difflib
import re
from typing import Any

from replay.events import Event
from replay.notation import (
    RAW,
    Collector,
    Header,
    HeaderReader,
    Parsed,
    items,
    name_at,
    read_text,
)
from replay.numbers import is_number
from replay.problems import Level

from .events import CARD_ID, KIND, AgeDealt, AgeEnded, CardPlayed, DiscardBuilt, GameEnded, GameStarted
from .notation_syntax import (
    ACTION,
    AGE,
    CATEGORY_WORDS,
    CHOICE,
    CONFLICTS,
    DEAL,
    FREE,
    FROM_DISCARD,
    LONGEST,
    MODELS,
    NOTHING,
    OVER,
    PAD,
    PAID,
    PLAY,
    PURCHASE,
    RESOURCE_WORDS,
    SCORE,
    SEAT,
    STRUCTURAL,
    TOKEN,
    TURN,
    Context,
    find_pack,
    normal,
)
from .pack import SevenWondersPack

ID = re.compile(CARD_ID)


class _Reader(HeaderReader):
    """Reads the body of one text into events, with the problems found on the way."""

    kind = KIND

    def __init__(self, out: Parsed, problems: Collector, raw: list[str]) -> None:
        super().__init__(out, problems, raw)
        self.pack: SevenWondersPack | None = None
        self.at = Context()
        self.deal: tuple[int, int, dict[int, list[str] | None]] | None = None
        """The Age being dealt: (its line, the Age, the hands read so far by seat; None: a line with a problem)."""
        self.end: tuple[int, list[dict[str, Any]]] | None = None
        """The game's end being read: (its line, the score claims so far)."""

    # -- events

    def follow(self, event: Event) -> None:
        self.at.apply(event)

    def pinned(self, pin: list[str]) -> None:
        self.pack = find_pack(pin)

    def seat(self, text: str, at: int) -> int | None:
        seat = self.names.get(text.strip().lower())
        if seat is None:
            self.problem(at, text.strip(), "unknown player " + self.seat_list())
        return seat

    def card(self, text: str, at: int) -> str | None:
        """A card id from what was typed (its id or its name, any case), or a problem."""
        word = normal(text)
        if (word in self.pack.by_id) if self.pack is not None else ID.match(word) is not None:
            return word
        hint = ""
        if self.pack is not None:
            close = difflib.get_close_matches(word, list(self.pack.by_id), n=3)
            hint = f" (did you mean {' or '.join(close)}?)" if close else f" (not in the pack {self.pack.id})"
        self.problem(at, text.strip(), "unknown card" + hint)
        return None

    # -- the header

    def start(self, header: Header) -> bool:
        """The game_started event from the header (or a raw ``!`` start line); False after a problem."""
        opened = self.begin(header, GameStarted)
        if isinstance(opened, bool):
            return opened
        begun, tags = opened
        body = header.body
        matched = self.seat_tags(header, SEAT, "<number> <name> <wonder> <side A or B>")
        if matched is None:
            return False
        seats: list[dict[str, Any]] = []
        for number, raw, m in matched:
            self.number = number
            wonder = normal(m.group(3))
            if self.pack is not None and wonder not in self.pack.wonder_by_id:
                self.problem(raw.find(m.group(3)), m.group(3), "unknown Wonder (the pack's: "
                             + ", ".join(self.pack.wonder_by_id) + ")")
                return False
            seats.append({"seat": int(m.group(1)), "name": m.group(2), "wonder": wonder, "side": m.group(4).lower()})
        self.number = 1
        if not seats:
            self.problem(0, "", 'the header needs a [Seat "<number> <name> <wonder> <side>"] per player')
            return False
        seats.sort(key=lambda s: s["seat"])
        self.names = {s["name"].lower(): s["seat"] for s in seats}
        if len(self.names) != len(seats):
            self.problem(0, "", "two seats have the same name")
            return False
        free = {name: value for name, value in header.tags.items() if name.lower() not in STRUCTURAL}
        return self.emit(GameStarted, {"ruleset": begun.ruleset, "seats": seats, "provenance": begun.provenance,
                                       "tags": free}, body[0][0] if body else 1)

    # -- the body

    def read(self, body: list[tuple[int, str]]) -> None:
        super().read(body)
        self.flush()

    def flush(self, end: bool = True) -> None:
        """The Age being dealt, or the game's end (``end``), once its last line has been read."""
        if self.deal is not None:
            line, age, hands = self.deal
            self.deal = None
            missing = [name for name, seat in sorted(self.names.items(), key=lambda x: x[1]) if seat not in hands]
            if missing:
                self.problems.add(line, 1, f"age {age}", f"no deal line for {', '.join(missing)}: each seat's hand "
                                  "of the Age is needed (the reader does not invent it)")
            if missing or None in hands.values():
                self.at.begin(age)  # no deal, but the Age's cards are still read
            else:
                self.emit(AgeDealt, {"age": age, "hands": [hands[s] for s in sorted(hands)]}, line)
        if end and self.end is not None:
            line, scores = self.end
            self.end = None
            self.emit(GameEnded, {"scores": scores}, line)

    def line(self, line: str) -> None:
        if self.unreadable(line, LONGEST):
            return
        if (m := DEAL.match(line)) and self.deal is not None:
            self.deal_line(m)
            return
        if (m := SCORE.match(line)) and m.group(1).strip().lower() in self.names:
            self.flush(end=False)
            self.score(m)
            return
        self.flush()
        play = PLAY.match(line)
        if play and play.group(1).strip().lower() in self.names:
            self.play(self.names[play.group(1).strip().lower()], play.group(2), play.start(2))
        elif m := AGE.match(line):
            self.deal = (self.number, int(m.group(1)), {})
        elif m := TURN.match(line):
            turn = int(m.group(1))
            if not 1 <= turn <= 7:
                self.problem(m.start(1), m.group(1), "a turn is 1 to 7 (7: Babylon's last card)")
            self.at.turn_line(turn)
        elif m := CONFLICTS.match(line):
            self.conflicts(m)
        elif OVER.match(line):
            self.end = (self.number, [])
        elif m := RAW.match(line):
            self.raw_line(m, MODELS, GameStarted)
        elif m := DEAL.match(line):
            self.problem(0, "deal", "a deal line follows its 'age N' line (and the other deal lines)")
        elif play or (m := SCORE.match(line)):
            name = play.group(1) if play else line[m.start(1):m.end(1)] if m else ""
            self.problem(line.find(name), name.strip(), "unknown player " + self.seat_list())
        else:
            self.problem(0, line[:80], "expected 'age N', 'deal <name>: <cards>', 'turn N', '<name>: build|wonder|"
                         "discard <card> ...', '<name>: from discard <card>', 'conflicts age N: ...', 'game over' "
                         "or 'score <name>: ...'")

    def deal_line(self, m: re.Match[str]) -> None:
        assert self.deal is not None
        seat = self.seat(m.group(1), m.start(1))
        if seat is None:
            return
        if seat in self.deal[2]:
            self.problem(m.start(1), m.group(1), "a second deal line for this seat in this Age")
            return
        self.deal[2][seat] = self.cards(m.group(2), m.start(2))

    def cards(self, text: str, start: int) -> list[str] | None:
        """``<card>, <card>, ...`` (names may hold spaces) or ``<id> <id> ...``; None after a problem."""
        out: list[str] = []
        for column, item in items(text, start):
            if self.pack is not None and normal(item) in self.pack.by_id:
                out.append(normal(item))
                continue
            for word in re.finditer(r"\S+", item):
                card = self.card(word.group(), column + word.start())
                if card is None:
                    return None
                out.append(card)
        return out

    # -- a seat's line

    def play(self, seat: int, text: str, start: int) -> None:
        if m := FROM_DISCARD.match(text):
            what = m.group(1).strip()
            card = None if what.lower() in NOTHING else self.card(what, start + m.start(1))
            if card is not None or what.lower() in NOTHING:
                self.emit(DiscardBuilt, {"seat": seat, "card": card}, at=start)
            return
        m = ACTION.match(text)
        if m is None:
            self.problem(start, text[:40], "a seat plays 'build <card>', 'wonder <card>', 'discard <card>' "
                         "or 'from discard <card>'")
            return
        if not self.at.age:
            self.problem(start, text[:40], "a card is played in an Age: its 'age N' line and deal lines come first")
            return
        tail, at = m.group(2), start + m.start(2)
        parts = CHOICE.match(tail)
        if parts is None:
            self.problem(at, tail[:40], "after the card come 'free chain' or 'free power', then '(<payment>)', "
                         "then '{<claims>}', each once, in this order")
            return
        card = self.card(parts.group("card"), at) if parts.group("card").strip() else None
        if card is None:
            if not parts.group("card").strip():
                self.problem(at, m.group(1), f"'{m.group(1).lower()}' names the card played")
            return
        free = parts.group("free")
        if free is not None and free.lower() not in FREE:
            word = tail.lower().rfind("free", 0, parts.start("free"))
            self.problem(at + word, tail[word:parts.end("free")].strip(), "say 'free chain' (a chain from a structure "
                         "the city has) or 'free power' (Olympia's free building)")
            return
        fields: dict[str, Any] = {"seat": seat, "age": self.at.age, "turn": self.at.next_turn(seat), "card": card,
                                  "action": m.group(1).lower(), "free": free.lower() if free else None}
        if parts.group("pay") is not None and not self.payment(parts.group("pay"), at + parts.start("pay"), seat, fields):
            return
        if parts.group("claims") is not None:
            paid = self.paid(parts.group("claims"), at + parts.start("claims"), seat)
            if paid is None:
                return
            fields["paid"] = paid
        self.emit(CardPlayed, fields, at=start)

    def side(self, text: str, seat: int) -> str | None:
        """``left``, ``right``, or a neighbour's name -> the side it sits on."""
        word = text.strip().lower()
        if word in ("left", "right"):
            return word
        n = len(self.names)
        found = self.names.get(word)
        if found is None or n == 0:
            return None
        return "left" if found == (seat + 1) % n else "right" if found == (seat - 1) % n else None

    def payment(self, text: str, start: int, seat: int, fields: dict[str, Any]) -> bool:
        """``buy [N] <resource>, ... from left|right|<neighbour>; <resource> from <own card>; ...``."""
        choices: dict[str, str] = {}
        bought: dict[str, dict[str, int]] = {"left": {}, "right": {}}
        for column, item in items(text, start, ";"):
            m = PURCHASE.match(item)
            if m is None:
                self.problem(column, item, "a payment item is 'buy [N] <resource>, ... from left|right' "
                             "or '<resource> from <own card>'")
                return False
            side = self.side(m.group("source"), seat)
            if side is None and m.group("buy"):
                self.problem(column + m.start("source"), m.group("source"), "buy from 'left', 'right' or a neighbour's "
                             "name")
                return False
            if side is not None:
                if not self.purchase(m.group("what"), column + m.start("what"), bought[side]):
                    return False
                continue
            resource = RESOURCE_WORDS.get(m.group("what").strip().lower())
            source = normal(m.group("source"))
            if resource is None:
                self.problem(column, m.group("what"), "one resource from each choice card: " + ", ".join(RESOURCE_WORDS))
                return False
            if source in choices or not ID.match(source):
                self.problem(column + m.start("source"), m.group("source"), "a choice card (or Wonder stage, stage1 "
                             "...) gives one resource a turn: name each once")
                return False
            choices[source] = resource
        fields.update(choices=choices, left=bought["left"], right=bought["right"])
        return True

    def purchase(self, text: str, start: int, into: dict[str, int]) -> bool:
        """``[N] <resource>, [N] <resource> and ...`` bought from one neighbour."""
        text = re.sub(r"\band\b", ",  ", text, flags=re.IGNORECASE)
        for item in re.finditer(r"[^,+]+", text):
            words = item.group().split()
            if not words:
                continue
            count = 1
            if len(words) == 2 and is_number(words[0]):
                count, words = int(words[0]), words[1:]
            resource = RESOURCE_WORDS.get(words[0].lower()) if len(words) == 1 else None
            if resource is None:
                self.problem(start + item.start(), item.group().strip(), "a purchase is '[N] <resource>' ("
                             + ", ".join(RESOURCE_WORDS) + ")")
                return False
            into[resource] = into.get(resource, 0) + count
        return True

    def paid(self, text: str, start: int, seat: int) -> dict[str, int | None] | None:
        """``{paid N to left, N to right}`` (``{paid nothing}``: 0 to each): the coins the seat says it
        paid each neighbour."""
        out: dict[str, int | None] = {"to_left": None, "to_right": None}
        if re.fullmatch(r"\s*paid\s+nothing\s*", text, re.IGNORECASE):
            return {"to_left": 0, "to_right": 0}
        for column, item in items(text, start):
            m = PAID.match(item)
            side = self.side(m.group(2), seat) if m else None
            if m is None or side is None or out[f"to_{side}"] is not None:
                self.problem(column, item, "a claim is 'paid N to left' or 'N to right' (or to a neighbour's "
                             "name), each side once")
                return None
            out[f"to_{side}"] = int(m.group(1))
        return out

    # -- the Age's end and the game's

    def conflicts(self, m: re.Match[str]) -> None:
        """``conflicts age N: <name> <token> ..., ...`` (``none``: no token); without ':' no claim."""
        tokens: dict[int, list[int]] = {}
        if m.group(2) is not None:
            for column, item in items(m.group(2), m.start(2)):
                found = name_at(item, self.names)
                words = item[len(found[1]):].split() if found else []
                if words in (["none"], ["-"]):
                    words = []
                if found is None or found[0] in tokens or not all(TOKEN.match(w) for w in words):
                    self.problem(column, item, "a seat's tokens are '<name> +1 -1 ...' or '<name> none', "
                                 "each seat once " + self.seat_list())
                    return
                tokens[found[0]] = [int(w) for w in words]
            if len(tokens) != len(self.names):
                missing = [n for n, s in self.names.items() if s not in tokens]
                self.problem(m.start(2), m.group(2)[:40], "the tokens of every seat, or none (no ':'): missing "
                             + ", ".join(missing))
                return
        self.emit(AgeEnded, {"age": int(m.group(1)), "tokens": [tokens[s] for s in sorted(tokens)]
                             if m.group(2) is not None else None})

    def score(self, m: re.Match[str]) -> None:
        """``score <name>: <category> N, ...`` (or the pad's numbers in its order)."""
        seat = self.names[m.group(1).strip().lower()]
        claim: dict[str, Any] = {"seat": seat}
        text = m.group(2) or ""
        numbers = text.replace(",", " ").split()
        if numbers and all(TOKEN.match(w) for w in numbers):
            if len(numbers) > len(PAD):
                self.problem(m.start(2), text[:40], f"at most {len(PAD)} numbers: " + ", ".join(PAD))
                return
            claim.update(zip(PAD, (int(w) for w in numbers)))
        else:
            for column, item in items(text, m.start(2)):
                words = item.split()
                category = CATEGORY_WORDS.get(words[0].lower()) if len(words) == 2 else None
                if category is None or not TOKEN.match(words[1]) or category in claim:
                    self.problem(column, item, "a score is '<category> N', each category once ("
                                 + ", ".join(CATEGORY_WORDS) + ")")
                    return
                claim[category] = int(words[1])
        if self.end is None:
            self.end = (self.number, [])
        self.end[1].append(claim)


def read(text: str, level: Level = "collect", source: str = "") -> Parsed:
    """Events from notation. ``collect``: every problem gathered; ``raise``: NotationError at the first."""
    return read_text(_Reader, text, level, source)
