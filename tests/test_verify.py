"""Corruption of every kind is found by verify and named precisely."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from helpers import pig_game

from replay.archive import NEW_STREAM
from replay.archive import manifest as mf
from replay.archive.store import parquet_bytes, read_parquet
from replay.archive.verify import verify
from replay.canonical import canonical_json
from replay.cli.main import cli


@pytest.fixture
def filled(archive):
    for i in range(3):
        archive.append(f"g{i}", pig_game(f"g{i}", seed=i), NEW_STREAM)
    assert verify(archive, deep=True).ok
    return archive


def _file(archive, game="g1"):
    entry = next(e for e in archive.snapshot().files.values() if game in e.games)
    return entry, archive.path_of(entry.path)


def _problems(archive):
    report = verify(archive)
    assert not report.ok
    return [str(p) for p in report.problems]


def test_truncated_file(filled):
    entry, path = _file(filled)
    path.write_bytes(path.read_bytes()[:-100])
    problems = _problems(filled)
    assert any(entry.path in p and "truncated" in p for p in problems)
    assert any(entry.path in p and "not readable as Parquet" in p for p in problems)


def test_flipped_bytes(filled):
    entry, path = _file(filled)
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0xFF
    path.write_bytes(bytes(data))
    assert any(entry.path in p and "sha256 does not match" in p for p in _problems(filled))


def test_missing_file(filled):
    entry, path = _file(filled)
    path.unlink()
    assert f"{entry.path}: [archive.missing] missing: the manifest lists it but it is not on disk" in _problems(filled)


def test_hand_edited_manifest_fails_its_checksum(filled):
    [record] = sorted(filled.manifest_dir.glob("commit-*.json"))[-1:]
    record.write_text(record.read_text().replace('"rows":', '"rows": 1 , "x":', 1))
    problems = _problems(filled)
    assert len(problems) == 1 and "checksum mismatch" in problems[0] and record.name in problems[0]


def _forge(record_path, edit):
    """Edit a manifest record and re-sign it, as a careful forger (or a buggy tool) would."""
    raw = json.loads(record_path.read_text())
    edit(raw["body"])
    import hashlib

    raw["sha256"] = hashlib.sha256(canonical_json(raw["body"])).hexdigest()
    record_path.write_text(json.dumps(raw))


def test_resigned_manifest_edit_is_caught_against_the_files(filled):
    record = sorted(filled.manifest_dir.glob("commit-*.json"))[-1]

    def edit(body):
        body["add"][0]["rows"] += 1
        body["add"][0]["games"]["g2"][1] += 1

    _forge(record, edit)
    problems = _problems(filled)
    assert any("holds 74 events, the manifest says 75" in p or "the manifest says" in p for p in problems)
    assert any("game g2: [archive.spans] the manifest says seqs 0.." in p for p in problems)


def test_duplicated_seq_is_named_with_game_and_seq(filled):
    entry, path = _file(filled, "g1")
    table = read_parquet(path, dictionaries=False)
    doubled = pq.read_table(path).take(list(range(table.num_rows)) + [5])
    data = parquet_bytes(doubled.sort_by([("game_id", "ascending"), ("seq", "ascending")]))
    path.write_bytes(data)
    record = next(p for p in sorted(filled.manifest_dir.glob("commit-*.json")) if entry.path in p.read_text())

    def edit(body):
        import hashlib

        f = body["add"][0]
        f.update(rows=f["rows"] + 1, bytes=len(data), sha256=hashlib.sha256(data).hexdigest())

    _forge(record, edit)
    expected = f"{entry.path}, game g1, event 5: [archive.duplicate] duplicated seq (also in an earlier row or file)"
    assert expected in _problems(filled)


def test_seq_gap_is_named(filled):
    entry, path = _file(filled, "g0")
    table = read_parquet(path, dictionaries=False)
    keep = [i for i in range(table.num_rows) if table.column("seq")[i].as_py() != 7]
    data = parquet_bytes(table.take(keep))
    path.write_bytes(data)
    record = next(p for p in sorted(filled.manifest_dir.glob("commit-*.json")) if entry.path in p.read_text())

    def edit(body):
        import hashlib

        f = body["add"][0]
        f.update(rows=f["rows"] - 1, bytes=len(data), sha256=hashlib.sha256(data).hexdigest())

    _forge(record, edit)
    assert f"{entry.path}, game g0, event 8: [archive.gap] seq gap: 7 missing" in _problems(filled)


def test_unlisted_file_is_a_problem_but_crash_leftovers_are_notes(filled):
    state = filled.snapshot()
    stray = filled.root / "data" / "pig" / "0000000001-0009.parquet"
    stray.write_bytes(b"not committed")
    leftover = filled.root / "data" / "pig" / f"{state.generation + 1:010d}-0000.parquet"
    leftover.write_bytes(b"half written")
    report = verify(filled)
    assert [str(p) for p in report.problems] == [
        "data/pig/0000000001-0009.parquet: [archive.unlisted] on disk but not in the manifest (was the manifest edited?)"]
    assert [n.where.file for n in report.notes] == [str(leftover.relative_to(filled.root))]
    filled.append("g9", pig_game("g9")[:2], NEW_STREAM)  # the next write moves the leftover aside...
    assert leftover.read_bytes() != b"half written"  # ...and commits its own file of that name
    assert str(leftover.relative_to(filled.root)) in filled.snapshot().files
    (kept,) = (filled.root / "lost+found").iterdir()
    assert kept.read_bytes() == b"half written"
    assert stray.exists() and [n.rule_id for n in verify(filled).notes] == ["archive.lost+found"]


def test_cli_verify_exit_status_and_json(filled):
    runner = CliRunner()
    ok = runner.invoke(cli, ["verify", "-a", str(filled.root)])
    assert ok.exit_code == 0 and "OK: 3 files, 3 games" in ok.output
    _, path = _file(filled)
    path.unlink()
    bad = runner.invoke(cli, ["verify", "-a", str(filled.root), "--format", "json"])
    assert bad.exit_code == 1
    report = json.loads(bad.stdout)
    assert report["ok"] is False and report["problems"][0]["message"].startswith("missing")
    assert report["problems"][0]["rule_id"] == "archive.missing"


def test_manifest_with_a_missing_commit_is_reported(filled):
    records = sorted(filled.manifest_dir.glob("commit-*.json"))
    records[1].unlink()
    problems = _problems(filled)
    assert "commit 2 is missing" in problems[0]
    assert mf.list_records(filled.manifest_dir)[1] == [1, 3]


def test_an_altered_event_is_named_by_the_hash_chain_even_when_the_manifest_is_forged(filled):
    entry, path = _file(filled, "g2")
    table = read_parquet(path, dictionaries=False)
    rows = table.to_pylist()
    target = next(r for r in rows if r["seq"] == 7)
    assert target["type"] == "die_rolled"
    target["die_rolled"] = {**target["die_rolled"], "face": 7 - target["die_rolled"]["face"]}  # a different roll
    data = parquet_bytes(pa.Table.from_pylist(rows, schema=table.schema))
    path.write_bytes(data)
    record = next(p for p in sorted(filled.manifest_dir.glob("commit-*.json")) if entry.path in p.read_text())

    def edit(body):
        import hashlib

        body["add"][0].update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest())

    _forge(record, edit)
    problems = _problems(filled)
    assert problems == [f"{entry.path}, game g2, event 7: [archive.chain] hash chain broken here: "
                        "this event (or its stored hash) "
                        "was altered after it was written; the first altered event"]


def test_chains_continue_across_appends_and_files(archive):
    events = pig_game("g1")
    for start in range(0, len(events), 10):
        archive.append("g1", events[start:start + 10], start - 1)
    hashes = [h for _, h in archive.read_chain("g1")]
    from replay.chain import chain

    assert hashes == chain(events)
    assert verify(archive).ok
