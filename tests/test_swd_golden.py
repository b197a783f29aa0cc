"""Five 7 Wonders Duel games worked out by hand (fixtures/7wonders-duel/README.md): the events of two
base games, a Pantheon game, an Agora game and one with both (seeded simulations), the narration of every state,
the notation, and the hand-worked results.

The scores, coins, the Conflict pawn after every shield and the scientific symbols below were
worked out by hand, from each city's cards, Wonders and tokens and the cards' data (the README's
worksheet), before they were compared with the engine: here they are literals, checked against
the audit, the ``game_ended`` and ``card_played`` claims and the final state.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import audited, golden_events, replaced, script

from replay.cli.main import cli
from replay.driver import Replay, replay
from replay.events import Event
from replay.games.seven_wonders_duel import GAME
from replay.games.seven_wonders_duel.notation import read
from replay.games.seven_wonders_duel.scoring import scores
from replay.narration import narrate
from replay.services.audit import audit
from replay.services.logs import read_notation_text

FIXTURES = Path(__file__).parent.parent / "fixtures" / "7wonders-duel"
GAMES = ("golden-civilian", "golden-science", "golden-pantheon", "golden-agora", "golden-together")
NAMES = ["Ana", "Ben"]
CATEGORIES = ("civilian", "science", "commercial", "guilds", "wonders", "progress", "military", "treasury")

# Worked by hand (fixtures/7wonders-duel/README.md), by seat: civilian, science, commercial, guilds,
# wonders, progress, military, treasury, total.
HAND = {
    "golden-civilian": [(31, 8, 6, 4, 3, 7, 0, 3, 62), (10, 0, 6, 7, 21, 0, 0, 3, 47)],
    "golden-science": [(7, 11, 6, 0, 2, 0, 2, 1, 29), (9, 1, 0, 0, 12, 0, 0, 7, 29)],
    "golden-pantheon": [(29, 7, 6, 0, 2, 0, 5, 0, 49), (4, 4, 3, 0, 12, 0, 0, 2, 31)],
    "golden-agora": [(10, 1, 0, 0, 0, 0, 0, 1, 24), (8, 2, 0, 0, 0, 0, 0, 0, 10)],  # Ana's total: 12 Senate VP in it
    "golden-together": [(3, 0, 0, 0, 0, 0, 0, 0, 8), (0, 1, 0, 0, 7, 0, 0, 0, 17)],  # Ana: 5 Senate VP; Ben: 9 Pantheon VP
}
PANTHEON_VP = {"golden-pantheon": [0, 6],  # the Pantheon category: Ben's Grand Temple 5 + 1 coin left on Astarte
               "golden-together": [0, 9]}  # Aphrodite
SENATE_VP = {"golden-agora": [12, 0],  # Ana controls the six chambers: 1 + 2 + 3 + 3 + 2 + 1 (the audit's own category)
             "golden-together": [5, 0]}  # Ana: chambers 4 (3) and 5 (2)
COINS = {"golden-civilian": [9, 10], "golden-science": [5, 21],  # traced by hand, play by play
         "golden-pantheon": [1, 8], "golden-agora": [5, 1], "golden-together": [2, 0]}  # (COIN_TRACES below)
VICTORY = {"golden-civilian": ("civilian", [0]), "golden-science": ("science", [0]), "golden-pantheon": ("civilian", [0]),
           "golden-agora": ("political", [0]), "golden-together": ("military", [0])}
PAWN = {  # the Conflict pawn after each play that moves it (+: towards Ben's capital), and the coins looted then
    "golden-civilian": [(-1, 0), (0, 0), (2, 0), (3, 1), (2, 0), (4, 0), (1, 0), (-1, 0), (0, 0)],
    "golden-science": [(1, 0), (2, 0), (1, 0), (-1, 0), (1, 0), (3, 2), (5, 0), (2, 0)],
    "golden-pantheon": [(1, 0), (2, 0), (3, 2), (5, 0), (3, 0), (4, 0), (2, 0), (4, 0), (5, 0)],
    "golden-agora": [(-1, 0), (-2, 0), (-1, 0), (0, 0)],
    "golden-together": [(1, 0), (2, 0), (3, 0), (4, 0), (6, 0), (7, 0)],  # Agora's tokens loot nothing; then Mars
}
PAWN_END = {"golden-together": 9}  # Mars' 2 shields (an activation, not a card) take the pawn to the capital
SYMBOLS = {  # each seat's distinct scientific symbols at the end
    "golden-civilian": [{"mortar_and_pestle", "wheel", "quill", "armillary_sphere"}, set()],
    "golden-science": [{"mortar_and_pestle", "wheel", "plumb", "law", "armillary_sphere", "sundial"}, {"quill", "wheel"}],
    "golden-pantheon": [{"mortar_and_pestle", "quill", "sundial"}, {"law", "plumb", "sundial"}],
    "golden-agora": [{"mortar_and_pestle", "quill", "wheel"}, {"quill"}],
    "golden-together": [set(), {"wheel"}],
}
TOKENS = {"golden-civilian": [["architecture", "philosophy", "masonry"], ["theology"]],
          "golden-science": [["law", "masonry"], ["urbanism"]], "golden-pantheon": [[], []], "golden-agora": [[], []],
          "golden-together": [[], []]}


def recorded(name: str) -> list[Event]:
    return golden_events(FIXTURES, name)


def problems(events: list[Event]) -> list[Any]:
    return audited(GAME, events)


def hand(name: str, seat: int) -> dict[str, int]:
    """The hand-worked score (with the Pantheon's category in a Pantheon game)."""
    worked = dict(zip((*CATEGORIES, "total"), HAND[name][seat]))
    return {**worked, "pantheon": PANTHEON_VP[name][seat]} if name in PANTHEON_VP else worked


# ----------------------------------------------------------------------------- the files


@pytest.mark.parametrize("name", GAMES)
def test_the_files_are_what_make_golden_makes_today(name, tmp_path):
    maker = script(FIXTURES / "make_golden.py", "make_swd_golden")
    events = maker.events_of(name)
    assert events == recorded(name)
    maker.HERE = tmp_path
    maker.main()
    for suffix in (".jsonl", ".replay.txt", ".txt"):
        assert (tmp_path / f"{name}{suffix}").read_bytes() == (FIXTURES / f"{name}{suffix}").read_bytes(), suffix


@pytest.mark.parametrize("name", GAMES)
def test_the_narration_of_every_state_is_as_recorded(name):
    expected = (FIXTURES / f"{name}.replay.txt").read_text(encoding="utf-8")
    assert "\n".join(narrate(GAME, recorded(name))) + "\n" == expected


@pytest.mark.parametrize("name", GAMES)
def test_the_notation_reads_to_the_recorded_events_and_audits_clean(name):
    text = (FIXTURES / f"{name}.txt").read_text(encoding="utf-8")
    assert read(text, "raise").events == recorded(name)
    report = audit(read_notation_text(text, f"{name}.txt"))
    assert report.ok, report.to_text()


@pytest.mark.parametrize("name", GAMES)
def test_the_audit_finds_no_problem_and_its_result_is_the_hand_worked_one(name):
    result = CliRunner().invoke(cli, ["audit", str(FIXTURES / f"{name}.jsonl"), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] and report["problems"] == []
    assert report["result"]["finished"] and report["result"]["winners"] == VICTORY[name][1]
    for score in report["result"]["scores"]:
        senate = {"senate": SENATE_VP[name][score["seat"]]} if name in SENATE_VP else {}
        assert {**score["categories"], "total": score["total"]} == {**hand(name, score["seat"]), **senate}, \
            NAMES[score["seat"]]


@pytest.mark.parametrize("name", GAMES)
def test_the_claims_are_the_hand_worked_ones(name):
    events = recorded(name)
    end = events[-1]
    assert end.type == "game_ended"
    claimed = [{k: v for k, v in c.items() if k != "seat" and v is not None} for c in end.payload["scores"]]
    assert claimed == [hand(name, s) for s in (0, 1)]  # (None: a category of an expansion not played)
    assert (end.payload["victory"], end.payload["winners"]) == VICTORY[name]
    pawn, moves = 0, []
    for e in events:
        if e.type == "card_played" and (e.payload["pawn"] != pawn or e.payload["looted"]):
            pawn = e.payload["pawn"]
            moves.append((pawn, e.payload["looted"]))
    assert moves == PAWN[name]


@pytest.mark.parametrize("name", GAMES)
def test_final_state_is_the_hand_worked_one(name):
    r = replay(GAME, recorded(name), GAME.library())
    assert r.problems == []
    state = r.state
    assert state.phase == "over"
    assert scores(state) == [{**hand(name, s), **({"senate": SENATE_VP[name][s]} if name in SENATE_VP else {})}
                             for s in (0, 1)]
    assert state.coins == COINS[name]
    assert [c // 3 for c in COINS[name]] == [HAND[name][s][7] for s in (0, 1)]
    assert (state.victory, state.winners) == VICTORY[name]
    assert state.pawn == PAWN_END.get(name, PAWN[name][-1][0])
    assert [set(state.symbols(s)) for s in (0, 1)] == SYMBOLS[name]
    assert state.tokens == TOKENS[name]


def test_the_games_show_what_they_are_meant_to_show():
    """What the README's table "What each game shows" promises, each at least once."""
    civilian, science = recorded("golden-civilian"), recorded("golden-science")
    both = civilian + science

    def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
        return [e.payload for e in events if e.type == kind]

    assert of(civilian, "card_destroyed") == [{"seat": 0, "card": "logging_camp"}]  # Statue of Zeus, brown
    assert of(science, "card_destroyed") == [{"seat": 1, "card": "lumber_yard"}]
    assert of(civilian, "discard_built") == [{"seat": 1, "card": "logging_camp"}]  # Mausoleum
    assert of(science, "discard_built") == [{"seat": 0, "card": "caravansery"}]
    assert [p["tokens"] for p in of(both, "tokens_drawn")] == [["law", "theology", "agriculture"],
                                                              ["architecture", "mathematics", "urbanism"]]
    assert [(p["token"], p["source"]) for p in of(both, "progress_taken") if p["source"] == "box"] == \
        [("theology", "box"), ("urbanism", "box")]
    plays = of(both, "card_played")
    assert {p["wonder"] for p in plays if p["action"] == "wonder"} >= {"sphinx", "temple_of_artemis", "piraeus",
                                                                       "mausoleum", "great_library", "statue_of_zeus"}
    assert [p["card"] for p in plays if p["free"] == "chain"] == [
        "dispensary", "library", "statue", "gardens", "arena", "dispensary", "barracks", "temple", "siege_workshop"]
    assert any(p["discount"] for p in plays) and any(p["choices"] for p in plays)
    # a replay: the seat that built the Wonder plays the next card too (Sphinx, Temple of Artemis, Mausoleum after Theology)
    seats = [(p["seat"], p["wonder"]) for p in of(civilian, "card_played")]
    for wonder in ("sphinx", "temple_of_artemis", "mausoleum"):
        i = next(i for i, (_, w) in enumerate(seats) if w == wonder)
        assert seats[i + 1][0] == seats[i][0], wonder


# ----------------------------------------------------------------------------- mutated copies


@pytest.mark.parametrize("name", GAMES)
def test_a_paid_claim_off_by_one_is_reported_at_its_event(name):
    events = recorded(name)
    checked = 0
    for i, e in enumerate(events):
        if e.type != "card_played" or not e.payload["paid"]:
            continue
        paid = e.payload["paid"]
        found = problems(replaced(events, i, paid=paid + 1))
        assert [(p.rule_id, p.where.seq, p.where.player, p.expected, p.found) for p in found] == \
            [("swd.claim.paid", i, NAMES[e.payload["seat"]], f"{paid} coins", f"{paid + 1} coins")]
        checked += 1
    assert checked == {"golden-civilian": 26, "golden-science": 23, "golden-pantheon": 20, "golden-agora": 12,
                       "golden-together": 11}[name]


@pytest.mark.parametrize("name", GAMES)
def test_a_pawn_claim_changed_is_reported_at_its_event(name):
    events = recorded(name)
    i = next(i for i, e in enumerate(events) if e.type == "card_played" and e.payload["pawn"] == PAWN[name][0][0])
    found = problems(replaced(events, i, pawn=PAWN[name][0][0] + 1))
    assert [(p.rule_id, p.where.seq) for p in found] == [("swd.claim.military", i)]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("category", [*CATEGORIES, "total"])
def test_a_score_claim_changed_is_reported_at_the_end(name, category):
    events = recorded(name)
    i = len(events) - 1
    for seat in (0, 1):
        claimed = [dict(c) for c in events[i].payload["scores"]]
        claimed[seat][category] += 1
        found = problems(replaced(events, i, scores=claimed))
        want = hand(name, seat)[category]
        assert [(p.rule_id, p.where.seq, p.where.player, p.expected, p.found) for p in found] == \
            [("swd.claim.score", i, NAMES[seat], f"{category} {want}", f"{category} {want + 1}")]


# ----------------------------------------------------------------------------- the expansions, by hand

ACTIVATIONS = [  # (seat, Divinity, Offerings discarded, coins paid): the README's table
    (1, "mars", [], 4), (0, "zeus", [3], 0), (0, "minerva", [4], 0), (1, "ra", [], 6), (1, "astarte", [], 3),
    (1, "gate", [2], 2),
]
RECRUITS = [  # (seat, Senator, coins paid = Senators already had)
    (1, "conspirator_6", 0), (0, "conspirator_5", 0), (1, "conspirator_3", 1), (0, "politician_right_1", 1),
    (0, "conspirator_4", 2), (0, "politician_middle_3", 3),
]


def of(name: str, kind: str) -> list[tuple[int, dict[str, Any]]]:
    return [(i, e.payload) for i, e in enumerate(recorded(name)) if e.type == kind]


def test_the_pantheon_game_shows_activations_with_offerings_the_gate_and_a_grand_temple():
    activated = of("golden-pantheon", "divinity_activated")
    assert [(p["seat"], p["divinity"], p["offerings"], p["paid"]) for _, p in activated] == ACTIVATIONS
    assert [p["divinities"] for _, p in of("golden-pantheon", "divinities_drawn") if p["mythology"] is None] == \
        [["ishtar", "baal", "hades", "anubis", "neptune"]]
    assert [(p["divinity"], p["space"]) for _, p in of("golden-pantheon", "divinity_chosen")][-1] == ("ishtar", None)
    temples = [(p["seat"], p["card"], p["action"], p["free"], p["paid"]) for _, p in of("golden-pantheon", "card_played")
               if p["card"].endswith("grand_temple")]
    assert temples == [(1, "phoenician_grand_temple", "wonder", None, 10), (1, "roman_grand_temple", "construct", "chain", 0),
                       (1, "egyptian_grand_temple", "wonder", None, 12)]
    state = replay(GAME, recorded("golden-pantheon"), GAME.library()).state
    assert state.pantheon["reserve"] == [0, 1]  # Ben's Pantheon VP: 5 for one Grand Temple + 1 coin on Astarte


def test_the_agora_game_shows_senators_decrees_a_conspiracy_and_a_political_supremacy():
    recruited = of("golden-agora", "senator_recruited")
    assert [(p["seat"], p["card"], p["paid"]) for _, p in recruited] == RECRUITS
    had = [0, 0]
    for seat, _, paid in RECRUITS:  # the price: the Senators the seat already has
        assert paid == had[seat]
        had[seat] += 1
    assert [(p["chamber"], p["decree"]) for _, p in of("golden-agora", "decree_revealed")] == \
        [("chamber_2", "senate_blue"), ("chamber_4", "yellow_age_coins"), ("chamber_6", "shield")]
    assert [p for _, p in of("golden-agora", "conspiracy_triggered")] == [{"seat": 0, "conspiracy": "swindle"}]
    assert [p["target"] for _, p in of("golden-agora", "conspiracy_target")] == ["stone_reserve"]
    state = replay(GAME, recorded("golden-agora"), GAME.library()).state
    assert state.agora["influence"] == {"chamber_1": [1, 0], "chamber_2": [1, 0], "chamber_3": [2, 1], "chamber_4": [2, 1],
                                        "chamber_5": [1, 0], "chamber_6": [2, 0]}
    vp = {c.id: c.vp for c in GAME.pack("7wd-duel-agora").agora.chambers}
    assert sum(vp.values()) == SENATE_VP["golden-agora"][0] == HAND["golden-agora"][0][8] - sum(HAND["golden-agora"][0][:8])


PRICED = [*(("golden-pantheon", "divinity_activated", at) for at in range(len(ACTIVATIONS))),
          *(("golden-agora", "senator_recruited", at) for at in range(len(RECRUITS)))]


@pytest.mark.parametrize("name, kind, at", PRICED)
def test_an_activation_or_recruit_price_off_by_one_is_reported_at_its_event(name, kind, at):
    i, p = of(name, kind)[at]
    found = problems(replaced(recorded(name), i, paid=p["paid"] + 1))
    assert [(f.rule_id, f.where.seq) for f in found][:1] == [("swd.claim.paid", i)]


# ----------------------------------------------------------------------------- both expansions, by hand

COIN_TRACES = {  # the README's "Coins, play by play": (who, what) -> (Ana's, Ben's) coins after it, each change
    "golden-pantheon": [
        ("Ben", "theater", (7, 9)), ("Ana", "palisade", (5, 9)), ("Ben", "pharmacist", (5, 11)),
        ("Ben", "wood_reserve", (5, 3)),  # the Sphinx: -8
        ("Ben", "press", (5, 2)), ("Ben", "tavern", (5, 4)), ("Ana", "logging_camp", (4, 4)), ("Ben", "stone_pit", (4, 6)),
        ("Ana", "clay_reserve", (1, 6)), ("Ana", "stable", (1, 4)),  # +3: Ben loses 2
        ("Ben", "stone_reserve", (1, 1)), ("Ana", "clay_pit", (0, 1)), ("Ben", "quarry", (0, 4)),
        ("Ben", "glassworks", (0, 3)), ("Ben", "apothecary", (0, 6)),
        ("Ana", "laboratory", (3, 6)), ("Ben", "rostrum", (3, 1)), ("Ana", "parade_ground", (0, 1)),
        ("Ben", "archery_range", (0, 4)), ("Ben", "barracks", (0, 7)), ("Ben", "mars", (0, 3)), ("Ben", "brewery", (0, 9)),
        ("Ben", "ra", (0, 3)), ("Ana", "customs_house", (3, 3)), ("Ben", "aqueduct", (3, 1)),  # the Sanctuary: -2
        ("Ben", "school", (3, 5)), ("Ana", "shelf_quarry", (1, 5)), ("Ben", "sawmill", (1, 3)), ("Ben", "forum", (1, 7)),
        ("Ben", "astarte", (1, 4)),  # and 7 on Astarte
        ("Ana", "pretorium", (4, 4)),
        ("Ben", "phoenician_grand_temple", (1, 3)),  # the Appian Way: 10 = his 4 + 6 of Astarte's; +3; Ana -3
        ("Ben", "gate", (1, 1)), ("Ana", "armory", (6, 1)), ("Ben", "university", (6, 5)), ("Ben", "arena", (6, 9)),
        ("Ben", "observatory", (6, 20)),  # the Temple of Artemis: -1 +12
        ("Ben", "academy", (6, 16)), ("Ana", "chamber_of_commerce", (5, 16)),
        ("Ben", "egyptian_grand_temple", (5, 4)),  # the Colossus: -12
        ("Ben", "pantheon", (5, 8)), ("Ben", "lighthouse", (5, 3)), ("Ana", "siege_workshop", (1, 3)), ("Ben", "port", (1, 8)),
    ],
    "golden-agora": [
        ("Ana", "scriptorium", (5, 7)), ("Ben", "palisade", (5, 5)), ("Ben", "glassworks", (5, 4)),
        ("Ben", "stone_reserve", (5, 1)), ("Ana", "stone_pit", (4, 1)), ("Ana", "wood_reserve", (1, 1)),
        ("Ben", "clay_pit", (1, 0)), ("Ben", "conspirator_1", (1, 5)),  # a Senator discarded: 2 + 1 yellow + chamber 3's 2
        ("Ben", "baths", (1, 4)), ("Ana", "tavern", (5, 4)), ("Ben", "conspirator_3", (5, 3)), ("Ana", "apothecary", (2, 3)),
        ("Ana", "politician_right_1", (1, 3)), ("Ben", "stable", (2, 3)),  # Ana's chamber 1: red, Age I
        ("Ana", "pharmacist", (0, 3)), ("Ana", "rostrum", (4, 3)), ("Ana", "conspirator_4", (2, 3)),
        ("Ben", "shelf_quarry", (2, 1)), ("Ana", "school", (6, 1)), ("Ben", "laboratory", (6, 3)),
        ("Ana", "barracks", (8, 3)),  # chamber 1: red, Age II
        ("Ben", "sawmill", (8, 1)), ("Ana", "politician_middle_3", (5, 1)),
    ],
    "golden-together": [
    ("Ana", "stable", (5, 7)), ("Ben", "scriptorium", (5, 9)), ("Ana", "garrison", (3, 9)),
    ("Ben", "politician_left_2", (3, 7)),  # Hanging Gardens: -8, +6
    ("Ana", "clay_pit", (2, 7)), ("Ben", "quarry", (2, 9)), ("Ben", "politician_middle_2", (2, 11)),
    ("Ana", "stone_pit", (1, 11)), ("Ben", "wood_reserve", (1, 2)),  # Great Lighthouse: -9
    ("Ben", "apothecary", (1, 0)), ("Ana", "glassworks", (0, 0)), ("Ben", "baths", (0, 2)), ("Ana", "press", (2, 2)),
    ("Ben", "clay_reserve", (2, 4)), ("Ana", "palisade", (0, 4)), ("Ben", "politician_middle_1", (0, 6)),
    ("Ben", "pharmacist", (0, 8)), ("Ana", "tavern", (5, 8)),  # 4 + the yellow Decree's 1 (Age I)
    ("Ben", "workshop", (5, 10)), ("Ana", "archery_range", (3, 10)), ("Ben", "aphrodite", (3, 4)),
    ("Ben", "customs_house", (5, 0)),  # Ana's chamber 5 Decree: +2 (Age II)
    ("Ana", "mars", (2, 0)),
    ],
}


def test_the_game_with_both_expansions_shows_a_divinity_a_senator_and_a_conspiracy():
    events = recorded("golden-together")
    assert [(p["seat"], p["divinity"], p["offerings"], p["paid"]) for _, p in of("golden-together", "divinity_activated")] == \
        [(1, "aphrodite", [], 6), (0, "mars", [], 3)]  # space 2, Ben second: 6; space 0, Ana first: 3
    assert [(p["seat"], p["card"], p["paid"]) for _, p in of("golden-together", "senator_recruited")] == [(0, "conspirator_1", 0)]
    assert [(p["seat"], p["conspiracy"], p["card"]) for _, p in of("golden-together", "conspiracy_prepared")] == \
        [(1, "extortion", "conspirator_4")]
    assert [p for _, p in of("golden-together", "conspiracy_triggered")] == [{"seat": 1, "conspiracy": "extortion"}]
    assert [p["target"] for _, p in of("golden-together", "conspiracy_target")] == ["great_library"]
    assert [(p["seat"], p["divinity"], p["space"]) for _, p in of("golden-together", "divinity_chosen")] == \
        [(1, "minerva", 4), (1, "aphrodite", 2), (0, "zeus", 1), (0, "mars", 0), (1, "baal", 3)]
    state = replay(GAME, events, GAME.library()).state
    assert state.agora["influence"]["chamber_4"] == [1, 0] and state.agora["influence"]["chamber_5"] == [1, 0]
    assert state.agora["decrees"]["chamber_5"] == "yellow_age_coins"
    assert state.wonders[1][-1] == "great_library" and "great_library" not in state.wonders[0]


@pytest.mark.parametrize("name", sorted(COIN_TRACES))
def test_the_coins_are_the_hand_traced_ones_play_by_play(name):
    """After every play that changes a treasury, both treasuries are the README's."""
    driver = Replay(GAME)
    traced, before = [], [7, 7]
    for e in recorded(name):
        driver.push(e)
        coins = list(driver.state.coins)
        if coins != before:
            p = e.payload
            traced.append((NAMES[p["seat"]], p.get("card") or p.get("divinity"), tuple(coins)))
            before = coins
    assert traced == COIN_TRACES[name]
    assert list(traced[-1][2]) == COINS[name]
