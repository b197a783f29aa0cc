"""7 Wonders Duel with the Agora expansion: seeded simulated games replay clean, each Agora rule id
refused by a crafted event, the Senate's control, Decrees, political supremacy and the chambers'
points, legal plays both ways, hidden conspiracies, snapshots and the page (the conformance
suite's checks, for this pack)."""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import pytest
from helpers import assert_snapshots_replay_on

from replay.contract import Observer
from replay.driver import Replay, replay
from replay.errors import RuleViolation
from replay.events import Event
from replay.games.seven_wonders_duel import GAME, simulate_game
from replay.games.seven_wonders_duel.agora import AGORA_RULES, controlled, options, senator_cards
from replay.games.seven_wonders_duel.pack import Effect
from replay.games.seven_wonders_duel.scoring import scores
from replay.games.seven_wonders_duel.simulate import _payload
from replay.games.seven_wonders_duel.state import OVER, PENDING, SCORE, State
from replay.problems import Problem
from replay.services.audit import audit
from replay.services.logs import Log

PACK = GAME.pack("7wd-duel-agora")
BOTS = [("random",), ("military", "science"), ("science", "random"), ("random", "military")]
GAMES = 200
seen_rules: set[str] = set()


@cache
def game(seed: int) -> tuple[Event, ...]:
    return tuple(simulate_game(f"agora-{seed}", ["Ana", "Ben"], seed, BOTS[seed % len(BOTS)], PACK))


def _made(events: tuple[Event, ...]) -> Any:
    """The table a simulated game ended on (the simulation applied each event strictly)."""
    r: Replay[State] = Replay(GAME, level="raise")
    for e in events:
        r.push_trusted(e)
    return r


def state_before(events: tuple[Event, ...], i: int) -> State:
    """The table just before ``events[i]``."""
    r: Replay[State] = Replay(GAME, level="raise")
    for e in events[:i]:
        r.push(e)
    assert r.state is not None
    return copy.deepcopy(r.state)


def find(event_type: str, seeds: range = range(40), where: Any = None) -> tuple[tuple[Event, ...], int]:
    """The first event of ``event_type`` (that ``where(event)`` accepts) in the seeded games."""
    for seed in seeds:
        events = game(seed)
        for i, e in enumerate(events):
            if e.type == event_type and (where is None or where(e)):
                return events, i
    raise AssertionError(f"no {event_type} in the games")


def refused(state: State, event: Event, payload: dict[str, Any]) -> str:
    before = json.dumps(state.data(), sort_keys=True)
    with pytest.raises(RuleViolation) as info:
        GAME.rules.apply(state, event._replace(payload=payload))
    assert json.dumps(state.data(), sort_keys=True) == before, "a refused event changed the table"
    rule = info.value.problem.rule_id
    seen_rules.add(rule)
    return rule


def crafted(event_type: str, seq: int, payload: dict[str, Any]) -> Event:
    return Event.create(GAME.kind, "crafted", seq, GAME.models[event_type].model_validate(payload))


# ----------------------------------------------------------------------------- whole games


def test_hundreds_of_seeded_agora_games_replay_clean_and_end():
    """Each simulated game is made through the rules, each event applied strictly as it is made (a
    problem raises); a fifth of them are replayed again from their events here."""
    victories: dict[str, int] = {}
    kinds: set[str] = set()
    for seed in range(GAMES):
        events = game(seed)
        r = replay(GAME, list(events), level="raise") if seed % 5 == 0 else _made(events)
        assert GAME.rules.is_over(r.state), seed
        assert r.state.agora is not None and r.state.agora["final_control"] is not None
        result = GAME.views.result(r.state)
        assert result is not None and result.finished and result.winners
        assert "senate" in result.scores[0].categories
        victories[r.state.victory] = victories.get(r.state.victory, 0) + 1
        kinds |= {e.type for e in events}
        kinds |= {e.payload["effect"] for e in events if e.type == "conspiracy_target"}
        kinds |= {"a card swapped" for e in events if e.type == "cards_swapped" and e.payload["take"] is not None}
    assert {"civilian", "military", "science", "political"} <= set(victories), victories
    for t in ("decrees_placed", "decree_revealed", "senator_recruited", "senate_action", "conspiracies_drawn",
              "conspiracy_chosen", "conspiracy_prepared", "conspiracy_triggered", "conspiracy_target",
              "removed_revealed", "cards_swapped", "decree_moved", "build_from_removed", "a card swapped"):
        assert t in kinds, t


def test_the_same_seed_gives_the_same_game_and_audits_clean():
    assert simulate_game("x", ["Ana", "Ben"], 7, ("random",), PACK) == simulate_game("x", ["Ana", "Ben"], 7, ("random",), PACK)
    for seed in range(12):
        report = audit(Log(list(game(seed)), GAME, f"agora-{seed}"))
        assert report.ok, [str(p) for p in report.problems]


def test_the_checking_and_the_trusted_apply_leave_the_same_table():
    for seed in range(10):
        events = game(seed)
        strict: Replay[State] = Replay(GAME, level="raise")
        trusted: Replay[State] = Replay(GAME, level="raise")
        for e in events:
            strict.push(e)
            trusted.push_trusted(e)
            assert GAME.views.data(strict.state) == GAME.views.data(trusted.state), (seed, e.seq)


def test_snapshots_round_trip_and_replay_on_identically():
    assert_snapshots_replay_on(GAME, PACK, game(3), every=25)


