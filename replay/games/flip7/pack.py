"""Flip 7's rules pack: the deck, the scoring, and the options where published rules and other
implementations answer differently (docs/games/flip-7.md gives each ruling and its source)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from replay.packs import PackPart, Provenanced, RulesPack

CardKind = Literal["number", "modifier", "multiplier", "action"]


class CardType(PackPart):
    """One kind of card: its code (as events name it), what it is, its value, and how many."""

    card: str = Field(pattern=r"^([0-9]|1[0-9]|\+[0-9]{1,2}|x[0-9]|freeze|flip_three|second_chance)$")
    kind: CardKind
    value: int = Field(default=0, ge=0, le=1000, description="a number's face, a modifier's points, a multiplier's factor")
    count: int = Field(ge=1, le=1000)


class Scoring(Provenanced):
    target: int = Field(default=200, ge=1, le=1_000_000, description="the game ends after a round in which someone has this many")
    flip_seven_cards: int = Field(default=7, ge=1, le=50, description="different numbers in a line that end the round")
    flip_seven_bonus: int = Field(default=15, ge=0, le=1_000_000)


class Options(PackPart):
    """Where the rule texts and other implementations disagree (docs/games/flip-7.md)."""

    first_after_deal: Literal["left_of_dealer", "last_targeter"] = Field(
        default="left_of_dealer", description="who is offered Hit or Stay first after the deal: the player left of "
        "the dealer, or the last player who chose a target for an action card during the deal")
    second_chance_ends_turn: bool = Field(
        default=True, description="whether using a Second Chance ends the player's turn (during a Flip Three, its "
        "remaining cards are not drawn) or the player goes on as before")
    flip_three_actions: Literal["after_three", "immediately"] = Field(
        default="after_three", description="when an action card drawn during a Flip Three is resolved: after the "
        "three cards (by the player who drew them), or at once")
    orphan_actions: Literal["discard", "resolver_chooses"] = Field(
        default="discard", description="an action card set aside during a Flip Three whose player is no longer "
        "active (busted, frozen, the round over): discarded, or still given by that player to an active player")
    deck: Literal["carry_over", "rebuild_each_round"] = Field(
        default="carry_over", description="whether the draw pile carries over between rounds (the discard pile is "
        "shuffled only when it runs out) or the whole deck is shuffled anew each round")
    dealt_action_is_initial_card: bool = Field(
        default=True, description="whether an action card dealt in the initial deal counts as the player's one card "
        "(false: after resolving it they are dealt another, until they hold a number or a modifier)")
    ties: Literal["shared", "another_round"] = Field(
        default="shared", description="a tie for the most points at the end: the tied players share the victory, or "
        "another round is played until one player leads")


class Flip7Pack(RulesPack, Provenanced):
    """Every number the rules use: the deck (counts per card), the scoring and the options."""

    deck: list[CardType] = Field(min_length=1, max_length=100)
    scoring: Scoring = Field(default_factory=Scoring)
    options: Options = Field(default_factory=Options)

    @model_validator(mode="after")
    def _one_entry_per_card(self) -> Flip7Pack:
        seen: set[str] = set()
        for c in self.deck:
            if c.card in seen:
                raise ValueError(f"deck: card {c.card!r} is listed twice")
            seen.add(c.card)
            if c.kind == "number" and c.card != str(c.value):
                raise ValueError(f"deck: number card {c.card!r} has value {c.value}")
        if sum(c.count for c in self.deck) > 10_000:
            raise ValueError("deck: more than 10,000 cards")
        return self

    def size(self) -> int:
        return sum(c.count for c in self.deck)

    def card(self, code: str) -> CardType | None:
        return next((c for c in self.deck if c.card == code), None)
