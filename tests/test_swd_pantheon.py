"""7 Wonders Duel's Pantheon expansion: seeded games under the pantheon pack replay clean (strict,
trusted and from snapshots alike), every recorded choice was a legal play and every legal play is
accepted, each ``swd.pantheon.*`` rule refuses a crafted illegal event, and the rules that
simulated games rarely settle (prices, the Gate, Minerva, Poliorcetics, Astarte, the Grand
Temples, Zeus on a face-down card) on tables set up for them."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from helpers import refused_by

from replay.driver import Replay, replay
from replay.events import Event
from replay.games.seven_wonders_duel import GAME, simulate_game
from replay.games.seven_wonders_duel.legal import legal_plays, play_of
from replay.games.seven_wonders_duel.pack import MYTHOLOGIES
from replay.games.seven_wonders_duel.pantheon import activation_cost, divinities
from replay.games.seven_wonders_duel.pantheon_play import payload as pantheon_payload
from replay.games.seven_wonders_duel.pantheon_powers import options as power_options
from replay.games.seven_wonders_duel.rules import RULES, claims_of
from replay.games.seven_wonders_duel.scoring import scores
from replay.games.seven_wonders_duel.state import PENDING, PLAY, State
from replay.problems import Problem
from replay.services.audit import audit
from replay.services.logs import Log
from replay.snapshots import restore, take

PACK = GAME.pack("7wd-duel-pantheon")
NAMES = ["Ana", "Ben"]
BOTS = (("random",), ("military", "science"))
seen_rules: set[str] = set()


@cache
def game(seed: int, bots: tuple[str, ...] = ("random",)) -> list[Event]:
    return simulate_game(f"pantheon-{seed}", NAMES, seed, bots, PACK)


def copy(state: State) -> State:
    return State.of_data(state.data(), state.pack)


def tables(events: list[Event]) -> list[tuple[State, Event]]:
    """Each event after the start with (a copy of) the table it was applied to."""
    key = id(events)
    if key not in _TABLES:
        _TABLES[key] = (events, _tables(events))
    return _TABLES[key][1]


_TABLES: dict[int, tuple[list[Event], list[tuple[State, Event]]]] = {}


def _tables(events: list[Event]) -> list[tuple[State, Event]]:
    r = Replay(GAME)
    r.push(events[0])
    out = []
    for e in events[1:]:
        assert r.state is not None
        out.append((copy(r.state), e))
        r.push(e)
    return out


def refused(state: State, e: Event) -> str:
    """The rule id an event is refused by (the table unchanged)."""
    return refused_by(GAME, state, e, seen_rules)


def first(seeds: range, test: Any) -> tuple[State, Event]:
    """The first (table, event) of the simulated games for which ``test`` holds."""
    for seed in seeds:
        for bots in BOTS:
            for state, e in tables(game(seed, bots)):
                if test(state, e):
                    return copy(state), e
    raise AssertionError("no simulated game has it")


def with_payload(e: Event, **changes: Any) -> Event:
    return e._replace(payload={**e.payload, **changes})


# ----------------------------------------------------------------------------- whole games


def test_the_pantheon_pack_plays():
    assert replay(GAME, game(0), level="raise").state.pantheon is not None


def test_hundreds_of_seeded_games_replay_clean_and_use_every_divinity():
    used: set[str] = set()
    via: set[str] = set()
    temples = 0
    for seed in range(100):
        for bots in BOTS:
            events = game(seed, bots)
            r = replay(GAME, events)
            assert not r.problems, (seed, bots, [str(p) for p in r.problems])
            assert GAME.rules.is_over(r.state)
            pan = r.state.pantheon
            assert pan is not None
            used |= {a["divinity"] for seat in (0, 1) for a in pan["activated"][seat]}
            via |= {a["via"] for seat in (0, 1) for a in pan["activated"][seat]}
            temples += sum(1 for seat in (0, 1) for c in r.state.cards(seat) if c.kind == "grand_temple")
            assert simulate_game(f"pantheon-{seed}", NAMES, seed, bots, PACK) == events if seed < 3 else True
    assert used == set(divinities(PACK)), set(divinities(PACK)) - used
    assert via == {"pantheon", "gate", "theater"} and temples > 0


def test_the_strategy_bots_activate_divinities():
    activations = sum(1 for seed in range(10) for e in game(seed, ("military", "science")) if e.type == "divinity_activated")
    assert activations >= 10


def test_an_audit_is_clean_and_a_wrong_price_is_one_problem():
    events = game(4)
    assert audit(Log(events, GAME, "simulated")).ok
    i = next(i for i, e in enumerate(events) if e.type == "divinity_activated")
    altered = [*events[:i], with_payload(events[i], paid=events[i].payload["paid"] + 1), *events[i + 1:]]
    r = replay(GAME, altered)
    assert [(p.rule_id, p.seq) for p in r.problems] == [("swd.claim.paid", events[i].seq)]


def test_strict_and_trusted_replays_give_identical_states():
    for seed in range(6):
        events = game(seed, BOTS[seed % 2])
        strict, trusted = Replay(GAME), Replay(GAME)
        strict.push(events[0])
        trusted.push(events[0])
        for e in events[1:]:
            strict.push(e)
            trusted.push_trusted(e)
            assert GAME.views.state_hash(strict.state) == GAME.views.state_hash(trusted.state), (seed, e.seq)
        assert strict.state == trusted.state


def test_snapshots_round_trip_and_replay_on_identically():
    for seed in range(4):
        events = game(seed)
        straight = [GAME.views.state_hash(s) for s in _states(events)]
        for at in range(5, len(events) - 1, 37):
            r = Replay(GAME)
            for e in events[: at + 1]:
                r.push(e)
            snap = take(GAME, r.state, at, r.pack)
            json.dumps(snap.state)
            restored = restore(GAME, snap, r.pack)
            assert restored == r.state and GAME.rules.snapshot(restored) == snap.state
            go_on = Replay.resume(GAME, r.pack, restored, at, r.names)
            for k, e in enumerate(events[at + 1:]):
                go_on.push(e)
                assert GAME.views.state_hash(go_on.state) == straight[at + 1 + k]
            assert not go_on.problems


def _states(events: list[Event]) -> list[State]:
    r = Replay(GAME)
    out = []
    for e in events:
        r.push(e)
        assert r.state is not None
        out.append(copy(r.state))
    return out


def test_every_recorded_choice_was_legal_and_every_legal_pantheon_play_is_accepted():
    checked = accepted = 0
    for seed in range(3):
        for state, e in tables(game(seed, BOTS[seed % 2])):
            action = GAME.rules.action_of(e)
            if action is None:
                continue
            seat = GAME.rules.position(state, e).seat
            assert seat is not None
            plays = legal_plays(state, seat)
            assert action in plays, (seed, e.seq, action)
            checked += 1
            for p in plays:
                if p[0] in ("divinity_activated", "divinity_chosen", "divinity_power") or \
                        (p[0] == "card_played" and p[5] == "engineering"):
                    trial = copy(state)
                    payload = _payload(trial, seat, p)
                    made = Event.create(GAME.kind, "t", e.seq, payload)
                    assert not [x for x in GAME.rules.apply(trial, made)], (seed, e.seq, p)
                    assert play_of(made) == p
                    accepted += 1
    assert checked > 200 and accepted > 100


def _payload(state: State, seat: int, p: tuple[Any, ...]) -> Any:
    from replay.games.seven_wonders_duel import events as ev
    from replay.games.seven_wonders_duel.legal import payload_of

    if p[0] == "card_played":
        payload = payload_of(state, seat, p)
        return ev.CardPlayed.model_validate({**payload, **claims_of(state, payload)})
    return pantheon_payload(state, seat, p)


def test_the_conformance_checks_hold_for_the_pantheon_pack():
    """What tests/conformance checks for the default pack, on this one: the page shows every step
    (of a game and of a damaged copy), mutated logs give problems never a traceback (nor a bug of
    the rules), the disputed claim is one problem, every view works."""
    import random

    from conformance.test_conformance import _mutate

    from replay.services.page import ALL, page_data, page_state

    events = game(2)
    for log in (events, _mutate(events, random.Random(9), GAME)):
        version = page_data([Log(log, GAME, "page")])["versions"][0]
        json.dumps(version["board"])
        assert "pantheon" in version["board"]
        r = Replay(GAME)
        for i, e in enumerate(log):
            r.push(e)
            assert r.state is not None
            assert page_state(version, ALL, i) == GAME.views.data(r.state), f"event {i}"
            assert GAME.views.headline(e, NAMES)
        assert "Pantheon" in GAME.views.show(r.state)
    rng = random.Random(2026)
    problems = 0
    for n in range(80):
        broken = _mutate(game(n % 8, BOTS[n % 2]), rng, GAME)
        r = replay(GAME, broken)
        assert r.index == len(broken) - 1
        assert not [p for p in r.problems if p.rule_id == "replay.internal"], (n, r.problems[:3])
        problems += len(r.problems)
        if r.state is not None:
            json.dumps(GAME.views.data(r.state))
            GAME.views.show(r.state)
    assert problems > 0
    dispute = GAME.views.dispute(events)
    assert dispute is not None
    i, payload, _ = dispute
    report = audit(Log([*events[:i], events[i]._replace(payload=payload), *events[i + 1:]], GAME, "disputed"))
    assert [p.seq for p in report.problems] == [events[i].seq]


# ----------------------------------------------------------------------------- each rule refuses


def test_tokens_must_lie_on_the_age_s_slots_and_come_from_the_box():
    state, e = first(range(1), lambda s, e: e.type == "pantheon_tokens_placed" and e.payload["age"] == 1)
    slots = sorted(e.payload["tokens"])
    assert refused(copy(state), with_payload(e, tokens={**e.payload["tokens"], slots[0]: "offering_2"})) == \
        "swd.pantheon.tokens"
    three = dict.fromkeys(slots, "greek")
    assert refused(copy(state), with_payload(e, tokens=three)) == "swd.pantheon.tokens"  # only 2 Greek tokens
    moved = {("r5c5" if s == slots[0] else s): t for s, t in e.payload["tokens"].items()}
    assert refused(copy(state), with_payload(e, tokens=moved)) == "swd.pantheon.tokens"


def test_a_mythology_token_draws_two_of_its_deck_top_first():
    state, e = first(range(5), lambda s, e: e.type == "divinities_drawn" and e.payload["mythology"])
    mythology = e.payload["mythology"]
    other = next(d.id for d in divinities(PACK).values() if d.mythology not in (mythology, "gate"))
    assert refused(copy(state), with_payload(e, divinities=[e.payload["divinities"][0], other])) == "swd.pantheon.draw"
    assert refused(copy(state), with_payload(e, divinities=e.payload["divinities"][:1])) == "swd.pantheon.draw"
    # a Divinity put back on top is drawn first: the same draw, with another one known to be on top
    deck = state.pantheon["decks"][mythology]
    assert len(deck) == 3 and not state.pantheon["tops"][mythology]
    state.pantheon["tops"][mythology] = [next(d for d in deck if d not in e.payload["divinities"])]
    assert refused(copy(state), e) == "swd.pantheon.draw"


def test_the_gate_turns_up_one_of_each_deck_and_activates_one_of_them():
    state, e = first(range(40), lambda s, e: e.type == "divinities_drawn" and e.payload["mythology"] is None)
    assert refused(copy(state), with_payload(e, divinities=e.payload["divinities"][1:])) == "swd.pantheon.draw"
    assert refused(copy(state), with_payload(e, mythology="greek")) == "swd.pantheon.draw"
    state, e = first(range(40), lambda s, e: e.type == "divinity_chosen" and s.queue[0][0] == "gate")
    outside = next(d for d in divinities(PACK) if d not in state.pantheon["drawn"])
    assert refused(copy(state), with_payload(e, divinity=outside)) == "swd.pantheon.gate"
    assert refused(copy(state), with_payload(e, space=0)) == "swd.pantheon.gate"
    after = copy(state)
    GAME.rules.apply(after, e)
    chosen = e.payload["divinity"]
    assert after.pantheon["activated"][e.payload["seat"]][-1] == {"divinity": chosen, "age": state.age, "via": "gate",
                                                                   "paid": 0}
    for d in state.pantheon["drawn"]:
        if d != chosen:  # the others back on top of their decks
            assert after.pantheon["tops"][divinities(PACK)[d].mythology][0] == d


def test_a_drawn_divinity_goes_face_down_into_an_empty_space():
    state, e = first(range(5), lambda s, e: e.type == "divinity_chosen" and s.queue[0][0] == "place"
                     and any(sp is not None for sp in s.pantheon["spaces"]))
    taken = next(i for i, sp in enumerate(state.pantheon["spaces"]) if sp is not None)
    assert refused(copy(state), with_payload(e, space=taken)) == "swd.pantheon.place"
    outside = next(d for d in divinities(PACK) if d not in state.pantheon["drawn"])
    assert refused(copy(state), with_payload(e, divinity=outside)) == "swd.pantheon.place"
    assert refused(copy(state), with_payload(e, space=None)) == "swd.pantheon.place"
    after = copy(state)
    GAME.rules.apply(after, e)
    assert after.pantheon["spaces"][e.payload["space"]] == {"divinity": e.payload["divinity"], "face_up": False,
                                                           "by": e.payload["seat"]}


def test_activation_comes_from_age_two_instead_of_a_card_and_from_a_face_up_space():
    state, e = first(range(1), lambda s, e: e.type == "card_played" and e.payload["age"] == 1 and s.turn > 10)
    face_down = next(sp["divinity"] for sp in state.pantheon["spaces"] if sp is not None)
    activation = Event.create(GAME.kind, e.game_id, e.seq, _activation(e.payload["seat"], 1, face_down))
    assert refused(copy(state), activation) == "swd.pantheon.activate"
    state, e = first(range(5), lambda s, e: e.type == "divinity_activated")
    gone = next(d for d in divinities(PACK) if not any(sp and sp["divinity"] == d for sp in state.pantheon["spaces"]))
    assert refused(copy(state), with_payload(e, divinity=gone)) == "swd.pantheon.activate"
    assert refused(copy(state), with_payload(e, age=state.age + 1 if state.age < 3 else 2)) == "swd.pantheon.activate"
    other = with_payload(e, seat=1 - e.payload["seat"])
    assert refused(copy(state), other) == "swd.expected"  # not that player's turn


def _activation(seat: int, age: int, divinity: str, offerings: list[int] | None = None, paid: int | None = None) -> Any:
    from replay.games.seven_wonders_duel.pantheon_events import DivinityActivated

    return DivinityActivated(seat=seat, age=age, divinity=divinity, offerings=offerings or [], paid=paid)


def test_offerings_discarded_are_the_player_s_own_and_lower_the_price():
    state, e = first(range(40), lambda s, e: e.type == "divinity_activated" and e.payload["offerings"])
    seat = e.payload["seat"]
    assert refused(copy(state), with_payload(e, offerings=[*e.payload["offerings"], 9])) == "swd.pantheon.offering"
    space = next(i for i, sp in enumerate(state.pantheon["spaces"]) if sp and sp["divinity"] == e.payload["divinity"])
    full = activation_cost(state, seat, space, [])
    assert e.payload["paid"] == max(0, full - sum(e.payload["offerings"]))
    after = copy(state)
    GAME.rules.apply(after, e)
    assert len(after.pantheon["offerings"][seat]) == len(state.pantheon["offerings"][seat]) - len(e.payload["offerings"])


def test_the_price_is_the_space_s_for_the_seat_the_gate_s_double_and_the_coins_must_be_there():
    state = _age_two_table()
    costs = PACK.pantheon.board.space_costs
    gate = next(i for i, sp in enumerate(state.pantheon["spaces"]) if sp["divinity"] == "gate")
    other = next(i for i, sp in enumerate(state.pantheon["spaces"]) if sp["divinity"] != "gate")
    first_seat, second = state.first, 1 - state.first
    assert activation_cost(state, first_seat, other, []) == costs[other][0]
    assert activation_cost(state, second, other, []) == costs[other][1]
    assert activation_cost(state, first_seat, gate, []) == 2 * costs[gate][0]
    assert activation_cost(state, first_seat, other, [2, 3]) == max(0, costs[other][0] - 5)
    seat = state.player
    state.coins[seat] = activation_cost(state, seat, other, []) - 1
    divinity = state.pantheon["spaces"][other]["divinity"]
    assert refused(copy(state), Event.create(GAME.kind, "t", 1, _activation(seat, state.age, divinity))) == "swd.pantheon.cost"
    state.pantheon["reserve"][seat] = 1  # Astarte's coins count
    GAME.rules.apply(state, Event.create(GAME.kind, "t", 1, _activation(seat, state.age, divinity)))
    assert state.coins[seat] == 0 and state.pantheon["reserve"][seat] == 0
    assert state.pantheon["activated"][seat][-1]["via"] == "pantheon"


def _age_two_table() -> State:
    """The table at Age II's first turn (the Divinities turned up, the Gate placed)."""
    for seed in range(10):
        for state, _e in tables(game(seed)):
            if state.phase == PLAY and state.age == 2 and not state.taken:
                assert all(sp is not None and sp["face_up"] for sp in state.pantheon["spaces"])
                assert sum(1 for sp in state.pantheon["spaces"] if sp["divinity"] == "gate") == 1
                return copy(state)
    raise AssertionError("no Age II")


