"""7 Wonders Dice (Antoine Bauza; Repos Production): rules data, projector, bots."""

from replay.plugin import GamePlugin

from .bots import BOTS
from .events import EVENT_TYPES, KIND, GameStarted, game_started_v1_to_v2
from . import notation, views
from .audit import audit
from .explain import headline
from .projector import RulesetLibrary, fold, states
from .render import render, show
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
    states=lambda events, rulesets=(): states(events, RulesetLibrary(rulesets) if rulesets else None),
    state_dict=lambda state: state.to_dict(),
    show=show,
    headline=headline,
    audit=audit,
    read_notation=notation.read,
    write_notation=notation.write,
    derive=views.derive,
    derived_schemas=views.SCHEMAS,
    reference_tables=views.reference_tables,
)

__all__ = ["PLUGIN", "fold", "simulate_game"]
