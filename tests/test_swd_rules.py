"""7 Wonders Duel's rules: each rule id on a table set up for it, payments both ways, the
structures' availability and the face-down reveal, supremacy, the civilian tie-break, progress
tokens and the Wonders' powers."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from helpers import refused_by

from replay.driver import Replay, replay
from replay.errors import RuleViolation
from replay.events import Event, EventPayload, Provenance, Seat
from replay.games.seven_wonders_duel import GAME
from replay.games.seven_wonders_duel import events as ev
from replay.games.seven_wonders_duel import rules as duel_rules
from replay.games.seven_wonders_duel.city import payments, prices, production
from replay.games.seven_wonders_duel.legal import legal_plays, play_of
from replay.games.seven_wonders_duel.pack import Card
from replay.games.seven_wonders_duel.rules import RULES, judge
from replay.games.seven_wonders_duel.scoring import scores, winners
from replay.games.seven_wonders_duel.state import DEAL, OVER, PENDING, PLAY, SCORE, STARTER, State
from replay.problems import Problem
from replay.services.audit import audit
from replay.services.logs import Log

PACK = GAME.pack()
KIND = GAME.kind
WONDERS = ["pyramids", "colossus", "great_library", "mausoleum", "statue_of_zeus", "circus_maximus", "sphinx",
           "appian_way"]
TOKENS = ["agriculture", "law", "masonry", "strategy", "urbanism"]
seen_rules: set[str] = set()


def event(model: EventPayload, seq: int = 1) -> Event:
    return Event.create(KIND, "t", seq, model)


def raw(event_type: str, payload: dict[str, Any], seq: int = 1) -> Event:
    return Event("t", seq, KIND, event_type, 1, GAME.models[event_type].model_validate(payload).model_dump(mode="json"))


def apply(state: State, e: Event) -> list[Problem]:
    return list(GAME.rules.apply(state, e))


def refused(state: State, e: Event) -> str:
    """The rule id an event is refused by (the table unchanged)."""
    return refused_by(GAME, state, e, seen_rules)


def claims(found: list[Problem]) -> list[str]:
    seen_rules.update(p.rule_id for p in found)
    return [p.rule_id for p in found]


def start(first: int = 0, pack: Any = PACK) -> State:
    e = event(ev.GameStarted(ruleset=pack.pin, seats=[Seat(seat=0, name="Ana"), Seat(seat=1, name="Ben")], first=first,
                             provenance=Provenance(source="typed")), 0)
    return GAME.rules.start(e, pack)


def drafted(first: int = 0) -> State:
    """After the setup and the draft (first, second, second, first; then second, first, first, second):
    with Ana first, Ana has pyramids, mausoleum, circus_maximus, sphinx; Ben colossus, great_library,
    statue_of_zeus, appian_way."""
    state = start(first)
    apply(state, event(ev.TokensRevealed(tokens=TOKENS)))
    for n in (1, 2):
        offer = WONDERS[(n - 1) * 4: n * 4]
        apply(state, event(ev.WondersRevealed(set=n, wonders=offer)))
        for w in offer:
            from replay.games.seven_wonders_duel.rules import drafter

            apply(state, event(ev.WonderPicked(seat=drafter(state), wonder=w)))
    return state


def dealt(first: int = 0, **cards: str) -> State:
    """Age I dealt: its face-up slots with the Age's cards in pack order, ``cards`` put in first (slot=card)."""
    state = drafted(first)
    face_up = [s.id for s in PACK.layout(1).slots if s.face_up]
    rest = [c for c in PACK.deck(1) if c not in cards.values()]
    layout = {s: cards.get(s) or rest.pop(0) for s in face_up}
    apply(state, event(ev.AgeDealt(age=1, cards=layout)))
    return state


def played(state: State, slot: str, action: str = "construct", **kw: Any) -> Event:
    payload = {"seat": state.player, "age": state.age, "slot": slot, "card": state.slots[slot], "action": action, **kw}
    return raw("card_played", payload)


def set_cities(state: State, seat: int, *cards: str) -> None:
    state.built[seat] += list(cards)


# ----------------------------------------------------------------------------- the start


def test_a_game_starts_after_the_setup_and_the_snake_draft():
    state = drafted(first=1)
    assert state.phase == DEAL and state.player == 1
    # set 1: first (Ben), second, second, first; set 2: second (Ana), first, first, second
    assert state.wonders[1] == ["pyramids", "mausoleum", "circus_maximus", "sphinx"]
    assert state.wonders[0] == ["colossus", "great_library", "statue_of_zeus", "appian_way"]
    assert state.coins == [7, 7] and state.board_tokens == TOKENS


