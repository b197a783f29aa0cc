"""7 Wonders (Antoine Bauza; Repos Production): the card-drafting game, on the game contract.

Rules with every payment checked (own resources, choice cards, purchases from neighbours at their
prices), views that hide the other hands and the discard pile, legal plays with every payment,
bots and seeded simulations (docs/games/7-wonders.md), derived tables and named queries (docs/analytics.md).
"""

from replay.contract import Game

from .analytics import SevenWondersAnalytics
from .events import EVENT_TYPES, KIND, GameStarted
from .notation import SevenWondersNotation
from .pack import SevenWondersPack
from .rules import SevenWondersRules
from .simulate import SevenWondersBots, simulate_game
from .state import State
from .views import SevenWondersViews


class SevenWonders(Game[State, SevenWondersPack]):
    kind = KIND
    title = "7 Wonders"
    players = (3, 7)
    event_types = EVENT_TYPES
    start_type = GameStarted
    end_types = frozenset({"game_ended"})
    pack_model = SevenWondersPack
    default_pack = "7w-base"

    rules = SevenWondersRules()
    views = SevenWondersViews()
    notation = SevenWondersNotation()
    analytics = SevenWondersAnalytics()
    bots = SevenWondersBots()


GAME = SevenWonders()

__all__ = ["GAME", "SevenWonders", "simulate_game"]
