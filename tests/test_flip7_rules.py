"""Flip 7's rules, one rule id at a time, legal and illegal, with numbers worked by hand; every
value of every option; deck conservation; seeded simulations.

The table is three seats (Ana 0, Ben 1, Chloe 2); the games below are built card by card, the
deck stacked so that its top cards are the ones named (the rest follow in the pack's order).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.contract import Observer, Step
from replay.driver import Replay, replay
from replay.errors import RuleViolation
from replay.events import Event, EventPayload, Provenance, Seat
from replay.games.flip7 import GAME, simulate_game
from replay.games.flip7 import events as ev
from replay.games.flip7.pack import Flip7Pack
from replay.games.flip7.rules import RULES
from replay.problems import Problem

NAMES = ["Ana", "Ben", "Chloe"]
ANA, BEN, CHLOE = 0, 1, 2
STANDARD = GAME.pack()
GAME_DOC = Path(__file__).parent.parent / "docs" / "games" / "flip-7.md"
assert isinstance(STANDARD, Flip7Pack)


def pack_with(*, cards: dict[str, int] | None = None, **changes: Any) -> Flip7Pack:
    """The standard pack with some options, scoring or the deck changed (a pack of its own hash)."""
    options = {k: v for k, v in changes.items() if k in type(STANDARD.options).model_fields}
    scoring = {k: v for k, v in changes.items() if k in type(STANDARD.scoring).model_fields}
    update: dict[str, Any] = {"options": STANDARD.options.model_copy(update=options),
                              "scoring": STANDARD.scoring.model_copy(update=scoring)}
    if cards is not None:
        update["deck"] = [STANDARD.deck[0].model_copy(update={"card": c, "kind": "number", "value": int(c), "count": k})
                          for c, k in cards.items()]
    return STANDARD.model_copy(update=update)


def stacked(pack: Flip7Pack, *top: str) -> list[str]:
    """The whole deck with ``top`` on top, the other cards after them in the pack's order."""
    rest = Counter({c.card: c.count for c in pack.deck}) - Counter(top)
    return list(top) + [c.card for c in pack.deck for _ in range(rest[c.card])]


class Table:
    """A game fed one event at a time through a lenient replay (problems are collected)."""

    def __init__(self, *top: str, dealer: int = ANA, pack: Flip7Pack | None = None, shuffle: bool = True) -> None:
        self.pack = pack or STANDARD
        self.replay: Replay[Any] = Replay(GAME, GAME.library(extra=[self.pack]))
        self.seq = 0
        self.push(ev.GameStarted(ruleset=self.pack.pin, seats=[Seat(seat=i, name=n) for i, n in enumerate(NAMES)],
                                 provenance=Provenance(source="typed"), first_dealer=dealer))
        if shuffle:
            self.ok(ev.RoundStarted(round=1, dealer=dealer), ev.DeckShuffled(reason="new_deck", order=stacked(self.pack, *top)))

    @property
    def state(self) -> Any:
        return self.replay.state

    def push(self, payload: EventPayload) -> tuple[Problem, ...]:
        step = self.replay.push(Event.create(ev.KIND, "t", self.seq, payload))
        self.seq += 1
        return step.problems

    def ok(self, *payloads: EventPayload) -> None:
        for p in payloads:
            assert self.push(p) == (), p

    def refused(self, payload: EventPayload, rule_id: str) -> Problem:
        """The event is refused with ``rule_id`` and changes nothing (tried strictly, without recovery)."""
        strict = Replay.resume(GAME, self.pack, GAME.rules.restore(GAME.rules.snapshot(self.state), self.pack),
                               self.seq - 1, NAMES, level="collect")
        strict.rules = _NoRecovery()  # type: ignore[assignment]
        before = GAME.views.data(strict.state)
        step = strict.push(Event.create(ev.KIND, "t", self.seq, payload))
        assert [p.rule_id for p in step.problems] == [rule_id], step.problems
        assert step.refused and GAME.views.data(strict.state) == before
        return step.problems[0]

    def expect(self) -> list[Any]:
        return list(self.state.expect)


