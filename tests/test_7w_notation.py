from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import assert_reads_anything, assert_refused, mutate
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.cli.main import cli
from replay.driver import replay
from replay.errors import NotationError
from replay.events import Event
from replay.games.seven_wonders import GAME, simulate_game
from replay.games.seven_wonders.notation import SevenWondersNotation, read, write
from replay.services.audit import audit
from replay.services.logs import read_notation_text

NOTATION = SevenWondersNotation()
PACK = GAME.pack()
PIN = f"{PACK.id} {PACK.version} {PACK.content_hash}"
BOTS = ("random", "science", "military", "civilian")
NAMES = ("Ana", "Ben", "Chloe", "Dev", "Eli", "Fay", "Gus")
HEADER = f"""\
[Game "club-2026-11-20-t2"]
[Kind "7wonders"]
[Event "Club night"]
[Ruleset "{PIN}"]
[Seat "0 Ana rhodes A"]
[Seat "1 Ben gizah B"]
[Seat "2 Chloe olympia B"]
"""

TYPED = HEADER + """
age 1
deal Ana: Baths, Lumber Yard, Theater, Stone Pit, Clay Pool, Altar, Glassworks
deal Ben: press guard_tower scriptorium west_trading_post apothecary workshop barracks
deal chloe: timber_yard, clay_pit, east_trading_post, marketplace, stockade, loom, ore_vein
Ana: build glassworks                  # no turn line: a seat's second line begins the next turn
Ben: build Barracks (buy ore from Ana) {paid 2 to Ana}
Chloe: build loom
Ana: build timber_yard
Ben: build theater
Chloe: build apothecary
turn 3
Ana: build workshop
Ben: build ore_vein
Chloe: build altar
turn 4
Ana: build baths (stone from Timber Yard)
Ben: build press
Chloe: build clay_pit
turn 5
Chloe: build guard_tower (clay from clay_pit)   # the order within a turn does not matter
Ana: build stockade (wood from timber_yard)
Ben: build lumber_yard
turn 6
Ana: build scriptorium (buy papyrus from Ben) {paid 2 to left}
Ben: build marketplace
Chloe: build clay_pool
conflicts age 1: Ana none, Ben none, Chloe none

age 2
deal Ana: walls, temple, caravansery, laboratory, school, vineyard, aqueduct
deal Ben: sawmill, quarry, dispensary, loom, archery_range, stables, glassworks
deal Chloe: press, courthouse, statue, foundry, forum, brickyard, library
turn 1
Ana: build laboratory free chain
Ben: build stables (buy clay from left) {paid 2 to left, 0 to right}
Chloe: build courthouse (clay from clay_pit)
turn 2
Ana: build dispensary (buy ore from left)
Ben: build foundry
Chloe: build temple free chain {paid nothing}
"""
"""Age I and two turns of Age II of simulate_game(..., 0, ("science", "military", "civilian")),
typed as a person would: display names, neighbours by name, turns counted, claims left out."""


def game(seed: int, players: int = 4, bots: tuple[str, ...] = ("random",)) -> list[Event]:
    return simulate_game(f"sw-{seed}", NAMES[:players], seed, bots)


def plays(events: list[Event]) -> list[tuple]:
    keys = ("seat", "age", "turn", "card", "action", "free", "choices", "left", "right")
    return [tuple(str(e.payload.get(k)) for k in keys) for e in events if e.type == "card_played"]


# ----------------------------------------------------------------------------- round trips


