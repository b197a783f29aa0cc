"""show, step (piped and under tmux), diff, notation import and export."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from replay.cli.main import cli
from replay.games.wonders_dice import simulate_game
from replay.games.wonders_dice.notation import write

NAMES = ["Ana", "Ben", "Chloe"]


@pytest.fixture
def game(tmp_path):
    events = simulate_game("rev", NAMES, 31, ("greedy", "random"))
    path = tmp_path / "rev.txt"
    path.write_text(write(events))
    return path, events


def _ok(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_show_at_a_turn_has_the_forum_with_costs_and_every_board(game):
    path, events = game
    out = _ok("show", str(path), "--at", "turn:3")
    roll = next(e for e in events if e.type == "dice_rolled" and e.payload["turn"] == 3)
    first = roll.payload["dice"][0]
    assert f"{first['id']} {first['face']} ({[0, 1, 2, 3][first['section']]})" in out
    assert all(f"{n} (" in out for n in NAMES) and "warehouse" in out and "coins" in out
    only = _ok("show", str(path), "--at", "seq:10", "--player", "ben")
    assert "Ben (" in only and "Ana (" not in only
    data = json.loads(_ok("show", str(path), "--at", "seq:10", "--format", "json"))
    assert data["state"]["turn"] >= 1 and len(data["state"]["players"]) == 3 and data["problems"] == []
    bad = CliRunner().invoke(cli, ["show", str(path), "--at", "turn:999"])
    assert bad.exit_code == 1 and "no turn 999" in bad.output


def test_step_driven_by_piped_keystrokes(game):
    path, events = game
    out = _ok("step", str(path), input="n\nN\nf Ben\nn\np\nt 3\nb\nh\nx\nq\n")
    assert f"[event 1/{len(events) - 1}] turn 1 roll" in out
    assert "changed (event 1 -> 5)" in out or "changed (event 1 ->" in out
    assert "following Ben" in out
    assert "turn 3 roll" in out and "unknown command 'x'" in out and out.rstrip().endswith("bye")


def test_diff_names_the_first_difference_and_how_the_tables_differ(game, tmp_path):
    path, events = game
    assert "identical" in _ok("diff", str(path), str(path))
    i = next(i for i, e in enumerate(events) if e.type == "action_taken" and e.payload["steps"][0]["kind"] != "pass")
    other = list(events)
    p = other[i].payload
    other[i] = other[i]._replace(payload={**p, "steps": [{"kind": "pass", "die": None, "building": None, "lane": None,
                                                          "space": None, "slot": None}], "claims": None})
    other_path = tmp_path / "other.txt"
    other_path.write_text(write(other))
    result = CliRunner().invoke(cli, ["diff", str(path), str(other_path)])
    assert result.exit_code == 1
    assert f"first difference at event {i}:" in result.output
    assert "pass" in result.output and "how the tables differ at the end" in result.output
    assert "coins" in result.output


def test_import_notation_after_an_audit_and_export_it_back(game, tmp_path):
    path, events = game
    archive = tmp_path / "archive"
    _ok("init", str(archive))
    assert "(clean)" in _ok("import", "-a", str(archive), str(path))
    assert _ok("export", "rev", "-a", str(archive), "--format", "notation") == path.read_text()
    broken = tmp_path / "broken.txt"
    broken.write_text(path.read_text().replace('[Game "rev"]', '[Game "rev2"]').replace("paid 0", "paid 9", 1))
    refused = CliRunner().invoke(cli, ["import", "-a", str(archive), str(broken)])
    assert refused.exit_code == 1 and "nothing was written" in refused.output and "[claim.paid]" in refused.output
    assert "archived anyway" in _ok("import", "-a", str(archive), str(broken), "--allow-problems")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")
def test_step_in_a_real_terminal_under_tmux(game, tmp_path):
    path, _ = game
    session = f"replay-step-{os.getpid()}"
    command = f"{sys.executable} -m replay step {path}"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "160", "-y", "50", command], check=True)
    try:
        def screen() -> str:
            return subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout

        def wait_for(text: str) -> str:
            for _ in range(100):
                shown = screen()
                if text in shown:
                    return shown
                time.sleep(0.1)
            raise AssertionError(f"{text!r} never appeared:\n{screen()}")

        wait_for("[event 0/")
        for keys in (["N", "Enter"], ["N", "Enter"]):
            subprocess.run(["tmux", "send-keys", "-t", session, *keys], check=True)
        shown = wait_for("turn 2 roll")
        assert "changed (event" in shown
        subprocess.run(["tmux", "send-keys", "-t", session, "q", "Enter"], check=True)
        wait_for("bye")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