def test_expansions_are_refused_at_the_start_with_a_rule_id(monkeypatch):
    """Both expansions are implemented (tests/test_swd_pantheon.py, tests/test_swd_agora.py), and both
    in one game (tests/test_swd_together.py); a pack playing one that is not (here: as if Agora's
    rules were missing) is refused at its start, and so would be both together were ``TOGETHER`` off."""
    monkeypatch.setattr(duel_rules, "IMPLEMENTED", frozenset({"pantheon"}))
    for name in ("7wd-duel-agora", "7wd-duel-pantheon-agora"):
        with pytest.raises(RuleViolation) as info:
            start(pack=GAME.pack(name))
        assert info.value.problem.rule_id == "swd.expansion"
        assert "not implemented yet" in (info.value.problem.found or "")
        seen_rules.add("swd.expansion")
    monkeypatch.undo()
    # both together are implemented (tests/test_swd_together.py): the combined pack starts with both parts
    both = start(pack=GAME.pack("7wd-duel-pantheon-agora"))
    assert both.pantheon is not None and both.agora is not None
    monkeypatch.setattr(duel_rules, "TOGETHER", False)  # as if their interactions were not: refused "together"
    with pytest.raises(RuleViolation) as info:
        start(pack=GAME.pack("7wd-duel-pantheon-agora"))
    assert info.value.problem.rule_id == "swd.expansion" and "together" in (info.value.problem.found or "")


def test_a_pack_with_missing_facts_is_refused_naming_them():
    cards = list(PACK.cards)
    cards[0] = Card(id=cards[0].id, age=1, confidence="missing", source="nowhere")
    broken = PACK.model_copy(update={"cards": tuple(cards)})
    with pytest.raises(RuleViolation) as info:
        start(pack=broken)
    assert info.value.problem.rule_id == "swd.pack" and cards[0].id in (info.value.problem.found or "")
    seen_rules.add("swd.pack")


def test_the_setup_and_the_draft_are_checked():
    state = start()
    assert refused(state, event(ev.WondersRevealed(set=1, wonders=WONDERS[:4]))) == "swd.expected"
    assert refused(state, event(ev.TokensRevealed(tokens=TOKENS[:4]))) == "swd.tokens"
    assert refused(state, event(ev.TokensRevealed(tokens=[*TOKENS[:4], "agriculture"]))) == "swd.tokens"
    apply(state, event(ev.TokensRevealed(tokens=TOKENS)))
    assert refused(state, event(ev.WondersRevealed(set=1, wonders=WONDERS[:3] + ["nowhere"]))) == "swd.draft.reveal"
    apply(state, event(ev.WondersRevealed(set=1, wonders=WONDERS[:4])))
    assert refused(state, event(ev.WonderPicked(seat=1, wonder="pyramids"))) == "swd.draft.pick"  # Ana picks first
    assert refused(state, event(ev.WonderPicked(seat=0, wonder="sphinx"))) == "swd.draft.pick"  # not on offer
    for seat, w in zip((0, 1, 1, 0), WONDERS[:4]):
        apply(state, event(ev.WonderPicked(seat=seat, wonder=w)))
    # the second set: never one turned up before
    assert refused(state, event(ev.WondersRevealed(set=2, wonders=WONDERS[:4]))) == "swd.draft.reveal"


def test_a_deal_is_the_face_up_slots_with_cards_of_the_age():
    state = drafted()
    face_up = [s.id for s in PACK.layout(1).slots if s.face_up]
    deck = PACK.deck(1)
    assert refused(state, event(ev.AgeDealt(age=2, cards=dict(zip(face_up, deck))))) == "swd.expected"
    assert refused(state, event(ev.AgeDealt(age=1, cards=dict(zip(face_up[:-1], deck))))) == "swd.deal"
    assert refused(state, event(ev.AgeDealt(age=1, cards=dict(zip(face_up, ["sawmill", *deck]))))) == "swd.deal"
    assert refused(state, event(ev.AgeDealt(age=1, cards=dict(zip(face_up, [deck[0], *deck]))))) == "swd.deal"
    apply(state, event(ev.AgeDealt(age=1, cards=dict(zip(face_up, deck)))))
    assert state.phase == PLAY and state.available() == [s.id for s in PACK.layout(1).slots if s.row == 5]


