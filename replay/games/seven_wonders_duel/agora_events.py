"""The Agora expansion's event types (7 Wonders Duel).

Chance outcomes: ``decrees_placed`` (at the setup, the Decrees of the chambers whose Decree lies
face up), ``decree_revealed`` (a face-down Decree turned up when its chamber is first controlled)
``conspiracies_drawn`` (what a player draws when conspiring; only that player sees them) and
``removed_revealed`` (Treason: the Age's cards removed at its setup, turned up).
Senators are cards of the Age decks, so they come with ``age_dealt`` and ``card_revealed`` as
``<senator id>_<copy>`` (``conspirator_4``).

Choices: the two new turns, ``senator_recruited`` (a Senator taken from the structure and paid
for) and ``conspiracy_prepared`` (any card taken from the structure put under one of the
player's conspiracies); ``conspiracy_triggered`` (before the turn's card); ``senate_action``
(place, move or remove a cube, conspire, or let an optional move go); ``conspiracy_chosen``
(which drawn conspiracies are kept, where the other goes), ``conspiracy_target`` (the card or
Wonder a triggered conspiracy takes), ``cards_swapped`` (Coercion) and ``decree_moved`` (Insider
Influence).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from replay.events import EventPayload

ID = r"^[a-z][a-z0-9_]{0,40}$"
SLOT = r"^r[1-9]c[0-9]{1,2}$"


class DecreesPlaced(EventPayload):
    """A chance outcome at the setup: the Decree of each chamber whose Decree lies face up (the
    others lie face down, unknown until their chamber is first controlled)."""

    event_type = "decrees_placed"
    decrees: dict[str, str] = Field(description="chamber id -> decree id, the face-up chambers only")

    @field_validator("decrees")
    @classmethod
    def _ids(cls, decrees: dict[str, str]) -> dict[str, str]:
        import re

        for chamber, decree in decrees.items():
            if not re.match(ID, chamber) or not re.match(ID, decree):
                raise ValueError(f"{chamber!r}: {decree!r} is not a chamber and a decree id")
        return decrees


class DecreeRevealed(EventPayload):
    """A chance outcome: a face-down Decree turned up as its chamber is first controlled."""

    event_type = "decree_revealed"
    chamber: str = Field(pattern=ID)
    decree: str = Field(pattern=ID)


class SenatorRecruited(EventPayload):
    """A turn: the Senator of an available slot recruited, for as many coins as Senators the seat
    already has (none with Corruption). Claim: ``paid``."""

    event_type = "senator_recruited"
    seat: int = Field(ge=0, le=1)
    age: int = Field(ge=1, le=3)
    slot: str = Field(pattern=SLOT)
    card: str = Field(pattern=ID)
    paid: int | None = Field(default=None, ge=0, le=100)


class ConspiracyPrepared(EventPayload):
    """A turn: the card of an available slot put face down under one of the seat's conspiracies,
    which is then prepared."""

    event_type = "conspiracy_prepared"
    seat: int = Field(ge=0, le=1)
    age: int = Field(ge=1, le=3)
    slot: str = Field(pattern=SLOT)
    card: str = Field(pattern=ID)
    conspiracy: str = Field(pattern=ID)


class ConspiracyTriggered(EventPayload):
    """Before taking the turn's card: one of the seat's prepared conspiracies turned up and applied."""

    event_type = "conspiracy_triggered"
    seat: int = Field(ge=0, le=1)
    conspiracy: str = Field(pattern=ID)


SenateMove = Literal["place", "move", "remove", "conspire", "skip"]


class SenateAction(EventPayload):
    """One step in the Senate: ``place`` a cube in ``chamber``, ``move`` one from ``origin`` to the
    adjacent ``chamber``, ``remove`` an opponent's cube from ``chamber``, ``conspire`` (a
    Conspirator's other choice), or ``skip`` (an optional move let go, or nothing to remove)."""

    event_type = "senate_action"
    seat: int = Field(ge=0, le=1)
    action: SenateMove
    chamber: str | None = Field(default=None, pattern=ID)
    origin: str | None = Field(default=None, pattern=ID)


class ConspiraciesDrawn(EventPayload):
    """A chance outcome: the conspiracies a conspiring seat draws (seen by that seat only)."""

    event_type = "conspiracies_drawn"
    seat: int = Field(ge=0, le=1)
    conspiracies: list[str] = Field(min_length=1, max_length=4)


class ConspiracyChosen(EventPayload):
    """Which drawn conspiracies the seat keeps (one; all with Organized Crime), and whether the
    other goes on the ``top`` or the ``bottom`` of the deck."""

    event_type = "conspiracy_chosen"
    seat: int = Field(ge=0, le=1)
    keep: list[str] = Field(min_length=1, max_length=4)
    place: Literal["top", "bottom"] | None = None


class ConspiracyTarget(EventPayload):
    """What a triggered conspiracy takes: a card of the opponent's city (``destroy``, ``steal``),
    one of their Wonders (``steal_wonder``, ``return_wonder``), a card of the structure's row 1 to
    build for free (``build_from_last_row``), one of the Age's removed cards Treason turned up to
    build for free (``build_from_removed``), a progress token to lock away
    (``lock_progress_token``) or an available card to discard (``discard_available``, one at a time,
    None to stop); None when there is none."""

    event_type = "conspiracy_target"
    seat: int = Field(ge=0, le=1)
    effect: Literal["destroy", "steal", "steal_wonder", "return_wonder", "build_from_last_row", "lock_progress_token",
                    "discard_available", "build_from_removed"]
    target: str | None = Field(default=None, pattern=ID)


class RemovedRevealed(EventPayload):
    """A chance outcome (Treason): the cards removed from the Age's deck at its setup, turned up for
    the seat that triggered it (they were unseen: only now does the record say which they are)."""

    event_type = "removed_revealed"
    seat: int = Field(ge=0, le=1)
    age: int = Field(ge=1, le=3)
    cards: list[str] = Field(min_length=1, max_length=10)


class CardsSwapped(EventPayload):
    """Coercion: the seat ``take``s a card of the opponent's city and gives them ``give``, one of its
    own of the same colour; both None when no such pair of cards exists."""

    event_type = "cards_swapped"
    seat: int = Field(ge=0, le=1)
    take: str | None = Field(default=None, pattern=ID)
    give: str | None = Field(default=None, pattern=ID)


class DecreeMoved(EventPayload):
    """Insider Influence: a Decree moved from the ``origin`` chamber under the Decree of another
    ``chamber`` (``decree`` None: a face-down one, which stays unseen)."""

    event_type = "decree_moved"
    seat: int = Field(ge=0, le=1)
    origin: str = Field(pattern=ID)
    chamber: str = Field(pattern=ID)
    decree: str | None = Field(default=None, pattern=ID)


AGORA_EVENT_TYPES = (DecreesPlaced, DecreeRevealed, SenatorRecruited, ConspiracyPrepared, ConspiracyTriggered,
                     SenateAction, ConspiraciesDrawn, ConspiracyChosen, ConspiracyTarget, RemovedRevealed, CardsSwapped,
                     DecreeMoved)
AGORA_TYPES = frozenset(m.event_type for m in AGORA_EVENT_TYPES)
AGORA_ACTIONS = frozenset({"senator_recruited", "conspiracy_prepared", "conspiracy_triggered", "senate_action",
                           "conspiracy_chosen", "conspiracy_target", "cards_swapped", "decree_moved"})
"""The Agora events that are a seat's choice (the others are chance)."""
