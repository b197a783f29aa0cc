"""7 Wonders Duel's notation: round trips of simulated games, typed games audited at their lines,
and every problem located (line, column, text), never a traceback."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from helpers import assert_reads_anything, assert_refused, assert_round_trip, mutate
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.driver import replay
from replay.errors import NotationError
from replay.events import Event
from replay.games.seven_wonders_duel import GAME, simulate_game
from replay.games.seven_wonders_duel.notation import DuelNotation, read, write
from replay.services.audit import audit
from replay.services.logs import read_notation_text

NOTATION = DuelNotation()
PACK = GAME.pack()
PIN = f"{PACK.id} {PACK.version} {PACK.content_hash}"
BOTS = (("random",), ("military",), ("science",), ("military", "science"), ("science", "random"))
HEADER = f"""\
[Game "club-2026-11-30-d1"]
[Kind "7wonders-duel"]
[Event "Club night"]
[Ruleset "{PIN}"]
[Seat "0 Ana"]
[Seat "1 Ben"]
[First "Ana"]
"""
OPENING = HEADER + """
tokens philosophy, law, architecture, theology, agriculture
wonders 1: Sphinx, Circus Maximus, Great Lighthouse, Statue of Zeus
Ana: pick statue of zeus
Ben: pick great_lighthouse
ben: pick circus_maximus
Ana: pick sphinx
wonders 2: piraeus, mausoleum, great_library, hanging_gardens
Ben: pick mausoleum
Ana: pick piraeus
Ana: pick great_library
Ben: pick hanging_gardens
age 1: r1c4 press, r1c6 clay_reserve, r3c2 logging_camp, r3c4 glassworks, r3c6 clay_pit, r3c8 guard_tower, \
r5c0 tavern, r5c2 stone_pit, r5c4 theater, r5c6 wood_reserve, r5c8 altar, r5c10 lumber_yard
"""


def game(seed: int, bots: tuple[str, ...] = ("random",)) -> list[Event]:
    return simulate_game(f"d-{seed}", ["Ana", "Ben"], seed, bots)


# ----------------------------------------------------------------------------- round trips


def test_round_trip_on_simulated_games_with_every_kind_of_event():
    seen: Counter[str] = Counter()
    for seed in range(40):
        events = game(seed, BOTS[seed % len(BOTS)])
        text = assert_round_trip(NOTATION, events)
        assert sorted(read(text, "raise").lines) == list(range(len(events)))
        assert "\n! " not in text  # a valid game is said compactly, never raw
        for e in events:
            p = e.payload
            seen[e.type] += 1
            if e.type == "card_played":
                seen[p["action"]] += 1
                seen["free chain"] += p["free"] == "chain"
                seen["choices"] += bool(p["choices"])
                seen["bought"] += bool(p["bought"])
                seen["discount"] += bool(p["discount"])
                seen["looted"] += bool(p["looted"])
            if e.type == "progress_taken":
                seen[f"from {p['source']}"] += 1
            if e.type == "game_ended":
                seen[p["victory"]] += 1
    for kind in ("card_destroyed", "discard_built", "tokens_drawn", "starter_chosen", "card_revealed", "construct",
                 "discard", "wonder", "free chain", "choices", "bought", "discount", "looted", "from board", "from box",
                 "civilian", "military", "science"):
        assert seen[kind], kind


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), bots=st.sampled_from(BOTS))
def test_round_trip_property(seed, bots):
    assert_round_trip(NOTATION, game(seed, bots))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 1000),
       names=st.lists(st.from_regex(r"[a-zA-ZÅé0-9_'.@:-]{1,6}( [a-zA-ZÅé0-9_'.-]{1,6})?", fullmatch=True),
                      min_size=2, max_size=2, unique_by=str.lower))
def test_any_names_round_trip_compactly_or_raw(seed, names):
    events = simulate_game("names", names, seed)
    assert read(write(events), "raise").events == events


def test_what_the_compact_forms_cannot_say_is_written_raw_and_still_round_trips():
    events = game(3)
    start = events[0]._replace(payload={**events[0].payload, "tags": {"Event": "Club #3"}})
    odd = [start, *events[1:]]
    text = write(odd)
    assert "! game_started " in text and "[Seat" not in text
    assert read(text, "raise").events == odd
    i = next(i for i, e in enumerate(events) if e.type == "card_played")
    wrong_age = events[i]._replace(payload={**events[i].payload, "age": 3})
    odd = [*events[:i], wrong_age, *events[i + 1:]]
    text = write(odd)
    assert text.count("! card_played ") == 1
    assert read(text, "raise").events == odd


def test_a_card_away_from_where_it_was_seen_is_written_with_its_slot():
    events = game(4)
    i = next(i for i, e in enumerate(events) if e.type == "card_played")
    moved = events[i]._replace(payload={**events[i].payload, "slot": "r9c9"})
    text = write([*events[:i], moved, *events[i + 1:]])
    assert f"{events[i].payload['card']} @r9c9" in text
    assert read(text, "raise").events[i] == moved


# ----------------------------------------------------------------------------- typed games


def typed(events: list[Event]) -> str:
    """The canonical text as a person would type it: claims left out, cards by their display names."""
    names = {c.id: c.name for c in PACK.all_cards}
    out = []
    for line in write(events).splitlines():
        line = re.sub(r"\s*\{[^{}]*\}$", "", line)
        if re.match(r"^(Ana|Ben): (construct|discard) ", line):
            verb, card, rest = re.match(r"^(\S+ \S+) (\S+)(.*)$", line).groups()  # type: ignore[union-attr]
            line = f"{verb} {names[card]}{rest}"
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_a_typed_game_without_claims_reads_to_the_same_plays_and_audits_clean(seed):
    events = game(seed, ("military", "science"))
    text = typed(events)
    assert "Stone Pit" in text or "Lumber Yard" in text or "Clay Pool" in text
    parsed = read(text, "raise")
    keys = ("seat", "slot", "card", "action", "wonder", "free", "choices", "bought", "discount")
    assert [tuple(e.payload[k] for k in keys) for e in parsed.events if e.type == "card_played"] == \
        [tuple(e.payload[k] for k in keys) for e in events if e.type == "card_played"]
    assert all(e.payload["paid"] is None for e in parsed.events if e.type == "card_played")
    assert not replay(GAME, parsed.events).problems
    assert audit(read_notation_text(text, "typed.txt")).ok


def test_a_wrong_claim_is_audited_at_its_line():
    events = game(2)
    lines = write(events).splitlines()
    at = next(i for i, line in enumerate(lines) if "{paid " in line and "{paid 0," not in line)
    paid = int(re.search(r"\{paid (\d+)", lines[at]).group(1))  # type: ignore[union-attr]
    lines[at] = lines[at].replace(f"{{paid {paid},", f"{{paid {paid + 1},")
    report = audit(read_notation_text("\n".join(lines) + "\n", "wrong.txt"))
    assert [(p.rule_id, p.line) for p in report.problems] == [("swd.claim.paid", at + 1)]


def test_the_score_claims_are_read_by_category_and_audited():
    events = game(7)
    text = write(events)
    final = events[-1].payload["scores"]
    assert f"score Ben: civilian {final[1]['civilian']}," in text
    wrong = text.replace(f"score Ben: civilian {final[1]['civilian']},", f"score Ben: civilian {final[1]['civilian'] + 1},")
    report = audit(read_notation_text(wrong, "pad.txt"))
    assert [p.rule_id for p in report.problems] and all(p.rule_id.startswith("swd.claim") for p in report.problems)
    assert report.problems[0].line == wrong.splitlines().index("game over") + 1
    shorter = text.replace("\nvictory ", "\n# victory ")
    assert read(shorter, "raise").events[-1].payload["victory"] is None


def test_a_card_never_seen_needs_its_slot():
    problems = read(OPENING + "Ana: construct baths\n").problems
    assert [(p.line, p.column, p.text) for p in problems] == [(21, 16, "baths")]
    assert "@r5c2" in problems[0].message
    parsed = read(OPENING + "Ana: construct baths @r5c2\n", "raise")
    assert parsed.events[-1].payload["slot"] == "r5c2"


# ----------------------------------------------------------------------------- problems


BROKEN = OPENING + """\
Ana: construct stone pitt
Bob: discard altar
Ana: wonder sphinx tavern
Ben: construct altar free power
Ana: construct tavern (buy 2 wod)
Ben: construct theater {paid 2 to Ana}
Ana: progress lawyer
reveal r0 baths
this line means nothing
game over
victory senate
score Ana: civilian ten
"""


def test_lenient_collects_every_problem_with_line_and_column_and_strict_stops_at_the_first():
    parsed = read(BROKEN, source="broken.txt")
    found = [(p.line, p.column, p.text) for p in parsed.problems]
    assert found == [
        (21, 16, "stone pitt"),
        (22, 1, "Bob"),
        (23, 13, "sphinx tavern"),
        (24, 27, "power"),
        (25, 28, "2 wod"),
        (26, 25, "paid 2 to Ana"),
        (27, 15, "lawyer"),
        (28, 8, "r0"),
        (29, 1, "this line means nothing"),
        (31, 9, "senate"),
        (32, 12, "civilian ten"),
    ]
    assert all(p.rule_id == "notation.syntax" and p.where.source == "broken.txt" for p in parsed.problems)
    assert "did you mean stone_pit" in parsed.problems[0].message
    assert "unknown player (the seats are: ana, ben)" in parsed.problems[1].message
    assert "free chain" in parsed.problems[3].message
    with pytest.raises(NotationError) as caught:
        read(BROKEN, "raise")
    assert [p.line for p in caught.value.problems] == [21]


@pytest.mark.parametrize("header, message", [
    ('[Game "g"]\n[Seat "0 Ana"]', "the header needs [Ruleset"),
    (f'[Ruleset "{PIN}"]\n[Seat "0 Ana"]', "the header needs [Game"),
    ('[Game "g"]\n[Kind "pig"]', "this is a 7wonders-duel reader"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "zero Ana"]', "a seat is"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana"]', 'needs [Seat "0 <name>"] and [Seat "1 <name>"]'),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana"]\n[Seat "1 ANA"]\n[First "Ana"]', "the same name"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana"]\n[Seat "1 Ben"]', "[First"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n[Seat "0 Ana"]\n[Seat "1 Ben"]\n[First "Cy"]', "[First"),
    (f'[Game "g"]\n[Ruleset "{PIN}"]\n! game_started {{"seats": 3]}}', "the payload is a JSON object"),
])
def test_header_problems_are_named(header, message):
    problems = read(header + "\n").problems
    assert any(message in p.message for p in problems), problems


LINES = [
    "Ana: construct press\x00", "Ana: construct press" + "s" * 5000, "Ana: construct " + "(" * 3000,
    "Ana: construct press (" + "buy " * 900 + ")", "Ana: construct press {paid " + "9" * 2000 + "}",
    "Ana: construct press {paid 2, paid 3}", "Ana: construct", "Ana: construct press free chain free chain",
    "Ana: construct press @r1c²", "Ana: wonder sphinx with", "Ana: wonder with press", "Ana: discard ²",
    "Ana: construct press (buy wood; buy clay)", "Ana: construct press (clay from x; clay from X)",
    "Ana: construct press (² from press)", "Ana: starter Cy", "Ana: draws", "Ana: destroys ²", "Ana: pick",
    "age ²: r1c1 press", "age 1: r1c4", "age 1: r1c4 press, r1c4 press", "wonders 1:", "tokens ²", "reveal r1c1",
    "game over\nwinners Cy", "game over\nwinners Ana\nwinners Ben", "game over\nscore Ana: total 1, total 2",
    "! card_played {", "! card_played [[[[" + "[" * 100_000, '! nonsense {"a":1}', '! card_played {"seat":-1}',
    "! game_started {}",
]


@pytest.mark.parametrize("line", LINES)
def test_hostile_lines_are_problems_never_a_traceback(line):
    assert_refused(read, OPENING + line + "\n")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_reads_without_a_traceback(body):
    assert_reads_anything(read, (body, HEADER + body, OPENING + body))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 1000), data=st.data())
def test_mutated_games_read_without_a_traceback(seed, data):
    assert_reads_anything(read, [mutate(write(game(seed)), data, ["²", "(", ")", "{", ";", ",", " ", "@", "\x07", ":"])])


def test_the_example_in_the_docs_reads_and_replays_without_a_problem():
    doc = (Path(__file__).parent.parent / "docs" / "notation.md").read_text()
    example = doc.split("## 7 Wonders Duel\n", 1)[1].split("```")[1]
    parsed = read(example, "raise")
    assert parsed.events[-1].type == "game_ended"
    assert not replay(GAME, parsed.events).problems


# ----------------------------------------------------------------------------- the expansions

PANTHEON = GAME.pack("7wd-duel-pantheon")
AGORA = GAME.pack("7wd-duel-agora")
EXPANSIONS = {"pantheon": PANTHEON, "agora": AGORA}
SAID = {  # each expansion event type -> the first word of its compact line (after '<name>: ' for a seat's)
    "pantheon_tokens_placed": "pantheon", "enki_drawn": "enki", "divinities_drawn": "divinities",
    "divinity_chosen": "choose", "divinity_activated": "activate", "divinity_power": "power",
    "decrees_placed": "decrees", "decree_revealed": "decree", "conspiracies_drawn": "conspiracies",
    "conspiracy_chosen": "keep", "senator_recruited": "recruit", "conspiracy_prepared": "prepare",
    "conspiracy_triggered": "trigger", "senate_action": "senate", "conspiracy_target": "target",
    "removed_revealed": "removed", "cards_swapped": "swap", "decree_moved": "moves",
}


def expansion_game(pack_name: str, seed: int, bots: tuple[str, ...] = ("random",)) -> list[Event]:
    return simulate_game(f"{pack_name}-{seed}", ["Ana", "Ben"], seed, bots, EXPANSIONS[pack_name])


@pytest.mark.parametrize("pack_name", EXPANSIONS)
def test_expansion_games_round_trip_with_every_event_said_compactly(pack_name):
    seen: Counter[str] = Counter()
    for seed in range(25):
        events = expansion_game(pack_name, seed, BOTS[seed % len(BOTS)])
        text = assert_round_trip(NOTATION, events)
        assert "\n! " not in text
        lines = read(text, "raise").lines
        written = text.splitlines()
        for e in events:
            if e.type in SAID:
                line = written[lines[e.seq] - 1]
                assert line.split(": ", 1)[-1].split()[0] == SAID[e.type] if "seat" in e.payload \
                    else line.split()[0] == SAID[e.type], line
                seen[e.type] += 1
                seen[e.payload.get("action") or ""] += e.type == "senate_action"
                seen["offerings"] += bool(e.payload.get("offerings"))
                seen["gate"] += e.type == "divinities_drawn" and e.payload["mythology"] is None
    wanted = {"pantheon": ["pantheon_tokens_placed", "divinities_drawn", "divinity_chosen", "divinity_activated",
                           "divinity_power", "offerings", "gate"],
              "agora": ["decrees_placed", "decree_revealed", "conspiracies_drawn", "conspiracy_chosen",
                        "senator_recruited", "conspiracy_prepared", "conspiracy_triggered", "senate_action",
                        "conspiracy_target", "place", "move", "conspire", "cards_swapped", "decree_moved"]}[pack_name]
    assert [k for k in wanted if not seen[k]] == []


def test_treason_coercion_and_insider_influence_are_said_compactly_and_read_back():
    """The first seeded Agora games with each: every line reads back to the event exactly."""
    wanted = {"removed_revealed": "removed", "cards_swapped": "swap", "decree_moved": "moves"}
    found: dict[str, str] = {}
    for seed in range(80):
        events = expansion_game("agora", seed, BOTS[seed % len(BOTS)])
        if not {e.type for e in events} & (set(wanted) - set(found)):
            continue
        text = assert_round_trip(NOTATION, events)
        assert "\n! " not in text
        lines, written = read(text, "raise").lines, text.splitlines()
        for e in events:
            if e.type in wanted:
                found[e.type] = written[lines[e.seq] - 1]
                assert found[e.type].split(": ", 1)[1].split()[0] == wanted[e.type], found[e.type]
        if len(found) == len(wanted):
            break
    assert sorted(found) == sorted(wanted), found


@settings(max_examples=15, deadline=None)
@given(pack_name=st.sampled_from(sorted(EXPANSIONS)), seed=st.integers(0, 2**31), bots=st.sampled_from(BOTS))
def test_expansion_round_trip_property(pack_name, seed, bots):
    events = expansion_game(pack_name, seed, bots)
    text = assert_round_trip(NOTATION, events)
    assert write(read(text, "raise").events) == text


def expansion_header(pack) -> str:
    return HEADER.replace(PIN, f"{pack.id} {pack.version} {pack.content_hash}")


def test_an_expansion_game_typed_by_names_without_claims_reads_the_same_and_audits_clean():
    events = expansion_game("agora", 3)
    names = {d.id: d.name for d in AGORA.agora.decrees}
    text = re.sub(r"\s*\{[^{}]*\}$", "", write(events), flags=re.M)
    text = re.sub(r"^(decree \S+ )(\S+)$", lambda m: m.group(1) + names[m.group(2)], text, flags=re.M)
    text = re.sub(r": recruit (politician_\w+|conspirator)_\d+", lambda m: f": recruit {m.group(1).title()}", text)
    assert ": recruit Conspirator" in text or ": recruit Politician" in text
    parsed = read(text, "raise")
    assert [e.type for e in parsed.events] == [e.type for e in events]
    strip = ("paid", "pawn", "looted")
    assert [{k: v for k, v in e.payload.items() if k not in strip} for e in parsed.events[1:-1]] == \
        [{k: v for k, v in e.payload.items() if k not in strip} for e in events[1:-1]]
    assert audit(read_notation_text(text, "typed.txt")).ok


def test_a_pantheon_game_typed_with_divinity_names_without_claims_reads_the_same_and_audits_clean():
    events = expansion_game("pantheon", 134, ("military", "random"))
    names = {d.id: d.name for d in (*PANTHEON.pantheon.divinities, PANTHEON.pantheon.gate)}
    text = re.sub(r"\s*\{[^{}]*\}$", "", write(events), flags=re.M)
    text = re.sub(r": (activate|choose|power) (\w+)", lambda m: f": {m.group(1)} {names[m.group(2)]}", text)
    assert ": activate Zeus offering 3" in text and ": choose Minerva space 4" in text
    parsed = read(text, "raise")
    strip = ("paid", "pawn", "looted")
    assert [{k: v for k, v in e.payload.items() if k not in strip} for e in parsed.events[1:-1]] == \
        [{k: v for k, v in e.payload.items() if k not in strip} for e in events[1:-1]]
    assert audit(read_notation_text(text, "typed.txt")).ok


def test_a_wrong_activation_price_is_audited_at_its_line():
    events = expansion_game("pantheon", 1)
    lines = write(events).splitlines()
    at = next(i for i, line in enumerate(lines) if ": activate " in line and "{paid " in line)
    paid = int(re.search(r"\{paid (\d+)\}", lines[at]).group(1))  # type: ignore[union-attr]
    lines[at] = lines[at].replace(f"{{paid {paid}}}", f"{{paid {paid + 1}}}")
    report = audit(read_notation_text("\n".join(lines) + "\n", "wrong.txt"))
    assert [p.line for p in report.problems][:1] == [at + 1]
    assert report.problems[0].rule_id.startswith("swd.")


def test_what_the_expansion_forms_cannot_say_is_written_raw_and_still_round_trips():
    events = next(g for g in (expansion_game("agora", seed) for seed in range(40))
                  if any(e.type == "conspiracy_target" and e.payload["target"] for e in g))
    changes = {"senate_action": {"action": "conspire", "chamber": "chamber_1", "origin": None},
               "conspiracy_target": {"target": "nothing"}}
    changed = list(events)
    for kind, fields in changes.items():
        i = next(i for i, e in enumerate(events) if e.type == kind and (kind == "senate_action" or e.payload["target"]))
        changed[i] = events[i]._replace(payload={**events[i].payload, **fields})
    text = write(changed)
    assert text.count("\n! senate_action ") == 1 and text.count("\n! conspiracy_target ") == 1
    assert read(text, "raise").events == changed


PANTHEON_OPENING = expansion_header(PANTHEON) + """
tokens philosophy, law, architecture, theology, agriculture
age 1: r1c4 press, r1c6 clay_reserve, r3c2 logging_camp, r3c4 glassworks, r3c6 clay_pit, r3c8 guard_tower, \
r5c0 tavern, r5c2 stone_pit, r5c4 theater, r5c6 wood_reserve, r5c8 altar, r5c10 lumber_yard
"""
PANTHEON_BROKEN = PANTHEON_OPENING + """\
pantheon 1: r2c3 greek, r2c3 roman
Ana: divinities zeuss, isis from greek
Ana: divinities zeus
Ana: choose neptune space 9
Ana: activate zeus offering four {paid 2}
Ana: activate zeus {paid 2, pawn 1}
Ana: power isis card presss
Ana: power minerva space left
Ana: power ra colour blue
"""


def test_pantheon_problems_are_located_and_named():
    parsed = read(PANTHEON_BROKEN, source="p.txt")
    assert [(p.line, p.column, p.text) for p in parsed.problems] == [
        (11, 25, "r2c3"), (12, 17, "zeuss"), (13, 17, "zeus"), (14, 13, "{'seat': 0, 'divinity': 'neptune', 'space': 9}"),
        (15, 29, "four"), (16, 21, "paid 2, pawn 1"), (17, 22, "presss"), (18, 26, "left"), (19, 15, "colour blue"),
    ]
    assert "did you mean zeus" in parsed.problems[1].message
    assert "from <mythology|gate>" in parsed.problems[2].message
    assert "space: " in parsed.problems[3].message


AGORA_OPENING = expansion_header(AGORA) + """
tokens philosophy, law, architecture, theology, agriculture
age 1: r1c4 press, r1c6 conspirator_1, r3c2 conspirator_2, r3c4 glassworks, r3c6 clay_pit, r3c8 guard_tower, \
r5c0 tavern, r5c2 stone_pit, r5c4 theater, r5c6 wood_reserve, r5c8 altar, r5c10 lumber_yard
"""
AGORA_BROKEN = AGORA_OPENING + """\
decrees chamber_1 blue_age_coin
decree chamber_9 red_age_coins
Ana: recruit conspirator
Ana: recruit conspirator @r3c2 {pawn 1}
Ana: prepare blackmail press
Ana: prepare blackmale with press
Ana: keep blackmail (other on side)
Ana: senate move chamber_1 chamber_2
Ana: senate place chamber 7
Ana: target burn press
Ana: trigger
"""


def test_agora_problems_are_located_and_named():
    parsed = read(AGORA_BROKEN, source="a.txt")
    assert [(p.line, p.column, p.text) for p in parsed.problems] == [
        (11, 19, "blue_age_coin"), (12, 8, "chamber_9"), (13, 14, "conspirator"), (14, 33, "pawn 1"),
        (15, 14, "blackmail press"), (16, 14, "blackmale"), (17, 11, "blackmail (other on side)"),
        (18, 13, "move chamber_1 chamber_2"), (19, 19, "chamber 7"), (20, 13, "burn"), (21, 13, ""),
    ]
    assert "more than one conspirator" in parsed.problems[2].message
    assert "did you mean blue_age_coins" in parsed.problems[0].message
    assert "name the conspiracy" in parsed.problems[-1].message
    with pytest.raises(NotationError) as caught:
        read(AGORA_BROKEN, "raise")
    assert [p.line for p in caught.value.problems] == [11]


EXPANSION_LINES = [
    "pantheon ²: r2c3 greek", "pantheon 1: r2c3", "pantheon 1: r0 greek", "enki", "enki ²",
    "Ana: divinities from gate", "Ana: divinities ² from ²", "Ana: choose", "Ana: choose zeus space ²",
    "Ana: activate", "Ana: activate zeus offering", "Ana: activate zeus offering 1, 1, 1, 1, 1, 1",
    "Ana: activate zeus {paid 99999}", "Ana: activate zeus {", "Ana: power", "Ana: power zeus card",
    "Ana: power zeus slot r99c99", "Ana: power neptune applied 7:loot", "Ana: power zeus space " + "9" * 3000,
    "decrees", "decrees chamber_1", "decrees chamber_1 x, chamber_1 x", "decree", "decree chamber_1",
    "Ana: conspiracies", "Ana: keep", "Ana: keep (other on top)", "Ana: recruit", "Ana: recruit @r1c1",
    "Ana: recruit conspirator_1 {paid -1}", "Ana: prepare with press", "Ana: prepare x with", "Ana: trigger ²",
    "Ana: senate", "Ana: senate move to", "Ana: senate place", "Ana: target", "Ana: target destroy ²",
    "Ana: senate move chamber_1 to chamber_1 to chamber_2",
    "Ana: removed", "Ana: removed ², press", "Ana: swap", "Ana: swap press for", "Ana: swap for press", "Ana: moves",
    "Ana: moves decree", "Ana: moves decree shield from to chamber_1", "Ana: moves decree face down from chamber_1 to ²",
]


@pytest.mark.parametrize("pack_name", EXPANSIONS)
@pytest.mark.parametrize("line", EXPANSION_LINES)
def test_hostile_expansion_lines_are_problems_never_a_traceback(pack_name, line):
    opening = PANTHEON_OPENING if pack_name == "pantheon" else AGORA_OPENING
    assert_refused(read, opening + line + "\n")
    assert_refused(read, OPENING + line + "\n")


@settings(max_examples=40, deadline=None)
@given(pack_name=st.sampled_from(sorted(EXPANSIONS)), seed=st.integers(0, 1000), data=st.data())
def test_mutated_expansion_games_read_without_a_traceback(pack_name, seed, data):
    text = write(expansion_game(pack_name, seed))
    assert_reads_anything(read, [mutate(text, data, ["²", "(", ")", "{", ";", ",", " ", "@", ":", "_", "\x07"])])


def test_the_expansion_excerpts_in_the_docs_are_lines_of_the_golden_games():
    doc = (Path(__file__).parent.parent / "docs" / "notation.md").read_text()
    section = doc.split("### The expansions: Pantheon and Agora\n", 1)[1].split("\n### ", 1)[0]
    blocks = section.split("```")[1::2]
    fixtures = Path(__file__).parent.parent / "fixtures" / "7wonders-duel"
    for block, name in zip(blocks[1:], ("golden-pantheon", "golden-agora")):
        lines = (fixtures / f"{name}.txt").read_text().splitlines()
        excerpt = block.strip().splitlines()
        assert excerpt and all(line in lines for line in excerpt), name
        assert read("\n".join(lines[:lines.index(excerpt[-1]) + 1]) + "\n", "raise").events


def test_the_forms_of_treason_coercion_and_insider_influence_as_people_type_them():
    text = AGORA_OPENING + ("Ana: removed Workshop, Apothecary, Scriptorium\nBen: swap nothing\n"
                            "Ana: swap Laboratory for School\nBen: moves decree face down from chamber 3 to chamber_1\n"
                            "Ana: moves decree Coins for blue cards from chamber_2 to chamber_5\n")
    got = [(e.type, e.payload) for e in read(text, "raise").events[-5:]]
    assert got == [
        ("removed_revealed", {"seat": 0, "age": 1, "cards": ["workshop", "apothecary", "scriptorium"]}),
        ("cards_swapped", {"seat": 1, "take": None, "give": None}),
        ("cards_swapped", {"seat": 0, "take": "laboratory", "give": "school"}),
        ("decree_moved", {"seat": 1, "origin": "chamber_3", "chamber": "chamber_1", "decree": None}),
        ("decree_moved", {"seat": 0, "origin": "chamber_2", "chamber": "chamber_5", "decree": "blue_age_coins"}),
    ]


def test_neptune_s_military_tokens_are_written_with_the_seat_s_name_and_the_number_is_still_read():
    """Seed 1 (pantheon): Ben's Neptune discards the 2-coin token on his own side and applies the
    5-coin one on Ana's (she loses its coins)."""
    events = expansion_game("pantheon", 1)
    text = write(events)
    assert [line for line in text.splitlines() if line.startswith("Ben: power neptune")] == \
        ["Ben: power neptune discarded Ben:loot_2, applied Ana:loot_5"]
    assert read(text, "raise").events == events
    old = text.replace("discarded Ben:loot_2, applied Ana:loot_5", "discarded 1:loot_2, applied 0:loot_5")
    assert old != text and read(old, "raise").events == events
    spaced = text.replace("discarded Ben:loot_2", "discarded ben : LOOT_2")
    assert read(spaced, "raise").events == events
    for bad in ("Cy:loot_2", "loot_2", "Ben:", "2:loot_2"):
        parsed = read(text.replace("discarded Ben:loot_2", f"discarded {bad}"), "collect")
        line = text.splitlines().index("Ben: power neptune discarded Ben:loot_2, applied Ana:loot_5") + 1
        assert [p.line for p in parsed.problems] == [line], bad


