"""Hostile and broken input, case by case: one clear message and a non-zero exit, or success;
never a traceback, never a half-written file, never an archive holding something else than
what was acknowledged. Each test is one reported case (see docs/security.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result
from helpers import flip_in_data_page, pig_game

from replay.archive import NEW_STREAM, Archive
from replay.archive.verify import verify
from replay.cli.main import cli
from replay.jsonl import dump_line
from replay.tables import render


@pytest.fixture
def runner(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REPLAY_ARCHIVE", raising=False)
    return CliRunner()


def run(runner: CliRunner, *args: str, input: str | None = None) -> Result:
    result = runner.invoke(cli, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"replay {' '.join(args)} raised {result.exception!r}") from result.exception
    return result


def ok(runner: CliRunner, *args: str, input: str | None = None) -> Result:
    result = run(runner, *args, input=input)
    assert result.exit_code == 0, result.output
    return result


def fails(runner: CliRunner, *args: str, input: str | None = None) -> str:
    """The message of a command that must fail cleanly (exit 1, no traceback)."""
    result = run(runner, *args, input=input)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    return result.output


@pytest.fixture(scope="module")
def pig_archive(tmp_path_factory) -> Path:
    """Six pig games in two files; copied by the tests that damage it."""
    root = tmp_path_factory.mktemp("pig") / "archive"
    runner = CliRunner()
    for seed in ("1", "2"):
        result = runner.invoke(cli, ["simulate", "-a", str(root), "--init", "--game", "pig", "--games", "3", "--seed", seed])
        assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def copy(pig_archive, tmp_path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(pig_archive, target)
    return target


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write_lines(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _first_game(archive: Path) -> str:
    return next(g.game_id for g in Archive(archive).games())


# ------------------------------------------------------------------ 1. unreadable files


def test_non_utf8_and_missing_files_are_one_clear_error(runner, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"[Kind \"pig\"]\n\xff\xfe 1. Ana: 3\n")
    bad_jsonl = tmp_path / "bad.jsonl"
    bad_jsonl.write_bytes(b'{"game_id": "\xff"}\n')
    ok(runner, "init")
    for args in (["import", str(bad)], ["import", str(bad_jsonl)], ["audit", str(bad)], ["show", str(bad)],
                 ["step", str(bad)], ["diff", str(bad), str(bad)], ["audit", str(bad_jsonl)]):
        assert "not UTF-8" in fails(runner, *args), args
    assert "not UTF-8" in run(runner, "rules", "validate", str(bad)).output
    assert "no such file" in fails(runner, "import", str(tmp_path / "missing.jsonl"))
    assert "no such file" in fails(runner, "import", str(tmp_path / "missing.txt"))
    assert not Archive(tmp_path / "archive").games()


# ------------------------------------------------------------------ 2. integers beyond 64 bits


def test_integers_beyond_64_bits_are_refused_where_they_enter(runner, tmp_path, copy):
    events = [json.loads(dump_line(e)) for e in pig_game("big")]
    held = next(r for r in events if r["type"] == "held")
    held["payload"]["banked"] = 2**63
    assert "does not fit a 64-bit integer" in fails(runner, "import", "-a", str(copy),
                                                    str(_write_lines(tmp_path / "big.jsonl", events)))
    game = _first_game(copy)
    text = ok(runner, "export", "-a", str(copy), game, "--format", "notation").stdout
    typed = tmp_path / "big.txt"
    typed.write_text(text.replace("{banked ", "{banked 9223372036854775808", 1), encoding="utf-8")
    fresh = tmp_path / "fresh"
    ok(runner, "init", str(fresh))
    assert "64-bit" in fails(runner, "import", "-a", str(fresh), "--allow-problems", str(typed))
    assert not Archive(fresh).games()
    pack = json.loads(ok(runner, "rules", "show", "7wd-default").stdout)
    pack["start"]["coins"] = 2**63
    huge = tmp_path / "huge-pack.json"
    huge.write_text(json.dumps(pack))
    validated = run(runner, "rules", "validate", str(huge))
    assert validated.exit_code == 1 and "start.coins" in validated.output


# ------------------------------------------------------------------ 3. damaged Parquet



@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_a_damaged_data_file_is_named_by_every_reader(runner, copy, damage):
    before = {p: p.read_bytes() for p in (copy / "data").rglob("*.parquet")}
    target = sorted(before)[0]
    if damage == "flip":
        flip_in_data_page(target)
    else:
        target.write_bytes(before[target][: len(before[target]) // 2])
    relative = str(target.relative_to(copy))
    game = _first_game(copy)
    for args in (["events", game], ["audit", game], ["show", game], ["export"], ["export", game]):
        assert relative in fails(runner, *args, "-a", str(copy)), args
    out = copy.parent / "out.jsonl"
    assert relative in fails(runner, "export", "-a", str(copy), "-o", str(out))
    assert not out.exists() and not list(copy.parent.glob(".out.jsonl*"))  # nothing half-written
    assert "replay verify" in fails(runner, "query", "-a", str(copy), "SELECT * FROM pig.events")
    projected = ok(runner, "project", "-a", str(copy)).stdout
    assert f"skipped {game}: {relative}" in projected
    assert relative in fails(runner, "compact", "-a", str(copy))
    assert sorted(p for p in (copy / "data").rglob("*.parquet")) == sorted(before)  # compaction copied nothing
    report = verify(Archive(copy))
    assert not report.ok and all(p.where.file == relative for p in report.problems)


# ------------------------------------------------------------------ 4. read-only archives


def _unprivileged(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run replay without the power to ignore file permissions (root bypasses them otherwise)."""
    command = [sys.executable, "-m", "replay", *args]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: permissions cannot be tested")
        caps = "-dac_override,-dac_read_search"
        command = [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}", *command]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_a_read_only_archive_can_be_read_and_refuses_writes_cleanly(copy, tmp_path):
    game = _first_game(copy)
    for p in [copy, *copy.rglob("*")]:
        p.chmod(p.stat().st_mode & ~0o222)
    try:
        for args in (["games"], ["verify"], ["events", game], ["audit", game], ["export"],
                     ["query", "SELECT count(*) AS n FROM events"]):
            done = _unprivileged([*args, "-a", str(copy)], tmp_path)
            assert done.returncode == 0, (args, done.stderr)
        games_file = tmp_path / "more.jsonl"
        games_file.write_text("".join(dump_line(e) for e in pig_game("more")))
        for args in (["import", str(games_file)], ["simulate", "--game", "pig", "--games", "1"], ["compact"],
                     ["project"]):
            done = _unprivileged([*args, "-a", str(copy)], tmp_path)
            assert done.returncode == 1 and "read-only" in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)
    finally:
        for p in [copy, *copy.rglob("*")]:
            p.chmod(p.stat().st_mode | 0o200)
    assert verify(Archive(copy)).ok and "more" not in {g.game_id for g in Archive(copy).games()}