def test_the_sanctuary_lowers_the_price():
    state = _age_two_table()
    seat = state.player
    space = next(i for i, sp in enumerate(state.pantheon["spaces"]) if sp["divinity"] != "gate")
    before = activation_cost(state, seat, space, [])
    state.wonders[seat].append("sanctuary")
    state.built_wonders[seat].append("sanctuary")
    state.under[seat].append("lumber_yard")
    assert activation_cost(state, seat, space, []) == max(0, before - 2)


def test_the_divine_theater_takes_a_divinity_still_in_a_deck():
    state, e = first(range(60), lambda s, e: e.type == "divinity_chosen" and s.queue[0][0] == "theater")
    placed = next(sp["divinity"] for sp in state.pantheon["spaces"] if sp is not None and sp["divinity"] != "gate") \
        if any(sp is not None and sp["divinity"] != "gate" for sp in state.pantheon["spaces"]) else "gate"
    assert refused(copy(state), with_payload(e, divinity=placed)) == "swd.pantheon.theater"
    assert refused(copy(state), with_payload(e, space=2)) == "swd.pantheon.theater"


def test_enki_s_tokens_are_of_those_set_aside_and_one_is_taken():
    state, e = first(range(40), lambda s, e: e.type == "enki_drawn")
    assert refused(copy(state), with_payload(e, tokens=[state.board_tokens[0], e.payload["tokens"][-1]]
                                              if state.board_tokens else [e.payload["tokens"][0]] * 2)) == "swd.pantheon.enki"
    state, e = first(range(40), lambda s, e: e.type == "divinity_power" and e.payload["divinity"] == "enki"
                     and e.payload.get("token"))
    kept = e.payload["token"]
    other = next(t for t in state.pantheon["enki"] if t != kept) if len(state.pantheon["enki"]) > 1 else None
    assert refused(copy(state), with_payload(e, token="law" if "law" not in state.pantheon["enki"] else "urbanism")) == \
        "swd.pantheon.power"
    after = copy(state)
    GAME.rules.apply(after, e)
    assert kept in after.tokens[e.payload["seat"]] and after.pantheon["enki"] == []
    if other:
        assert other not in after.seen_tokens  # back in the box