def test_every_recorded_action_was_legal_and_every_listed_play_is_accepted():
    class Check(Observer):
        def __init__(self) -> None:
            self.checked = 0
            self.rng = random.Random(4)

        def before(self, state: Any, event: Event) -> None:
            action = GAME.rules.action_of(event)
            if action is None:
                return
            seat = GAME.rules.position(state, event).seat
            plays = list(GAME.rules.legal_actions(state, seat))
            assert action in plays, (event.seq, action)
            for chosen in self.rng.sample(plays, min(3, len(plays))):  # what the bots were offered is accepted
                table = copy.deepcopy(state)
                GAME.rules.apply(table, Event.create(GAME.kind, "crafted", event.seq, _payload(table, seat, chosen)))
            self.checked += 1

    for seed in range(2):
        check = Check()
        replay(GAME, list(game(seed)), level="raise", observers=[check])
        assert check.checked > 50


# ----------------------------------------------------------------------------- each rule id refused


def test_the_agora_pack_sets_up_the_senate():
    assert GAME.rules.start(game(0)[0], PACK).agora is not None


def test_decrees_placed_and_revealed_are_checked():
    events, i = find("decrees_placed")
    state, e = state_before(events, i), events[i]
    wrong = dict(e.payload["decrees"])
    wrong.pop(sorted(wrong)[0])
    assert refused(state, e, {**e.payload, "decrees": wrong}) == "swd.agora.decrees"
    twice = dict.fromkeys(e.payload["decrees"], next(iter(e.payload["decrees"].values())))
    assert refused(state, e, {**e.payload, "decrees": twice}) == "swd.agora.decrees"
    events, i = find("decree_revealed")
    state, e = state_before(events, i), events[i]
    up = next(d for d in state.agora["decrees"].values() if d)
    assert refused(state, e, {**e.payload, "decree": up}) == "swd.agora.decree"


def test_senators_come_once_and_as_many_as_the_age_takes():
    events, i = find("age_dealt", where=lambda e: e.payload["age"] == 2)
    state, e = state_before(events, i), events[i]
    old = state.agora["senators_seen"][0]
    cards = dict(e.payload["cards"])
    cards[sorted(cards)[0]] = old
    assert refused(state, e, {**e.payload, "cards": cards}) == "swd.agora.senators"
    events, i = find("age_dealt", where=lambda e: e.payload["age"] == 1)
    state, e = state_before(events, i), events[i]
    fresh = sorted(senator_cards(state))[:6]
    cards = dict(e.payload["cards"])
    for slot, card in zip(sorted(cards), fresh):
        cards[slot] = card
    assert refused(state, e, {**e.payload, "cards": cards}) == "swd.agora.senators"


def test_a_senator_is_recruited_for_its_price_never_constructed():
    events, i = find("senator_recruited", where=lambda e: e.payload.get("paid"))
    state, e = state_before(events, i), events[i]
    seat = e.payload["seat"]
    table = copy.deepcopy(state)
    table.coins[seat] = e.payload["paid"] - 1
    assert refused(table, e, dict(e.payload)) == "swd.agora.recruit"
    other = next(s for s in state.available() if state.slots[s] and state.slots[s] in state.pack.by_id)
    assert refused(state, e, {**e.payload, "slot": other, "card": state.slots[other]}) == "swd.agora.recruit"
    built = {"seat": seat, "age": state.age, "slot": e.payload["slot"], "card": e.payload["card"], "action": "construct"}
    assert refused(state, crafted("card_played", e.seq, built), built) == "swd.agora.recruit"
    found = GAME.rules.apply(copy.deepcopy(state), e._replace(payload={**e.payload, "paid": e.payload["paid"] + 2}))
    assert [p.rule_id for p in found] == ["swd.claim.paid"]


def test_the_politician_and_the_conspirator_act_in_the_senate_as_allowed():
    events, i = find("senate_action", where=lambda e: e.payload["action"] == "place")
    state, e = state_before(events, i), events[i]
    task = state.agora["tasks"][0]
    chambers = [ch.id for ch in PACK.agora.chambers]
    allowed = {o[1] for o in options(state, task) if o[0] == "place"}
    if task[0] == "politician":
        outside = next(ch for ch in chambers if ch not in allowed)
        assert refused(state, e, {**e.payload, "chamber": outside}) == "swd.agora.place"
    empty = next(ch for ch in chambers if state.agora["influence"][ch][e.payload["seat"]] == 0)
    move = {**e.payload, "action": "move", "origin": empty, "chamber": chambers[(chambers.index(empty) + 3) % 6]}
    assert refused(state, e, move) == "swd.agora.move"
    if task[0] != "conspirator":
        assert refused(state, e, {**e.payload, "action": "conspire", "chamber": None}) == "swd.agora.conspire"
    assert refused(state, e, {**e.payload, "action": "skip", "chamber": None}) == "swd.agora.skip"
    none = next(ch for ch in chambers if state.agora["influence"][ch][1 - e.payload["seat"]] == 0)
    state.agora["tasks"][0] = ["remove", e.payload["seat"], None]
    assert refused(state, e, {**e.payload, "action": "remove", "chamber": none}) == "swd.agora.remove"
    state.agora["tasks"][0] = ["place", e.payload["seat"], None]
    state.agora["influence"][chambers[0]][e.payload["seat"]] = 12
    assert refused(state, e, {**e.payload, "action": "place", "chamber": chambers[1]}) == "swd.agora.place"