# ------------------------------------------------------------------ 5-7. project, outputs, the table printer


def test_project_one_kind(runner, copy):
    assert "projected 6 new games" in ok(runner, "project", "-a", str(copy), "--game", "pig").stdout
    assert "nothing new" in ok(runner, "project", "-a", str(copy), "--game", "7wonders-dice").stdout


def test_unwritable_outputs_are_one_clear_error_and_leave_nothing(runner, copy, tmp_path):
    missing = tmp_path / "no-such-dir"
    assert "cannot write" in fails(runner, "export", "-a", str(copy), "-o", str(missing / "x.jsonl"))
    for suffix, fmt in ((".csv", "csv"), (".json", "json"), (".parquet", "parquet")):
        message = fails(runner, "query", "-a", str(copy), "SELECT 1 AS one", "--format", fmt, "-o", str(missing / f"x{suffix}"))
        assert "cannot write" in message
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert "cannot" in fails(runner, "schema", "--write", str(blocker / "schemas"))
    assert not missing.exists()
    done = _unprivileged(["export", "-a", str(copy), "-o", "x.jsonl"], _read_only_dir(tmp_path))
    assert done.returncode == 1 and "cannot write x.jsonl" in done.stderr
    assert not list(_read_only_dir(tmp_path).iterdir())


def _read_only_dir(tmp_path: Path) -> Path:
    path = tmp_path / "read-only"
    path.mkdir(exist_ok=True)
    path.chmod(0o555)
    return path


def test_query_results_of_any_type_print_as_table_json_and_csv(runner, copy):
    sql = ("SELECT {'d': 1.25::DECIMAL(10, 2), 't': DATE '2020-01-02', 'b': 'ab'::BLOB} AS s, "
           "sum(seq) AS total, 'a' || chr(10) || 'b' AS name FROM events")
    table = ok(runner, "query", "-a", str(copy), sql).stdout
    assert len(table.strip().splitlines()) == 2 and "a\\nb" in table  # the newline is shown, not printed
    (row,) = json.loads(ok(runner, "query", "-a", str(copy), sql, "--format", "json").stdout)
    assert row["s"] == {"d": 1.25, "t": "2020-01-02", "b": "6162"}
    assert isinstance(row["total"], int) and row["name"] == "a\nb"  # a SUM (a DECIMAL) is a number
    assert ok(runner, "query", "-a", str(copy), sql, "--format", "csv").stdout.startswith("s,total,name\n")