class _NoRecovery(type(GAME.rules)):  # type: ignore[misc]
    def recover(self, state: Any, event: Event, problem: Problem) -> tuple[Problem, ...]:
        return ()


def hit(seat: int, card: str) -> tuple[EventPayload, EventPayload]:
    return ev.PlayerHit(seat=seat), ev.CardDrawn(seat=seat, card=card, reason="hit")


def deal(seat: int, card: str) -> ev.CardDrawn:
    return ev.CardDrawn(seat=seat, card=card, reason="deal")


def flip(seat: int, card: str) -> ev.CardDrawn:
    return ev.CardDrawn(seat=seat, card=card, reason="flip_three")


def stay(seat: int) -> ev.PlayerStayed:
    return ev.PlayerStayed(seat=seat)


def the_48_round(pack: Flip7Pack | None = None) -> Table:
    """The rules text's example: 3 + 4 + 12 = 19, x2 = 38, +10 = 48 (Ben); Chloe 5, Ana 6."""
    t = Table("3", "5", "6", "4", "12", "x2", "+10", pack=pack)
    t.ok(deal(BEN, "3"), deal(CHLOE, "5"), deal(ANA, "6"), *hit(BEN, "4"), stay(CHLOE), stay(ANA),
         *hit(BEN, "12"), *hit(BEN, "x2"), *hit(BEN, "+10"), stay(BEN))
    return t


# ----------------------------------------------------------------------------- every rule id


def test_every_rule_id_is_documented() -> None:
    text = (GAME_DOC).read_text()
    assert [r for r in RULES if f"`{r}`" not in text] == []


def test_start_needs_seats_numbered_from_0_and_a_dealer_among_them() -> None:
    start = ev.GameStarted(ruleset=STANDARD.pin, seats=[Seat(seat=0, name="Ana"), Seat(seat=2, name="Ben")],
                           provenance=Provenance(source="typed"))
    r = replay(GAME, [Event.create(ev.KIND, "t", 0, start)])
    assert r.unplayable is not None and r.unplayable.rule_id == "flip7.start"
    start = ev.GameStarted(ruleset=STANDARD.pin, seats=[Seat(seat=0, name="Ana")], provenance=Provenance(source="typed"),
                           first_dealer=1)
    assert replay(GAME, [Event.create(ev.KIND, "t", 0, start)]).problems[0].rule_id == "flip7.start"


def test_round_numbers_and_the_dealer_passing_left() -> None:
    t = Table(shuffle=False, dealer=CHLOE)
    assert t.refused(ev.RoundStarted(round=2, dealer=CHLOE), "flip7.round").expected == "round 1 dealt by Chloe"
    t.refused(ev.RoundStarted(round=1, dealer=ANA), "flip7.round")
    t.ok(ev.RoundStarted(round=1, dealer=CHLOE))
    t = the_48_round()
    t.refused(ev.RoundEnded(round=2), "flip7.round")
    t.ok(ev.RoundEnded(round=1))
    t.refused(ev.RoundStarted(round=2, dealer=ANA), "flip7.round")  # dealt by Ana in round 1: Ben now
    t.ok(ev.RoundStarted(round=2, dealer=BEN))


def test_a_new_deck_names_the_card_missing_or_extra() -> None:
    t = Table(shuffle=False)
    t.ok(ev.RoundStarted(round=1, dealer=ANA))
    order = stacked(STANDARD)
    missing = t.refused(ev.DeckShuffled(reason="new_deck", order=order[1:]), "flip7.deck")
    assert missing.found == "missing 0"
    doubled = t.refused(ev.DeckShuffled(reason="new_deck", order=order[1:] + ["12"]), "flip7.deck")
    assert doubled.found == "missing 0; extra 12"
    t.refused(ev.DeckShuffled(reason="reshuffle", order=order), "flip7.expected")
    t.ok(ev.DeckShuffled(reason="new_deck", order=order))
    assert len(t.state.draw) == 94 and GAME.pack().size() == 94


