"""7 Wonders Dice (Antoine Bauza; Repos Production): rules data, projector, bots."""

from replay.plugin import GamePlugin

from .bots import BOTS
from .events import EVENT_TYPES, KIND, GameStarted, game_started_v1_to_v2
from .projector import fold
from .render import render
from .rules_data import load_ruleset, shipped_rulesets
from .simulate import simulate_game

PLUGIN = GamePlugin(
    kind=KIND,
    title="7 Wonders Dice",
    event_types=EVENT_TYPES,
    start_type=GameStarted,
    end_types=frozenset({"game_ended"}),
    upcasters=(game_started_v1_to_v2,),
    fold=fold,
    render=render,
    simulate=simulate_game,
    bots=BOTS,
    rulesets=shipped_rulesets,
    load_ruleset=load_ruleset,
)

__all__ = ["PLUGIN", "fold", "simulate_game"]