def test_control_characters_are_refused_in_names_and_shown_in_tables(runner, tmp_path):
    records = [json.loads(dump_line(e)) for e in pig_game("g1")]
    records[0]["payload"]["seats"][0]["name"] = "Ana\nfake-row  pig  2"
    ok(runner, "init")
    assert "seats" in fails(runner, "import", str(_write_lines(tmp_path / "g.jsonl", records)))
    shown = render([{"name": "a\nb\x1b[31m"}], ["name"], "table")
    assert shown.count("\n") == 2 and "\\n" in shown and "\\x1b" in shown


# ------------------------------------------------------------------ 8. packs


def test_deep_json_and_a_pack_too_small_for_the_table(runner, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert run(runner, "rules", "validate", "--game", "pig", str(deep)).exit_code == 1
    pack = json.loads(ok(runner, "rules", "show", "7wd-default").stdout)
    pack.update(version="0.2.0-two-cities", cities=pack["cities"][:2])
    small = tmp_path / "two-cities.json"
    small.write_text(json.dumps(pack))
    assert "OK" in ok(runner, "rules", "validate", str(small)).stdout
    message = fails(runner, "simulate", "-a", "a", "--init", "--game", "7wonders-dice", "--players", "3",
                    "--ruleset", str(small))
    assert "2 cities, too few for 3 players" in message


# ------------------------------------------------------------------ integrity


def test_no_event_may_follow_the_end_even_in_one_batch(runner, copy, tmp_path):
    records = [json.loads(dump_line(e)) for e in pig_game("late")]
    extra = dict(records[-2], seq=len(records))
    assert "[jsonl.end]" in fails(runner, "import", "-a", str(copy), str(_write_lines(tmp_path / "late.jsonl",
                                                                                       [*records, extra])))
    game = _first_game(copy)
    text = ok(runner, "export", "-a", str(copy), game, "--format", "notation").stdout
    fresh = tmp_path / "fresh"
    ok(runner, "init", str(fresh))
    typed = tmp_path / "late.txt"
    typed.write_text(text + "99. Ana: 3 4 hold\n", encoding="utf-8")
    assert "no event may follow its end" in fails(runner, "import", "-a", str(fresh), "--allow-problems", str(typed))
    assert verify(Archive(copy)).ok and verify(Archive(fresh)).ok and not Archive(fresh).games()


def test_a_lost_newest_commit_is_said_loudly_and_its_data_is_never_deleted(runner, copy):
    newest = sorted((copy / "manifest").glob("commit-*.json"))[-1]
    files = sorted((copy / "data" / "pig").glob(f"{newest.stem.split('-')[1]}-*.parquet"))
    kept = {f.name: f.read_bytes() for f in files}
    newest.unlink()
    report = verify(Archive(copy))
    assert {p.rule_id for p in report.problems} == {"archive.lost-commit", "archive.lost-data"}
    assert "writes are refused" in fails(runner, "simulate", "-a", str(copy), "--game", "pig", "--games", "1", "--seed", "7")
    assert {f.name for f in files} <= {f.name for f in (copy / "data" / "pig").iterdir()}
    (copy / "manifest" / "HEAD").unlink()  # the documented way to accept the loss
    assert [n.rule_id for n in verify(Archive(copy)).notes] == ["archive.leftover"] * len(files)
    ok(runner, "simulate", "-a", str(copy), "--game", "pig", "--games", "1", "--seed", "7")
    moved = sorted((copy / "lost+found").iterdir())
    assert sorted(p.read_bytes() for p in moved) == sorted(kept.values())
    after = verify(Archive(copy))
    assert after.ok and {n.rule_id for n in after.notes} == {"archive.lost+found"}


def test_an_id_taken_by_another_game_is_called_a_collision(archive):
    archive.append("g1", pig_game("g1")[:4], NEW_STREAM)
    from replay.errors import ConcurrencyError

    with pytest.raises(ConcurrencyError, match="id collision"):
        archive.append("g1", pig_game("g1", seed=5)[:4], NEW_STREAM)


# ------------------------------------------------------------------ messages people can read


def test_huge_values_are_cut_and_repeated_problems_said_once(runner, tmp_path):
    ok(runner, "init")
    records = [json.loads(dump_line(e)) for e in pig_game("g1")]
    records[1]["type"] = "x" * 2_000_000
    message = fails(runner, "import", str(_write_lines(tmp_path / "huge.jsonl", records)))
    assert "line 2" in message and "characters, cut" in message and len(message) < 5_000
    for r in records:
        r.update(game_id="bad id!", type=records[2]["type"])
    message = fails(runner, "import", str(_write_lines(tmp_path / "bad-id.jsonl", records)))
    assert f"the same on {len(records) - 1} more lines" in message and len(message.splitlines()) < 10


def test_a_duplicate_import_of_many_games_is_a_short_message(runner, tmp_path):
    ok(runner, "init")
    many = tmp_path / "many.jsonl"
    many.write_text("".join(dump_line(e) for i in range(60) for e in pig_game(f"g{i}", seed=i)))
    ok(runner, "import", str(many))
    message = fails(runner, "import", str(many))
    assert "the same events appended twice" in message and "... and 40 more" in message and len(message) < 5_000


def test_import_tells_the_format_from_the_content(runner, tmp_path, copy):
    game = _first_game(copy)
    as_text = tmp_path / "events.txt"
    as_text.write_text(ok(runner, "export", "-a", str(copy), game).stdout)
    notation = ok(runner, "export", "-a", str(copy), game, "--format", "notation").stdout
    ok(runner, "init", "a")
    assert "of 1 games" in ok(runner, "import", "-a", "a", str(as_text)).stdout  # JSON Lines, whatever the name
    assert {g.game_id for g in Archive(tmp_path / "a").games()} == {game}
    ok(runner, "init", "b")
    assert "clean" in ok(runner, "import", "-a", "b", "-", input=notation).stdout
    assert "[jsonl.json]" in fails(runner, "import", "-a", "b", "--format", "jsonl", "-", input=notation)
    assert "empty" in fails(runner, "import", "-a", "b", "-", input="\n\n")


def test_diff_shows_the_values_that_differ(runner, tmp_path, copy):
    game = _first_game(copy)
    records = _lines(Path(_write_text(tmp_path / "a.jsonl", ok(runner, "export", "-a", str(copy), game).stdout)))
    held = next(i for i, r in enumerate(records) if r["type"] == "held")
    records[held]["payload"]["banked"] += 1
    result = run(runner, "diff", str(tmp_path / "a.jsonl"), str(_write_lines(tmp_path / "b.jsonl", records)))
    assert result.exit_code == 1
    assert f"payload.banked: {records[held]['payload']['banked'] - 1} -> {records[held]['payload']['banked']}" in result.output


def _write_text(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_queries_on_empty_tables_say_why(runner, copy):
    ok(runner, "init")
    assert "no games yet" in ok(runner, "query", "SELECT * FROM games").stderr
    no_kind = ok(runner, "query", "-a", str(copy), "SELECT count(*) AS n FROM wonders_dice.actions").stderr
    assert "no 7wonders-dice games" in no_kind
    assert "run `replay project`" in ok(runner, "query", "-a", str(copy), "SELECT count(*) AS n FROM pig.turns").stderr


def test_verify_reports_progress_within_a_file(copy, monkeypatch):
    import replay.archive.verify as verify_module

    monkeypatch.setattr(verify_module, "ROW_GROUP_ROWS", 40)
    archive = Archive(copy)
    told: list[int] = []
    report = verify(archive, progress=told.append)
    assert report.ok and sum(told) == report.events and len(told) > 2 * report.files


def test_a_derived_table_rewritten_in_place_is_caught_by_verify_and_repaired_by_rebuild(runner, copy):
    """The reported attack: a part rewritten with other numbers (through unsandboxed SQL). Now the
    sandbox refuses the rewrite, and a rewrite by other means fails verify."""
    ok(runner, "project", "-a", str(copy))
    refused = fails(runner, "query", "-a", str(copy), "COPY (SELECT 1 AS n) TO 'derived/pig/x.parquet'")
    assert "--unsafe-sql" in refused and not list((copy / "derived").rglob("x.parquet"))
    part = sorted((copy / "derived" / "pig").rglob("*.parquet"))[0]
    table = pq.read_table(part)
    pq.write_table(table.slice(0, max(0, table.num_rows - 1)), part)  # one row fewer: a changed result
    checked = run(runner, "verify", "-a", str(copy))
    assert checked.exit_code == 1 and "replay project --rebuild --game pig" in checked.output
    ok(runner, "project", "-a", str(copy), "--rebuild", "--game", "pig")
    assert ok(runner, "verify", "-a", str(copy)).exit_code == 0
