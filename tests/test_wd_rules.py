"""One test per rule id: a legal case and an illegal one, on hand-built positions.

The numbers come from the default pack (rulesets/7wd-default.json): e.g. the Agora
space r0c1 costs 1 and is worth 2 VP; the forum sections cost 0, 1, 2, 3 coins.
"""

from __future__ import annotations

import pytest
from wd_table import PASS, RULES, SKIP, Table, bonus, build, cross, wonder

from replay.games.wonders_dice import GAME
from replay.games.wonders_dice.engine import RULES as RULE_TEXT
from replay.games.wonders_dice.rules_data import RulesetError


def test_every_rule_id_has_a_sentence():
    assert all(text.endswith(".") for text in RULE_TEXT.values())


# -- start ----------------------------------------------------------------------------------


def test_start_options_are_validated_once_and_shared_by_games_naming_them():
    """Games whose start names the same options share one frozen Options (validated once); the same
    answer of another type, or other options, is validated on its own; options that are not options
    are refused every time, never kept."""
    from pydantic import ValidationError

    from replay.games.wonders_dice.projector import game_options
    from replay.games.wonders_dice.rules_data import default_ruleset

    rules = default_ruleset()
    given = rules.options.model_dump(mode="json")
    first, again = game_options(dict(given), rules), game_options(dict(given), rules)
    assert first is again and first == rules.options
    assert game_options({**given, "coin_cap": 9}, rules).coin_cap == 9
    assert game_options({**given, "coin_cap": 9}, rules) is not first
    assert game_options(None, rules) is rules.options
    for bad in ({**given, "coin_cap": -1}, {**given, "nonsense": 1}, {**given, "coin_cap": [1]}):
        for _ in range(2):
            with pytest.raises(ValidationError):
                game_options(bad, rules)
    with pytest.raises(ValidationError):
        game_options(["not", "a", "dict"], rules)


def test_start_seats_must_be_distinct_known_cities():
    assert len(Table(("giza", "rhodes", "babylon")).state.players) == 3
    for cities, found in ((("giza", "giza"), "giza, giza"), (("giza", "atlantis"), "atlantis")):
        with pytest.raises(Exception) as caught:
            Table(cities)
        v = caught.value.violation
        assert (v.rule_id, v.seq, v.found) == ("start.seats", 0, found)


def test_start_ruleset_must_be_the_pinned_one():
    table = Table()
    pin = {**table.start.payload["ruleset"], "content_hash": "sha256:" + "0" * 64}
    bad = table.start._replace(payload={**table.start.payload, "ruleset": pin})
    with pytest.raises(RulesetError, match=f"not available; the available 7wd-default {RULES.version} has sha256:"):
        GAME.library().find(bad.payload["ruleset"])


# -- the turn -------------------------------------------------------------------------------


def test_turn_order_roll_then_each_seat_once_in_order():
    t = Table()
    v = t.violation(t.act, 0, PASS)  # an action in a turn with no roll
    assert (v.rule_id, v.expected, v.found) == ("turn.order", "the roll of turn 1", "an action of seat 0")
    t.roll()
    v = t.violation(t.act, 1, PASS)
    assert (v.rule_id, v.expected) == ("turn.order", "seat 0 acting in turn 1")
    t.act(0, PASS)
    t.act(1, PASS)
    t.end()
    assert t.state.turn == 1 and t.state.phase == "roll"
    assert [p.coins for p in t.state.players] == [10, 10]  # 7 + 3 for passing


def test_turn_roll_must_roll_every_forum_die_to_a_real_face():
    t = Table()
    v = t.violation(t.roll, blue=("sword", 0))
    assert v.rule_id == "turn.roll" and "blue sword" in v.found
    v = t.violation(t.roll, red=("axe", 4))
    assert v.rule_id == "turn.roll" and "section 4" in v.found
    t.roll(red=("axe", 3))
    assert t.state.roll["red"] == ("axe", 3)


# -- building -------------------------------------------------------------------------------


def test_action_main_must_be_build_wonder_or_pass():
    t = Table()
    t.roll()
    v = t.violation(t.act, 0, cross("agora", "mask", "r0c0"))
    assert (v.rule_id, v.found) == ("action.main", "cross")
    t.act(0, wonder("step1"))  # Giza's first step costs 3 (no resources), then gives 2 coins per Wonder space
    assert t.player(0).coins == 7 - 3 + 2 and t.player(0).crossed["wonder"] == {"step1"}


def test_die_forum_and_target():
    t = Table()
    t.roll(red=("shield", 1))
    assert t.violation(t.act, 0, build("black", "warehouse", "stone", "stone")).rule_id == "die.forum"
    v = t.violation(t.act, 0, build("red", "barracks_west", "axe", "axe1"))
    assert v.rule_id == "die.target" and "barracks_east/shield" in v.expected
    t.act(0, build("red", "barracks_west", "shield", "shield1"), claims={"paid": 2, "vp": 0, "coins": 5})


