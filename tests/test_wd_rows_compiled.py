"""The compiled rows of the 7 Wonders Dice projection (``_crows``, see ``rows_compiled.py``) against the
pure-Python observer, their reference: the same derived rows, value by value and type by type, on
simulated games under every pack of ``test_project_rows_pinned.py``, on damaged games, and on states
and payloads with odd values (which the extension must leave to the Python, so that whatever the
Python gives or raises, the compiled path gives or raises too).

Where the extension is not built these tests are skipped, saying so; with ``REPLAY_REQUIRE_COMPILED=1``
(CI, ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from helpers import require_compiled
from test_project_rows_pinned import BOTS, NAMES, PACKS
from test_wd_direct import _damage

from replay.analytics.project import derive_records
from replay.driver import Replay
from replay.events import Event
from replay.games.wonders_dice import GAME as WD
from replay.games.wonders_dice import analytics, rows_compiled, simulate_game
from replay.games.wonders_dice.engine import defence
from replay.games.wonders_dice.state import GameState, PlayerState
from replay.packs import PackPart

require_compiled(rows_compiled.BUILT, rows_compiled.NOT_BUILT)


def _rows(events: list[Event], compiled: bool, library: Any) -> Any:
    """Every derived row of a game (or the exception deriving raised, by class and words), and each
    value's type."""
    with rows_compiled.use(compiled) as on:
        assert on == compiled
        try:
            rows, records = derive_records(WD, events, library, True)
        except Exception as exc:  # the same failure either way is what is compared
            return f"{type(exc).__name__}: {exc}"
    return rows, records, {t: [tuple(type(v) for v in r) for r in rs] for t, rs in records.items()}


@pytest.mark.parametrize("pack_name", sorted(PACKS))
def test_compiled_and_pure_rows_agree_under_every_pack(pack_name: str) -> None:
    pack = PACKS[pack_name]
    library = WD.library(extra=[pack])
    for bots in BOTS:
        for i in range(12 if bots == "greedy" else 24):
            events = simulate_game(f"{pack_name}-{bots}-{i}", NAMES[: 2 + i % 6], 9100 + i, BOTS[bots], pack)
            assert _rows(events, True, library) == _rows(events, False, library), events[0].game_id


