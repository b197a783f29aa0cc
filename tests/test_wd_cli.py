from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from replay.cli.main import cli


@pytest.fixture
def runner(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REPLAY_ARCHIVE", raising=False)
    return CliRunner()


def _ok(runner, *args):
    result = runner.invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _json(runner, *args):
    """A command's standard output as JSON (notes on standard error stay out of it)."""
    result = runner.invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_simulate_is_byte_identical_for_a_seed(runner, tmp_path):
    for name in ("a", "b"):
        _ok(runner, "simulate", "-a", name, "--game", "7wonders-dice", "--init", "--games", "6", "--players", "2-7",
            "--bot", "greedy,random", "--seed", "9")
    assert _ok(runner, "export", "-a", "a") == _ok(runner, "export", "-a", "b")
    _ok(runner, "simulate", "-a", "c", "--game", "7wonders-dice", "--init", "--games", "6", "--seed", "10")
    assert _ok(runner, "export", "-a", "c") != _ok(runner, "export", "-a", "a")
    games = json.loads(_ok(runner, "games", "-a", "a", "--format", "json"))
    assert len(games) == 6 and all(g["status"] == "finished" and 2 <= len(g["players"]) <= 7 for g in games)
    assert "OK" in _ok(runner, "verify", "-a", "a", "--deep")


def test_simulate_refuses_unknown_bots_and_bad_ranges(runner):
    result = runner.invoke(cli, ["simulate", "-a", "x", "--game", "7wonders-dice", "--init", "--bot", "clever"])
    assert result.exit_code == 2 and "7 Wonders Dice has no bot 'clever'; its bots: random, greedy" in result.output
    result = runner.invoke(cli, ["simulate", "-a", "x", "--game", "7wonders-dice", "--init", "--players", "5-2"])
    assert result.exit_code == 2 and "upwards" in result.output
    result = runner.invoke(cli, ["simulate", "-a", "x", "--game", "7wonders-dice", "--init", "--players", "1-9"])
    assert result.exit_code == 2 and "played by 2 to 7 players" in result.output
    result = runner.invoke(cli, ["simulate", "-a", "x", "--init"])
    installed = result.output.partition("(installed: ")[2].partition(")")[0].split(", ")
    assert result.exit_code == 2 and "which game? --game KIND" in result.output
    assert {"7wonders-dice", "pig"} <= set(installed)  # and any other kind installed (flip7)


def test_rules_list_show_validate_diff(runner, tmp_path):
    assert "7wd-default" in _ok(runner, "rules", "list")
    assert _json(runner, "rules", "show", "7wd-default", "--part", "options")["resolution"] == "simultaneous"
    full = _json(runner, "rules", "show", "7wd-default")
    full["buildings"][3]["spaces"][4]["cost"] = 21  # the Agora's r1c1, beyond 0..20
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(full))
    result = runner.invoke(cli, ["rules", "validate", str(bad), "--game", "7wonders-dice"])
    assert result.exit_code == 1
    assert "buildings[3](agora).spaces[4](r1c1).cost: " in result.output
    full["buildings"][3]["spaces"][4]["cost"] = 3
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps(full))
    assert "OK" in _ok(runner, "rules", "validate", str(fixed))
    diff = runner.invoke(cli, ["rules", "diff", "7wd-default", str(fixed)])
    assert diff.exit_code == 1 and "buildings[agora].spaces[r1c1].cost: 2 -> 3" in diff.output


def test_simulate_with_a_users_ruleset_pins_it(runner, tmp_path):
    full = _json(runner, "rules", "show", "7wd-default")
    full["version"] = "0.1.0-house"
    full["start"]["coins"] = 9
    pack = tmp_path / "house.json"
    pack.write_text(json.dumps(full))
    _ok(runner, "simulate", "-a", "h", "--game", "7wonders-dice", "--init", "--games", "2", "--ruleset", str(pack),
        "--seed", "3")
    first = json.loads(_ok(runner, "export", "-a", "h").splitlines()[0])
    assert first["payload"]["ruleset"]["version"] == "0.1.0-house"


def test_simulate_under_a_shipped_pack_by_name(runner):
    """``--ruleset`` takes a shipped pack's name too (an older version here); an unknown name is a usage error."""
    _ok(runner, "simulate", "-a", "n", "--game", "7wonders-dice", "--init", "--games", "1", "--ruleset", "7wd-default-0.1.0")
    first = json.loads(_ok(runner, "export", "-a", "n").splitlines()[0])
    assert first["payload"]["ruleset"]["version"] == "0.1.0"
    result = runner.invoke(cli, ["simulate", "-a", "n", "--game", "7wonders-dice", "--ruleset", "no-such-pack"])
    assert result.exit_code == 2 and "no-such-pack" in result.output and "Traceback" not in result.output
