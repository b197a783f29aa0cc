"""What comes next: the pending work (``state.todo``, a stack) turned into the one event the rules
wait for (``state.expect``).

A round is laid out as work when it starts: the auction, each seat's launches, each seat's hires,
each seat's fishing, the end check, each seat's processing, trading and draw, then the next round.
Work that needs no event (a seat with nothing to process, a bonus of no cards) is done here and
popped, so ``expect`` always names an event somebody must record.
"""

from __future__ import annotations

from typing import Any

from .state import State


def advance(state: State) -> None:
    """Pop finished work until some task waits for an event; set ``state.expect`` to it."""
    while state.todo:
        task = state.todo[-1]
        expect = _wait(state, task)
        if expect is not None:
            state.expect = expect
            return
        if state.todo and state.todo[-1] is task:
            state.todo.pop()
    state.expect = ["none"]


def _wait(state: State, task: list[Any]) -> list[Any] | None:
    """The event ``task`` waits for, or None when it is done (it may push more work)."""
    what = task[0]
    if what in ("licenses_removed", "license_deck_shuffled"):
        return [what]
    if what == "round" and state.final:
        state.todo = [["end"]]  # the last round was played whole (option licenses_end: after_round)
        return None
    if what in ("deal", "shuffle", "round", "end"):
        waits: dict[str, list[Any]] = {
            "deal": ["hand_dealt", task[1] if len(task) > 1 else 0], "shuffle": ["boat_deck_shuffled", "new_deck"],
            "round": ["round_started", state.round + 1, _next_first(state)], "end": ["game_ended"]}
        return waits[what]
    if what == "auction":
        return _auction(state)
    seat = task[1] if len(task) > 1 else 0
    if what == "launch":
        licensed = any(state.may_launch(seat, b.boat) for b in state.pack.cards.boats)
        if state.launched[seat] < state.max_launches(seat) and licensed:
            return ["launch", seat]
        _finish_launch(state, seat)
        return None
    if what == "hire":
        if state.hired[seat] < state.max_hires(seat) and state.open_boats(seat):
            return ["hire", seat]
        _finish_hire(state, seat)
        return None
    if what == "fish":
        return ["fish_caught", seat, catch(state, seat)]
    if what == "end_check":
        state.todo.pop()
        if state.final == "fish" or (state.final and state.pack.options.licenses_end == "after_phase_three"):
            state.todo = [["end"]]
        else:
            state.phase = "process"
        return None
    if what == "process":
        if state.owned(seat, "processing") and any(b[2] > 0 for b in state.boats[seat]):
            return ["process", seat]
        return None
    if what == "trade":
        if state.owned(seat, "processing") and state.processed[seat] > 0:
            return ["trade", seat]
        return None
    if what == "draw_phase":
        state.todo.pop()
        state.phase = "draw"
        draw, keep = state.tuna(seat)
        state.todo.append(["discard_due", seat, keep])
        state.todo.append(["draw", seat, "draw", draw])
        return None
    if what == "draw":
        k = task[3]
        if len(state.deck) < k and state.discard:
            return ["boat_deck_shuffled", "reshuffle"]
        k = min(k, len(state.deck))
        return ["cards_drawn", seat, task[2], k] if k else None
    if what == "discard_due":
        state.todo.pop()
        extra = len(state.just_drawn) - task[2]
        if extra > 0:
            state.todo.append(["discard", seat, extra])
        else:
            state.just_drawn = []
        return None
    if what == "discard":
        return ["discard", seat, task[2]]
    raise AssertionError(f"unknown work {task!r}")


def _next_first(state: State) -> int:
    return state.first_player if state.round == 0 else (state.first_player + 1) % state.n


def _finish_launch(state: State, seat: int) -> None:
    state.todo.pop()
    k = state.owned(seat, "cod") * state.pack.bonuses.cod_draw if state.launched[seat] else 0
    if k:
        state.todo.append(["draw", seat, "cod", k])


def _finish_hire(state: State, seat: int) -> None:
    state.todo.pop()
    k = state.lobster_draw(seat)
    if k:
        state.todo.append(["draw", seat, "lobster", k])


def finish_step(state: State, seat: int, step: str) -> None:
    """A seat passed (or used up) its launches or hires: the step is over, its bonus draw follows."""
    if step == "launch":
        _finish_launch(state, seat)
    elif step == "hire":
        _finish_hire(state, seat)
    else:
        state.todo.pop()


def catch(state: State, seat: int) -> list[int]:
    """The boats that take a crate in phase three: captained and below capacity."""
    cap = state.pack.setup.capacity
    return [i for i, b in enumerate(state.boats[seat]) if b[1] is not None and b[2] < cap]


def start_round(state: State, number: int, first: int) -> None:
    """Lay out a round's work (top of the stack last)."""
    state.round, state.first_player, state.phase = number, first, "auction"
    n = state.n
    state.done = [False] * n
    state.auction = None
    state.bought = 0
    state.launched = [0] * n
    state.hired = [0] * n
    order = state.order()
    work: list[list[Any]] = [["round"]]
    work += [["draw_phase", s] for s in reversed(order)]
    work += [["trade", s] for s in reversed(order)]
    work += [["process", s] for s in reversed(order)]
    work.append(["end_check"])
    work += [["fish", s] for s in reversed(order)]
    work += [["hire", s] for s in reversed(order)]
    work += [["launch", s] for s in reversed(order)]
    work.append(["auction"])
    state.todo = work


# ----------------------------------------------------------------------------- the auction


def _auction(state: State) -> list[Any] | None:
    a = state.auction
    if a is not None:
        if len(a["in"]) == 1:
            return ["license_bought", a["leader"], a["license"], a["bid"]]
        return ["bid", a["next"]]
    for seat in state.order():
        if not state.done[seat]:
            return ["auction_open", seat]
    state.todo.pop()
    refill(state)
    state.phase = "launch"
    return None


def next_in(seats: list[int], after: int, n: int) -> int:
    """The seat in ``seats`` that comes next after ``after`` in turn order."""
    for i in range(1, n + 1):
        s = (after + i) % n
        if s in seats:
            return s
    return after


def open_auction(state: State, seat: int, license: str, bid: int) -> None:
    bidders = [s for s in ((seat + i) % state.n for i in range(state.n)) if not state.done[s]]
    state.auction = {"license": license, "bid": bid, "leader": seat, "in": bidders, "next": next_in(bidders, seat, state.n)}


def refill(state: State) -> None:
    """After the auction phase: refill the row from the license deck; if it cannot be filled, this is
    the last round (it ends after phase three)."""
    want = state.n * state.pack.setup.auction_row_per_player
    if state.bought == 0 and state.pack.options.stale_auction == "replace" and state.row:
        state.box += state.row
        state.row = []
    need = want - len(state.row)
    taken = state.licenses_deck[:need]
    del state.licenses_deck[:need]
    state.row += taken
    if len(taken) < need:
        state.final = state.final or "licenses"