def test_round_trip_on_simulated_games_with_every_kind_of_event():
    seen: Counter[str] = Counter()
    for seed in range(30):
        events = game(seed, 3 + seed % 5, BOTS)
        text = write(events)
        parsed = read(text, "raise")
        assert parsed.events == events
        assert write(parsed.events) == text
        assert sorted(parsed.lines) == list(range(len(events)))
        for e in events:
            p = e.payload
            seen[e.type] += 1
            if e.type == "card_played":
                seen[f"free {p['free']}"] += 1
                seen["choices"] += bool(p["choices"])
                seen["bought"] += bool(p["left"] or p["right"])
                seen["seventh card"] += p["turn"] == 7
                seen["wonder"] += p["action"] == "wonder"
                seen["discard"] += p["action"] == "discard"
    for kind in ("discard_built", "free chain", "free power", "choices", "bought", "seventh card", "wonder", "discard"):
        assert seen[kind], kind


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 7), bots=st.sampled_from([("random",), BOTS, ("science",)]))
def test_round_trip_property(seed, players, bots):
    events = game(seed, players, bots)
    text = NOTATION.write(events)
    parsed = NOTATION.read(text, "raise")
    assert parsed.events == events
    assert NOTATION.write(parsed.events) == text


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 1000),
       names=st.lists(st.from_regex(r"[a-zA-ZÅé0-9_'.-]{1,6}( [a-zA-ZÅé0-9_'.-]{1,6})?", fullmatch=True),
                      min_size=5, max_size=5, unique_by=str.lower))
def test_any_names_round_trip_compactly_or_raw(seed, names):
    events = simulate_game("names", names, seed)
    assert read(write(events), "raise").events == events


def test_names_with_spaces_and_any_case():
    events = simulate_game("g", ["Ana Maria", "Ben", "Chloe"], 5)
    text = write(events)
    assert '[Seat "0 Ana Maria' in text and "\nAna Maria: " in text
    assert read(text.replace("Ana Maria:", "ana maria :"), "raise").events == events


def test_what_the_compact_forms_cannot_say_is_written_raw_and_still_round_trips():
    events = game(3)
    start = events[0]._replace(payload={**events[0].payload, "tags": {"Event": "Club #3"},
                                         "seats": [{**s, "name": s["name"] + ": x"} if s["seat"] == 1 else s
                                                   for s in events[0].payload["seats"]]})
    odd = [start, *events[1:]]
    text = write(odd)
    assert "! game_started " in text and "Ben: x" not in text.split("! game_started", 1)[0]
    assert read(text, "raise").events == odd
    i = next(i for i, e in enumerate(events) if e.type == "card_played")
    wrong_age = events[i]._replace(payload={**events[i].payload, "age": 3})
    odd = [*events[:i], wrong_age, *events[i + 1:]]
    text = write(odd)
    assert "! card_played " in text
    assert read(text, "raise").events == odd


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 7))
def test_without_turn_lines_and_claims_the_reader_counts_the_turns_and_the_audit_is_clean(seed, players):
    """A seat's second line in a turn begins the next one (Babylon's seventh card included)."""
    events = game(seed, players, BOTS)
    typed = "\n".join(line.split(" {")[0] for line in write(events).splitlines() if not line.startswith("turn "))
    parsed = read(typed, "raise")
    assert plays(parsed.events) == plays(events)
    assert not replay(GAME, parsed.events).problems


def test_a_pack_the_reader_does_not_ship_is_read_by_ids():
    text = write(game(2, 3)).replace(PACK.content_hash, "sha256:" + "0" * 64)
    parsed = read(text, "raise")
    assert parsed.events[0].payload["ruleset"]["content_hash"] == "sha256:" + "0" * 64
    assert plays(parsed.events) == plays(game(2, 3))
    problems = read(text.replace("deal Ana: ", "deal Ana: Ω ", 1)).problems
    assert [p.text for p in problems] == ["Ω"]


# ----------------------------------------------------------------------------- typed games