# ----------------------------------------------------------------------------- the structure


def test_availability_as_cards_are_taken_and_the_face_down_reveal():
    layout = PACK.layout(1)
    assert layout.available(frozenset({"r5c0"})) == ["r5c2", "r5c4", "r5c6", "r5c8", "r5c10"]
    assert "r4c1" in layout.available(frozenset({"r5c0", "r5c2"}))
    state = dealt()
    apply(state, played(state, "r5c0", "discard"))
    assert state.phase == PLAY and state.player == 1  # nothing uncovered yet
    apply(state, played(state, "r5c2", "discard"))
    assert state.phase == PENDING and state.queue == [["reveal", None, "r4c1"]]
    assert state.slots["r4c1"] is None  # not known before it is turned up
    assert refused(state, played(state, "r5c4", "discard")) == "swd.expected"
    assert refused(state, raw("card_revealed", {"age": 1, "slot": "r4c3", "card": "baths"})) == "swd.reveal"
    already = state.slots["r5c6"]
    assert refused(state, raw("card_revealed", {"age": 1, "slot": "r4c1", "card": already})) == "swd.reveal"
    assert refused(state, raw("card_revealed", {"age": 1, "slot": "r4c1", "card": "sawmill"})) == "swd.reveal"
    hidden = next(c for c in PACK.deck(1) if c not in state.seen)
    apply(state, raw("card_revealed", {"age": 1, "slot": "r4c1", "card": hidden}))
    assert state.slots["r4c1"] == hidden and state.phase == PLAY and state.player == 0
    assert refused(state, played(state, "r3c2", "discard")) == "swd.available"  # still covered by r4c3
    assert refused(state, raw("card_played", {"seat": 0, "age": 1, "slot": "r5c4", "card": "baths",
                                              "action": "discard"})) == "swd.available"  # not the slot's card


@pytest.mark.parametrize("age", [1, 2, 3])
def test_each_structure_empties_slot_by_slot_and_every_face_down_card_is_uncovered_once(age):
    layout = PACK.layout(age)
    rng = random.Random(age)
    for _ in range(20):
        taken: list[str] = []
        uncovered = {s.id for s in layout.slots if s.face_up and not s.covered_by}
        while len(taken) < len(layout.slots):
            available = layout.available(frozenset(taken))
            assert available and set(available) <= uncovered  # never a card still covered
            taken.append(rng.choice(available))
            now = set(layout.available(frozenset(taken)))
            uncovered |= now
        assert uncovered == {s.id for s in layout.slots}
    first_row = [s.id for s in layout.slots if not s.covered_by]
    assert layout.available() == first_row and all(s.face_up for s in layout.slots if not s.covered_by)


def test_the_turn_passes_and_the_age_is_checked():
    state = dealt()
    assert refused(state, raw("card_played", {"seat": 1, "age": 1, "slot": "r5c0", "card": state.slots["r5c0"],
                                              "action": "discard"})) == "swd.turn"
    wrong_age = played(state, "r5c0", "discard")
    assert refused(state, wrong_age._replace(payload={**wrong_age.payload, "age": 2})) == "swd.turn"


def test_an_age_ends_and_the_player_nearer_defeat_chooses_who_starts():
    state = dealt()
    state.taken = [s.id for s in PACK.layout(1).slots if s.id != "r1c4"]
    state.pawn = 2  # towards Ben's capital: Ben is nearer defeat
    apply(state, played(state, "r1c4", "discard"))
    assert state.phase == STARTER and state.chooser == 1
    assert refused(state, event(ev.StarterChosen(seat=0, starts=0))) == "swd.starter"
    apply(state, event(ev.StarterChosen(seat=1, starts=0)))
    assert state.phase == DEAL and state.player == 0
    for pawn, last, chooser in ((0, 0, 0), (0, 1, 1), (-1, 1, 0)):
        state = dealt()
        state.taken = [s.id for s in PACK.layout(1).slots if s.id != "r1c4"]
        state.pawn, state.player = pawn, last
        apply(state, played(state, "r1c4", "discard"))
        assert state.chooser == chooser


# ----------------------------------------------------------------------------- payments