def test_die_cost_by_section_and_resources_pay_construction():
    t = Table()
    t.roll(grey1=("cloth", 2))  # cloth costs 1 to build; section 2 costs 2
    t.act(0, build("grey1", "warehouse", "cloth", "cloth"), claims={"paid": 3, "coins": 4})
    t.act(1, PASS)
    t.end()
    t.roll(blue=("owl", 1))  # r0c1 costs 1, now covered by the one resource: pay the die's 1 only
    t.act(0, build("blue", "agora", "owl", "r0c1"), claims={"paid": 1, "vp": 2, "coins": 3})
    assert t.player(0).resources == 1


def test_space_order_follows_the_arrow_but_market_is_free():
    t = Table()
    t.roll(blue=("mask", 0), yellow=("chest", 0))
    v = t.violation(t.act, 0, build("blue", "agora", "mask", "r0c1"))
    assert (v.rule_id, v.expected, v.found) == ("space.order", "r0c0 (next on the mask arrow)", "r0c1")
    t.act(0, build("yellow", "market", "chest", "chest_vp"))  # the second chest space first: any order
    assert t.player(0).vp["market"] == 4


def test_space_taken_and_unknown():
    t = Table()
    t.roll(grey1=("stone", 0))
    t.act(0, build("grey1", "warehouse", "stone", "stone"))
    t.act(1, PASS)
    t.end()
    t.roll(grey1=("stone", 0))
    assert t.violation(t.act, 0, build("grey1", "warehouse", "stone", "stone")).rule_id == "space.taken"
    assert t.violation(t.act, 0, build("grey1", "warehouse", "stone", "gold")).rule_id == "space.unknown"


def test_pay_coins_never_more_than_held():
    t = Table()
    t.player(0).coins = 2
    t.roll(red=("sword", 3))  # die 3 coins + sword1 cost 1
    v = t.violation(t.act, 0, build("red", "barracks_west", "sword", "sword1"))
    assert (v.rule_id, v.expected) == ("pay.coins", "at most 2 coins to pay") and v.found.startswith("4 owed")
    t.act(0, PASS)


def test_die_locked_until_the_player_unlocks_it():
    t = Table()
    t.player(0).crossed["university"] = {"compass1", "compass2"}
    t.player(0).coins = 20
    t.roll(green=("compass", 0))
    t.act(0, build("green", "university", "compass", "compass3"))  # unlocks black
    t.act(1, PASS)
    v = t.violation(t.end)
    assert (v.rule_id, v.expected) == ("swap.required", "the black die swapped in before the turn ends")
    assert t.violation(t.swap, "black", "blue").rule_id == "swap.required"  # only a grey die leaves
    t.swap("black", "grey2")
    t.end()
    assert "black" in t.state.forum and "grey2" not in t.state.forum
    t.roll(black=("yellow", 0))
    t.act(0, build("black", "market", "coins", "coins3"))  # the unlocker may use it
    v = t.violation(t.act, 1, build("black", "market", "coins", "coins3"))
    assert (v.rule_id, v.player) == ("die.locked", "B")


def test_guild_court_compares_neighbours_at_the_start_of_the_turn():
    t = Table()
    for p in t.state.players:
        p.unlocked.add("purple")
    t.state.forum = {**{k: v for k, v in t.state.forum.items() if k != "grey3"}, "purple": "purple"}
    t.player(0).crossed["market"] = {"coins3"}
    t.roll(purple=("market", 0))
    t.act(0, build("purple", "guild_court", "guild", "guild1"))  # 1 Market space against 0: strictly more
    v = t.violation(t.act, 1, build("purple", "guild_court", "guild", "guild1"))
    assert (v.rule_id, v.expected, v.found) == ("guild.condition", "more than A's 1 in market", "B has 0")


def test_barracks_attack_minus_defender_shields_of_previous_turns():
    t = Table()
    t.player(1).crossed["barracks_east"] = {"shield1"}  # B's East faces A's West in 2 players
    t.roll(red=("sword", 0))
    t.act(0, build("red", "barracks_west", "sword", "sword1"), claims={"vp": 2})  # 3 printed - 1 shield
    t.act(1, PASS)
    t.end()
    t.roll(red=("shield", 0))
    t.act(0, PASS)
    t.act(1, build("red", "barracks_west", "shield", "shield1"))  # faces A's East
    t.end()
    t.roll(red=("sword", 0))
    v = t.violation(t.act, 0, build("red", "barracks_east", "sword", "sword1"), claims={"vp": 3})
    assert (v.rule_id, v.expected, v.found) == ("claim.vp", "2", "3")  # the claim ignored B's new shield
    assert t.player(0).vp["military"] == 4


