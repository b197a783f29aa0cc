"""Bots: who hits, who stays, and who gets a Freeze or a Flip Three.

* ``random``: a coin for Hit or Stay, any legal target;
* ``stay20``, ``stay25`` (any ``stayN``): hit until the numbers in front add up to N;
* ``odds``: stays when the chance that the next card busts it is above 30 %, counting the
  cards it could draw (the draw pile's contents are known to every seat: every card not in
  sight is in it; its order is not used).

All but ``random`` give a Freeze to the leader (total plus the round so far), a Flip Three to
the opponent most likely to bust, a spare Second Chance to the opponent furthest behind.
Ties are broken by the seeded generator, so a game is a function of its seed.
"""

from __future__ import annotations

import random
from collections import Counter

from .flow import targets
from .state import State

BOTS = ("odds", "stay20", "stay25", "random")
ODDS_LIMIT = 0.30


def bust_chance(state: State, seat: int) -> float:
    """The chance that ``seat``'s next card duplicates a number in its line (0 with a Second Chance)."""
    if state.chance[seat]:
        return 0.0
    pile = state.draw or state.discard  # an empty pile is the discard pile, reshuffled
    if not pile:
        return 0.0
    counts = Counter(pile)
    return sum(counts[c] for c in set(state.line[seat])) / len(pile)


def futile(state: State, seat: int) -> bool:
    """Whether a hit can change nothing: every card left to draw is a Second Chance ``seat`` already
    holds one of. Such a card is passed on or discarded, then reshuffled and drawn again, so a
    player who hit on would play forever (seen with 18 players, the deck all but dealt out)."""
    pile = state.draw or state.discard
    return state.chance[seat] and all(c == "second_chance" for c in pile)


class Bot:
    """A sensible player; subclasses decide when to stay."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def wants_card(self, state: State, seat: int) -> bool:
        """Hit or stay: the bot's own answer, except that nobody hits when a hit can change nothing."""
        return not futile(state, seat) and self.hit(state, seat)

    def hit(self, state: State, seat: int) -> bool:
        raise NotImplementedError

    def target(self, state: State, seat: int, card: str) -> int | None:
        allowed = targets(state, seat, card)
        others = [t for t in allowed if t is not None and t != seat]
        if not others:
            return allowed[0]
        key: dict[int, float]
        if card == "freeze":
            key = {t: state.total[t] + sum(state.round_score(t).values()) for t in others}
        elif card == "flip_three":
            key = {t: bust_chance(state, t) for t in others}
        else:
            key = {t: -state.total[t] for t in others}
        best = max(key.values())
        return self.rng.choice([t for t in others if key[t] == best])


class Threshold(Bot):
    def __init__(self, rng: random.Random, limit: int) -> None:
        super().__init__(rng)
        self.limit = limit

    def hit(self, state: State, seat: int) -> bool:
        return sum(state.cards.value.get(c, 0) for c in state.line[seat]) < self.limit


class Odds(Bot):
    def hit(self, state: State, seat: int) -> bool:
        return bust_chance(state, seat) <= ODDS_LIMIT


class RandomBot(Bot):
    def hit(self, state: State, seat: int) -> bool:
        return self.rng.random() < 0.5

    def target(self, state: State, seat: int, card: str) -> int | None:
        return self.rng.choice(targets(state, seat, card))


def make(name: str, rng: random.Random) -> Bot | None:
    """The bot of that name, or None if there is none."""
    if name == "odds":
        return Odds(rng)
    if name == "random":
        return RandomBot(rng)
    if name.startswith("stay") and name[4:].isdigit() and name[4:].isascii():
        return Threshold(rng, int(name[4:]))
    return None