def test_resources_missing_are_bought_at_two_plus_the_opponent_s_production():
    state = dealt(r5c0="stable")  # stable: 1 wood
    assert judge(state, 0, played(state, "r5c0").payload).rule_id == "swd.pay.resources"  # type: ignore[union-attr]
    seen_rules.add("swd.pay.resources")
    assert judge(state, 0, played(state, "r5c0", bought={"wood": 1}).payload) == 2
    set_cities(state, 1, "lumber_yard", "logging_camp")
    assert prices(state, 0)["wood"] == 4 and judge(state, 0, played(state, "r5c0", bought={"wood": 1}).payload) == 4
    set_cities(state, 0, "wood_reserve")  # yellow: wood at 1
    assert judge(state, 0, played(state, "r5c0", bought={"wood": 1}).payload) == 1
    state.coins[0] = 0
    assert refused(state, played(state, "r5c0", bought={"wood": 1})) == "swd.pay.coins"
    set_cities(state, 0, "lumber_yard")
    assert judge(state, 0, played(state, "r5c0").payload) == 0


def test_choice_producers_give_one_resource_each():
    state = dealt(r5c0="baths")  # 1 stone
    set_cities(state, 0, "caravansery")
    assert production(state, 0).choices == (("caravansery", ("wood", "clay", "stone")),)
    assert judge(state, 0, played(state, "r5c0", choices={"caravansery": "stone"}).payload) == 0
    assert refused(state, played(state, "r5c0", choices={"caravansery": "glass"})) == "swd.pay.choice"
    assert refused(state, played(state, "r5c0", choices={"forum": "stone"})) == "swd.pay.choice"


def test_discounts_of_masonry_and_architecture():
    state = dealt(r5c0="baths")  # blue, 1 stone
    assert refused(state, played(state, "r5c0", discount={"stone": 1})) == "swd.pay.discount"
    state.tokens[0].append("masonry")
    assert judge(state, 0, played(state, "r5c0", discount={"stone": 1}).payload) == 0
    assert refused(state, played(state, "r5c0", discount={"stone": 2})) == "swd.pay.discount"  # more than the cost
    # Architecture: Wonders cost 2 resources fewer; pyramids is 3 stone and a papyrus
    state.tokens[0].append("architecture")
    pay = payments(state, 0, PACK.wonder_by_id["sphinx"].cost, "wonder")  # type: ignore[arg-type]
    assert pay[0].coins == 4 and sum(k for _, k in pay[0].discount) == 2  # glass at 2 twice left out
    assert refused(state, played(state, "r5c0", "wonder", wonder="sphinx", discount={"glass": 2, "clay": 1},
                                 bought={"stone": 1})) == "swd.pay.discount"
    assert judge(state, 0, played(state, "r5c0", "wonder", wonder="sphinx", discount={"glass": 2},
                                  bought={"clay": 1, "stone": 1}).payload) == 4


def test_chains_are_free_only_with_the_symbol():
    state = dealt()
    state.slots["r5c0"] = "horse_breeders"  # chains from the horseshoe (stable)
    assert refused(state, played(state, "r5c0", free="chain")) == "swd.chain"
    set_cities(state, 0, "stable")
    assert judge(state, 0, played(state, "r5c0", free="chain").payload) == 0
    assert refused(state, played(state, "r5c0", free="chain", bought={"wood": 1})) == "swd.pay.free"
    assert refused(state, played(state, "r5c0", "discard", bought={"wood": 1})) == "swd.pay.free"
    state.tokens[0].append("urbanism")
    coins = state.coins[0]
    apply(state, played(state, "r5c0", free="chain"))
    assert state.coins[0] == coins + 4  # Urbanism: 4 coins a chain


def test_every_listed_play_is_accepted_and_no_accepted_payment_is_cheaper():
    """Both ways, on the tables of simulated games: every listed play is accepted at its price;
    random payments the rules accept never cost less than the cheapest listed one."""
    rng = random.Random(4)
    listed_checked = accepted_random = 0
    for seed in range(6):
        events = GAME.bots.simulate(f"p{seed}", ["Ana", "Ben"], seed, ("random", "military"), PACK)
        r = Replay(GAME)
        for e in events:
            state = r.state
            if e.type == "card_played" and state is not None:
                seat = e.payload["seat"]
                plays = legal_plays(state, seat)
                assert play_of(e) in plays
                by_card: dict[tuple[str, str, str | None], int] = {}
                for p in plays:
                    payload = {"seat": seat, "age": state.age, "slot": p[1], "card": p[2], "action": p[3], "wonder": p[4],
                               "free": p[5], "choices": dict(p[6]), "discount": dict(p[7]), "bought": dict(p[8])}
                    coins = judge(state, seat, payload)
                    assert isinstance(coins, int), (p, coins)
                    listed_checked += 1
                    if p[5] is None:
                        key = (p[2], p[3], p[4])
                        by_card[key] = min(by_card.get(key, 99), coins)
                accepted_random += _random_payments(state, seat, by_card, rng)
            r.push(e)
    assert listed_checked > 1000 and accepted_random > 100


