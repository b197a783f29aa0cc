from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from flip7_table import DECK, PACK, game
from helpers import assert_reads_anything, assert_refused, mutate
from hypothesis import example, given, settings
from hypothesis import strategies as st

from replay.driver import replay
from replay.errors import NotationError
from replay.events import Event
from replay.games.flip7 import GAME
from replay.games.flip7.notation import Flip7Notation, read, write

NOTATION = Flip7Notation()
PIN = f"{PACK.id} {PACK.version} {PACK.content_hash}"
HEADER = f'[Game "t1"]\n[Kind "flip7"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana"]\n[Seat "1 Ben"]\n[Seat "2 Cy"]\n[FirstDealer "Cy"]\n\n'

TYPED = HEADER + """\
round 1 dealer Cy
Ana: 7                          # the deal
Ben: chance
Cy: flip3 -> Ana (5 12 +4)
Ana: hit 12 bust
Ben: hit freeze -> Cy frozen
Ben: hit 8
Ben: hit 8 saved
Ben: stay
end round 1: Ana 0 total 0, Ben 8 total 8, Cy 0 total 0
round 2 dealer Ana
Ben: 3
Cy: 4
Ana: chance
Ben: stay
Cy: hit 6
Ana: hit chance -> Cy
Cy: stay
Ana: stay
end round 2
"""


def without_shuffles(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("shuffle", "reshuffle"))) + "\n"


def types(events: list[Event]) -> Counter[str]:
    return Counter(e.type if e.type != "target_chosen" else f"give {e.payload['card']}" for e in events)


# ----------------------------------------------------------------------------- round trips


def test_round_trip_on_valid_games_with_every_kind_of_event():
    seen: Counter[str] = Counter()
    for seed in range(40):
        events = game(seed, bold=seed % 2 == 1)
        text = write(events)
        parsed = read(text, "raise")
        assert parsed.events == events
        assert write(parsed.events) == text
        assert sorted(parsed.lines) == list(range(len(events)))
        seen += types(events)
        seen["passed chance"] += sum(1 for e in events if e.type == "target_chosen"
                                     and e.payload["card"] == "second_chance" and e.payload["target"] is not None)
        seen["reshuffle"] += sum(1 for e in events if e.type == "deck_shuffled" and e.payload["reason"] == "reshuffle")
    for kind in ("busted", "frozen", "give flip_three", "second_chance_used", "passed chance", "reshuffle",
                 "flipped_seven", "game_ended"):
        assert seen[kind], kind


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6), dealer=st.integers(0, 5),
       names=st.lists(st.from_regex(r"[a-zA-ZÅé0-9_'.-]{1,6}( [a-zA-ZÅé0-9_'.-]{1,6})?", fullmatch=True),
                      min_size=6, max_size=6, unique_by=str.lower))
def test_round_trip_property(seed, players, dealer, names):
    events = game(seed, names[:players], first_dealer=dealer % players, rounds=8, bold=seed % 3 == 0)
    parsed = NOTATION.read(NOTATION.write(events), "raise")
    assert parsed.events == events


def test_events_the_compact_forms_cannot_say_are_written_raw_and_still_round_trip():
    events = game(3, rounds=2)
    i = next(i for i, e in enumerate(events) if e.type == "player_stayed")
    odd = Event("f7", i, "flip7", "busted", 1, {"seat": 1, "card": "x2"})  # not the card Ben drew last
    events = [*events[:i], odd, *(e._replace(seq=e.seq + 1) for e in events[i:])]
    text = write(events)
    assert '! busted {"card":"x2","seat":1}' in text or "bust=x2" in text
    assert read(text, "raise").events == events


def test_names_with_spaces_and_any_case():
    events = game(5, ("Ana Maria", "Ben", "Cy"), rounds=3)
    text = write(events)
    assert read(text.replace("Ana Maria:", "ana maria :"), "raise").events == events


# ----------------------------------------------------------------------------- the draw pile