def test_conspiracies_are_drawn_from_the_top_and_one_is_kept():
    events, i = find("conspiracies_drawn", where=lambda e: len(e.payload["conspiracies"]) == 2)
    state, e = state_before(events, i), events[i]
    assert refused(state, e, {**e.payload, "conspiracies": e.payload["conspiracies"][:1]}) == "swd.agora.draw"
    table = copy.deepcopy(state)
    elsewhere = next(c.id for c in PACK.agora.conspiracies if c.id not in e.payload["conspiracies"])
    table.agora["top"].append([elsewhere, 0])
    assert refused(table, e, dict(e.payload)) == "swd.agora.draw"
    GAME.rules.apply(state, e)
    chosen = events[i + 1]
    assert chosen.type == "conspiracy_chosen"
    both = {**chosen.payload, "keep": e.payload["conspiracies"], "place": None}
    if not state.has(e.payload["seat"], "keep_both_conspiracies"):
        assert refused(state, chosen, both) == "swd.agora.choose"
    assert refused(state, chosen, {**chosen.payload, "keep": ["not_drawn"]}) == "swd.agora.choose"
    GAME.rules.apply(state, chosen)
    if chosen.payload.get("place") == "top":
        assert state.agora["top"][-1][0] not in chosen.payload["keep"]


def test_a_conspiracy_is_prepared_with_a_card_and_triggered_before_the_turn_s_card():
    events, i = find("conspiracy_prepared")
    state, e = state_before(events, i), events[i]
    assert refused(state, e, {**e.payload, "conspiracy": "coup_not_held"}) == "swd.agora.prepare"
    events, i = find("conspiracy_triggered")
    state, e = state_before(events, i), events[i]
    seat = e.payload["seat"]
    held = [c["id"] for c in state.agora["hands"][seat]]
    other = next(c.id for c in PACK.agora.conspiracies if c.id not in held)
    assert refused(state, e, {**e.payload, "conspiracy": other}) == "swd.agora.trigger"
    twice = copy.deepcopy(state)
    twice.agora["last_trigger"] = twice.turn
    assert refused(twice, e, dict(e.payload)) == "swd.agora.trigger"
    by_other = {**e.payload, "seat": 1 - seat}
    assert refused(copy.deepcopy(state), e, by_other) == "swd.agora.trigger"
    plain = copy.deepcopy(state)  # a pack's own conspiracy with an effect conspiracies do not have
    plain.agora["hands"][seat] = [{"id": "coercion", "prepared": True, "under": "x"}]
    odd = tuple(c.model_copy(update={"effects": (Effect(type="coins", amount=3),)}) if c.id == "coercion" else c
                for c in PACK.agora.conspiracies)
    plain.pack = PACK.model_copy(update={"agora": PACK.agora.model_copy(update={"conspiracies": odd})})
    assert refused(plain, e, {**e.payload, "conspiracy": "coercion"}) == "swd.agora.unimplemented"


def test_a_conspiracy_s_target_is_checked():
    events, i = find("conspiracy_target")
    state, e = state_before(events, i), events[i]
    p = e.payload
    mine = state.wonders[p["seat"]][0] if p["effect"] in ("steal_wonder", "return_wonder") else "not_a_card"
    assert refused(state, e, {**p, "target": mine}) == "swd.agora.target"


# ----------------------------------------------------------------------------- the Senate at work


def _table_at_a_turn(seed: int = 0) -> tuple[State, Event]:
    events, i = find("card_played", seeds=range(seed, seed + 5), where=lambda e: e.payload["age"] == 1)
    return state_before(events, i), events[i]


def _place(state: State, seat: int, chamber: str, seq: int = 999) -> list[Problem]:
    state.agora["tasks"].insert(0, ["place", seat, None])
    e = crafted("senate_action", seq, {"seat": seat, "action": "place", "chamber": chamber})
    return list(GAME.rules.apply(state, e))


def test_control_reveals_the_decree_and_controlling_all_six_chambers_wins_at_once():
    state, _ = _table_at_a_turn()
    chambers = [ch.id for ch in PACK.agora.chambers]
    for ch in chambers[:5]:
        state.agora["influence"][ch] = [2, 1]
    state.agora["decrees"] = {ch: "discard_coins" for ch in chambers}  # known: nothing to turn up
    _place(state, 0, chambers[5])
    assert state.victory == "political" and state.winners == [0] and state.phase == SCORE
    final = scores(state)
    assert final[0]["senate"] == sum(ch.vp for ch in PACK.agora.chambers) and final[1]["senate"] == 0
    end = crafted("game_ended", 1000, {"victory": "political", "winners": [0],
                                       "scores": [{"seat": 0, "total": final[0]["total"] + 1}]})
    found = GAME.rules.apply(state, end)
    assert [p.rule_id for p in found] == ["swd.claim.score"]
    assert state.phase == OVER and state.agora["final_control"] == [chambers, []]
    result = GAME.views.result(state)
    assert result is not None and result.winners == (0,) and result.scores[0].rank == 1


def test_a_decree_is_turned_up_on_first_control_and_follows_control():
    state, _ = _table_at_a_turn()
    ch = next(c for c, d in state.agora["decrees"].items() if d is None)
    _place(state, 1, ch)
    assert state.agora["tasks"][0] == ["decree", None, ch]
    reveal = crafted("decree_revealed", 999, {"chamber": ch, "decree": "shield"})
    pawn = state.pawn
    GAME.rules.apply(state, reveal)
    assert state.agora["decrees"][ch] == "shield" and state.pawn == pawn - 1  # seat 1 gains: a shield its way
    _place(state, 0, ch)
    assert state.pawn == pawn  # tied: control lost, the pawn back
    _place(state, 0, ch)
    assert state.pawn == pawn + 1 and controlled(state, 0) == [ch]


