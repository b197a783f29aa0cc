"""St. Petersburg's rules: each rule id refused by an event crafted for it (the table unchanged), costs
after every reduction worked by hand from the pack, the specials' powers and timing, the scoring, and
hundreds of seeded games clean and deterministic."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import refused_by

from replay.driver import replay
from replay.events import Event
from replay.games.st_petersburg import GAME, simulate_game
from replay.games.st_petersburg.legal import cost, legal_actions
from replay.games.st_petersburg.rules import RULES, new_state
from replay.games.st_petersburg.scoring import phase_income
from replay.games.st_petersburg.state import State
from replay.problems import Problem
from replay.services.audit import audit
from replay.services.logs import Log

PACK = GAME.pack()
CARD = PACK.by_id  # type: ignore[attr-defined]
seen_rules: set[str] = set()


def raw(event_type: str, payload: dict[str, Any], seq: int = 1) -> Event:
    return Event("t", seq, GAME.kind, event_type, 1, GAME.models[event_type].model_validate(payload).model_dump(mode="json"))


def table(n: int = 2, markers: tuple[int, ...] = (0, 1, 0, 1)) -> State:
    """A fresh table after the first reveal: nothing on the board but what a test puts there."""
    state = new_state(PACK, ["Ana", "Ben", "Chloe", "Dev"][:n], list(markers))  # type: ignore[arg-type]
    GAME.rules.apply(state, raw("cards_revealed", {"deck": "worker", "cards": _first_workers(state)}))
    state.top = []
    return state


def _first_workers(state: State) -> list[str]:
    return ["lumberjack"] * 2 * state.n


def refused(state: State, e: Event) -> str:
    """The rule id an event is refused by (the table unchanged)."""
    return refused_by(GAME, state, e, seen_rules)


def claims(found: Any) -> list[str]:
    ids = [p.rule_id for p in found]
    seen_rules.update(ids)
    return ids


def apply(state: State, type_: str, **payload: Any) -> list[Problem]:
    return list(GAME.rules.apply(state, raw(type_, payload)))


# ----------------------------------------------------------------------------- costs


def test_cost_after_every_reduction_worked_by_hand():
    s = table()
    s.rubles = [50, 50]
    assert cost(s, 0, CARD["gold-miner"], "top") == 4
    assert cost(s, 0, CARD["gold-miner"], "bottom") == 3  # lower row: -1
    s.tableau[0] = ["gold-miner", "gold-miner"]
    assert cost(s, 0, CARD["gold-miner"], "bottom") == 1  # 4 - 1 - 2
    assert cost(s, 0, CARD["lumberjack"], "bottom") == 2  # other cards of the colour do not count (same card)
    s.tableau[0] = ["gold-miner"] * 4
    assert cost(s, 0, CARD["gold-miner"], "top") == 1  # never below 1
    # Carpenter Workshop: blue cards 1 less, trading ones included; Gold Smelter: red cards
    s.tableau[0] = ["carpenter-workshop", "gold-smelter"]
    assert cost(s, 0, CARD["library"], "top") == 16
    assert cost(s, 0, CARD["bank"], "hand", CARD["market"]) == 13 - 1 - 5
    assert cost(s, 0, CARD["judge"], "bottom") == 16 - 1 - 1
    # a trading card: the difference, at least 1, the lower row's discount too
    s.tableau[0] = ["fur-trapper"]
    assert cost(s, 0, CARD["fur-shop"], "top", CARD["fur-trapper"]) == 4
    assert cost(s, 0, CARD["fur-shop"], "bottom", CARD["fur-trapper"]) == 3
    assert cost(s, 0, CARD["carpenter-workshop"], "top", CARD["lumberjack"]) == 1  # 4 - 3 = 1
    assert cost(s, 0, CARD["gold-smelter"], "top", CARD["czar-and-carpenter"]) == 1  # 6 - 8: at least 1
    # Potjomkin's Village is worth 6 when displaced
    assert cost(s, 0, CARD["bank"], "top", CARD["potjomkins-village"]) == 7


def test_same_colour_option_counts_every_card_of_the_colour():
    pack = PACK.model_copy(update={"options": PACK.options.model_copy(update={"same_card_discount": "same_colour"})})
    s = new_state(pack, ["Ana", "Ben"], [0, 1, 0, 1])  # type: ignore[arg-type]
    s.tableau[0] = ["lumberjack", "shepherd"]
    assert cost(s, 0, CARD["gold-miner"], "top") == 2


def test_buying_pays_the_cost_and_a_wrong_written_price_is_a_claim():
    s = table()
    s.top = ["shepherd", "shepherd"]
    s.bottom = ["author"]
    found = apply(s, "card_bought", seat=0, card="shepherd", source="top", paid=5)
    assert found == [] and s.rubles[0] == 20 and s.tableau[0] == ["shepherd"] and s.top == ["shepherd"]
    assert claims(apply(s, "card_bought", seat=1, card="author", source="bottom", paid=4)) == ["stpete.claim-paid"]
    assert s.rubles[1] == 22  # the rules' value stands: 4 - 1


def test_a_card_beyond_the_purse_is_refused():
    s = table()
    s.top = ["ship-builder"]
    s.rubles[0] = 6
    assert refused(s, raw("card_bought", {"seat": 0, "card": "ship-builder", "source": "top"})) == "stpete.cost"
    s.rubles[0] = 7
    apply(s, "card_bought", seat=0, card="ship-builder", source="top")
    assert s.rubles[0] == 0


# ----------------------------------------------------------------------------- where cards are, hands


def test_a_card_must_be_where_the_event_says():
    s = table()
    s.top = ["author"]
    assert refused(s, raw("card_bought", {"seat": 0, "card": "author", "source": "bottom"})) == "stpete.card-place"
    assert refused(s, raw("card_bought", {"seat": 0, "card": "judge", "source": "top"})) == "stpete.card-place"
    assert refused(s, raw("card_bought", {"seat": 0, "card": "author", "source": "hand"})) == "stpete.card-place"


def test_hand_limit_three_and_four_with_the_warehouse():
    s = table()
    s.top = ["author"] * 5
    s.hand[0] = ["judge", "judge", "pope"]
    assert refused(s, raw("card_taken", {"seat": 0, "card": "author", "source": "top"})) == "stpete.hand-limit"
    assert not any(a.startswith("take ") for a in legal_actions(s, 0))
    s.tableau[0] = ["warehouse"]
    apply(s, "card_taken", seat=0, card="author", source="top")
    assert len(s.hand[0]) == 4 and s.top == ["author"] * 4


def test_a_card_in_hand_is_played_at_full_price():
    s = table()
    s.hand[0] = ["author"]
    s.tableau[0] = ["author"]
    apply(s, "card_bought", seat=0, card="author", source="hand", paid=3)
    assert s.rubles[0] == 22 and s.hand[0] == [] and s.tableau[0] == ["author", "author"]


# ----------------------------------------------------------------------------- trading cards


def test_trading_cards_displace_their_own_kind_only():
    s = table()
    s.rubles[0] = 40
    s.tableau[0] = ["lumberjack", "fur-trapper", "market", "wharf"]
    s.top = ["fur-shop", "wharf", "bank", "market"]
    e = lambda card, d: raw("card_bought", {"seat": 0, "card": card, "source": "top", "displaces": d})  # noqa: E731
    assert refused(s, e("fur-shop", "lumberjack")) == "stpete.displace"  # wrong worker
    assert refused(s, e("fur-shop", None)) == "stpete.displace"  # a trading card must displace
    assert refused(s, e("bank", "wharf")) == "stpete.displace"  # not its colour (and a trading card)
    assert refused(s, e("market", "lumberjack")) == "stpete.displace"  # only trading cards displace
    assert refused(s, e("wharf", "judge")) == "stpete.displace"  # not owned
    s.tableau[0].append("ship-builder")
    assert "buy wharf from top displacing ship-builder" in legal_actions(s, 0)
    assert not [a for a in legal_actions(s, 0) if a.endswith("displacing wharf")]  # never another trading card
    apply(s, "card_bought", seat=0, card="fur-shop", source="top", displaces="fur-trapper")
    assert "fur-trapper" not in s.tableau[0] and "fur-trapper" in s.discard and s.rubles[0] == 36


def test_czar_and_carpenter_is_displaced_by_any_green_trading_card():
    s = table()
    s.tableau[0] = ["czar-and-carpenter"]
    s.top = ["weaving-mill"]
    apply(s, "card_bought", seat=0, card="weaving-mill", source="top", displaces="czar-and-carpenter", paid=1)
    assert s.tableau[0] == ["weaving-mill"]


# ----------------------------------------------------------------------------- turns, phases, rounds


def test_turn_order_and_the_phase_ends_after_everyone_passed_in_a_row():
    s = table(3, (1, 2, 0, 1))
    assert s.expect == ["turn", 1]  # the worker marker's holder starts
    assert refused(s, raw("passed", {"seat": 0})) == "stpete.turn-order"
    apply(s, "passed", seat=1)
    apply(s, "passed", seat=2)
    assert refused(s, raw("phase_ended", {"phase": "worker"})) == "stpete.phase"
    s.top = ["author"]
    apply(s, "card_taken", seat=0, card="author", source="top")  # an action: the passes start again
    for seat in (1, 2):
        apply(s, "passed", seat=seat)
    assert s.expect == ["turn", 0]
    apply(s, "passed", seat=0)
    assert refused(s, raw("phase_ended", {"phase": "building"})) == "stpete.phase"
    assert refused(s, raw("passed", {"seat": 1})) == "stpete.expected"
    apply(s, "phase_ended", phase="worker")
    assert s.expect == ["reveal", "building", 8]


def test_reveals_fill_the_board_from_their_own_deck():
    s = new_state(PACK, ["Ana", "Ben", "Chloe"], [0, 1, 2, 0])  # type: ignore[arg-type]
    assert s.expect == ["reveal", "worker", 6]  # 2 a player in the first phase
    assert refused(s, raw("cards_revealed", {"deck": "worker", "cards": ["lumberjack"] * 5})) == "stpete.reveal"
    assert refused(s, raw("cards_revealed", {"deck": "building", "cards": ["market"] * 6})) == "stpete.reveal"
    assert refused(s, raw("cards_revealed", {"deck": "worker", "cards": ["czar-and-carpenter"] * 2 + ["lumberjack"] * 4})) \
        == "stpete.reveal"  # only one in the deck
    s.decks["worker"] = {"lumberjack": 3}
    s.expect = ["reveal", "worker", 3]
    apply(s, "cards_revealed", deck="worker", cards=["lumberjack"] * 3)
    assert s.last_round  # the deck ran out: this is the last round


def test_scoring_the_phases_with_the_specials():
    s = table(2)
    s.tableau[0] = ["lumberjack", "weaving-mill", "author", "mariinskij-theater", "observatory", "observatory", "market"]
    s.tableau[1] = ["tax-man", "lumberjack", "fur-shop", "author"]
    assert phase_income(s, 0, "worker") == (9, 0)
    assert phase_income(s, 0, "building") == (0 + 1, 3)  # Mariinskij: 1 per aristocrat; 3 buildings with a point
    s.observatory_used[0] = 1
    assert phase_income(s, 0, "building") == (1, 2)  # a used Observatory does not score
    assert phase_income(s, 1, "aristocrat") == (1 + 2, 0)  # Tax Man: 1 per worker (the Fur Shop is green)
    assert phase_income(s, 1, "worker") == (6, 2)


def test_phase_income_claims_and_the_pub():
    s = table(2, (0, 1, 0, 1))
    s.tableau[0] = ["pub", "pub", "market"]
    s.tableau[1] = ["pub"]
    s.rubles = [30, 3]
    s.expect, s.phase = ["phase_end", "building"], 1
    found = apply(s, "phase_ended", phase="building", income=[{"seat": 0, "rubles": 0, "points": 1},
                                                              {"seat": 1, "rubles": 0, "points": 2}])
    assert claims(found) == ["stpete.claim-income"]
    assert s.expect == ["pub", 1]  # Pubs answer from the building marker's holder round
    assert refused(s, raw("pub_used", {"seat": 0, "points": 1})) == "stpete.turn-order"
    assert refused(s, raw("pub_used", {"seat": 1, "points": 2})) == "stpete.pub"  # 4 roubles, 3 held
    apply(s, "pub_used", seat=1, points=1)
    assert refused(s, raw("pub_used", {"seat": 0, "points": 11})) == "stpete.pub"  # two Pubs: at most 10
    apply(s, "pub_used", seat=0, points=10)
    assert s.points == [11, 1] and s.rubles == [10, 1] and s.categories[0]["pub"] == 10
    assert s.expect[0] == "reveal" and s.expect[1] == "aristocrat"


def test_the_observatory_draws_then_buys_takes_or_discards():
    s = table(2)
    s.tableau[0] = ["observatory"]
    s.phase, s.expect = 0, ["turn", 0]
    assert refused(s, raw("observatory_used", {"seat": 0, "deck": "aristocrat", "card": "author"})) == "stpete.observatory"
    s.phase = 1
    assert "observatory aristocrat" in legal_actions(s, 0)
    assert refused(s, raw("observatory_used", {"seat": 0, "deck": "aristocrat", "card": "dragon"})) == "stpete.observatory"
    apply(s, "observatory_used", seat=0, deck="aristocrat", card="author")
    assert s.decks["aristocrat"]["author"] == 5
    assert refused(s, raw("passed", {"seat": 0})) == "stpete.observatory-card"
    assert refused(s, raw("card_discarded", {"seat": 0, "card": "judge"})) == "stpete.observatory-card"
    assert set(legal_actions(s, 0)) == {"buy author from observatory", "take author from observatory", "discard author"}
    apply(s, "card_bought", seat=0, card="author", source="observatory", paid=4)  # no row discount
    assert s.rubles[0] == 21 and s.expect == ["turn", 1]
    s.expect, s.seat = ["turn", 0], 0
    assert refused(s, raw("observatory_used", {"seat": 0, "deck": "worker", "card": "lumberjack"})) == "stpete.observatory"
    s.observatory_used[0] = 0
    s.decks["trading"] = {"czar": 1}
    assert refused(s, raw("observatory_used", {"seat": 0, "deck": "trading", "card": "czar"})) == "stpete.observatory"


def test_the_end_of_a_round_moves_the_rows_and_passes_the_markers():
    s = table(3, (0, 1, 2, 0))
    s.top, s.bottom = ["author", "market"], ["judge"]
    s.phase, s.expect = 3, ["phase_end", "trading"]
    apply(s, "phase_ended", phase="trading")
    assert s.expect == ["round_end", 1]
    assert refused(s, raw("round_ended", {"round": 2})) == "stpete.round"
    assert refused(s, raw("game_ended", {})) == "stpete.end"
    found = apply(s, "round_ended", round=1, markers=[0, 1, 2, 0])
    assert claims(found) == ["stpete.claim-markers"]
    assert s.markers == [1, 2, 0, 1] and s.bottom == ["author", "market"] and s.top == [] and "judge" in s.discard
    assert s.expect == ["reveal", "worker", 6] and s.round == 2


def test_final_scoring_and_the_end_condition():
    s = table(2)
    s.last_round = True
    s.phase, s.expect = 3, ["phase_end", "trading"]
    apply(s, "phase_ended", phase="trading")
    assert refused(s, raw("round_ended", {"round": 1})) == "stpete.end"
    s.tableau[0] = ["author", "author", "judge", "pope", "czar"]  # 4 different aristocrats: 10
    s.tableau[1] = ["author"]
    s.hand[1] = ["library", "secretary"]
    s.rubles, s.points = [37, 99], [40, 50]
    found = apply(s, "game_ended", scores=[{"seat": 0, "total": 53}, {"seat": 1, "total": 52}], winners=[1])
    # Ana 40 + 10 + 3 = 53; Ben 50 + 1 + 9 - 10 = 50
    assert s.points == [53, 50] and s.winners == [0] and s.rubles_left == [7, 9]
    assert sorted(claims(found)) == ["stpete.claim-score", "stpete.claim-winners"]
    assert refused(s, raw("passed", {"seat": 0})) == "stpete.game-over"
    result = GAME.views.result(s)
    assert result.finished and result.winners == (0,) and result.scores[1].categories["hand"] == -10


def test_a_tie_goes_to_the_most_roubles_left():
    s = table(2)
    s.expect = ["game_end"]
    s.rubles, s.points = [19, 12], [10, 11]
    apply(s, "game_ended")
    assert s.points == [11, 12] and s.winners == [1]
    s = table(2)
    s.expect = ["game_end"]
    s.rubles, s.points = [19, 18], [10, 10]
    apply(s, "game_ended")
    assert s.points == [11, 11] and s.winners == [0] and GAME.views.result(s).tie_break == "rubles left"


# ----------------------------------------------------------------------------- the start


def _start(seats: list[int], markers: list[int], pack: Any = PACK) -> list[str]:
    e = raw("game_started", {"ruleset": pack.pin.model_dump(), "seats": [{"seat": s, "name": f"P{s}"} for s in seats],
                             "provenance": {"source": "typed"}, "markers": markers}, 0)
    from replay.packs import PackLibrary

    r = replay(GAME, [e], PackLibrary(GAME.kind, [pack]))
    seen_rules.update(p.rule_id for p in r.problems)
    return [p.rule_id for p in r.problems]


def test_the_start_checks_seats_markers_and_the_pack():
    assert _start([0, 1], [0, 1, 0, 1]) == []
    assert _start([0, 2], [0, 1, 0, 1]) == ["stpete.start"]
    assert _start([0, 1, 2, 3, 4], [0, 1, 2, 3]) == ["stpete.start"]
    assert _start([0, 1, 2], [0, 0, 1, 2]) == []
    assert _start([0, 1, 2], [0, 0, 0, 1]) == ["stpete.markers"]
    assert _start([0, 1], [0, 0, 0, 0]) == ["stpete.markers"]
    cards = [c if c.id != "czar" else c.model_copy(update={"name": "", "count": 0, "confidence": "missing"})
             for c in PACK.cards]  # type: ignore[attr-defined]
    broken = PACK.model_copy(update={"cards": cards, "id": "stpete-gap"})
    problems = _start([0, 1], [0, 1, 0, 1], broken)
    assert problems == ["stpete.pack"]


def test_a_missing_card_is_named():
    from replay.errors import PackError

    cards = [c if c.id != "czar" else c.model_copy(update={"name": "", "count": 0, "confidence": "missing"})
             for c in PACK.cards]  # type: ignore[attr-defined]
    with pytest.raises(PackError, match="czar"):
        PACK.model_copy(update={"cards": cards}).require_complete()  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hundreds_of_seeded_games_are_clean(players):
    for seed in range(70):
        events = simulate_game(f"s{seed}", ["Ana", "Ben", "Chloe", "Dev"][:players], seed, ("greedy", "saver", "random"))
        r = replay(GAME, events, level="raise")
        assert GAME.rules.is_over(r.state) and r.state.winners
        assert sum(len(x) for x in r.state.tableau) + sum(len(x) for x in r.state.hand) + len(r.state.discard) \
            + len(r.state.top) + len(r.state.bottom) + sum(r.state.deck_size(d) for d in r.state.decks) == 116


def test_the_same_seed_gives_the_same_game():
    a = simulate_game("g", ["Ana", "Ben", "Chloe"], 11, ("random",))
    b = simulate_game("g", ["Ana", "Ben", "Chloe"], 11, ("random",))
    c = simulate_game("g", ["Ana", "Ben", "Chloe"], 12, ("random",))
    assert a == b and a != c
    assert audit(Log(a, GAME, "sim")).ok


def test_legal_actions_both_ways():
    """Along seeded games: every listed action, made into its event, is accepted; and of every event a
    seat could try (each card of each row and the hand, bought with each possible displacement or
    taken, an Observatory on each deck, a pass), exactly the listed ones are accepted."""
    import random

    from replay.errors import RuleViolation as Refused
    from replay.games.st_petersburg.legal import action_of
    from replay.games.st_petersburg.simulate import action_event

    checked = 0
    for seed in range(4):
        events = simulate_game("b", ["Ana", "Ben", "Chloe"][: 2 + seed % 2], seed, ("greedy", "random"))
        r = replay(GAME, events[:1])
        state = r.state
        for e in events[1:]:
            if state.expect[0] in ("turn", "observatory") and e.seq % 3 == 0:
                seat = state.expect[1]
                listed = set(legal_actions(state, seat))
                for action in listed:
                    event = Event.create(GAME.kind, "b", e.seq, action_event(state, seat, action, random.Random(1)))
                    GAME.rules.apply(State.of_data(state.data(), PACK), event)  # type: ignore[arg-type]
                accepted = set()
                for payload in _candidates(state, seat):
                    try:
                        GAME.rules.apply(State.of_data(state.data(), PACK), raw(*payload))  # type: ignore[arg-type]
                    except Refused:
                        continue
                    accepted.add(action_of(payload[0], payload[1]))
                assert accepted == listed, (seed, e.seq, accepted ^ listed)
                checked += 1
            GAME.rules.apply(state, e)
    assert checked > 100


def _candidates(state: State, seat: int) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = [("passed", {"seat": seat})]
    rows = {"top": state.top, "bottom": state.bottom, "hand": state.hand[seat]}
    if state.pending:
        rows = {"observatory": [state.pending[1]]}
        out = [("card_discarded", {"seat": seat, "card": state.pending[1]})]
    for source, row in rows.items():
        for card in set(row):
            for displaced in [None, *set(state.tableau[seat])]:
                out.append(("card_bought", {"seat": seat, "card": card, "source": source, "displaces": displaced}))
            if source != "hand":
                out.append(("card_taken", {"seat": seat, "card": card, "source": source}))
    if not state.pending:
        for deck, cards in state.decks.items():
            if cards:
                out.append(("observatory_used", {"seat": seat, "deck": deck, "card": sorted(cards)[0]}))
    return out


def test_every_rule_id_is_tested():
    """Runs last in this file: every rule id was met by a test above."""
    assert set(RULES) - seen_rules == set()


def test_a_log_that_skipped_a_pass_or_a_phase_end_is_put_right():
    """One problem where the log went wrong, and the rest of the game checked as usual."""
    events = simulate_game("r", ["Ana", "Ben", "Chloe"], 5, ("greedy",))
    first_pass = next(i for i, e in enumerate(events) if e.type == "passed")
    first_end = next(i for i, e in enumerate(events) if e.type == "phase_ended")
    for i, first, then in ((first_pass, "stpete.turn-order", {"stpete.phase"}), (first_end, "stpete.expected", set())):
        problems = audit(Log([*events[:i], *events[i + 1:]], GAME, "damaged")).problems
        assert problems[0].rule_id == first and problems[0].seq == events[i + 1].seq
        # the pass left out also leaves its phase one pass short where it ends; nothing else
        assert {p.rule_id for p in problems[1:]} <= then and len(problems) <= 1 + len(then), [str(p) for p in problems]
