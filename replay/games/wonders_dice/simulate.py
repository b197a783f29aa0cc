"""Seeded games between bots. Every chance outcome (faces, sections, which grey die a
special die replaces, the cities dealt) is drawn here and recorded as an event, so the
projector never draws a number; the same seed gives byte-identical events."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

from replay.contract import Bots
from replay.driver import Replay
from replay.errors import ReplayError
from replay.events import Event
from replay.gcpause import gc_paused

from . import cbots, compiled
from .bots import BOTS, PLAIN, GreedyBot, RandomBot, below
from .engine import _PASS, Chooser, Outcome, StepKey, board_tables, candidate_ok, fail_for, resolve, resolve_chosen
from .events import KIND
from .kernel import direct_action
from .projector import _done, _start_turn, act, apply_trusted, finish_actions
from .rules_data import Options, Ruleset, default_ruleset
from .scoring import final_scores
from .state import GameState

MAX_TURNS = 200

new_event = tuple.__new__
"""``new_event(Event, fields)`` is ``Event(*fields)`` without the named tuple's Python ``__new__`` (a game makes
~260 events: the frame is a measurable share of them)."""


def _step_dict(s: StepKey) -> dict[str, Any]:
    return {"kind": s.kind, "die": s.die, "building": s.building, "lane": s.lane, "space": s.space, "slot": s.slot}


@gc_paused()  # many small objects and no cycles: reference counting frees them all (replay/gcpause.py)
def simulate_game(
    game_id: str,
    names: Sequence[str],
    seed: int,
    bots: Sequence[str] = ("greedy",),
    ruleset: Ruleset | None = None,
    options: Options | None = None,
) -> list[Event]:
    """One complete game. ``bots`` is cycled over the seats (e.g. ``("greedy", "random")``)."""
    rules = ruleset or default_ruleset()
    opts = options or rules.options
    for b in bots:
        if b not in BOTS:
            raise ReplayError(f"unknown bot {b!r} (choose from {', '.join(BOTS)})")
    from . import GAME

    rng = random.Random(seed)
    n = len(names)
    if n > len(rules.city):
        raise ReplayError(
            f"pack {rules.id} {rules.version} has {len(rules.city)} cities, too few for {n} players (each player needs their own)"
        )
    cities = rng.sample(sorted(rules.city), n)
    seat_bots = [bots[i % len(bots)] for i in range(n)]
    events: list[Event] = []
    replay: Replay[GameState] = Replay(GAME, GAME.library(extra=[rules]), level="raise")

    def emit(type_: str, version: int, payload: dict[str, Any]) -> Event:
        e = new_event(Event, (game_id, len(events), KIND, type_, version, payload))
        events.append(e)
        return e

    replay.push(emit("game_started", 3, {
        "ruleset": {"id": rules.id, "version": rules.version, "content_hash": rules.content_hash},
        "seats": [{"seat": i, "name": names[i], "city": cities[i]} for i in range(n)],
        "provenance": {"source": "simulated", "detail": f"seed={seed} bots={','.join(seat_bots)}"},
        "options": opts.model_dump(mode="json"),
        "tags": {},
    }))
    state = replay.state
    assert state is not None
    choosers: list[Chooser] = [
        GreedyBot(rng, state, i) if b == "greedy" else RandomBot(rng) for i, b in enumerate(seat_bots)
    ]
    sections = len(rules.start.forum_sections)
    faces = rules.sides
    draw = below(rng)  # rng.randrange(n), and rng.choice(seq) is seq[draw(len(seq))]: the same numbers, fewer calls
    roll_dice, getrandbits = cbots.ROLL, rng.getrandbits  # the roll drawn by draw's loop, in C (rng is the standard generator)
    two_phase = opts.resolution == "two_phase"
    no_second = Outcome(0, 0, [])
    players = state.players
    # The main action of a plain random or greedy bot is chosen without its prompt (the same
    # candidates, draws and pick: the bot's ``main``) and, when it asks nothing further, applied by
    # the fused kernel; otherwise the resolver applies it and asks the bot the follow-ups without
    # prompts too (``resolve_chosen``: the bot's ``extra``, ``cross``, ``bonus``).
    fast: list[RandomBot | GreedyBot | None] = [
        c if not two_phase and isinstance(c, PLAIN) and type(c) in PLAIN else None for c in choosers  # (not a subclass)
    ]
    tables = [board_tables(rules, pl.board) for pl in players]
    trusted = compiled.TRUSTED  # the compiled direct_action(trusted=True) where built: None declines to the Python
    # The turn's start and usual end in the kernel (_start_turn, and apply_trusted's turn_ended as the fold's
    # step ends a turn); either declines to the Python (an Agora to settle, once a game).
    start_turn, end_turn = compiled.START_TURN, compiled.TURN_END
    # A random bot with the standard generator chooses its main action by one compiled call with every
    # argument fixed for the game (the table, its player and board are the same objects throughout):
    # RandomBot.main's own fast path, without its Python frame. With the compiled action too, the whole
    # action is one call (cbots.RANDOM_ACTION: chosen, applied, its event appended, the seat done), the
    # questions its step asks answered in the kernel as the bot answers them (compiled.bot_answers), unless
    # the kernel leaves them to the resolver (a Guild Court, a table an earlier effect left unsure: about one
    # such action in fifteen), when it gives the step back, no draw made for the answers yet.
    random_main, random_action = cbots.RANDOM_MAIN, cbots.RANDOM_ACTION
    mains: list[Callable[[], StepKey | None] | None] = [None] * n
    acts: list[Callable[[int], dict[str, int] | StepKey] | None] = [None] * n
    for i, plain in enumerate(fast):
        if random_main is not None and type(plain) is RandomBot and isinstance(plain, RandomBot) and plain.getrandbits:
            mains[i] = partial(random_main, plain.getrandbits, _PASS, tables[i], state, players[i], candidate_ok)
            if random_action is not None and trusted is not None:
                acts[i] = partial(random_action, plain.getrandbits, _PASS, tables[i], state, players[i], candidate_ok, trusted, i,
                                  _done, events, Event, game_id, KIND)
    claims: list[dict[str, int]] = [{} for _ in range(n)]  # each seat's claims this turn, their coins filled in at its end
    # Every event is made from choices checked as they were made (each bot answers only what its
    # prompt allows), so it is applied trusted, as Rules.apply_trusted would: the rolls, swaps and
    # ends of turns without their checks; the actions are resolved on the table as they are chosen.
    # The driver is not needed past the start (nobody observes a simulation's steps).
    while state.phase != "over":
        if state.turn >= MAX_TURNS:
            raise ReplayError(f"game {game_id} did not end within {MAX_TURNS} turns (seed {seed})")
        turn = state.turn + 1
        if roll_dice is not None:  # the same draws and dicts, in C
            dice, roll = roll_dice(getrandbits, state.forum, faces, sections)
        else:
            dice = []
            roll = {}
            for d, c in state.forum.items():
                shown = faces[c]
                face = shown[draw(len(shown))]
                section = draw(sections)
                dice.append({"id": d, "colour": c, "face": face, "section": section})
                roll[d] = (face, section)
        state.seq = emit("dice_rolled", 1, {"turn": turn, "dice": dice}).seq
        if start_turn is None or start_turn(state, roll, turn) is None:
            _start_turn(state, roll, turn)
        # the bots' choices are resolved on the table as they are made: the events record them
        if two_phase:
            firsts = [act(state, seat, turn, choosers[seat], fail_for(state, events[-1], seat)) for seat in range(n)]
            seconds = finish_actions(state, dict(enumerate(choosers)))[1]  # every seat's follow-ups
            for seat, first in enumerate(firsts):
                second = seconds.get(seat, no_second)
                steps = first.steps + second.steps if second.steps else first.steps
                state.seq = emit("action_taken", 1, {
                    "turn": turn, "player": seat, "steps": [_step_dict(s) for s in steps],
                    "claims": {"paid": first.paid + second.paid, "vp": first.vp + second.vp, "coins": players[seat].coins},
                }).seq
        else:
            # Each action's event is made as the action is resolved (the events of a turn's actions
            # follow its roll, in seat order, nothing between them); its claimed coins are what the
            # player holds once every seat has acted (a later seat's action may change them), so
            # they are filled in then, in place (the key's place in the dict is kept).
            for seat in range(n):
                bot, act_now = fast[seat], acts[seat]
                done: tuple[int, int] | None = None
                if act_now is not None:  # a random bot's action in one compiled call
                    done_or_step = act_now(turn)
                    if type(done_or_step) is dict:  # applied, its event appended, the seat done: its claims
                        claims[seat] = done_or_step
                        continue
                    step = cast(StepKey, done_or_step)  # a question to ask: the resolver, below
                elif bot is not None:
                    choose = mains[seat]  # a random bot's main action in one compiled call, or its main
                    found = choose() if choose is not None else bot.main(state, players[seat], tables[seat])
                    if found is None:
                        raise AssertionError("a main prompt with no legal answer")  # pass is always legal
                    step = found
                    as_dict = _step_dict(step)  # the event's step, and what the kernel reads
                    if trusted is not None:  # compiled: declines what direct_action declines, and odd values
                        done = trusted(state, seat, as_dict)  # (the resolver takes them: no second try)
                    else:
                        done = direct_action(state, seat, as_dict, trusted=True)
                if done is not None:
                    logged = [as_dict]
                    claims[seat] = claim = {"paid": done[0], "vp": done[1], "coins": 0}
                else:  # another chooser, asked through its prompts; or a question: the bot asked without prompts
                    first = resolve(state, seat, choosers[seat]) if bot is None else resolve_chosen(state, seat, bot, step)
                    logged = [_step_dict(s) for s in first.steps]
                    claims[seat] = claim = {"paid": first.paid, "vp": first.vp, "coins": 0}
                events.append(new_event(Event, (game_id, len(events), KIND, "action_taken", 1,
                                                {"turn": turn, "player": seat, "steps": logged, "claims": claim})))
                _done(state, seat)
            for seat in range(n):
                claims[seat]["coins"] = players[seat].coins
            state.seq = len(events) - 1
        for die in list(state.pending_swaps):
            greys = [d for d, c in state.forum.items() if c == "grey"]
            apply_trusted(state, emit("special_die_swapped", 1, {"turn": turn, "die": die, "replaces": rng.choice(greys)}))
        ended = emit("turn_ended", 1, {"turn": turn})
        if end_turn is not None and end_turn(state, ended.payload) is not None:
            state.seq = ended.seq
        else:  # an Agora to settle (once a game), or the pure-Python code
            apply_trusted(state, ended)
    # The end applied as apply_trusted applies it, with the scores the event carries rather than counted
    # again (the state is this function's own, dropped on return: nobody sees the dict shared).
    scores = final_scores(state)
    state.seq = emit("game_ended", 1, scores).seq
    state.result = scores
    state.phase = "ended"
    return events


class WondersDiceBots(Bots):
    names = BOTS
    default = ("greedy", "random")

    def simulate(self, game_id: str, names: Sequence[str], seed: int, bots: Sequence[str], pack: Any) -> list[Event]:
        return simulate_game(game_id, names, seed, bots, pack)
