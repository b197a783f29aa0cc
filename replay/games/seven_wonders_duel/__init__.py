"""7 Wonders Duel (Antoine Bauza, Bruno Cathala; Repos Production), the base game, on the game contract.

The Wonder draft, the three Ages' structures with their face-down cards turned up as they are
uncovered, every payment checked (own resources, choice producers, discounts, resources bought
from the bank at the opponent's prices, chains), the military track with its looting tokens,
progress tokens, the Wonders' powers, supremacy wins and the civilian count; legal plays with every
payment, bots and seeded simulations (docs/games/7-wonders-duel.md), a notation (docs/notation.md),
derived tables and named queries (docs/analytics.md). The pack (:mod:`.pack`, data
in ``rulesets/``, docs/games/7-wonders-duel-data.md) also holds the Pantheon and Agora expansions,
whose rules are implemented (:mod:`.pantheon`, :mod:`.agora`): packs ``7wd-duel-pantheon`` and
``7wd-duel-agora``, and both together (``7wd-duel-pantheon-agora``, their interactions ruled in
docs/games/7-wonders-duel.md, "Pantheon and Agora together").
"""

from replay.contract import Game

from .analytics import DuelAnalytics
from .events import EVENT_TYPES, KIND, GameStarted
from .notation import DuelNotation
from .pack import DuelPack
from .rules import DuelRules
from .simulate import DuelBots, simulate_game
from .state import State
from .views import DuelViews


class SevenWondersDuel(Game[State, DuelPack]):
    kind = KIND
    title = "7 Wonders Duel"
    players = (2, 2)
    event_types = EVENT_TYPES
    start_type = GameStarted
    end_types = frozenset({"game_ended"})
    pack_model = DuelPack
    default_pack = "7wd-duel-base"
    offered_packs = ("7wd-duel-base", "7wd-duel-pantheon", "7wd-duel-agora", "7wd-duel-pantheon-agora")

    rules = DuelRules()
    views = DuelViews()
    notation = DuelNotation()
    analytics = DuelAnalytics()
    bots = DuelBots()


GAME = SevenWondersDuel()

__all__ = ["GAME", "SevenWondersDuel", "simulate_game"]