def _random_payments(state: State, seat: int, cheapest: dict[tuple[str, str, str | None], int], rng: random.Random) -> int:
    accepted = 0
    own = production(state, seat)
    for slot in state.available():
        card = state.card(state.slots[slot])  # type: ignore[arg-type]
        for action, wonder in [("construct", None)] + [("wonder", w) for w in state.wonders[seat]]:
            cost = card.cost if wonder is None else PACK.wonder_by_id[wonder].cost
            assert cost is not None
            for _ in range(6):
                choices = {src: rng.choice(opts) for src, opts in own.choices if rng.random() < 0.7}
                resources = list(cost.resources)
                discount = {r: 1 for r in rng.sample(resources, min(len(resources), rng.randrange(3)))}
                bought = {r: k for r, k in cost.resources.items() if rng.random() < 0.8}
                payload = {"seat": seat, "age": state.age, "slot": slot, "card": card.id, "action": action, "wonder": wonder,
                           "free": None, "choices": choices, "discount": discount, "bought": bought}
                coins = judge(state, seat, payload)
                if isinstance(coins, int):
                    accepted += 1
                    assert (card.id, action, wonder) in cheapest, payload
                    assert coins >= cheapest[(card.id, action, wonder)], payload
    return accepted


# ----------------------------------------------------------------------------- military and science


def test_looting_tokens_are_applied_once_and_claims_are_checked():
    state = dealt(r5c0="guard_tower", r5c2="stable", r5c4="garrison")
    state.pawn = 2
    state.coins[1] = 1
    found = apply(state, played(state, "r5c0", pawn=3, looted=1))
    assert not found and state.pawn == 3 and state.coins[1] == 0 and state.loot[1] == ["loot_5"]
    apply(state, played(state, "r5c4", "discard"))  # Ben
    found = apply(state, played(state, "r5c2", bought={"wood": 1}, pawn=3, looted=2, paid=3))
    assert claims(found) == ["swd.claim.paid", "swd.claim.military", "swd.claim.military"]
    assert state.pawn == 4 and state.coins[1] == 2  # 2 for discarding, nothing looted twice


def test_military_supremacy_ends_the_game_at_once():
    state = dealt(r5c0="guard_tower")
    state.pawn = 8
    state.tokens[0].append("strategy")  # a red card gives one shield more
    apply(state, played(state, "r5c0"))
    assert state.pawn == 9 and state.phase == SCORE and state.victory == "military" and state.winners == [0]
    found = apply(state, event(ev.GameEnded(victory="civilian", winners=[1])))
    assert claims(found) == ["swd.claim.victory", "swd.claim.victory"]
    assert state.phase == OVER and GAME.views.result(state).winners == (0,)
    assert refused(state, event(ev.GameEnded())) == "swd.game-over"


def test_scientific_supremacy_ends_the_game_at_once():
    state = dealt(r5c0="workshop")  # plumb
    set_cities(state, 0, "apothecary", "scriptorium", "pharmacist", "academy", "university")
    state.coins[0] = 9
    apply(state, played(state, "r5c0", bought={"papyrus": 1}))
    assert state.victory == "science" and state.winners == [0] and state.phase == SCORE and not state.queue


def test_a_pair_of_symbols_gives_a_progress_token_once():
    state = dealt(r5c0="workshop", r5c2="press", r5c4="apothecary")
    set_cities(state, 0, "laboratory")  # plumb
    state.coins[0] = 9
    apply(state, played(state, "r5c0", bought={"papyrus": 1}))
    assert state.phase == PENDING and state.queue[0][:2] == ["progress", 0]
    assert refused(state, event(ev.ProgressTaken(seat=0, token="philosophy"))) == "swd.progress"
    assert refused(state, event(ev.ProgressTaken(seat=1, token="law"))) == "swd.expected"
    coins = state.coins[0]
    apply(state, event(ev.ProgressTaken(seat=0, token="agriculture")))
    assert state.tokens[0] == ["agriculture"] and state.coins[0] == coins + 6 and "agriculture" not in state.board_tokens
    assert state.phase == PLAY and state.player == 1
    assert scores(state)[0]["progress"] == 4


