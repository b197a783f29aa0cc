from __future__ import annotations

import io
import json

import pytest
from helpers import data_files, pig_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.archive import Archive
from replay.errors import DuplicateAppend, InvalidInput
from replay.jsonl import dump_line, export_events, import_lines, read_events
from replay.registry import registry


def _lines(events):
    return [dump_line(e) for e in events]


def test_export_import_export_is_byte_identical(tmp_path, archive):
    events = pig_game("g1") + pig_game("g2", seed=5, players=3)
    import_lines(archive, _lines(events))
    out = io.StringIO()
    export_events(sorted(archive.iter_events(), key=lambda e: (e.game_id, e.seq)), out)
    other = Archive.init(tmp_path / "other")
    import_lines(other, out.getvalue().splitlines(keepends=True))
    again = io.StringIO()
    export_events(sorted(other.iter_events(), key=lambda e: (e.game_id, e.seq)), again)
    assert again.getvalue() == out.getvalue() == "".join(_lines(sorted(events, key=lambda e: (e.game_id, e.seq))))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**9), players=st.integers(2, 4))
def test_round_trip_property(tmp_path_factory, seed, players):
    archive = Archive.init(tmp_path_factory.mktemp("a") / "archive")
    events = pig_game(f"s{seed}", seed=seed, players=players)
    import_lines(archive, _lines(events))
    assert archive.read_game(f"s{seed}") == events
    assert list(read_events(_lines(events), registry)) == events


def _bad_file():
    lines = _lines(pig_game("g1"))
    lines[2] = '{"game_id": "g1", "seq": 2, oops\n'
    lines[3] = lines[3].replace('"type": "die_rolled"', '"type": "dice_rolled"')
    lines[4] = lines[4].replace('"player": ', '"who": ')
    lines[5] = lines[5].replace('"seq": 5', '"seq": "5"')
    del lines[7]  # seq 7
    return lines


def test_bad_lines_are_all_reported_with_line_and_field_and_nothing_is_written(archive):
    with pytest.raises(InvalidInput) as caught:
        import_lines(archive, _bad_file(), source="bad.jsonl")
    problems = caught.value.problems
    # The order within one line is ours (by field), whatever order pydantic reports them in;
    # pydantic's wording is not promised, so its errors are compared by their stable type codes.
    assert [(p.line, p.field, p.rule_id) for p in problems] == [
        (3, None, "jsonl.json"),
        (4, "type", "jsonl.type"),
        (5, "payload.player", "jsonl.missing"),
        (5, "payload.who", "jsonl.extra_forbidden"),
        (6, "seq", "jsonl.int_type"),
        (8, "seq", "jsonl.seq"),
    ]
    assert problems[0].message.startswith("malformed JSON")
    assert problems[1].message == "unknown pig event type 'dice_rolled' (known: game_started, die_rolled, held, game_ended)"
    assert problems[-1].message == "gap: game g1 expected 7 after line 7, found 8"
    assert 'bad.jsonl:line 6: seq: [jsonl.int_type] ' in str(caught.value) and '(found "5")' in str(caught.value)
    assert archive.snapshot().generation == 0
    assert data_files(archive.root) == [] and list((archive.root / "tmp").iterdir()) == []


def test_wrong_payload_type_names_the_value(archive):
    lines = _lines(pig_game("g1"))
    lines[1] = lines[1].replace('"face": ', '"face": "six", "x": ').replace(', "x": ', "", 1)
    lines[1] = json.dumps({**json.loads(_lines(pig_game("g1"))[1]), "payload": {"player": 0, "face": "six"}}) + "\n"
    with pytest.raises(InvalidInput, match=r'line 2: payload.face: \[jsonl.int_type\] .*\(found "six"\)') as caught:
        import_lines(archive, lines)
    assert [p.rule_id for p in caught.value.problems] == ["jsonl.int_type"]


def test_a_file_may_continue_a_game_and_old_versions_are_upcast(archive):
    events = pig_game("g1")
    import_lines(archive, _lines(events[:10]))
    tail = _lines(events[10:])
    v1 = json.loads(tail[0])
    assert v1["type"] == "die_rolled"
    v1.update(version=1, payload={"seat": v1["payload"]["player"], "value": v1["payload"]["face"]})
    tail[0] = json.dumps(v1) + "\n"
    import_lines(archive, tail)
    assert archive.read_game("g1") == events


def test_importing_the_same_file_twice_is_a_clear_duplicate(archive):
    lines = _lines(pig_game("g1"))
    import_lines(archive, lines)
    with pytest.raises(DuplicateAppend, match="already in the archive, identical"):
        import_lines(archive, lines)


def test_a_file_that_starts_mid_game_unknown_to_the_archive_is_refused(archive):
    from replay.errors import ConcurrencyError

    with pytest.raises(ConcurrencyError, match="expected a game ending at seq 9, but no such game"):
        import_lines(archive, _lines(pig_game("g1")[10:]))


def test_empty_input_is_an_error(archive):
    with pytest.raises(InvalidInput, match="no events"):
        import_lines(archive, ["\n"])


def test_large_imports_spill_in_batches_and_commit_once(archive, monkeypatch):
    import replay.jsonl as jsonl

    monkeypatch.setattr(jsonl, "BATCH_EVENTS", 50)
    events = [e for i in range(5) for e in pig_game(f"g{i}", seed=i)]
    result = import_lines(archive, _lines(events))
    assert len(result.files) > 5 and archive.snapshot().generation == 1
    assert sorted(archive.iter_events(), key=lambda e: (e.game_id, e.seq)) == sorted(
        events, key=lambda e: (e.game_id, e.seq))
    from replay.archive.verify import verify

    assert verify(archive).ok  # each game's hash chain runs on across the batches


def test_reading_without_an_archive_at_each_error_level():
    lines = _bad_file()
    with pytest.raises(InvalidInput) as first:
        list(read_events(lines, registry, source="bad.jsonl"))
    assert [p.line for p in first.value.problems] == [3]
    with pytest.raises(InvalidInput) as every:
        list(read_events(lines, registry, source="bad.jsonl", level="collect"))
    assert sorted({p.line for p in every.value.problems}) == [3, 4, 5, 6]  # seq order is the importer's check
    kept = list(read_events(lines, registry, level="ignore"))
    assert len(kept) == len(lines) - 4 and all(e.game_id == "g1" for e in kept)