def test_each_power_is_used_on_what_its_text_allows():
    found: set[str] = set()
    for divinity, bad in (("nisaba", {"card": "lumber_yard"}), ("baal", {"card": "scriptorium"}),
                          ("zeus", {"slot": "r9c9"}), ("anubis", {"wonder": "not_a_wonder"}),
                          ("isis", {"card": "x", "wonder": "pyramids"}), ("ra", {"wonder": "not_a_wonder"}),
                          ("minerva", {"space": 20}), ("neptune", {"discarded": "0:nothing"})):
        try:
            state, e = first(range(60), lambda s, e, d=divinity: e.type == "divinity_power" and e.payload["divinity"] == d)
        except AssertionError:
            continue
        bad_event = e._replace(payload={"seat": e.payload["seat"], "divinity": divinity, **bad})
        assert refused(copy(state), bad_event) == "swd.pantheon.power", divinity
        if power_options(state, e.payload["seat"], divinity) != [{}]:
            nothing = e._replace(payload={"seat": e.payload["seat"], "divinity": divinity})
            assert refused(copy(state), nothing) == "swd.pantheon.power", divinity
        found.add(divinity)
    assert len(found) >= 7, found


def test_engineering_builds_a_card_with_a_chain_link_for_one_coin():
    state, e = first(range(60), lambda s, e: e.type == "card_played" and e.payload.get("free") == "engineering")
    seat = e.payload["seat"]
    assert e.payload["paid"] == 1
    without = copy(state)
    without.tokens[seat].remove("engineering")
    assert refused(without, e) == "swd.pantheon.engineering"
    state2, e2 = first(range(3), lambda s, e: e.type == "card_played" and s.card(e.payload["card"]).chain_from is None)
    state2.tokens[e2.payload["seat"]].append("engineering")
    no_link = with_payload(e2, action="construct", free="engineering", choices={}, discount={}, bought={}, wonder=None)
    assert refused(state2, no_link) == "swd.pantheon.engineering"