def test_a_shield_crossed_this_turn_does_not_defend_yet():
    t = Table()
    t.roll(red=("shield", 0))
    t.act(0, build("red", "barracks_east", "shield", "shield1"))
    t.state.roll["red"] = ("sword", 0)  # B sees the same turn as if the die showed a sword
    t.act(1, build("red", "barracks_west", "sword", "sword1"), claims={"vp": 3})


def test_attack_vp_never_below_zero_and_shields_cap_at_two():
    t = Table()
    t.player(1).crossed["barracks_east"] = {"shield1", "shield2"}
    t.roll(red=("axe", 0))
    t.act(0, build("red", "barracks_west", "axe", "axe1"), claims={"vp": 0})  # 2 printed - 2 shields


def test_effect_choice_each_question_answered_in_order():
    t = Table(("babylon", "giza"))
    t.player(0).coins = 10
    t.roll()
    v = t.violation(t.act, 0, wonder("step1"))  # Babylon step 1: cross a University space: a step is owed
    assert v.rule_id == "effect.choice" and v.found == "no more steps"
    t.act(0, wonder("step1"), cross("university", "cog", "cog1"))
    assert t.player(0).crossed["university"] == {"cog1"}
    t.act(1, PASS)
    t.end()
    t.roll()
    t.act(0, PASS)
    v = t.violation(t.act, 1, wonder("step1"), SKIP)  # Giza step 1 asks nothing
    assert (v.rule_id, v.expected) == ("effect.choice", "no further step: the action was complete")


def test_bonus_slot_on_completion_and_end_trigger():
    t = Table()
    a = t.player(0)
    a.coins = 30
    a.crossed["market"] = {"coins3", "coins5", "camel_grey", "camel_yellow", "chest_per_space"}
    a.bonuses = [True, True, False]
    t.roll(yellow=("chest", 0))
    v = t.violation(t.act, 0, build("yellow", "market", "chest", "chest_vp"), bonus(0))
    assert (v.rule_id, v.expected) == ("bonus.slot", "a free bonus slot: 2")
    t.act(0, build("yellow", "market", "chest", "chest_vp"), bonus(2))  # 7 coins
    assert a.bonuses == [True, True, True]
    t.act(1, PASS)
    t.end()
    assert t.state.final_turn == 2
    v = t.violation(t._emit, "game_ended", {"scores": [], "winners": [], "tie_break": "none"})
    assert (v.rule_id, v.expected) == ("end.trigger", "turn 2 to be played")
    t.roll()
    t.pass_all()
    t.end()
    assert t.state.phase == "over"


@pytest.mark.parametrize("claims, rule, expected, found", [
    ({"paid": 0}, "claim.paid", "1", "0"), ({"coins": 7}, "claim.coins", "6", "7"), ({"vp": 1}, "claim.vp", "0", "1"),
])
def test_claims_are_checked(claims, rule, expected, found):
    t = Table()
    t.roll(grey1=("stone", 1))
    t.act(0, build("grey1", "warehouse", "stone", "stone"), claims={"paid": 1, "vp": 0, "coins": 6})
    t2 = Table()
    t2.roll(grey1=("stone", 1))
    v = t2.violation(t2.act, 0, build("grey1", "warehouse", "stone", "stone"), claims=claims)
    assert (v.rule_id, v.expected, v.found) == (rule, expected, found)
    # a wrong claim does not undo a legal action: the rules' values stand, and the audit goes on
    assert t2.player(0).crossed == {"warehouse": {"stone"}} and t2.state.next_seat == 1


def test_agora_first_completion_gets_three_at_the_end_of_the_turn():
    t = Table()
    a = t.player(0)
    a.coins = 30
    a.crossed["agora"] = {f"r{r}c{c}" for r in range(3) for c in range(3)} - {"r2c2"}
    t.roll(blue=("fountain", 0))
    t.act(0, build("blue", "agora", "fountain", "r2c2"), bonus(2), claims={"vp": 5})
    t.act(1, PASS)
    t.end()
    assert a.vp["agora"] == 5 + 3 and t.state.agora_first_done


def test_score_claim_and_tie_break_on_coins():
    t = Table()
    t.player(0).bonuses = [True, True, True]
    t.roll()
    t.pass_all()
    t.end()
    t.roll()
    t.act(0, PASS)
    t.act(1, wonder("step1"))  # Rhodes step 1 costs 2: B ends with fewer coins
    t.end()
    from replay.games.wonders_dice.scoring import final_scores

    result = final_scores(t.state)
    assert result["winners"] == [0] and result["tie_break"] == "coins"
    wrong = {**result, "winners": [1]}
    v = t.violation(t._emit, "game_ended", wrong)
    assert v.rule_id == "claim.score"
    # a wrong claim yields to the rules: the game has ended with the rules' result
    assert t.state.phase == "ended" and t.state.result["winners"] == [0]


def test_every_rule_id_is_documented():
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "7-wonders-dice.md").read_text()
    missing = [r for r in RULE_TEXT if f"`{r}`" not in doc]
    assert missing == []