def test_decrees_change_prices_discards_and_coins_for_the_controller():
    state, e = _table_at_a_turn()
    seat = e.payload["seat"]
    chambers = [ch.id for ch in PACK.agora.chambers]
    from replay.games.seven_wonders_duel.city import prices

    base = prices(state, seat)
    state.agora["decrees"][chambers[0]] = "raw_rebate"
    state.agora["decrees"][chambers[1]] = "discard_coins"
    state.agora["influence"][chambers[0]][seat] = 1
    state.agora["influence"][chambers[1]][seat] = 1
    cheaper = prices(state, seat)
    assert all(cheaper[r] == max(1, base[r] - 1) for r in ("wood", "clay", "stone"))
    assert cheaper["glass"] == base["glass"]
    slot = next(s for s in state.available() if state.slots[s] in state.pack.by_id)
    coins = state.coins[seat]
    discard = crafted("card_played", e.seq, {"seat": seat, "age": state.age, "slot": slot, "card": state.slots[slot],
                                             "action": "discard"})
    GAME.rules.apply(state, discard)
    assert state.coins[seat] == coins + 2 + state.colour_count(seat, "yellow") + 2


def test_decrees_of_coins_chains_and_cost_symbols_act_for_their_controller_only():
    from replay.games.seven_wonders_duel.city import waivable
    from replay.games.seven_wonders_duel.rules import build, chain_symbols

    state, _ = _table_at_a_turn()
    chambers = [ch.id for ch in PACK.agora.chambers]
    for ch, decree in zip(chambers, ("red_age_coins", "wonder_age_coins", "opponent_chains", "yellow_cost_symbol",
                                     "wonder_resource", "senate_blue")):
        state.agora["decrees"][ch] = decree
        state.agora["influence"][ch] = [0, 1]
    coins = list(state.coins)
    red = next(c for c in PACK.cards if c.colour == "red" and c.age == 1)
    build(state, 0, red)
    assert state.coins == [coins[0], coins[1] + state.age]
    blue = next(c for c in PACK.cards if c.colour == "blue" and c.age == 1)
    build(state, 0, blue)
    assert state.coins == [coins[0], coins[1] + state.age]
    giver = next(c for c in PACK.cards if c.chain_gives and c.age == 1)
    state.built[0].append(giver.id)
    assert giver.chain_gives in chain_symbols(state, 1) and giver.chain_gives in chain_symbols(state, 0)
    state.built[1] = []
    assert giver.chain_gives in chain_symbols(state, 1)
    state.agora["influence"][chambers[2]] = [1, 1]  # control lost: the Decree goes with it
    assert giver.chain_gives not in chain_symbols(state, 1)
    assert waivable(state, 1, "yellow") == 1 and waivable(state, 0, "yellow") == 0 and waivable(state, 1, "red") == 0
    assert waivable(state, 1, "wonder") == 1 + sum(1 for t in state.tokens[1] if t == "architecture") * 2
    state.agora["influence"][chambers[3]] = [1, 1]  # tied: nobody controls it, its Decree acts for nobody
    assert waivable(state, 1, "yellow") == 0


def test_agora_military_tokens_give_senate_actions_instead_of_coin_losses():
    state, _ = _table_at_a_turn()
    from replay.games.seven_wonders_duel.rules import military

    coins = list(state.coins)
    military(state, 0, 3)
    assert state.coins == coins and state.agora["tasks"] == [["place", 0, None]]
    military(state, 0, 3)
    assert state.agora["tasks"][1:] == [["remove", 0, None], ["move", 0, None]]
    assert state.loot[1] == []


def test_a_politician_acts_by_the_blue_cards_and_the_corruption_token_makes_senators_free():
    events, i = find("senator_recruited", where=lambda e: e.payload["card"].startswith("politician"))
    state, e = state_before(events, i), events[i]
    seat = e.payload["seat"]
    table = copy.deepcopy(state)
    blue = [c.id for c in PACK.cards if c.colour == "blue"][:4]
    table.built[seat] += blue
    GAME.rules.apply(table, e._replace(payload={**e.payload, "paid": None}))
    assert table.agora["tasks"][0][0] == "politician" and table.agora["tasks"][0][2]["left"] == 3
    free = copy.deepcopy(state)
    free.tokens[seat].append("corruption")
    free.agora["senators"][seat] = ["conspirator_1", "conspirator_2"]
    coins = free.coins[seat]
    assert GAME.rules.apply(free, e._replace(payload={**e.payload, "paid": 0})) == []
    assert free.coins[seat] == coins


def _triggered(conspiracy: str) -> tuple[State, int]:
    """A table at a turn of Age I whose player has just triggered ``conspiracy`` (prepared)."""
    state, e = _table_at_a_turn(1)
    seat = e.payload["seat"]
    state.agora["hands"][seat] = [{"id": conspiracy, "prepared": True, "under": "x"}]
    GAME.rules.apply(state, crafted("conspiracy_triggered", e.seq, {"seat": seat, "conspiracy": conspiracy}))
    return state, seat


def test_espionage_property_fraud_and_obscurantism():
    from replay.games.seven_wonders_duel.rules import expected, unseen_tokens

    state, seat = _triggered("espionage")
    turn = state.turn
    pool = unseen_tokens(state)
    assert expected(state) == ("tokens_drawn", seat) and len(pool) >= 5
    GAME.rules.apply(state, crafted("tokens_drawn", 1000, {"seat": seat, "tokens": pool}))
    GAME.rules.apply(state, crafted("progress_taken", 1001, {"seat": seat, "token": pool[-1], "source": "box"}))
    assert pool[-1] in state.tokens[seat] and expected(state) == ("card_played", seat) and state.turn == turn

    state, seat = _triggered("property_fraud")
    row = [s.id for s in PACK.layout(1).slots if s.row == 1]
    senators = senator_cards(state)
    slot = next(s for s in row if state.slots[s] not in senators)
    other = next(s for s in state.available() if s not in row)
    target = crafted("conspiracy_target", 1000, {"seat": seat, "effect": "build_from_last_row", "target": state.slots[slot]})
    assert refused(state, target, {**target.payload, "target": state.slots[other]}) == "swd.agora.target"
    if any(state.slots[s] in senators for s in row):  # a Senator of row 1 is not built
        senator = next(state.slots[s] for s in row if state.slots[s] in senators)
        assert refused(state, target, {**target.payload, "target": senator}) == "swd.agora.target"
    GAME.rules.apply(state, target)
    assert state.built[seat][-1] == target.payload["target"] and slot in state.taken
    assert expected(state) == ("card_played", seat)

    state, seat = _triggered("obscurantism")
    state.tokens[1 - seat] = ["law"]
    assert state.symbols(1 - seat).count("law") == 1
    GAME.rules.apply(state, crafted("conspiracy_target", 1000, {"seat": seat, "effect": "lock_progress_token",
                                                                "target": "law"}))
    assert state.tokens[1 - seat] == [] and state.agora["locked"] == ["law"] and "law" not in state.symbols(1 - seat)


