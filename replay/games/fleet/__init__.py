"""Fleet (Ben Pinchback, Matt Riddle; Eagle-Gryphon Games), with the Gone Fishin' cards as an option,
on the game contract.

Rules, views (hidden hands), bots and seeded simulation; chance is recorded as it becomes known
(licenses removed, both decks' orders, every card drawn). docs/games/fleet.md lists the sources,
the rulings and the rule ids.
"""

from replay.contract import Game

from .analytics import FleetAnalytics
from .events import EVENT_TYPES, KIND, GameStarted
from .notation import FleetNotation
from .pack import FleetPack
from .rules import FleetRules
from .simulate import FleetBots, simulate_game
from .state import State
from .views import FleetViews


class Fleet(Game[State, FleetPack]):
    kind = KIND
    title = "Fleet"
    players = (2, 4)
    event_types = EVENT_TYPES
    start_type = GameStarted
    end_types = frozenset({"game_ended"})
    pack_model = FleetPack
    default_pack = "fleet-base"
    offered_packs = ("fleet-base", "fleet-gone-fishin")

    rules = FleetRules()
    views = FleetViews()
    notation = FleetNotation()
    analytics = FleetAnalytics()
    bots = FleetBots()


GAME = Fleet()

__all__ = ["GAME", "Fleet", "simulate_game"]
