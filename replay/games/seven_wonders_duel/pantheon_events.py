"""The Pantheon expansion's event types (7 Wonders Duel).

Chance outcomes: ``pantheon_tokens_placed`` (right after Age I's and Age II's ``age_dealt``: the
Mythology, then the Offering tokens on their face-down slots), ``divinities_drawn`` (a Mythology
token's two Divinities of its mythology, or the Gate's top Divinity of each deck) and
``enki_drawn`` (the two progress tokens put on Enki). Choices: ``divinity_chosen`` (the drawn
Divinity put face down into a space of the Pantheon, the Divinity the Gate activates, the
Divinity the Divine Theater takes from a deck), ``divinity_activated`` (a turn from Age II on,
instead of taking a card: with the Offering tokens discarded; claim ``paid``) and
``divinity_power`` (what an activated Divinity's power is used on). Hades uses the base game's
``discard_built``. A token taken when its card is turned up, the Divinities revealed and the Gate
placed at the start of Age II follow from the rules: no event.
"""

from __future__ import annotations

from pydantic import Field

from replay.events import EventPayload

ID = r"^[a-z][a-z0-9_]{0,40}$"
MILITARY_TOKEN = r"^[01]:[a-z][a-z0-9_]{0,40}$"


class PantheonTokensPlaced(EventPayload):
    """A chance outcome: the token on each of the Age's token slots (Age I: a mythology, e.g.
    ``greek``; Age II: an Offering, ``offering_<coins>``)."""

    event_type = "pantheon_tokens_placed"
    age: int = Field(ge=1, le=2)
    tokens: dict[str, str] = Field(description="slot (r{row}c{col}) -> token")


class DivinitiesDrawn(EventPayload):
    """A chance outcome: Divinities turned up for ``seat`` to choose from: two of ``mythology``'s
    deck (a Mythology token), or the top one of each deck (``mythology`` None: the Gate)."""

    event_type = "divinities_drawn"
    seat: int = Field(ge=0, le=1)
    mythology: str | None = Field(default=None, pattern=ID)
    divinities: list[str] = Field(min_length=1, max_length=5)


class DivinityChosen(EventPayload):
    """A choice: the Divinity of those drawn put face down into Pantheon ``space`` (0 to 5, left to
    right as the first player sees the board), the one the Gate activates (no space), or the one
    the Divine Theater takes from its deck and activates (no space)."""

    event_type = "divinity_chosen"
    seat: int = Field(ge=0, le=1)
    divinity: str = Field(pattern=ID)
    space: int | None = Field(default=None, ge=0, le=5)


class DivinityActivated(EventPayload):
    """A turn (from Age II): the Divinity (or the Gate) of a Pantheon space activated, paying its
    space's cost less the ``offerings`` discarded (their coins). Claim: ``paid``."""

    event_type = "divinity_activated"
    seat: int = Field(ge=0, le=1)
    age: int = Field(ge=1, le=3)
    divinity: str = Field(pattern=ID)
    offerings: list[int] = Field(default_factory=list, max_length=5)
    paid: int | None = Field(default=None, ge=0, le=1000)


class EnkiDrawn(EventPayload):
    """A chance outcome: the progress tokens, of those set aside at the start, put on Enki when it is revealed."""

    event_type = "enki_drawn"
    tokens: list[str] = Field(min_length=1, max_length=2)


class DivinityPower(EventPayload):
    """A choice: what an activated Divinity's power is used on. Enki: ``token``; Nisaba (the
    Snake), Baal: the opponent's ``card``; Zeus: the structure's ``slot``; Anubis, Ra: a
    ``wonder``; Isis: a ``card`` of the discard pile and the ``wonder`` it builds; Minerva: the
    track ``space``; Neptune: the military token ``discarded`` and the one ``applied``
    (``side:token``, side the seat that loses its coins). Nothing set: there was nothing to use it on."""

    event_type = "divinity_power"
    seat: int = Field(ge=0, le=1)
    divinity: str = Field(pattern=ID)
    card: str | None = Field(default=None, pattern=ID)
    slot: str | None = Field(default=None, pattern=r"^r[1-9]c[0-9]{1,2}$")
    wonder: str | None = Field(default=None, pattern=ID)
    token: str | None = Field(default=None, pattern=ID)
    space: int | None = Field(default=None, ge=-20, le=20)
    discarded: str | None = Field(default=None, pattern=MILITARY_TOKEN)
    applied: str | None = Field(default=None, pattern=MILITARY_TOKEN)


EVENT_TYPES = (PantheonTokensPlaced, DivinitiesDrawn, DivinityChosen, DivinityActivated, EnkiDrawn, DivinityPower)
EVENT_NAMES = frozenset(m.event_type for m in EVENT_TYPES)
POWER_FIELDS = ("card", "slot", "wonder", "token", "space", "discarded", "applied")
