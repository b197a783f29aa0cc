"""The compiled kernel of the 7 Wonders Dice fold (``_ckernel``, see ``compiled.py``) against the
pure-Python code, its reference: the same states (snapshot and hash), the same problems with the
same words, the same outputs, event by event, on thousands of simulated games under every option
set and on damaged games (the usual damage of ``test_wd_direct.py``, and values of the wrong type,
rolls out of order, odd claims: what the kernel must decline to the Python code).

Where the extension is not built (no compiler when the package was installed) these tests are
skipped, saying so; with ``REPLAY_REQUIRE_COMPILED=1`` (CI, ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import types
from typing import Any

from helpers import require_compiled, scaled
from test_wd_direct import NAMES, OPTIONS, _damage

from replay.driver import Replay
from replay.errors import RuleViolation
from replay.events import Event
from replay.games.wonders_dice import GAME, compiled, scoring, simulate_game
from replay.games.wonders_dice import rules as wd_rules
from replay.games.wonders_dice.engine import board_tables
from replay.games.wonders_dice.projector import _start_turn, checked_claims
from replay.games.wonders_dice.rules_data import shipped_rulesets
from replay.games.wonders_dice.state import GameState

require_compiled(compiled.BUILT_ACTION, compiled.NOT_BUILT)

MORE_OPTIONS = [*OPTIONS, ("7wd-default", {"resolution": "two_phase"}),
                ("7wd-default", {"resolution": "simultaneous", "income": "after_action", "coin_cap": 9})]


def _games(count: int, seed: int) -> list[list[Event]]:
    rng = random.Random(seed)
    packs = shipped_rulesets()
    games = []
    for i in range(count):
        pack, update = MORE_OPTIONS[i % len(MORE_OPTIONS)]
        rules = packs[pack]
        bots = ("greedy", "random") if i % 8 == 0 else ("random",)  # greedy bots simulate slowly
        games.append(simulate_game(f"c{i}", NAMES[:rng.randint(2, 7)], seed * 100_000 + i, bots, rules,
                                   rules.options.model_copy(update=update)))
    return games


def _problem(p: Any) -> str:
    return f"{p.rule_id}|{p.rule}|{p.expected}|{p.found}|{p.where}|{p.explanation}"


def _trace(events: list[Event], on: bool, every: bool = True) -> list[Any]:
    """Per event (or only at the end): the state's hash, snapshot and position, and the problems."""
    with compiled.use(on) as active:
        assert active == on
        r = Replay(GAME, level="collect")
        out: list[Any] = []
        for i, e in enumerate(events):
            step = r.push(e)
            if every or i == len(events) - 1:
                state = step.state
                out.append((state.state_hash() if state is not None else "",
                            json.dumps(GAME.rules.snapshot(state), sort_keys=True) if state is not None else "",
                            step.position, step.refused, [_problem(p) for p in step.problems]))
        return out


def test_compiled_and_pure_agree_on_thousands_of_games() -> None:
    """600 games (10,000 with REPLAY_FUZZ=long; 2-7 players, random bots and a greedy-random mix, six option sets): the
    same final table and no problem either way; on the first 50 the same table, position and problems after every event."""
    for i, events in enumerate(_games(scaled(600, 10_000), 11)):
        every = i < 50
        pure = _trace(events, False, every)
        assert _trace(events, True, every) == pure
        assert all(not problems for *_, problems in pure)


