"""7 Wonders Duel's rules pack: every Age card and guild, the 12 Wonders, the 10 progress tokens,
the three Age layouts, the military track and the numbers of the rules, and the Pantheon and
Agora expansions as optional parts, each with its source and confidence
(docs/games/7-wonders-duel-data.md).

Effects come from one closed vocabulary (:class:`Effect`), so the rules engine reads data, never
a card's name. A part whose facts could not be found is listed with ``confidence: "missing"``
and its fields empty; :meth:`DuelPack.require_complete` refuses a game that would need it.

Seats: ``first`` is the player who starts Age I (drawn at random), ``second`` the other.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from typing import Literal

from pydantic import Field, model_validator

from replay.errors import PackError
from replay.packs import PackPart, Provenanced, RulesPack, added

Resource = Literal["wood", "clay", "stone", "glass", "papyrus"]
RAW: tuple[Resource, ...] = ("wood", "clay", "stone")
MANUFACTURED: tuple[Resource, ...] = ("glass", "papyrus")
RESOURCES: tuple[Resource, ...] = RAW + MANUFACTURED
Colour = Literal["brown", "grey", "yellow", "blue", "green", "red", "purple"]
COLOURS: tuple[Colour, ...] = ("brown", "grey", "yellow", "blue", "green", "red", "purple")
Symbol = Literal["armillary_sphere", "wheel", "sundial", "mortar_and_pestle", "plumb", "quill", "law"]
SYMBOLS: tuple[Symbol, ...] = ("armillary_sphere", "wheel", "sundial", "mortar_and_pestle", "plumb", "quill", "law")
Counted = Literal["brown", "grey", "yellow", "blue", "green", "red", "purple", "wonders", "coins", "progress_tokens",
                  "mythology_tokens", "offering_tokens"]
Scope = Literal["own", "most"]
Target = Literal["blue", "wonder"]
Expansion = Literal["pantheon", "agora"]
Mythology = Literal["mesopotamian", "phoenician", "greek", "egyptian", "roman"]
MYTHOLOGIES: tuple[Mythology, ...] = ("mesopotamian", "phoenician", "greek", "egyptian", "roman")
ID = r"^[a-z][a-z0-9_]{0,40}$"

EffectType = Literal[
    "produce", "fixed_price", "coins", "opponent_loses_coins", "vp", "shields", "science", "per", "replay", "destroy",
    "build_from_discard", "progress_from_box", "discount", "trade_income", "shield_bonus", "wonders_replay",
    "chain_coins", "chain_for_coins", "opponent_loses_per_space", "progress_of_two", "snake", "reserve_coins", "steal",
    "discard_from_structure", "discard_wonder_card", "wonder_from_discard", "steal_wonder", "block_pawn",
    "swap_military_token", "gate", "divinity_discount", "divinity_from_deck", "grand_temple",
    "senate_actions", "influence_or_conspire", "senators_free", "keep_both_conspiracies", "place_influence",
    "remove_influence", "move_influence", "conspire", "trigger_unprepared_conspiracy", "age_coins_per_build",
    "ignore_cost_symbol", "shield_while_controlled", "trade_rebate", "senate_blue_bonus", "discard_bonus",
    "opponent_chains", "replay_after_conspirator", "take_half_coins", "lock_progress_token", "build_from_last_row",
    "build_from_removed", "progress_any_from_box", "discard_available", "coins_per_influence", "swap_card",
    "move_decree", "return_wonder",
]


class Effect(PackPart):
    """One effect of a card, a Wonder, a progress token, a Divinity or a Senator.

    ========================  ==================================================================
    type                      meaning
    ========================  ==================================================================
    produce                   each turn, ``resources``: all of them (``choice`` false: "stone,
                              stone"), or one of them (``choice`` true: "wood or clay or
                              stone"). ``priced`` true: it raises the opponent's price for the
                              resource (brown and grey cards only; yellow and Wonder choices do not)
    fixed_price               the owner buys each of ``resources`` from the bank at ``amount`` (1)
    coins                     ``amount`` coins from the bank, once, when built
    opponent_loses_coins      the opponent gives ``amount`` coins back to the bank (as many as they have)
    vp                        ``amount`` VP at the end
    shields                   move the Conflict pawn ``amount`` spaces towards the opponent
    science                   one ``symbol``
    per                       for each ``each`` of ``counted`` in the ``scope`` city (``own``; or
                              ``most``: whichever city has the most of them, the owner's or the
                              opponent's): ``coins`` once when built (counted then) and ``vp``
                              at the end (counted then). ``counted`` with several entries adds them
    replay                    the owner plays another turn at once
    destroy                   the owner puts one card of ``colours`` of the opponent's city in the discard pile
    build_from_discard        the owner builds one card of the discard pile for free, at once
    progress_from_box         draw ``amount`` of the progress tokens set aside at the start, keep
                              one, return the others
    discount                  each later ``target`` (blue cards, Wonders) costs ``amount``
                              resources fewer, chosen by the owner
    trade_income              the coins the opponent pays the bank for resources go to the owner
    shield_bonus              each red card built later gives ``amount`` shield more
    wonders_replay            every Wonder the owner builds later also has ``replay``
    chain_coins               ``amount`` coins each time the owner builds a card for free by its chain
    chain_for_coins           any card that has a ``chain_from`` costs the owner ``amount`` coins, chain or not
    opponent_loses_per_space  the opponent loses ``amount`` coin for each space the owner's shields move the pawn
    progress_of_two           (Enki) when revealed, ``amount`` progress tokens set aside at the start
                              are drawn onto it; the owner keeps one, the other goes back
    snake                     (Nisaba) the owner puts the Snake on an opponent's green card and has its symbol too
    reserve_coins             (Astarte) ``amount`` coins on the card: spendable, safe from losses,
                              ``vp`` each left at the end
    steal                     (Baal) the owner takes a card of ``colours`` from the opponent's city into theirs
    discard_from_structure    (Zeus) one card of the structure (face up or down), with its tokens, to the discard pile
    discard_wonder_card       (Anubis) the card under a built Wonder (either player's) is discarded; its
                              effects stay; the Wonder may be built again
    wonder_from_discard       (Isis) the owner builds one of their Wonders for free with a card of the discard pile
    steal_wonder              (Ra) the owner takes one of the opponent's Wonders not yet built
    block_pawn                (Minerva) the pawn placed on a space of the track; the Conflict pawn
                              stops before entering it, once, then it goes
    swap_military_token       (Neptune) discard a military token unapplied, then apply another (and discard it)
    gate                      (the Gate) reveal the top Divinity of each deck, activate one for free;
                              the Gate costs ``amount`` times its space's cost
    senate_actions            (Politician) as many senate actions (place or move one influence) as
                              ``steps`` give for the owner's blue cards: ``(least blue cards, actions)``
    divinity_discount         (The Sanctuary) activating a Divinity costs the owner ``amount`` coins fewer
    divinity_from_deck        (The Divine Theater) look through one Mythology deck, activate one of its
                              Divinities for free, put the others back in any order
    grand_temple              (a Grand Temple) counts towards the Grand Temples' VP (5 / 12 / 21 for 1 / 2 / 3)
    influence_or_conspire     (Conspirator) place one influence, or conspire (draw 2 conspiracies, keep 1)
    senators_free             (Corruption) the owner recruits Senators for free
    keep_both_conspiracies    (Organized Crime) when conspiring, keep both
    place_influence           place ``amount`` influence cubes, each in any chamber
    remove_influence          remove ``amount`` of the opponent's cubes, each from any chamber
    move_influence            the owner may move one of their cubes to an adjacent chamber
    conspire                  draw 2 conspiracies, keep 1 face down, the other on top or bottom of the deck
    trigger_unprepared_conspiracy  the owner may trigger one of their conspiracies though it is not prepared
    age_coins_per_build       (Decree) each time either player builds a card of ``colours`` (or a Wonder:
                              ``target`` wonder), the controller takes as many coins as the current Age
    ignore_cost_symbol        (Decree) building a card of ``colours``, ignore ``amount`` symbol of its cost
                              (a resource; or the whole coin cost, one symbol, under
                              ``options.decree_coin_symbol: coins``)
    shield_while_controlled   (Decree) ``amount`` shield when control is gained; the pawn moves back one
                              space when it is lost, two when the opponent takes control
    trade_rebate              (Decree) each of ``resources`` bought from the bank costs ``amount`` coin
                              less, never below 1
    senate_blue_bonus         (Decree) count ``amount`` blue cards more for the Politicians' actions
    discard_bonus             (Decree) ``amount`` coins more for discarding a card
    opponent_chains           (Decree) the chain symbols of the opponent's cards count as the owner's
    replay_after_conspirator  (Decree) recruiting a Conspirator gives a turn more
    take_half_coins           take half the opponent's coins, rounded up
    lock_progress_token       one progress token (on the board, the opponent's or out of the game) is
                              put face down on the conspiracy: nobody uses it for the rest of the game
    build_from_last_row       build for free a card of the structure's last row, row 1, the farthest
                              from the players (not a Senator)
    build_from_removed        build for free one of the cards removed at setup (3 a started Age so far)
    progress_any_from_box     look at all the progress tokens set aside at the start, take one
    discard_available         put up to ``amount`` available cards of the structure in the discard pile, one at a time
    coins_per_influence       the owner takes a coin per own cube in the Senate; the opponent loses one per theirs
    swap_card                 take a card of ``colours`` from the opponent, give them one of own of the same colour
    move_decree               move one Decree under the Decree of another chamber
    return_wonder             one of the opponent's built Wonders goes back to the box, its lasting
                              effects (VP, production) lost
    ========================  ==================================================================

    ``when``: ``built`` (the default: when the card is built, the Wonder constructed, the token taken, the
    Divinity activated, the conspiracy triggered, the Decree controlled) or ``selected`` (Agora's Wonders:
    when the Wonder is taken in the draft).
    """

    type: EffectType
    resources: tuple[Resource, ...] = ()
    choice: bool = False
    priced: bool = False
    amount: int = Field(default=0, ge=0, le=100)
    symbol: Symbol | None = None
    colours: tuple[Colour, ...] = ()
    counted: tuple[Counted, ...] = ()
    scope: Scope = "own"
    each: int = Field(default=1, ge=1, le=10)
    coins: int = Field(default=0, ge=0, le=100)
    vp: int = Field(default=0, ge=0, le=100)
    target: Target | None = None
    steps: tuple[tuple[int, int], ...] = ()
    when: Literal["built", "selected"] = "built"

    @model_validator(mode="after")
    def _parameters(self) -> Effect:
        need = {
            "produce": bool(self.resources) and (not self.choice or len(self.resources) > 1)
            and not (self.choice and self.priced),
            "fixed_price": bool(self.resources) and self.amount > 0,
            "coins": self.amount > 0, "opponent_loses_coins": self.amount > 0, "vp": self.amount > 0,
            "shields": self.amount > 0, "science": self.symbol is not None,
            "per": bool(self.counted) and (self.coins > 0 or self.vp > 0),
            "destroy": bool(self.colours), "steal": bool(self.colours),
            "progress_from_box": self.amount > 0, "progress_of_two": self.amount > 0,
            "discount": self.target is not None and self.amount > 0,
            "shield_bonus": self.amount > 0, "chain_coins": self.amount > 0, "chain_for_coins": self.amount > 0,
            "opponent_loses_per_space": self.amount > 0, "reserve_coins": self.amount > 0, "gate": self.amount > 0,
            "divinity_discount": self.amount > 0, "place_influence": self.amount > 0,
            "remove_influence": self.amount > 0, "ignore_cost_symbol": bool(self.colours) and self.amount > 0,
            "age_coins_per_build": bool(self.colours) != (self.target == "wonder"),
            "shield_while_controlled": self.amount > 0, "trade_rebate": bool(self.resources) and self.amount > 0,
            "senate_blue_bonus": self.amount > 0, "discard_bonus": self.amount > 0, "discard_available": self.amount > 0,
            "swap_card": bool(self.colours),
            "senate_actions": bool(self.steps) and self.steps[0][0] == 0
            and all(a[0] < b[0] and a[1] < b[1] for a, b in zip(self.steps, self.steps[1:])),
        }
        if not need.get(self.type, True):
            raise ValueError(f"effect {self.type!r} is missing its parameters (or they do not agree)")
        return self


class Cost(PackPart):
    coins: int = Field(default=0, ge=0, le=20)
    resources: dict[Resource, int] = Field(default_factory=dict)

    @property
    def free(self) -> bool:
        return not self.coins and not any(self.resources.values())


def _check_missing(part: Provenanced, name: str, empty: bool, label: str) -> None:
    """A part is ``missing`` exactly when its facts are empty."""
    if part.confidence == "missing" and not empty:
        raise ValueError(f"{label} is marked missing but has facts: leave them empty or say where they come from")
    if part.confidence != "missing" and (empty or not name):
        raise ValueError(f"{label} has no facts (or no name): mark it confidence 'missing'")


class Card(Provenanced):
    """One Age card, guild, or Grand Temple (Pantheon).

    ``chain_gives``: the chain symbol printed on it; ``chain_from``: the symbol that lets its owner
    build it for free. A card of ``confidence: "missing"`` has only its id (and ``age``/``kind``).
    """

    id: str = Field(pattern=ID)
    name: str = ""
    age: int = Field(ge=1, le=3)
    kind: Literal["building", "grand_temple"] = "building"
    colour: Colour | None = None
    cost: Cost | None = None
    chain_gives: str | None = Field(default=None, pattern=ID)
    chain_from: str | None = Field(default=None, pattern=ID, description="a Grand Temple: its mythology's token, "
                                   "``<mythology>_token``")
    mythology: Mythology | None = None
    effects: tuple[Effect, ...] = ()

    @model_validator(mode="after")
    def _complete(self) -> Card:
        empty = self.cost is None and not self.effects and self.colour is None and not self.chain_gives \
            and not self.chain_from and self.mythology is None
        _check_missing(self, self.name, empty, f"card {self.id}")
        if self.confidence == "missing":
            return self
        if self.cost is None or not self.effects or (self.kind == "building" and self.colour is None):
            raise ValueError(f"card {self.id} needs a cost, a colour and effects")
        if self.kind == "grand_temple" and (self.mythology is None or self.chain_from != f"{self.mythology}_token"):
            raise ValueError(f"Grand Temple {self.id} needs its mythology and chains from that mythology's token")
        for e in self.effects:
            if e.type == "produce" and e.priced != (self.colour in ("brown", "grey")):
                raise ValueError(f"card {self.id}: only brown and grey production raises the opponent's price")
        return self


class Wonder(Provenanced):
    id: str = Field(pattern=ID)
    name: str = ""
    cost: Cost | None = None
    effects: tuple[Effect, ...] = ()

    @model_validator(mode="after")
    def _complete(self) -> Wonder:
        _check_missing(self, self.name, self.cost is None and not self.effects, f"Wonder {self.id}")
        if self.confidence != "missing" and self.cost is None:
            raise ValueError(f"Wonder {self.id} needs a cost")
        if any(e.priced for e in self.effects):
            raise ValueError(f"Wonder {self.id}: a Wonder's production never raises the opponent's price")
        return self


class ProgressToken(Provenanced):
    id: str = Field(pattern=ID)
    name: str
    effects: tuple[Effect, ...] = Field(min_length=1)


class Slot(PackPart):
    """One position of an Age's structure. Rows count from the top (the farthest from the players);
    ``col`` is in half-card widths, so a card is covered by the cards of the next row at ``col`` ± 1."""

    id: str = Field(pattern=r"^r[1-9]c[0-9]{1,2}$")
    row: int = Field(ge=1, le=9)
    col: int = Field(ge=0, le=20)
    face_up: bool
    covered_by: tuple[str, ...] = ()


class AgeLayout(Provenanced):
    age: int = Field(ge=1, le=3)
    slots: tuple[Slot, ...] = Field(min_length=1)

    @cached_property
    def rows(self) -> list[int]:
        """Cards in each row, top to bottom."""
        count = Counter(s.row for s in self.slots)
        return [count[r] for r in sorted(count)]

    def available(self, taken: frozenset[str] = frozenset()) -> list[str]:
        """The slots not taken whose covering slots are all taken."""
        return [s.id for s in self.slots if s.id not in taken and all(c in taken for c in s.covered_by)]

    @model_validator(mode="after")
    def _geometry(self) -> AgeLayout:
        ids = [s.id for s in self.slots]
        if len(set(ids)) != len(ids):
            raise ValueError(f"Age {self.age}: a slot id twice")
        for s in self.slots:
            if s.id != f"r{s.row}c{s.col}":
                raise ValueError(f"Age {self.age}: slot {s.id} is not at r{s.row}c{s.col}")
            expected = tuple(o.id for o in self.slots if o.row == s.row + 1 and abs(o.col - s.col) == 1)
            if tuple(sorted(s.covered_by)) != tuple(sorted(expected)):
                raise ValueError(f"Age {self.age}: slot {s.id} is covered by {sorted(expected)}, not {list(s.covered_by)}")
        return self


class MilitaryZone(PackPart):
    """Spaces ``first``..``last`` away from the centre, on either side: ``vp`` at the end to the player
    the pawn is nearer to the opponent of."""

    first: int = Field(ge=1, le=20)
    last: int = Field(ge=1, le=20)
    vp: int = Field(ge=0, le=100)


class LootingToken(PackPart):
    """A military token: when the pawn first reaches ``space`` (or beyond) on the opponent's side,
    the opponent loses ``coins`` (as many as they have) and the token is discarded. One of each on each side."""

    id: str = Field(pattern=ID)
    space: int = Field(ge=1, le=20)
    coins: int = Field(ge=0, le=100)


class MilitaryTrack(Provenanced):
    """The Conflict pawn starts at 0; ``capital`` spaces away on a side is military supremacy."""

    capital: int = Field(default=9, ge=1, le=20)
    zones: tuple[MilitaryZone, ...]
    tokens: tuple[LootingToken, ...]

    @model_validator(mode="after")
    def _track(self) -> MilitaryTrack:
        spaces = [n for z in self.zones for n in range(z.first, z.last + 1)]
        if spaces != list(range(1, self.capital)):
            raise ValueError("the zones must cover the spaces 1 to capital - 1 in order, once each")
        if any(t.space >= self.capital for t in self.tokens):
            raise ValueError("a military token lies beyond the capital")
        return self

    def vp(self, distance: int) -> int:
        """VP for a pawn ``distance`` spaces into the opponent's side (0 at the centre)."""
        return next((z.vp for z in self.zones if z.first <= distance <= z.last), 0)


Seat = Literal["first", "second"]


class Numbers(Provenanced):
    """The numbers of the rules."""

    start_coins: int = Field(default=7, ge=0, le=100)
    discard_coins: int = Field(default=2, ge=0, le=100, description="coins for discarding a card ...")
    discard_coins_per_yellow: int = Field(default=1, ge=0, le=100, description="... plus this many per own yellow card")
    trade_base: int = Field(default=2, ge=0, le=100, description="a missing resource costs this + the opponent's "
                            "brown and grey production of it (see Effect.priced)")
    coins_per_vp: int = Field(default=3, ge=1, le=100)
    cards_per_age: int = Field(default=20, ge=1, le=40, description="cards laid out in each Age's structure")
    removed_per_age: int = Field(default=3, ge=0, le=10, description="cards of each Age's deck put back in the box unseen")
    guilds_per_game: int = Field(default=3, ge=0, le=7, description="guilds drawn at random into Age III's deck")
    wonders_per_player: int = Field(default=4, ge=1, le=6)
    wonders_built_max: int = Field(default=7, ge=1, le=12, description="when this many are built, the last "
                                   "unbuilt Wonder goes back to the box")
    draft: tuple[tuple[Seat, ...], ...] = Field(
        default=(("first", "second", "second", "first"), ("second", "first", "first", "second")),
        description="the Wonder draft: two sets of four dealt face up; who takes each pick, in order")
    progress_on_board: int = Field(default=5, ge=0, le=10, description="progress tokens drawn face up at the start; "
                                   "the others are set aside unseen")
    science_supremacy: int = Field(default=6, ge=1, le=7, description="different symbols that win at once")
    science_pair: int = Field(default=2, ge=2, le=3, description="the same symbol this many times: take a progress token")
    tie_break: tuple[str, ...] = Field(default=("blue_vp",), description="after the most VP: the most VP from blue "
                                       "(civilian) cards; still tied: a shared victory")
    next_age_chooser: Literal["weaker"] = Field(default="weaker", description="the player the pawn is nearer to "
                                                "chooses who starts the next Age; at 0, the player who took the last card")


class Options(PackPart):
    """Which expansions a game uses (none: the base game)."""

    expansions: tuple[Expansion, ...] = ()
    # --- Pantheon: a ruling players may choose
    mythology_tokens: Literal["random", "one_of_each"] = added(
        "random", "pantheon", description="Pantheon: Age I's Mythology tokens are drawn at random from the box's "
        "(the rulebook; a mythology may come twice), or one of each mythology (the BGA game help)")
    astarte_coins: Literal["treasury_first", "astarte_first"] = added(
        "treasury_first", "pantheon-astarte", description="Pantheon: a payment takes the player's treasury first, then "
        "the coins on Astarte (`treasury_first`), or Astarte's coins first (`astarte_first`); the record does not say "
        "which coins a player paid with")
    # --- Pantheon and Agora together: a ruling players may choose
    neptune_agora_token: Literal["neptune", "shields"] = added(
        "neptune", "pantheon-agora", description="Pantheon with Agora: the Senate actions of the Agora military token "
        "Neptune applies are taken by Neptune's owner (`neptune`), or by the player whose shields would have reached "
        "it: the opponent of the side it lay on (`shields`)")
    # --- Agora: a ruling players may choose
    coercion_science: Literal["gained", "moved"] = added(
        "gained", "agora-coercion", description="Agora: a green card Coercion swaps counts as gained by its new "
        "owner (`gained`: a new pair's progress token, scientific supremacy, as when built; the player first, then "
        "the opponent), or only moves (`moved`: nothing at the swap; its symbol counts from then on, for supremacy when "
        "a symbol is next gained, for a pair's token when a third card of it comes)")
    decree_coin_symbol: Literal["resources", "coins"] = added(
        "resources", "agora-decree-coins", description="Agora: the symbol a Decree of one cost symbol less (yellow, "
        "red, green cards) ignores is a resource of the cost (`resources`: the coins are always paid), or a resource "
        "or the card's coins, shown as one symbol, so the whole coin cost is waived (`coins`: Board Game Arena's "
        "text, 'choose either a resource or Coins'); the payment's `discount` then records `coins`")


class Combination(Provenanced):
    """Whether the rules allow both expansions in one game."""

    pantheon_with_agora: bool = False


# --- Pantheon -------------------------------------------------------------------------------

class Divinity(Provenanced):
    id: str = Field(pattern=ID)
    name: str
    mythology: Mythology | Literal["gate"]
    effects: tuple[Effect, ...] = Field(min_length=1)


class PantheonComponents(Provenanced):
    """What is in the box (counts)."""

    divinities: int = 15
    grand_temples: int = 5
    wonders: int = 2
    mythology_tokens: int = 10
    offering_tokens: int = 3
    progress_tokens: int = 3
    mythology_tokens_in_age_1: int = Field(default=5, description="one of each mythology, on Age I cards")
    divinities_drawn: int = Field(default=2, description="a Mythology token draws this many of its mythology; one goes "
                                  "face down into the Pantheon, the other back on top of its deck")
    grand_temple_vp: tuple[int, ...] = Field(default=(5, 12, 21), description="VP for 1, 2, 3 Grand Temples")
    from_age: int = Field(default=2, description="Divinities are revealed, and may be activated, from this Age on")


class PantheonSetup(Provenanced):
    """How the Pantheon is set up: what each Offering token takes off an activation (coins), the
    Mythology tokens drawn at random for Age I, and how many of the Grand Temples are shuffled into
    Age III's deck in place of the 3 guilds."""

    offering_discounts: tuple[int, ...] = ()
    mythology_tokens_drawn: int = Field(default=5, ge=0, le=10)
    grand_temples_in_age_3: int = Field(default=3, ge=0, le=5)


class PantheonBoard(Provenanced):
    """The Pantheon board's activation costs: ``(first seat's cost, second seat's cost)`` for each of
    its 6 spaces, left to right as the first seat sees them (``missing`` while empty)."""

    space_costs: tuple[tuple[int, int], ...] = ()

    @model_validator(mode="after")
    def _complete(self) -> PantheonBoard:
        _check_missing(self, "pantheon board", not self.space_costs, "the Pantheon board")
        if self.space_costs and len(self.space_costs) != 6:
            raise ValueError("the Pantheon board has 6 spaces")
        return self


class TokenSlots(Provenanced):
    """Which face-down slots of Age I get the Mythology tokens and of Age II the Offering tokens, in
    the base structures and (``agora_``) in Agora's (``missing`` while empty). Whoever takes the card
    that uncovers a slot's card takes its token."""

    mythology_slots: tuple[str, ...] = ()
    offering_slots: tuple[str, ...] = ()
    agora_mythology_slots: tuple[str, ...] = ()
    agora_offering_slots: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _complete(self) -> TokenSlots:
        empty = not (self.mythology_slots or self.offering_slots or self.agora_mythology_slots
                     or self.agora_offering_slots)
        _check_missing(self, "token slots", empty, "the token slots")
        return self


class Pantheon(Provenanced):
    components: PantheonComponents
    divinities: tuple[Divinity, ...]
    gate: Divinity
    grand_temples: tuple[Card, ...]
    wonders: tuple[Wonder, ...]
    progress_tokens: tuple[ProgressToken, ...]
    setup: PantheonSetup
    board: PantheonBoard
    token_slots: TokenSlots

    @model_validator(mode="after")
    def _counts(self) -> Pantheon:
        c = self.components
        got = (len(self.divinities), len(self.grand_temples), len(self.wonders), len(self.progress_tokens))
        if got != (c.divinities, c.grand_temples, c.wonders, c.progress_tokens):
            raise ValueError(f"Pantheon: {got} divinities, temples, Wonders, tokens; the box has "
                             f"{(c.divinities, c.grand_temples, c.wonders, c.progress_tokens)}")
        if self.gate.mythology != "gate" or any(d.mythology == "gate" for d in self.divinities):
            raise ValueError("Pantheon: the Gate is apart from the Divinities")
        if len(self.setup.offering_discounts) != c.offering_tokens:
            raise ValueError("Pantheon: one discount for each Offering token")
        if any(t.kind != "grand_temple" or t.age != 3 for t in self.grand_temples):
            raise ValueError("Pantheon: Grand Temples are Age III cards of kind grand_temple")
        return self


# --- Agora ----------------------------------------------------------------------------------

class Senator(Provenanced):
    """A kind of Senator card (``copies`` of it). Cost: as many coins as Senators the player already has.
    A Politician places influence only in its ``section``'s two chambers (moves go anywhere adjacent)."""

    id: str = Field(pattern=ID)
    name: str
    kind: Literal["politician", "conspirator"]
    section: Literal["left", "middle", "right"] | None = None
    copies: int = Field(ge=1, le=20)
    effects: tuple[Effect, ...] = Field(min_length=1)


class Chamber(Provenanced):
    id: str = Field(pattern=ID)
    number: int = Field(ge=1, le=6, description="left to right; a cube moves between chambers whose numbers differ by 1")
    section: Literal["left", "middle", "right"]
    vp: int = Field(ge=0, le=10, description="VP to the player controlling it at the end")


class Named(Provenanced):
    """A Decree, a Conspiracy or an Agora military token: its effects from the vocabulary, or missing."""

    id: str = Field(pattern=ID)
    name: str = ""
    effects: tuple[Effect, ...] = ()

    @model_validator(mode="after")
    def _complete(self) -> Named:
        _check_missing(self, self.name, not self.effects, self.id)
        return self


class AgoraComponents(Provenanced):
    senators: int = 13
    conspiracies: int = 16
    decrees: int = 16
    wonders: int = 2
    progress_tokens: int = 2
    military_tokens: int = 4
    influence_cubes_per_player: int = 12
    chambers: int = 6
    political_supremacy: int = Field(default=6, description="controlling this many chambers at once wins the game at once")
    chamber_vp_range: tuple[int, int] = Field(default=(1, 3), description="the least and most VP a chamber gives")
    conspiracy_draw: int = Field(default=2, description="conspiring draws this many; one is kept, the other goes on "
                                 "top or bottom of the deck")


class AgoraSetup(Provenanced):
    """How Agora is set up: Senators shuffled into each Age's deck after the 3 cards are removed, and
    the larger structures that hold them (``layouts``: 25, 25 and 23 slots, used instead of the base
    game's); Decrees dealt face down one a chamber, of which the chambers in ``decrees_face_up`` are
    turned up (the others when someone first controls the chamber)."""

    senators_per_age: tuple[int, int, int] = (5, 5, 3)
    layouts: tuple[AgeLayout, ...] = Field(min_length=3, max_length=3)
    decrees_dealt: int = Field(default=6, ge=0, le=16)
    decrees_face_up: tuple[str, ...] = ()


class AgoraMilitaryToken(Provenanced):
    """With Agora the military tokens give Senate actions instead of coin losses: the player whose shields
    reach ``space`` applies ``effects``."""

    id: str = Field(pattern=ID)
    space: int = Field(ge=1, le=20)
    effects: tuple[Effect, ...] = Field(min_length=1)


class Agora(Provenanced):
    components: AgoraComponents
    senators: tuple[Senator, ...]
    chambers: tuple[Chamber, ...]
    decrees: tuple[Named, ...]
    conspiracies: tuple[Named, ...]
    military_tokens: tuple[AgoraMilitaryToken, ...]
    wonders: tuple[Wonder, ...]
    progress_tokens: tuple[ProgressToken, ...]
    setup: AgoraSetup

    @model_validator(mode="after")
    def _counts(self) -> Agora:
        c = self.components
        got = (sum(s.copies for s in self.senators), len(self.conspiracies), len(self.decrees), len(self.wonders),
               len(self.progress_tokens), len(self.military_tokens), len(self.chambers))
        want = (c.senators, c.conspiracies, c.decrees, c.wonders, c.progress_tokens, c.military_tokens, c.chambers)
        if got != want:
            raise ValueError(f"Agora: {got} senators, conspiracies, decrees, Wonders, tokens, military tokens, "
                             f"chambers; the box has {want}")
        if sum(self.setup.senators_per_age) != c.senators:
            raise ValueError("Agora: the Senators shuffled into the Ages are not all the Senators")
        if sorted(ch.number for ch in self.chambers) != list(range(1, c.chambers + 1)):
            raise ValueError("Agora: chambers are numbered 1 to 6")
        low, high = c.chamber_vp_range
        if any(not low <= ch.vp <= high for ch in self.chambers):
            raise ValueError("Agora: a chamber's VP is out of the range the rules give")
        if not set(self.setup.decrees_face_up) <= {ch.id for ch in self.chambers}:
            raise ValueError("Agora: decrees_face_up names an unknown chamber")
        if any(s.kind == "politician" and s.section is None for s in self.senators):
            raise ValueError("Agora: a Politician acts in a section")
        return self


# --- the pack -------------------------------------------------------------------------------

HOW_TO_SUPPLY = ("supply its facts in a copy of the pack (the fields of the model in "
                 "replay/games/seven_wonders_duel/pack.py, with source and a confidence other than 'missing'), "
                 "give it a new version, and pass it with --ruleset FILE (docs/games/7-wonders-duel-data.md)")


class DuelPack(RulesPack, Provenanced):
    numbers: Numbers = Field(default_factory=Numbers)
    cards: tuple[Card, ...] = Field(min_length=1, description="Ages I to III and the guilds (colour purple, Age 3)")
    wonders: tuple[Wonder, ...] = Field(min_length=1)
    progress_tokens: tuple[ProgressToken, ...] = Field(min_length=1)
    layouts: tuple[AgeLayout, ...] = Field(min_length=3, max_length=3)
    military: MilitaryTrack
    options: Options = Field(default_factory=Options)
    combination: Combination = Field(default_factory=Combination)
    pantheon: Pantheon | None = None
    agora: Agora | None = None
    changes: tuple[str, ...] = Field(default=(), description="where the pack departs from its data source, and why")

    @cached_property
    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.all_cards}

    @cached_property
    def all_cards(self) -> tuple[Card, ...]:
        """The base cards and, with Pantheon, the Grand Temples."""
        return self.cards + (self.pantheon.grand_temples if self.pantheon else ())

    @cached_property
    def wonder_by_id(self) -> dict[str, Wonder]:
        return {w.id: w for w in self.all_wonders}

    @cached_property
    def all_wonders(self) -> tuple[Wonder, ...]:
        return (self.wonders + (self.pantheon.wonders if self.pantheon else ())
                + (self.agora.wonders if self.agora else ()))

    @cached_property
    def all_progress_tokens(self) -> tuple[ProgressToken, ...]:
        return (self.progress_tokens + (self.pantheon.progress_tokens if self.pantheon else ())
                + (self.agora.progress_tokens if self.agora else ()))

    def deck(self, age: int) -> list[str]:
        """Age ``age``'s deck before the 3 cards are removed (the guilds apart: see :meth:`guilds`)."""
        return [c.id for c in self.cards if c.age == age and c.colour != "purple"]

    def guilds(self) -> list[str]:
        return [c.id for c in self.cards if c.colour == "purple"]

    def layout(self, age: int) -> AgeLayout:
        """Age ``age``'s structure: Agora's when the pack plays Agora, else the base game's."""
        layouts = self.agora.setup.layouts if self.agora else self.layouts
        return next(lay for lay in layouts if lay.age == age)

    def chains(self) -> dict[str, tuple[str, list[str]]]:
        """Each chain symbol: the card that gives it and the cards it makes free."""
        out: dict[str, tuple[str, list[str]]] = {}
        for c in self.all_cards:
            if c.chain_gives:
                out[c.chain_gives] = (c.id, [d.id for d in self.all_cards if d.chain_from == c.chain_gives])
        return out

    def missing(self) -> list[str]:
        """The parts this pack's expansions need whose facts are missing (paths, as ``provenance()`` names them)."""
        return [path for path, _source, confidence in self.provenance() if confidence == "missing"]

    def require_complete(self) -> None:
        """Refuse a game under this pack while any part it uses is missing, naming each and how to supply it."""
        gaps = self.missing()
        if gaps:
            raise PackError(f"rules pack {self.id} {self.version} lacks the facts of {len(gaps)} parts: "
                            + ", ".join(gaps) + "; " + HOW_TO_SUPPLY)

    @model_validator(mode="after")
    def _consistent(self) -> DuelPack:
        problems: list[str] = []
        for kind, ids in (("card", [c.id for c in self.all_cards]), ("Wonder", [w.id for w in self.all_wonders]),
                          ("progress token", [t.id for t in self.all_progress_tokens])):
            for twice in sorted(i for i, n in Counter(ids).items() if n > 1):
                problems.append(f"{kind} {twice} twice")
        givers = Counter(c.chain_gives for c in self.all_cards if c.chain_gives)
        for symbol in sorted(s for s, n in givers.items() if n > 1):
            problems.append(f"chain symbol {symbol} given by {givers[symbol]} cards")
        age_of = {c.chain_gives: c.age for c in self.all_cards if c.chain_gives}
        for c in self.all_cards:
            if c.chain_from and c.kind == "building":
                if c.chain_from not in age_of:
                    problems.append(f"card {c.id} chains from {c.chain_from}, which no card gives")
                elif age_of[c.chain_from] >= c.age:
                    problems.append(f"card {c.id} chains from {c.chain_from} of a card of the same or a later Age")
        if sorted(lay.age for lay in self.layouts) != [1, 2, 3]:
            problems.append("one layout for each of Ages I, II and III")
        for lay in self.layouts:
            if len(lay.slots) != self.numbers.cards_per_age:
                problems.append(f"Age {lay.age}'s layout has {len(lay.slots)} slots, not {self.numbers.cards_per_age}")
        if self.agora:
            for lay in self.agora.setup.layouts:
                deck = len(self.deck(lay.age)) - self.numbers.removed_per_age + self.agora.setup.senators_per_age[lay.age - 1] \
                    + (self.numbers.guilds_per_game if lay.age == 3 else 0)
                if len(lay.slots) != deck:
                    problems.append(f"Agora's Age {lay.age} layout has {len(lay.slots)} slots for a deck of {deck}")
        if self.pantheon and self.pantheon.token_slots.confidence != "missing":
            ts = self.pantheon.token_slots
            bases = {lay.age: lay for lay in self.layouts}
            agoras = {lay.age: lay for lay in self.agora.setup.layouts} if self.agora else {}
            for label, slots, layouts, age, count in (
                    ("mythology", ts.mythology_slots, bases, 1, self.pantheon.setup.mythology_tokens_drawn),
                    ("offering", ts.offering_slots, bases, 2, self.pantheon.components.offering_tokens),
                    ("agora mythology", ts.agora_mythology_slots, agoras, 1, self.pantheon.setup.mythology_tokens_drawn),
                    ("agora offering", ts.agora_offering_slots, agoras, 2, self.pantheon.components.offering_tokens)):
                if not layouts:
                    continue
                down = {sl.id for sl in layouts[age].slots if not sl.face_up}
                if len(set(slots)) != count or not set(slots) <= down:
                    problems.append(f"the {label} token slots must be {count} face-down slots of Age {age}")
        for name, part in (("pantheon", self.pantheon), ("agora", self.agora)):
            if (name in self.options.expansions) != (part is not None):
                problems.append(f"options.expansions and the {name} part disagree")
        if set(self.options.expansions) == {"pantheon", "agora"} and not self.combination.pantheon_with_agora:
            problems.append("the pack says the two expansions may not be played together")
        if problems:
            raise ValueError("; ".join(problems))
        return self