def test_turn_of_events_discards_up_to_two_cards_one_at_a_time():
    from replay.games.seven_wonders_duel.rules import expected

    state, seat = _triggered("turn_of_events")
    assert expected(state) == ("senate_action", seat)  # its move first (independent of the discards)
    GAME.rules.apply(state, crafted("senate_action", 999, {"seat": seat, "action": "skip"}))
    assert expected(state) == ("conspiracy_target", seat)
    bottom = [s for s in state.available() if state.slots[s] is not None]
    first = crafted("conspiracy_target", 1000, {"seat": seat, "effect": "discard_available", "target": state.slots[bottom[0]]})
    covered = next(s.id for s in PACK.layout(1).slots if s.id not in state.available())
    assert refused(state, first, {**first.payload, "target": "not_on_the_table"}) == "swd.agora.target"
    discarded = [state.slots[bottom[0]]]
    GAME.rules.apply(state, first)
    assert bottom[0] in state.taken and covered not in state.taken
    assert (state.discard + state.agora["set_aside"])[-1] == discarded[0]
    while state.queue and state.queue[0][0] == "reveal":  # what the discard uncovered is turned up first
        slot = state.queue[0][2]
        assert expected(state) == ("card_revealed", None)
        unseen = next(c for c in PACK.deck(1) if c not in state.seen)
        GAME.rules.apply(state, crafted("card_revealed", 1001, {"age": 1, "slot": slot, "card": unseen}))
    assert expected(state) == ("conspiracy_target", seat)
    GAME.rules.apply(state, crafted("conspiracy_target", 1002, {"seat": seat, "effect": "discard_available", "target": None}))
    assert expected(state) == ("card_played", seat) and state.agora["interrupt"] is False


def test_treason_turns_up_the_age_s_removed_cards_and_builds_one_for_free():
    from replay.games.seven_wonders_duel.agora_plots import removed_pool
    from replay.games.seven_wonders_duel.rules import expected

    state, seat = _triggered("treason")
    assert expected(state) == ("removed_revealed", seat)
    pool = removed_pool(state)
    face_up = next(c for c in state.seen if c in PACK.by_id)
    three = pool[:3]
    e = crafted("removed_revealed", 1000, {"seat": seat, "age": 1, "cards": three})
    assert refused(state, e, {**e.payload, "cards": three[:2]}) == "swd.agora.removed"
    assert refused(state, e, {**e.payload, "cards": [face_up, *three[:2]]}) == "swd.agora.removed"
    assert refused(state, e, {**e.payload, "cards": [three[0]] * 3}) == "swd.agora.removed"
    assert refused(state, e, {**e.payload, "cards": PACK.deck(2)[:3]}) == "swd.agora.removed"
    assert refused(state, e, {**e.payload, "age": 2}) == "swd.agora.removed"
    GAME.rules.apply(state, e)
    assert expected(state) == ("conspiracy_target", seat)
    assert GAME.views.observe(state, 1 - seat)["agora"]["removed"]["cards"] == [None, None, None]
    assert GAME.views.observe(state, seat)["agora"]["removed"]["cards"] == three
    other = GAME.views.conceal(state, 1 - seat, random.Random(1))
    assert other is not None and other.agora["removed"]["cards"] != three
    assert GAME.views.observe(other, 1 - seat) == GAME.views.observe(state, 1 - seat)
    target = crafted("conspiracy_target", 1001, {"seat": seat, "effect": "build_from_removed", "target": three[1]})
    assert refused(state, target, {**target.payload, "target": pool[3]}) == "swd.agora.target"
    assert refused(state, target, {**target.payload, "target": None}) == "swd.agora.target"
    coins = state.coins[seat]
    GAME.rules.apply(state, target)
    assert state.built[seat][-1] == three[1] and state.agora["removed"]["cards"] == [three[0], three[2]]
    assert state.coins[seat] >= coins and expected(state) == ("card_played", seat)  # free, then the turn goes on
    slot = next(s.id for s in PACK.layout(1).slots if state.slots[s.id] is None)  # a removed card is in no slot
    state.queue.insert(0, ["reveal", None, slot])
    state.phase = PENDING
    reveal = crafted("card_revealed", 1002, {"age": 1, "slot": slot, "card": three[0]})
    assert refused(state, reveal, dict(reveal.payload)) == "swd.reveal"
    GAME.rules.apply(state, reveal._replace(payload={**reveal.payload, "card": pool[4]}))
    assert state.slots[slot] == pool[4]