def _odd(events: list[Event], rng: random.Random) -> list[Event]:
    """Values the compiled kernel must leave to the Python code: other types, other orders, other shapes."""
    out = list(events)
    for _ in range(3):
        i = rng.randrange(1, len(out))
        e = out[i]
        p = copy.deepcopy(e.payload)
        what = rng.randrange(12)
        if e.type == "action_taken":
            step = p["steps"][0]
            if what == 0:
                p["turn"] = float(p["turn"])
            elif what == 1:
                p["player"] = rng.choice([True, str(p["player"]), None, -1, 99])
            elif what == 2:
                p["claims"] = rng.choice([None, {}, [], {"paid": 1.0}, {"coins": "3"}, {"vp": None}, {"paid": True}])
            elif what == 3:
                step.pop(rng.choice(["kind", "building", "lane", "space", "die"]), None)
            elif what == 4:
                step[rng.choice(["building", "lane", "space", "die"])] = rng.choice([1, ["x"], None, True])
            elif what == 5:
                p["steps"] = rng.choice([[], "pass", [["build"]], p["steps"] * 2])
            elif what == 6:
                p["turn"] += rng.choice([-1, 1])
            elif what == 7:
                p["claims"] = {"paid": rng.randrange(5), "vp": rng.randrange(5), "coins": rng.randrange(15)}
            else:
                step["kind"] = rng.choice(["pass", "build", "wonder", 1, "Pass"])
        elif e.type == "dice_rolled":
            dice = p["dice"]
            if what == 0:
                rng.shuffle(dice)
            elif what == 1:
                dice[0]["section"] = rng.choice([-1, 9, 1.0, True, "1"])
            elif what == 2:
                dice[0]["face"] = rng.choice(["nothing", 3, None])
            elif what == 3:
                dice[-1]["colour"] = "pink"
            elif what == 4:
                dice.append(dict(dice[0]))
            elif what == 5:
                dice.pop()
            elif what == 6:
                p["turn"] = rng.choice([p["turn"] + 1, float(p["turn"]), True])
            elif what == 7:
                dice[0]["id"] = dice[-1]["id"]
            elif what == 8:
                del dice[0][rng.choice(["id", "colour", "face", "section"])]
            else:
                p["dice"] = rng.choice([[], None, "dice"])
        else:
            p["turn"] = p.get("turn", 0) + 1 if what < 6 else p.get("turn")
        out[i] = e._replace(payload=p)
    return out


def test_compiled_and_pure_agree_on_damaged_games() -> None:
    """50 games with damaged actions (test_wd_direct's damage) and 50 with odd values (500 each with
    REPLAY_FUZZ=long): every event's table, position and problems (words included) the same both ways."""
    rng = random.Random(5)
    found = 0
    count = scaled(100, 1_000)
    for i, events in enumerate(_games(count, 12)):
        damaged = _damage(events, rng) if i % 2 else _odd(events, rng)
        pure = _trace(damaged, False)
        assert _trace(damaged, True) == pure
        found += sum(len(problems) for *_, problems in pure)
    assert found > count // 2  # the damage was seen


def _follow_ups_damaged(events: list[Event], rng: random.Random) -> list[Event]:
    """Actions of several steps with their follow-ups damaged (the shapes the kernel answers: a bonus
    slot, an extra action skipped or taken, a space crossed, skipped or lapsed): another, taken or odd slot, another kind, a step
    dropped, added or not a dict, the claims off, the main step moved onto the follow-up's place, a
    crossing of another building, lane or space; an extra action's die another (another colour, cost or reach,
    a special die, none)."""
    out = list(events)
    several = [i for i, e in enumerate(out) if e.type == "action_taken" and len(e.payload["steps"]) > 1]
    for i in rng.sample(several, min(4, len(several))):
        p = copy.deepcopy(out[i].payload)
        steps = p["steps"]
        j = rng.randrange(1, len(steps))
        what = rng.randrange(13)
        if what == 12 and isinstance(steps[j], dict):
            steps[j]["die"] = rng.choice(["grey1", "grey2", "blue", "red", "yellow", "green", "black", "white", "purple",
                                          None, 1])
        elif what >= 10 and isinstance(steps[j], dict):  # a crossing elsewhere: another building, lane or space
            field = rng.choice(["building", "lane", "space"])
            steps[j][field] = rng.choice({"building": ["agora", "market", "university", "barracks_west", "barracks_east",
                                                       "warehouse", "wonder", steps[0].get("building")],
                                          "lane": ["agora", "chest", "wonder", "x", None],
                                          "space": ["r0c0", "chest_per_space", "glass", "step1", "nowhere", None]}[field])
        elif what == 0:
            steps[j]["slot"] = rng.choice([0, 1, 2, 3, 4, -1, True, 1.0, "1", None])
        elif what == 1:
            steps[j]["kind"] = rng.choice(["bonus", "skip", "cross", "build", "wonder", "pass", 1])
        elif what == 2:
            steps.pop(j)
        elif what == 3:
            steps.insert(j, rng.choice([{"kind": "skip"}, {"kind": "bonus", "slot": rng.randrange(4)}]))
        elif what == 4:
            steps.append(rng.choice([{"kind": "skip"}, {"kind": "bonus", "slot": rng.randrange(4)}, ["skip"]]))
        elif what == 5:
            steps[j] = rng.choice([["bonus", 0], "skip", None, {}])
        elif what == 6:
            c = p.get("claims") or {}
            p["claims"] = {k: (v + rng.choice([-1, 1]) if isinstance(v, int) else v) for k, v in c.items()} or {"vp": 99}
        elif what == 7:
            steps.pop(j).pop("slot", None)
        elif what == 8:
            steps[j].pop("kind", None)
        else:
            p["steps"] = [steps[0], *steps]
        out[i] = out[i]._replace(payload=p)
    return out


