"""Fleet's rules, one rule id at a time: each crafted illegal event refused with its rule id (and
changing nothing), each wrong claim reported; numbers worked by hand from the pack (discounts,
bonus draws, King Crab VP, tie-breaks); hundreds of seeded games clean for 2 to 4 players, with
and without Gone Fishin'; the conformance checks run with the Gone Fishin' pack too.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from replay.contract import Observer
from replay.driver import Replay, replay
from replay.errors import ReplayError, RuleViolation
from replay.events import Event
from replay.games.fleet import GAME, scoring, simulate_game
from replay.games.fleet.pack import FleetPack
from replay.games.fleet.rules import RULES, check, perform
from replay.games.fleet.state import State
from replay.services.audit import audit
from replay.services.logs import Log
from replay.snapshots import restore, take

NAMES = ["Ana", "Ben", "Chloe", "Dev"]
BASE = GAME.pack("fleet-base")
GONE = GAME.pack("fleet-gone-fishin")
PACKS = {"base": BASE, "gone": GONE}
DOC = Path(__file__).parent.parent / "docs" / "games" / "fleet.md"
assert isinstance(BASE, FleetPack) and isinstance(GONE, FleetPack)


def game(seed: int, players: int = 3, pack: FleetPack = BASE) -> list[Event]:
    return simulate_game(f"fleet-t{seed}", NAMES[:players], seed, GAME.bots.default, pack)


def at(events: list[Event], i: int) -> State:
    """The state just before event ``i``."""
    r: Replay[State] = Replay(GAME, level="raise")
    for e in events[:i]:
        r.push(e)
    assert r.state is not None
    return r.state


def refused(events: list[Event], i: int, type_: str | None = None, **payload: Any) -> str:
    """The rule id with which event ``i``, changed, is refused; the state is left as it was."""
    state = at(events, i)
    before = json.dumps(state.data(), sort_keys=True)
    e = events[i]
    changed = e._replace(type=type_ or e.type, payload={**e.payload, **payload} if type_ is None else payload)
    with pytest.raises(RuleViolation) as caught:
        check(state, changed)
    assert json.dumps(state.data(), sort_keys=True) == before
    return caught.value.problem.rule_id


def first(events: list[Event], type_: str, where: Any = None) -> int:
    return next(i for i, e in enumerate(events) if e.type == type_ and (where is None or where(e, at(events, i))))


EVENTS = game(4, 3)


# ----------------------------------------------------------------------------- setup


def test_setup_rules():
    two = game(1, 2)
    i = first(two, "licenses_removed")
    assert len(two[i].payload["licenses"]) == 9  # 6 common + 3 premium
    assert refused(two, i, licenses=two[i].payload["licenses"][1:]) == "fleet.setup-removal"
    j = first(two, "license_deck_shuffled")
    order = two[j].payload["order"]
    assert refused(two, j, order=order[1:]) == "fleet.license-deck"
    premium = next(k for k, x in enumerate(order) if x in ("pub", "crab_fish", "crab_captains", "crab_licenses"))
    assert premium >= 4  # two rounds of two licenses come first
    swapped = list(order)
    swapped[0], swapped[premium] = swapped[premium], swapped[0]
    assert refused(two, j, order=swapped) == "fleet.premium-early"
    k = first(two, "hand_dealt")
    assert refused(two, k, cards=["crab"] * 6) == "fleet.hand"
    s = first(two, "boat_deck_shuffled")
    assert refused(two, s, order=two[s].payload["order"][1:]) == "fleet.boat-deck"
    r = first(two, "round_started")
    assert refused(two, r, first_player=1 - two[r].payload["first_player"]) == "fleet.round"


def test_three_players_remove_two_and_two_and_four_none():
    three, four = game(2, 3), game(2, 4)
    assert len(three[first(three, "licenses_removed")].payload["licenses"]) == 4
    assert four[first(four, "licenses_removed")].payload["licenses"] == []


def test_a_bad_start_is_named():
    e = EVENTS[0]
    with pytest.raises(RuleViolation) as caught:
        GAME.rules.start(e._replace(payload={**e.payload, "first_player": 7}), BASE)
    assert caught.value.problem.rule_id == "fleet.start"
    one = {**e.payload, "seats": e.payload["seats"][:1], "first_player": 0}
    with pytest.raises(RuleViolation):
        GAME.rules.start(e._replace(payload=one), BASE)


# ----------------------------------------------------------------------------- the auction


def test_auction_rules():
    i = first(EVENTS, "auction_opened")
    state = at(EVENTS, i)
    absent = next(x for x in BASE.license if x not in state.row)
    assert refused(EVENTS, i, license=absent) == "fleet.auction-license"
    cost = BASE.license[EVENTS[i].payload["license"]].cost
    assert refused(EVENTS, i, bid=cost - 1) == "fleet.bid-min"
    assert refused(EVENTS, i, bid=999) == "fleet.bid-afford"
    other = (EVENTS[i].payload["seat"] + 1) % 3
    assert refused(EVENTS, i, seat=other) == "fleet.turn-order"
    b = first(EVENTS, "license_bought")
    assert refused(EVENTS, b, paid=[], fish=0) == "fleet.payment"
    assert refused(EVENTS, b, paid=["crab"] * 9) == "fleet.payment-cards"


def test_a_raise_must_beat_the_leading_bid():
    i = first(EVENTS, "bid_raised")
    state = at(EVENTS, i)
    assert state.auction is not None
    assert refused(EVENTS, i, bid=state.auction["bid"]) == "fleet.bid-min"


def test_gone_fishin_card_for_passing_the_auction():
    events = game(3, 4, GONE)
    i = first(events, "auction_passed")
    state = at(events, i)
    seat = events[i].payload["seat"]
    before = state.hand[seat].count("gone_fishin")
    GAME.rules.apply(state, events[i])
    assert state.hand[seat].count("gone_fishin") == before + 1
    base_state = at(game(3, 4), first(game(3, 4), "auction_passed"))
    assert base_state.gone_supply == 0


# ----------------------------------------------------------------------------- a table worked by hand


def table(**fields: Any) -> State:
    """Two seats after setup, with the fields given (a hand-made position)."""
    state = at(game(1, 2), first(game(1, 2), "auction_opened"))
    for k, v in fields.items():
        setattr(state, k, v)
    return state


def event(type_: str, **payload: Any) -> Event:
    return Event("hand", 500, "fleet", type_, 1, payload)


def test_launch_cost_with_the_shrimp_discount_worked_by_hand():
    # Ana owns two Shrimp licenses and a King Crab license: a crab boat costs 3 - 2 = $1.
    state = table(licenses=[["shrimp", "shrimp", "crab_fish"], []], hand=[["crab", "cod", "pub_none"][:2], ["shrimp"]],
                  todo=[["launch", 0]], expect=["launch", 0], launched=[0, 0], processed=[0, 0])
    with pytest.raises(RuleViolation) as caught:
        check(state, event("boat_launched", seat=0, boat="crab", paid=[], fish=0, discount=None))
    assert caught.value.problem.rule_id == "fleet.payment"
    assert caught.value.problem.expected == "$1 ($3 less $2 discount)"
    launch = event("boat_launched", seat=0, boat="crab", paid=["cod"], fish=0, discount=1)
    check(state, launch)
    problems = perform(state, launch)
    assert [p.rule_id for p in problems] == ["fleet.claim-discount"]  # the discount is 2, not 1
    assert state.boats[0] == [["crab", None, 0]] and state.hand[0] == [] and state.discard[-1] == "cod"


def test_a_boat_needs_its_license():
    state = table(licenses=[["cod"], []], hand=[["tuna", "tuna"], []], todo=[["launch", 0]], expect=["launch", 0])
    with pytest.raises(RuleViolation) as caught:
        check(state, event("boat_launched", seat=0, boat="tuna", paid=["tuna"], fish=0, discount=None))
    assert caught.value.problem.rule_id == "fleet.license-owned"


def test_launch_and_hire_limits_and_the_cod_draw():
    # Ana (no Cod) launches one boat: her launching ends; a second launch is over the limit.
    state = table(licenses=[["shrimp"], ["cod"]], hand=[["shrimp", "shrimp"], ["cod", "tuna", "tuna"]],
                  todo=[["hire", 1], ["hire", 0], ["launch", 1], ["launch", 0]], launched=[0, 0], hired=[0, 0], phase="launch")
    from replay.games.fleet.flow import advance

    advance(state)
    launch = event("boat_launched", seat=0, boat="shrimp", paid=[], fish=0, discount=1)
    check(state, launch)
    perform(state, launch)
    assert state.expect == ["launch", 1]
    with pytest.raises(RuleViolation) as caught:
        check(state, event("boat_launched", seat=0, boat="shrimp", paid=[], fish=0, discount=1))
    assert caught.value.problem.rule_id == "fleet.launch-limit"
    # Ben (one Cod license) may launch two; after launching he draws one card.
    one = event("boat_launched", seat=1, boat="cod", paid=["tuna"], fish=0, discount=0)
    check(state, one)
    perform(state, one)
    assert state.expect == ["launch", 1]
    passed = event("step_passed", seat=1, step="launch")
    perform(state, passed)
    assert state.expect[:4] == ["cards_drawn", 1, "cod", 1]
    top = state.deck[:1]
    with pytest.raises(RuleViolation) as caught:
        check(state, event("cards_drawn", seat=1, reason="cod", cards=state.deck[:2]))
    assert caught.value.problem.rule_id == "fleet.cod-draw"
    wrong = [c for c in ("shrimp", "cod") if c != top[0]][:1]
    with pytest.raises(RuleViolation) as caught:
        check(state, event("cards_drawn", seat=1, reason="cod", cards=wrong))
    assert caught.value.problem.rule_id == "fleet.draw"


@pytest.mark.parametrize(("licenses", "captains", "cards"), [
    (0, 5, 0), (1, 1, 1), (1, 3, 1), (1, 4, 2), (2, 1, 1), (2, 2, 1), (2, 3, 2), (2, 6, 2), (2, 7, 3), (3, 8, 3),
])
def test_lobster_draw_table(licenses, captains, cards):
    boats = [["lobster", "cod", 0]] * captains + [["shrimp", None, 0]]
    state = table(licenses=[["lobster"] * licenses, []], boats=[boats, []])
    assert state.lobster_draw(0) == cards


@pytest.mark.parametrize(("licenses", "draw", "keep"), [(0, 2, 1), (1, 2, 2), (2, 3, 2), (3, 3, 3), (4, 4, 3)])
def test_tuna_draw_table(licenses, draw, keep):
    assert table(licenses=[["tuna"] * licenses, []]).tuna(0) == (draw, keep)


def test_king_crab_and_gone_fishin_vp_worked_by_hand():
    # Ana: crab_fish (5), crab_captains (5), crab_licenses (5), shrimp (4), pub (10) = 29 VP of licenses;
    # boats: three crab boats (3 each) captained with 4, 4 and 2 crates = 9 + 10 fish;
    # crab_fish: 10 // 3 = 3; crab_captains: 3; license types: crab, shrimp, pub = 3 -> 4 VP; Gone Fishin' x2 = 4.
    boats = [["crab", "cod", 4], ["crab", "cod", 4], ["crab", "tuna", 2]]
    state = table(licenses=[["crab_fish", "crab_captains", "crab_licenses", "shrimp", "pub"], []], boats=[boats, []],
                  hand=[["gone_fishin", "gone_fishin", "cod"], []])
    assert scoring.vp(state, 0) == {"licenses": 29, "boats": 9, "fish": 10, "crab_captains": 3, "crab_fish": 3,
                                    "crab_licenses": 4, "gone_fishin": 4}
    assert scoring.total(state, 0) == 62


def test_tie_breaks_boats_then_fish():
    state = table(licenses=[["pub"], ["pub"]], boats=[[["shrimp", None, 0]], []], hand=[[], []])
    state.boats[1] = []
    state.licenses[1] = ["pub", "shrimp"]  # 14 VP against 11 + ...
    assert scoring.winners(state) == ([1], "none")
    state.licenses = [["pub"], ["pub"]]
    state.boats = [[["shrimp", None, 0]], [["tuna", None, 0]]]
    state.processed = [0, 0]
    assert scoring.winners(state) == ([0, 1], "shared")
    state.boats = [[["shrimp", None, 0]], [["cod", None, 0]]]  # 11 against 12
    assert scoring.winners(state) == ([1], "none")
    state.licenses = [["pub", "shrimp"], ["pub", "shrimp"]]
    state.boats = [[["shrimp", None, 0], ["shrimp", None, 0]], [["cod", None, 0]]]  # 16 each, two boats beat one
    assert scoring.winners(state) == ([0], "boats")


# ----------------------------------------------------------------------------- phases two to five


def test_captain_rules():
    i = first(EVENTS, "captain_hired")
    seat = EVENTS[i].payload["seat"]
    assert refused(EVENTS, i, boat=99) == "fleet.captain"
    state = at(EVENTS, i)
    absent = next(c for c in ("shrimp", "cod", "lobster", "tuna", "processing", "crab") if c not in state.hand[seat])
    assert refused(EVENTS, i, card=absent) == "fleet.captain"
    assert refused(EVENTS, i, card="gone_fishin") == "fleet.captain"


def test_fishing_capacity_and_processing_and_trading():
    i = first(EVENTS, "fish_caught", lambda e, s: bool(e.payload["boats"]))
    assert refused(EVENTS, i, boats=[]) == "fleet.capacity"
    assert refused(EVENTS, i, boats=[*EVENTS[i].payload["boats"], 50]) == "fleet.capacity"
    p = first(EVENTS, "fish_processed")
    state = at(EVENTS, p)
    empty = [k for k, b in enumerate(state.boats[EVENTS[p].payload["seat"]]) if b[2] == 0]
    if empty:
        assert refused(EVENTS, p, boats=empty[:1]) == "fleet.process"
    assert refused(EVENTS, p, boats=[EVENTS[p].payload["boats"][0]] * 2) == "fleet.process"
    for licenses, processed in (([], 2), (["processing"], 0)):  # no license; a license but no processed crate
        state = table(licenses=[licenses, []], processed=[processed, 0], todo=[["trade", 1]], expect=["trade", 1])
        with pytest.raises(RuleViolation) as caught:
            check(state, event("fish_traded", seat=0))
        assert caught.value.problem.rule_id == "fleet.trade"


def test_capacity_is_four_crates():
    state = table(boats=[[["shrimp", "cod", 4], ["cod", "cod", 3], ["tuna", None, 0]], []])
    from replay.games.fleet.flow import catch

    assert catch(state, 0) == [1]


def test_discard_rules():
    i = first(EVENTS, "cards_discarded", lambda e, s: not s.owned(e.payload["seat"], "tuna"))
    state = at(EVENTS, i)
    seat = EVENTS[i].payload["seat"]
    other = next((c for c in state.hand[seat] if c not in state.just_drawn), None)
    if other is not None:
        assert refused(EVENTS, i, cards=[other]) == "fleet.discard"
    assert refused(EVENTS, i, cards=state.just_drawn[:2]) == "fleet.discard"
    d = first(EVENTS, "cards_drawn", lambda e, s: e.payload["reason"] == "draw")
    assert refused(EVENTS, d, cards=EVENTS[d].payload["cards"][:1]) == "fleet.tuna-draw"


def test_order_and_end_rules():
    i = first(EVENTS, "boat_launched")
    assert refused(EVENTS, i, "fish_traded", seat=EVENTS[i].payload["seat"]) in ("fleet.expected", "fleet.trade")
    assert refused(EVENTS, i, "game_ended", reason="fish", scores=None, winners=None) == "fleet.end"
    end = len(EVENTS) - 1
    reason = EVENTS[end].payload["reason"]
    assert refused(EVENTS, end, reason="fish" if reason == "licenses" else "licenses") == "fleet.end"
    r = replay(GAME, [*EVENTS, EVENTS[5]._replace(seq=len(EVENTS))])
    assert [p.rule_id for p in r.problems] == ["fleet.game-over"]


def test_claims_are_checked_and_the_rules_value_stands():
    end = len(EVENTS) - 1
    scores = [dict(c) for c in EVENTS[end].payload["scores"]]
    scores[1]["total"] += 3
    winners = [w for w in range(3) if w not in EVENTS[end].payload["winners"]][:1]
    bad = EVENTS[end]._replace(payload={**EVENTS[end].payload, "scores": scores, "winners": winners})
    r = replay(GAME, [*EVENTS[:end], bad])
    assert sorted(p.rule_id for p in r.problems) == ["fleet.claim-score", "fleet.claim-winners"]
    assert r.state is not None and r.state.winners == EVENTS[end].payload["winners"]
    b = first(EVENTS, "license_bought")
    price = EVENTS[b].payload["price"]
    r = replay(GAME, [*EVENTS[:b], EVENTS[b]._replace(payload={**EVENTS[b].payload, "price": price + 1}), *EVENTS[b + 1:]])
    assert [p.rule_id for p in r.problems] == ["fleet.claim-price"]


def test_every_rule_id_is_documented():
    text = DOC.read_text()
    assert [r for r in RULES if f"`{r}`" not in text] == []


# ----------------------------------------------------------------------------- many games


@pytest.mark.parametrize("pack", ["base", "gone"])
def test_hundreds_of_seeded_games_are_clean(pack):
    ends = set()
    for seed in range(150):
        players = 2 + seed % 3
        events = game(seed, players, PACKS[pack])
        r = replay(GAME, events, level="raise")
        assert r.state is not None and GAME.rules.is_over(r.state)
        state = r.state
        assert state.places() == {b.boat: b.count for b in BASE.cards.boats}  # every boat card somewhere, once
        assert all(0 <= x[2] <= 4 for bs in state.boats for x in bs)
        ends.add(state.end_reason)
        if pack == "base":
            assert not any("gone_fishin" in h for h in state.hand)
    assert ends == {"licenses", "fish"}


def test_gone_fishin_cards_are_taken_and_scored():
    counted = 0
    for seed in range(20):
        r = replay(GAME, game(seed, 4, GONE))
        assert r.state is not None
        counted += sum(GAME.views.result(r.state).scores[s].categories["gone_fishin"] for s in range(4))
    assert counted > 0


def test_same_seed_same_events_other_seed_other_events():
    assert game(11, 4) == game(11, 4)
    assert game(11, 4) != game(12, 4)
    assert game(11, 4, GONE) != game(11, 4)


def test_simulation_refuses_what_it_cannot_play():
    with pytest.raises(ReplayError):
        simulate_game("x", NAMES[:1] * 5, 1)
    with pytest.raises(ReplayError):
        simulate_game("x", NAMES[:2], 1, ("nobody",))


# ----------------------------------------------------------------------------- conformance, with Gone Fishin'


def test_gone_fishin_games_audit_clean_with_legal_actions_and_lossless_snapshots():
    class Check(Observer):
        checked = 0

        def before(self, state, event):
            action = GAME.rules.action_of(event)
            if action is not None:
                seat = GAME.rules.position(state, event).seat
                assert action in GAME.rules.legal_actions(state, seat), (event.seq, action)
                self.checked += 1

    rng = random.Random(3)
    for seed in range(6):
        events = game(seed, 2 + seed % 3, GONE)
        check_ = Check()
        replay(GAME, events, level="raise", observers=[check_])
        assert check_.checked > 0
        assert audit(Log(events, GAME, "gone")).ok
        cut = rng.randrange(1, len(events))
        r: Replay[State] = Replay(GAME)
        for e in events[:cut]:
            r.push(e)
        assert r.state is not None and r.pack is not None
        snap = take(GAME, r.state, cut - 1, r.pack)
        assert restore(GAME, snap, r.pack) == r.state


def test_gone_fishin_views_hide_hands_and_decks():
    rng = random.Random(1)
    events = game(5, 3, GONE)
    r: Replay[State] = Replay(GAME)
    hidden = 0
    for i, e in enumerate(events):
        r.push(e)
        if i % 11:
            continue
        assert r.state is not None
        for seat in range(3):
            seen = GAME.views.observe(r.state, seat)
            assert isinstance(seen["deck"], int) and isinstance(seen["licenses_deck"], int)
            assert seen["hand"][seat] == r.state.hand[seat]
            for other in range(3):
                if other != seat:
                    assert isinstance(seen["hand"][other], int)
                    assert all(b[1] in (True, False) for b in seen["boats"][other])  # face down: captained or not
            other_state = GAME.views.conceal(r.state, seat, rng)
            if other_state is not None:
                hidden += 1
                assert GAME.views.observe(other_state, seat) == seen
    assert hidden


def test_gone_fishin_mutated_logs_give_problems_never_a_traceback():
    rng = random.Random(8)
    events = game(2, 3, GONE)
    problems = 0
    for _ in range(60):
        broken = list(events)
        i = rng.randrange(1, len(broken))
        how = rng.choice(["drop", "duplicate", "swap"])
        if how == "drop":
            del broken[i]
        elif how == "duplicate":
            broken.insert(i, broken[i])
        elif i + 1 < len(broken):
            broken[i], broken[i + 1] = broken[i + 1], broken[i]
        broken = [e._replace(seq=k) for k, e in enumerate(broken)]
        r = replay(GAME, broken)
        assert not [p for p in r.problems if p.rule_id == "replay.internal"]
        problems += len(r.problems)
        if r.state is not None:
            GAME.views.show(r.state)
    assert problems > 0


def test_a_seed_gives_the_same_game_in_every_process():
    """Nothing depends on string hashing (set order): two processes with other hash seeds agree."""
    import subprocess
    import sys

    code = ("import hashlib, json; from replay.games.fleet import GAME, simulate_game; "
            "ev = simulate_game('x', ['Ana', 'Ben', 'Cy', 'Dee'], 30, ('greedy', 'frugal', 'random'), "
            "GAME.pack('fleet-gone-fishin')); print(hashlib.sha256(json.dumps([e.payload for e in ev]).encode()).hexdigest())")
    digests = set()
    for hash_seed in ("1", "2"):
        env = {**__import__("os").environ, "PYTHONHASHSEED": hash_seed}
        digests.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout)
    assert len(digests) == 1


def options(**changes: Any) -> FleetPack:
    return BASE.model_copy(update={"options": BASE.options.model_copy(update=changes)})


@pytest.mark.parametrize("when", ["after_phase_three", "after_round"])
def test_when_a_license_end_comes(when):
    pack = options(licenses_end=when)
    for seed in range(12):
        events = game(seed, 2 + seed % 2, pack)
        r = replay(GAME, events, GAME.library(extra=[pack]), level="raise")
        assert r.state is not None
        if r.state.end_reason != "licenses":
            continue
        kinds = [e.type for e in events]
        last_fishing = max(i for i, t in enumerate(kinds) if t == "fish_caught")
        after = set(kinds[last_fishing + 1:])
        if when == "after_phase_three":
            assert after == {"game_ended"}
        else:
            assert "cards_drawn" in after  # phases four and five of the last round are played


@pytest.mark.parametrize("stale", ["replace", "keep"])
def test_a_round_without_a_purchase(stale):
    from replay.games.fleet.flow import refill

    state = table(row=["pub", "cod"], licenses_deck=["tuna", "lobster", "shrimp"], bought=0, box=[])
    state.pack = options(stale_auction=stale)
    refill(state)
    if stale == "replace":
        assert (state.row, state.box, state.licenses_deck) == (["tuna", "lobster"], ["pub", "cod"], ["shrimp"])
    else:
        assert (state.row, state.licenses_deck) == (["pub", "cod"], ["tuna", "lobster", "shrimp"])
    short = table(row=["pub"], licenses_deck=[], bought=1, box=[], final=None)
    refill(short)
    assert short.final == "licenses"


def test_legal_actions_both_ways():
    """Every action listed is accepted when played (with a covering payment), and every action a
    recorded event makes is listed (the conformance suite checks the second for the default pack)."""
    from replay.games.fleet.bots import _from_action, decide
    from replay.games.fleet.rules import action_of, legal_actions

    rng = random.Random(4)
    tried = 0
    for seed, pack in ((1, BASE), (2, GONE), (3, BASE)):
        events = game(seed, 2 + seed % 3, pack)
        r: Replay[State] = Replay(GAME, GAME.library(extra=[pack]), level="raise")
        r.push(events[0])
        for e in events[1:]:
            state = r.state
            assert state is not None
            if action_of(e) is not None:
                seat = e.payload["seat"]
                actions = legal_actions(state, seat)
                assert action_of(e) in actions
                assert all(legal_actions(state, other) == [] for other in range(state.n) if other != seat)
                for action in rng.sample(actions, min(6, len(actions))):
                    payload = (decide(state, seat, "greedy", rng) if action.startswith("buy ")
                               else _from_action(state, seat, action, rng))
                    probe = Event(e.game_id, e.seq, "fleet", payload.event_type, 1, payload.model_dump(mode="json"))
                    check(state, probe)  # raises if a listed action is refused
                    assert action_of(probe) == action
                    tried += 1
            r.push(e)
    assert tried > 300