# ----------------------------------------------------------------------------- rules on tables set up for them


def test_minerva_stops_the_pawn_before_her_space_once_and_poliorcetics_takes_a_coin_a_space():
    from replay.games.seven_wonders_duel.rules import military

    state = _age_two_table()
    state.pawn, state.pantheon["minerva"] = 0, 3
    military(state, 0, 5)
    assert state.pawn == 2 and state.pantheon["minerva"] is None
    military(state, 0, 2)
    assert state.pawn == 4
    state.pantheon["minerva"] = -1  # behind the pawn's way: no effect
    military(state, 0, 1)
    assert state.pawn == 5 and state.pantheon["minerva"] == -1
    coins = state.coins[0]
    state.tokens[1].append("poliorcetics")
    state.loot = [[], []]
    military(state, 1, 3)
    assert state.pawn == 2 and state.coins[0] == max(0, coins - 3)


def test_astarte_s_coins_are_safe_spendable_and_worth_a_point_each():
    state = _age_two_table()
    seat = state.player
    state.pantheon["activated"][seat].append({"divinity": "astarte", "age": 2, "via": "pantheon", "paid": 0})
    state.pantheon["reserve"][seat] = 7
    before = scores(state)[seat]["pantheon"]
    assert before == 7 and state.spendable(seat) == state.coins[seat] + 7
    state.pantheon["reserve"][seat] = 3
    assert scores(state)[seat]["pantheon"] == 3


