"""Where Flip 7's cards are, as far as the notation needs to know: how many cards the draw pile
still holds, and which cards the discard pile holds when it is shuffled into a new draw pile.

The notation's reader needs both when a typed game leaves out a shuffle's order (a person sees
only the cards drawn): it must know *when* the pile runs out (count draws) and *what* the new
pile holds (the discard pile). This follows docs/games/flip-7.md, "Where the cards are", and no
further: it is no rules engine, it only counts cards.

Every card is in exactly one place. When the draw pile runs out it holds nothing, so the discard
pile is then the whole deck less the cards still in play: those drawn this round that were not
discarded at once. Cards leave play at once in three cases: a used Second Chance with the
duplicate it cancelled, a Second Chance nobody may take, and a card set aside during a Flip Three
whose player is out (``orphan_actions = discard``). At a round's end every card leaves play.

A card set aside during a Flip Three stays set aside only until the three cards are drawn: then
it is resolved, and a Second Chance its player keeps is resolved without an event. So the set-aside
cards of a Flip Three are forgotten at the event after its third draw, unless that event is the
player's bust (their cards are then orphans): a later Freeze of that player discards nothing.
"""

from __future__ import annotations

from collections import Counter

from replay.events import Event

from .pack import Flip7Pack

FLIP_THREE_CARDS = 3
"""The cards a Flip Three makes its target draw."""


class Piles:
    """The draw pile's count and the cards in play, fed every event in order."""

    def __init__(self, pack: Flip7Pack) -> None:
        self.deck = [c.card for c in pack.deck for _ in range(c.count)]
        """The whole deck in the pack's order: the canonical order of cards nobody saw."""
        self.rebuild = pack.options.deck == "rebuild_each_round"
        self.after_three = pack.options.flip_three_actions == "after_three"
        self.orphans_discarded = pack.options.orphan_actions == "discard"
        self.actions = frozenset(c.card for c in pack.deck if c.kind == "action")
        self.left = 0
        """Cards in the draw pile."""
        self.rounds = 0
        self.new_deck_due = False
        """A round began that starts with a new deck, and it has not been shuffled yet."""
        self.in_play: Counter[str] = Counter()
        self.set_aside: list[tuple[int, str]] = []
        """(seat, card) of action cards set aside during a Flip Three, not yet resolved."""
        self.flipping: dict[int, int] = {}
        """Cards still to draw of each seat's Flip Three under way."""
        self.resolving: int | None = None
        """The seat whose Flip Three drew its third card at the last event: its set-aside cards are
        resolved next (kept, given or discarded), unless that seat busts first."""

    def shuffled(self, reason: str, size: int) -> None:
        """A new draw pile of ``size`` cards."""
        self.left = size
        if reason == "new_deck":
            self.new_deck_due = False

    def discard(self) -> Counter[str]:
        """The discard pile, when the draw pile is empty: the deck less the cards in play."""
        return Counter(self.deck) - self.in_play

    def apply(self, event: Event) -> None:
        """Follow one event (``deck_shuffled`` is told through :meth:`shuffled`)."""
        p = event.payload
        if self.resolving is not None:
            seat, self.resolving = self.resolving, None
            if not (event.type == "busted" and p["seat"] == seat):
                self.set_aside = [e for e in self.set_aside if e[0] != seat]
        if event.type == "round_started":
            self.rounds += 1
            self.new_deck_due = self.rounds == 1 or self.rebuild
            self._clear()
        elif event.type == "round_ended":
            self._clear()
        elif event.type == "card_drawn":
            self._drawn(p["seat"], p["card"], p["reason"])
        elif event.type == "target_chosen":
            self._given(p["seat"], p["card"], p["target"])
        elif event.type == "second_chance_used":
            self._leave("second_chance")
            self._leave(p["card"])
        elif event.type in ("busted", "frozen"):
            self._out(p["seat"])

    def _clear(self) -> None:
        self.in_play.clear()
        self.set_aside.clear()
        self.flipping.clear()

    def _drawn(self, seat: int, card: str, reason: str) -> None:
        self.left -= 1
        self.in_play[card] += 1
        if reason == "flip_three" and self.after_three:
            if card in self.actions:
                self.set_aside.append((seat, card))
            left = self.flipping.get(seat, 0) - 1
            self.flipping[seat] = left
            if left == 0:
                self.resolving = seat

    def _given(self, seat: int, card: str, target: int | None) -> None:
        """A card given is no longer set aside (if it was: the last of three may be resolved at once)."""
        if (seat, card) in self.set_aside:
            self.set_aside.remove((seat, card))
        if card == "second_chance" and target is None:
            self._leave(card)
        if card == "flip_three" and target is not None:
            self.flipping[target] = FLIP_THREE_CARDS

    def _out(self, seat: int) -> None:
        """A player out of the round: the cards they set aside are discarded, if the pack says so."""
        if not self.orphans_discarded:
            return
        for entry in [e for e in self.set_aside if e[0] == seat]:
            self.set_aside.remove(entry)
            self._leave(entry[1])

    def _leave(self, card: str) -> None:
        if self.in_play[card] > 0:
            self.in_play[card] -= 1


def reconstruct(content: Counter[str], drawn: list[str], deck: list[str]) -> list[str]:
    """A draw pile's order from what was seen of it: the cards drawn, in draw order, then the
    pile's other cards in the deck's canonical order. The second part is invented: nobody saw it."""
    rest = content - Counter(drawn)
    tail: list[str] = []
    for card in deck:
        if rest[card] > 0:
            rest[card] -= 1
            tail.append(card)
    return [*drawn, *tail]
