"""Writing Flip 7's notation: events to the canonical text, ``read(write(events)).events == events``
(notation.py says the format)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from replay.events import Event
from replay.notation import escape, numbered_seat_tags, raw_text, start_tags

from .events import (
    KIND,
)
from .notation_syntax import UNSAYABLE, Seen, card_text, find_pack
from .piles import Piles

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
        self.seen = Seen()
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
        self.lines.append(raw_text(e))

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
        self.lines += start_tags(e, KIND) + numbered_seat_tags(p)
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


def write(events: Iterable[Event]) -> str:
    """The canonical notation of a game: ``read(write(events)).events == events``."""
    return _Writer(list(events)).write()