def test_a_card_drawn_is_the_top_card() -> None:
    t = Table("3", "5")
    problem = t.refused(deal(BEN, "5"), "flip7.draw")
    assert (problem.expected, problem.found) == ("the top card, 3", "5")
    t.ok(deal(BEN, "3"))
    t.refused(deal(ANA, "5"), "flip7.expected")  # Chloe is dealt next


def test_only_the_player_offered_hit_or_stay_decides() -> None:
    t = Table("3", "5", "6")
    t.ok(deal(BEN, "3"), deal(CHLOE, "5"), deal(ANA, "6"))
    assert t.refused(ev.PlayerHit(seat=ANA), "flip7.turn-order").expected == "Ben to hit or stay"
    t.refused(stay(CHLOE), "flip7.turn-order")
    assert GAME.rules.legal_actions(t.state, BEN) == ["hit", "stay"]
    assert GAME.rules.legal_actions(t.state, ANA) == []
    t.ok(stay(BEN))
    assert t.expect() == ["decision", CHLOE]


def test_a_bust_must_be_recorded_where_it_happens_and_only_there() -> None:
    t = Table("3", "5", "6", "3")
    t.ok(deal(BEN, "3"), deal(CHLOE, "5"), deal(ANA, "6"), *hit(BEN, "3"))
    assert t.expect() == ["busted", BEN, "3"]
    problem = t.refused(stay(CHLOE), "flip7.expected")
    assert problem.expected == "busted Ben on 3"
    t.refused(ev.Busted(seat=BEN, card="5"), "flip7.expected")
    t.ok(ev.Busted(seat=BEN, card="3"))
    t.refused(ev.Busted(seat=CHLOE, card="5"), "flip7.expected")  # an invented bust
    assert t.state.status == ["active", "busted", "active"]


def test_a_forgotten_bust_is_reported_then_put_on_the_table() -> None:
    t = Table("3", "5", "6", "3")
    t.ok(deal(BEN, "3"), deal(CHLOE, "5"), deal(ANA, "6"), *hit(BEN, "3"))
    problems = t.push(stay(CHLOE))
    assert [p.rule_id for p in problems] == ["flip7.expected"]
    assert t.state.status == ["active", "busted", "stayed"]  # the bust, then Chloe's stay


def test_targets_of_freeze_and_second_chance() -> None:
    t = Table("3", "freeze", "second_chance", "second_chance")
    t.ok(deal(BEN, "3"), deal(CHLOE, "freeze"))
    assert GAME.rules.legal_actions(t.state, CHLOE) == ["freeze to 0", "freeze to 1", "freeze to 2"]
    t.ok(ev.TargetChosen(seat=CHLOE, card="freeze", target=BEN), ev.Frozen(seat=BEN))
    t.ok(deal(ANA, "second_chance"))  # kept: Ana holds none
    assert t.state.chance == [True, False, False]
    t.ok(ev.PlayerHit(seat=CHLOE), ev.CardDrawn(seat=CHLOE, card="second_chance", reason="hit"))
    assert t.state.chance == [True, False, True]  # Chloe held none: kept
    t = Table("3", "freeze", "second_chance", "second_chance", "5", "second_chance")
    t.ok(deal(BEN, "3"), deal(CHLOE, "freeze"), ev.TargetChosen(seat=CHLOE, card="freeze", target=BEN), ev.Frozen(seat=BEN))
    t.ok(deal(ANA, "second_chance"), *hit(CHLOE, "second_chance"), *hit(ANA, "5"), stay(CHLOE))
    t.ok(*hit(ANA, "second_chance"))
    assert GAME.rules.legal_actions(t.state, ANA) == ["second_chance to nobody"]  # Ben frozen, Chloe stayed
    t.refused(ev.TargetChosen(seat=ANA, card="second_chance", target=BEN), "flip7.target")
    t.refused(ev.TargetChosen(seat=ANA, card="second_chance", target=ANA), "flip7.target")
    t.ok(ev.TargetChosen(seat=ANA, card="second_chance", target=None))
    assert t.state.discard == ["second_chance"]