def test_the_law_token_is_a_symbol_and_tokens_score():
    state = dealt(r5c0="workshop")
    set_cities(state, 0, "apothecary", "scriptorium", "pharmacist", "academy")
    state.tokens[0] = ["law"]
    state.coins[0] = 9
    apply(state, played(state, "r5c0", bought={"papyrus": 1}))
    assert state.victory == "science"
    state = dealt()
    state.tokens[0] = ["mathematics", "philosophy", "agriculture"]
    assert scores(state)[0]["progress"] == 3 * 3 + 7 + 4


# ----------------------------------------------------------------------------- Wonders


def test_wonders_their_powers_replay_and_the_limit_of_seven():
    state = dealt(r5c0="lumber_yard")
    state.coins[0] = 30
    sphinx = {"clay": 1, "glass": 2, "stone": 1}  # Ana owns pyramids, mausoleum, circus_maximus, sphinx
    assert refused(state, played(state, "r5c0", "wonder", wonder="colossus", bought={"clay": 3, "glass": 1})) == "swd.wonder"
    assert refused(state, played(state, "r5c0", "construct", wonder="sphinx")) == "swd.wonder"
    apply(state, played(state, "r5c0", "wonder", wonder="sphinx", bought=sphinx))
    assert state.built_wonders[0] == ["sphinx"] and state.under[0] == ["lumber_yard"]
    assert state.player == 0 and state.phase == PLAY  # the Sphinx: play again
    assert refused(state, played(state, "r5c4", "wonder", wonder="sphinx", bought=sphinx)) == "swd.wonder"  # once
    # seven built: the eighth is out
    state.built_wonders = [["sphinx", "pyramids", "mausoleum"], ["colossus", "great_library", "statue_of_zeus"]]
    apply(state, played(state, "r5c4", "wonder", wonder="circus_maximus", bought={"glass": 1, "stone": 2, "wood": 1}))
    assert state.wonders_out == ["appian_way"] and state.pawn == 1
    assert state.queue[0] == ["destroy", 0, ["grey"]]
    apply(state, event(ev.CardDestroyed(seat=0, card=None)))  # Ben has no grey card
    assert state.player == 1
    assert refused(state, played(state, "r5c8", "wonder", wonder="appian_way",
                                 bought={"clay": 2, "papyrus": 1, "stone": 2})) == "swd.wonder"


def test_destroy_build_from_the_discard_pile_and_the_great_library():
    state = dealt(r5c0="lumber_yard", r5c4="press", r5c8="glassworks")
    state.coins = [30, 30]
    set_cities(state, 1, "stone_pit", "clay_pit")
    state.player = 1  # Ben: statue_of_zeus destroys a brown card
    apply(state, played(state, "r5c0", "wonder", wonder="statue_of_zeus",
                        bought={"clay": 1, "papyrus": 2, "stone": 1, "wood": 1}))
    assert state.queue[0][:2] == ["destroy", 1] and state.pawn == -1
    state.built[0].append("quarry")
    assert refused(state, event(ev.CardDestroyed(seat=1, card=None))) == "swd.destroy"  # Ana has a brown card
    assert refused(state, event(ev.CardDestroyed(seat=1, card="stone_pit"))) == "swd.destroy"  # his own
    apply(state, event(ev.CardDestroyed(seat=1, card="quarry")))
    assert "quarry" in state.discard and "quarry" not in state.built[0] and state.player == 0
    # the Mausoleum (Ana): a card of the discard pile, for free
    apply(state, played(state, "r5c4", "wonder", wonder="mausoleum", bought={"clay": 2, "glass": 2, "papyrus": 1}))
    assert refused(state, event(ev.DiscardBuilt(seat=0, card="press"))) == "swd.discard-built"
    apply(state, event(ev.DiscardBuilt(seat=0, card="quarry")))
    assert "quarry" in state.built[0] and state.player == 1
    # the Great Library (Ben): three tokens drawn among those set aside, one kept
    apply(state, played(state, "r5c8", "wonder", wonder="great_library", bought={"glass": 1, "papyrus": 1, "wood": 3}))
    assert refused(state, event(ev.TokensDrawn(seat=1, tokens=["law", "theology", "economy"]))) == "swd.library"
    assert refused(state, event(ev.TokensDrawn(seat=1, tokens=["theology", "economy"]))) == "swd.library"
    apply(state, event(ev.TokensDrawn(seat=1, tokens=["theology", "economy", "philosophy"])))
    assert refused(state, event(ev.ProgressTaken(seat=1, token="law", source="box"))) == "swd.progress"
    apply(state, event(ev.ProgressTaken(seat=1, token="theology", source="box")))
    assert state.tokens[1] == ["theology"] and state.drawn == [] and state.player == 0


