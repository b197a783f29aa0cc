"""7 Wonders' rules: payments both ways, each rule id on a table set up for it, the powers, scoring."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.driver import Replay, replay
from replay.events import Event
from replay.games.seven_wonders import GAME
from replay.games.seven_wonders.city import payments, production
from replay.games.seven_wonders.legal import legal_plays, play_of
from replay.games.seven_wonders.rules import conflict_tokens, judge
from replay.games.seven_wonders.scoring import science_points, scores
from replay.games.seven_wonders.simulate import deal
from replay.games.seven_wonders.state import CHOOSE, State
from replay.problems import Problem
from replay.services.audit import audit
from replay.services.logs import Log

PACK = GAME.pack()
NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]


def table(wonders: list[str], sides: str = "aaaaaaa", age: int = 1) -> State:
    """A table in the middle of an Age, with no hands dealt: set what a test needs."""
    state = State.new(PACK, NAMES[: len(wonders)], [[w, s] for w, s in zip(wonders, sides)])
    state.age, state.turn, state.phase = age, 1, CHOOSE
    state.hands = [[] for _ in wonders]
    state.chosen = [None] * len(wonders)
    return state


def build(state: State, seat: int, *card_ids: str) -> None:
    for cid in card_ids:
        card = next(c for c in PACK.cards if c.id == cid)
        state.built[seat].append(card.id)
        state.built_age[seat].append(card.age)


def play(card: str, action: str = "build", free: str | None = None, choices=None, left=None, right=None) -> dict:
    return {"card": card, "action": action, "free": free, "choices": choices or {}, "left": left or {}, "right": right or {}}


def rule_of(outcome) -> str | None:
    return outcome.rule_id if isinstance(outcome, Problem) else None


def simulated(seed: int, players: int, bots=("random",)) -> list[Event]:
    return GAME.bots.simulate(f"7w-{seed}", NAMES[:players], seed, bots, PACK)


# ----------------------------------------------------------------------------- payments


def test_own_resources_and_buying_from_the_neighbours():
    state = table(["gizah", "babylon", "olympia"])  # stone, clay, wood; Ana's left is Ben, right is Chloe
    state.hands[0] = ["baths", "stockade", "clay_pool"]
    assert judge(state, 0, play("baths")) == (0, 0)  # one stone: Gizah's own
    assert rule_of(judge(state, 0, play("stockade"))) == "7w.pay.resources"  # a wood, not bought
    assert judge(state, 0, play("stockade", right={"wood": 1})) == (0, 2)  # Olympia (right) sells wood at 2
    assert rule_of(judge(state, 0, play("stockade", left={"wood": 1}))) == "7w.pay.neighbour"  # Babylon has none
    state.coins[0] = 1
    assert rule_of(judge(state, 0, play("stockade", right={"wood": 1}))) == "7w.pay.coins"


def test_trading_posts_lower_the_price_on_their_side_only():
    state = table(["gizah", "babylon", "olympia"])
    build(state, 0, "east_trading_post")  # raw materials from the right at 1
    assert judge(state, 0, play("stockade", right={"wood": 1})) == (0, 1)
    build(state, 1, "lumber_yard")
    assert judge(state, 0, play("stockade", left={"wood": 1})) == (2, 0)


def test_choice_cards_give_one_resource_and_yellow_ones_are_not_for_sale():
    state = table(["gizah", "babylon", "olympia"])
    build(state, 0, "tree_farm")  # wood or clay
    assert rule_of(judge(state, 0, play("stockade"))) == "7w.pay.resources"  # not declared: not used
    assert judge(state, 0, play("stockade", choices={"tree_farm": "wood"})) == (0, 0)
    assert rule_of(judge(state, 0, play("stockade", choices={"tree_farm": "ore"}))) == "7w.pay.choice"
    assert rule_of(judge(state, 0, play("stockade", choices={"marketplace": "wood"}))) == "7w.pay.choice"
    build(state, 1, "caravansery")  # any raw material, for its owner only
    assert rule_of(judge(state, 2, play("stockade", right={"ore": 1}))) == "7w.pay.neighbour"


def test_structures_chains_stages_and_olympia_s_power():
    state = table(["olympia", "babylon", "gizah"])
    build(state, 0, "baths")
    assert rule_of(judge(state, 0, play("baths"))) == "7w.build.duplicate"
    state.age = 2
    assert judge(state, 0, play("aqueduct", free="chain")) == (0, 0)
    assert rule_of(judge(state, 1, play("aqueduct", free="chain"))) == "7w.chain"
    assert rule_of(judge(state, 0, play("aqueduct", free="power"))) == "7w.power"  # stage 2 not built
    state.stages[0] = 2
    assert judge(state, 0, play("aqueduct", free="power")) == (0, 0)
    state.power_used[0] = 2
    assert rule_of(judge(state, 0, play("aqueduct", free="power"))) == "7w.power"  # once per Age
    state.stages[0] = 3
    assert rule_of(judge(state, 0, play("aqueduct", "wonder"))) == "7w.wonder.stage"
    assert rule_of(judge(state, 0, play("aqueduct", "discard", left={"wood": 1}))) == "7w.pay.free"


def test_every_listed_payment_is_accepted_and_every_minimal_accepted_one_is_listed():
    rng = random.Random(4)
    checked = 0
    for seed in range(6):
        events = simulated(seed, 3 + seed % 5)
        r = Replay(GAME)
        for e in events:
            state = r.state
            if state is not None and state.phase == CHOOSE and e.type == "card_played" and rng.random() < 0.3:
                seat = e.payload["seat"]
                for p in legal_plays(state, seat):
                    fields = dict(zip(("card", "action", "free"), p[:3]), choices=dict(p[3]), left=dict(p[4]), right=dict(p[5]))
                    assert not isinstance(judge(state, seat, fields), Problem), p
                    checked += 1
                _random_payments_are_listed(state, seat, rng)
            r.push(e)
    assert checked > 500


def _random_payments_are_listed(state: State, seat: int, rng: random.Random) -> None:
    """Whatever purchase the rules accept, a listed payment costs no more: the listing (own resources
    first, then every split between the neighbours) never misses a cheaper way to pay."""
    own = production(state, seat)
    for card_id in set(state.hands[seat]):
        card = PACK.card(state.age, card_id)
        listed = payments(state, seat, card.cost)
        for _ in range(20):
            choices = {src: rng.choice(options) for src, options in own.choices if rng.random() < 0.7}
            resources = list(card.cost.resources)
            left = Counter(rng.choice(resources) for _ in range(rng.randrange(3))) if resources else Counter()
            right = Counter(rng.choice(resources) for _ in range(rng.randrange(3))) if resources else Counter()
            outcome = judge(state, seat, play(card_id, choices=choices, left=dict(left), right=dict(right)))
            if card_id in state.built[seat] or isinstance(outcome, Problem):
                continue
            coins = card.cost.coins + sum(outcome)
            assert listed and min(p.coins for p in listed) <= coins, (card_id, choices, left, right, listed)


# ----------------------------------------------------------------------------- a turn


def test_hands_pass_left_in_age_one_and_coins_arrive_at_the_end_of_the_turn():
    events = simulated(3, 4)
    r = Replay(GAME)
    r.run(events[:2])  # the start and the deal
    state = r.state
    hands = [list(h) for h in state.hands]
    turn = [e for e in events[2:] if e.type == "card_played"][:4]
    coins_before = list(state.coins)
    r.run(turn)
    played = {e.payload["seat"]: e.payload["card"] for e in turn}
    for seat in range(4):
        rest = list(hands[seat])
        rest.remove(played[seat])
        assert sorted(state.hands[(seat + 1) % 4]) == sorted(rest)  # passed to the left neighbour
    assert sum(state.coins) >= sum(coins_before) - sum(PACK.card(1, c).cost.coins for c in played.values())


def test_a_wrong_deal_is_refused():
    events = simulated(5, 3)
    bad = dict(events[1].payload)
    hands = [list(h) for h in bad["hands"]]
    hands[0][0] = "scientists_guild"
    r = Replay(GAME)
    r.push(events[0])
    step = r.push(events[1]._replace(payload={**bad, "hands": hands}))
    assert [p.rule_id for p in step.problems] == ["7w.deal"]


def test_a_deal_is_every_card_of_the_age_for_the_table():
    for players in range(3, 8):
        for age in (1, 2, 3):
            hands = deal(PACK, age, players, random.Random(age))
            assert all(len(h) == 7 for h in hands) and len(hands) == players
            guilds = [c for h in hands for c in h if c.endswith("_guild")]
            assert len(guilds) == (players + 2 if age == 3 else 0) and len(set(guilds)) == len(guilds)


# ----------------------------------------------------------------------------- powers


def _games_with(effect: str, players: int = 3, tries: int = 60):
    for seed in range(tries):
        events = simulated(seed, players, ("random",))
        r = replay(GAME, events, level="raise")
        if any(r.state.has_power(s, effect) for s in range(players)):
            yield events, r


def test_halicarnassus_builds_from_the_discard_pile():
    found = 0
    for events, _ in _games_with("build_from_discard"):
        built = [e for e in events if e.type == "discard_built"]
        for e in built:
            found += 1
            assert e.payload["card"] is None or isinstance(e.payload["card"], str)
        if found >= 3:
            break
    assert found >= 1
    events = next(e for e, _ in _games_with("build_from_discard") if any(x.type == "discard_built" and x.payload["card"]
                                                                          for x in e))
    i = next(i for i, x in enumerate(events) if x.type == "discard_built" and x.payload["card"])
    r = Replay(GAME)
    r.run(events[:i])
    wrong = events[i]._replace(payload={**events[i].payload, "card": "no_such_card"})
    assert [p.rule_id for p in r.push(wrong).problems] == ["7w.discard-built"]


def test_babylon_b_plays_its_seventh_card():
    for events, r in _games_with("play_last_card"):
        seat = next(s for s in range(r.state.n) if r.state.has_power(s, "play_last_card"))
        sevenths = [e for e in events if e.type == "card_played" and e.payload["turn"] == 7]
        assert sevenths and all(e.payload["seat"] == seat for e in sevenths)
        return
    pytest.fail("no simulated game gave Babylon B its second stage")


# ----------------------------------------------------------------------------- scoring


@pytest.mark.parametrize("counts,wild,points", [
    ([1, 1, 1], 0, 10), ([2, 1, 0], 1, 13), ([0, 0, 0], 1, 1), ([3, 0, 0], 0, 9), ([2, 2, 2], 2, 38),
])
def test_science_squares_plus_sets_with_wild_symbols_to_the_best(counts, wild, points):
    assert science_points(counts, wild, 7) == points


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=3, max_size=3), st.integers(0, 2))
def test_a_wild_symbol_never_scores_less_than_none(counts, wild):
    assert science_points(counts, wild, 7) >= science_points(counts, 0, 7)
    assert science_points(counts, wild, 7) == max(
        science_points([counts[0] + a, counts[1] + b, counts[2] + wild - a - b], 0, 7)
        for a in range(wild + 1) for b in range(wild + 1 - a))


def test_conflicts_give_victory_and_defeat_tokens_by_age():
    state = table(["gizah", "babylon", "olympia", "rhodes"], age=2)
    build(state, 0, "stockade", "barracks")   # 2 shields
    build(state, 1, "guard_tower")            # 1
    # Chloe and Dev none (Rhodes' shields are on its second stage). Each seat meets its left, then its right.
    assert conflict_tokens(state) == [[3, 3], [3, -1], [-1], [-1]]


def test_final_scores_are_what_the_game_ends_with_and_a_wrong_claim_is_found():
    events = simulated(8, 5, ("science", "military", "civilian", "random"))
    r = replay(GAME, events, level="raise")
    final = scores(r.state)
    claims = events[-1].payload["scores"]
    assert [c["total"] for c in claims] == [s["total"] for s in final]
    assert all(s["total"] == sum(s[c] for c in ("military", "treasury", "wonder", "civilian", "commercial", "guilds",
                                                 "science")) for s in final)
    changed = [dict(c) for c in claims]
    changed[1]["science"] = (changed[1]["science"] or 0) + 3
    bad = [*events[:-1], events[-1]._replace(payload={"scores": changed})]
    report = audit(Log(bad, GAME, "bad"))
    assert [p.rule_id for p in report.problems] == ["7w.claim.score"]


def test_every_recorded_play_is_listed_for_every_bot():
    for seed, bots in enumerate([("random",), ("science",), ("military", "civilian")]):
        events = simulated(20 + seed, 3 + seed * 2, bots)
        r = Replay(GAME, level="raise")
        for e in events:
            if e.type in ("card_played", "discard_built"):
                assert play_of(e) in legal_plays(r.state, e.payload["seat"])
            r.push(e)