def test_compiled_and_pure_agree_on_damaged_follow_ups() -> None:
    """70 games (700 with REPLAY_FUZZ=long; every option set, the Barracks as one building and
    completion after the effects among them) whose actions of several steps are damaged: every event's table, position and
    problems (words included) the same both ways, so every path the kernel declines is exercised."""
    count = scaled(70, 700)
    traces = _agree_when_damaged(_follow_ups_damaged, count, 16, random.Random(15))
    assert sum(len(problems) for pure in traces for *_, problems in pure) > count  # the damage was seen


def _agree_when_damaged(damage: Any, count: int, seed: int, rng: random.Random) -> list[list[Any]]:
    """``count`` games damaged by ``damage(events, rng)``, each traced event by event both ways: the same; the
    pure traces."""
    traces = []
    for events in _games(count, seed):
        damaged = damage(events, rng)
        pure = _trace(damaged, False)
        assert _trace(damaged, True) == pure
        traces.append(pure)
    return traces


def test_the_compiled_kernel_takes_the_usual_events() -> None:
    """Not a vacuous comparison: on the table before each event, the kernel (called on a copy) takes
    most actions and every roll of simulated games; what it takes leaves the table the Python code
    leaves."""
    assert compiled.BUILT_ACTION is not None and compiled.BUILT_ROLL is not None
    taken = {"action_taken": 0, "dice_rolled": 0, "several": 0}
    seen = {"action_taken": 0, "dice_rolled": 0, "several": 0}
    kinds: set[str] = set()  # the effect kinds of the spaces the kernel built (applied in C since the eighth pass)
    for events in _games(16, 13):
        with compiled.use(False):
            r = Replay(GAME, level="raise")
            for e in events:
                state = r.state
                if state is not None and e.type in seen:
                    seen[e.type] += 1
                    several = e.type == "action_taken" and len(e.payload["steps"]) > 1
                    seen["several"] += several
                    mine = state.copy()
                    kernel = compiled.BUILT_ACTION if e.type == "action_taken" else compiled.BUILT_ROLL
                    if kernel(mine, e.payload) is not None:
                        taken[e.type] += 1
                        taken["several"] += several
                        if e.type == "action_taken":
                            board = state.players[e.payload["player"]].board
                            kinds.update(effect.type for s in e.payload["steps"] if s.get("building") in board
                                         for effect in board[s["building"]].space[s["space"]].effects)
                        mine.seq = e.seq
                        r.push(e)
                        assert GAME.rules.snapshot(mine) == GAME.rules.snapshot(state)
                        continue
                r.push(e)
    assert taken["dice_rolled"] == seen["dice_rolled"]
    assert taken["action_taken"] > 0.75 * seen["action_taken"]
    # several steps: a bonus slot, an extra action skipped or taken, crossings (79% of them since the eighth pass)
    assert taken["several"] > 0.6 * seen["several"]
    assert kinds >= {"vp", "attack", "resource", "shield", "coins", "per_space", "vp_per_leader_end", "die_discount",
                     "die_free", "income", "unlock", "cross", "extra_action"}


