"""Pig: the reference game.

A tiny, fully specified dice game that implements every part of the game
contract (rules, views, notation, derived tables, bots, an upcaster), so the
core is exercised by something small before the real games, and a new game has
a complete example to copy (docs/plugins.md).
"""

from replay.contract import Game

from .analytics import PigAnalytics
from .events import DieRolled, GameEnded, GameStarted, Held, die_rolled_v1_to_v2
from .notation import PigNotation
from .rules import PigPack, PigRules, PigState
from .simulate import KIND, PigBots, simulate_game
from .views import PigViews


class Pig(Game[PigState, PigPack]):
    kind = KIND
    title = "Pig"
    players = (1, 8)
    event_types = (GameStarted, DieRolled, Held, GameEnded)
    start_type = GameStarted
    end_types = frozenset({"game_ended"})
    upcasters = (die_rolled_v1_to_v2,)
    pack_model = PigPack
    default_pack = "pig-standard"

    rules = PigRules()
    views = PigViews()
    notation = PigNotation()
    analytics = PigAnalytics()
    bots = PigBots()


GAME = Pig()

__all__ = ["GAME", "Pig", "simulate_game"]