def test_the_pack_option_astarte_coins_says_which_coins_pay_first():
    """7 coins on Astarte, 3 in the treasury, 5 to pay: the treasury's 3 then 2 of Astarte's (the
    default), or 5 of Astarte's (``astarte_first``); either way 5 leave the seat."""
    from replay.games.seven_wonders_duel.pantheon import spend

    first = PACK.model_copy(update={"options": PACK.options.model_copy(update={"astarte_coins": "astarte_first"})})
    assert PACK.options.astarte_coins == "treasury_first" and first.content_hash != PACK.content_hash
    for pack, after in ((PACK, (0, 5)), (first, (3, 2))):
        state = _age_two_table()
        state.pack = pack
        seat = state.player
        state.coins[seat], state.pantheon["reserve"][seat] = 3, 7
        spend(state, seat, 5)
        assert (state.coins[seat], state.pantheon["reserve"][seat]) == after, pack.options.astarte_coins
        spend(state, seat, 5)  # what is left of the other
        assert (state.coins[seat], state.pantheon["reserve"][seat]) == (0, 0)
    for seed in range(4):
        events = simulate_game(f"astarte-first-{seed}", NAMES, seed, ("random",), first)
        assert not replay(GAME, events, GAME.library(extra=[first])).problems


def test_grand_temples_score_by_how_many_are_built_and_chain_from_the_mythology_token():
    from replay.games.seven_wonders_duel.rules import judge

    state = _age_two_table()
    seat = 0
    vp = PACK.pantheon.components.grand_temple_vp
    temples = [t.id for t in PACK.pantheon.grand_temples]
    for n in range(4):
        state.built[seat] = temples[:n]
        assert scores(state)[seat]["pantheon"] == (vp[n - 1] if n else 0)
    state.built[seat] = []
    greek = "greek_grand_temple"
    free = {"seat": seat, "slot": "r1c1", "card": greek, "action": "construct", "free": "chain"}
    assert isinstance(judge(state, seat, free), Problem)
    state.pantheon["mythology"][seat].append("greek")
    assert judge(state, seat, free) == 0


