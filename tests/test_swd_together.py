"""7 Wonders Duel with Pantheon and Agora in one game (pack ``7wd-duel-pantheon-agora``): seeded
games with every bot replay clean, the strict and the trusted apply leave the same table,
snapshots round-trip, and each ruling of docs/games/7-wonders-duel.md "Pantheon and Agora
together" is checked on a crafted table (Neptune on Agora's military tokens and its pack option,
Senators a Divinity discards, Engineering and Senators, Turn of Events and Pantheon's tokens,
Minerva and Poliorcetics with Agora's tokens, Astarte's coins against Agora's coin losses, both
score categories)."""

from __future__ import annotations

import copy
import itertools
from functools import cache
from typing import Any

from helpers import assert_snapshots_replay_on

from replay.driver import Replay, replay
from replay.events import Event
from replay.games.seven_wonders_duel import GAME, simulate_game
from replay.games.seven_wonders_duel import rules as duel_rules
from replay.games.seven_wonders_duel.agora import is_senator, senator_cards
from replay.games.seven_wonders_duel.pantheon_play import turn_plays
from replay.games.seven_wonders_duel.pantheon_powers import options as power_options
from replay.games.seven_wonders_duel.pantheon_powers import use
from replay.games.seven_wonders_duel.scoring import scores
from replay.games.seven_wonders_duel.simulate import BOTS
from replay.games.seven_wonders_duel.state import PLAY, State

PACK = GAME.pack("7wd-duel-pantheon-agora")
PAIRS = list(itertools.product(BOTS, BOTS))
GAMES = 150


@cache
def game(seed: int) -> tuple[Event, ...]:
    return tuple(simulate_game(f"together-{seed}", ["Ana", "Ben"], seed, PAIRS[seed % len(PAIRS)], PACK))


def crafted(event_type: str, seq: int, payload: dict[str, Any]) -> Event:
    return Event.create(GAME.kind, "crafted", seq, GAME.models[event_type].model_validate(payload))


def table(where: Any, seeds: range = range(40)) -> tuple[State, Event]:
    """A copy of the first table (and the event played on it) that ``where(state, event)`` accepts."""
    for seed in seeds:
        r: Replay[State] = Replay(GAME, level="raise")
        for e in game(seed):
            if r.state is not None and where(r.state, e):
                return copy.deepcopy(r.state), e
            r.push_trusted(e)
    raise AssertionError("no such table in the games")


def _age_two_turn(state: State, e: Event) -> bool:
    return state.phase == PLAY and state.age == 2 and e.type == "card_played" and not state.agora["tasks"]


# ----------------------------------------------------------------------------- whole games


def test_the_combined_pack_is_offered_and_plays_both_expansions():
    assert "7wd-duel-pantheon-agora" in GAME.offered_packs and duel_rules.TOGETHER
    state = GAME.rules.start(game(0)[0], PACK)
    assert state.pantheon is not None and state.agora is not None
    assert PACK.options.neptune_agora_token == "neptune"


def test_a_hundred_and_fifty_seeded_games_with_every_bot_replay_clean_and_score_both_categories():
    """Each game is made through the rules (each event applied strictly as it is made: a problem
    raises); every third is replayed again from its events here."""
    kinds: set[str] = set()
    victories: set[str] = set()
    for seed in range(GAMES):
        events = game(seed)
        if seed % 3 == 0:
            state = replay(GAME, list(events), level="raise").state
        else:
            r: Replay[State] = Replay(GAME, level="raise")
            for e in events:
                r.push_trusted(e)
            state = r.state
        assert state is not None and GAME.rules.is_over(state), seed
        result = GAME.views.result(state)
        assert result is not None and result.finished and result.winners
        categories = result.scores[0].categories
        assert "pantheon" in categories and "senate" in categories, categories
        final = scores(state)
        for seat in (0, 1):
            assert final[seat]["total"] == sum(v for k, v in final[seat].items() if k != "total")
        kinds |= {e.type for e in events}
        victories.add(str(state.victory))
    for t in ("divinity_activated", "divinity_power", "senator_recruited", "senate_action", "conspiracy_triggered"):
        assert t in kinds, t
    assert {"civilian", "military", "science", "political"} <= victories, victories


def test_neptune_on_agora_tokens_comes_up_in_the_seeded_games():
    state, e = table(lambda s, e: e.type == "divinity_power" and e.payload["divinity"] == "neptune"
                     and bool(e.payload.get("applied")), range(60))
    side, token = e.payload["applied"].split(":")
    assert token in {t.id for t in PACK.agora.military_tokens}
    tasks = len(state.agora["tasks"])
    GAME.rules.apply(state, e)
    assert token not in state.loot[int(side)] and len(state.agora["tasks"]) > tasks


