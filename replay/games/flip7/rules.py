"""Flip 7 on the game contract: each event checked against what the rules expect, then applied.

An illegal event changes nothing: :func:`check` runs before anything moves and raises
:class:`RuleViolation`; wrong written claims (scores, totals, winners) are returned after the
event is applied, the rules' value standing. :meth:`Flip7Rules.recover` puts the table right
where a log merely forgot a consequence the rules can work out themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from replay.contract import Position, Rules
from replay.errors import RuleViolation
from replay.events import Event
from replay.games.explain import event_words as shared_event_words
from replay.games.explain import rule_problem
from replay.problems import Problem

from .flow import advance, close_round, targets
from .pack import Flip7Pack
from .state import ACTIVE, BUSTED, FROZEN, STAYED, Cards, State, seat_name

RULES = {
    "flip7.start": "Seats are numbered 0, 1, 2, ... and the first dealer is one of them.",
    "flip7.expected": "Events come in the order the rules give: each decision and each consequence where it belongs.",
    "flip7.turn-order": "Only the player offered Hit or Stay may hit or stay.",
    "flip7.target": "A Freeze or a Flip Three goes to an active player; a second Second Chance to another active "
                    "player without one, or to nobody when there is none.",
    "flip7.draw": "A card drawn is the top card of the draw pile.",
    "flip7.deck": "A shuffled deck holds exactly the cards expected: the whole deck for a new deck, the discard "
                  "pile for a reshuffle.",
    "flip7.round": "Rounds are numbered from 1 and the deal passes left each round.",
    "flip7.claim-score": "A round's score written down is the score the rules give.",
    "flip7.claim-total": "A running total written down is the total the rules give.",
    "flip7.claim-winners": "The winners written down are the players with the most points.",
    "flip7.game-over": "Nothing happens after the game has ended.",
}

DECISIONS = ("player_hit", "player_stayed")
CONSEQUENCES = ("busted", "second_chance_used", "frozen", "flipped_seven")


def problem(state: State | None, event: Event, rule_id: str, expected: str, found: str, seat: Any = None) -> Problem:
    return rule_problem(RULES, rule_id, expected, found, event, state.names if state else [], seat,
                        state.turn or None if state else None)


def target_action(card: str, target: int | None) -> str:
    """How a target choice is named among the legal actions."""
    return f"{card} to {'nobody' if target is None else target}"


# ----------------------------------------------------------------------------- words


def name(state: State, seat: Any) -> str:
    return seat_name(state.names, seat)


def expected_words(state: State) -> str:
    """The event the rules wait for, in words."""
    e = state.expect
    what = e[0]
    if what == "decision":
        return f"Hit or Stay by {name(state, e[1])}"
    if what == "card_drawn":
        top = f" ({state.draw[0]})" if state.draw else ""
        return f"card_drawn by {name(state, e[1])} ({e[2]}): the top card{top}"
    if what == "deck_shuffled":
        return f"deck_shuffled ({e[1]})"
    if what == "target_chosen":
        return f"target_chosen by {name(state, e[1])} for {e[2]}"
    if what in ("busted", "second_chance_used"):
        return f"{what} {name(state, e[1])} on {e[2]}"
    if what in ("frozen", "flipped_seven"):
        return f"{what} {name(state, e[1])}"
    if what == "round_started":
        return f"round_started {e[1]} dealt by {name(state, e[2])}"
    if what == "round_ended":
        return f"round_ended {e[1]}"
    if what == "game_ended":
        return "game_ended"
    return "no event (the game is over)"


def event_words(event: Event) -> str:
    return shared_event_words(event, ("seat", "reason", "card", "target", "round", "dealer"))


# ----------------------------------------------------------------------------- checking


def check(state: State, event: Event) -> None:
    """Raise RuleViolation if ``event`` is not the one the rules wait for; change nothing."""
    e, t, p = state.expect, event.type, event.payload
    what = e[0]
    if what == "none":
        raise RuleViolation(problem(state, event, "flip7.game-over", "no event", event_words(event)))
    if what == "decision" and t in DECISIONS:
        if p["seat"] != e[1]:
            raise RuleViolation(problem(state, event, "flip7.turn-order", f"{name(state, e[1])} to hit or stay",
                                        f"{t} by {name(state, p['seat'])}", p["seat"]))
        return
    if what == "card_drawn" and t == what and p["seat"] == e[1] and p["reason"] == e[2]:
        if not state.draw or p["card"] != state.draw[0]:
            top = state.draw[0] if state.draw else "an empty pile"
            raise RuleViolation(problem(state, event, "flip7.draw", f"the top card, {top}", p["card"], p["seat"]))
        return
    if what == "deck_shuffled" and t == what and p["reason"] == e[1]:
        want = state.cards.deck if e[1] == "new_deck" else Counter(state.discard)
        difference = _difference(want, Counter(p["order"]))
        if difference:
            raise RuleViolation(problem(state, event, "flip7.deck", f"the {_pile(e[1])}", difference))
        return
    if what == "target_chosen" and t == what and p["seat"] == e[1] and p["card"] == e[2]:
        allowed = targets(state, e[1], e[2])
        if p["target"] not in allowed:
            shown = ", ".join("nobody" if a is None else name(state, a) for a in allowed)
            raise RuleViolation(problem(state, event, "flip7.target", f"one of {shown}",
                                        "nobody" if p["target"] is None else name(state, p["target"]), p["seat"]))
        return
    if what in CONSEQUENCES and t == what and p["seat"] == e[1] and p.get("card", e[-1]) == e[-1]:
        return
    if what == "round_started" and t == what:
        if [p["round"], p["dealer"]] != e[1:]:
            raise RuleViolation(problem(state, event, "flip7.round", f"round {e[1]} dealt by {name(state, e[2])}",
                                        f"round {p['round']} dealt by {name(state, p['dealer'])}"))
        return
    if what == "round_ended" and t == what:
        if p["round"] != e[1]:
            raise RuleViolation(problem(state, event, "flip7.round", f"round {e[1]}", f"round {p['round']}"))
        return
    if what == "game_ended" and t == what:
        return
    seat = p.get("seat") if isinstance(p.get("seat"), int) else None
    raise RuleViolation(problem(state, event, "flip7.expected", expected_words(state), event_words(event), seat))


def _pile(reason: str) -> str:
    return "whole deck" if reason == "new_deck" else "discard pile"


def _difference(want: Counter[str], found: Counter[str]) -> str:
    """The cards missing from and extra in a shuffled deck, or '' when it holds exactly ``want``."""
    missing, extra = want - found, found - want
    parts = []
    if missing:
        parts.append("missing " + ", ".join(f"{c} x{k}" if k > 1 else c for c, k in sorted(missing.items())))
    if extra:
        parts.append("extra " + ", ".join(f"{c} x{k}" if k > 1 else c for c, k in sorted(extra.items())))
    return "; ".join(parts)


# ----------------------------------------------------------------------------- applying


def perform(state: State, event: Event) -> list[Problem]:
    """Apply an event :func:`check` accepted; return the wrong claims it makes."""
    t, p = event.type, event.payload
    todo = state.todo
    found: list[Problem] = []
    if t == "round_started":
        _start_round(state, p["round"], p["dealer"])
    elif t == "deck_shuffled":
        if p["reason"] == "new_deck":
            todo.pop()
        state.draw = list(p["order"])
        state.discard = []
    elif t == "card_drawn":
        _drawn(state, p["seat"], p["card"], p["reason"])
    elif t == "player_hit":
        todo[-1] = ["turn", (p["seat"] + 1) % state.n]
        todo.append(["draw", p["seat"], "hit"])
    elif t == "player_stayed":
        todo[-1] = ["turn", (p["seat"] + 1) % state.n]
        state.status[p["seat"]] = STAYED
    elif t == "target_chosen":
        _given(state, p["seat"], p["card"], p["target"])
    elif t == "frozen":
        todo.pop()
        state.status[p["seat"]] = FROZEN
    elif t == "busted":
        todo.pop()
        _from_play(state, p["card"], state.area[p["seat"]])
        state.status[p["seat"]] = BUSTED
    elif t == "second_chance_used":
        _second_chance_used(state, p["seat"], p["card"])
    elif t == "flipped_seven":
        state.seven[p["seat"]] = True
        close_round(state)
    elif t == "round_ended":
        found = _end_round(state, event)
    elif t == "game_ended":
        todo.pop()
        state.phase = "over"
        claimed = p["winners"]
        if claimed is not None and sorted(set(claimed)) != state.winners:
            found.append(problem(state, event, "flip7.claim-winners", _names(state, state.winners), _names(state, claimed)))
    advance(state)
    return found


def _names(state: State, seats: Sequence[int]) -> str:
    return ", ".join(name(state, s) for s in seats) or "nobody"


def _start_round(state: State, number: int, dealer: int) -> None:
    state.round, state.dealer, state.phase, state.last_targeter = number, dealer, "deal", None
    n = state.n
    state.status = [ACTIVE] * n
    state.line = [[] for _ in range(n)]
    state.area = [[] for _ in range(n)]
    state.chance = [False] * n
    state.seven = [False] * n
    todo: list[list[Any]] = [["begin_turns"]]
    todo += [["draw", (dealer + i) % n, "deal"] for i in range(n, 0, -1)]  # the dealer's left first
    if number == 1 or state.pack.options.deck == "rebuild_each_round":
        todo.append(["new_deck"])
    state.todo = todo


def _drawn(state: State, seat: int, card: str, reason: str) -> None:
    todo = state.todo
    state.draw.pop(0)
    todo.pop()
    options = state.pack.options
    action = state.cards.kind.get(card) == "action"
    if reason == "flip_three" and action and options.flip_three_actions == "after_three" and todo and todo[-1][0] == "flip3":
        todo[-1][3].append(card)  # set aside, resolved after the three
        return
    if reason == "deal" and action and not options.dealt_action_is_initial_card:
        todo.append(["draw", seat, "deal"])  # dealt another once this one is resolved
    state.in_play.append(card)
    todo.append(["resolve", seat, card])


def _given(state: State, seat: int, card: str, target: int | None) -> None:
    state.todo.pop()
    if target is None:
        _from_play(state, card, state.discard)
        return
    _from_play(state, card, state.area[target])
    if state.phase == "deal":
        state.last_targeter = seat
    if card == "freeze":
        state.todo.append(["frozen", target])
    elif card == "flip_three":
        state.todo.append(["flip3", target, 3, []])
    else:
        state.chance[target] = True


def _second_chance_used(state: State, seat: int, card: str) -> None:
    state.todo.pop()
    _from_play(state, card, state.discard)
    if "second_chance" in state.area[seat]:
        state.area[seat].remove("second_chance")
        state.discard.append("second_chance")
    state.chance[seat] = False
    if state.pack.options.second_chance_ends_turn:
        for task in state.todo:  # the rest of a Flip Three on this seat is not drawn
            if task[0] == "flip3" and task[1] == seat:
                task[2] = 0


def _from_play(state: State, card: str, to: list[str]) -> None:
    if card in state.in_play:
        state.in_play.remove(card)
    to.append(card)


def _end_round(state: State, event: Event) -> list[Problem]:
    state.todo.pop()
    found: list[Problem] = []
    for seat in range(state.n):
        parts = state.round_score(seat)
        state.score[seat] = sum(parts.values())
        state.total[seat] += state.score[seat]
        for k, v in parts.items():
            state.categories[seat][k] = state.categories[seat].get(k, 0) + v
        state.discard += state.line[seat] + state.area[seat]
        state.line[seat], state.area[seat] = [], []
        state.chance[seat] = False
    for claim in event.payload["scores"] or ():
        seat = claim["seat"]
        if not 0 <= seat < state.n:
            found.append(problem(state, event, "flip7.claim-score", f"a seat from 0 to {state.n - 1}", f"seat {seat}"))
            continue
        if claim["score"] is not None and claim["score"] != state.score[seat]:
            found.append(problem(state, event, "flip7.claim-score", str(state.score[seat]), str(claim["score"]), seat))
        if claim["total"] is not None and claim["total"] != state.total[seat]:
            found.append(problem(state, event, "flip7.claim-total", str(state.total[seat]), str(claim["total"]), seat))
    state.phase = "between"
    best = max(state.total, default=0)
    leaders = [s for s in range(state.n) if state.total[s] == best]
    if best >= state.pack.scoring.target and (len(leaders) == 1 or state.pack.options.ties == "shared"):
        state.winners = leaders
        state.todo.append(["game_end"])
    else:
        state.todo.append(["start_round"])
    return found


# ----------------------------------------------------------------------------- the contract


class Flip7Rules(Rules[State, Flip7Pack]):
    def start(self, event: Event, pack: Flip7Pack) -> State:
        p = event.payload
        seats = sorted(p["seats"], key=lambda s: s["seat"])
        n = len(seats)
        state = State(pack=pack, cards=Cards.of(pack), names=[s["name"] for s in seats], first_dealer=p["first_dealer"],
                      status=[ACTIVE] * n, line=[[] for _ in range(n)], area=[[] for _ in range(n)],
                      chance=[False] * n, seven=[False] * n, score=[0] * n, total=[0] * n,
                      categories=[{"numbers": 0, "x2": 0, "modifiers": 0, "bonus": 0} for _ in range(n)])
        numbers = [s["seat"] for s in seats]
        if numbers != list(range(n)):
            raise RuleViolation(problem(None, event, "flip7.start", f"seats 0 to {n - 1}", str([s["seat"] for s in p["seats"]])))
        if not p["first_dealer"] < n:
            raise RuleViolation(problem(None, event, "flip7.start", f"a first dealer from 0 to {n - 1}",
                                        str(p["first_dealer"])))
        state.draw = state.cards.box()  # the deck in its box, face down, until the first shuffle
        state.todo = [["start_round"]]
        advance(state)
        return state

    def apply(self, state: State, event: Event) -> Sequence[Problem]:
        check(state, event)
        return perform(state, event)

    def recover(self, state: State, event: Event, problem: Problem) -> Sequence[Problem]:
        """Put the table right where the log forgot what the rules can work out.

        A consequence the log left out (a bust, a used Second Chance, a Freeze taking effect,
        a Flip 7, the end of a round before the next begins, a Hit before its card) is put on
        the table, and the event is tried again; a card drawn from lower in the pile is taken
        from where it is. Anything else is skipped: it changes nothing.
        """
        for _ in range(4):
            if not _fill_in(state, event):
                return ()
            try:
                check(state, event)
            except RuleViolation:
                continue
            return perform(state, event)
        return ()

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def position(self, state: State, event: Event) -> Position:
        p = event.payload
        seat = p.get("seat")
        rnd = state.round + 1 if event.type == "round_started" else state.round
        return Position(turn=state.turn or None, round=rnd or None, seat=seat if isinstance(seat, int) else None)

    def legal_actions(self, state: State, seat: int) -> Sequence[str]:
        e = state.expect
        if e[0] == "decision" and e[1] == seat:
            return ["hit", "stay"]
        if e[0] == "target_chosen" and e[1] == seat:
            return [target_action(e[2], t) for t in targets(state, seat, e[2])]
        return []

    def action_of(self, event: Event) -> str | None:
        p = event.payload
        if event.type == "player_hit":
            return "hit"
        if event.type == "player_stayed":
            return "stay"
        if event.type == "target_chosen":
            return target_action(p["card"], p["target"])
        return None

    def snapshot(self, state: State) -> dict[str, Any]:
        return state.data()

    def restore(self, data: dict[str, Any], pack: Flip7Pack) -> State:
        return State.of_data(data, pack)


def _fill_in(state: State, event: Event) -> bool:
    """Apply what the log left out before ``event``, when the rules can work it out; False if nothing."""
    e, p = state.expect, event.payload
    what = e[0]
    if what in CONSEQUENCES and event.type != what:
        payload: dict[str, Any] = {"seat": e[1]} | ({"card": e[2]} if len(e) > 2 else {})
        perform(state, event._replace(type=what, payload=payload))
        return True
    if what == "round_ended" and event.type in ("round_started", "game_ended"):
        perform(state, event._replace(type="round_ended", payload={"round": e[1], "scores": None}))
        return True
    if what == "decision" and event.type == "card_drawn" and p["seat"] == e[1] and p["reason"] == "hit":
        perform(state, event._replace(type="player_hit", payload={"seat": e[1]}))
        return True
    if what == "card_drawn" and event.type == what and p["seat"] == e[1] and p["reason"] == e[2] \
            and p["card"] in state.draw[1:]:
        state.draw.remove(p["card"])  # taken from where it was in the pile
        state.draw.insert(0, p["card"])
        return True
    return False