def test_a_freeze_goes_to_an_active_player_only() -> None:
    t = Table("3", "5", "6", "3", "freeze")
    t.ok(deal(BEN, "3"), deal(CHLOE, "5"), deal(ANA, "6"), *hit(BEN, "3"), ev.Busted(seat=BEN, card="3"))
    t.ok(*hit(CHLOE, "freeze"))
    problem = t.refused(ev.TargetChosen(seat=CHLOE, card="freeze", target=BEN), "flip7.target")
    assert problem.expected == "one of Ana, Chloe"
    t.refused(ev.TargetChosen(seat=CHLOE, card="freeze", target=7), "flip7.target")
    t.ok(ev.TargetChosen(seat=CHLOE, card="freeze", target=CHLOE), ev.Frozen(seat=CHLOE))
    assert t.expect() == ["decision", ANA]


def test_round_scores_and_totals_are_checked_against_the_rules() -> None:
    t = the_48_round()
    problems = t.push(ev.RoundEnded(round=1, scores=[ev.ScoreClaim(seat=BEN, score=47, total=50),
                                                     ev.ScoreClaim(seat=CHLOE, score=5, total=5),
                                                     ev.ScoreClaim(seat=ANA, score=6)]))
    assert [(p.rule_id, p.expected, p.found, p.player) for p in problems] == [
        ("flip7.claim-score", "48", "47", "Ben"), ("flip7.claim-total", "48", "50", "Ben")]
    assert t.state.total == [6, 48, 5]  # the rules' values stand
    assert t.state.categories[BEN] == {"numbers": 19, "x2": 19, "modifiers": 10, "bonus": 0}


def test_a_flip_seven_ends_the_round_at_once_with_the_bonus() -> None:
    t = Table("1", "9", "10", "2", "3", "4", "6", "7", "8")
    t.ok(deal(BEN, "1"), deal(CHLOE, "9"), deal(ANA, "10"), *hit(BEN, "2"), stay(CHLOE), stay(ANA))
    for card in ("3", "4", "6", "7"):
        t.ok(*hit(BEN, card))
    t.ok(*hit(BEN, "8"))
    assert t.expect() == ["flipped_seven", BEN]
    score = 1 + 2 + 3 + 4 + 6 + 7 + 8 + 15  # the numbers and the bonus
    t.ok(ev.FlippedSeven(seat=BEN), ev.RoundEnded(round=1, scores=[ev.ScoreClaim(seat=BEN, score=score)]))
    assert t.state.total == [10, 46, 9]


def test_winners_and_nothing_after_the_end() -> None:
    t = the_48_round(pack_with(target=40))
    t.ok(ev.RoundEnded(round=1))
    assert t.expect() == ["game_ended"]
    assert [p.rule_id for p in t.push(ev.GameEnded(winners=[ANA]))] == ["flip7.claim-winners"]
    assert GAME.rules.is_over(t.state)
    result = GAME.views.result(t.state)
    assert result.winners == (BEN,) and result.finished
    t.refused(ev.RoundStarted(round=2, dealer=BEN), "flip7.game-over")


def test_conservation_every_card_in_one_place_at_every_step() -> None:
    class Count(Observer):
        def after(self, step: Step) -> None:
            assert step.state.places() == step.state.cards.deck, step.index

    for seed in range(4):
        events = simulate_game("g", [f"p{i}" for i in range(3 + 5 * seed)], seed, ("random", "odds"), STANDARD)
        replay(GAME, events, level="raise", observers=[Count()])


# ----------------------------------------------------------------------------- the options, every value


