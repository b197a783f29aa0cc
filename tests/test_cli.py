from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from helpers import pig_game

from replay.cli.main import cli
from replay.jsonl import dump_line


@pytest.fixture
def runner(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REPLAY_ARCHIVE", raising=False)
    return CliRunner()


def _ok(runner, *args, input=None):
    result = runner.invoke(cli, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def _games_file(tmp_path, name="games.jsonl"):
    path = tmp_path / name
    path.write_text("".join(dump_line(e) for e in pig_game("g1") + pig_game("g2", seed=2, players=3)))
    return path


def test_every_command_teaches_with_an_example(runner):
    assert "replay demo" in _ok(runner, "--help").output
    for command in ("init", "import", "export", "games", "events", "verify", "compact", "schema", "demo"):
        assert "Example" in _ok(runner, command, "--help").output, command


def test_default_archive_is_dot_archive_or_the_env_var(runner, tmp_path, monkeypatch):
    _ok(runner, "init")
    assert (tmp_path / "archive" / "REPLAY_ARCHIVE").is_file()
    monkeypatch.setenv("REPLAY_ARCHIVE", str(tmp_path / "elsewhere"))
    _ok(runner, "init")
    assert (tmp_path / "elsewhere" / "REPLAY_ARCHIVE").is_file()
    assert "0 files" in _ok(runner, "verify").output


def test_import_games_events_export(runner, tmp_path):
    _ok(runner, "init")
    src = _games_file(tmp_path)
    g1, g2 = pig_game("g1"), pig_game("g2", seed=2, players=3)
    assert f"imported {len(g1) + len(g2)} events of 2 games" in _ok(runner, "import", str(src)).output

    table = _ok(runner, "games").output.splitlines()
    assert table[0].split() == ["game_id", "kind", "players", "events", "status"]
    assert table[2].split()[:3] == ["g2", "pig", "Ana,"] and "finished" in table[2]
    rows = list(csv.DictReader(io.StringIO(_ok(runner, "games", "--format", "csv").output)))
    assert [(r["game_id"], r["players"], r["events"]) for r in rows] == [
        ("g1", "Ana, Ben", str(len(g1))), ("g2", "Ana, Ben, Chloe", str(len(g2)))]
    assert json.loads(_ok(runner, "games", "--format", "json", "--status", "in-progress").output) == []

    held = json.loads(_ok(runner, "events", "g1", "--type", "held", "--format", "json").output)
    assert held and all(r["type"] == "held" for r in held)
    window = _ok(runner, "events", "g1", "--from-seq", "3", "--to-seq", "5").output.splitlines()
    assert [line.split()[0] for line in window[1:]] == ["3", "4", "5"]

    exported = _ok(runner, "export").output
    assert exported == "".join(sorted(src.read_text().splitlines(keepends=True), key=_game_and_seq))
    assert _ok(runner, "export", "g2", "-o", "g2.jsonl").output == ""
    assert (tmp_path / "g2.jsonl").read_text() == "".join(dump_line(e) for e in pig_game("g2", seed=2, players=3))
    assert _ok(runner, "events", "g2", "--format", "jsonl").output == (tmp_path / "g2.jsonl").read_text()


def test_import_from_stdin_and_errors_exit_non_zero(runner, tmp_path):
    _ok(runner, "init")
    lines = "".join(dump_line(e) for e in pig_game("g1"))
    _ok(runner, "import", "-", input=lines)
    again = runner.invoke(cli, ["import", "-"], input=lines)
    assert again.exit_code == 1 and "already in the archive, identical" in again.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game_id": "g9"}\n')
    result = runner.invoke(cli, ["import", str(bad)])
    assert result.exit_code == 1
    assert "bad.jsonl:line 1: seq: " in result.output and "nothing was written" in result.output
    missing = runner.invoke(cli, ["events", "nope"])
    assert missing.exit_code == 1 and "no game 'nope'" in missing.output


def test_commands_on_a_missing_archive_explain_how_to_create_one(runner):
    result = runner.invoke(cli, ["games"])
    assert result.exit_code == 1 and "replay init" in result.output


def test_compact_and_verify(runner, tmp_path):
    _ok(runner, "init")
    _ok(runner, "import", str(_games_file(tmp_path, "a.jsonl")))
    (tmp_path / "b.jsonl").write_text("".join(dump_line(e) for e in pig_game("g3", seed=3)))
    _ok(runner, "import", str(tmp_path / "b.jsonl"))
    assert "2 files -> 1" in _ok(runner, "compact").output
    assert "nothing to compact" in _ok(runner, "compact").output
    assert "OK: 1 files, 3 games" in _ok(runner, "verify", "--deep").output


def test_schema_check_passes_on_the_checked_in_schemas(runner):
    from pathlib import Path

    schemas = Path(__file__).parent.parent / "schemas"
    assert "up to date" in _ok(runner, "schema", "--check", str(schemas)).output


def test_demo_runs_end_to_end(runner, tmp_path):
    out = _ok(runner, "demo", "--games", "6", "--archive", str(tmp_path / "demo")).output
    assert "replay verify: OK" in out and "identical to the simulated events: True" in out
    assert "winner" in out and "[claim.paid]" in out  # the disputed game's problem
    assert "7wonders-dice" in out and "pig " in out  # SQL across both kinds


def test_console_script_is_installed():
    out = subprocess.run([sys.executable, "-m", "replay", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and "replay, version" in out.stdout


def _game_and_seq(line: str) -> tuple[str, int]:
    record = json.loads(line)
    return record["game_id"], record["seq"]