def test_the_usual_rows_are_made_in_c(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """The extension makes every usual row itself (so the comparisons above compare it, not the
    Python with itself): no action declined, no turn row asked of the Python, no defender's shields
    asked of ``engine.defence``, on the default pack's games and on one with every variant (end effects
    and leaders counted in C)."""
    asked: list[str] = []
    monkeypatch.setattr(analytics, "_turn_row", lambda *a: asked.append("turn row") or ())
    rows_compiled.BUILT.setup(PlayerState, PackPart, lambda *a: asked.append("defence") or defence(*a))
    request.addfinalizer(lambda: rows_compiled.BUILT.setup(PlayerState, PackPart, defence))
    for pack_name in ("default", "every-two-phase"):
        library = WD.library(extra=[PACKS[pack_name]])
        for i in range(8):
            events = simulate_game(f"usual-{i}", NAMES[: 2 + i % 6], 9300 + i, ("random",), PACKS[pack_name])
            state: GameState | None = None
            replay = Replay(WD, library)
            for e in events:
                state = replay.state
                if e.type == "action_taken" and state is not None:
                    assert rows_compiled.BUILT.action_before(state, e.payload, e.game_id, e.seq) is not None, e
                after = replay.push(e).state
                if e.type == "dice_rolled":
                    assert rows_compiled.BUILT.dice_rows([], e.game_id, e.payload["turn"], after.forum, after.roll), e
            with rows_compiled.use(True):
                derive_records(WD, events, library, True)
    assert asked == []


def test_damaged_games_give_the_same_rows_or_the_same_error() -> None:
    library = WD.library()
    rng = random.Random(5)
    for i in range(120):
        events = _damage(simulate_game(f"dmg-{i}", NAMES[: 2 + i % 6], 9500 + i, ("random",)), rng)
        assert _rows(events, True, library) == _rows(events, False, library), i


def _outcome(call: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    try:
        return call(*args)
    except Exception as exc:  # compared by class and words
        return f"{type(exc).__name__}: {exc}"


def _both(call: Callable[..., Any], *args: Any) -> tuple[Any, Any]:
    """``call(*args)`` with the compiled rows, and with the Python: what each gave or raised."""
    with rows_compiled.use(True):
        compiled = _outcome(call, args)
    with rows_compiled.use(False):
        pure = _outcome(call, args)
    return compiled, pure


def _game_to_replay(game_id: str, players: int, seed: int, pack_name: str) -> tuple[list[Event], Replay[Any]]:
    """A simulated game under one of the packs, and a replay (not started) to push its events to."""
    pack = PACKS[pack_name]
    return simulate_game(game_id, NAMES[:players], seed, ("random",), pack), Replay(WD, WD.library(extra=[pack]))


ODD_PAYLOADS: list[Callable[[dict[str, Any]], None]] = [
    lambda p: p.update(player=-1), lambda p: p.update(player=True), lambda p: p.update(player=99),
    lambda p: p.update(player="0"), lambda p: p.update(steps=[]), lambda p: p.update(steps=tuple(p["steps"])),
    lambda p: p.pop("turn"), lambda p: p.pop("steps"), lambda p: p["steps"][0].update(kind=None),
    lambda p: p["steps"][0].update(kind="build", die="nowhere"), lambda p: p["steps"][0].pop("die", None),
    lambda p: p["steps"][0].update(building=7), lambda p: p["steps"][0].update(space=None),
    lambda p: p.update(claims=0), lambda p: p.update(claims=[]), lambda p: p.update(claims={}),
    lambda p: p.update(claims={"paid": "x"}), lambda p: p.update(claims={"paid": None}),
    lambda p: p["steps"].append({"kind": "bonus"}), lambda p: p["steps"].append({"kind": "bonus", "slot": 2}),
    lambda p: p["steps"].append("bonus"),
]


def test_odd_payloads_are_left_to_the_python() -> None:
    """An action's row from each odd payload: what the Python gives or raises, either way."""
    events, replay = _game_to_replay("odd", 4, 9700, "every-seat-order")
    checked = 0
    for e in events:
        state = replay.state
        if e.type == "action_taken" and state is not None and checked < 40:
            for change in ODD_PAYLOADS:
                payload = {k: (list(map(dict, v)) if k == "steps" else v) for k, v in e.payload.items()}
                change(payload)
                odd = e._replace(payload=payload)
                before = _both(analytics._action_before, state, odd)
                assert before[0] == before[1], (e.seq, payload)
                if isinstance(before[1], tuple):
                    after = _both(analytics._action_after, state, odd, before[1])
                    assert after[0] == after[1], (e.seq, payload)
            checked += 1
        replay.push(e)
    assert checked == 40


def _odd_states(state: GameState) -> list[GameState]:
    """Copies of a state, each with one player's values of an odd type or an unusual board."""
    out = []
    for change in range(7):
        odd = state.copy()
        p = odd.players[change % len(odd.players)]
        if change == 0:
            p.crossed = {b: sorted(s) for b, s in p.crossed.items()}  # lists, not sets
        elif change == 1:
            p.bonuses = [int(b) for b in p.bonuses]
        elif change == 2:
            p.unlocked = sorted(p.unlocked)  # type: ignore[assignment]
        elif change == 3:
            p.board = dict(reversed(p.board.items()))  # the columns' buildings in another order
        elif change == 4:
            p.end_effects = [*p.end_effects, ("guild", "leaders", 2), ("guild", "leaders", 1)]
        elif change == 5:
            p.end_effects = [*p.end_effects, ("guild", "nowhere", 3)]
        else:
            p.vp = {**p.vp, "odd": 1.5}  # type: ignore[dict-item]
        out.append(odd)
    return out


def _rows_of(start: Event, step: Any, table: str) -> list[tuple[Any, ...]]:
    """The rows of one table the observer makes of one step."""
    observer = analytics._Rows(start)
    observer.after(step)
    return observer.out[table]


def test_turn_rows_of_odd_states_are_the_pythons() -> None:
    events, replay = _game_to_replay("odd-turns", 3, 9800, "every-two-phase")
    ends = 0
    for e in events:
        step = replay.push(e)
        if e.type == "turn_ended" and step.state is not None:
            for odd in _odd_states(step.state):
                compiled, pure = _both(_rows_of, events[0], dataclasses.replace(step, state=odd), "turn_states")
                assert compiled == pure, e.seq
                assert [tuple(map(type, r)) for r in compiled] == [tuple(map(type, r)) for r in pure]
            ends += 1
    assert ends > 5


def test_dice_rows_of_odd_rolls_are_the_pythons() -> None:
    events, replay = _game_to_replay("odd-dice", 3, 9900, "default")
    rolls = 0
    for e in events:
        step = replay.push(e)
        if e.type == "dice_rolled" and step.state is not None:
            for change in range(4):
                odd = step.state.copy()
                die = next(iter(odd.roll))
                if change == 0:
                    odd.roll[die] = list(odd.roll[die])  # type: ignore[assignment]
                elif change == 1:
                    del odd.forum[die]
                elif change == 2:
                    odd.roll[7] = ("shield", 1)  # type: ignore[index]
                else:
                    odd.roll[die] = ("shield",)  # type: ignore[assignment]
                compiled, pure = _both(_rows_of, events[0], dataclasses.replace(step, state=odd), "dice")
                assert compiled == pure, (e.seq, change)
            rolls += 1
    assert rolls > 5


def test_the_observers_compiled_glue_is_its_python_methods() -> None:
    """The observer's ``before`` and ``after`` in C (``_crows.glue``) and in Python, fed the same events
    side by side: the usual ones, the same events as another class (read by name), actions with odd
    payloads (an illegal action's KeyError, IndexError or TypeError gives no row; anything else is
    raised alike) and refused steps: the same rows, or the same error."""

    class Renamed(Event):  # not the Event type the glue reads by position
        __slots__ = ()

    events, replay = _game_to_replay("glue", 4, 9800, "every-seat-order")
    with rows_compiled.use(True):
        compiled = analytics._Rows(events[0])
    with rows_compiled.use(False):
        pure = analytics._Rows(events[0])
    assert type(compiled.before.__self__).__name__ == "Glue" and "before" not in vars(pure)
    rng = random.Random(11)
    replay.push(events[0])
    kinds = set()
    for e in events[1:]:
        state = replay.state
        variant: Event = e
        how = rng.randrange(4)
        if how == 1:
            variant = Renamed(*e)
        elif how >= 2 and e.type == "action_taken":
            payload = {k: (list(map(dict, v)) if k == "steps" else v) for k, v in e.payload.items()}
            rng.choice(ODD_PAYLOADS)(payload)
            variant = e._replace(payload=payload)
        with rows_compiled.use(True):
            said = _outcome(compiled.before, (state, variant))
        with rows_compiled.use(False):
            assert _outcome(pure.before, (state, variant)) == said, (e.seq, variant)
        step = dataclasses.replace(replay.push(e), event=variant, refused=rng.random() < 0.1)
        with rows_compiled.use(True):
            said = _outcome(compiled.after, (step,))
        with rows_compiled.use(False):
            assert _outcome(pure.after, (step,)) == said, (e.seq, variant)
        assert compiled.out == pure.out
        kinds.add((e.type, how, said is None))
    assert {("action_taken", 2, True), ("action_taken", 1, True), ("dice_rolled", 1, True)} <= kinds
    assert len(compiled.out["actions"]) > 10


def _as_text(made: Any) -> str:
    """A state's data as JSON, keys in their order (so an order or a type, True for 1, that differs shows)."""
    return made if isinstance(made, str) else json.dumps(made)


@pytest.mark.parametrize("pack_name", ["default", "every-two-phase", "every-seat-order"])
def test_state_data_is_to_dict_at_every_step(pack_name: str) -> None:
    """``state_data`` gives ``GameState.to_dict``'s dict, keys in the same order, at every step of simulated games;
    it makes the usual table itself (only a two-phase action's follow-ups waiting are left to the Python)."""
    made_in_c = 0
    for i in range(6):
        events, replay = _game_to_replay(f"data-{pack_name}-{i}", 2 + i, 9950 + i, pack_name)
        for e in events:
            state = replay.push(e).state
            if state is None:
                continue
            made = rows_compiled.BUILT.state_data(state)
            if state.follow_ups:
                assert made is None
                continue
            assert _as_text(made) == _as_text(state.to_dict()), e.seq
            made_in_c += 1
    assert made_in_c > 300


def test_state_data_of_odd_states_is_the_pythons() -> None:
    """An odd table's data (a value of another type, end effects that do not sort, a roll of another shape):
    what ``to_dict`` gives or raises, either way."""
    events, replay = _game_to_replay("odd-data", 4, 9990, "every-seat-order")
    states = []
    for e in events:
        step = replay.push(e)
        if e.type == "turn_ended" and step.state is not None:
            states.append(step.state)
    for state in states[::3]:
        odd = []
        for change in range(4):
            other = state.copy()
            if change == 0:
                other.players[0].end_effects = [("guild", "leaders", 1), ("guild", 3, "x")]  # type: ignore[list-item]
            elif change == 1:
                other.roll[next(iter(other.roll))] = ("shield", True)  # type: ignore[assignment]
            elif change == 2:
                other.players[1].discount = {1: 2, 0: 1}  # type: ignore[dict-item]
            else:
                other.players[0].vp = {**other.players[0].vp, "guild": True}
            odd.append(other)
        for other in [*_odd_states(state), *odd]:
            compiled, pure = _both(WD.views.data, other)
            assert _as_text(compiled) == _as_text(pure)
