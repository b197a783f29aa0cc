"""Bots: who buys what.

* ``greedy``: values each affordable purchase by what it will bring back over the rounds likely left
  (income for each round, points, a new aristocrat type), buys the best one worth its price, takes an
  unaffordable card it values into hand when its hand has room, and passes otherwise;
* ``saver``: as greedy, but wants a purchase to pay back twice, so keeps roubles for the end;
* ``random``: any legal action, passing a third of the time.

Ties are broken by the seeded generator, so a game is a function of its seed.
"""

from __future__ import annotations

import random

from .legal import cost, legal_actions
from .pack import Card
from .scoring import aristocrat_types
from .state import State

BOTS = ("greedy", "saver", "random")


def rounds_left(state: State) -> float:
    """A guess at the rounds still to come, from the smallest deck."""
    if state.last_round:
        return 0.0
    fewest = min(state.deck_size(d) / max(1, state.pack.board.spaces // 2) for d in state.decks)
    return max(0.0, fewest)


def worth(state: State, seat: int, card: Card, displaced: Card | None) -> float:
    """What owning ``card`` is worth to ``seat`` (in roubles), less what the displaced card brought."""
    left = rounds_left(state) + (1 if state.phase_name != "trading" or not state.last_round else 0)
    value = (card.rubles + 3 * card.points) * left
    if card.colour == "aristocrat" and card.id not in state.tableau[seat]:
        value += 3 + aristocrat_types(state, seat)
    if card.power == "pub":
        value += 2 * left
    if card.power == "observatory" or card.discount:
        value += left
    if displaced is not None:
        value -= (displaced.rubles + 3 * displaced.points) * left
    return value


class Bot:
    def __init__(self, rng: random.Random, payback: float) -> None:
        self.rng = rng
        self.payback = payback

    def choose(self, state: State, seat: int) -> str:
        actions = legal_actions(state, seat)
        by_id = state.pack.by_id
        best: list[str] = []
        best_gain = 0.0
        for a in actions:
            if not a.startswith("buy "):
                continue
            words = a.split()
            card, source = by_id[words[1]], words[3]
            displaced = by_id[words[5]] if len(words) > 5 else None
            price = cost(state, seat, card, source, displaced)
            gain = worth(state, seat, card, displaced) - self.payback * price
            if source == "hand":
                gain += 5  # a card left in hand costs 5 points at the end
            if gain > best_gain:
                best, best_gain = [a], gain
            elif gain == best_gain and best:
                best.append(a)
        if best:
            return self.rng.choice(best)
        takes = [a for a in actions if a.startswith("take ")]
        if takes and not state.hand[seat] and not state.last_round:
            wanted = [a for a in takes if by_id[a.split()[1]].points >= 2]
            if wanted:
                return self.rng.choice(wanted)
        if "pass" in actions:
            return "pass"
        discards = [a for a in actions if a.startswith("discard ")]
        return discards[0] if discards else self.rng.choice(actions)

    def pub(self, state: State, seat: int, most: int) -> int:
        if not state.last_round and rounds_left(state) > 1:
            return 0
        return most


class RandomBot(Bot):
    def choose(self, state: State, seat: int) -> str:
        actions = legal_actions(state, seat)
        if "pass" in actions and (len(actions) == 1 or self.rng.random() < 0.34):
            return "pass"
        return self.rng.choice([a for a in actions if a != "pass"])

    def pub(self, state: State, seat: int, most: int) -> int:
        return self.rng.randint(0, most)


def make(name: str, rng: random.Random) -> Bot | None:
    if name == "greedy":
        return Bot(rng, 1.0)
    if name == "saver":
        return Bot(rng, 2.0)
    if name == "random":
        return RandomBot(rng, 1.0)
    return None
