"""Release hygiene: one version, the distribution's name, the licence, package data for every game.

The built wheel itself is installed and run by `.ci/wheel` (after the tests, in CI)."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

from click.testing import CliRunner

import replay
from replay.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PACKAGE_DATA = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]


def test_the_version_is_written_once_and_replay_version_prints_it() -> None:
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert importlib.metadata.version(PROJECT["name"]) == replay.__version__
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0 and replay.__version__ in result.output


def test_the_distribution_name_is_ours_and_the_command_is_replay() -> None:
    assert PROJECT["name"] == "boardgame-replay"  # "replay" on the registry is another project
    assert PROJECT["scripts"] == {"replay": "replay.cli.main:cli"}
    readme = (ROOT / "README.md").read_text()
    assert "pip install boardgame-replay" in readme.split("## ")[0]  # in the README's opening


def test_the_licence_is_declared_and_shipped() -> None:
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_every_game_ships_its_packs_and_queries() -> None:
    """A game whose rulesets/ or queries/ folder is not in the package data would work from a
    checkout and fail from the wheel."""
    for folder in sorted((ROOT / "replay" / "games").iterdir()):
        if not (folder / "__init__.py").is_file():
            continue
        patterns = PACKAGE_DATA.get(f"replay.games.{folder.name}", [])
        for data in ("rulesets", "queries"):
            if (folder / data).is_dir() and any((folder / data).iterdir()):
                suffix = ".json" if data == "rulesets" else ".sql"
                assert f"{data}/*{suffix}" in patterns, f"{folder.name}: {data}/ is not in the package data"


def test_the_changelog_has_a_section_for_this_version() -> None:
    base = replay.__version__.split(".dev")[0]
    assert f"## {base}" in (ROOT / "CHANGELOG.md").read_text()
