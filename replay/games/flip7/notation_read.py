"""Reading Flip 7's notation: text to events, lenient or strict, the draw pile rebuilt where no
shuffle line gives it (notation.py says the format)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from replay.events import Event, EventPayload
from replay.notation import (
    CONTROL,
    RAW,
    Collector,
    LineReader,
    Parsed,
    header_start,
    items,
    name_at,
    numbered_seats,
    raw_fields,
    split_header,
)
from replay.numbers import is_number
from replay.problems import Level

from .events import (
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
from .notation_syntax import (
    ALIASES,
    END,
    KEYWORDS,
    MARKERS,
    MODELS,
    OVER,
    ROUND,
    SHUFFLE,
    TURN,
    WORD,
    Seen,
    card_text,
    find_pack,
    shipped,
)
from .pack import Flip7Pack
from .piles import Piles, reconstruct

# ----------------------------------------------------------------------------- reading


class _Reader(LineReader):
    """Reads the body of one text into events, with the problems found on the way."""

    kind = KIND

    def __init__(self, out: Parsed, problems: Collector, raw: list[str]) -> None:
        super().__init__(out, problems, raw)
        self.pack: Flip7Pack | None = None
        self.piles: Piles | None = None
        self.round_line = 1
        self.queued: list[tuple[int, list[str]]] = []
        """Reshuffle lines read and not yet needed: (line, order)."""
        self.building: tuple[dict[str, Any], Counter[str], list[str]] | None = None
        """The open pile whose order is being reconstructed: its payload, its cards, the cards drawn."""
        self.seen = Seen()

    # -- events

    def emit(self, model: type[EventPayload], fields: dict[str, Any], line: int | None = None,
             column: int = 0) -> bool:
        """Validate and append one event; a payload the model refuses is a problem at the token."""
        payload = self.payload(model, fields, column)
        if payload is None:
            return False
        if model is not DeckShuffled:
            self.flush_new_deck()
        self.append(self.event(payload), line)
        return True

    def append(self, event: Event, line: int | None = None) -> None:
        seq = event.seq
        super().append(event, line)
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
        begun = header_start(tags, KIND, self.problems)
        if begun is None:
            return False
        self.game_id, pin = begun.game_id, begun.pin
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
        return self.emit(GameStarted, {
            "ruleset": begun.ruleset,
            "seats": [{"seat": s, "name": n} for s, n in seats],
            "provenance": begun.provenance,
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

    # -- the body

    def read(self, body: list[tuple[int, str]]) -> None:
        super().read(body)
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
        for column, item in items(text, start):
            claim = self.claim(item)
            if claim is None:
                self.problem(column, item, "a claim is '<name> [<score>] [total <total>]' " + self.seat_list())
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
        return name_at(text, self.names)

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
        fields = raw_fields(m.group(2))
        if fields is None:
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


def read(text: str, level: Level = "collect", source: str = "") -> Parsed:
    """Events from notation. ``collect``: every problem gathered; ``raise``: NotationError at the first."""
    out = Parsed()
    problems = Collector(level, source)
    header = split_header(text, problems)
    tags = {name.lower(): value for name, value in header.tags.items()}
    seats = [(s["seat"], s["name"]) for s in numbered_seats(header, problems)]
    reader = _Reader(out, problems, text.splitlines())
    if reader.start(tags, seats, header.body[0][0] if header.body else 1):
        reader.read(header.body)
    out.problems = problems.problems
    return out
