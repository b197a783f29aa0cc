"""Folding a 7 Wonders Dice log into states, one event at a time, checking every rule."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from replay.driver import Replay, replay
from replay.errors import ReplayError, RuleViolation
from replay.events import Event
from replay.packs import PackLibrary
from replay.problems import Problem

from . import compiled
from .engine import (
    Chooser,
    Fail,
    FollowUp,
    Outcome,
    StepKey,
    TrustedChooser,
    Void,
    _LogChooser,
    fail_at,
    fail_for,
    new_state,
    resolve,
    resolve_follow_ups,
)
from .kernel import direct_action
from .rules_data import Options, Ruleset
from .scoring import final_scores
from .state import GameState

_OPTIONS: dict[tuple[tuple[str, type, Any], ...], Options] = {}
"""The options validated lately, by their start payload's items (each value with its type: 1 and True
are not the same answer): a frozen model shared by the games that name the same options, rather than
validated again for each (a simulated or projected archive names a handful over thousands of games)."""
_OPTIONS_KEPT = 256


def game_options(given: Any, rules: Ruleset) -> Options:
    """The start payload's ``options`` validated (the pack's own when there are none); ValidationError
    when they are not options."""
    if given is None:
        return rules.options
    try:
        key = tuple((k, type(v), v) for k, v in given.items())
        found = _OPTIONS.get(key)
    except (AttributeError, TypeError):  # not a dict, or a value that cannot be a key: validated each time
        return Options.model_validate(given)
    if found is None:
        found = Options.model_validate(given)
        if len(_OPTIONS) >= _OPTIONS_KEPT:
            _OPTIONS.clear()
        _OPTIONS[key] = found
    return found


def start_state(event: Event, rules: Ruleset) -> GameState:
    """The table after the start event, under the pack it pins; RuleViolation if unplayable."""
    p = event.payload
    options = game_options(p.get("options"), rules)

    def fail(rule_id: str, expected: str, found: str) -> RuleViolation:  # located on an empty table
        empty = new_state(rules, options, [{"seat": -1, "name": "", "city": next(iter(rules.city))}])
        return fail_for(empty, event, None)(rule_id, expected, found)

    seats = sorted(p["seats"], key=lambda s: s["seat"])
    if [s["seat"] for s in seats] != list(range(len(seats))):
        raise fail("start.seats", f"seats 0..{len(seats) - 1}", str([s["seat"] for s in p["seats"]]))
    unknown = [s["city"] for s in seats if s["city"] not in rules.city]
    if unknown:
        raise fail("start.seats", "cities of " + ", ".join(rules.city), ", ".join(unknown))
    if len({s["city"] for s in seats}) != len(seats):
        raise fail("start.seats", "a different city for every player", ", ".join(s["city"] for s in seats))
    state = new_state(rules, options, seats)
    state.seq = event.seq
    return state


def apply(state: GameState, event: Event) -> list[Problem]:
    """Apply one event (after the first) in place; RuleViolation if it is illegal (then nothing
    changed). Returns the claims it writes down wrongly (the rules' values stand)."""
    p = event.payload
    t = event.type
    if t == "action_taken":
        fast = compiled.ACTION
        if fast is not None:  # the compiled kernel: the usual one-step action, or None with nothing changed
            done = fast(state, p)
            if done is not None:
                if type(done) is not list:  # the claims for the Python code to check (as _direct_action does)
                    return checked_claims(state, event, done[0], done[1])
                state.seq = event.seq
                return done  # the claims all right: no problem
    elif t == "dice_rolled":
        fast = compiled.ROLL
        if fast is not None and fast(state, p) is not None:  # a roll in the Forum's order, checked and applied
            state.seq = event.seq
            return []
    seat = p.get("player") if t == "action_taken" else None
    fail = fail_for(state, event, seat)
    problems: list[Problem] = []
    if t == "dice_rolled":
        _roll(state, p, fail)
    elif t == "action_taken":
        direct = _direct_action(state, p, fail)
        problems = _action(state, p, event, fail) if direct is None else direct
    elif t == "special_die_swapped":
        _swap(state, p, fail)
    elif t == "turn_ended":
        _turn_end(state, p, fail)
    elif t == "game_ended":
        problems = _game_end(state, p, fail)
    else:
        raise fail("turn.order", "a 7 Wonders Dice event", t)
    state.seq = event.seq
    return problems


def checked_claims(state: GameState, event: Event, paid: int, vp: int) -> list[Problem]:
    """What an action the compiled kernel applied claims wrongly, against the coins paid and VP it
    found (the kernel leaves those claims to this code); the event's seq then recorded."""
    seat = event.payload["player"]
    found = _check_claims(state, seat, event.payload["claims"], paid, vp, fail_for(state, event, seat))
    state.seq = event.seq
    return found


def apply_trusted(state: GameState, event: Event) -> None:
    """Apply an event known to be legal (checked already: made by a simulation from checked choices,
    or accepted by an earlier replay without a problem), in place, without the checks: no phase or
    seat order, no roll against the Forum, no step against its prompt, no claim, no undo record. The
    state is the one :func:`apply` leaves (``tests/test_wd_trusted.py``). Two-phase actions and void
    actions (whose outcome depends on a check) go through :func:`apply`."""
    p = event.payload
    t = event.type
    if t == "dice_rolled":
        _start_turn(state, {d["id"]: (d["face"], d["section"]) for d in p["dice"]}, p["turn"])
    elif t == "action_taken":
        options = state.options
        if options.resolution == "two_phase" or (options.void_actions and options.resolution != "simultaneous"):
            apply(state, event)
            return
        seat, steps = p["player"], p["steps"]
        if len(steps) != 1 or direct_action(state, seat, steps[0], trusted=True) is None:
            resolve(state, seat, TrustedChooser([StepKey.of(s) for s in steps]))
        _done(state, seat)
    elif t == "special_die_swapped":
        die, replaced = p["die"], p["replaces"]
        state.forum = {(die if d == replaced else d): (die if d == replaced else c) for d, c in state.forum.items()}
        state.pending_swaps.remove(die)
    elif t == "turn_ended":
        _settle_agora(state)
        if state.final_turn is None and any(sum(pl.bonuses) >= state.rules.start.bonuses_to_end for pl in state.players):
            state.final_turn = state.turn + 1
        state.phase = "over" if state.final_turn == state.turn else "roll"
    elif t == "game_ended":
        state.result = final_scores(state)
        state.phase = "ended"
    else:
        apply(state, event)  # not a 7 Wonders Dice event: let the checks say so
        return
    state.seq = event.seq


def _expect_phase(state: GameState, phase: str, what: str, fail: Fail) -> None:
    if state.phase != phase:
        expected = {
            "roll": f"the roll of turn {state.turn + 1}",
            "actions": f"the action of seat {state.next_seat} in turn {state.turn}",
            "swaps": f"a special-die swap or the end of turn {state.turn}",
            "over": "the end of the game",
            "ended": "no more events",
        }[state.phase]
        raise fail("turn.order", expected, what)


def _roll(state: GameState, p: dict[str, Any], fail: Fail) -> None:
    if state.phase != "roll":  # (the message is made only when needed)
        _expect_phase(state, "roll", f"a roll for turn {p['turn']}", fail)
    if p["turn"] != state.turn + 1:
        raise fail("turn.order", f"turn {state.turn + 1}", f"turn {p['turn']}")
    dice = p["dice"]
    ids = [d["id"] for d in dice]
    if ids != list(state.forum) and sorted(ids) != sorted(state.forum):  # usually rolled in the Forum's order
        raise fail("turn.roll", "the Forum's dice " + ", ".join(state.forum), ", ".join(d["id"] for d in dice))
    sections = len(state.rules.start.forum_sections)
    roll = {}
    all_faces = state.rules.faces
    for d in dice:
        colour = state.forum[d["id"]]
        faces = all_faces[colour]
        if d["colour"] != colour or d["face"] not in faces or not 0 <= d["section"] < sections:
            raise fail("turn.roll", f"{d['id']}: a {colour} face ({', '.join(sorted(faces))}) in section 0..{sections - 1}",
                       f"{d['colour']} {d['face']} in section {d['section']}")
        roll[d["id"]] = (d["face"], d["section"])
    _start_turn(state, roll, p["turn"])


def _start_turn(state: GameState, roll: dict[str, tuple[str, int]], turn: int) -> None:
    """The table once a turn's dice are rolled: the checked and the trusted roll leave the same."""
    state.roll = roll
    state.turn = turn
    state.phase = "actions"
    state.next_seat = 0
    state.acted = set()
    state.agora_completers = []
    state.follow_ups.clear()
    state.pending.clear()
    for pl in state.players:
        pl.this_turn.clear()


def _action(state: GameState, p: dict[str, Any], event: Event, fail: Fail, in_seat_order: bool = True) -> list[Problem]:
    seat = p["player"]
    chooser = _LogChooser(p["steps"], fail)
    outcome = act(state, seat, p["turn"], chooser, fail, in_seat_order)
    claims = p.get("claims")
    if seat in state.pending:  # two-phase: the rest of the action waits for every seat's main action
        state.pending[seat].update(steps=p["steps"][chooser.i:], claims=claims, seq=event.seq)
        return finish_actions(state)[0]
    problems = []
    if chooser.i < len(chooser.steps) and not outcome.void:
        # the action as far as it went was complete and stands; what follows it is reported
        problems.append(fail("effect.choice", "no further step: the action was complete",
                             str(chooser.steps[chooser.i])).problem)
    elif claims:
        problems += _check_claims(state, seat, claims, outcome.paid, outcome.vp, fail)
    return problems + finish_actions(state)[0]


def _direct_action(state: GameState, p: dict[str, Any], fail: Fail) -> list[Problem] | None:
    """The usual action, the short way: a seat acting in its turn with one step that asks nothing
    further (the fused kernel, :func:`kernel.direct_action`). What it accepts, :func:`_action`
    accepts with the same result; anything else (a refused step, a question to answer, two-phase
    resolution, an audit's odd table) is None with nothing changed, and goes the general way."""
    if state.phase != "actions" or state.pending or state.options.resolution == "two_phase":
        return None
    seat, steps = p.get("player"), p.get("steps")
    if (type(seat) is not int or seat != state.next_seat or not 0 <= seat < len(state.players) or p.get("turn") != state.turn
            or type(steps) is not list or len(steps) != 1 or type(steps[0]) is not dict or "kind" not in steps[0]):
        return None
    outcome = direct_action(state, seat, steps[0])
    if outcome is None:
        return None
    _done(state, seat)
    claims = p.get("claims")
    if not claims:
        return []
    paid, vp = outcome
    return _check_claims(state, seat, claims, paid, vp, fail)


def _check_claims(state: GameState, seat: int, claims: dict[str, Any], paid: int, vp: int, fail: Fail) -> list[Problem]:
    """What the player wrote down (coins ``paid`` and ``vp`` scored by the action, the coins held
    after it) against what the rules give. After one mistake a sheet's coins stay off by the same
    amount: each new offset is reported once per player."""
    player = state.players[seat]
    claimed_paid, claimed_vp, coins = claims.get("paid"), claims.get("vp"), claims.get("coins")
    if ((claimed_paid is None or claimed_paid == paid) and (claimed_vp is None or claimed_vp == vp)
            and (coins is None or coins == player.coins)):
        return []  # every claim right (the usual case)
    problems = []
    for key, actual in (("paid", paid), ("vp", vp), ("coins", player.coins)):
        claimed = claims.get(key)
        if claimed is None or claimed == actual:
            continue
        if key == "coins":
            offset = claimed - actual
            if state.coin_offsets.get(seat) == offset:
                continue
            state.coin_offsets[seat] = offset
        problems.append(fail(f"claim.{key}", str(actual), str(claimed)).problem)
    return problems


def act(state: GameState, seat: int, turn: int, chooser: Chooser, fail: Fail, in_seat_order: bool = True) -> Outcome:
    """One player's action in its place in the turn: checks whose turn it is, resolves, moves on.

    An audit may pass ``in_seat_order=False`` to accept, after reporting it, an action
    of a seat that has not acted yet this turn but comes out of seat order.
    """
    if state.phase != "actions":
        _expect_phase(state, "actions", f"an action of seat {seat}", fail)
    expected = seat == state.next_seat if in_seat_order else seat not in state.acted
    if turn != state.turn or not expected or not 0 <= seat < len(state.players):
        raise fail("turn.order", f"seat {state.next_seat} acting in turn {state.turn}", f"seat {seat} in turn {turn}")
    undo = _Checkpoint(state, seat)
    queue: list[FollowUp] | None = [] if state.options.resolution == "two_phase" else None
    try:
        outcome = resolve(state, seat, chooser, queue)
    except Void as void:
        undo.restore()  # a void action does nothing (option void_actions)
        outcome, queue = Outcome(0, 0, [void.step], void=True), None
    except BaseException:
        undo.restore()  # an illegal action changes nothing: the state stays valid to keep auditing
        raise
    if queue is not None:
        state.follow_ups[seat] = queue
        state.pending[seat] = {"steps": [], "claims": None, "seq": state.seq, "paid": outcome.paid, "vp": outcome.vp}
    _done(state, seat)
    return outcome


def finish_actions(state: GameState, choosers: dict[int, Chooser] | None = None,
                   force: bool = False) -> tuple[list[Problem], dict[int, Outcome]]:
    """Two-phase resolution, second phase, once every seat has acted (or, with ``force``, when the
    turn ends without them): seat by seat, each seat's queued questions, answered from the rest of
    its logged steps (or by ``choosers``, in a simulation). A seat whose answers are illegal is
    reported and its second phase changes nothing; the claims of its whole action are checked."""
    if not state.pending or (len(state.acted) < len(state.players) and not force):
        return [], {}
    problems: list[Problem] = []
    outcomes: dict[int, Outcome] = {}
    for seat in sorted(state.pending):
        info = state.pending.pop(seat)
        queue = state.follow_ups.pop(seat, [])
        fail = fail_at(state, info["seq"], seat)
        logged = _LogChooser(info["steps"], fail) if choosers is None else None
        undo = _Checkpoint(state, seat)
        try:
            second = resolve_follow_ups(state, seat, logged or (choosers or {})[seat], queue)
        except RuleViolation as refused:
            undo.restore()
            problems.append(refused.problem)
            continue
        outcomes[seat] = second
        if logged is not None and logged.i < len(logged.steps):
            problems.append(fail("effect.choice", "no further step: the action was complete",
                                 str(logged.steps[logged.i])).problem)
        elif info["claims"]:
            problems += _check_claims(state, seat, info["claims"], info["paid"] + second.paid, info["vp"] + second.vp, fail)
    return problems, outcomes


def _done(state: GameState, seat: int) -> None:
    acted = state.acted
    acted.add(seat)
    n = len(state.players)
    nxt = n
    for s in range(n):
        if s not in acted:
            nxt = s
            break
    state.next_seat = nxt
    if len(acted) == n:
        state.phase = "swaps"


class _Checkpoint:
    """What an action may change, saved cheaply: the acting player's counters and small
    containers, how far its lists reached, the pending swaps and the Agora completers."""

    def __init__(self, state: GameState, seat: int) -> None:
        p = state.players[seat]
        self.state, self.p = state, p
        self.saved = (p.coins, dict(p.vp), list(p.bonuses), set(p.unlocked), p.resources_spent, p.discount_all,
                      dict(p.discount), set(p.free_colours), dict(p.income), len(p.end_effects), len(p.this_turn))
        self.pending = list(state.pending_swaps)
        self.agora = list(state.agora_completers)

    def restore(self) -> None:
        p = self.p
        (p.coins, p.vp, p.bonuses, p.unlocked, p.resources_spent, p.discount_all,
         p.discount, p.free_colours, p.income, n_end, n_turn) = self.saved
        for building, space in p.this_turn[n_turn:]:
            p.crossed[building].discard(space)
        del p.end_effects[n_end:], p.this_turn[n_turn:]
        self.state.pending_swaps = self.pending
        self.state.agora_completers = self.agora


def _swap(state: GameState, p: dict[str, Any], fail: Fail) -> None:
    _expect_phase(state, "swaps", f"a swap of the {p['die']} die", fail)
    if p["die"] not in state.pending_swaps:
        waiting = ", ".join(state.pending_swaps) or "no special die"
        raise fail("swap.required", f"{waiting} waiting to enter the Forum", p["die"])
    if state.forum.get(p["replaces"]) != "grey":
        greys = ", ".join(d for d, c in state.forum.items() if c == "grey") or "none left"
        raise fail("swap.required", f"a grey die of the Forum ({greys})", p["replaces"])
    state.forum = {(p["die"] if d == p["replaces"] else d): (p["die"] if d == p["replaces"] else c)
                   for d, c in state.forum.items()}
    state.pending_swaps.remove(p["die"])


def _turn_end(state: GameState, p: dict[str, Any], fail: Fail) -> None:
    if state.phase != "swaps":
        _expect_phase(state, "swaps", f"the end of turn {p['turn']}", fail)
    if p["turn"] != state.turn:
        raise fail("turn.order", f"the end of turn {state.turn}", f"turn {p['turn']}")
    if state.pending_swaps:
        raise fail("swap.required", f"the {state.pending_swaps[0]} die swapped in before the turn ends", "the turn's end")
    _settle_agora(state)
    rules = state.rules.start
    if state.final_turn is None and any(sum(pl.bonuses) >= rules.bonuses_to_end for pl in state.players):
        state.final_turn = state.turn + 1
    state.phase = "over" if state.final_turn == state.turn else "roll"


def _settle_agora(state: GameState) -> None:
    """The first completion of an Agora is settled at the end of the turn (ruling 2)."""
    done = state.agora_completers
    if state.agora_first_done or not done:
        return
    state.agora_first_done = True
    if state.options.resolution != "simultaneous":
        winners = done[:1]  # actions resolve one after another: the first to complete it
    elif len(done) > 1 and state.options.agora_first_same_turn == "none":
        winners = []
    else:
        winners = done
    for seat in winners:
        pl = state.players[seat]
        pl.vp["agora"] = pl.vp.get("agora", 0) + state.rules.start.agora_first_bonus


def _game_end(state: GameState, p: dict[str, Any], fail: Fail) -> list[Problem]:
    if state.phase != "over":
        if state.phase == "roll":
            raise fail("end.trigger", "more turns: no final turn was reached" if state.final_turn is None
                       else f"turn {state.final_turn} to be played", "the end of the game")
        _expect_phase(state, "over", "the end of the game", fail)
    result = final_scores(state)
    claimed = {"scores": p["scores"], "winners": p["winners"], "tie_break": p["tie_break"]}
    # a sheet may give only totals: empty categories are not a claim
    unclaimed = {s["seat"] for s in p["scores"] if not s["categories"]}
    compared = {**result, "scores": [{**s, "categories": {}} if s["seat"] in unclaimed else s for s in result["scores"]]}
    state.result = result
    state.phase = "ended"
    if _normal(claimed) != _normal(compared):
        return [fail("claim.score", _describe(result), _describe(claimed)).problem]
    return []


def _normal(r: dict[str, Any]) -> Any:
    return (sorted((s["seat"], s["total"], s["coins"], sorted(s["categories"].items())) for s in r["scores"]),
            sorted(r["winners"]), r["tie_break"])


def _describe(r: dict[str, Any]) -> str:
    seats = sorted(r["scores"], key=lambda s: s["seat"])
    scores = "; ".join(f"seat {s['seat']} {s['total']} VP ({s['coins']} coins)" for s in seats)
    return f"{scores}; winners {r['winners']} ({r['tie_break']})"


def fold(events: Iterable[Event], library: PackLibrary | None = None) -> GameState:
    """Replay a whole game, stopping at the first problem (strict); the state after the last event."""
    from . import GAME

    state = replay(GAME, events, library, level="raise").state
    if state is None:
        raise ReplayError("no events to replay")
    return state


def states(events: Iterable[Event], library: PackLibrary | None = None) -> Iterator[tuple[Event, GameState]]:
    """(event, state after it) for every event, strictly; the state object is reused: copy what you keep."""
    from . import GAME

    r: Replay[GameState] = Replay(GAME, library, level="raise")
    for event in events:
        step = r.push(event)
        yield event, step.state