def test_a_typed_game_without_shuffle_lines_reconstructs_the_piles_from_the_cards_drawn():
    parsed = read(TYPED, "raise")
    events = parsed.events
    shuffles = [e for e in events if e.type == "deck_shuffled"]
    assert len(shuffles) == 1 and shuffles[0].payload["reason"] == "new_deck"
    drawn = [e.payload["card"] for e in events if e.type == "card_drawn"]
    order = shuffles[0].payload["order"]
    assert order[:len(drawn)] == drawn
    assert Counter(order) == Counter(DECK)
    assert [e.type for e in events[:4]] == ["game_started", "round_started", "deck_shuffled", "card_drawn"]
    # Ana's Flip Three: three cards, then Ana's bust on the duplicate 12
    three = [e.payload for e in events if e.type == "card_drawn" and e.payload["reason"] == "flip_three"]
    assert three == [{"seat": 0, "card": c, "reason": "flip_three"} for c in ("5", "12", "+4")]
    assert {"seat": 0, "card": "12"} in [e.payload for e in events if e.type == "busted"]
    assert {"seat": 1, "card": "8"} in [e.payload for e in events if e.type == "second_chance_used"]
    assert {"seat": 0, "card": "second_chance", "target": 2} in [e.payload for e in events if e.type == "target_chosen"]
    assert [e.payload for e in events if e.type == "frozen"] == [{"seat": 2}]
    assert parsed.lines[2] == parsed.lines[1]  # the reconstructed new deck belongs to its round's line


def test_reconstructed_reshuffles_hold_the_discard_pile_the_table_had():
    reshuffles = 0
    for seed in range(60):
        events = game(seed, bold=seed % 2 == 1)
        parsed = read(without_shuffles(write(events)), "raise")
        assert len(parsed.events) == len(events)
        for ours, theirs in zip(parsed.events, events):
            if theirs.type != "deck_shuffled":
                assert ours == theirs
                continue
            assert ours.payload["reason"] == theirs.payload["reason"]
            assert Counter(ours.payload["order"]) == Counter(theirs.payload["order"])
            reshuffles += theirs.payload["reason"] == "reshuffle"
    assert reshuffles > 10


def test_reconstructed_order_is_the_cards_drawn_then_the_rest_in_the_packs_order():
    events = game(1)
    parsed = read(without_shuffles(write(events)), "raise")
    for i, e in enumerate(parsed.events):
        if e.type != "deck_shuffled":
            continue
        drawn = []
        for later in parsed.events[i + 1:]:
            if later.type == "deck_shuffled":
                break
            if later.type == "card_drawn":
                drawn.append(later.payload["card"])
        order = e.payload["order"]
        rest = order[len(drawn):]
        assert order[:len(drawn)] == drawn
        assert rest == sorted(rest, key=DECK.index)


def test_a_given_reshuffle_line_is_used_when_the_pile_runs_out_and_an_unneeded_one_is_a_problem():
    events = game(1)
    assert read(write(events), "raise").events == events
    text = TYPED.replace("round 2 dealer Ana\n", "round 2 dealer Ana\nreshuffle 1 2 3\n")
    parsed = read(text)
    assert [(p.line, p.text) for p in parsed.problems] == [(20, "reshuffle")]
    assert "never needed" in parsed.problems[0].message


def test_a_shuffle_line_in_a_round_without_a_new_deck_is_a_problem():
    text = TYPED.replace("round 2 dealer Ana\n", "round 2 dealer Ana\nshuffle 1 2 3\n")
    problems = read(text).problems
    assert len(problems) == 1 and problems[0].line == 20 and "no new deck is due" in problems[0].message


# ----------------------------------------------------------------------------- problems


BROKEN = HEADER + """\
round 1 dealer Cy
Ana: 7
Ben: 13
Cy: hit ²
Bob: hit 5
Ana: hit freeze -> Dan
Ben: stay )
this line means nothing
end round 1: Ana lots
"""


