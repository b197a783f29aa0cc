"""A small Flip 7 table for the notation's tests: it deals real shuffled decks and plays by the
published rules (the pack's default options), keeping every card in one place, and records the
events in the order docs/games/flip-7.md gives. It is not the rules engine: it knows only what
it takes to make valid games, and it tracks the piles itself (so the notation's own bookkeeping
is checked against it, not against itself)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from replay.events import Event, EventPayload
from replay.games.flip7 import events as ev
from replay.games.flip7.notation_syntax import shipped

PACK = shipped()[0]
DECK = [c.card for c in PACK.deck for _ in range(c.count)]
VALUE = {c.card: c.value for c in PACK.deck}
KIND = {c.card: c.kind for c in PACK.deck}


class Table:
    def __init__(self, names: Sequence[str], seed: int, first_dealer: int = 0, game_id: str = "f7",
                 bold: bool = False) -> None:
        self.rng = random.Random(seed)
        self.bold = bold
        """A bold table never stays: more busts, and Flip 7s."""
        self.n = len(names)
        self.game_id = game_id
        self.events: list[Event] = []
        self.pile: list[str] = []
        self.discard: list[str] = []
        self.totals = [0] * self.n
        self.dealer = first_dealer
        self.emit(ev.GameStarted(ruleset=PACK.pin, seats=[{"seat": i, "name": n} for i, n in enumerate(names)],
                                 provenance={"source": "simulated", "detail": f"seed={seed}"}, first_dealer=first_dealer))

    def emit(self, payload: EventPayload) -> None:
        self.events.append(Event.create("flip7", self.game_id, len(self.events), payload))

    # -- a round

    def play(self, rounds: int) -> list[Event]:
        for number in range(1, rounds + 1):
            self.round(number)
            if max(self.totals) >= PACK.scoring.target:
                best = max(self.totals)
                self.emit(ev.GameEnded(winners=[s for s in range(self.n) if self.totals[s] == best]))
                break
            self.dealer = (self.dealer + 1) % self.n
        return self.events

    def round(self, number: int) -> None:
        self.emit(ev.RoundStarted(round=number, dealer=self.dealer))
        if number == 1:
            order = DECK[:]
            self.rng.shuffle(order)
            self.pile = order[:]
            self.emit(ev.DeckShuffled(reason="new_deck", order=order))
        self.area: list[list[str]] = [[] for _ in range(self.n)]
        self.active = set(range(self.n))
        self.busted: set[int] = set()
        self.seven: int | None = None
        seats = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
        for s in seats:
            if s in self.active and self.seven is None:
                self.resolve(s, self.draw(s, "deal"))
        turn = 0
        while self.active and self.seven is None:
            s = seats[turn % self.n]
            turn += 1
            if s not in self.active:
                continue
            if not self.bold and self.rng.random() < min(0.9, len(self.numbers(s)) / 6):
                self.emit(ev.PlayerStayed(seat=s))
                self.active.discard(s)
            else:
                self.emit(ev.PlayerHit(seat=s))
                self.resolve(s, self.draw(s, "hit"))
        scores = [self.score(s) for s in range(self.n)]
        for s in range(self.n):
            self.totals[s] += scores[s]
            self.discard += self.area[s]
        claims = [{"seat": s, "score": scores[s], "total": self.totals[s]} for s in range(self.n)]
        self.emit(ev.RoundEnded(round=number, scores=claims if number % 2 else None))

    def numbers(self, s: int) -> list[str]:
        return [c for c in self.area[s] if KIND[c] == "number"]

    def score(self, s: int) -> int:
        if s in self.busted:
            return 0
        numbers = sum(VALUE[c] for c in self.numbers(s)) * (2 if "x2" in self.area[s] else 1)
        mods = sum(VALUE[c] for c in self.area[s] if KIND[c] == "modifier")
        return numbers + mods + (PACK.scoring.flip_seven_bonus if self.seven == s else 0)

    # -- cards

    def draw(self, s: int, reason: str) -> str:
        if not self.pile:
            order, self.discard = self.discard[:], []
            self.rng.shuffle(order)
            self.pile = order[:]
            self.emit(ev.DeckShuffled(reason="reshuffle", order=order))
        card = self.pile.pop(0)
        self.emit(ev.CardDrawn(seat=s, card=card, reason=reason))
        return card

    def resolve(self, s: int, card: str) -> str:
        """Resolve ``card`` for ``s``; 'stop' if the player's drawing ends (bust, Second Chance used, Flip 7)."""
        if KIND[card] == "number":
            if card in self.numbers(s):
                if "second_chance" in self.area[s]:
                    self.area[s].remove("second_chance")
                    self.discard += ["second_chance", card]
                    self.emit(ev.SecondChanceUsed(seat=s, card=card))
                    return "stop"
                self.area[s].append(card)
                self.emit(ev.Busted(seat=s, card=card))
                self.active.discard(s)
                self.busted.add(s)
                return "stop"
            self.area[s].append(card)
            if len(self.numbers(s)) == PACK.scoring.flip_seven_cards:
                self.emit(ev.FlippedSeven(seat=s))
                self.seven = s
                self.active.clear()
                return "stop"
            return ""
        if card == "freeze":
            t = self.rng.choice(sorted(self.active))
            self.emit(ev.TargetChosen(seat=s, card="freeze", target=t))
            self.area[t].append(card)
            self.emit(ev.Frozen(seat=t))
            self.active.discard(t)
        elif card == "flip_three":
            t = self.rng.choice(sorted(self.active))
            self.emit(ev.TargetChosen(seat=s, card="flip_three", target=t))
            self.area[t].append(card)
            self.flip_three(t)
        elif card == "second_chance":
            self.second_chance(s)
        else:
            self.area[s].append(card)
        return ""

    def second_chance(self, s: int) -> None:
        if "second_chance" not in self.area[s]:
            self.area[s].append("second_chance")
            return
        others = sorted(t for t in self.active if t != s and "second_chance" not in self.area[t])
        t = self.rng.choice(others) if others else None
        self.emit(ev.TargetChosen(seat=s, card="second_chance", target=t))
        if t is None:
            self.discard.append("second_chance")
        else:
            self.area[t].append("second_chance")

    def flip_three(self, t: int) -> None:
        aside: list[str] = []
        for _ in range(3):
            card = self.draw(t, "flip_three")
            if KIND[card] == "action":
                aside.append(card)
            elif self.resolve(t, card) == "stop":
                break
        for card in aside:
            if self.seven is None and t in self.active:
                self.resolve(t, card)
            else:
                self.discard.append(card)


def game(seed: int, names: Sequence[str] = ("Ana", "Ben", "Cy"), rounds: int = 30, **kw: Any) -> list[Event]:
    return Table(names, seed, **kw).play(rounds)