def _coerced(reading: str) -> tuple[State, int]:
    """Coercion triggered under the ``coercion_science`` reading: the player has Workshop (plumb) and
    School (wheel), the opponent Apothecary (wheel), Laboratory (plumb) and a blue card."""
    state, e = _table_at_a_turn(1)
    seat = e.payload["seat"]
    state.pack = PACK.model_copy(update={"options": PACK.options.model_copy(update={"coercion_science": reading})})
    blue = next(c.id for c in PACK.all_cards if c.colour == "blue" and c.age == 1)
    state.built = [[], []]
    state.built[seat], state.built[1 - seat] = ["workshop", "school"], ["apothecary", "laboratory", blue]
    state.pairs = [[], []]
    assert len(state.board_tokens) >= 2
    state.agora["hands"][seat] = [{"id": "coercion", "prepared": True, "under": "x"}]
    GAME.rules.apply(state, crafted("conspiracy_triggered", e.seq, {"seat": seat, "conspiracy": "coercion"}))
    return state, seat


def test_coercion_swaps_cards_of_one_colour_and_the_pack_option_says_what_a_green_one_gives():
    from replay.games.seven_wonders_duel.rules import expected

    assert PACK.options.coercion_science == "gained"
    state, seat = _coerced("gained")
    assert expected(state) == ("cards_swapped", seat)
    e = crafted("cards_swapped", 1000, {"seat": seat, "take": "laboratory", "give": "school"})
    blue = state.built[1 - seat][-1]
    assert refused(state, e, {**e.payload, "take": "workshop"}) == "swd.agora.swap"  # their own
    assert refused(state, e, {**e.payload, "take": blue}) == "swd.agora.swap"  # blue for green
    assert refused(state, e, {**e.payload, "take": None, "give": None}) == "swd.agora.swap"  # a swap is possible
    GAME.rules.apply(state, e)
    assert sorted(state.built[seat]) == ["laboratory", "workshop"]
    assert sorted(state.built[1 - seat]) == sorted(["apothecary", "school", blue])
    # gained: each new pair's token, the player's first (after Coercion's move in the Senate)
    assert state.pairs == ([["plumb"], ["wheel"]] if seat == 0 else [["wheel"], ["plumb"]])
    assert state.queue[:2] == [["progress", seat, "board"], ["progress", 1 - seat, "board"]]
    assert expected(state) == ("senate_action", seat)

    state, seat = _coerced("moved")
    GAME.rules.apply(state, e)
    assert sorted(state.built[seat]) == ["laboratory", "workshop"] and state.pairs == [[], []]
    assert not any(t[0] == "progress" for t in state.queue)
    assert state.symbols(seat).count("plumb") == 2  # the symbol counts from now on

    for reading in ("gained", "moved"):  # a sixth different symbol by the swap: supremacy only when gained
        state, seat = _coerced(reading)
        state.built[seat] = ["workshop", "apothecary", "scriptorium", "pharmacist", "academy", "school"]
        state.built[1 - seat] = ["observatory"]
        GAME.rules.apply(state, e._replace(payload={**e.payload, "take": "observatory"}))
        assert len(set(state.symbols(seat))) == 6
        assert (state.victory, state.winners) == (("science", [seat]) if reading == "gained" else (None, []))

    state, seat = _coerced("gained")
    state.built[seat] = [next(c.id for c in PACK.all_cards if c.colour == "brown")]  # no colour on both sides
    state.built[1 - seat] = ["apothecary"]
    nothing = crafted("cards_swapped", 1000, {"seat": seat})
    assert refused(state, nothing, {**nothing.payload, "take": "apothecary", "give": state.built[seat][0]}) == "swd.agora.swap"
    GAME.rules.apply(state, nothing)
    assert state.built[1 - seat] == ["apothecary"] and expected(state) == ("senate_action", seat)


def test_insider_influence_moves_a_decree_under_another_chamber_s_and_control_applies_both():
    from replay.games.seven_wonders_duel.rules import expected

    chambers = [ch.id for ch in PACK.agora.chambers]

    def table() -> tuple[State, int]:
        state, seat = _triggered("insider_influence")
        state.agora["decrees"] = dict(zip(chambers, ["discard_coins", "raw_rebate", None, None, "senate_blue", "shield"]))
        state.agora["influence"] = {ch: [0, 0] for ch in chambers}
        state.agora["influence"][chambers[1]][seat] = 2
        state.agora["influence"][chambers[5]][1 - seat] = 1
        return state, seat

    state, seat = table()
    assert expected(state) == ("decree_moved", seat)
    e = crafted("decree_moved", 1000, {"seat": seat, "origin": chambers[0], "chamber": chambers[1], "decree": "discard_coins"})
    assert refused(state, e, {**e.payload, "chamber": chambers[0]}) == "swd.agora.decree_move"
    assert refused(state, e, {**e.payload, "decree": "shield"}) == "swd.agora.decree_move"
    assert refused(state, e, {**e.payload, "decree": None}) == "swd.agora.decree_move"  # none face down there
    assert not state.has(seat, "discard_bonus")
    GAME.rules.apply(state, e)
    assert state.agora["decrees"][chambers[0]] == [] and state.agora["decrees"][chambers[1]] == ["raw_rebate", "discard_coins"]
    assert state.has(seat, "discard_bonus") and state.has(seat, "trade_rebate")  # the controller has both
    assert "raw_rebate, discard_coins" in GAME.views.show(state)
    assert "moves the Decree discard_coins" in GAME.views.headline(e, ["Ana", "Ben"])
    assert expected(state) == ("senate_action", seat)  # then Insider Influence's cube move
    data = GAME.views.data(state)
    assert GAME.views.data(GAME.rules.restore(data, PACK)) == data

    state, seat = table()  # a face-down Decree moved into a controlled chamber is turned up at once
    GAME.rules.apply(state, e._replace(payload={**e.payload, "origin": chambers[2], "decree": None}))
    assert state.agora["decrees"][chambers[2]] == [] and expected(state) == ("decree_revealed", None)
    reveal = crafted("decree_revealed", 1001, {"chamber": chambers[1], "decree": "raw_rebate"})
    assert refused(state, reveal, dict(reveal.payload)) == "swd.agora.decree"  # seen already
    GAME.rules.apply(state, reveal._replace(payload={**reveal.payload, "decree": "goods_rebate"}))
    assert state.agora["decrees"][chambers[1]] == ["raw_rebate", "goods_rebate"] and state.has(seat, "trade_rebate")

    state, seat = table()  # the Shield Decree passes from the opponent's control to the player's: two spaces
    pawn, way = state.pawn, 1 if seat == 0 else -1
    GAME.rules.apply(state, e._replace(payload={**e.payload, "origin": chambers[5], "decree": "shield"}))
    assert state.pawn == pawn + 2 * way