def test_economy_gives_the_opponent_s_trade_and_theology_replays():
    state = dealt(r5c0="stable", r5c4="press")
    state.tokens[1] = ["economy", "theology"]
    apply(state, played(state, "r5c0", bought={"wood": 1}))
    assert state.coins == [5, 9]
    state.coins[1] = 30
    apply(state, played(state, "r5c4", "wonder", wonder="colossus", bought={"clay": 3, "glass": 1}))
    assert state.player == 1 and state.pawn == 1 - 2  # Theology: every Wonder replays


def test_the_wonder_powers_that_occur_in_simulated_games():
    seen: Counter[str] = Counter()
    replays = 0
    for seed in range(30):
        events = GAME.bots.simulate(f"w{seed}", ["Ana", "Ben"], seed, ("random", "military"), PACK)
        assert audit(Log(events, GAME, "simulated")).ok
        seen.update(e.type for e in events)
        plays = [e for e in events if e.type == "card_played"]
        for a, b in zip(plays, plays[1:]):
            wonder = PACK.wonder_by_id.get(a.payload.get("wonder") or "")
            if wonder is not None and any(e.type == "replay" for e in wonder.effects) and a.payload["age"] == b.payload["age"]:
                assert b.payload["seat"] == a.payload["seat"]
                replays += 1
    assert replays > 0
    assert all(seen[t] > 0 for t in ("card_destroyed", "discard_built", "tokens_drawn", "progress_taken", "card_revealed",
                                     "starter_chosen"))


# ----------------------------------------------------------------------------- the end


def test_the_civilian_count_and_its_tie_break():
    state = dealt()
    state.victory = "civilian"
    state.coins = [0, 0]
    state.built = [["theater", "baths"], ["temple", "statue"]]  # blue: 6 v 8
    state.tokens = [["philosophy", "agriculture"], []]  # 7 + 4 = 11 VP: 17 v 8
    assert winners(state) == [0]
    state.tokens = [["philosophy"], []]  # 13 v 8
    state.built[1] += ["altar"]  # 11
    state.pawn = -3  # Ben: 5 military VP: 13 v 16
    assert winners(state) == [1]
    state.pawn = -1  # 2 VP: 13 v 13, civilian 6 v 11
    assert scores(state)[0]["total"] == scores(state)[1]["total"] and winners(state) == [1]
    state.built = [["theater", "baths", "courthouse"], ["temple", "statue", "altar"]]  # 11 v 11
    state.tokens = [[], []]
    state.pawn = 0
    assert winners(state) == [0, 1]  # shared


def test_final_scores_are_checked():
    events = GAME.bots.simulate("s", ["Ana", "Ben"], 3, GAME.bots.default, PACK)
    end = events[-1]
    scored = end.payload["scores"]
    wrong = [{**scored[0], "total": scored[0]["total"] + 1}, scored[1]]
    r = replay(GAME, [*events[:-1], end._replace(payload={**end.payload, "scores": wrong})])
    assert [p.rule_id for p in r.problems] == ["swd.claim.score"]
    seen_rules.add("swd.claim.score")


def test_every_rule_id_is_tested():
    """Runs last in this file: every rule id was met by a test above."""
    seen_rules.update({"swd.start"} if _start_refused() else set())
    expansions = {r for r in RULES if r.startswith(("swd.pantheon.", "swd.agora."))}  # their own test files
    assert set(RULES) - expansions - seen_rules == set()


def _start_refused() -> bool:
    e = raw("game_started", {"ruleset": PACK.pin.model_dump(), "seats": [{"seat": 0, "name": "A"}, {"seat": 2, "name": "B"}],
                             "provenance": {"source": "typed"}}, 0)
    with pytest.raises(RuleViolation) as info:
        GAME.rules.start(e, PACK)
    return info.value.problem.rule_id == "swd.start"
