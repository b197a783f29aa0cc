"""Reading 7 Wonders Duel's notation: text to events, lenient or strict (notation.py says the format)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

from replay.events import Event
from replay.notation import RAW, Collector, Header, HeaderReader, Parsed, items, read_text
from replay.problems import Level

from .agora_events import (
    CardsSwapped,
    ConspiraciesDrawn,
    ConspiracyChosen,
    ConspiracyPrepared,
    ConspiracyTarget,
    ConspiracyTriggered,
    DecreeMoved,
    DecreeRevealed,
    DecreesPlaced,
    RemovedRevealed,
    SenateAction,
    SenatorRecruited,
)
from .events import (
    ID,
    KIND,
    SLOT,
    AgeDealt,
    CardDestroyed,
    CardPlayed,
    CardRevealed,
    DiscardBuilt,
    GameEnded,
    GameStarted,
    ProgressTaken,
    StarterChosen,
    TokensDrawn,
    TokensRevealed,
    WonderPicked,
    WondersRevealed,
)
from .notation_syntax import (
    ACTIVATE,
    AGE,
    CATEGORY_WORDS,
    CHOICE,
    CLAIM,
    COIN_WORDS,
    COUNTED,
    DECREE,
    DECREES,
    DRAWN_FROM,
    EFFECTS,
    ENKI,
    FACE_DOWN,
    FROM_BOX,
    KEEP,
    LONGEST,
    MODELS,
    MOVES,
    NOTHING,
    NUMBER,
    OVER,
    PANTHEON,
    PLAY,
    POWER_ITEM,
    RECRUIT,
    RESOURCE_WORDS,
    REVEAL,
    SCORE,
    SEAT,
    SENATE,
    SPACE,
    STRUCTURAL,
    SWAP,
    TAIL,
    TOKENS,
    VERB,
    VICTORIES,
    VICTORY,
    WINNERS,
    WITH,
    WONDERS,
    Context,
    aliases,
    card_ids,
    expansion_ids,
    find_pack,
    normal,
)
from .pack import DuelPack
from .pantheon_events import DivinitiesDrawn, DivinityActivated, DivinityChosen, DivinityPower, EnkiDrawn, PantheonTokensPlaced

NAME = re.compile(ID)
SLOT_NAME = re.compile(SLOT)
EXPECTED = ("expected 'tokens ...', 'wonders N: ...', 'age N: <slot> <card>, ...', 'reveal <slot> <card>', "
            "'pantheon N: <slot> <token>, ...', 'enki <token>, ...', 'decrees <chamber> <decree>, ...', 'decree <chamber> "
            "<decree>', '<name>: <what they do> ...', 'game over', 'victory ...', 'winners ...' or 'score <name>: ...'")
SEAT_FORMS = ("a seat's line is 'pick <Wonder>', 'construct|discard <card> ...', 'wonder <Wonder> with <card> ...', "
              "'progress <token> [from box]', 'draws <tokens>', 'destroys <card>', 'from discard <card>', 'starter "
              "<name>', 'divinities <divinity>, ... from <mythology|gate>', 'choose <divinity> [space N]', 'activate "
              "<divinity> [offering N, ...] {paid N}', 'power <divinity> <field> <value>, ...|nothing', 'conspiracies "
              "<conspiracy>, ...', 'keep <conspiracy>, ... [(other on top|bottom)]', 'recruit <senator> {paid N}', "
              "'prepare <conspiracy> with <card>', 'trigger <conspiracy>', 'senate place|remove|move|conspire|skip ...', "
              "'target <effect> <target|nothing>', 'removed <card>, ...', 'swap <card> for <card>|nothing' or "
              "'moves decree <decree|face down> from <chamber> to <chamber>'")


class _Reader(HeaderReader):
    """Reads the body of one text into events, with the problems found on the way."""

    kind = KIND

    def __init__(self, out: Parsed, problems: Collector, raw: list[str]) -> None:
        super().__init__(out, problems, raw)
        self.pack: DuelPack | None = None
        self.at = Context()
        self.end: tuple[int, dict[str, Any]] | None = None
        """The game's end being read: (its line, the claims so far)."""

    # -- events

    def follow(self, event: Event) -> None:
        self.at.apply(event)

    def pinned(self, pin: list[str]) -> None:
        self.pack = find_pack(pin)

    def named(self, text: str, at: int, what: str, ids: Iterable[str] | None) -> str | None:
        """An id (card, Wonder, token) from what was typed (its id or its name, any case), or a problem."""
        word = normal(text)
        known = list(ids) if ids is not None else None
        if (word in known) if known is not None else NAME.match(word) is not None:
            return word
        hint = ""
        if known is not None:
            close = difflib.get_close_matches(word, known, n=3)
            hint = f" (did you mean {' or '.join(close)}?)" if close else f" (not in the pack {self.pack.id})" \
                if self.pack is not None else ""
        self.problem(at, text.strip(), f"unknown {what}" + hint)
        return None

    def card(self, text: str, at: int) -> str | None:
        return self.named(text, at, "card", None if self.pack is None else card_ids(self.pack))

    def piece(self, what: str, text: str, at: int) -> str | None:
        """An expansion's piece (``divinity``, ``conspiracy``, ``decree``, ``chamber``) by id or name."""
        if not text.strip():
            self.problem(at, "", f"name the {what}")
            return None
        return self.named(aliases(self.pack, what).get(normal(text), text), at, what, expansion_ids(self.pack, what))

    def wonder(self, text: str, at: int) -> str | None:
        return self.named(text, at, "Wonder", None if self.pack is None else self.pack.wonder_by_id)

    def token(self, text: str, at: int) -> str | None:
        ids = None if self.pack is None else [t.id for t in self.pack.all_progress_tokens]
        return self.named(text, at, "progress token", ids)

    def listed(self, text: str, start: int, one: Any) -> list[str] | None:
        """``<x>, <x>, ...`` each read by ``one``; None after a problem."""
        out = [one(item, column) for column, item in items(text, start)]
        return None if None in out else out

    def seat(self, text: str, at: int) -> int | None:
        seat = self.names.get(text.strip().lower())
        if seat is None:
            self.problem(at, text.strip(), "unknown player " + self.seat_list())
        return seat

    # -- the header

    def start(self, header: Header) -> bool:
        """The game_started event from the header (or a raw ``!`` start line); False after a problem."""
        opened = self.begin(header, GameStarted)
        if isinstance(opened, bool):
            return opened
        begun, tags = opened
        matched = self.seat_tags(header, SEAT, "<0 or 1> <name>")
        if matched is None:
            return False
        seats: list[dict[str, Any]] = [{"seat": int(m.group(1)), "name": m.group(2)} for _, _, m in matched]
        body = header.body
        self.number = 1
        seats.sort(key=lambda s: s["seat"])
        if [s["seat"] for s in seats] != [0, 1]:
            self.problem(0, "", 'the header needs [Seat "0 <name>"] and [Seat "1 <name>"]')
            return False
        self.names = {s["name"].lower(): s["seat"] for s in seats}
        if len(self.names) != 2:
            self.problem(0, "", "the two seats have the same name")
            return False
        first = tags.get("first", "").strip()
        if first.lower() not in self.names and first not in ("0", "1"):
            self.problem(0, first, '[First "<name>"] says who drafts first and starts Age I ' + self.seat_list())
            return False
        free = {name: value for name, value in header.tags.items() if name.lower() not in STRUCTURAL}
        return self.emit(GameStarted, {"ruleset": begun.ruleset, "seats": seats, "provenance": begun.provenance,
                                       "first": self.names.get(first.lower(), int(first) if first.isdigit() else 0),
                                       "tags": free}, body[0][0] if body else 1)

    # -- the body

    def read(self, body: list[tuple[int, str]]) -> None:
        super().read(body)
        self.flush()

    def flush(self) -> None:
        """The game's end, once its last line has been read."""
        if self.end is not None:
            line, fields = self.end
            self.end = None
            self.emit(GameEnded, fields, line)

    def line(self, line: str) -> None:
        if self.unreadable(line, LONGEST):
            return
        if self.end is not None and self.ending(line):
            return
        self.flush()
        play = PLAY.match(line)
        if play and play.group(1).strip().lower() in self.names:
            self.play(self.names[play.group(1).strip().lower()], play.group(2), play.start(2))
        elif m := TOKENS.match(line):
            tokens = self.listed(m.group(1), m.start(1), self.token)
            if tokens is not None:
                self.emit(TokensRevealed, {"tokens": tokens})
        elif m := WONDERS.match(line):
            wonders = self.listed(m.group(2), m.start(2), self.wonder)
            if wonders is not None:
                self.emit(WondersRevealed, {"set": int(m.group(1)), "wonders": wonders}, at=m.start(1))
        elif m := AGE.match(line):
            self.deal(m)
        elif m := REVEAL.match(line):
            slot = self.slot(m.group(1), m.start(1))
            card = self.card(m.group(2), m.start(2)) if slot is not None else None
            if card is not None and self.age_known(0):
                self.emit(CardRevealed, {"age": self.at.age, "slot": slot, "card": card})
        elif m := PANTHEON.match(line):
            self.placed(m)
        elif m := ENKI.match(line):
            tokens = self.listed(m.group(1), m.start(1), self.token)
            if tokens is not None:
                self.emit(EnkiDrawn, {"tokens": tokens})
        elif m := DECREES.match(line):
            self.decrees(m.group(1), m.start(1))
        elif m := DECREE.match(line):
            chamber = self.piece("chamber", m.group(1), m.start(1))
            decree = self.piece("decree", m.group(2), m.start(2)) if chamber else None
            if chamber and decree:
                self.emit(DecreeRevealed, {"chamber": chamber, "decree": decree})
        elif OVER.match(line):
            self.end = (self.number, {"scores": []})
        elif m := RAW.match(line):
            self.raw_line(m, MODELS, GameStarted)
        elif play or (m := SCORE.match(line)):
            name = play.group(1) if play else line[m.start(1):m.end(1)] if m else ""
            self.problem(line.find(name), name.strip(), "unknown player " + self.seat_list())
        else:
            self.problem(0, line[:80], EXPECTED)

    def slot(self, text: str, at: int) -> str | None:
        word = text.strip().lower()
        if not SLOT_NAME.match(word):
            self.problem(at, text, "a slot is r<row>c<column>, as in the Age's layout (r1c4)")
            return None
        return word

    def age_known(self, at: int) -> bool:
        if not self.at.age:
            self.problem(at, "", "a card is turned up or played in an Age: its 'age N: ...' line comes first")
        return bool(self.at.age)

    def deal(self, m: re.Match[str]) -> None:
        """``age N: <slot> <card>, ...``: the Age's face-up cards."""
        cards = self.pairs(m.group(2), m.start(2), self.slot, self.card, "a slot is dealt once")
        if cards is not None:
            self.emit(AgeDealt, {"age": int(m.group(1)), "cards": cards}, at=m.start(1))

    def pairs(self, text: str, start: int, key: Any, value: Any, once: str) -> dict[str, str] | None:
        """``<key> <value>, ...`` (a slot and its card, a chamber and its Decree), each key once; None after a problem."""
        out: dict[str, str] = {}
        for column, item in items(text, start):
            key_text, _, value_text = item.partition(" ")
            k = key(key_text, column)
            v = value(value_text, column + len(key_text) + 1) if k is not None else None
            if k is None or v is None:
                return None
            if k in out:
                self.problem(column, key_text, once)
                return None
            out[k] = v
        return out

    def placed(self, m: re.Match[str]) -> None:
        """``pantheon N: <slot> <token>, ...``: the Mythology (Age I) or Offering (Age II) tokens."""
        tokens = self.pairs(m.group(2), m.start(2), self.slot, self.pantheon_token, "a slot's token is said once")
        if tokens is not None:
            self.emit(PantheonTokensPlaced, {"age": int(m.group(1)), "tokens": tokens}, at=m.start(1))

    def pantheon_token(self, text: str, at: int) -> str | None:
        """A Mythology or Offering token (``greek``, ``offering_4``): any id, the audit knows the pack's."""
        token = normal(text)
        if not NAME.match(token):
            self.problem(at, text, "a Pantheon token is a mythology or an offering (r2c3 greek, r2c1 offering_4)")
            return None
        return token

    def decrees(self, text: str, start: int) -> None:
        """``decrees <chamber> <decree>, ...`` (or ``none``): the Decrees face up at the setup."""
        decrees = {} if text.strip().lower() in NOTHING else self.pairs(
            text, start, lambda t, at: self.piece("chamber", t, at), lambda t, at: self.piece("decree", t, at),
            "a chamber's Decree is said once")
        if decrees is not None:
            self.emit(DecreesPlaced, {"decrees": decrees})

    # -- a seat's line

    def play(self, seat: int, text: str, start: int) -> None:
        m = VERB.match(text)
        if m is None:
            self.problem(start, text[:40], SEAT_FORMS)
            return
        verb, rest, at = " ".join(m.group(1).lower().split()), m.group(2).strip(), start + m.start(2)
        if verb in PANTHEON_VERBS:
            PANTHEON_VERBS[verb](self, seat, rest, at)
        elif verb in AGORA_VERBS:
            AGORA_VERBS[verb](self, seat, rest, at)
        elif verb == "pick":
            wonder = self.wonder(rest, at)
            if wonder is not None:
                self.emit(WonderPicked, {"seat": seat, "wonder": wonder}, at=start)
        elif verb in ("construct", "build", "discard", "wonder"):
            self.card_played(seat, "construct" if verb == "build" else verb, rest, at)
        elif verb == "progress":
            box = FROM_BOX.match(rest)
            token = self.token(box.group(1) if box else rest, at)
            if token is not None:
                self.emit(ProgressTaken, {"seat": seat, "token": token, "source": "box" if box else "board"}, at=start)
        elif verb == "draws":
            tokens = self.listed(rest, at, self.token)
            if tokens is not None:
                self.emit(TokensDrawn, {"seat": seat, "tokens": tokens}, at=start)
        elif verb in ("destroys", "from discard"):
            card = None if rest.lower() in NOTHING else self.card(rest, at)
            if card is not None or rest.lower() in NOTHING:
                self.emit(CardDestroyed if verb == "destroys" else DiscardBuilt, {"seat": seat, "card": card},
                          at=start)
        else:
            starts = self.seat(rest, at)
            if starts is not None:
                self.emit(StarterChosen, {"seat": seat, "starts": starts}, at=start)

    def card_played(self, seat: int, action: str, text: str, at: int) -> None:
        """``<card> [@<slot>] [free chain|engineering] [(<payment>)] [{<claims>}]`` (``<Wonder> with`` first for a Wonder)."""
        if not self.age_known(at):
            return
        fields: dict[str, Any] = {"seat": seat, "age": self.at.age, "action": action}
        if action == "wonder":
            w = WITH.match(text)
            if w is None:
                self.problem(at, text[:40], "a Wonder is built as 'wonder <Wonder> with <card>'")
                return
            fields["wonder"] = self.wonder(w.group("wonder"), at)
            if fields["wonder"] is None:
                return
            text, at = w.group("rest"), at + w.start("rest")
        parts = TAIL.match(text)
        if parts is None:
            self.problem(at, text[:40], "after the card come '@<slot>', 'free chain', '(<payment>)' and "
                         "'{<claims>}', each at most once, in this order")
            return
        if not parts.group("card").strip():
            self.problem(at, text[:40], "name the card taken from the structure")
            return
        card = self.card(parts.group("card"), at)
        if card is None:
            return
        fields["card"] = card
        if parts.group("slot") is not None:
            slot = self.slot(parts.group("slot"), at + parts.start("slot"))
        elif (slot := self.at.where.get(card)) is None:
            self.problem(at, parts.group("card").strip(), "this card is not in the Age's structure as dealt and "
                         "turned up so far: write its slot after it (@r5c2)")
        if slot is None:
            return
        fields["slot"] = slot
        if parts.group("free") is not None:
            free = parts.group("free").lower()
            if free not in ("chain", "engineering"):
                self.problem(at + parts.start("free"), parts.group("free"),
                             "say 'free chain' (its chain symbol) or, with Pantheon, 'free engineering'")
                return
            fields["free"] = free
        if parts.group("pay") is not None and not self.payment(parts.group("pay"), at + parts.start("pay"), fields):
            return
        if parts.group("claims") is not None and not self.claims(parts.group("claims"), at + parts.start("claims"),
                                                                  fields):
            return
        self.emit(CardPlayed, fields, at=at)

    def payment(self, text: str, start: int, fields: dict[str, Any]) -> bool:
        """``buy [N] <resource>, ...; discount [N] <resource>, ...; <resource> from <own card or Wonder>; ...``."""
        choices: dict[str, str] = {}
        for column, item in items(text, start, ";"):
            word, _, rest = item.partition(" ")
            if word.lower() in ("buy", "discount"):
                key = "bought" if word.lower() == "buy" else "discount"
                counted = self.counted(rest, column + len(word) + 1, coins=key == "discount") if key not in fields else None
                if counted is None:
                    if key in fields:
                        self.problem(column, item, f"say '{word.lower()}' once, with every resource")
                    return False
                fields[key] = counted
                continue
            m = CHOICE.match(item)
            resource = RESOURCE_WORDS.get(m.group("what").lower()) if m else None
            source = normal(m.group("source")) if m else ""
            if m is None or resource is None or source in choices or not NAME.match(source):
                self.problem(column, item, "a payment item is 'buy [N] <resource>, ...', 'discount [N] <resource>, "
                             "...' or '<resource> from <own card or Wonder>' (each source once); the resources: "
                             + ", ".join(RESOURCE_WORDS))
                return False
            choices[source] = resource
        fields["choices"] = choices
        return True

    def counted(self, text: str, start: int, coins: bool = False) -> dict[str, int] | None:
        """``[N] <resource>, [N] <resource>, ...``; with ``coins`` (a discount) also ``N coins``: a coin
        cost an Agora Decree left out (``options.decree_coin_symbol: coins``)."""
        out: dict[str, int] = {}
        words = {**RESOURCE_WORDS, **COIN_WORDS} if coins else RESOURCE_WORDS
        for column, item in items(text, start):
            m = COUNTED.match(item)
            resource = words.get(m.group("what").lower()) if m else None
            if m is None or resource is None or resource in out:
                self.problem(column, item, "a resource is '[N] <resource>', each once (" + ", ".join(words) + ")")
                return None
            out[resource] = int(m.group("count") or 1)
        return out

    def claims(self, text: str, start: int, fields: dict[str, Any]) -> bool:
        """``{paid N, pawn +N, looted N}``: the coins the play cost, the Conflict pawn after it, the
        coins the opponent lost to a military token; each optional."""
        for column, item in items(text, start):
            m = CLAIM.match(item)
            if m is None or m.group(1).lower() in fields:
                self.problem(column, item, "a claim is 'paid N', 'pawn N' (+ towards the second seat's capital) or "
                             "'looted N', each once")
                return False
            fields[m.group(1).lower()] = int(m.group(2))
        return True

    # -- the Pantheon's lines

    def shaped(self, pattern: re.Pattern[str], text: str, at: int, form: str) -> re.Match[str] | None:
        """``text`` read by an expansion line's ``pattern``, or a problem saying its ``form``."""
        m = pattern.match(text)
        if m is None:
            self.problem(at, text[:40], form)
        return m

    def divinities(self, seat: int, text: str, at: int) -> None:
        """``divinities <divinity>, ... from <mythology|gate>``."""
        m = self.shaped(DRAWN_FROM, text, at, "say where the Divinities come from: 'divinities <divinity>, ... "
                        "from <mythology|gate>'")
        if m is None:
            return
        drawn = self.listed(m.group("what"), at, lambda item, column: self.piece("divinity", item, column))
        source = normal(m.group("source"))
        if drawn is not None:
            self.emit(DivinitiesDrawn, {"seat": seat, "mythology": None if source == "gate" else source,
                                        "divinities": drawn}, at=at + m.start("source"))

    def choose(self, seat: int, text: str, at: int) -> None:
        """``choose <divinity> [space N]``: into a Pantheon space, or (no space) activated by the Gate or the Divine Theater."""
        m = SPACE.match(text)
        divinity = self.piece("divinity", m.group("what") if m else "", at)
        if m and divinity is not None:
            self.emit(DivinityChosen, {"seat": seat, "divinity": divinity, "space": None if m.group("space") is None
                                       else int(m.group("space"))}, at=at)

    def activate(self, seat: int, text: str, at: int) -> None:
        """``activate <divinity> [offering N, ...] [{paid N}]`` (in an Age, as a card is taken)."""
        m = self.shaped(ACTIVATE, text, at, "a Divinity is activated as 'activate <divinity> [offering N, ...] [{paid N}]'")
        if m is None:
            return
        divinity = self.piece("divinity", m.group("what"), at)
        offerings = [] if m.group("offerings") is None else self.numbers(m.group("offerings"), at + m.start("offerings"))
        if divinity is None or offerings is None or not self.age_known(at):
            return
        fields: dict[str, Any] = {"seat": seat, "age": self.at.age, "divinity": divinity, "offerings": offerings}
        if m.group("claims") is None or self.paid(m.group("claims"), at + m.start("claims"), fields):
            self.emit(DivinityActivated, fields, at=at)

    def numbers(self, text: str, start: int) -> list[int] | None:
        """``N, N, ...`` (the Offering tokens' coins)."""
        out = []
        for column, item in items(text, start):
            if not NUMBER.match(item):
                self.problem(column, item, "an Offering is its coins, a number (offering 4, 3)")
                return None
            out.append(int(item))
        return out

    def paid(self, text: str, start: int, fields: dict[str, Any]) -> bool:
        """``{paid N}``: the one claim of an activation or a recruit."""
        m = CLAIM.match(text.strip())
        if m is None or m.group(1).lower() != "paid":
            self.problem(start, text.strip(), "the claim here is 'paid N'")
            return False
        fields["paid"] = int(m.group(2))
        return True

    def power(self, seat: int, text: str, at: int) -> None:
        """``power <divinity> <field> <value>, ...`` or ``power <divinity> nothing``."""
        name, _, rest = text.partition(" ")
        divinity = self.piece("divinity", name, at)
        if divinity is None:
            return
        fields: dict[str, Any] = {"seat": seat, "divinity": divinity}
        said = [] if rest.strip().lower() in NOTHING else list(items(rest, at + len(name) + 1))
        for column, item in said:
            m = POWER_ITEM.match(item)
            if m is None or m.group(1).lower() in fields:
                self.problem(column, item, "a power's use is '<field> <value>', each field once (card, slot, wonder, "
                             "token, space, discarded, applied), or 'nothing'")
                return
            value = self.power_value(m.group(1).lower(), m.group(2), column + m.start(2))
            if value is None:
                return
            fields[m.group(1).lower()] = value
        self.emit(DivinityPower, fields, at=at)

    def power_value(self, field: str, text: str, at: int) -> Any:
        """A power's value: a card, Wonder or token by id or name, a number for ``space``, else as written."""
        if field == "card":
            return self.card(text, at)
        if field == "wonder":
            return self.wonder(text, at)
        if field == "token":
            return self.token(text, at)
        if field == "space":
            if not NUMBER.match(text):
                self.problem(at, text, "a track space is a number (space -3)")
                return None
            return int(text)
        if field in ("discarded", "applied"):
            return self.military_token(text, at)
        return text.lower()

    def military_token(self, text: str, at: int) -> str | None:
        """Neptune's ``<name>:<token>``: the token on that player's side of the track, as the event's
        ``<seat>:<token>``. The seat's number (``1:loot_5``, the form written before names) is read too."""
        side, colon, token = text.rpartition(":")
        seat = self.names.get(side.strip().lower(), int(side) if side.strip() in ("0", "1") else None)
        if not colon or seat is None or not token.strip() or " " in token.strip():
            self.problem(at, text, "a military token is '<player>:<token>', on that player's side (Ben:loot_5) "
                         + self.seat_list())
            return None
        return f"{seat}:{token.strip().lower()}"

    # -- Agora's lines

    def conspiracies(self, seat: int, text: str, at: int) -> None:
        """``conspiracies <conspiracy>, ...``: those drawn when conspiring."""
        drawn = self.listed(text, at, lambda item, column: self.piece("conspiracy", item, column))
        if drawn is not None:
            self.emit(ConspiraciesDrawn, {"seat": seat, "conspiracies": drawn}, at=at)

    def keep(self, seat: int, text: str, at: int) -> None:
        """``keep <conspiracy>, ... [(other on top|bottom)]``."""
        m = self.shaped(KEEP, text, at, "say 'keep <conspiracy>, ... [(other on top|bottom)]'")
        if m is None:
            return
        kept = self.listed(m.group("what"), at, lambda item, column: self.piece("conspiracy", item, column))
        if kept is not None:
            place = m.group("place").lower() if m.group("place") else None
            self.emit(ConspiracyChosen, {"seat": seat, "keep": kept, "place": place}, at=at)

    def taken(self, text: str, at: int, card_text: str, slot_text: str | None) -> tuple[str, str] | None:
        """A card taken from the structure (its slot known or written ``@<slot>``), in an Age."""
        if not self.age_known(at):
            return None
        senator = aliases(self.pack, "senator").get(normal(card_text))
        card = self.card(card_text, at) if senator is None else self.senator(senator, card_text, at, slot_text)
        if card is None:
            return None
        if slot_text is not None:
            slot = self.slot(slot_text, at + text.find("@") + 1)
        elif (slot := self.at.where.get(card)) is None:
            self.problem(at, card_text.strip(), "this card is not in the Age's structure as dealt and turned up so "
                         "far: write its slot after it (@r5c2)")
        return None if slot is None else (card, slot)

    def senator(self, senator: str, text: str, at: int, slot_text: str | None) -> str | None:
        """The copy of a Senator typed without it (``Conspirator``): the one at ``@<slot>``, or the only one left in
        the structure."""
        left = [c for c, s in self.at.where.items() if c.rsplit("_", 1)[0] == senator and c not in self.at.gone
                and (slot_text is None or s == slot_text.strip().lower())]
        if len(left) != 1:
            self.problem(at, text.strip(), f"{'no' if not left else 'more than one'} {senator} in the structure "
                         "there: write its copy (conspirator_4) or its slot (@r5c2)")
            return None
        return left[0]

    def recruit(self, seat: int, text: str, at: int) -> None:
        """``recruit <senator> [@<slot>] [{paid N}]``."""
        m = self.shaped(RECRUIT, text, at, "a Senator is recruited as 'recruit <senator> [@<slot>] [{paid N}]'")
        if m is None:
            return
        taken = self.taken(text, at, m.group("card"), m.group("slot"))
        if taken is None:
            return
        fields: dict[str, Any] = {"seat": seat, "age": self.at.age, "card": taken[0], "slot": taken[1]}
        if m.group("claims") is None or self.paid(m.group("claims"), at + m.start("claims"), fields):
            self.emit(SenatorRecruited, fields, at=at)

    def prepare(self, seat: int, text: str, at: int) -> None:
        """``prepare <conspiracy> with <card> [@<slot>]``."""
        w = WITH.match(text)
        r = RECRUIT.match(w.group("rest")) if w else None
        if w is None or r is None or r.group("claims") is not None:
            self.problem(at, text[:40], "a conspiracy is prepared as 'prepare <conspiracy> with <card> [@<slot>]'")
            return
        conspiracy = self.piece("conspiracy", w.group("wonder"), at)
        rest_at = at + w.start("rest")
        taken = self.taken(w.group("rest"), rest_at, r.group("card"), r.group("slot")) if conspiracy else None
        if taken is not None:
            self.emit(ConspiracyPrepared, {"seat": seat, "age": self.at.age, "card": taken[0], "slot": taken[1],
                                           "conspiracy": conspiracy}, at=at)

    def trigger(self, seat: int, text: str, at: int) -> None:
        """``trigger <conspiracy>``."""
        conspiracy = self.piece("conspiracy", text, at)
        if conspiracy is not None:
            self.emit(ConspiracyTriggered, {"seat": seat, "conspiracy": conspiracy}, at=at)

    def senate(self, seat: int, text: str, at: int) -> None:
        """``senate place|remove <chamber>``, ``senate move <chamber> to <chamber>``, ``senate conspire|skip``."""
        m = self.shaped(SENATE, text, at, "a Senate action is 'place <chamber>', 'remove <chamber>', 'move "
                        "<chamber> to <chamber>', 'conspire' or 'skip'")
        if m is None:
            return
        if m.group("bare"):
            self.emit(SenateAction, {"seat": seat, "action": m.group("bare").lower()}, at=at)
            return
        action = m.group("one").lower() if m.group("one") else "move"
        chamber_at = at + m.start("chamber" if m.group("one") else "to")
        chamber = self.piece("chamber", m.group("chamber") or m.group("to"), chamber_at)
        origin = self.piece("chamber", m.group("origin"), at + m.start("origin")) if action == "move" else None
        if chamber is not None and (origin is not None or action != "move"):
            self.emit(SenateAction, {"seat": seat, "action": action, "chamber": chamber, "origin": origin}, at=at)

    def target(self, seat: int, text: str, at: int) -> None:
        """``target <effect> <target|nothing>``: what a triggered conspiracy takes."""
        effect_text, _, target_text = text.partition(" ")
        effect = normal(effect_text)
        if effect not in EFFECTS:
            self.problem(at, effect_text, "a conspiracy's effect is one of " + ", ".join(EFFECTS))
            return
        target = None if target_text.strip().lower() in NOTHING else normal(target_text)
        if target is not None and not NAME.match(target):
            self.problem(at + len(effect_text) + 1, target_text, "name the card, Wonder or token taken, or 'nothing'")
            return
        self.emit(ConspiracyTarget, {"seat": seat, "effect": effect, "target": target}, at=at)

    def removed(self, seat: int, text: str, at: int) -> None:
        """``removed <card>, ...``: the Age's removed cards Treason turns up."""
        if not self.age_known(at):
            return
        cards = self.listed(text, at, self.card)
        if cards is not None:
            self.emit(RemovedRevealed, {"seat": seat, "age": self.at.age, "cards": cards}, at=at)

    def swap(self, seat: int, text: str, at: int) -> None:
        """``swap <card taken> for <card given>`` or ``swap nothing``: Coercion."""
        if text.strip().lower() in NOTHING:
            self.emit(CardsSwapped, {"seat": seat, "take": None, "give": None}, at=at)
            return
        m = self.shaped(SWAP, text, at, "Coercion's swap is 'swap <card taken> for <card given>' or 'swap nothing'")
        if m is None:
            return
        take = self.card(m.group("take"), at)
        give = self.card(m.group("give"), at + m.start("give")) if take is not None else None
        if give is not None:
            self.emit(CardsSwapped, {"seat": seat, "take": take, "give": give}, at=at)

    def moves(self, seat: int, text: str, at: int) -> None:
        """``moves decree <decree|face down> from <chamber> to <chamber>``: Insider Influence."""
        m = self.shaped(MOVES, text, at, "Insider Influence is 'moves decree <decree|face down> from <chamber> to "
                        "<chamber>'")
        if m is None:
            return
        hidden = " ".join(m.group("decree").lower().split()) == FACE_DOWN
        decree = None if hidden else self.piece("decree", m.group("decree"), at + m.start("decree"))
        origin = self.piece("chamber", m.group("origin"), at + m.start("origin"))
        chamber = self.piece("chamber", m.group("to"), at + m.start("to"))
        if (hidden or decree is not None) and origin is not None and chamber is not None:
            self.emit(DecreeMoved, {"seat": seat, "origin": origin, "chamber": chamber, "decree": decree}, at=at)

    # -- the game's end

    def ending(self, line: str) -> bool:
        """A line of the game's end (``victory``, ``winners``, ``score``); False: not one."""
        assert self.end is not None
        fields = self.end[1]
        if m := VICTORY.match(line):
            if m.group(1).lower() not in VICTORIES or "victory" in fields:
                self.problem(m.start(1), m.group(1), "the victory is " + ", ".join(VICTORIES) + " (said once)")
            else:
                fields["victory"] = m.group(1).lower()
            return True
        if m := WINNERS.match(line):
            said = [] if m.group(1).strip().lower() in NOTHING else [self.seat(item, column)
                                                                     for column, item in items(m.group(1), m.start(1))]
            if "winners" in fields:
                self.problem(0, line[:40], "the winners are said once")
            elif None not in said:
                fields["winners"] = said
            return True
        if (m := SCORE.match(line)) and m.group(1).strip().lower() in self.names:
            self.score(m, fields["scores"])
            return True
        return False

    def score(self, m: re.Match[str], scores: list[dict[str, Any]]) -> None:
        """``score <name>: <category> N, ...``."""
        claim: dict[str, Any] = {"seat": self.names[m.group(1).strip().lower()]}
        for column, item in items(m.group(2) or "", m.start(2)):
            words = item.split()
            category = CATEGORY_WORDS.get(words[0].lower()) if len(words) == 2 else None
            if category is None or not NUMBER.match(words[1]) or category in claim:
                self.problem(column, item, "a score is '<category> N', each category once ("
                             + ", ".join(CATEGORY_WORDS) + ")")
                return
            claim[category] = int(words[1])
        scores.append(claim)


PANTHEON_VERBS = {"divinities": _Reader.divinities, "choose": _Reader.choose, "activate": _Reader.activate,
                  "power": _Reader.power}
AGORA_VERBS = {"conspiracies": _Reader.conspiracies, "keep": _Reader.keep, "recruit": _Reader.recruit,
               "prepare": _Reader.prepare, "trigger": _Reader.trigger, "senate": _Reader.senate, "target": _Reader.target,
               "removed": _Reader.removed, "swap": _Reader.swap, "moves": _Reader.moves}


def read(text: str, level: Level = "collect", source: str = "") -> Parsed:
    """Events from notation. ``collect``: every problem gathered; ``raise``: NotationError at the first."""
    return read_text(_Reader, text, level, source)