def test_treason_coercion_and_insider_influence_are_offered_and_every_offered_choice_is_accepted():
    """In seeded games: each is triggered from the legal plays, and every choice it offers is accepted."""
    checked: set[str] = set()
    for what in ("treason", "coercion", "insider_influence"):
        events, i = find("conspiracy_triggered", seeds=range(60), where=lambda e, w=what: e.payload["conspiracy"] == w)
        state = state_before(events, i)
        for e in events[i:i + 4]:
            action = GAME.rules.action_of(e)
            if action is None:
                GAME.rules.apply(state, e)
                continue
            seat = GAME.rules.position(state, e).seat
            plays = list(GAME.rules.legal_actions(state, seat))
            assert action in plays, (what, e.seq, action)
            for chosen in plays[:12]:
                table = copy.deepcopy(state)
                GAME.rules.apply(table, Event.create(GAME.kind, "crafted", e.seq, _payload(table, seat, chosen)))
            checked.add(e.type if e.type != "conspiracy_target" else e.payload["effect"])
            GAME.rules.apply(state, e)
    assert {"conspiracy_triggered", "build_from_removed", "cards_swapped", "decree_moved"} <= checked, checked


# ----------------------------------------------------------------------------- what each seat sees


def test_the_other_seat_sees_only_that_a_conspiracy_is_held_and_whether_it_is_prepared():
    rng = random.Random(5)
    concealed = 0
    for seed in range(6):
        r: Replay[State] = Replay(GAME, level="raise")
        for i, e in enumerate(game(seed)):
            r.push(e)
            if i % 5:
                continue
            for seat in (0, 1):
                seen = GAME.views.observe(r.state, seat)
                json.dumps(seen)
                hands = r.state.agora["hands"]
                assert [c["id"] for c in seen["agora"]["hands"][seat]] == [c["id"] for c in hands[seat]]
                assert all(c["id"] is None for c in seen["agora"]["hands"][1 - seat])
                assert [c["prepared"] for c in seen["agora"]["hands"][1 - seat]] == [c["prepared"] for c in hands[1 - seat]]
                other = GAME.views.conceal(r.state, seat, rng)
                if other is None:
                    assert seen == GAME.views.data(r.state)
                    continue
                concealed += 1
                assert GAME.views.observe(other, seat) == seen
                assert GAME.views.data(other) != GAME.views.data(r.state)
    assert concealed > 0


def test_the_page_and_the_text_show_the_senate():
    from replay.services.page import ALL, page_data, page_state

    events = list(game(2))
    version = page_data([Log(events, GAME, "page")])["versions"][0]
    board = version["board"]
    json.dumps(board)
    assert len(board["chambers"]) == 6 and len(board["layouts"]["1"]) == 25
    r = replay(GAME, events, level="raise")
    assert page_state(version, ALL, len(events) - 1) == GAME.views.data(r.state)
    text = GAME.views.show(r.state)
    assert "senate:" in text
    assert all(GAME.views.headline(e, ["Ana", "Ben"]) for e in events)
    assert "agora" in (GAME.views.page_script() or "")


# ----------------------------------------------------------------------------- a Decree's symbol on a coin cost

COINS_PACK = PACK.model_copy(update={"options": PACK.options.model_copy(update={"decree_coin_symbol": "coins"})})
"""The Agora pack under the other reading of the cost-symbol Decrees: the coins are one symbol."""


def _decree_table(reading: str, card: str, decree: str, coins: int) -> tuple[State, Event, int, str]:
    """A turn of Age I where the player controls ``decree`` (alone), has ``coins`` coins and an
    available slot holds ``card``; the pack read with ``decree_coin_symbol: reading``."""
    state, e = _table_at_a_turn()
    seat = e.payload["seat"]
    state.pack = COINS_PACK if reading == "coins" else PACK
    for ch in state.agora["influence"]:
        state.agora["influence"][ch] = [0, 0]
    chamber = PACK.agora.chambers[0].id
    state.agora["decrees"][chamber] = decree
    state.agora["influence"][chamber][seat] = 1
    slot = next(s for s in state.available() if state.slots[s] in state.pack.by_id)
    state.slots[slot] = card
    state.coins[seat] = coins
    return state, e, seat, slot


def _construct(state: State, seq: int, seat: int, slot: str, **payment: Any) -> Event:
    payload = {"seat": seat, "age": state.age, "slot": slot, "card": state.slots[slot], "action": "construct", **payment}
    return crafted("card_played", seq, payload)


def test_the_coin_symbol_option_is_a_later_added_field_and_its_default_keeps_the_hash():
    """At its default the field is left out of the hashed data (the shipped packs' hashes stay as they
    were); the other reading is another pack, with its own hash."""
    from replay.packs import hashed_data

    for name in GAME.offered_packs:
        pack = GAME.pack(name)
        assert pack.options.decree_coin_symbol == "resources"
        assert "decree_coin_symbol" not in hashed_data(pack)["options"]
    assert hashed_data(COINS_PACK)["options"]["decree_coin_symbol"] == "coins"
    assert COINS_PACK.content_hash != PACK.content_hash