def test_mysticism_counts_mythology_and_offering_tokens():
    state = _age_two_table()
    seat = 1
    state.pantheon["mythology"][seat] = ["greek", "roman"]
    state.pantheon["offerings"][seat] = [3]
    base = scores(state)[seat]["progress"]
    state.tokens[seat].append("mysticism")
    assert scores(state)[seat]["progress"] == base + 2 * 3


def test_zeus_on_a_face_down_card_turns_it_up_into_the_discard_pile():
    state, e = first(range(80), lambda s, e: e.type == "divinity_power" and e.payload["divinity"] == "zeus"
                     and e.payload.get("slot") and s.slots[e.payload["slot"]] is None)
    after = copy(state)
    GAME.rules.apply(after, e)
    assert after.phase == PENDING and after.queue[0] == ["reveal", None, e.payload["slot"]]
    assert e.payload["slot"] in after.taken


def test_the_activations_are_recorded_for_analytics_with_their_age():
    events = game(7, ("military", "science"))
    state = replay(GAME, events).state
    for seat in (0, 1):
        recorded = [(a["divinity"], a["age"]) for a in state.pantheon["activated"][seat] if a["via"] == "pantheon"]
        made = [(e.payload["divinity"], e.payload["age"]) for e in events
                if e.type == "divinity_activated" and e.payload["seat"] == seat]
        assert recorded == made
    assert any(state.pantheon["activated"])
    assert all(a["age"] >= 2 for seat in (0, 1) for a in state.pantheon["activated"][seat])
    before, e = first(range(5), lambda s, e: e.type == "divinity_activated")
    assert GAME.rules.position(before, e).turn == before.turn + 1  # an activation is a turn
    after = copy(before)
    GAME.rules.apply(after, e)
    assert after.turn == before.turn + 1 and after.last_taker == e.payload["seat"]


