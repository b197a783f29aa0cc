"""Rules packs in the archive: a game's pinned pack is stored with it, found again without
--ruleset, and checked by verify."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from helpers import pig_game

from replay.archive import NEW_STREAM, Archive
from replay.archive.verify import verify
from replay.cli.main import cli
from replay.errors import InvalidInput, PackError
from replay.games.pig import GAME as PIG
from replay.games.pig import simulate_game
from replay.jsonl import dump_line, import_lines
from replay.services.audit import audit
from replay.services.logs import load_log
from replay.services.review import Review


@pytest.fixture
def house(tmp_path):
    """A user's own Pig pack (target 30), not shipped, and a game played under it."""
    pack = PIG.pack().model_copy(update={"version": "1.0.0-house", "target": 30})
    path = tmp_path / "house.json"
    path.write_text(json.dumps(pack.model_dump(mode="json")))
    return pack, path, simulate_game("h1", ["Ana", "Ben"], 3, ("hold20",), pack)


def test_a_game_under_an_unknown_pack_is_refused_with_its_line_and_nothing_is_written(archive, house):
    pack, _, events = house
    with pytest.raises(InvalidInput) as caught:
        import_lines(archive, [dump_line(e) for e in events], source="h.jsonl")
    [problem] = caught.value.problems
    assert (problem.line, problem.field, problem.rule_id) == (1, "payload.ruleset", "jsonl.pack")
    assert "pig-standard 1.0.0-house" in problem.message and "--ruleset" in problem.message
    assert archive.snapshot().generation == 0 and not list(archive.packs.stored())
    with pytest.raises(PackError, match="game h1: the game pins rules pack pig-standard 1.0.0-house"):
        archive.append("h1", events, NEW_STREAM)


def test_the_pinned_pack_is_stored_once_and_found_again_without_ruleset(archive, house):
    pack, _, events = house
    import_lines(archive, [dump_line(e) for e in events], packs=[pack])
    archive.append("h2", simulate_game("h2", ["Cy", "Di"], 4, ("hold25",), pack), NEW_STREAM)  # stored: enough
    stored = list(archive.packs.stored())
    assert [(s.kind, s.content_hash) for s in stored] == [("pig", pack.content_hash)]
    again = Archive(archive.root)  # a new process: nothing in memory
    log = load_log("h1", again)
    assert audit(log).ok
    review = Review(log)
    assert review.game.views.data(review.state(review.last))["target"] == 30
    report = verify(again)
    assert report.ok and report.packs == 1


def test_verify_names_a_missing_or_altered_pack(archive, house):
    pack, _, events = house
    import_lines(archive, [dump_line(e) for e in events], packs=[pack])
    [stored] = archive.packs.stored()
    text = stored.path.read_text()
    stored.path.write_text(text.replace('"target": 30', '"target": 31'))
    problems = [p for p in verify(archive).problems]
    assert [p.rule_id for p in problems] == ["archive.pack"] and "altered" in problems[0].message
    stored.path.unlink()
    problems = verify(archive).problems
    assert [(p.rule_id, p.where.game) for p in problems] == [("archive.pack-missing", "h1")]


def test_cli_import_with_ruleset_then_audit_and_show_need_no_ruleset(tmp_path, house):
    _, path, events = house
    runner = CliRunner()
    root = str(tmp_path / "a")
    assert runner.invoke(cli, ["init", "-a", root]).exit_code == 0
    jsonl = tmp_path / "h.jsonl"
    jsonl.write_text("".join(dump_line(e) for e in events))
    refused = runner.invoke(cli, ["import", "-a", root, str(jsonl)])
    assert refused.exit_code == 1 and "[jsonl.pack]" in refused.output and "nothing was written" in refused.output
    assert runner.invoke(cli, ["import", "-a", root, str(jsonl), "--ruleset", str(path)]).exit_code == 0
    assert runner.invoke(cli, ["audit", "-a", root, "h1"]).exit_code == 0
    assert runner.invoke(cli, ["show", "-a", root, "h1", "--at", "turn:2"]).exit_code == 0
    assert runner.invoke(cli, ["project", "-a", root, "--workers", "1"]).exit_code == 0
    out = runner.invoke(cli, ["query", "-a", root, "SELECT pack_version, count(*) AS n FROM games GROUP BY ALL"]).output
    assert "1.0.0-house" in out


def test_a_pack_lists_where_its_facts_come_from():
    assert PIG.pack().provenance() == [("(pack)", "Traditional folk rules (John Scarne, 1945); public domain", "high")]
    from replay.games.wonders_dice import GAME as WD

    parts = WD.pack().provenance()
    assert any(path.startswith("buildings[") for path, _, _ in parts) and {c for _, _, c in parts} <= {
        "high", "medium", "low"}
    out = CliRunner().invoke(cli, ["rules", "show", "7wd-default", "--provenance"]).output
    assert "confidence" in out and "buildings[0](warehouse)" in out


def test_model_copy_of_a_pack_gets_its_own_content_hash():
    pack = PIG.pack()
    changed = pack.model_copy(update={"target": 50})
    assert changed.content_hash != pack.content_hash
    assert changed.content_hash == type(pack).model_validate(changed.model_dump()).content_hash


def test_pig_fixture_games_carry_the_shipped_pack(archive):
    import_lines(archive, [dump_line(e) for e in pig_game("p1")])
    assert [s.content_hash for s in archive.packs.stored()] == [PIG.pack().content_hash]


def test_an_archive_from_before_packs_were_kept_verifies_and_keeps_them_on_request(archive, tmp_path):
    import shutil

    import_lines(archive, [dump_line(e) for e in pig_game("p1")])
    shutil.rmtree(archive.root / "packs")  # as an archive written by an earlier version of replay
    report = verify(archive)
    assert report.ok and [n.rule_id for n in report.notes] == ["archive.pack-shipped"]
    assert audit(load_log("p1", archive)).ok  # the shipped pack is found all the same
    out = CliRunner().invoke(cli, ["rules", "store", "-a", str(archive.root)])
    assert out.exit_code == 0 and "1 pack(s) stored" in out.output
    assert verify(archive).notes == [] and verify(archive).packs == 1


def test_every_pack_part_is_frozen():
    """Pack parts are immutable, and the 7 Wonders Dice kernel relies on it: it keeps an attribute it
    has read of a pack part by (object, name) (_ckernel.c, get_attr). A part made mutable, in any game,
    fails here."""
    from replay.packs import PackPart
    from replay.registry import registry

    for game in registry.games():
        game.pack()  # every game's pack models imported and built
    parts, todo = [], [PackPart]
    while todo:
        part = todo.pop()
        parts.append(part)
        todo.extend(part.__subclasses__())
    assert len(parts) > 20, parts  # the games' models were found
    mutable = [p.__qualname__ for p in parts if not p.model_config.get("frozen")]
    assert mutable == []