@pytest.mark.parametrize("value, first", [("left_of_dealer", BEN), ("last_targeter", CHLOE)])
def test_first_after_deal(value: str, first: int) -> None:
    t = Table("3", "freeze", pack=pack_with(first_after_deal=value))
    t.ok(deal(BEN, "3"), deal(CHLOE, "freeze"), ev.TargetChosen(seat=CHLOE, card="freeze", target=ANA), ev.Frozen(seat=ANA))
    assert t.expect() == ["decision", first]  # Ana, frozen before her card, was not dealt one


@pytest.mark.parametrize("value", [True, False])
def test_second_chance_ends_turn(value: bool) -> None:
    t = Table("second_chance", "flip_three", "5", "5", "9", dealer=CHLOE, pack=pack_with(second_chance_ends_turn=value))
    t.ok(deal(ANA, "second_chance"), deal(BEN, "flip_three"), ev.TargetChosen(seat=BEN, card="flip_three", target=ANA),
         flip(ANA, "5"), flip(ANA, "5"), ev.SecondChanceUsed(seat=ANA, card="5"))
    assert t.expect() == (["card_drawn", CHLOE, "deal"] if value else ["card_drawn", ANA, "flip_three"])
    assert t.state.discard == ["5", "second_chance"] and t.state.chance[ANA] is False


@pytest.mark.parametrize("value", ["after_three", "immediately"])
def test_flip_three_actions(value: str) -> None:
    t = Table("flip_three", "5", "freeze", "7", pack=pack_with(flip_three_actions=value))
    t.ok(deal(BEN, "flip_three"), ev.TargetChosen(seat=BEN, card="flip_three", target=CHLOE), flip(CHLOE, "5"),
         flip(CHLOE, "freeze"))
    if value == "after_three":
        assert t.state.aside() == ["freeze"]
        t.ok(flip(CHLOE, "7"))
    assert t.expect() == ["target_chosen", CHLOE, "freeze"]
    t.ok(ev.TargetChosen(seat=CHLOE, card="freeze", target=BEN), ev.Frozen(seat=BEN))
    if value == "immediately":
        t.ok(flip(CHLOE, "7"))
    assert t.state.line[CHLOE] == ["5", "7"] and t.expect() == ["card_drawn", CHLOE, "deal"]


def test_a_flip_three_drawn_in_a_flip_three_at_once_is_drawn_before_the_rest() -> None:
    t = Table("10", "flip_three", "flip_three", "1", "2", "3", "4", "6", "8", dealer=CHLOE,
              pack=pack_with(flip_three_actions="immediately"))
    t.ok(deal(ANA, "10"), deal(BEN, "flip_three"), ev.TargetChosen(seat=BEN, card="flip_three", target=ANA),
         flip(ANA, "flip_three"), ev.TargetChosen(seat=ANA, card="flip_three", target=CHLOE),
         flip(CHLOE, "1"), flip(CHLOE, "2"), flip(CHLOE, "3"), flip(ANA, "4"), flip(ANA, "6"), deal(CHLOE, "8"))
    assert t.state.line == [["10", "4", "6"], [], ["1", "2", "3", "8"]]
    assert t.expect() == ["decision", ANA]


@pytest.mark.parametrize("value", ["discard", "resolver_chooses"])
def test_orphan_actions(value: str) -> None:
    t = Table("flip_three", "freeze", "5", "5", pack=pack_with(orphan_actions=value))
    t.ok(deal(BEN, "flip_three"), ev.TargetChosen(seat=BEN, card="flip_three", target=CHLOE), flip(CHLOE, "freeze"),
         flip(CHLOE, "5"), flip(CHLOE, "5"), ev.Busted(seat=CHLOE, card="5"))
    if value == "discard":
        assert t.state.discard == ["freeze"] and t.expect() == ["card_drawn", ANA, "deal"]
    else:
        assert GAME.rules.legal_actions(t.state, CHLOE) == ["freeze to 0", "freeze to 1"]
        t.ok(ev.TargetChosen(seat=CHLOE, card="freeze", target=ANA), ev.Frozen(seat=ANA))
        assert t.expect() == ["decision", BEN]  # Ana frozen before her deal card; Chloe busted