def test_the_checking_and_the_trusted_apply_leave_the_same_table():
    for seed in range(8):
        strict: Replay[State] = Replay(GAME, level="raise")
        trusted: Replay[State] = Replay(GAME, level="raise")
        for i, e in enumerate(game(seed)):
            strict.push(e)
            trusted.push_trusted(e)
            if i % 7 == 0:
                assert GAME.views.state_hash(strict.state) == GAME.views.state_hash(trusted.state), (seed, e.seq)
        assert GAME.views.data(strict.state) == GAME.views.data(trusted.state), seed


def test_snapshots_round_trip_and_replay_on_identically():
    assert_snapshots_replay_on(GAME, PACK, game(5), every=30)


# ----------------------------------------------------------------------------- the rulings


def test_neptune_applies_an_agora_token_s_senate_actions_for_its_owner_or_by_the_option_for_the_shields():
    state, e = table(_age_two_turn)
    seat = e.payload["seat"]
    loot = [list(side) for side in state.loot]
    assert all(t in {m.id for m in PACK.agora.military_tokens} for side in loot for t in side)
    refs = {o["applied"] for o in power_options(state, seat, "neptune") if "applied" in o}
    assert refs == {f"{s}:{t}" for s in (0, 1) for t in loot[s]}  # Agora's tokens, both sides
    coins = list(state.coins)
    owner = copy.deepcopy(state)
    # a token on Neptune's owner's own side: by default its owner takes the Senate actions
    discarded, applied = f"{1 - seat}:{loot[1 - seat][0]}", f"{seat}:{loot[seat][0]}"
    effects = next(t.effects for t in PACK.agora.military_tokens if t.id == loot[seat][0])
    want = sum(ef.amount if ef.type != "move_influence" else 1 for ef in effects)
    owner.agora["tasks"] = []
    use(owner, {"seat": seat, "divinity": "neptune", "discarded": discarded, "applied": applied})
    assert [t[1] for t in owner.agora["tasks"]] == [seat] * want
    assert owner.coins == coins and loot[seat][0] not in owner.loot[seat] and loot[1 - seat][0] not in owner.loot[1 - seat]
    # the option "shields": the player whose shields would have reached it (the other side's player)
    shields = copy.deepcopy(state)
    shields.pack = PACK.model_copy(update={"options": PACK.options.model_copy(update={"neptune_agora_token": "shields"})})
    shields.agora["tasks"] = []
    use(shields, {"seat": seat, "divinity": "neptune", "discarded": discarded, "applied": applied})
    assert [t[1] for t in shields.agora["tasks"]] == [1 - seat] * want and shields.coins == coins


def test_a_senator_a_divinity_discards_is_set_aside_never_in_the_discard_pile():
    state, e = table(lambda s, e: _age_two_turn(s, e) and any(is_senator(s, s.slots[x]) for x in s.available()))
    seat = e.payload["seat"]
    slot = next(x for x in state.available() if is_senator(state, state.slots[x]))
    senator = state.slots[slot]
    discard = list(state.discard)
    use(state, {"seat": seat, "divinity": "zeus", "slot": slot})  # Zeus
    assert slot in state.taken and state.discard == discard and state.agora["set_aside"][-1] == senator
    # Anubis: a Wonder built with a Senator under it
    wonder = next(w for w in state.wonders[1 - seat] if w not in state.built_wonders[1 - seat])
    state.built_wonders[1 - seat].append(wonder)
    state.under[1 - seat].append("politician_left_1")
    use(state, {"seat": seat, "divinity": "anubis", "wonder": wonder})
    assert state.discard == discard and state.agora["set_aside"][-1] == "politician_left_1"
    assert "politician_left_1" in senator_cards(state)


def test_engineering_never_offers_a_senator():
    state, e = table(lambda s, e: _age_two_turn(s, e) and any(is_senator(s, s.slots[x]) for x in s.available()))
    seat = e.payload["seat"]
    state.tokens[seat].append("engineering")
    state.coins[seat] = 20
    other = next(x for x in state.available() if state.slots[x] is not None and not is_senator(state, state.slots[x]))
    state.slots[other] = next(c.id for c in PACK.cards if c.age == 2 and c.chain_from is not None)
    built = [p for p in turn_plays(state, seat) if p[0] == "card_played"]
    assert (other, state.slots[other]) in {(p[1], p[2]) for p in built}, "Engineering offers a card with a chain link"
    assert not [p for p in built if is_senator(state, p[2])]