def test_a_typed_game_reads_to_the_simulated_plays():
    simulated = simulate_game("club-2026-11-20-t2", ["Ana", "Ben", "Chloe"], 0, ("science", "military", "civilian"))
    parsed = read(TYPED, "raise")
    typed = plays(parsed.events)
    assert sorted(typed) == sorted(plays(simulated)[:len(typed)]) and len(typed) == 24
    assert parsed.events[0].payload["tags"] == {"Event": "Club night"}
    assert [e.payload["hands"] for e in parsed.events if e.type == "age_dealt"] == \
        [e.payload["hands"] for e in simulated if e.type == "age_dealt"][:2]
    paid = {(e.payload["seat"], e.payload["age"], e.payload["turn"]): e.payload["paid"] for e in parsed.events
            if e.type == "card_played" and e.payload["paid"] is not None}
    assert paid == {(1, 1, 1): {"to_left": None, "to_right": 2}, (0, 1, 6): {"to_left": 2, "to_right": None},
                    (1, 2, 1): {"to_left": 2, "to_right": 0}, (2, 2, 2): {"to_left": 0, "to_right": 0}}


def test_a_typed_game_is_audited_clean_through_the_services_and_the_cli(tmp_path, monkeypatch):
    report = audit(read_notation_text(TYPED, "typed.txt"))
    assert report.ok, report.to_text()
    assert report.events == 1 + 1 + 18 + 1 + 1 + 6
    path = tmp_path / "typed.txt"
    path.write_text(TYPED)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REPLAY_ARCHIVE", raising=False)
    result = CliRunner().invoke(cli, ["audit", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "OK: no problem found" in result.output


def test_a_wrong_payment_claim_is_audited_at_its_line(tmp_path, monkeypatch):
    lines = TYPED.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Ben: build Barracks"))
    lines[at] = "Ben: build Barracks (buy ore from Ana) {paid 3 to Ana}"
    text = "\n".join(lines) + "\n"
    report = audit(read_notation_text(text, "wrong.txt"))
    assert [(p.rule_id, p.line) for p in report.problems] == [("7w.claim.paid", at + 1)]
    assert report.problems[0].expected == "2 coins to Ana" and report.problems[0].found == "3 coins"
    path = tmp_path / "wrong.txt"
    path.write_text(text)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REPLAY_ARCHIVE", raising=False)
    result = CliRunner().invoke(cli, ["audit", str(path)])
    assert result.exit_code != 0
    assert f"line {at + 1}" in result.output and "7w.claim.paid" in result.output


def test_score_pad_claims_are_read_by_name_or_in_the_pads_order_and_audited():
    events = game(7, 3)
    text = write(events)
    final = events[-1].payload["scores"]
    pad = "\n".join(f"score {NAMES[s['seat']]}: " + " ".join(str(s[c]) for c in
                    ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science", "total"))
                    for s in final)
    by_pad = read(text.split("\ngame over\n")[0] + "\n" + pad + "\n", "raise").events
    assert by_pad == events
    wrong = text.replace(f"score Ben: military {final[1]['military']}", f"score Ben: military {final[1]['military'] + 1}")
    report = audit(read_notation_text(wrong, "pad.txt"))
    assert [p.rule_id for p in report.problems] == ["7w.claim.score"]
    assert report.problems[0].line == wrong.splitlines().index("game over") + 1


def test_a_missing_deal_line_is_said_not_invented():
    text = TYPED.replace("deal chloe: timber_yard", "# deal chloe: timber_yard")
    problems = read(text).problems
    assert [(p.line, p.column) for p in problems] == [(9, 1)]
    assert "no deal line for chloe" in problems[0].message and "does not invent" in problems[0].message


# ----------------------------------------------------------------------------- problems


BROKEN = HEADER + """
age 1
deal Ana: Baths, Lumber Yard, Theatre, Stone Pit
deal Bob: loom
Ana: biuld baths
Ben: build baths free
Chloe: build loom (buy 2 wod from left)
Ana: build loom (buy ore from Ben) {paid 2 to Dev}
Ben: wonder loom (stone from)
conflicts age 1: Ana +1, Ben none
this line means nothing
score Ana: military ten
"""


def test_lenient_collects_every_problem_with_line_and_column_and_strict_stops_at_the_first():
    parsed = read(BROKEN, source="broken.txt")
    found = [(p.line, p.column, p.text) for p in parsed.problems]
    assert found == [
        (10, 31, "Theatre"),
        (11, 6, "Bob"),
        (9, 1, "age 1"),
        (12, 6, "biuld baths"),
        (13, 18, "free"),
        (14, 24, "2 wod"),
        (15, 37, "paid 2 to Dev"),
        (16, 19, "stone from"),
        (17, 18, "Ana +1, Ben none"),
        (18, 1, "this line means nothing"),
        (19, 12, "military ten"),
    ]
    assert all(p.rule_id == "notation.syntax" and p.where.source == "broken.txt" for p in parsed.problems)
    assert "did you mean theater" in parsed.problems[0].message
    assert "unknown player (the seats are: ana, ben, chloe)" in parsed.problems[1].message
    assert "free chain" in parsed.problems[4].message
    assert "no deal line for ben, chloe" in parsed.problems[2].message  # Ana's has a problem of its own
    with pytest.raises(NotationError) as caught:
        read(BROKEN, "raise")
    assert [p.line for p in caught.value.problems] == [10]


@pytest.mark.parametrize("header, message", [
    ('[Game "g"]\n[Seat "0 Ana babylon A"]', "the header needs [Ruleset"),
    (f'[Ruleset "{PIN}"]\n[Seat "0 Ana babylon A"]', "the header needs [Game"),
    ('[Game "g"]\n[Kind "pig"]', "this is a 7wonders reader"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "zero Ana babylon A"]', "a seat is"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana babylon C"]', "a seat is"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana atlantis A"]', "unknown Wonder"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]', "the header needs a [Seat"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana babylon A"]\n[Seat "1 ANA rhodes A"]', "two seats have the same name"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana babylon A"]\n[Seat "1 Ben rhodes A"]', "game_started: seats"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n! game_started {{"seats": 3]}}', "the payload is a JSON object"),
])
def test_header_problems_are_named(header, message):
    problems = read(header + "\n").problems
    assert any(message in p.message for p in problems), problems


LINES = [
    "Ana: build baths\x00", "Ana: build baths" + "s" * 5000, "Ana: build " + "(" * 3000,
    "Ana: build baths (" + "buy " * 900 + ")",
    "Ana: build baths {paid " + "9" * 2000 + " to left}", "Ana: build baths {paid 2 to left, 3 to left}",
    "Ana: build", "Ana: build baths free chain free power", "Ana: from discard ²", "Ana: wonder baths (² from stage1)",
    "age ²", "turn 9", "turn ²", "conflicts age 1: Ana ², Ben none, Chloe none", "conflicts age 1: Ana none, Ana none",
    "score Ana: total 1, total 2", "score Ana: " + "1 " * 9, "! card_played {", "! card_played [[[[" + "[" * 100_000,
    '! nonsense {"a":1}', '! card_played {"seat":-1}', "! game_started {}", "deal Ana: baths",
    "Ana: build baths (buy wood from Chloe; buy wood)", "Ana: build baths (clay from lumber yard; clay from Lumber Yard)",
]


@pytest.mark.parametrize("line", LINES)
def test_hostile_lines_are_problems_never_a_traceback(line):
    assert_refused(read, HEADER + "age 1\ndeal Ana: baths\ndeal Ben: loom\ndeal Chloe: altar\n" + line + "\n")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_reads_without_a_traceback(body):
    assert_reads_anything(read, (body, HEADER + body, HEADER + "age 1\n" + body))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 1000), data=st.data())
def test_mutated_games_read_without_a_traceback(seed, data):
    assert_reads_anything(read, [mutate(write(game(seed, 3)), data, ["²", "(", ")", "{", ";", ",", " ", "free", "\x07", ":"])])


def test_the_example_in_the_docs_reads_and_replays_without_a_problem():
    doc = (Path(__file__).parent.parent / "docs" / "notation.md").read_text()
    example = doc.split("## 7 Wonders\n", 1)[1].split("```")[1]
    parsed = read(example, "raise")
    assert parsed.events[-1].type == "game_ended"
    assert not replay(GAME, parsed.events).problems