def test_the_compiled_step_takes_the_usual_events() -> None:
    """``step`` (``Rules.apply_at``'s fast path: the cached position, then the action, roll, turn's
    end or game's end) on a copy of the table before each event: it takes every roll and most actions and turn
    ends once the positions are cached, giving the position and table the Python code gives, the seq
    recorded; it declines every other event type, and a position not cached yet, with nothing changed."""
    step = compiled.BUILT_STEP
    assert step is not None
    taken = {"action_taken": 0, "dice_rolled": 0, "turn_ended": 0, "game_ended": 0, "special_die_swapped": 0}
    for events in _games(12, 17):
        with compiled.use(False):
            r = Replay(GAME, level="raise")
            for e in events:
                state = r.state
                if state is None:
                    r.push(e)
                    continue
                mine = state.copy()
                before = GAME.rules.snapshot(mine)
                if e.type == "game_ended":  # no turn in its payload: the table's
                    cached = (state.turn, None) in compiled.POSITIONS
                else:
                    cached = compiled.BUILT_POSITION is not None and compiled.BUILT_POSITION(e.type, e.payload) is not None
                done = step(mine, e)
                pure = r.push(e)
                if done is None:
                    assert GAME.rules.snapshot(mine) == before  # declined: nothing changed
                    assert e.type != "dice_rolled" or not cached
                    continue
                assert e.type in taken and cached
                taken[e.type] += 1
                assert done[0] is pure.position and len(done) == 2 and list(done[1]) == list(pure.problems) == []
                assert mine.seq == e.seq
                assert GAME.rules.snapshot(mine) == GAME.rules.snapshot(state)
    assert taken["dice_rolled"] > 100 and taken["turn_ended"] > 100 and taken["action_taken"] > 1000
    assert taken["game_ended"] == 12  # every game's end, its claims being right
    assert taken["special_die_swapped"] > 10


def test_the_rules_apply_at_is_compiled_and_calls_the_python_for_what_step_leaves() -> None:
    """``Rules.apply_at`` is the kernel's ``apply_at`` when it is on and the Python function when it is off.
    On damaged games, read by ``Replay.run`` (which takes ``apply_at`` once a run), it calls the Python for
    the events ``step`` declines and ``checked_claims`` for the claims ``step`` leaves, and each game ends on
    the table and problems (words included) the Python gives."""
    with compiled.use(True):
        assert GAME.rules.apply_at is compiled.BUILT_APPLY_AT
    with compiled.use(False):
        assert GAME.rules.apply_at is wd_rules.apply_at
    calls = {"declined": 0, "claims": 0}

    def declined(state: GameState, event: Event) -> Any:
        calls["declined"] += 1
        return wd_rules._position_then_apply(state, event)

    def claims(state: GameState, event: Event, paid: int, vp: int) -> Any:
        calls["claims"] += 1
        return checked_claims(state, event, paid, vp)

    rng = random.Random(21)
    compiled.link(declined, claims)
    try:
        for i, events in enumerate(_games(40, 22)):
            damaged = _damage(events, rng) if i % 2 else _odd(events, rng)
            ends = []
            for on in (False, True):
                with compiled.use(on):
                    r = Replay(GAME, level="collect").run(damaged)
                    ends.append((r.state.state_hash() if r.state is not None else "", [_problem(p) for p in r.problems]))
            assert ends[0] == ends[1]
    finally:
        compiled.link(wd_rules._position_then_apply, checked_claims)
    assert calls["declined"] > 500 and calls["claims"] > 100


def test_start_turn_leaves_the_pythons_table_and_declines_odd_ones() -> None:
    """``start_turn`` (the simulation's start of a turn, its roll unchecked) leaves the table
    ``projector._start_turn`` leaves; a roll that is not a dict, a turn that is not an int, players that
    are not a list: declined, nothing changed."""
    start_turn = compiled.BUILT_START_TURN
    assert start_turn is not None
    r = Replay(GAME, level="raise")
    for e in _games(1, 23)[0]:
        if e.type == "dice_rolled" and r.state is not None and r.state.turn >= 3:
            break
        r.push(e)
    state = r.state
    assert state is not None and state.phase == "roll"
    roll, turn = {d["id"]: (d["face"], d["section"]) for d in e.payload["dice"]}, e.payload["turn"]
    mine, theirs = state.copy(), state.copy()
    assert start_turn(mine, roll, turn) is True
    _start_turn(theirs, dict(roll), turn)
    assert GAME.rules.snapshot(mine) == GAME.rules.snapshot(theirs) != GAME.rules.snapshot(state)
    odd = state.copy()
    odd.players = tuple(odd.players)  # type: ignore[assignment]
    for table, rolled, when in ((odd, roll, turn), (state.copy(), list(roll.items()), turn), (state.copy(), roll, True)):
        before = GAME.rules.snapshot(table)
        assert start_turn(table, rolled, when) is None
        assert GAME.rules.snapshot(table) == before