def test_the_powers_do_what_their_text_says():
    def power(divinity: str, need: str | None = None) -> tuple[State, Event, State]:
        state, e = first(range(60), lambda s, e: e.type == "divinity_power" and e.payload["divinity"] == divinity
                         and (need is None or e.payload.get(need) is not None))
        after = copy(state)
        GAME.rules.apply(after, e)
        return state, e, after

    state, e, after = power("nisaba", "card")
    seat = e.payload["seat"]
    assert after.pantheon["snake"] == [seat, e.payload["card"]]
    symbol = next(x.symbol for x in state.card(e.payload["card"]).effects if x.type == "science")
    assert after.symbols(seat).count(symbol) == state.symbols(seat).count(symbol) + 1
    state, e, after = power("baal", "card")
    seat, card = e.payload["seat"], e.payload["card"]
    assert card in after.built[seat] and card not in after.built[1 - seat] and card in state.built[1 - seat]
    state, e, after = power("anubis", "wonder")
    owner = 0 if e.payload["wonder"] in state.built_wonders[0] else 1
    under = state.under[owner][state.built_wonders[owner].index(e.payload["wonder"])]
    assert e.payload["wonder"] not in after.built_wonders[owner] and after.discard[-1] == under
    state, e, after = power("isis", "card")
    assert e.payload["wonder"] in after.built_wonders[e.payload["seat"]]
    assert after.discard.count(e.payload["card"]) == state.discard.count(e.payload["card"]) - 1
    state, e, after = power("ra", "wonder")
    assert e.payload["wonder"] in after.wonders[e.payload["seat"]] and e.payload["wonder"] in state.wonders[1 - e.payload["seat"]]
    state, e, after = power("minerva", "space")
    assert after.pantheon["minerva"] == e.payload["space"]
    state, e, after = power("neptune", "applied")
    side, token = e.payload["applied"].split(":")
    loss = next(t.coins for t in PACK.military.tokens if t.id == token)
    assert after.coins[int(side)] == state.coins[int(side)] - min(state.coins[int(side)], loss)
    assert token not in after.loot[int(side)]
    state, e, after = power("zeus", "slot")
    assert e.payload["slot"] in after.taken
    if state.slots[e.payload["slot"]] is not None:
        assert after.discard[-1] == state.slots[e.payload["slot"]]