def test_a_token_under_a_card_turn_of_events_uncovers_goes_to_the_discarder():
    state, e = table(lambda s, e: s.phase == PLAY and s.age == 1 and e.type == "card_played"
                     and s.last_taker != e.payload["seat"] and not s.agora["tasks"] and bool(s.pantheon["tokens"]))
    seat = e.payload["seat"]
    state.agora["hands"][seat] = [{"id": "turn_of_events", "prepared": True, "under": "x"}]
    GAME.rules.apply(state, crafted("conspiracy_triggered", e.seq, {"seat": seat, "conspiracy": "turn_of_events"}))
    GAME.rules.apply(state, crafted("senate_action", 999, {"seat": seat, "action": "skip"}))
    card = state.slots[next(x for x in state.available() if state.slots[x] is not None)]
    assert state.last_taker != seat
    GAME.rules.apply(state, crafted("conspiracy_target", 1000, {"seat": seat, "effect": "discard_available",
                                                                "target": card}))
    assert state.last_taker == seat  # so Pantheon's revealed() gives what it uncovers to the discarder
    from replay.games.seven_wonders_duel.pantheon import revealed

    slot = next(iter(state.pantheon["tokens"]))
    token = state.pantheon["tokens"][slot]
    mine = list(state.pantheon["mythology"][seat])
    revealed(state, slot, next(c for c in PACK.deck(1) if c not in state.seen))
    assert state.pantheon["mythology"][seat] == [*mine, token]


def test_minerva_stops_the_pawn_short_of_an_agora_token_and_poliorcetics_still_takes_coins():
    state, _ = table(_age_two_turn)
    space = min(t.space for t in PACK.agora.military_tokens)
    token = next(t.id for t in PACK.agora.military_tokens if t.space == space and t.id in state.loot[1])
    state.pawn, state.pantheon["minerva"], state.agora["tasks"] = 0, space, []
    state.tokens[0].append("poliorcetics")
    coins = state.coins[1]
    duel_rules.military(state, 0, space + 1)
    assert state.pawn == space - 1 and token in state.loot[1] and state.agora["tasks"] == []
    assert state.coins[1] == max(0, coins - (space - 1))
    duel_rules.military(state, 0, 1)
    assert token not in state.loot[1] and state.agora["tasks"]


def test_astarte_s_coins_are_safe_from_blackmail():
    from replay.games.seven_wonders_duel.agora import apply_effects
    from replay.games.seven_wonders_duel.pack import Effect

    state, _ = table(_age_two_turn)
    state.pantheon["reserve"][1] = 7
    state.coins = [0, 10]
    apply_effects(state, 0, (Effect(type="take_half_coins"),))
    assert state.coins == [5, 5] and state.pantheon["reserve"][1] == 7


def test_both_score_categories_count_in_the_total():
    state, _ = table(_age_two_turn)
    before = scores(state)
    state.pantheon["activated"][0].append({"divinity": "aphrodite", "age": 2, "via": "pantheon", "paid": 0})
    chamber = PACK.agora.chambers[0]
    state.agora["influence"][chamber.id] = [2, 0]
    after = scores(state)
    assert after[0]["pantheon"] == before[0]["pantheon"] + 9
    assert after[0]["senate"] >= before[0]["senate"]
    assert after[0]["total"] - before[0]["total"] == (after[0]["pantheon"] - before[0]["pantheon"]) + \
        (after[0]["senate"] - before[0]["senate"])


def test_astarte_s_coins_pay_for_a_senator_after_the_treasury():
    state, e = table(lambda s, e: _age_two_turn(s, e) and any(is_senator(s, s.slots[x]) for x in s.available()))
    seat = e.payload["seat"]
    slot = next(x for x in state.available() if is_senator(state, state.slots[x]))
    senator = state.slots[slot]
    state.agora["senators"][seat] = ["conspirator_1", "conspirator_2"]  # the next one costs 2
    state.tokens[seat] = [t for t in state.tokens[seat] if t != "corruption"]
    state.coins[seat], state.pantheon["reserve"][seat] = 1, 3
    recruit = crafted("senator_recruited", 900, {"seat": seat, "age": 2, "slot": slot, "card": senator, "paid": 2})
    assert list(GAME.rules.apply(state, recruit)) == []
    assert state.coins[seat] == 0 and state.pantheon["reserve"][seat] == 2 and senator in state.agora["senators"][seat]


def test_astarte_s_coins_pay_for_a_wonder_built_over_a_senator_after_the_treasury():
    state, e = table(lambda s, e: e.type == "card_played" and e.payload["action"] == "wonder"
                     and is_senator(s, e.payload["card"]) and e.payload["paid"] > 0 and s.pantheon is not None, range(150))
    seat, paid = e.payload["seat"], e.payload["paid"]
    state.coins[seat], state.pantheon["reserve"][seat] = paid - 1, 3
    GAME.rules.apply(state, e)
    assert e.payload["wonder"] in state.built_wonders[seat]
    assert state.coins[seat] >= 0 and state.pantheon["reserve"][seat] == 2
