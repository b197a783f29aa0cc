"""Flip 7's event types: every card that leaves the draw pile, every decision, every consequence.

Chance is one kind of event: ``deck_shuffled`` records the complete order of a new draw pile
(top first). Every later ``card_drawn`` must name the card on top of the pile, so a log that
drew a card the pile did not hold is found at once. Decisions (``player_hit``,
``player_stayed``, ``target_chosen``) are the players'; consequences (``busted``, ``frozen``,
``second_chance_used``, ``flipped_seven``, ``round_ended``, ``game_ended``) are recorded too,
and the rules check each one where it must come: a log that forgets a bust, or invents one,
is told so at that event. Scores written at the table ride on ``round_ended`` and
``game_ended`` as optional claims, as in 7 Wonders Dice.

Cards are named by a code: ``"0"`` to ``"12"`` for numbers, ``"+2"`` ... ``"+10"`` and
``"x2"`` for modifiers, ``"freeze"``, ``"flip_three"`` and ``"second_chance"`` for actions
(the pack lists them with their counts).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from replay.events import EventPayload, GameStartedBase

KIND = "flip7"

ActionCard = Literal["freeze", "flip_three", "second_chance"]
DrawReason = Literal["deal", "hit", "flip_three"]
CARD_CODE = r"^([0-9]|1[0-9]|\+[0-9]{1,2}|x[0-9]|freeze|flip_three|second_chance)$"


class GameStarted(GameStartedBase):
    """Seats in clockwise order; the first round's dealer."""

    event_type = "game_started"
    first_dealer: int = Field(default=0, ge=0, description="seat of the first round's dealer; the deal passes left")


class RoundStarted(EventPayload):
    """A round begins; ``dealer`` is who deals it (checked: the deal passes left each round)."""

    event_type = "round_started"
    round: int = Field(ge=1)
    dealer: int = Field(ge=0)


class DeckShuffled(EventPayload):
    """A chance outcome: a new draw pile, top card first.

    ``new_deck``: the whole deck (the first round, or every round when the pack rebuilds the
    deck each round). ``reshuffle``: the discard pile, when the draw pile ran out. Either way
    the order must hold exactly the cards that are not anywhere else.
    """

    event_type = "deck_shuffled"
    reason: Literal["new_deck", "reshuffle"]
    order: list[str] = Field(min_length=1, max_length=10_000)


class CardDrawn(EventPayload):
    """The top card of the draw pile goes to ``seat``: in the deal, for a hit, or as one of the
    three cards of a Flip Three."""

    event_type = "card_drawn"
    seat: int = Field(ge=0)
    card: str = Field(pattern=CARD_CODE)
    reason: DrawReason


class PlayerHit(EventPayload):
    """The player whose turn it is asks for a card."""

    event_type = "player_hit"
    seat: int = Field(ge=0)


class PlayerStayed(EventPayload):
    """The player whose turn it is stays: out of the round, banking their cards."""

    event_type = "player_stayed"
    seat: int = Field(ge=0)


class TargetChosen(EventPayload):
    """``seat`` gives an action card to ``target``: a Freeze or a Flip Three (any active player,
    themselves included), or a second Second Chance (another active player without one).
    ``target`` is None when nobody may take it: the card is discarded."""

    event_type = "target_chosen"
    seat: int = Field(ge=0)
    card: ActionCard
    target: int | None = Field(default=None, ge=0)


class Frozen(EventPayload):
    """A Freeze takes effect: ``seat`` is out of the round and banks their cards."""

    event_type = "frozen"
    seat: int = Field(ge=0)


class SecondChanceUsed(EventPayload):
    """``seat`` drew ``card``, a number already in their line, and held a Second Chance: both
    are discarded instead of a bust."""

    event_type = "second_chance_used"
    seat: int = Field(ge=0)
    card: str = Field(pattern=CARD_CODE)


class Busted(EventPayload):
    """``seat`` drew ``card``, a number already in their line, without a Second Chance: out of
    the round, scoring nothing."""

    event_type = "busted"
    seat: int = Field(ge=0)
    card: str = Field(pattern=CARD_CODE)


class FlippedSeven(EventPayload):
    """``seat`` has seven different numbers: the round ends at once, with the bonus."""

    event_type = "flipped_seven"
    seat: int = Field(ge=0)


class ScoreClaim(BaseModel):
    """What the table wrote down for one seat (each field optional, each checked)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: int = Field(ge=0)
    score: int | None = Field(default=None, ge=0, description="the round's score")
    total: int | None = Field(default=None, ge=0, description="the running total after the round")


class RoundEnded(EventPayload):
    """The round is over; the rules score it (numbers, x2 on the numbers, modifiers, bonus)."""

    event_type = "round_ended"
    round: int = Field(ge=1)
    scores: list[ScoreClaim] | None = Field(default=None, description="claims, checked on replay")


class GameEnded(EventPayload):
    """Someone reached the target at the end of a round; ``winners`` as the table saw them
    (a claim)."""

    event_type = "game_ended"
    winners: list[int] | None = None


EVENT_TYPES = (GameStarted, RoundStarted, DeckShuffled, CardDrawn, PlayerHit, PlayerStayed, TargetChosen, Frozen,
               SecondChanceUsed, Busted, FlippedSeven, RoundEnded, GameEnded)