def test_a_kernel_built_from_older_sources_is_not_used(monkeypatch: Any) -> None:
    """An extension built before an entry this code takes (an editable install not rebuilt): the Python
    code, and a reason that says what to do, rather than an import that fails."""
    assert compiled._KERNEL is not None
    older = types.SimpleNamespace(**{name: getattr(compiled._KERNEL, name) for name in compiled._ENTRIES
                                     if name not in ("apply_at", "link")}, setup=compiled._KERNEL.setup)
    monkeypatch.setattr(compiled, "load", lambda *args: (older, ""))
    kernel, why = compiled._load()
    assert kernel is None and "older sources" in why and "apply_at, link" in why and "pip install -e ." in why


def test_replay_pure_forces_the_python_code() -> None:
    """REPLAY_PURE=1 in the environment: the compiled kernel is off, and the game folds to the same table."""
    events = _games(1, 14)[0]
    with compiled.use(True):
        r = Replay(GAME, level="raise").run(events)
    assert r.state is not None
    code = ("import json, sys; from replay.events import Event; from replay.driver import Replay; "
            "from replay.games.wonders_dice import GAME, compiled; "
            "events = [Event(*e) for e in json.load(sys.stdin)]; "
            "print(compiled.active(), Replay(GAME, level='raise').run(events).state.state_hash())")
    env = {**os.environ, "REPLAY_PURE": "1"}
    # run from the tests' folder: from the checkout's root, `replay` would be its sources, never built
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps([list(e) for e in events]), env=env,
                          capture_output=True, text=True, check=True, cwd=os.path.dirname(__file__))
    assert done.stdout.split() == ["False", r.state.state_hash()]


def _both_ways(state: GameState, event: Event) -> list[Any]:
    """The event applied to two copies of ``state``, compiled and pure: (problems or the violation, table)."""
    out = []
    for on in (True, False):
        mine = state.copy()
        with compiled.use(on):
            try:
                verdict: Any = [_problem(p) for p in GAME.rules.apply(mine, event)]
            except RuleViolation as refused:
                verdict = ("refused", _problem(refused.problem))
        out.append((verdict, mine.state_hash(), json.dumps(GAME.rules.snapshot(mine), sort_keys=True)))
    return out


def _before_each_action(games: list[list[Event]]) -> Any:
    """(the table before it, the action) for every action of the games, replayed purely."""
    with compiled.use(False):
        for events in games:
            r = Replay(GAME, level="raise")
            for e in events:
                if e.type == "action_taken" and r.state is not None:
                    yield r.state, e
                r.push(e)


def _odd_player(state: GameState, seat: int, rng: random.Random) -> None:
    """Values apply_effect reads that the compiled effects leave to it (a big int, a bool, an int subclass):
    the kernel must then call apply_effect, or decline, and the outcome be the pure code's."""
    p = state.players[seat]
    odd = rng.choice([10**20, True, -(10**19)])
    what = rng.randrange(6)
    colours = [*state.rules.faces]
    if what == 0:
        p.discount = {c: odd for c in colours}
    elif what == 1:
        p.income = {c: odd for c in colours}
    elif what == 2:
        p.vp = {k: odd for k in ("military", "science", "civilian", "commerce", "wonder", "bonus", "guild", *p.vp)}
    elif what == 3:
        p.discount_all = odd
    elif what == 4:
        p.coins = odd if odd is not True else 1
    else:
        p.seat = odd  # attacks read the seat to find the defender


def test_compiled_effects_agree_on_odd_values() -> None:
    """Every action of 24 games applied both ways to the table before it with one of the acting player's
    values made odd (a big int, a bool) where the compiled effects read it: the same problems (or refusal)
    and the same table."""
    rng = random.Random(21)
    compared = 0
    for state, event in _before_each_action(_games(24, 22)):
        seat = event.payload["player"]
        if not (isinstance(seat, int) and 0 <= seat < len(state.players)):
            continue
        odd = state.copy()
        _odd_player(odd, seat, rng)
        compiled_way, pure_way = _both_ways(odd, event)
        assert compiled_way == pure_way
        compared += 1
    assert compared > 1000


def _guild_actions(games: list[list[Event]]) -> Any:
    """(the table before it, the action) for each action that builds a Guild Court space."""
    for state, event in _before_each_action(games):
        p = state.players[event.payload["player"]]
        plans = board_tables(state.rules, p.board).plans
        steps = event.payload["steps"]
        if any(plans.get((s.get("building"), s.get("lane"), s.get("space"))) is not None
               and plans[s["building"], s["lane"], s["space"]].guild for s in steps):
            yield state, event


