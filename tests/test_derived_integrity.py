"""Derived tables under checksums: every part's size and sha256 in the derived manifest,
``check_derived`` names a damaged part, a query that would read it is refused, and
``replay project --rebuild`` makes the tables again, row for row as a fresh projection."""

from __future__ import annotations

import hashlib
import json
import shutil

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from replay.analytics.named import QueryError
from replay.analytics.project import FORMAT, check_derived, derived_dir, project
from replay.analytics.sql import ask, connect, freshness, run_sql
from replay.archive import NEW_STREAM, Archive
from replay.cli.main import cli
from replay.games.pig import GAME as PIG
from replay.games.wonders_dice import GAME as WD
from replay.services.regress import recorded_rows
from replay.services.simulation import simulate_games

TABLES = ("games", "players", "pig.turns", "wonders_dice.players", "wonders_dice.actions")


@pytest.fixture(scope="module")
def original(tmp_path_factory) -> Archive:
    """Pig and 7 Wonders Dice games, one Pig game in progress (so there are live parts), projected."""
    archive = Archive.init(tmp_path_factory.mktemp("derived") / "archive")
    simulate_games(PIG, archive, 5, (2, 3), (), seed=21)
    simulate_games(WD, archive, 3, (2, 3), (), seed=22)
    live = PIG.bots.simulate("pig-live", ["Ana", "Ben"], 99, PIG.bots.default, PIG.pack())
    archive.append("pig-live", live[:12], NEW_STREAM)
    project(archive)
    return archive


@pytest.fixture
def archive(original, tmp_path) -> Archive:
    return Archive(shutil.copytree(original.root, tmp_path / "archive"))


def _part(archive: Archive, table: str = "pig.turns"):
    return next((derived_dir(archive, PIG.kind) / table).glob("part-*.parquet"))


def _rows(archive: Archive) -> dict[str, list[dict]]:
    con = connect(archive)
    return {t: run_sql(con, f"SELECT * FROM {t} ORDER BY ALL").to_pylist() for t in TABLES}


def _alter(path) -> None:
    """Rewrite a part with one value changed, as a hand (or a stray COPY) might."""
    table = pq.read_table(path)
    i = table.schema.get_field_index("banked")
    pq.write_table(table.set_column(i, "banked", pc.add(table.column(i), 1)), path)


def test_every_part_is_recorded_with_its_size_and_sha256(archive):
    for kind in (PIG.kind, WD.kind):
        root = derived_dir(archive, kind)
        manifest = json.loads((root / "manifest.json").read_text())
        assert manifest["format"] == FORMAT
        listed = {f"{t}/{n}" for group in (manifest["parts"], manifest["live"]["parts"])
                  for t, names in group.items() for n in names}
        assert listed and set(manifest["sums"]) == listed
        for name, sums in manifest["sums"].items():
            data = (root / name).read_bytes()
            assert sums == {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    assert check_derived(archive) == []


def test_live_parts_replaced_by_a_later_run_leave_the_sums(archive):
    project(archive)  # the game in progress is projected afresh: new live parts, the old removed
    manifest = json.loads((derived_dir(archive, PIG.kind) / "manifest.json").read_text())
    listed = {f"{t}/{n}" for group in (manifest["parts"], manifest["live"]["parts"])
              for t, names in group.items() for n in names}
    assert set(manifest["sums"]) == listed and any(n.startswith("games/live-") for n in listed)
    assert check_derived(archive) == []


def test_an_altered_part_is_named_and_a_rebuild_repairs_it(archive, original):
    part = _part(archive)
    _alter(part)
    problems = check_derived(archive)
    assert len(problems) == 1
    p = problems[0]
    assert p.rule_id == "archive.derived" and p.where.file == str(part.relative_to(archive.root))
    assert "replay project --rebuild --game pig" in p.message
    result = CliRunner().invoke(cli, ["project", "-a", str(archive.root), "--rebuild", "--game", "pig", "--workers", "1"])
    assert result.exit_code == 0 and "pig: threw away the derived tables" in result.output
    assert not part.exists() and check_derived(archive) == []
    assert (derived_dir(archive, PIG.kind) / ".lock").exists()  # kept: another projector may be waiting on it
    assert _rows(archive) == _rows(original)


def test_rows_after_a_rebuild_equal_a_fresh_projection(archive, tmp_path):
    _alter(_part(archive))
    result = project(archive, rebuild=True)
    assert sorted(result.discarded) == [WD.kind, PIG.kind] and result.games == 8 and result.live == 1
    fresh = Archive(shutil.copytree(archive.root, tmp_path / "fresh", ignore=shutil.ignore_patterns("derived")))
    project(fresh)
    assert _rows(archive) == _rows(fresh)


def test_a_query_that_reads_a_damaged_part_is_refused_the_others_run(archive):
    part = _part(archive)
    part.write_bytes(part.read_bytes()[:-100])  # truncated: the cheap size check sees it
    runner = CliRunner()
    refused = runner.invoke(cli, ["query", "-a", str(archive.root), "SELECT sum(banked) AS b FROM pig.turns"])
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    assert "damaged" in refused.stderr and "replay project --rebuild --game pig" in refused.stderr
    other = runner.invoke(cli, ["query", "-a", str(archive.root), "SELECT count(*) AS n FROM wonders_dice.actions"])
    assert other.exit_code == 0 and "replay project --rebuild --game pig" in other.stderr  # the note
    with pytest.raises(QueryError, match="left out because files they read are damaged: pig.turns"):
        ask(archive, "FROM query_table('pig.tu' || 'rns')")  # not named as such: the view is left out, so it fails


def test_a_missing_part_and_a_damaged_manifest_are_named(archive):
    _part(archive, "games").unlink()
    assert ["missing" in p.message for p in check_derived(archive)] == [True]
    with pytest.raises(QueryError, match="refused: the query reads games"):
        ask(archive, "SELECT count(*) FROM games")
    manifest = derived_dir(archive, WD.kind) / "manifest.json"
    manifest.write_text(manifest.read_text()[:40])
    named = {p.where.file for p in check_derived(archive)}
    assert f"derived/{WD.kind}/manifest.json" in named
    with pytest.raises(QueryError, match="damaged"):
        ask(archive, "SELECT count(*) FROM wonders_dice.actions")
    assert any("damaged" in n and "--rebuild --game 7wonders-dice" in n for n in freshness(archive))
    project(archive, rebuild=True)
    assert check_derived(archive) == [] and freshness(archive) == []


def test_leftovers_and_manifests_of_an_older_format_are_not_damage(archive):
    part = _part(archive)
    shutil.copy(part, part.with_name("part-leftover.parquet"))  # as a crashed run leaves it
    assert check_derived(archive) == []
    root = derived_dir(archive, PIG.kind)
    manifest = json.loads((root / "manifest.json").read_text())
    recorded = recorded_rows(archive, PIG)
    older = {k: v for k, v in manifest.items() if k != "sums"} | {"format": 2}
    (root / "manifest.json").write_text(json.dumps(older))
    assert check_derived(archive) == []
    assert recorded_rows(archive, PIG) == recorded  # `replay regress` still reads the record made before an upgrade
    assert any("pig: the derived tables are of an older layout" in n for n in freshness(archive))
    again = project(archive, [PIG])
    assert again.rebuilt == [PIG.kind] and check_derived(archive) == []
    assert not part.with_name("part-leftover.parquet").exists()
