"""7 Wonders' shipped rules pack (rulesets/7w-base.json) against what is well known of the game:
148 Age cards, seven cards a player in each Age at 3 to 7 players, players + 2 guilds in Age III,
seven two-sided Wonder boards, chains that agree both ways, and ten cards checked one by one
(docs/games/7-wonders-data.md has the counts table)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import replay.games.seven_wonders as seven_wonders
from replay.errors import PackError
from replay.games.seven_wonders.pack import Card, Effect, SevenWondersPack
from replay.packs import load_pack, pack_json, parse_pack

PATH = Path(seven_wonders.__file__).parent / "rulesets" / "7w-base.json"
PACK = load_pack(SevenWondersPack, PATH)
PLAYERS = range(3, 8)
SOURCE_REPO = "github.com/joffrey-bion/seven-wonders"


def card(card_id: str, age: int | None = None) -> Card:
    found = [c for c in PACK.cards if c.id == card_id and (age is None or c.age == age)]
    assert len(found) == 1, f"{card_id} (Age {age}): {len(found)} cards"
    return found[0]


def effects(c: Card | Any) -> list[dict[str, Any]]:
    """The effects as data, leaving out the parameters at their defaults."""
    return [e.model_dump(exclude_defaults=True) for e in c.effects]


def test_the_pack_is_named_and_pinned() -> None:
    assert (PACK.id, PACK.version) == ("7w-base", "1.0.0")
    assert PACK.title and PACK.confidence == "high" and SOURCE_REPO in PACK.source
    assert PACK.content_hash.startswith("sha256:")
    again = parse_pack(SevenWondersPack, pack_json(PACK), "round trip")
    assert again == PACK and again.content_hash == PACK.content_hash


def test_148_age_cards_at_seven_players_with_the_ten_guilds() -> None:
    per_age = Counter({age: sum(c.copies[7] for c in PACK.cards if c.age == age) for age in (1, 2, 3)})
    assert per_age == Counter({1: 49, 2: 49, 3: 50})
    assert sum(per_age.values()) == 148


@pytest.mark.parametrize("players", PLAYERS)
def test_seven_cards_a_player_in_each_age(players: int) -> None:
    assert sum(PACK.deck(1, players).values()) == 7 * players
    assert sum(PACK.deck(2, players).values()) == 7 * players
    # Age III: the non-guild cards, then players + 2 guilds drawn at random make seven a player
    assert sum(PACK.deck(3, players).values()) == 7 * players - (players + 2)
    assert len(PACK.guilds()) >= players + 2


def test_every_card_has_counts_for_three_to_seven_players_that_never_shrink() -> None:
    for c in PACK.cards:
        assert set(c.copies) == set(PLAYERS), c.id
        counts = [c.copies[n] for n in PLAYERS]
        assert counts == sorted(counts) and counts[-1] >= 1, c.id  # a card joins at "n+" and stays


def test_ten_guilds_one_copy_each_in_age_three() -> None:
    guilds = [c for c in PACK.cards if c.colour == "purple"]
    assert sorted(c.id for c in guilds) == [
        "builders_guild", "craftsmens_guild", "magistrates_guild", "philosophers_guild", "scientists_guild",
        "shipowners_guild", "spies_guild", "strategists_guild", "traders_guild", "workers_guild"]
    assert all(c.age == 3 and c.copies == dict.fromkeys(PLAYERS, 1) for c in guilds)
    assert "scientists_guild" not in PACK.deck(3, 7)  # the guilds are drawn apart from the deck


def test_colours_by_age() -> None:
    by_colour: dict[str, set[int]] = {}
    for c in PACK.cards:
        by_colour.setdefault(c.colour, set()).add(c.age)
    assert by_colour["brown"] == by_colour["grey"] == {1, 2}
    assert by_colour["purple"] == {3}
    assert all(by_colour[colour] == {1, 2, 3} for colour in ("blue", "green", "red", "yellow"))


def test_one_structure_one_id_and_the_same_structure_in_two_ages_shares_it() -> None:
    ages: dict[str, set[int]] = {}
    for c in PACK.cards:
        ages.setdefault(c.id, set()).add(c.age)
    assert {i for i, a in ages.items() if len(a) > 1} == {"glassworks", "loom", "press"}
    for i in ("glassworks", "loom", "press"):
        assert card(i, 1).model_dump(exclude={"age", "copies"}) == card(i, 2).model_dump(exclude={"age", "copies"})
    assert len({c.name for c in PACK.cards}) == len(ages) == 75


def test_chains_exist_run_to_a_later_age_and_agree_both_ways() -> None:
    links = 0
    for c in PACK.cards:
        for target in c.chain_to:
            later = PACK.by_id[target]
            assert later.age > c.age, (c.id, target)
            assert c.id in later.chain_from, (c.id, target)
            links += 1
        for origin in c.chain_from:
            earlier = PACK.by_id[origin]
            assert earlier.age < c.age and c.id in earlier.chain_to, (origin, c.id)
    assert links == 26  # 12 from Age I into Age II (Forum twice), 14 from Age II into Age III
    assert card("forum").chain_from == ("east_trading_post", "west_trading_post")
    assert "aquaduct" not in PACK.by_id and card("baths").chain_to == ("aqueduct",)


def test_an_unknown_chain_target_is_refused() -> None:
    data = json.loads(PATH.read_text(encoding="utf-8"))
    baths = next(c for c in data["cards"] if c["id"] == "baths")
    baths["chain_to"] = ["aquaduct"]
    with pytest.raises(PackError, match="baths chains with unknown aquaduct"):
        parse_pack(SevenWondersPack, json.dumps(data), "broken")


def test_every_card_and_wonder_says_where_it_comes_from() -> None:
    for part in (*PACK.cards, *PACK.wonders):
        assert SOURCE_REPO in part.source and "@ " in part.source, part.id
        assert part.confidence in ("high", "medium"), part.id
    assert all("cards.json" in c.source for c in PACK.cards)
    assert all("wonders.json" in w.source for w in PACK.wonders)
    assert PACK.numbers.source and PACK.numbers.confidence == "high"


def test_the_numbers_of_the_rules() -> None:
    n = PACK.numbers
    assert (n.start_coins, n.discard_coins, n.trade_price, n.coins_per_vp) == (3, 3, 2, 3)
    assert (n.victory_points, n.defeat_points, n.science_set_vp, n.hand_size) == ((1, 3, 5), -1, 7, 7)
    assert n.passing == ("left", "right", "left")


STAGES = {"gizah": (3, 4), "babylon": (3, 3), "olympia": (3, 3), "rhodes": (3, 2), "ephesus": (3, 3),
          "alexandria": (3, 3), "halicarnassus": (3, 3)}
STARTS = {"gizah": "stone", "babylon": "clay", "olympia": "wood", "rhodes": "ore", "ephesus": "papyrus",
          "alexandria": "glass", "halicarnassus": "textile"}


def test_seven_wonders_each_with_sides_a_and_b() -> None:
    assert {w.id: (len(w.a.stages), len(w.b.stages)) for w in PACK.wonders} == STAGES
    for w in PACK.wonders:
        for side in (w.a, w.b):
            assert side.produces.model_dump(exclude_defaults=True) == {"type": "produce", "resources": (STARTS[w.id],)}
            assert side.produces.tradable
            assert all(not s.cost.free and not s.cost.coins for s in side.stages), w.id


def test_every_a_side_ends_on_seven_points() -> None:
    for w in PACK.wonders:
        assert effects(w.a.stages[-1]) == [{"type": "vp", "amount": 7}], w.id
        assert effects(w.a.stages[0]) == [{"type": "vp", "amount": 3}], w.id


def test_the_wonder_powers_are_named_effects() -> None:
    w = PACK.wonder_by_id
    assert effects(w["halicarnassus"].a.stages[1]) == [{"type": "build_from_discard"}]
    assert [e["type"] for s in w["halicarnassus"].b.stages for e in effects(s)] == [
        "vp", "build_from_discard", "vp", "build_from_discard", "build_from_discard"]
    assert effects(w["babylon"].a.stages[1]) == [{"type": "science_any"}]
    assert effects(w["babylon"].b.stages[1]) == [{"type": "play_last_card"}]
    assert effects(w["babylon"].b.stages[2]) == [{"type": "science_any"}]
    assert w["babylon"].b.stages[0].cost.resources == {"clay": 1, "textile": 1}
    assert effects(w["olympia"].a.stages[1]) == [{"type": "free_build_per_age"}]
    assert effects(w["olympia"].b.stages[0]) == [
        {"type": "trade_discount", "resources": ("wood", "stone", "clay", "ore"), "sides": ("left", "right"), "price": 1}
    ]
    assert effects(w["olympia"].b.stages[2]) == [{"type": "copy_guild"}]
    assert w["olympia"].b.stages[2].cost.resources == {"ore": 2, "textile": 1}
    assert effects(w["rhodes"].a.stages[1]) == [{"type": "shields", "amount": 2}]
    assert sorted((e.type, e.amount) for e in w["rhodes"].b.stages[1].effects) == [("coins", 4), ("shields", 1), ("vp", 4)]
    assert w["gizah"].b.stages[3].cost.resources == {"stone": 4, "papyrus": 1}
    assert effects(w["ephesus"].a.stages[1]) == [{"type": "coins", "amount": 9}]
    alexandria = w["alexandria"].b.stages
    assert effects(alexandria[0]) == [{"type": "produce", "resources": ("wood", "stone", "ore", "clay"), "choice": True,
                                       "tradable": False}]
    assert effects(alexandria[1]) == [{"type": "produce", "resources": ("glass", "papyrus", "textile"), "choice": True,
                                       "tradable": False}]


def produce(*resources: str, choice: bool = False, tradable: bool = True) -> Effect:
    return Effect(type="produce", resources=resources, choice=choice, tradable=tradable)  # type: ignore[arg-type]


def test_ten_named_cards_as_the_game_has_them() -> None:
    baths = card("baths")
    assert (baths.age, baths.colour, baths.cost.resources, baths.cost.coins) == (1, "blue", {"stone": 1}, 0)
    assert effects(baths) == [{"type": "vp", "amount": 3}] and baths.chain_to == ("aqueduct",)
    assert card("aqueduct").cost.resources == {"stone": 3} and effects(card("aqueduct")) == [{"type": "vp", "amount": 5}]

    caravansery = card("caravansery")
    assert (caravansery.age, caravansery.colour, caravansery.cost.resources) == (2, "yellow", {"wood": 2})
    assert caravansery.effects == (produce("wood", "stone", "ore", "clay", choice=True, tradable=False),)
    assert caravansery.chain_from == ("marketplace",) and caravansery.chain_to == ("lighthouse",)

    scientists = card("scientists_guild")
    assert scientists.cost.resources == {"wood": 2, "ore": 2, "papyrus": 1}
    assert effects(scientists) == [{"type": "science_any"}]

    clay_pit = card("clay_pit")
    assert clay_pit.cost.coins == 1 and not clay_pit.cost.resources
    assert clay_pit.effects == (produce("ore", "clay", choice=True),)
    assert card("sawmill").effects == (produce("wood", "wood"),) and card("sawmill").cost.coins == 1

    east = card("east_trading_post")
    assert effects(east) == [{"type": "trade_discount", "resources": ("wood", "stone", "clay", "ore"),
                              "sides": ("right",), "price": 1}]
    assert card("west_trading_post").effects[0].sides == ("left",)
    assert card("marketplace").effects[0].resources == ("glass", "papyrus", "textile")
    assert card("marketplace").effects[0].sides == ("left", "right")

    assert card("tavern").copies == {3: 0, 4: 1, 5: 2, 6: 2, 7: 3}
    assert effects(card("tavern")) == [{"type": "coins", "amount": 5}]

    palace = card("palace")
    assert palace.cost.resources == dict.fromkeys(("wood", "stone", "ore", "clay", "glass", "papyrus", "textile"), 1)
    assert effects(palace) == [{"type": "vp", "amount": 8}]
    assert card("pantheon").cost.resources == {"ore": 1, "clay": 2, "glass": 1, "papyrus": 1, "textile": 1}

    lighthouse = card("lighthouse")
    assert effects(lighthouse) == [{"type": "per", "counted": ("yellow",), "boards": ("self",), "coins": 1, "vp": 1}]
    assert effects(card("haven"))[0]["counted"] == ("brown",)
    assert effects(card("chamber_of_commerce")) == [{"type": "per", "counted": ("grey",), "boards": ("self",),
                                                     "coins": 2, "vp": 2}]
    assert effects(card("arena")) == [{"type": "per", "counted": ("wonder_stages",), "boards": ("self",),
                                       "coins": 3, "vp": 1}]
    assert effects(card("vineyard")) == [{"type": "per", "counted": ("brown",), "boards": ("self", "left", "right"),
                                          "coins": 1}]

    assert effects(card("strategists_guild")) == [{"type": "per", "counted": ("defeats",), "boards": ("left", "right"),
                                                   "vp": 1}]
    assert effects(card("craftsmens_guild"))[0]["vp"] == 2
    shipowners = effects(card("shipowners_guild"))[0]
    assert (shipowners["counted"], shipowners["boards"]) == (("brown", "grey", "purple"), ("self",))
    assert effects(card("builders_guild"))[0]["boards"] == ("self", "left", "right")

    assert [card(i).effects[0].symbol for i in ("apothecary", "scriptorium", "workshop")] == ["compass", "tablet", "gear"]
    assert [card(i).effects[0].amount for i in ("stockade", "walls", "arsenal")] == [1, 2, 3]


def test_science_symbols_are_balanced_across_the_ages() -> None:
    """The green structures' symbols by Age: 3 in Age I, 4 in Age II, 5 in Age III."""
    greens = Counter((c.age, e.symbol) for c in PACK.cards if c.colour == "green" for e in c.effects)
    assert greens == Counter({(1, "compass"): 1, (1, "tablet"): 1, (1, "gear"): 1,
                              (2, "compass"): 1, (2, "tablet"): 2, (2, "gear"): 1,
                              (3, "compass"): 2, (3, "tablet"): 1, (3, "gear"): 2})


def test_the_pack_lists_its_departures_from_the_source() -> None:
    changes = " ".join(PACK.changes)
    for word in ("Aquaduct", "Forum", "Lighthouse", "Ephesos", "tradable", "guild"):
        assert word in changes, word