def test_compiled_guild_condition_agrees() -> None:
    """The Guild Court's condition (now checked in C): each Guild Court action of 60 games applied both ways,
    as logged (the condition held) and with a neighbour's group of buildings made to reach the player's count
    (a tie: refused with 2 players only) or to pass it (refused), or the player's own count raised by spaces
    crossed this turn (which never count): the same verdict and table both ways, and refusals seen."""
    seen, refused = 0, 0
    for state, event in _guild_actions(_games(60, 23)):
        seat = event.payload["player"]
        n = len(state.players)
        purple = next(d for d in event.payload["steps"] if d.get("building") == "guild_court")["die"]
        face = state.rules.faces["purple"][state.roll[purple][0]]
        group = state.rules.compare_groups[face.compare or ""]
        mine = sum(state.players[seat].count_before_turn(b) for b in group)
        for change in ("none", "tie", "more", "this_turn"):
            table = state.copy()
            neighbour = table.players[(seat + 1) % n]
            if change in ("tie", "more"):
                need = mine + (change == "more") - sum(neighbour.count(b) for b in group)
                for b in group:
                    if b in neighbour.board and need > 0:
                        extra = [s.id for s in neighbour.board[b].spaces if s.id not in neighbour.crossed.get(b, ())][:need]
                        neighbour.crossed.setdefault(b, set()).update(extra)
                        need -= len(extra)
            elif change == "this_turn":
                p = table.players[seat]
                for b in group:
                    if b in p.board:
                        extra = {s.id for s in p.board[b].spaces} - p.crossed.get(b, set())
                        p.crossed.setdefault(b, set()).update(extra)
                        p.this_turn.extend((b, x) for x in sorted(extra))
            compiled_way, pure_way = _both_ways(table, event)
            assert compiled_way == pure_way
            seen += 1
            refused += isinstance(compiled_way[0], tuple)
    assert seen > 100 and refused > 20


def _end_damaged(events: list[Event], rng: random.Random) -> list[Event]:
    """The game's end with its claims damaged (what the compiled end must leave to the Python code, which reports
    it): a total, coins or category off, categories left out (totals only: not a claim) or of another type, a
    seat twice or missing, the winners reordered (still right), one more or another, the tie-break another, a
    value of another type, a key missing; or the end before the last turn is over."""
    out = list(events)
    p = copy.deepcopy(out[-1].payload)
    scores, what = p["scores"], rng.randrange(14)
    s = rng.choice(scores)
    if what == 0:
        s["total"] += rng.choice([-1, 1])
    elif what == 1:
        s["coins"] = rng.choice([s["coins"] + 1, float(s["coins"]), str(s["coins"]), True])
    elif what == 2 and s["categories"]:
        cat = rng.choice(sorted(s["categories"]))
        s["categories"][cat] = rng.choice([s["categories"][cat] + 1, None, float(s["categories"][cat])])
    elif what == 3:
        s["categories"] = rng.choice([{}, {}, None, [], {1: 2}, {**s["categories"], "extra": 0}])
    elif what == 4:
        scores.append(copy.deepcopy(s))
    elif what == 5 and len(scores) > 1:
        scores.remove(s)
    elif what == 6:
        s["seat"] = rng.choice([s["seat"] + 1, -1, True, float(s["seat"]), 99])
    elif what == 7:
        p["winners"] = list(reversed(p["winners"])) + rng.choice([[], [], [scores[0]["seat"]]])
    elif what == 8:
        p["winners"] = rng.choice([[], [99], [True], ["0"], None])
    elif what == 9:
        p["tie_break"] = rng.choice(["none", "coins", "shared", None, 1])
    elif what == 10:
        p.pop(rng.choice(["scores", "winners", "tie_break"]))
    elif what == 11:
        s.pop(rng.choice(["seat", "total", "coins", "categories"]))
    elif what == 12:
        rng.shuffle(scores)  # in another order: still right
    else:
        out.pop(-2)  # the last turn's end missing: the game is not over
    out[-1] = out[-1]._replace(payload=p)
    return out