def test_the_divinities_without_a_choice_act_at_once():
    for divinity, check in (
            ("tanit", lambda b, a, s, paid: a.spendable(s) == b.spendable(s) - paid + 12),
            ("astarte", lambda b, a, s, paid: a.pantheon["reserve"][s] == b.pantheon["reserve"][s] + 7
             - max(0, paid - b.coins[s])),
            ("ishtar", lambda b, a, s, paid: a.symbols(s).count("law") == b.symbols(s).count("law") + 1),
            ("mars", lambda b, a, s, paid: b.pantheon["minerva"] is not None
             or a.pawn == max(-9, min(9, b.pawn + (2 if s == 0 else -2)))),
            ("aphrodite", lambda b, a, s, paid: scores(a)[s]["pantheon"] == scores(b)[s]["pantheon"] + 9)):
        state, e = first(range(60), lambda s, e, d=divinity: e.type == "divinity_activated" and e.payload["divinity"] == d)
        after = copy(state)
        GAME.rules.apply(after, e)
        assert check(state, after, e.payload["seat"], e.payload["paid"]), divinity


def test_the_pack_option_one_mythology_token_of_each():
    one_each = PACK.model_copy(update={"options": PACK.options.model_copy(update={"mythology_tokens": "one_of_each"})})
    assert one_each.content_hash != PACK.content_hash
    for seed in range(3):
        events = simulate_game(f"one-each-{seed}", NAMES, seed, ("random",), one_each)
        placed = next(e for e in events if e.type == "pantheon_tokens_placed")
        assert sorted(placed.payload["tokens"].values()) == sorted(MYTHOLOGIES)
        assert not replay(GAME, events, GAME.library(extra=[one_each])).problems
    r = Replay(GAME, GAME.library(extra=[one_each]))
    twice = None
    for e in simulate_game("one-each", NAMES, 5, ("random",), one_each):
        if e.type == "pantheon_tokens_placed":
            slots = sorted(e.payload["tokens"])
            twice = with_payload(e, tokens={**e.payload["tokens"], slots[0]: e.payload["tokens"][slots[1]]})
            break
        r.push(e)
    assert twice is not None and r.state is not None
    assert refused(r.state, twice) == "swd.pantheon.tokens"
    # under the default, the same twice is fine (two tokens of each mythology in the box)
    assert PACK.options.mythology_tokens == "random"


def test_every_pantheon_rule_id_is_tested():
    """Runs last in this file: every swd.pantheon rule id was met by a test above."""
    assert {r for r in RULES if r.startswith("swd.pantheon.")} - seen_rules == set()
