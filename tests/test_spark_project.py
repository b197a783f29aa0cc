"""``replay project --engine spark``: the local engine's derived rows, computed by Spark.

One archive of every installed kind (a few hundred games, some split over two files, games in
progress, a game whose start cannot be played) is projected by both engines; every derived table
must hold the same rows (order aside), and the manifests the same games, live games and skipped
games. A damaged event file is handled as the local engine handles it. One local Spark session
(``spark`` in conftest.py) serves every test: Spark is never mocked.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import flip_in_data_page, pig_game, rows_digest

from replay.analytics.project import check_derived, derived_dir, part_paths, project
from replay.archive import NEW_STREAM, Archive
from replay.cli.main import cli
from replay.games.pig import GAME as PIG
from replay.games.wonders_dice import GAME as WD
from replay.registry import registry
from replay.services.simulation import simulate_games
from replay.spark.project import SparkProjectOptions, groups_for, project_spark

PLAYERS = {"7wonders": (3, 5), "7wonders-duel": (2, 2), "flip7": (3, 6)}
"""Players for kinds that cannot be played by 2-4."""

KINDS = [g for g in registry.games() if g.analytics is not None]


def _mixed(root: Path) -> Archive:
    archive = Archive.init(root)
    for i, game in enumerate(KINDS):
        simulate_games(game, archive, 24, PLAYERS.get(game.kind, (2, 4)), (), seed=100 + i)
        simulate_games(game, archive, 12, PLAYERS.get(game.kind, (2, 4)), (), seed=200 + i)  # a second file
        names = ["Ana", "Ben", "Chloe", "Dev", "Eve"][:PLAYERS.get(game.kind, (2, 4))[0]]
        live = game.bots.simulate(f"{game.kind}-live", names, 7, game.bots.default, game.pack())
        archive.append(f"{game.kind}-live", live[: len(live) // 2], NEW_STREAM)
    split = WD.bots.simulate("wd-split", ["Ana", "Ben", "Chloe"], 45, WD.bots.default, WD.pack())
    archive.append("wd-split", split[:40], NEW_STREAM)
    archive.append("wd-split", split[40:], 39)
    bad = WD.bots.simulate("wd-bad", ["Ana", "Ben"], 5, WD.bots.default, WD.pack())
    seats = bad[0].payload["seats"]
    bad[0] = bad[0]._replace(payload={**bad[0].payload, "seats": [seats[0], {**seats[1], "city": seats[0]["city"]}]})
    archive.append("wd-bad", bad, NEW_STREAM)
    return archive


def digests(archive: Archive, reasons: bool = True) -> dict[str, str]:
    """Each derived table's rows (canonical JSON, sorted) and columns, hashed; each manifest's games
    (and why games were skipped, unless not ``reasons``)."""
    out: dict[str, str] = {}
    for game in registry.games():
        manifest_path = derived_dir(archive, game.kind) / "manifest.json"
        if not manifest_path.exists():
            continue
        for table, paths in sorted(part_paths(archive, game).items()):
            out[f"{game.kind}/{table}"] = rows_digest(paths)
        manifest = json.loads(manifest_path.read_text())
        out[f"{game.kind}/manifest"] = json.dumps({"games": sorted(manifest["games"]), "live": manifest["live"]["games"],
                                                   "skipped": manifest["skipped"] if reasons else sorted(manifest["skipped"]),
                                                   "layout": manifest["layout"]})
    return out


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    return _mixed(tmp_path_factory.mktemp("mixed") / "archive").root


@pytest.fixture(scope="module")
def both(mixed, tmp_path_factory, spark):
    """The mixed archive projected by each engine (two copies)."""
    local = Archive(shutil.copytree(mixed, tmp_path_factory.mktemp("local") / "archive"))
    remote = Archive(shutil.copytree(mixed, tmp_path_factory.mktemp("spark") / "archive"))
    sliced = SparkProjectOptions(games_per_slice=7)  # several slices per task, as with big groups
    return local, project(local, workers=2), remote, project_spark(remote, spark, options=sliced)


def test_spark_derives_the_local_engines_rows_for_every_kind(both) -> None:
    local, local_result, remote, result = both
    expected = digests(local)
    assert {k.split("/")[0] for k in expected} == {g.kind for g in KINDS}
    assert digests(remote) == expected
    assert (result.games, result.live, result.rows) == (local_result.games, local_result.live, local_result.rows)
    assert result.games == len(KINDS) * 36 + 1 and result.live == len(KINDS)
    assert check_derived(remote) == []  # every part recorded with its true size and sha256
    assert not [p for p in derived_dir(remote, "pig").parent.rglob(".staging-*")]


def test_a_game_that_cannot_be_projected_is_skipped_and_named_as_locally(both) -> None:
    _, local_result, _, result = both
    assert result.skipped == local_result.skipped
    assert list(result.skipped) == ["wd-bad"] and "start.seats" in result.skipped["wd-bad"]


def test_a_second_run_projects_only_what_is_new(both, spark) -> None:
    _, _, remote, first = both
    before = digests(remote)
    again = project_spark(remote, spark)
    assert (again.games, again.already, again.live) == (0, first.games, first.live)
    assert digests(remote) == before  # live parts replaced by the same rows, finished parts untouched
    extra = PIG.bots.simulate("pig-late", ["Ana", "Ben"], 3, PIG.bots.default, PIG.pack())
    remote.append("pig-late", extra, NEW_STREAM)
    assert project_spark(remote, spark, [PIG]).games == 1



def test_events_stored_at_an_old_version_are_upcast_as_locally(tmp_path, spark) -> None:
    """A file written when Pig's die_rolled was at version 1, beside one at today's layout: Spark reads
    both (their columns differ) and the tasks upcast as the local engine does."""
    from test_upcast_archive import OLD_PIG, _as_v1

    from replay.registry import GameRegistry

    old_registry = GameRegistry(load_entry_points=False)
    old_registry.register(OLD_PIG)
    old = Archive.init(tmp_path / "source", registry=old_registry)
    for i in range(3):
        old.append(f"old{i}", _as_v1(pig_game(f"old{i}", seed=i)), NEW_STREAM)
    today = Archive(tmp_path / "source")
    today.append("new", pig_game("new", seed=9), NEW_STREAM)
    local = Archive(shutil.copytree(today.root, tmp_path / "local"))
    remote = Archive(shutil.copytree(today.root, tmp_path / "spark"))
    expected = project(local, [PIG])
    result = project_spark(remote, spark, [PIG])
    assert expected.games == result.games == 4 and not result.skipped
    assert digests(remote) == digests(local)


@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_a_damaged_event_file_loses_its_games_only_as_locally(tmp_path, spark, damage) -> None:
    archive = Archive.init(tmp_path / "source")
    simulate_games(PIG, archive, 5, (2, 4), (), seed=1)
    simulate_games(PIG, archive, 4, (2, 4), (), seed=2)
    target = sorted((archive.root / "data").rglob("*.parquet"))[0]
    if damage == "flip":
        flip_in_data_page(target)
    else:
        target.write_bytes(target.read_bytes()[:-200])
    relative = str(target.relative_to(archive.root))
    local = Archive(shutil.copytree(archive.root, tmp_path / "local"))
    remote = Archive(shutil.copytree(archive.root, tmp_path / "spark"))
    expected = project(local)
    result = project_spark(remote, spark)
    assert sorted(result.skipped) == sorted(expected.skipped) and len(result.skipped) == 5
    assert all(why.startswith(relative) for why in result.skipped.values())
    assert digests(remote, reasons=False) == digests(local, reasons=False)  # each engine says why in its words
    assert result.games == 4 and check_derived(remote) == []


def test_the_cli_projects_with_spark(tmp_path, spark) -> None:
    archive = Archive.init(tmp_path / "archive")
    simulate_games(PIG, archive, 3, (2, 2), (), seed=5)
    done = CliRunner().invoke(cli, ["project", "-a", str(archive.root), "--engine", "spark"])
    assert done.exit_code == 0, done.output
    assert "projected 3 new games" in done.output


def test_without_java_the_spark_engine_is_one_clear_error(tmp_path) -> None:
    Archive.init(tmp_path / "archive")
    env = {**os.environ, "PATH": "/nonexistent", "JAVA_HOME": "/nonexistent"}
    done = subprocess.run([sys.executable, "-m", "replay", "project", "-a", str(tmp_path / "archive"), "--engine", "spark"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert ("Java" in done.stderr or "pyspark" in done.stderr) and len(done.stderr.strip().splitlines()) == 1


def test_spark_options_need_the_spark_engine(tmp_path) -> None:
    Archive.init(tmp_path / "archive")
    done = CliRunner().invoke(cli, ["project", "-a", str(tmp_path / "archive"), "--spark-conf", "a=b"])
    assert done.exit_code == 2 and "--engine spark" in done.output


def test_a_staging_folder_left_by_a_crashed_run_is_removed(tmp_path) -> None:
    archive = Archive.init(tmp_path / "archive")
    simulate_games(PIG, archive, 2, (2, 2), (), seed=5)
    left = derived_dir(archive, "pig") / ".staging-0123456789ab" / "games"
    left.mkdir(parents=True)
    (left / "part-x.parquet").write_bytes(b"half")
    assert project(archive).games == 2
    assert not left.parent.exists() and check_derived(archive) == []


def test_groups_fill_the_cores_and_stay_bounded() -> None:
    options = SparkProjectOptions(games_per_group=100)
    assert groups_for(0, 8, options) == 0
    assert groups_for(3, 8, options) == 3  # never an empty group
    assert groups_for(50, 8, options) == 8
    assert groups_for(10_000, 8, options) == 100
    assert groups_for(10_000, 8, SparkProjectOptions(games_per_group=100, min_groups=400)) == 400


def test_the_file_for_spark_submit_runs_the_command_as_a_script(tmp_path) -> None:
    import replay.cli.spark_submit as submit

    done = subprocess.run([sys.executable, submit.__file__, "project", "--help"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "--engine [local|spark]" in done.stdout