def test_compiled_and_pure_agree_on_damaged_game_ends() -> None:
    """120 games (1,200 with REPLAY_FUZZ=long) whose end is damaged: the table, position and problems (words
    included) at the end the same both ways; and the kernel's end took the right ones (not a vacuous comparison)."""
    rng = random.Random(31)
    found = taken = 0
    count = scaled(120, 1_200)
    end = compiled.BUILT_STEP
    assert end is not None
    for events in _games(count, 32):
        damaged = _end_damaged(events, rng)
        pure = _trace(damaged, False, every=False)
        assert _trace(damaged, True, every=False) == pure
        found += bool(pure[-1][-1])
        with compiled.use(False):
            r = Replay(GAME, level="collect")
            r.run(damaged[:-1])
        state = r.state.copy()
        if end(state, damaged[-1]) is not None:
            taken += 1
            assert not pure[-1][-1] and state.phase == "ended"
    assert count // 3 < found < count and taken >= count // 20


def test_compiled_scores_agree_with_the_python() -> None:
    """``scores`` (``scoring.final_scores`` in C) on the end tables of 60 games under every option set, the same
    with odd values the Python reads (a big int, a bool, an odd end effect, the highest rate per count, a Gallery
    space not on the board): the same dicts in the same order, or None (the Python's); and it takes the usual ones."""
    rng = random.Random(41)
    made = [0, 0, 0, 0]
    scores = compiled.BUILT_SCORES
    assert scores is not None
    for events in _games(60, 42):
        with compiled.use(False):
            r = Replay(GAME, level="raise")
            r.run(events[:-1])
        for odd in range(4):
            state = r.state.copy()
            p = rng.choice(state.players)
            if odd == 1:
                p.vp = {**p.vp, rng.choice(["military", "new"]): rng.choice([10**20, True, 2, -3])}
            elif odd == 2:
                p.end_effects = [*p.end_effects, rng.choice([("science", "gallery", 2), ("x", "leaders", 1),
                                                             ("science", "agora", True), ["a", "b", 1], ("a", 1, 1)])]
                state.options = state.options.model_copy(update={"per_space_vp": rng.choice(["max", "sum"])})
            elif odd == 3:
                p.crossed = {**p.crossed, "gallery": rng.choice([{"nowhere"}, ["x"], set()])}
            with compiled.use(False):
                try:
                    pure: Any = json.dumps(scoring.final_scores(state))
                except (KeyError, TypeError, AttributeError) as exc:
                    pure = type(exc)
            mine = scores(state)
            if mine is not None:
                made[odd] += 1
                assert json.dumps(mine) == pure  # the same keys in the same order
    assert made[0] == 60 and min(made[1:]) > 10  # every usual table, and some odd ones it can read


def _swaps_damaged(events: list[Event], rng: random.Random) -> list[Event]:
    """Special dice swapped in wrongly (what the compiled swap must leave to the Python code, which reports it):
    another die (not waiting, or of another type), a die replaced that is not grey or not in the Forum, a key
    missing, the swap moved before the roll or after the turn's end, twice."""
    out = list(events)
    swaps = [i for i, e in enumerate(out) if e.type == "special_die_swapped"]
    for i in sorted(rng.sample(swaps, min(2, len(swaps))), reverse=True):  # the later first: moves shift what follows
        if out[i].type != "special_die_swapped":
            continue  # the event after a swap moved before it
        p = copy.deepcopy(out[i].payload)
        what = rng.randrange(6)
        if what == 0:
            p["die"] = rng.choice(["black", "white", "purple", "grey1", 3, None])
        elif what == 1:
            p["replaces"] = rng.choice(["grey1", "grey2", "grey3", "blue", "black", "nowhere", 1])
        elif what == 2:
            p.pop(rng.choice(["die", "replaces"]))
        elif what == 3:
            out.insert(i - 1, out.pop(i)._replace(payload=p))  # one event earlier: maybe in another phase
            continue
        elif what == 4:
            out.insert(i + 1, out[i])  # twice
        out[i] = out[i]._replace(payload=p)
    return out


def test_compiled_and_pure_agree_on_damaged_swaps() -> None:
    """60 games (600 with REPLAY_FUZZ=long) whose special dice are swapped in wrongly: every event's table, position
    and problems (words included) the same both ways."""
    count = scaled(60, 600)
    traces = _agree_when_damaged(_swaps_damaged, count, 52, random.Random(51))
    assert sum(any(problems for *_, problems in pure) for pure in traces) > count // 4  # the damage was seen
