"""Rule variants of other implementations, as pack data and named options; the engine's divergences
from the rule texts and the bugs found with them, each with the case that showed it.

Positions are built by hand on the default pack (numbers from rulesets/7wd-default.json: Giza's
Wonder costs 3/1/6 and its step 2 is "take another action"; Halicarnassus' step 2 crosses a space
of one of its Barracks; an axe1 attack prints 2 VP; the Market's coins3 costs 0 and gives 3 coins).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from helpers import every_variant_content
from wd_table import PASS, RULES, SKIP, Table, bonus, build, cross, wonder

from replay.cli.main import cli
from replay.driver import replay
from replay.games.wonders_dice import GAME, simulate_game
from replay.games.wonders_dice.rules_data import Ruleset, RulesetError, parse_ruleset, shipped_rulesets
from replay.services.audit import audit
from replay.services.logs import Log

OLD = shipped_rulesets()["7wd-default-0.1.0"]


def pack_with(edit, version: str = "0.2.0-test") -> Ruleset:
    data = RULES.model_dump(mode="json")
    data["version"] = version
    edit(data)
    return Ruleset.model_validate(data)


def city(data: dict, city_id: str) -> dict:
    return next(c for c in data["cities"] if c["id"] == city_id)


# -- 1. costs above 6 ---------------------------------------------------------------------------------


def test_a_space_may_cost_up_to_20_and_a_wonder_step_of_7_is_paid_in_full():
    def seven(d):
        city(d, "giza")["wonder"]["spaces"][2]["cost"] = 7

    pack = pack_with(seven)
    t = Table(("giza", "rhodes"), pack=pack)
    t.player(0).crossed["wonder"] = {"step1", "step2"}
    t.player(0).coins = 8
    t.roll()
    t.act(0, wonder("step3"), bonus(2), claims={"paid": 7, "coins": 8 - 7 + 7})  # the bonus: 7 coins
    too_much = json.dumps({**pack.model_dump(mode="json"), "cities": [
        {**c, "wonder": {**c["wonder"], "spaces": [{**s, "cost": 21} for s in c["wonder"]["spaces"]]}}
        for c in pack.model_dump(mode="json")["cities"]]})
    with pytest.raises(RulesetError, match=r"cities\[0\]\(\w+\)\.wonder\.spaces\[0\]\(step1\)\.cost"):
        parse_ruleset(too_much, "too-much.json")


# -- 2. "take another action" may be a pass ------------------------------------------------------------


@pytest.mark.parametrize("allowed", [False, True])
def test_the_extra_action_may_be_a_pass_only_under_the_option(allowed):
    t = Table(("giza", "rhodes"), options={"extra_action_pass": allowed})
    t.player(0).crossed["wonder"] = {"step1"}
    t.roll()
    if allowed:
        t.act(0, wonder("step2"), PASS, claims={"paid": 1, "coins": 7 - 1 + 3})
    else:
        assert t.violation(t.act, 0, wonder("step2"), PASS).rule_id == "effect.choice"


# -- 3. two-phase resolution ---------------------------------------------------------------------------


@pytest.mark.parametrize("resolution, attack_vp", [("simultaneous", 2), ("seat_order", 2), ("two_phase", 1)])
def test_follow_ups_wait_for_every_main_action_under_two_phase(resolution, attack_vp):
    """Halicarnassus (seat 0) builds Wonder step 2 and crosses an axe in its West Barracks through it;
    Rhodes (seat 1) builds a shield in its East Barracks, which faces seat 0's West. Only in two phases
    does seat 0's crossing come after seat 1's shield, and the attack lose a point to it."""
    t = Table(("halicarnassus", "rhodes"), options={"resolution": resolution})
    t.player(0).crossed["wonder"] = {"step1"}
    t.roll(red=("shield", 0))
    t.act(0, wonder("step2"), cross("barracks_west", "axe", "axe1"), claims={"vp": attack_vp})
    if resolution == "two_phase":
        assert t.player(0).vp.get("military", 0) == 0  # the crossing waits on seat 0's queue
        assert t.state.follow_ups == {0: [["effect", "wonder", "step2", 0]]}
    t.act(1, build("red", "barracks_east", "shield", "shield1"))
    assert t.player(0).vp["military"] == attack_vp
    assert not t.state.follow_ups and not t.state.pending
    t.end()


def test_two_phase_follow_ups_are_checked_and_an_illegal_one_changes_nothing():
    t = Table(("halicarnassus", "rhodes"), options={"resolution": "two_phase"})
    t.player(0).crossed["wonder"] = {"step1"}
    t.roll()
    t.act(0, wonder("step2"), cross("barracks_west", "axe", "axe2"))  # axe2 before axe1: out of order
    v = t.violation(t.act, 1, PASS)
    assert (v.rule_id, v.seq, v.player) == ("space.order", 2, "A")  # seat 0's event, reported at the turn's end
    assert "axe1" not in t.player(0).crossed.get("barracks_west", set())


# -- 4. void actions -----------------------------------------------------------------------------------


def _guild_table(options: dict) -> Table:
    """Seat 1 may build its Guild Court on the purple die's Market face at the start of the turn
    (2 Market spaces against seat 0's 1); seat 0's action, earlier in seat order, makes it 2 against 2."""
    t = Table(("giza", "rhodes"), options=options)
    t.state.forum = {("purple" if d == "grey3" else d): ("purple" if d == "grey3" else c) for d, c in t.state.forum.items()}
    t.player(1).unlocked.add("purple")
    t.player(0).crossed["market"] = {"coins5"}
    t.player(1).crossed["market"] = {"coins5", "camel_grey"}
    t.roll(purple=("market", 0), yellow=("coins", 0))
    t.act(0, build("yellow", "market", "coins", "coins3"))
    return t


def test_an_action_an_earlier_player_made_impossible_is_void_under_the_option():
    t = _guild_table({"resolution": "seat_order", "void_actions": True})
    coins = t.player(1).coins
    t.act(1, build("purple", "guild_court", "guild", "guild1"), claims={"paid": 0, "vp": 0, "coins": coins})
    assert "guild_court" not in t.player(1).crossed and t.player(1).coins == coins and 1 in t.state.acted
    without = _guild_table({"resolution": "seat_order"})
    assert without.violation(without.act, 1, build("purple", "guild_court", "guild", "guild1")).rule_id == "guild.condition"
    illegal_at_start = _guild_table({"resolution": "seat_order", "void_actions": True})
    illegal_at_start.player(1).crossed["market"] = {"coins5"}  # 1 against 1: never possible
    v = illegal_at_start.violation(illegal_at_start.act, 1, build("purple", "guild_court", "guild", "guild1"))
    assert v.rule_id == "guild.condition"


# -- 5. income: when the coins for choosing a die come --------------------------------------------------


def _income_table(income: str) -> Table:
    """Seat 0 earns 2 coins whenever it chooses the red die; its West Barracks lacks only shield2
    (cost 2), which completes it: the bonus "take another action" follows."""
    t = Table(("giza", "rhodes"), options={"income": income})
    a = t.player(0)
    a.income = {"red": 2}
    a.crossed["barracks_west"] = {"shield1", "axe1", "axe2", "sword1", "sword2", "sword3"}
    a.coins = 2
    t.roll(red=("shield", 0), yellow=("coins", 2))
    return t


@pytest.mark.parametrize("income, legal", [("after_action", False), ("after_paying", True), ("when_chosen", True)])
def test_income_after_paying_pays_for_the_extra_action_of_the_bonus(income, legal):
    t = _income_table(income)
    steps = (build("red", "barracks_west", "shield", "shield2"), bonus(0), build("yellow", "market", "coins", "coins3"))
    if legal:
        t.act(0, *steps, claims={"paid": 2 + 2, "coins": 2 - 2 + 2 - 2 + 3})
    else:
        assert t.violation(t.act, 0, *steps).rule_id == "pay.coins"  # 0.1: the income came after the whole action


@pytest.mark.parametrize("income, legal", [("after_paying", False), ("when_chosen", True)])
def test_income_when_chosen_helps_pay_for_the_die_itself(income, legal):
    t = Table(("giza", "rhodes"), options={"income": income})
    t.player(0).income = {"red": 2}
    t.player(0).coins = 1
    t.roll(red=("axe", 2))  # the red die costs 2; axe1 costs nothing to build
    if legal:
        t.act(0, build("red", "barracks_west", "axe", "axe1"), claims={"paid": 2, "coins": 1})
    else:
        assert t.violation(t.act, 0, build("red", "barracks_west", "axe", "axe1")).rule_id == "pay.coins"


# -- 6. black faces naming buildings, mandatory crossings, the free action, per-space rates ------------


def test_a_black_face_may_name_buildings():
    def wonder_face(d):
        black = next(die for die in d["dice"] if die["colour"] == "black")
        black["faces"][5] = {"face": "any", "colours": [], "buildings": ["agora"]}

    pack = pack_with(wonder_face)
    t = Table(("giza", "rhodes"), pack=pack)
    t.state.forum = {("black" if d == "grey3" else d): ("black" if d == "grey3" else c) for d, c in t.state.forum.items()}
    t.player(0).unlocked.add("black")
    t.roll(black=("any", 0))
    t.act(0, build("black", "agora", "owl", "r0c1"), claims={"vp": 2})
    assert t.violation(t.act, 1, build("black", "market", "coins", "coins3")).rule_id in ("die.locked", "die.target")
    with pytest.raises(Exception, match="names building 'nowhere'"):
        pack_with(lambda d: next(die for die in d["dice"] if die["colour"] == "black")["faces"][5].update(
            buildings=["nowhere"]))


@pytest.mark.parametrize("mandatory", [False, True])
def test_a_crossing_effect_may_be_declined_unless_mandatory(mandatory):
    t = Table(("babylon", "rhodes"), options={"cross_mandatory": mandatory})
    t.roll()
    if mandatory:
        assert t.violation(t.act, 0, wonder("step1"), SKIP).rule_id == "effect.choice"
        t.act(0, wonder("step1"), cross("university", "cog", "cog1"))
    else:
        t.act(0, wonder("step1"), SKIP)


@pytest.mark.parametrize("allowed", [True, False])
def test_the_free_action_may_build_the_wonder_only_under_the_option(allowed):
    """Olympia's step 2: "construct a building without paying the die cost" (0.1 let it be the Wonder)."""
    t = Table(("olympia", "rhodes"), options={"free_action_wonder": allowed})
    t.player(0).crossed["wonder"] = {"step1"}
    t.player(0).coins = 10
    t.roll()
    if allowed:
        t.act(0, wonder("step2"), wonder("step3"), bonus(2))
    else:
        assert t.violation(t.act, 0, wonder("step2"), wonder("step3")).rule_id == "effect.choice"
        t.act(0, wonder("step2"), build("yellow", "market", "camel", "camel_grey"))


@pytest.mark.parametrize("rates, vp", [("add", 3 * 2), ("max", 2 * 2)])
def test_per_space_rates_on_one_building_add_or_take_the_highest(rates, vp):
    t = Table(options={"per_space_vp": rates})
    a = t.player(0)
    a.crossed["market"] = {"coins3", "coins5"}
    a.end_effects = [("market", "market", 1), ("market", "market", 2)]
    from replay.games.wonders_dice.scoring import player_categories

    assert player_categories(t.state, a)["market"] == vp


# -- divergences from the rule texts --------------------------------------------------------------------


@pytest.mark.parametrize("completion, bonuses", [("at_crossing", 1), ("after_effects", 2)])
def test_one_completed_wonder_gives_one_bonus(completion, bonuses):
    """Giza's step 2 grants another action; taking step 3 with it completes the Wonder: one bonus, as the
    rulebook says (0.1 asked again when it came back to step 2, so logs of that time hold two)."""
    def table() -> Table:
        t = Table(("giza", "rhodes"), options={"completion": completion})
        t.player(0).crossed["wonder"] = {"step1"}
        t.roll()
        return t

    one = (wonder("step2"), wonder("step3"), bonus(2))
    two = (*one, bonus(1), SKIP)  # the second bonus crosses a space: declined
    right, wrong = (one, two) if bonuses == 1 else (two, one)
    t = table()
    assert t.violation(t.act, 0, *wrong).rule_id == "effect.choice"  # one bonus too many, or one missing
    t = table()
    t.act(0, *right)
    assert sum(t.player(0).bonuses) == bonuses


def test_the_agora_completed_from_inside_an_extra_action_counts_once():
    t = Table(("giza", "rhodes"), options={"completion": "at_crossing", "agora_first_same_turn": "all"})
    a = t.player(0)
    a.crossed["wonder"] = {"step1"}
    a.crossed["agora"] = {"r0c0", "r0c1", "r0c2", "r1c0", "r1c1", "r1c2", "r2c0", "r2c1"}
    a.coins = 20
    t.roll(blue=("fountain", 0))
    t.act(0, wonder("step2"), build("blue", "agora", "fountain", "r2c2"), bonus(2))
    t.act(1, PASS)
    t.end()
    assert t.state.agora_completers == [0] and a.vp["agora"] == 5 + 3  # r2c2's 5 VP and the first-completion 3


def test_resources_come_from_every_space_that_produces_one():
    def market_resource(d):
        market = next(b for b in d["buildings"] if b["id"] == "market")
        market["spaces"][0]["effects"].append({"type": "resource"})  # coins3: "gains coins and resources"

    t = Table(pack=pack_with(market_resource))
    t.roll(yellow=("coins", 0))
    t.act(0, build("yellow", "market", "coins", "coins3"))
    assert t.player(0).resources == 1
    plain = Table()
    plain.roll(yellow=("coins", 0))
    plain.act(0, build("yellow", "market", "coins", "coins3"))
    assert plain.player(0).resources == 0


@pytest.mark.parametrize("resolution", ["simultaneous", "seat_order", "two_phase"])
def test_a_players_own_spaces_of_this_turn_never_count_for_the_guild_court(resolution):
    """Giza builds Wonder step 2 (its second Wonder space) and, with the extra action, its Guild Court on
    the purple die's Wonder face: 2 Wonder spaces now, 1 before this turn, against the opponent's 1."""
    t = Table(("giza", "rhodes"), options={"resolution": resolution})
    t.state.forum = {("purple" if d == "grey3" else d): ("purple" if d == "grey3" else c) for d, c in t.state.forum.items()}
    a = t.player(0)
    a.unlocked.add("purple")
    a.crossed["wonder"] = {"step1"}
    t.player(1).crossed["wonder"] = {"step1"}
    t.roll(purple=("wonder", 0))
    if resolution == "two_phase":
        t.act(0, wonder("step2"), build("purple", "guild_court", "guild", "guild1"))
        assert t.violation(t.act, 1, PASS).rule_id == "guild.condition"
    else:
        assert t.violation(t.act, 0, wonder("step2"), build("purple", "guild_court", "guild", "guild1")).rule_id == \
            "guild.condition"


def test_the_guild_court_and_gallery_need_their_die_unlocked_even_through_an_effect():
    """The BGA texts: the Gallery (and the Guild Court) must be unlocked before building it. An effect
    that could only cross into it lapses while it is locked."""
    def cross_into_gallery(d):
        city(d, "babylon")["wonder"]["spaces"][0]["effects"] = [{"type": "cross", "buildings": ["gallery"]}]

    pack = pack_with(cross_into_gallery)
    locked = Table(("babylon", "rhodes"), pack=pack)
    locked.roll()
    locked.act(0, wonder("step1"))  # nothing can be crossed: no question
    assert "gallery" not in locked.player(0).crossed
    unlocked = Table(("babylon", "rhodes"), pack=pack)
    unlocked.player(0).unlocked.add("white")
    unlocked.roll()
    unlocked.act(0, wonder("step1"), cross("gallery", "laurel", "laurel1"))
    assert unlocked.player(0).crossed["gallery"] == {"laurel1"}


# -- bugs found on the way ------------------------------------------------------------------------------


def test_notation_keeps_none_valued_options(tmp_path):
    events = simulate_game("n", ["Ana", "Ben"], 3, ("random",), options=RULES.options.model_copy(
        update={"agora_first_same_turn": "none"}))
    text = GAME.notation.write(events)
    assert "agora_first_same_turn=none" in text and "coin_cap=none" in text
    back = GAME.notation.read(text, "raise")
    assert back.events == events
    assert back.events[0].payload["options"]["coin_cap"] is None


def test_rules_validate_without_game_reports_the_packs_own_errors(tmp_path):
    data = RULES.model_dump(mode="json")
    data["start"]["coins"] = -1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    out = CliRunner().invoke(cli, ["rules", "validate", str(bad)])
    assert out.exit_code == 1 and "start.coins" in out.output
    assert "pig" not in out.output.replace("--game", "") and "die_faces" not in out.output


# -- compatibility: games of pack 0.1.0 replay as they were played --------------------------------------


def test_the_default_pack_is_0_2_0_and_0_1_0_is_still_shipped_with_its_hash():
    assert RULES.version == "0.2.0" and RULES.options.completion == "at_crossing"
    assert OLD.version == "0.1.0" and OLD.options.completion == "after_effects"
    assert OLD.content_hash == "sha256:6c096addec2ccc4435d7700ba6d5459bde7ebf854e93b688aa9b0fb5fd8b35f1"


def test_games_simulated_under_0_1_0_still_replay_clean():
    for seed in range(40):
        events = simulate_game(f"old{seed}", ["Ana", "Ben", "Chloe"], seed, ("greedy", "random"), OLD)
        assert replay(GAME, events, level="raise").state.phase == "ended"


# -- a pack that sets every variant ----------------------------------------------------------------------


def variants_pack(resolution: str) -> Ruleset:
    def every(d):
        d["options"] = {"resolution": resolution, "extra_action_pass": True, "void_actions": True,
                        "income": "when_chosen", "cross_mandatory": True, "free_action_wonder": True,
                        "per_space_vp": "max", "completion": "at_crossing"}
        every_variant_content(d)

    return pack_with(every, f"0.2.0-every-variant-{resolution}")


@pytest.mark.parametrize("resolution", ["seat_order", "two_phase"])
def test_a_pack_setting_every_variant_validates_simulates_and_replays_its_games_clean(resolution, tmp_path):
    pack = variants_pack(resolution)
    path = tmp_path / "every.json"
    path.write_text(json.dumps(pack.model_dump(mode="json")))
    assert CliRunner().invoke(cli, ["rules", "validate", str(path)]).exit_code == 0
    for i in range(12):
        names = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"][: 2 + i % 6]
        events = simulate_game(f"v{i}", names, 300 + i, ("greedy", "random"), pack)
        report = audit(Log(events, GAME, f"v{i}"), [pack])
        assert report.ok, [str(p) for p in report.problems[:3]]
        assert GAME.notation.read(GAME.notation.write(events), "raise").events == events


class _BonusesAgainstCompletions:
    """Counts actions that took more bonuses than they completed buildings."""

    def __init__(self):
        self.over = 0

    def before(self, state, event):
        if event.type == "action_taken":
            p = state.players[event.payload["player"]]
            self.start = (sum(p.bonuses), sum(p.complete(b) for b in p.board if p.board[b].bonus_on_complete))

    def after(self, step):
        if step.event.type == "action_taken":
            p = step.state.players[step.event.payload["player"]]
            bonuses = sum(p.bonuses) - self.start[0]
            completed = sum(p.complete(b) for b in p.board if p.board[b].bonus_on_complete) - self.start[1]
            self.over += bonuses > completed

    def finish(self, state):
        pass


def test_simulated_games_take_one_bonus_per_completion_under_0_2_0_and_did_not_under_0_1_0():
    from replay.contract import Observer

    counts = {}
    for pack in (OLD, RULES):
        watch = type("Watch", (_BonusesAgainstCompletions, Observer), {})()
        for i in range(100):
            events = simulate_game(f"g{i}", ["A", "B", "C", "D", "E"][: 2 + i % 4], i, ("greedy", "random"), pack)
            replay(GAME, events, GAME.library(extra=[pack]), observers=[watch])
        counts[pack.version] = watch.over
    assert counts["0.2.0"] == 0 and counts["0.1.0"] > 0