def test_a_coin_cost_a_decree_left_out_is_said_as_a_discount_of_coins_and_read_back():
    """Under ``options.decree_coin_symbol: coins`` a waived coin cost is written ``discount N coins``
    (``coin`` read too); coins are never bought, and without a discount they are a problem at their line."""
    agora = GAME.pack("7wd-duel-agora")
    pack = agora.model_copy(update={"options": agora.options.model_copy(update={"decree_coin_symbol": "coins"})})
    for seed in range(12):
        events = simulate_game(f"coins-{seed}", ["Ana", "Ben"], seed, BOTS[seed % len(BOTS)], pack)
        waived = [e for e in events if e.type == "card_played" and "coins" in e.payload["discount"]]
        if waived:
            break
    assert waived, "no coin cost left out in the seeded games"
    text = assert_round_trip(NOTATION, events)
    lines, written = read(text, "raise").lines, text.splitlines()
    line = written[lines[waived[0].seq] - 1]
    coins = waived[0].payload["discount"]["coins"]
    assert f"discount {coins} coins" in line, line
    singular = text.replace(line, line.replace(f"discount {coins} coins", f"discount {coins} coin"))
    assert read(singular, "raise").events == events
    for bad in (f"buy {coins} coins", "discount two coins", f"discount {coins} coins, {coins} coins"):
        parsed = read(text.replace(line, line.replace(f"discount {coins} coins", bad)), "collect")
        assert [p.line for p in parsed.problems] == [lines[waived[0].seq]], bad