def test_a_decree_s_symbol_waives_a_whole_coin_cost_only_under_the_coins_reading():
    from replay.games.seven_wonders_duel.legal import legal_plays

    # Palisade (red, 2 coins), the red Decree controlled, 1 coin: payable only by leaving the coins out
    state, e, seat, slot = _decree_table("resources", "palisade", "red_cost_symbol", 1)
    waived = _construct(state, e.seq, seat, slot, discount={"coins": 2})
    assert refused(state, waived, dict(waived.payload)) == "swd.agora.coin_symbol"  # today's reading: resources only
    assert not [p for p in legal_plays(state, seat) if p[1] == slot and p[3] == "construct"]

    state, e, seat, slot = _decree_table("coins", "palisade", "red_cost_symbol", 1)
    waived = _construct(state, e.seq, seat, slot, discount={"coins": 2})
    assert refused(state, waived, {**waived.payload, "discount": {"coins": 1}}) == "swd.agora.coin_symbol"  # one symbol: all
    wrong_claim = copy.deepcopy(state)  # a claim is checked, not refused: the problem is reported
    found = GAME.rules.apply(wrong_claim, waived._replace(payload={**waived.payload, "paid": 2}))
    assert [p.rule_id for p in found] == ["swd.claim.paid"]
    plays = [p for p in legal_plays(state, seat) if p[1] == slot and p[3] == "construct"]
    assert plays == [("card_played", slot, "palisade", "construct", None, None, (), (("coins", 2),), ())]
    GAME.rules.apply(state, waived._replace(payload={**waived.payload, "paid": 0}))
    assert state.coins[seat] == 1 and "palisade" in state.built[seat]

    # the Decree of another colour, or one the player no longer controls, waives nothing
    state, e, seat, slot = _decree_table("coins", "stone_reserve", "red_cost_symbol", 1)
    waived = _construct(state, e.seq, seat, slot, discount={"coins": 3})
    assert refused(state, waived, dict(waived.payload)) == "swd.agora.coin_symbol"
    state, e, seat, slot = _decree_table("coins", "palisade", "red_cost_symbol", 1)
    state.agora["influence"][PACK.agora.chambers[0].id] = [1, 1]
    waived = _construct(state, e.seq, seat, slot, discount={"coins": 2})
    assert refused(state, waived, dict(waived.payload)) == "swd.agora.coin_symbol"
    # a card without a coin cost has no coins to leave out
    free = next(c.id for c in PACK.cards if c.colour == "red" and c.age == 1 and c.cost and not c.cost.coins)
    state, e, seat, slot = _decree_table("coins", free, "red_cost_symbol", 9)
    waived = _construct(state, e.seq, seat, slot, discount={"coins": 1})
    assert refused(state, waived, dict(waived.payload)) == "swd.agora.coin_symbol"


def test_the_coins_or_a_resource_are_the_one_symbol_and_economy_takes_only_the_trade():
    from replay.games.seven_wonders_duel.city import payments, prices

    # Forum (yellow: 3 coins and a clay), the yellow Decree, nothing produced: the coins or the clay
    state, e, seat, slot = _decree_table("coins", "forum", "yellow_cost_symbol", 9)
    state.built[seat] = []
    clay = prices(state, seat)["clay"]
    found = {(p.discount, p.bought, p.coins) for p in payments(state, seat, PACK.by_id["forum"].cost, "yellow")}
    assert found == {((("clay", 1),), (), 3), ((("coins", 3),), (("clay", 1),), clay)}
    both = _construct(state, e.seq, seat, slot, discount={"coins": 3, "clay": 1})
    assert refused(state, both, dict(both.payload)) == "swd.pay.discount"  # one symbol, not two
    state.tokens[1 - seat] = [*state.tokens[1 - seat], "economy"]
    opponent = state.coins[1 - seat]
    GAME.rules.apply(state, _construct(state, e.seq, seat, slot, discount={"coins": 3}, bought={"clay": 1}, paid=clay))
    assert state.coins[seat] == 9 - clay and state.coins[1 - seat] == opponent + clay  # the trade, not the cost's coins

    state, e, seat, slot = _decree_table("coins", "forum", "yellow_cost_symbol", 9)
    state.built[seat] = []
    GAME.rules.apply(state, _construct(state, e.seq, seat, slot, discount={"clay": 1}, paid=3))
    assert state.coins[seat] == 6


def test_seeded_games_under_the_coins_reading_replay_clean_and_the_bots_waive_coins():
    from replay.games.seven_wonders_duel.notation import read, write

    library = GAME.library(extra=[COINS_PACK])
    waived: dict[tuple[str, ...], int] = {}
    for seed in range(24):
        bots = BOTS[seed % len(BOTS)]
        events = simulate_game(f"coins-{seed}", ["Ana", "Ben"], seed, bots, COINS_PACK)
        r = replay(GAME, events, library, level="raise")
        assert GAME.rules.is_over(r.state), seed
        plays = [e for e in events if e.type == "card_played" and "coins" in e.payload["discount"]]
        waived[bots] = waived.get(bots, 0) + len(plays)
        for e in plays:
            assert e.payload["discount"]["coins"] == PACK.by_id[e.payload["card"]].cost.coins
        if plays:
            text = write(events)
            assert f"discount {plays[0].payload['discount']['coins']} coins" in text
            assert read(text, "raise").events == events
        if seed % 6 == 0:
            assert audit(Log(list(events), GAME, f"coins-{seed}"), library).ok
    assert all(waived[b] for b in BOTS), waived  # the random bot is offered it, the others choose it when cheaper


def test_every_agora_rule_id_is_tested():
    """Runs last in this file: every Agora rule id was met by a refusal above."""
    assert set(AGORA_RULES) - seen_rules == set(), set(AGORA_RULES) - seen_rules
