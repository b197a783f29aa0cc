"""7 Wonders Dice (Antoine Bauza; Repos Production): rules data, rules, views, notation,
derived tables and bots, on the game contract."""

from replay.contract import Game

from .analytics import WondersDiceAnalytics
from .events import EVENT_TYPES, KIND, GameStarted, game_started_v1_to_v2, game_started_v2_to_v3
from .notation import WondersDiceNotation
from .rules import WondersDiceRules
from .rules_data import Ruleset
from .simulate import WondersDiceBots, simulate_game
from .state import GameState
from .views import WondersDiceViews


class WondersDice(Game[GameState, Ruleset]):
    kind = KIND
    title = "7 Wonders Dice"
    players = (2, 7)
    event_types = EVENT_TYPES
    start_type = GameStarted
    end_types = frozenset({"game_ended"})
    upcasters = (game_started_v1_to_v2, game_started_v2_to_v3)
    pack_model = Ruleset
    default_pack = "7wd-default"

    rules = WondersDiceRules()
    views = WondersDiceViews()
    notation = WondersDiceNotation()
    analytics = WondersDiceAnalytics()
    bots = WondersDiceBots()


GAME = WondersDice()

__all__ = ["GAME", "WondersDice", "simulate_game"]
