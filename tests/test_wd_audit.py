"""The audit: the broken-game corpus, no false alarms, tamper evidence."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa
import pytest
from click.testing import CliRunner

from replay.archive import NEW_STREAM, Archive
from replay.archive.store import parquet_bytes, read_parquet
from replay.cli.main import cli
from replay.games.wonders_dice import GAME, simulate_game
from replay.games.wonders_dice.notation import read, write
from replay.services.audit import audit
from replay.services.logs import Log, load_log, read_notation_file

BROKEN = Path(__file__).parent.parent / "fixtures" / "7wd" / "broken"
NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]
CASES = sorted(p for p in BROKEN.glob("*.txt") if p.name != "notation-syntax-errors.txt")


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_broken_game_is_caught_with_its_rule_and_line(path):
    rule, line = re.match(r"# expect: (\S+) at line (\d+)", path.read_text()).groups()
    report = audit(read_notation_file(path))
    first = report.problems[0]
    assert (first.rule_id, first.line) == (rule, int(line))
    assert first.explanation.startswith(f"turn {first.turn}") or first.turn is None


def test_the_broken_corpus_covers_what_disputes_are_made_of():
    rules = {re.match(r"# expect: (\S+)", p.read_text()).group(1) for p in BROKEN.glob("*.txt")}
    assert {"claim.paid", "die.locked", "space.order", "guild.condition", "pay.coins", "turn.order",
            "claim.score", "claim.vp", "notation"} <= rules


def test_a_wrong_payment_is_explained_in_plain_words():
    report = audit(read_notation_file(BROKEN / "wrong-payment.txt"))
    assert len(report.problems) == 1
    f = report.problems[0]
    assert f.explanation == f"turn 1, Ana: the action cost {f.expected} coins, but {f.found} were written down"
    text = report.to_text()
    assert "1 problem(s)" in text and "[claim.paid]" in text and "line 13" in text


def test_no_false_alarm_on_hundreds_of_valid_games():
    for i in range(200):
        events = simulate_game(f"g{i}", NAMES[: 2 + i % 6], 7000 + i, ("greedy", "random"))
        parsed = read(write(events), "raise")
        report = audit(Log(parsed.events, GAME, f"g{i}", parsed.lines))
        assert report.ok, (i, [str(f) for f in report.problems])
        claimed = events[-1].payload
        assert list(report.result.winners) == claimed["winners"] and report.result.tie_break == claimed["tie_break"]
        assert [(s.seat, s.total, dict(s.categories)) for s in report.result.scores] == [
            (s["seat"], s["total"], s["categories"]) for s in sorted(claimed["scores"], key=lambda s: s["seat"])]


def test_clean_audit_prints_winner_scores_and_what_was_checked(tmp_path):
    path = tmp_path / "game.txt"
    events = simulate_game("clean", NAMES[:3], 5, ("greedy", "random"))
    path.write_text(write(events))
    result = CliRunner().invoke(cli, ["audit", str(path)])
    assert result.exit_code == 0
    winner = NAMES[events[-1].payload["winners"][0]]
    assert "OK: no problem found." in result.output and f"Winner: {winner}" in result.output
    assert "claims: " in result.output and "milit" in result.output and "agora" in result.output
    as_json = json.loads(CliRunner().invoke(cli, ["audit", str(path), "--format", "json"]).output)
    assert as_json["ok"] is True and as_json["result"]["winners"] == events[-1].payload["winners"]


def test_cli_audit_exits_non_zero_and_names_the_line(tmp_path):
    result = CliRunner().invoke(cli, ["audit", str(BROKEN / "guild-court-condition-not-met.txt")])
    assert result.exit_code == 1 and "line 65" in result.output and "[guild.condition]" in result.output


def test_tampered_archive_game_names_the_first_altered_event(tmp_path):
    archive = Archive.init(tmp_path / "a")
    events = simulate_game("g1", NAMES[:2], 9, ("greedy", "random"))
    archive.append("g1", events, NEW_STREAM)
    assert audit(load_log("g1", archive.root)).ok
    [entry] = archive.snapshot().files.values()
    path = archive.path_of(entry.path)
    table = read_parquet(path, dictionaries=False)
    rows = table.to_pylist()
    victim = next(r for r in rows if r["type"] == "action_taken" and r["action_taken"]["claims"]["paid"] > 0)
    victim["action_taken"]["claims"]["paid"] -= 1  # the altered sheet now agrees with itself...
    path.write_bytes(parquet_bytes(pa.Table.from_pylist(rows, schema=table.schema)))
    report = audit(load_log("g1", archive.root))
    first = report.problems[0]
    assert (first.rule_id, first.seq) == ("archive.chain", victim["seq"])
    assert "altered after it was written" in first.explanation


def test_audit_of_a_json_lines_file_names_its_lines(tmp_path):
    from replay.jsonl import dump_line

    events = simulate_game("j", NAMES[:2], 4, ("greedy", "random"))
    i = next(i for i, e in enumerate(events) if e.type == "action_taken" and e.payload["claims"]["paid"] > 0)
    p = events[i].payload
    events[i] = events[i]._replace(payload={**p, "claims": {**p["claims"], "paid": p["claims"]["paid"] + 1}})
    path = tmp_path / "j.jsonl"
    path.write_text("".join(dump_line(e) for e in events))
    report = audit(load_log(str(path), tmp_path))
    assert [(f.rule_id, f.line) for f in report.problems] == [("claim.paid", i + 1)]
