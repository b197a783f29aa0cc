"""Flip 7 (Eric Olsen; The Op Games): a push-your-luck card game of 94 cards, on the game contract.

Rules, views, notation, derived tables and bots; chance is recorded as whole shuffled decks (``deck_shuffled``) and every
card drawn is checked against the top of the pile (docs/games/flip-7.md).
"""

from replay.contract import Game

from .analytics import Flip7Analytics
from .events import EVENT_TYPES, KIND, GameStarted
from .notation import Flip7Notation
from .pack import Flip7Pack
from .rules import Flip7Rules
from .simulate import Flip7Bots, simulate_game
from .state import State
from .views import Flip7Views


class Flip7(Game[State, Flip7Pack]):
    kind = KIND
    title = "Flip 7"
    players = (3, 18)
    event_types = EVENT_TYPES
    start_type = GameStarted
    end_types = frozenset({"game_ended"})
    pack_model = Flip7Pack
    default_pack = "flip7-standard"

    rules = Flip7Rules()
    views = Flip7Views()
    notation = Flip7Notation()
    analytics = Flip7Analytics()
    bots = Flip7Bots()


GAME = Flip7()

__all__ = ["GAME", "Flip7", "simulate_game"]