def test_lenient_collects_every_problem_with_line_and_column_and_strict_stops_at_the_first():
    parsed = read(BROKEN, source="broken.txt")
    found = [(p.line, p.column, p.text) for p in parsed.problems]
    assert found == [
        (11, 6, "13"),
        (12, 9, "²"),
        (13, 1, "Bob"),
        (14, 20, "Dan"),
        (15, 11, ")"),
        (16, 1, "this line means nothing"),
        (17, 14, "Ana lots"),
    ]
    assert all(p.rule_id == "notation.syntax" for p in parsed.problems)
    assert "unknown card" in parsed.problems[0].message
    assert "unknown player (the seats are: ana, ben, cy)" in parsed.problems[2].message
    with pytest.raises(NotationError) as caught:
        read(BROKEN, "raise")
    assert [p.line for p in caught.value.problems] == [11]


@pytest.mark.parametrize("header, message", [
    ('[Game "g"]\n[Seat "0 Ana"]', "the header needs [Ruleset"),
    (f'[Ruleset "{PIN}"]\n[Seat "0 Ana"]', "the header needs [Game"),
    ('[Game "g"]\n[Kind "pig"]', "this is a flip7 reader"),
    ('[Game "g"]\n[Ruleset "flip7-standard 1.0.0 sha256:' + "0" * 64 + '"]\n[Seat "0 Ana"]', "unknown rules pack"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "zero Ana"]', "a seat is"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana"]\n[FirstDealer "Zed"]', "[FirstDealer] names no seat"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana"]\n[Seat "1 ANA"]', "two seats have the same name"),
])
def test_header_problems_are_named(header, message):
    problems = read(header + "\n").problems
    assert any(message in p.message for p in problems), problems


@pytest.mark.parametrize("line", [
    "Ana: hit 7\x00", "Ana: hit 9" + "9" * 5000, "Ana: -> Ben", "Ana: hit 7 -> Ben", "Ana: ( 5", "Ana: then",
    "Ana: then 7 -> Ben", "Ana: frozen", "Ana: bust=²", "Ana: frozen=Zed", "round ² dealer Ana", "end round 1: ²",
    "game over: winners Zed", "game over: nobody", "! busted {", "! busted [[[[" + "[" * 100_000, '! nonsense {"a":1}',
    '! card_drawn {"seat":-1,"card":"7","reason":"hit"}', "reshuffle", "shuffle ² x2", "Ana: flip3 -> Ben (5 ( 6)",
])
def test_hostile_lines_are_problems_never_a_traceback(line):
    assert_refused(read, HEADER + "round 1 dealer Cy\n" + line + "\n")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_reads_without_a_traceback(body):
    assert_reads_anything(read, (body, HEADER + body, HEADER + "round 1 dealer Cy\n" + body))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 1000), data=st.data())
def test_mutated_games_read_without_a_traceback(seed, data):
    assert_reads_anything(read, [mutate(write(game(seed, rounds=3)), data, ["²", "(", ")", "->", " ", "bust", "x", "\x07", ":"])])


def test_the_example_in_the_docs_reads_without_a_problem():
    doc = (Path(__file__).parent.parent / "docs" / "notation.md").read_text()
    example = doc.split("## Flip 7", 1)[1].split("```")[1]
    assert read(example, "raise").events


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 10),
       bots=st.sampled_from([("random",), ("odds",), ("stay20", "odds", "random"), ("stay25",)]))
@example(seed=4717, players=5, bots=("odds",))  # a Second Chance kept after a Flip Three, then its holder frozen
def test_engine_simulated_games_round_trip(seed: int, players: int, bots: tuple[str, ...]) -> None:
    """Games the engine's bots play (every event through the rules, random decks, reshuffles):
    the writer's text reads back to the same events, and again without its shuffle lines the
    reader rebuilds piles the same game replays under, with no problem."""
    events = GAME.bots.simulate(f"rt-{seed}", [f"P{i}" for i in range(players)], seed, bots, GAME.pack())
    text = NOTATION.write(events)
    assert NOTATION.read(text, "raise").events == events
    typed = "\n".join(line for line in text.splitlines() if not line.startswith(("shuffle ", "reshuffle ")))
    rebuilt = NOTATION.read(typed, "raise").events
    assert [e for e in rebuilt if e.type != "deck_shuffled"] == [e for e in events if e.type != "deck_shuffled"]
    assert not replay(GAME, rebuilt).problems
