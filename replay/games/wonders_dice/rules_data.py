"""The 7 Wonders Dice ruleset pack: every number of the game as validated data.

The texts give the mechanics but not the printed boards, so the engine reads
dice, buildings, spaces, costs, VP and effects from a pack (JSON). Each part
carries its ``source`` and ``confidence``; a player who owns the game can
correct a number in one file. A pack has an id, a version and a content hash,
and every game pins all three in its first event.

Effects are a closed vocabulary (:class:`Effect`); the engine interprets them,
so a new board needs data only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import Field, model_validator

from replay.errors import PackError
from replay.packs import PackPart, Provenanced, RulesPack, added, load_pack, parse_pack, shipped_packs

COLOURS = ("grey", "red", "blue", "yellow", "green", "black", "white", "purple")
SPECIAL = ("black", "white", "purple")


class Effect(PackPart):
    """One icon of the Player Aid, with its parameters.

    ==================  ==========================================================
    type                meaning
    ==================  ==========================================================
    resource            this space produces one resource
    shield              one defence in this Barracks
    attack              attack: ``vp`` minus the defender's shields (previous turns)
    vp                  ``vp`` victory points now
    coins               gain ``amount`` coins now
    cross               cross a space of one of ``buildings`` (``count`` up to 2:
                        up to that many, all in the one building chosen first)
    extra_action        take another action with the current dice
                        (``free_die``: without paying the die cost)
    per_space           ``coins`` now and ``vp`` at the end per crossed space of ``building``
    die_discount        dice of ``colours`` (all if empty) cost ``amount`` less
    die_free            dice of ``colours`` cost 0
    income              gain ``amount`` coins whenever you choose a die of ``colours``
    unlock              unlock the special die ``die``
    vp_per_leader_end   ``vp`` at the end per crossed leader space of the Gallery
    ==================  ==========================================================
    """

    type: Literal[
        "resource", "shield", "attack", "vp", "coins", "cross", "extra_action", "per_space",
        "die_discount", "die_free", "income", "unlock", "vp_per_leader_end",
    ]
    vp: int = 0
    amount: int = 0
    coins: int = 0
    count: int = Field(default=1, ge=1, le=2)
    buildings: tuple[str, ...] = ()
    building: str | None = None
    colours: tuple[str, ...] = ()
    die: str | None = None
    free_die: bool = False

    @model_validator(mode="after")
    def _parameters(self) -> Effect:
        need = {
            "attack": self.vp > 0, "vp": self.vp > 0, "coins": self.amount > 0,
            "cross": bool(self.buildings), "per_space": self.building is not None,
            "die_discount": self.amount > 0, "die_free": bool(self.colours),
            "income": bool(self.colours) and self.amount > 0, "unlock": self.die in SPECIAL,
            "vp_per_leader_end": self.vp > 0,
        }
        if not need.get(self.type, True):
            raise ValueError(f"effect {self.type!r} is missing its parameters")
        return self


class Space(PackPart):
    id: str
    cost: int = Field(ge=0, le=20, description="resources needed; each missing one costs a coin (the rulebook "
                      "says 0-6; some boards print 7, so a pack may say what its board prints)")
    effects: tuple[Effect, ...] = ()
    leader: bool = False


class Lane(PackPart):
    """Spaces reached by one die symbol, in the order of the arrow (any order if not ``ordered``)."""

    symbol: str
    spaces: tuple[str, ...] = Field(min_length=1)
    ordered: bool = True


class Building(Provenanced):
    id: str
    name: str
    colour: str | None = Field(description="the die colour that builds it; none for the Wonder")
    category: str = Field(description="scoring category its VP count towards")
    bonus_on_complete: bool = True
    spaces: tuple[Space, ...] = Field(min_length=1)
    lanes: tuple[Lane, ...] = Field(min_length=1)
    guild: bool = False

    @model_validator(mode="after")
    def _lanes_name_spaces(self) -> Building:
        ids = [s.id for s in self.spaces]
        if len(set(ids)) != len(ids):
            raise ValueError(f"building {self.id}: space ids repeat")
        covered = set()
        for lane in self.lanes:
            unknown = set(lane.spaces) - set(ids)
            if unknown:
                raise ValueError(f"building {self.id}: lane {lane.symbol} names unknown spaces {sorted(unknown)}")
            covered |= set(lane.spaces)
        if covered != set(ids):
            raise ValueError(f"building {self.id}: spaces {sorted(set(ids) - covered)} are on no lane")
        return self

    @cached_property
    def space(self) -> dict[str, Space]:
        return {s.id: s for s in self.spaces}

    @cached_property
    def resource_spaces(self) -> frozenset[str]:
        """Spaces whose effects produce a resource (the Warehouse's, and any other a board prints)."""
        return frozenset(s.id for s in self.spaces if any(e.type == "resource" for e in s.effects))

    @cached_property
    def shield_spaces(self) -> frozenset[str]:
        return frozenset(s.id for s in self.spaces if any(e.type == "shield" for e in s.effects))

    @cached_property
    def lane(self) -> dict[str, Lane]:
        return {lane.symbol: lane for lane in self.lanes}


class Face(PackPart):
    """A die face: the lane symbols it reaches (in buildings of its die's colour), or, for the
    black die, any lane of buildings of ``colours`` or of the ``buildings`` it names; a purple
    face names the building compared."""

    face: str
    symbols: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    buildings: tuple[str, ...] = added((), "0.2", description="black die: any lane of these buildings")
    compare: str | None = None


class Die(Provenanced):
    colour: str
    faces: tuple[Face, ...] = Field(min_length=6, max_length=6)


class City(Provenanced):
    id: str
    name: str
    wonder: Building
    overrides: tuple[Building, ...] = Field(default=(), description="buildings that differ on this board")


class Options(PackPart):
    """Rulings where the texts are silent or other implementations differ (docs/7-wonders-dice.md
    says why each default). Every option added after 0.1 defaults to what the engine did before
    it existed, so games played under older packs replay as they were played; the shipped pack
    0.2.0 chooses the rule texts' values where they differ (``completion``, ``free_action_wonder``,
    ``income``)."""

    resolution: Literal["simultaneous", "seat_order", "two_phase"] = "simultaneous"
    agora_first_same_turn: Literal["all", "none"] = "all"
    resources: Literal["permanent", "spent"] = "permanent"
    coin_cap: int | None = Field(default=None, ge=0)
    barracks: Literal["two_buildings", "one_building"] = "two_buildings"
    completion: Literal["after_effects", "at_crossing"] = added(
        "after_effects", "0.2", description="when a crossing counts as completing its building: at_crossing (the "
        "rulebook: one bonus per completed building); after_effects (0.1: after the space's effects, so an extra "
        "action that completes the building from inside gave a second bonus)")
    free_action_wonder: bool = added(
        True, "0.2", description="whether 'construct a building without paying the die cost' may build a Wonder step")
    income: Literal["after_action", "after_paying", "when_chosen"] = added(
        "after_action", "0.2", description="when coins for choosing a die of a colour are gained: after paying "
        "(ruling 9), when the die is chosen (before paying), or after the whole action (0.1)")
    extra_action_pass: bool = added(False, "0.2", description="whether 'take another action' may be a pass")
    void_actions: bool = added(
        False, "0.2", description="seat_order/two_phase: an action made illegal by an earlier player's action "
        "this turn (a Guild Court condition) does nothing instead of being a violation")
    cross_mandatory: bool = added(False, "0.2", description="whether an effect that crosses a space must be taken")
    per_space_vp: Literal["add", "max"] = added(
        "add", "0.2", description="several 'VP at the end per crossed space' rates on one building: add or take the max")


class Start(Provenanced):
    coins: int = Field(ge=0)
    dice: tuple[str, ...]
    special: tuple[str, ...]
    pass_coins: int = Field(ge=0)
    forum_sections: tuple[int, ...] = Field(min_length=1)
    agora_first_bonus: int = Field(ge=0)
    bonuses_to_end: int = Field(ge=1)


class BonusSlots(Provenanced):
    slots: tuple[tuple[Effect, ...], ...] = Field(min_length=1)


class Ruleset(RulesPack):
    notes: str = ""
    start: Start
    dice: tuple[Die, ...]
    buildings: tuple[Building, ...]
    cities: tuple[City, ...] = Field(min_length=1)
    bonus_slots: BonusSlots
    options: Options = Options()
    changes: tuple[str, ...] = Field(default=(), description="corrections to the suggested reconstruction, and why")

    @model_validator(mode="after")
    def _coherent(self) -> Ruleset:
        colours = {d.colour for d in self.dice}
        for c in self.start.dice + self.start.special:
            if c not in colours:
                raise ValueError(f"start dice name colour {c!r}, which has no die")
        ids = {b.id for b in self.buildings}
        for city in self.cities:
            ids.add(city.wonder.id)
        for effect in self._all_effects():
            for b in effect.buildings + ((effect.building,) if effect.building else ()):
                if b not in ids:
                    raise ValueError(f"an effect names building {b!r}, which does not exist")
        for die in self.dice:
            for face in die.faces:
                for b in face.buildings:
                    if b not in ids and b != "wonder":
                        raise ValueError(f"{die.colour} face {face.face!r} names building {b!r}, which does not exist")
                if face.compare and face.compare not in self.compare_groups:
                    raise ValueError(f"{die.colour} face {face.face!r} compares unknown building {face.compare!r}")
                if die.colour == "purple" and not face.compare:
                    raise ValueError(f"purple face {face.face!r} must name the building the Guild Court compares")
        return self

    def _all_effects(self) -> Iterator[Effect]:
        for b in self.buildings + tuple(c.wonder for c in self.cities) + tuple(o for c in self.cities for o in c.overrides):
            for s in b.spaces:
                yield from s.effects
        for slot in self.bonus_slots.slots:
            yield from slot

    @cached_property
    def compare_groups(self) -> dict[str, tuple[str, ...]]:
        """What a purple face compares: a category (``barracks`` counts both sides) or a building."""
        groups: dict[str, list[str]] = {}
        for b in self.buildings:
            groups.setdefault(b.category, []).append(b.id)
            groups.setdefault(b.id, []).append(b.id)
        groups.setdefault("wonder", ["wonder"])
        return {k: tuple(dict.fromkeys(v)) for k, v in groups.items()}

    @cached_property
    def die(self) -> dict[str, Die]:
        return {d.colour: d for d in self.dice}

    @cached_property
    def faces(self) -> dict[str, dict[str, Face]]:
        """colour -> face name -> face."""
        return {d.colour: {f.face: f for f in d.faces} for d in self.dice}

    @cached_property
    def sides(self) -> dict[str, tuple[str, ...]]:
        """colour -> the face on each side, in the pack's order (a face printed twice is there twice):
        what a roll draws from."""
        return {d.colour: tuple(f.face for f in d.faces) for d in self.dice}

    @cached_property
    def city(self) -> dict[str, City]:
        return {c.id: c for c in self.cities}

    def buildings_of(self, city: str) -> dict[str, Building]:
        """The buildings of one board: common ones, the city's overrides, its Wonder (id ``wonder``)."""
        cached = self._boards.get(city)
        if cached is None:
            c = self.city[city]
            board = {b.id: b for b in self.buildings}
            board.update({b.id: b for b in c.overrides})
            board["wonder"] = c.wonder
            cached = self._boards[city] = board
        return cached

    @cached_property
    def _boards(self) -> dict[str, dict[str, Building]]:
        return {}

    @cached_property
    def compiled(self) -> dict[int, Any]:
        """Tables the engine compiles from this pack, by board (``engine.board_tables``): derived, never data."""
        return {}


RulesetError = PackError
"""A pack failed validation (the message names the file and the path inside it) or is missing."""


def parse_ruleset(text: str, source: str) -> Ruleset:
    return parse_pack(Ruleset, text, source)


def load_ruleset(path: Path | str) -> Ruleset:
    return load_pack(Ruleset, path)


def shipped_rulesets() -> dict[str, Ruleset]:
    """Packs shipped with the package, by file stem."""
    return shipped_packs(Ruleset, __package__ or "replay.games.wonders_dice")


def default_ruleset() -> Ruleset:
    return shipped_rulesets()["7wd-default"]


_Made = TypeVar("_Made")


def made_once(kept: dict[int, tuple[Any, _Made]], source: Any, make: Callable[[Any], _Made]) -> _Made:
    """``make(source)``, kept in ``kept`` by the source's identity: for what is derived from rules data (a pack's
    board, its dice), which a game's start or end would otherwise derive again for every game. The source is
    kept beside it (so its id is not reused while kept); a few dozen at most. Copy a mutable result before
    changing it."""
    found = kept.get(id(source))
    if found is None or found[0] is not source:
        if len(kept) > 64:
            kept.clear()
        found = kept[id(source)] = (source, make(source))
    return found[1]
