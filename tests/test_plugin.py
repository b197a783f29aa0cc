from __future__ import annotations

import ast
from pathlib import Path

import pytest

from replay.errors import PluginError, UnknownGameKind, UpcastError
from replay.events import EventPayload, GameStartedBase
from replay.games.pig.events import DieRolled, DieRolledV1, GameStarted, die_rolled_v1_to_v2
from replay.plugin import GamePlugin, PluginRegistry, registry, upcaster

PACKAGE = Path(__file__).parent.parent / "replay"


def test_the_core_imports_no_game():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if "games" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
            offenders += [f"{path.name}: {n}" for n in names if "games" in n.split(".")]
    assert offenders == []


def test_plugins_are_found_by_entry_point():
    assert "pig" in registry.kinds()
    assert registry.get("pig").start_type is GameStarted


def test_unknown_kind_lists_what_is_installed():
    with pytest.raises(UnknownGameKind, match=r"unknown game kind 'chess' \(installed: .*pig"):
        registry.get("chess")


class Start(GameStartedBase):
    event_type = "start"


class Seq(EventPayload):
    event_type = "seq"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(kind="Bad Kind"), "lowercase"),
        (dict(event_types=(Start, Seq)), "clashes with an envelope column"),
        (dict(event_types=(Start, DieRolled, DieRolledV1)), "declared twice"),
        (dict(event_types=(Start, DieRolled)), "no upcaster from version 1"),
        (dict(event_types=(Start, DieRolledV1), upcasters=(die_rolled_v1_to_v2,)), "leads nowhere"),
        (dict(end_types=frozenset({"finish"})), "not event types"),
        (dict(start_type=GameStarted), "not among the event types"),
    ],
)
def test_plugin_contract_is_checked(kwargs, message):
    base = dict(kind="test", title="t", event_types=(Start,), start_type=Start)
    with pytest.raises(PluginError, match=message):
        GamePlugin(**{**base, **kwargs})


def test_two_plugins_cannot_claim_one_kind():
    reg = PluginRegistry(load_entry_points=False)
    reg.register(GamePlugin(kind="x", title="a", event_types=(Start,), start_type=Start))
    with pytest.raises(PluginError, match="two plug-ins"):
        reg.register(GamePlugin(kind="x", title="b", event_types=(Start,), start_type=Start))


def test_upcasters_chain_and_refuse_the_unreadable():
    class V3(EventPayload):
        event_type = "roll"
        version = 3
        face: int

    @upcaster("roll", 1)
    def roll_v1_to_v2(p):
        return {"value": p["v"]}

    @upcaster("roll", 2)
    def roll_v2_to_v3(p):
        return {"face": p["value"]}

    plugin = GamePlugin(kind="t", title="t", event_types=(Start, V3), start_type=Start,
                        upcasters=(roll_v1_to_v2, roll_v2_to_v3))
    assert plugin.upcast("roll", 1, {"v": 4}) == {"face": 4}
    assert plugin.upcast("roll", 2, {"value": 5}) == {"face": 5}
    assert plugin.upcast("roll", 3, {"face": 6}) == {"face": 6}
    with pytest.raises(UpcastError, match="newer than this tool knows"):
        plugin.upcast("roll", 4, {})


def test_pig_die_rolled_v1_upcasts_to_v2():
    assert die_rolled_v1_to_v2.function({"seat": 1, "value": 5}) == {"player": 1, "face": 5}
    assert registry.get("pig").upcast("die_rolled", 1, {"seat": 1, "value": 5}) == {"player": 1, "face": 5}
