"""The game contract: what is checked when a game is defined, how games are found, what a
game that offers less says, and the defaults a game gets for free."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from replay.contract import Game, Rules, Views
from replay.errors import NotOffered, PluginError, RuleViolation, UnknownGameKind, UpcastError
from replay.events import Event, EventPayload, GameStartedBase, upcaster
from replay.games.pig.events import DieRolled, DieRolledV1, GameStarted, die_rolled_v1_to_v2
from replay.packs import RulesPack
from replay.problems import Location, Problem
from replay.registry import GameRegistry, registry

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


def test_nothing_imports_the_cli_but_the_cli():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts[0] == "cli" or path.name == "__main__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and "cli" in node.module.split("."):
                offenders.append(str(path.relative_to(PACKAGE)))
    assert offenders == []


def test_games_are_found_by_entry_point():
    assert {"pig", "7wonders-dice"} <= set(registry.kinds())
    assert registry.get("pig").start_type is GameStarted


def test_unknown_kind_lists_what_is_installed():
    with pytest.raises(UnknownGameKind, match=r"unknown game kind 'chess' \(installed: .*pig"):
        registry.get("chess")


# ----------------------------------------------------------------------------- a minimal game


class Start(GameStartedBase):
    event_type = "start"


class Moved(EventPayload):
    event_type = "moved"
    player: int


class Seq(EventPayload):
    event_type = "seq"


class CounterPack(RulesPack):
    limit: int = 3


@dataclass
class Counter:
    moves: list[int]


class CounterRules(Rules[Counter, CounterPack]):
    def start(self, event, pack):
        return Counter([])

    def apply(self, state, event):
        if event.payload["player"] != len(state.moves) % 2:
            raise RuleViolation(Problem("counter.turn", "Seats alternate.", "the other seat", "this one",
                                        Location(seq=event.seq)))
        state.moves.append(event.payload["player"])
        return []

    def is_over(self, state):
        return len(state.moves) >= 3

    def snapshot(self, state):
        return {"moves": list(state.moves)}

    def restore(self, data, pack):
        return Counter(list(data["moves"]))


class CounterViews(Views[Counter]):
    def data(self, state):
        return {"moves": state.moves}


class CounterGame(Game[Counter, CounterPack]):
    """A game that offers only what it must: rules and views."""

    kind = "counter"
    title = "Counter"
    players = (2, 2)
    event_types = (Start, Moved)
    start_type = Start
    end_types = frozenset()
    pack_model = CounterPack
    default_pack = "counter"
    rules = CounterRules()
    views = CounterViews()


def test_a_game_that_offers_less_says_so_in_one_sentence():
    game = CounterGame()
    assert game.offers() == ["rules", "views"]
    for part, sentence in (("notation", "Counter has no notation"), ("bots", "Counter has no bots"),
                           ("analytics", "Counter has no derived tables")):
        with pytest.raises(NotOffered, match=sentence):
            game.require(part)


def test_a_game_gets_sensible_defaults_for_what_it_does_not_override():
    game = CounterGame()
    pack = CounterPack(id="counter", version="1", title="c")
    start = Event("c1", 0, "counter", "start", 1, {"ruleset": pack.pin.model_dump(), "seats": [
        {"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Ben"}], "provenance": {"source": "typed", "detail": ""}})
    from replay.driver import replay

    moves = [Event("c1", i, "counter", "moved", 1, {"player": p}) for i, p in enumerate([0, 0, 1], start=1)]
    r = replay(game, [start, *moves], game.library(extra=[pack]))
    assert [p.rule_id for p in r.problems] == ["counter.turn"]  # the second move is refused, the game goes on
    assert r.state.moves == [0, 1]
    assert game.views.observe(r.state, 0) == game.views.data(r.state)  # nothing hidden by default
    assert game.views.result(r.state) is None
    assert "moves" in game.views.show(r.state)
    assert game.views.headline(moves[0], r.names) == "moved: player 0"
    assert r.problems[0].explanation == "the table: expected the other seat, found this one"
    assert game.rules.position(r.state, moves[0]).turn is None


@pytest.mark.parametrize(
    "attrs, message",
    [
        (dict(kind="Bad Kind"), "lowercase"),
        (dict(event_types=(Start, Seq)), "clashes with an envelope column"),
        (dict(event_types=(Start, DieRolled, DieRolledV1)), "declared twice"),
        (dict(event_types=(Start, DieRolled)), "no upcaster from version 1"),
        (dict(event_types=(Start, DieRolledV1), upcasters=(die_rolled_v1_to_v2,)), "leads nowhere"),
        (dict(end_types=frozenset({"finish"})), "not event types"),
        (dict(start_type=GameStarted), "not among the event types"),
        (dict(players=(3, 2)), "not a range of seats"),
        (dict(pack_model=dict), "must subclass replay.packs.RulesPack"),
        (dict(views=object()), "views must be a Views"),
    ],
)
def test_the_contract_is_checked_when_a_game_is_made(attrs, message):
    broken = type("Broken", (CounterGame,), attrs)
    with pytest.raises(PluginError, match=message):
        broken()


def test_two_games_cannot_claim_one_kind():
    reg = GameRegistry(load_entry_points=False)
    reg.register(CounterGame())
    with pytest.raises(PluginError, match="two games claim"):
        reg.register(CounterGame())


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

    game = type("Rolls", (CounterGame,), dict(event_types=(Start, V3), upcasters=(roll_v1_to_v2, roll_v2_to_v3)))()
    assert game.upcast("roll", 1, {"v": 4}) == {"face": 4}
    assert game.upcast("roll", 2, {"value": 5}) == {"face": 5}
    assert game.upcast("roll", 3, {"face": 6}) == {"face": 6}
    with pytest.raises(UpcastError, match="newer than this tool knows"):
        game.upcast("roll", 4, {})


def test_pig_die_rolled_v1_upcasts_to_v2():
    assert die_rolled_v1_to_v2.function({"seat": 1, "value": 5}) == {"player": 1, "face": 5}
    assert registry.get("pig").upcast("die_rolled", 1, {"seat": 1, "value": 5}) == {"player": 1, "face": 5}


def test_kinds_lists_what_each_game_offers():
    out = CliRunner().invoke(registry_cli(), ["kinds", "--format", "json"]).output
    import json

    kinds = {k["kind"]: k for k in json.loads(out)}
    assert kinds["pig"]["offers"] == ["rules", "views", "notation", "analytics", "bots"]
    assert kinds["7wonders-dice"]["sql schema"] == "wonders_dice"


def registry_cli():
    from replay.cli.main import cli

    return cli
