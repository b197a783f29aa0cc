"""St. Petersburg (Bernd Brunnhofer; Hans im Glück): rounds of four phases in which players buy workers,
buildings, aristocrats and trading cards, on the game contract.

Rules with rule ids and claims, views that hide the hands, bots and seeded simulation, a notation,
derived tables and named queries. Card facts come from the public BGA implementation
(marcuda/bga-saintpetersburg); docs/games/st-petersburg.md gives the sources and every ruling.
"""

from replay.contract import Game

from .analytics import StPeteAnalytics
from .events import EVENT_TYPES, KIND, GameStarted
from .notation import StPeteNotation
from .pack import StPetePack
from .rules import StPeteRules
from .simulate import StPeteBots, simulate_game
from .state import State
from .views import StPeteViews


class StPetersburg(Game[State, StPetePack]):
    kind = KIND
    title = "St. Petersburg"
    players = (2, 4)
    event_types = EVENT_TYPES
    start_type = GameStarted
    end_types = frozenset({"game_ended"})
    pack_model = StPetePack
    default_pack = "stpete-base"

    rules = StPeteRules()
    views = StPeteViews()
    notation = StPeteNotation()
    analytics = StPeteAnalytics()
    bots = StPeteBots()


GAME = StPetersburg()

__all__ = ["GAME", "StPetersburg", "simulate_game"]