@pytest.mark.parametrize("value", ["carry_over", "rebuild_each_round"])
def test_deck(value: str) -> None:
    t = the_48_round(pack_with(deck=value))
    t.ok(ev.RoundEnded(round=1), ev.RoundStarted(round=2, dealer=BEN))
    if value == "carry_over":
        assert t.expect() == ["card_drawn", CHLOE, "deal"] and len(t.state.discard) == 7
    else:
        assert t.expect() == ["deck_shuffled", "new_deck"]
        t.ok(ev.DeckShuffled(reason="new_deck", order=stacked(STANDARD)))
        assert t.state.discard == []


@pytest.mark.parametrize("value", [True, False])
def test_dealt_action_is_initial_card(value: bool) -> None:
    t = Table("3", "freeze", "8", pack=pack_with(dealt_action_is_initial_card=value))
    t.ok(deal(BEN, "3"), deal(CHLOE, "freeze"), ev.TargetChosen(seat=CHLOE, card="freeze", target=ANA), ev.Frozen(seat=ANA))
    assert t.expect() == (["decision", BEN] if value else ["card_drawn", CHLOE, "deal"])


@pytest.mark.parametrize("value", ["shared", "another_round"])
def test_ties(value: str) -> None:
    t = Table("12", "6", "6", "12", pack=pack_with(target=5, ties=value))
    t.ok(deal(BEN, "12"), deal(CHLOE, "6"), deal(ANA, "6"), *hit(BEN, "12"), ev.Busted(seat=BEN, card="12"),
         stay(CHLOE), stay(ANA), ev.RoundEnded(round=1))
    if value == "shared":
        assert t.expect() == ["game_ended"] and t.state.winners == [ANA, CHLOE]
    else:
        assert t.expect() == ["round_started", 2, BEN] and t.state.winners == []


# ----------------------------------------------------------------------------- the piles running out


def test_reshuffle_and_no_card_anywhere() -> None:
    tiny = pack_with(cards={"1": 1, "2": 2, "3": 3})
    t = Table("1", "2", "3", "2", "3", "3", pack=tiny)
    t.ok(deal(BEN, "1"), deal(CHLOE, "2"), deal(ANA, "3"), *hit(BEN, "2"), *hit(CHLOE, "3"), *hit(ANA, "3"),
         ev.Busted(seat=ANA, card="3"))
    t.ok(ev.PlayerHit(seat=BEN))  # nothing to draw: the draw pile and the discard pile are empty
    assert t.expect() == ["round_ended", 1]
    t.ok(ev.RoundEnded(round=1, scores=[ev.ScoreClaim(seat=BEN, score=3), ev.ScoreClaim(seat=CHLOE, score=5),
                                        ev.ScoreClaim(seat=ANA, score=0)]))
    t.ok(ev.RoundStarted(round=2, dealer=BEN))
    assert t.expect() == ["deck_shuffled", "reshuffle"]
    assert t.refused(ev.DeckShuffled(reason="reshuffle", order=["1", "2", "2", "3", "3"]), "flip7.deck").found == "missing 3"
    t.ok(ev.DeckShuffled(reason="reshuffle", order=["3", "1", "2", "2", "3", "3"]), deal(CHLOE, "3"))


# ----------------------------------------------------------------------------- the contract's other parts


def test_snapshots_inside_a_flip_three_lose_nothing() -> None:
    t = Table("flip_three", "freeze", "5", pack=pack_with())
    t.ok(deal(BEN, "flip_three"), ev.TargetChosen(seat=BEN, card="flip_three", target=CHLOE), flip(CHLOE, "freeze"))
    restored = GAME.rules.restore(GAME.rules.snapshot(t.state), t.pack)
    assert restored == t.state and restored.aside() == ["freeze"]


