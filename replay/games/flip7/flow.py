"""The order of play as a stack of pending work: what happens by itself, and what the rules wait for.

A Flip 7 round nests: a deal card can be a Flip Three, whose cards can be set aside and
resolved later, one of which may be another Flip Three... A stack of small tasks (plain lists,
top last) says it without recursion and snapshots as plain JSON. :func:`advance` runs the tasks
that need no event (a number joins a line, a seat that is out is skipped in the deal) until
the task on top waits for one; ``state.expect`` then names that event. The rules check each
event against ``expect`` and then apply it (:mod:`.rules`).

Tasks, and the event each waits for:

* ``["start_round"]``: ``round_started``; ``["new_deck"]``: ``deck_shuffled new_deck``;
* ``["draw", seat, reason]``: ``card_drawn`` (``deck_shuffled reshuffle`` first when the pile is
  empty); skipped when ``seat`` is no longer active;
* ``["resolve", seat, card]``: resolves a drawn card; waits for ``busted``,
  ``second_chance_used`` or ``target_chosen`` where the card needs one;
* ``["seven", seat]``: ``flipped_seven``; ``["frozen", seat]``: ``frozen``;
* ``["flip3", target, left, set_aside]``: draws the Flip Three's cards one by one;
  ``["aside", seat, cards]``: resolves the cards set aside, in the order drawn;
* ``["begin_turns"]``, ``["turn", from_seat]``: the next active seat clockwise;
  ``["decide", seat]``: ``player_hit`` or ``player_stayed``;
* ``["end"]``: ``round_ended``; ``["game_end"]``: ``game_ended``.
"""

from __future__ import annotations

from typing import Any

from .state import ACTIVE, State

LOOP_GUARD = 100_000
"""Steps of work without an event, far beyond any real round: more is a bug, not a game."""


def targets(state: State, seat: int, card: str) -> list[int | None]:
    """Who ``seat`` may give ``card`` to: a Freeze or a Flip Three to any active seat (itself
    included); a Second Chance to another active seat without one, or nobody (discarded)."""
    active = [t for t in range(state.n) if state.status[t] == ACTIVE]
    if card == "second_chance":
        free: list[int | None] = [t for t in active if t != seat and not state.chance[t]]
        return free or [None]
    return list(active)


def keeps_second_chance(state: State, seat: int) -> bool:
    return state.active(seat) and not state.chance[seat]


def close_round(state: State) -> None:
    """The round is over at once (a Flip 7, or no card left to draw): cards in play and set aside
    are discarded, nothing else happens before ``round_ended``."""
    state.discard.extend(state.in_play)
    state.discard.extend(state.aside())
    state.in_play.clear()
    state.todo[:] = [["end"]]  # in place: advance() holds the list


def first_to_decide(state: State) -> int:
    """Who is offered Hit or Stay first after the deal (``options.first_after_deal``)."""
    if state.pack.options.first_after_deal == "last_targeter" and state.last_targeter is not None:
        return state.last_targeter
    return (state.dealer + 1) % state.n


def advance(state: State) -> None:
    """Run the work that needs no event, then set ``state.expect`` to the event the rules wait for."""
    todo = state.todo
    options = state.pack.options
    kinds = state.cards.kind
    for _ in range(LOOP_GUARD):
        if not todo:
            state.expect = ["none"]
            return
        task = todo[-1]
        what = task[0]
        if what == "draw":
            if not state.active(task[1]):
                todo.pop()
                continue
            if state.draw:
                state.expect = ["card_drawn", task[1], task[2]]
            elif state.discard:
                state.expect = ["deck_shuffled", "reshuffle"]
            else:  # no card anywhere to draw: the round ends (docs/games/flip-7.md)
                close_round(state)
                continue
            return
        if what == "resolve":
            if _resolve(state, task, kinds.get(task[2], "")):
                return
            continue
        if what == "flip3":
            if task[2] > 0 and state.active(task[1]):
                task[2] -= 1
                todo.append(["draw", task[1], "flip_three"])
            else:
                todo.pop()
                if task[3]:
                    todo.append(["aside", task[1], task[3]])
            continue
        if what == "aside":
            if not task[2]:
                todo.pop()
                continue
            card = task[2].pop(0)
            if state.active(task[1]) or options.orphan_actions == "resolver_chooses":
                state.in_play.append(card)
                todo.append(["resolve", task[1], card])
            else:
                state.discard.append(card)
            continue
        if what == "begin_turns":
            state.phase = "turns"
            todo[-1] = ["turn", first_to_decide(state)]
            continue
        if what == "turn":
            seat = next((s % state.n for s in range(task[1], task[1] + state.n) if state.active(s % state.n)), None)
            if seat is None:
                todo[-1] = ["end"]
                continue
            state.turn += 1
            todo[-1] = ["decide", seat]
            continue
        state.expect = _waiting(state, task)
        return
    raise RuntimeError(f"the work stack did not settle: {todo[-3:]}")  # a bug: reported, never a hang


def _resolve(state: State, task: list[Any], kind: str) -> bool:
    """Resolve the card of a ``resolve`` task as far as it goes without an event; True if it waits."""
    seat, card = task[1], task[2]
    if kind == "number":
        if card in state.line[seat]:
            state.expect = ["second_chance_used" if state.chance[seat] else "busted", seat, card]
            return True
        _take(state, card)
        state.line[seat].append(card)
        state.todo.pop()
        if len(state.line[seat]) >= state.pack.scoring.flip_seven_cards:
            state.todo.append(["seven", seat])
        return False
    if kind == "action":
        if card == "second_chance" and keeps_second_chance(state, seat):
            _take(state, card)
            state.area[seat].append(card)
            state.chance[seat] = True
            state.todo.pop()
            return False
        if not targets(state, seat, card):  # a Freeze or a Flip Three and nobody active: discarded
            _take(state, card)
            state.discard.append(card)
            state.todo.pop()
            return False
        state.expect = ["target_chosen", seat, card]
        return True
    _take(state, card)  # a modifier or x2 (or a card the pack does not know: kept in front, scoring 0)
    state.area[seat].append(card)
    state.todo.pop()
    return False


def _take(state: State, card: str) -> None:
    if card in state.in_play:
        state.in_play.remove(card)


def _waiting(state: State, task: list[Any]) -> list[Any]:
    what = task[0]
    if what == "decide":
        return ["decision", task[1]]
    if what == "seven":
        return ["flipped_seven", task[1]]
    if what == "frozen":
        return ["frozen", task[1]]
    if what == "end":
        return ["round_ended", state.round]
    if what == "start_round":
        return ["round_started", state.round + 1, state.first_dealer if state.round == 0 else (state.dealer + 1) % state.n]
    if what == "new_deck":
        return ["deck_shuffled", "new_deck"]
    if what == "game_end":
        return ["game_ended"]
    return ["none"]
