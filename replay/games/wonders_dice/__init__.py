"""7 Wonders Dice (Antoine Bauza; Repos Production): rules data, projector, bots."""

from replay.plugin import GamePlugin

from .events import EVENT_TYPES, KIND, GameStarted
from .projector import fold
from .render import render
from .simulate import simulate_game

PLUGIN = GamePlugin(
    kind=KIND,
    title="7 Wonders Dice",
    event_types=EVENT_TYPES,
    start_type=GameStarted,
    end_types=frozenset({"game_ended"}),
    fold=fold,
    render=render,
    simulate=lambda game_id, names, seed: simulate_game(game_id, names, seed, bots=("greedy", "random")),
)

__all__ = ["PLUGIN", "fold", "simulate_game"]
