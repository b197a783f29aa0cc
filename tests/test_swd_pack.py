"""7 Wonders Duel's shipped rules packs (rulesets/7wd-duel-*.json) against what is well known of the
game: 23 cards in each Age's deck (Age III: 20 and 3 of the 7 guilds), 12 Wonders, 10 progress
tokens, three structures of 20 cards with rows alternately face up and face down, 17 chains each
given and taken once, 7 science symbols, and cards checked one by one; the expansions' parts, and
exactly which of them are missing (docs/games/7-wonders-duel-data.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

import replay.games.seven_wonders_duel as duel
from replay.errors import PackError
from replay.games.seven_wonders_duel.pack import MYTHOLOGIES, SYMBOLS, Card, DuelPack, Effect, Wonder
from replay.packs import load_pack, pack_json, parse_pack

FOLDER = Path(duel.__file__).parent / "rulesets"
NAMES = ("7wd-duel-base", "7wd-duel-pantheon", "7wd-duel-agora", "7wd-duel-pantheon-agora")
PACKS = {name: load_pack(DuelPack, FOLDER / f"{name}.json") for name in NAMES}
BASE = PACKS["7wd-duel-base"]
SOURCE_REPO = "github.com/dfomin/7wd-engine"


def card(card_id: str) -> Card:
    found = [c for c in BASE.cards if c.id == card_id]
    assert len(found) == 1, card_id
    return found[0]


def effects(part: Card | Wonder | Any) -> list[dict[str, Any]]:
    return [e.model_dump(exclude_defaults=True) for e in part.effects]


def raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FOLDER / "7wd-duel-base.json").read_text())
    return data


def test_the_shipped_folder_holds_the_four_packs() -> None:
    assert sorted(p.stem for p in FOLDER.glob("*.json")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_pack_is_named_and_round_trips(name: str) -> None:
    pack = PACKS[name]
    assert (pack.id, pack.version) == (name, "1.0.0") and pack.title
    assert pack.content_hash.startswith("sha256:")
    again = parse_pack(DuelPack, pack_json(pack), "round trip")
    assert again == pack and again.content_hash == pack.content_hash
    assert (FOLDER / f"{name}.json").read_text() == pack_json(pack), "the file is not in canonical form"


def test_23_cards_in_each_age_deck_before_three_are_removed() -> None:
    assert len(BASE.deck(1)) == 23 and len(BASE.deck(2)) == 23
    assert len(BASE.deck(3)) == 20 and len(BASE.guilds()) == 7
    assert len(BASE.deck(3)) + BASE.numbers.guilds_per_game == 23
    for age in (1, 2, 3):
        assert len(BASE.deck(age)) + (3 if age == 3 else 0) - BASE.numbers.removed_per_age == BASE.numbers.cards_per_age
    assert len({c.id for c in BASE.cards}) == 73


def test_colours_by_age() -> None:
    by_age = {age: Counter(c.colour for c in BASE.cards if c.age == age) for age in (1, 2, 3)}
    assert by_age[1] == Counter(brown=6, grey=2, red=4, green=4, blue=3, yellow=4)
    assert by_age[2] == Counter(brown=3, grey=2, red=5, green=4, blue=5, yellow=4)
    assert by_age[3] == Counter(red=5, green=4, blue=6, yellow=5, purple=7)
    assert all(c.age == 3 for c in BASE.cards if c.colour == "purple")


def test_twelve_wonders_and_ten_progress_tokens() -> None:
    assert len(BASE.wonders) == 12 and len({w.id for w in BASE.wonders}) == 12
    assert len(BASE.progress_tokens) == 10
    assert {t.id for t in BASE.progress_tokens} == {"agriculture", "architecture", "economy", "law", "masonry",
                                                    "mathematics", "philosophy", "strategy", "theology", "urbanism"}
    assert sum(1 for w in BASE.wonders for e in w.effects if e.type == "replay") == 5


@pytest.mark.parametrize(("age", "rows"), [(1, [2, 3, 4, 5, 6]), (2, [6, 5, 4, 3, 2]), (3, [2, 3, 4, 2, 4, 3, 2])])
def test_layouts_of_20_with_rows_alternately_face_up(age: int, rows: list[int]) -> None:
    lay = BASE.layout(age)
    assert len(lay.slots) == 20 and lay.rows == rows
    assert all(s.face_up == (s.row % 2 == 1) for s in lay.slots), "the first row and every second one are face up"
    assert sum(s.face_up for s in lay.slots) == 12
    bottom = max(s.row for s in lay.slots)
    assert sorted(lay.available()) == sorted(s.id for s in lay.slots if s.row == bottom)
    assert len(lay.available()) == rows[-1]


def test_who_covers_whom() -> None:
    one, two, three = (BASE.layout(a) for a in (1, 2, 3))
    slot = {s.id: s for s in one.slots}
    assert sorted(slot["r1c4"].covered_by) == ["r2c3", "r2c5"]
    assert sorted(slot["r4c1"].covered_by) == ["r5c0", "r5c2"]
    slot = {s.id: s for s in two.slots}
    assert slot["r1c0"].covered_by == ("r2c1",) and sorted(slot["r1c2"].covered_by) == ["r2c1", "r2c3"]
    slot = {s.id: s for s in three.slots}
    # the waist of Age III: each of its two cards covers two cards of the row of four above
    assert slot["r3c2"].covered_by == ("r4c3",) and slot["r3c4"].covered_by == ("r4c3",)
    assert slot["r3c6"].covered_by == ("r4c7",) and slot["r3c8"].covered_by == ("r4c7",)
    assert sorted(slot["r4c3"].covered_by) == ["r5c2", "r5c4"]
    # taking both bottom cards of Age II's last row frees the row above's middle cards
    assert "r4c5" in two.available(frozenset({"r5c4", "r5c6"}))
    assert "r4c3" not in two.available(frozenset({"r5c6"}))


def test_a_wrong_covering_is_refused() -> None:
    data = raw()
    data["layouts"][0]["slots"][0]["covered_by"] = ["r2c3"]
    with pytest.raises(PackError, match="r1c4.*covered by"):
        parse_pack(DuelPack, json.dumps(data), "bad")


def test_every_chain_symbol_is_given_by_one_card_and_taken_by_one_later_card() -> None:
    chains = BASE.chains()
    assert len(chains) == 17
    givers = Counter(c.chain_gives for c in BASE.cards if c.chain_gives)
    takers = Counter(c.chain_from for c in BASE.cards if c.chain_from)
    assert set(givers) == set(takers) and set(givers.values()) == {1} and set(takers.values()) == {1}
    for symbol, (giver, taken) in chains.items():
        assert len(taken) == 1 and card(taken[0]).age > card(giver).age, symbol
    pairs = {(giver, taken[0]) for giver, taken in chains.values()}
    assert {("stable", "horse_breeders"), ("scriptorium", "library"), ("pharmacist", "dispensary"),
            ("palisade", "fortifications"), ("tavern", "lighthouse"), ("brewery", "arena"), ("rostrum", "senate"),
            ("statue", "gardens"), ("theater", "statue"), ("laboratory", "observatory")} <= pairs


def test_a_chain_to_nowhere_is_refused() -> None:
    data = raw()
    horse = next(c for c in data["cards"] if c["id"] == "horse_breeders")
    horse["chain_from"] = "unicorn"
    with pytest.raises(PackError, match="horse_breeders chains from unicorn"):
        parse_pack(DuelPack, json.dumps(data), "bad")


def test_seven_science_symbols_two_cards_each_and_law_on_the_token() -> None:
    assert len(SYMBOLS) == 7
    on_cards = Counter(e.symbol for c in BASE.cards for e in c.effects if e.type == "science")
    assert on_cards == Counter({s: 2 for s in SYMBOLS if s != "law"})
    assert all(sum(e.type == "science" for e in c.effects) == 1 for c in BASE.cards if c.colour == "green")
    assert not any(e.type == "science" for c in BASE.cards if c.colour != "green" for e in c.effects)
    law = next(t for t in BASE.progress_tokens if t.id == "law")
    assert effects(law) == [{"type": "science", "symbol": "law"}]


def test_ten_cards_and_wonders_as_the_game_prints_them() -> None:
    assert card("lumber_yard").cost is not None and card("lumber_yard").cost.free
    assert effects(card("lumber_yard")) == [{"type": "produce", "resources": ("wood",), "priced": True}]
    scriptorium = card("scriptorium")
    assert scriptorium.cost is not None and scriptorium.cost.coins == 2 and not scriptorium.cost.resources
    assert effects(scriptorium) == [{"type": "science", "symbol": "quill"}] and scriptorium.chain_gives == "book"
    assert card("library").chain_from == "book"
    pyramids = BASE.wonder_by_id["pyramids"]
    assert pyramids.name == "The Pyramids" and effects(pyramids) == [{"type": "vp", "amount": 9}]
    assert pyramids.cost is not None and pyramids.cost.resources == {"stone": 3, "papyrus": 1}
    assert effects(card("caravansery")) == [{"type": "produce", "resources": ("wood", "clay", "stone"), "choice": True}]
    assert effects(card("customs_house")) == [{"type": "fixed_price", "resources": ("glass", "papyrus"), "amount": 1}]
    assert card("sawmill").cost == card("brickyard").cost and effects(card("sawmill"))[0]["resources"] == ("wood", "wood")
    assert effects(card("arena")) == [{"type": "per", "counted": ("wonders",), "coins": 2}, {"type": "vp", "amount": 3}]
    assert effects(card("moneylenders_guild")) == [{"type": "per", "counted": ("coins",), "scope": "most", "each": 3,
                                                    "vp": 1}]
    assert effects(card("builders_guild")) == [{"type": "per", "counted": ("wonders",), "scope": "most", "vp": 2}]
    pretorium = card("pretorium")
    assert pretorium.cost is not None and pretorium.cost.coins == 8 and effects(pretorium) == [{"type": "shields",
                                                                                                 "amount": 3}]
    artemis = BASE.wonder_by_id["temple_of_artemis"]
    assert effects(artemis) == [{"type": "coins", "amount": 12}, {"type": "replay"}]
    assert effects(BASE.wonder_by_id["great_library"]) == [{"type": "progress_from_box", "amount": 3},
                                                           {"type": "vp", "amount": 4}]
    assert effects(BASE.wonder_by_id["statue_of_zeus"])[0] == {"type": "destroy", "colours": ("brown",)}
    assert effects(BASE.wonder_by_id["appian_way"])[:2] == [{"type": "coins", "amount": 3},
                                                           {"type": "opponent_loses_coins", "amount": 3}]


def test_only_brown_and_grey_production_raises_the_opponents_price() -> None:
    for c in BASE.cards:
        for e in c.effects:
            if e.type == "produce":
                assert e.priced == (c.colour in ("brown", "grey")) and e.choice == (c.colour == "yellow"), c.id
    data = raw()
    forum = next(c for c in data["cards"] if c["id"] == "forum")
    forum["effects"][0]["priced"] = True
    with pytest.raises(PackError, match="missing its parameters"):
        parse_pack(DuelPack, json.dumps(data), "bad")  # a priced choice
    forum["effects"][0] = {"type": "produce", "resources": ["glass"], "priced": True}
    with pytest.raises(PackError, match="only brown and grey"):
        parse_pack(DuelPack, json.dumps(data), "bad")


def test_the_military_track() -> None:
    track = BASE.military
    assert track.capital == 9
    assert [track.vp(d) for d in range(9)] == [0, 2, 2, 5, 5, 5, 10, 10, 10]
    assert [(t.space, t.coins) for t in track.tokens] == [(3, 2), (6, 5)]


def test_the_numbers_of_the_rules() -> None:
    n = BASE.numbers
    assert (n.start_coins, n.discard_coins, n.discard_coins_per_yellow, n.trade_base, n.coins_per_vp) == (7, 2, 1, 2, 3)
    assert (n.cards_per_age, n.removed_per_age, n.guilds_per_game, n.wonders_per_player, n.wonders_built_max) == \
        (20, 3, 3, 4, 7)
    assert n.draft == (("first", "second", "second", "first"), ("second", "first", "first", "second"))
    assert sum(len(s) for s in n.draft) == 2 * n.wonders_per_player
    assert (n.progress_on_board, n.science_supremacy, n.science_pair) == (5, 6, 2)
    assert n.tie_break == ("blue_vp",)


@pytest.mark.parametrize("name", NAMES)
def test_every_part_says_where_it_comes_from(name: str) -> None:
    rows = PACKS[name].provenance()
    assert rows and all(source and confidence for _path, source, confidence in rows)


def test_the_base_pack_is_complete_and_sure() -> None:
    sure = {path: c for path, _s, c in BASE.provenance()}
    assert sure.pop("combination") == "medium"  # whether both expansions go together: from a review, see the docs
    assert set(sure.values()) == {"high"}
    assert BASE.missing() == []
    BASE.require_complete()
    assert all(SOURCE_REPO in c.source for c in BASE.cards) and all(SOURCE_REPO in w.source for w in BASE.wonders)


@pytest.mark.parametrize("name", NAMES)
def test_nothing_shipped_is_missing(name: str) -> None:
    """Every card, token and setup fact of both expansions was found (docs/games/7-wonders-duel-data.md)."""
    assert PACKS[name].missing() == []
    PACKS[name].require_complete()


def test_a_part_marked_missing_refuses_the_game_and_names_itself() -> None:
    data = json.loads(pack_json(PACKS["7wd-duel-pantheon-agora"]))
    data["agora"]["conspiracies"][5] = {"id": "coup", "source": "not found", "confidence": "missing"}
    data["pantheon"]["token_slots"] = {"source": "not found", "confidence": "missing"}
    pack = parse_pack(DuelPack, json.dumps(data), "with gaps")
    assert pack.missing() == ["pantheon.token_slots", "agora.conspiracies[5](coup)"]
    with pytest.raises(PackError, match=r"lacks the facts of 2 parts: pantheon.token_slots, "
                                        r"agora.conspiracies\[5\]\(coup\); supply its facts .* --ruleset FILE"):
        pack.require_complete()


@pytest.mark.parametrize("name", NAMES[1:])
def test_what_is_less_than_sure_is_named(name: str) -> None:
    pack = PACKS[name]
    unsure = {path: c for path, _s, c in pack.provenance() if c not in ("high", "missing")}
    want = {"combination": "medium", "(pack)": "medium"}
    if pack.pantheon:
        want |= {"pantheon.wonders[0](sanctuary)": "medium", "pantheon.wonders[1](divine_theater)": "medium",
                 "pantheon.board": "low"}
    assert unsure == want


def test_missing_parts_have_empty_fields_and_known_parts_have_facts() -> None:
    with pytest.raises(ValidationError, match="marked missing but has facts"):
        Card(id="x", age=3, confidence="missing", cost={"coins": 1})  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="mark it confidence 'missing'"):
        Card(id="x", name="X", age=3, confidence="high")
    with pytest.raises(ValidationError, match="mark it confidence 'missing'"):
        Wonder(id="x", confidence="medium")
    data = json.loads(pack_json(PACKS["7wd-duel-pantheon"]))
    data["pantheon"]["token_slots"]["confidence"] = "missing"
    with pytest.raises(PackError, match="marked missing but has facts"):
        parse_pack(DuelPack, json.dumps(data), "bad")
    data["pantheon"]["token_slots"] = {"source": "x", "confidence": "high"}
    with pytest.raises(PackError, match="no facts"):
        parse_pack(DuelPack, json.dumps(data), "bad")


def test_pantheon_divinities_as_the_rules_text_gives_them() -> None:
    pack = PACKS["7wd-duel-pantheon"]
    assert pack.pantheon is not None and pack.agora is None and pack.options.expansions == ("pantheon",)
    p = pack.pantheon
    assert Counter(d.mythology for d in p.divinities) == Counter({m: 3 for m in MYTHOLOGIES})
    by_id = {d.id: d for d in p.divinities}
    assert effects(by_id["tanit"]) == [{"type": "coins", "amount": 12}]
    assert effects(by_id["aphrodite"]) == [{"type": "vp", "amount": 9}]
    assert effects(by_id["mars"]) == [{"type": "shields", "amount": 2}]
    assert effects(by_id["ishtar"]) == [{"type": "science", "symbol": "law"}]
    assert effects(by_id["astarte"]) == [{"type": "reserve_coins", "amount": 7, "vp": 1}]
    assert effects(by_id["baal"]) == [{"type": "steal", "colours": ("brown", "grey")}]
    assert p.gate.mythology == "gate" and effects(p.gate) == [{"type": "gate", "amount": 2}]
    assert p.components.grand_temple_vp == (5, 12, 21)
    assert {t.id for t in p.progress_tokens} == {"engineering", "mysticism", "poliorcetics"}
    assert len(pack.all_progress_tokens) == 13 and len(pack.all_wonders) == 14


def test_pantheon_grand_temples_and_setup() -> None:
    p = PACKS["7wd-duel-pantheon"].pantheon
    assert p is not None
    assert {t.mythology: t.chain_from for t in p.grand_temples} == {m: f"{m}_token" for m in MYTHOLOGIES}
    greek = next(t for t in p.grand_temples if t.mythology == "greek")
    assert greek.name == "Greek Grand Temple" and greek.cost is not None
    assert greek.cost.resources == {"stone": 3, "glass": 1, "papyrus": 1}
    assert all(t.cost is not None and sum(t.cost.resources.values()) == 5 and not t.cost.coins for t in p.grand_temples)
    assert p.setup.offering_discounts == (2, 3, 4) and p.setup.grand_temples_in_age_3 == 3
    assert p.setup.mythology_tokens_drawn == 5 and p.components.mythology_tokens == 10
    assert len(p.board.space_costs) == 6 and p.board.confidence == "low"
    sanctuary = PACKS["7wd-duel-pantheon"].wonder_by_id["sanctuary"]
    assert sanctuary.cost is not None and sanctuary.cost.resources == {"papyrus": 1, "glass": 1, "stone": 2}


def test_pantheon_tokens_lie_on_face_down_cards() -> None:
    both = PACKS["7wd-duel-pantheon-agora"]
    assert both.pantheon is not None and both.agora is not None
    ts = both.pantheon.token_slots
    for slots, layout in ((ts.mythology_slots, BASE.layout(1)), (ts.offering_slots, BASE.layout(2)),
                          (ts.agora_mythology_slots, both.layout(1)), (ts.agora_offering_slots, both.layout(2))):
        down = {s.id for s in layout.slots if not s.face_up}
        assert set(slots) <= down and len(set(slots)) in (3, 5)
    data = json.loads(pack_json(both))
    data["pantheon"]["token_slots"]["mythology_slots"][0] = "r1c4"  # face up
    with pytest.raises(PackError, match="mythology token slots must be 5 face-down slots of Age 1"):
        parse_pack(DuelPack, json.dumps(data), "bad")


@pytest.mark.parametrize(("age", "rows"), [(1, [3, 4, 5, 6, 7]), (2, [7, 6, 5, 4, 3]), (3, [2, 3, 4, 5, 4, 3, 2])])
def test_agora_structures_hold_the_senators(age: int, rows: list[int]) -> None:
    pack = PACKS["7wd-duel-agora"]
    assert pack.agora is not None
    lay = pack.layout(age)
    assert lay is not BASE.layout(age) and lay.rows == rows
    assert all(s.face_up == (s.row % 2 == 1) for s in lay.slots)
    deck = len(BASE.deck(age)) - 3 + pack.agora.setup.senators_per_age[age - 1] + (3 if age == 3 else 0)
    assert len(lay.slots) == deck == (25, 25, 23)[age - 1]
    assert len(lay.available()) == rows[-1]


def test_agora_senators_chambers_decrees_conspiracies() -> None:
    pack = PACKS["7wd-duel-agora"]
    assert pack.agora is not None and pack.pantheon is None
    a = pack.agora
    assert {s.id: s.copies for s in a.senators} == {"politician_left": 2, "politician_middle": 3, "politician_right": 2,
                                                    "conspirator": 6}
    assert Counter(s.kind for s in a.senators for _ in range(s.copies)) == Counter(politician=7, conspirator=6)
    politician = next(s for s in a.senators if s.kind == "politician")
    assert politician.effects[0].steps == ((0, 1), (2, 2), (4, 3))
    assert [(c.number, c.section, c.vp) for c in a.chambers] == [(1, "left", 1), (2, "left", 2), (3, "middle", 3),
                                                                 (4, "middle", 3), (5, "right", 2), (6, "right", 1)]
    assert len({d.id for d in a.decrees}) == 16 and len({c.id for c in a.conspiracies}) == 16
    assert a.setup.senators_per_age == (5, 5, 3) and a.setup.decrees_dealt == 6
    by_id = {c.id: c for c in a.conspiracies}
    assert effects(by_id["coup"]) == [{"type": "shields", "amount": 2}]
    assert effects(by_id["foreclosure"]) == [{"type": "steal", "colours": ("brown", "grey")}]
    assert sorted(t.space for t in a.military_tokens) == [3, 3, 6, 6]
    curia = pack.wonder_by_id["curia_julia"]
    assert [e.when for e in curia.effects] == ["selected", "built", "built", "built"]
    assert {"type": "coins", "amount": 6} in effects(curia) and {"type": "replay"} in effects(curia)
    assert {t.id for t in a.progress_tokens} == {"corruption", "organized_crime"}
    assert len(pack.all_wonders) == 14 and len(pack.all_progress_tokens) == 12


def test_expansions_in_the_options_match_the_parts() -> None:
    both = PACKS["7wd-duel-pantheon-agora"]
    assert both.options.expansions == ("pantheon", "agora") and both.combination.pantheon_with_agora
    data = raw()
    data["options"] = {"expansions": ["pantheon"]}
    with pytest.raises(PackError, match="the pantheon part disagree"):
        parse_pack(DuelPack, json.dumps(data), "bad")
    data = json.loads(pack_json(both))
    data["combination"]["pantheon_with_agora"] = False
    with pytest.raises(PackError, match="may not be played together"):
        parse_pack(DuelPack, json.dumps(data), "bad")


def test_effect_parameters_are_checked() -> None:
    with pytest.raises(ValidationError):
        Effect(type="per", counted=("blue",))
    with pytest.raises(ValidationError):
        Effect(type="senate_actions", steps=((1, 1),))
    assert Effect(type="senate_actions", steps=((0, 1), (2, 2))).steps == ((0, 1), (2, 2))