def test_a_seat_sees_the_draw_pile_count_not_its_order() -> None:
    t = Table("3", "5")
    seen = GAME.views.observe(t.state, ANA)
    assert seen["draw"]["count"] == 94 and seen["draw"]["cards"] == sorted(t.state.draw)
    other = GAME.views.conceal(t.state, ANA, random.Random(1))
    assert other is not None and GAME.views.observe(other, ANA) == seen and other.draw != t.state.draw


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 18))
def test_simulation_is_deterministic_and_audits_clean(seed: int, players: int) -> None:
    names = [f"p{i}" for i in range(players)]
    a = simulate_game("g", names, seed, ("odds", "random", "stay25"), STANDARD)
    assert a == simulate_game("g", names, seed, ("odds", "random", "stay25"), STANDARD)
    r = replay(GAME, a, level="raise")
    assert GAME.rules.is_over(r.state) and r.state.winners




def test_bots_do_not_hit_forever_on_a_lone_second_chance():
    """Found by the benchmark: 18 odds bots, the deck all but dealt out, the only card left a Second
    Chance that every seat still active already held. Each hit drew it, passed it to nobody
    (discarded), reshuffled it and drew it again; the bots never stayed. They now stay when a hit
    can change nothing (bots.futile), and the game ends."""
    names = [f"P{i}" for i in range(18)]
    events = GAME.bots.simulate("loop", names, 1_800_008, ("odds",), GAME.pack())
    assert events[-1].type == "game_ended"


# ----------------------------------------------------------------------------- legal actions, both ways


def _event_of(seat: int, action: str, card: str | None) -> EventPayload:
    if action == "hit":
        return ev.PlayerHit(seat=seat)
    if action == "stay":
        return ev.PlayerStayed(seat=seat)
    assert card is not None
    to = action.rpartition(" to ")[2]
    return ev.TargetChosen(seat=seat, card=card, target=None if to == "nobody" else int(to))


def test_every_listed_action_replays_and_nothing_legal_is_missing() -> None:
    """At every choice of simulated games (3 to 8 players, every bot): each action
    ``legal_actions`` lists is accepted by the rules; and every other answer a seat could give
    (any seat, nobody, hit or stay out of turn) is refused, so nothing legal is missing."""
    rules, pack = GAME.rules, GAME.pack()
    choices = listed = 0
    for seed, players in ((1, 3), (2, 5), (3, 8)):
        events = simulate_game(f"legal-{seed}", [f"P{i}" for i in range(players)], seed, ("random", "odds"), pack)
        r = Replay(GAME, level="raise")
        for event in events:
            state = r.state
            if state is not None and state.expect[0] in ("decision", "target_chosen"):
                choices += 1
                what, seat = state.expect[0], state.expect[1]
                card = state.expect[2] if what == "target_chosen" else None
                legal = set(rules.legal_actions(state, seat))
                answers = {"hit", "stay"} if what == "decision" else \
                    {f"{card} to nobody", *(f"{card} to {t}" for t in range(players))}
                assert legal <= answers
                for answer in sorted(answers):
                    copy = rules.restore(rules.snapshot(state), pack)
                    made = Event.create(GAME.kind, event.game_id, event.seq, _event_of(seat, answer, card))
                    try:
                        rules.apply(copy, made)
                        accepted = True
                    except RuleViolation:
                        accepted = False
                    assert accepted == (answer in legal), (event.seq, answer, sorted(legal))
                    listed += answer in legal
                for other in range(players):  # nobody else may answer for this seat
                    if other != seat and what == "decision":
                        copy = rules.restore(rules.snapshot(state), pack)
                        with pytest.raises(RuleViolation):
                            rules.apply(copy, Event.create(GAME.kind, event.game_id, event.seq, ev.PlayerHit(seat=other)))
            r.push(event)
    assert choices > 100 and listed > choices
