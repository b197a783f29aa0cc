"""Pig: the reference plug-in.

A tiny, fully specified dice game that exercises every part of the plug-in
interface (typed events, a ruleset pin, an upcaster, a checking fold) so the core
can be built and tested before the real games arrive.
"""

from replay.plugin import GamePlugin

from . import rules
from .events import DieRolled, GameEnded, GameStarted, Held, die_rolled_v1_to_v2
from .simulate import BOTS, KIND, simulate_game

PLUGIN = GamePlugin(
    kind=KIND,
    title="Pig (reference dice game)",
    event_types=(GameStarted, DieRolled, Held, GameEnded),
    start_type=GameStarted,
    end_types=frozenset({"game_ended"}),
    upcasters=(die_rolled_v1_to_v2,),
    fold=rules.fold,
    render=rules.render,
    simulate=simulate_game,
    bots=BOTS,
    rulesets=lambda: {"pig-standard": rules.standard_ruleset()},
    load_ruleset=rules.load_ruleset,
)

__all__ = ["PLUGIN", "simulate_game"]
