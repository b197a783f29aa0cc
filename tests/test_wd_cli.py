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


def _data_files(path):
    """Each committed data file's sha256 and rows, in commit order (the files' names are random)."""
    from replay.archive import Archive

    snapshot = Archive(path).snapshot()
    return snapshot.generation, sorted((f.sha256, f.rows) for f in snapshot.files.values())


def test_simulate_with_workers_commits_the_same_batches_and_files(runner, tmp_path, monkeypatch):
    monkeypatch.setattr("replay.services.simulation.COMMIT_GAMES", 7)  # 30 games: five batches
    for name, workers in (("one", "1"), ("two", "2"), ("three", "3")):
        _ok(runner, "simulate", "-a", name, "--game", "7wonders-dice", "--init", "--games", "30", "--players", "2-4",
            "--bot", "random,greedy", "--seed", "5", "--workers", workers)
    one = _data_files(tmp_path / "one")
    assert one[0] >= 5 and len(one[1]) == 5 and sum(rows for _, rows in one[1]) > 30 * 100
    assert _data_files(tmp_path / "two") == one == _data_files(tmp_path / "three")
    assert _ok(runner, "export", "-a", "one") == _ok(runner, "export", "-a", "two") == _ok(runner, "export", "-a", "three")
    assert "OK" in _ok(runner, "verify", "-a", "two", "--deep")


def test_a_batch_failing_in_a_worker_is_one_error_and_the_batches_before_it_stay(runner, tmp_path, monkeypatch):
    from replay.errors import ReplayError
    from replay.services import simulation

    real = simulation.simulated

    def failing(game, seed, i, players, bots, pack):
        if i == 10:  # in the second batch of 7
            raise ReplayError(f"game {i} could not be simulated")
        return real(game, seed, i, players, bots, pack)

    monkeypatch.setattr(simulation, "COMMIT_GAMES", 7)
    monkeypatch.setattr(simulation, "simulated", failing)  # the workers fork after this: they inherit it
    result = runner.invoke(cli, ["simulate", "-a", "x", "--game", "7wonders-dice", "--init", "--games", "30",
                                 "--players", "2", "--workers", "2"])
    assert result.exit_code == 1 and "game 10 could not be simulated" in result.output
    assert "Traceback" not in result.output
    games = json.loads(_ok(runner, "games", "-a", "x", "--format", "json"))
    assert sorted(g["game_id"][-6:] for g in games) == [f"{i:06d}" for i in range(7)]  # the first batch, whole
