"""The simulation's compiled random-bot action (``_cbots.random_main``, ``random_action``) and the
player's resources counted in C (``first_ok``, ``all_ok``) against the pure-Python code, their reference:
the same step, draws, event, table and verdicts at every decision of simulated games, with odd values
mixed in, and the same bytes for whole seeded games with each piece switched off.

Where the extension is not built these tests are skipped, saying so; with ``REPLAY_REQUIRE_COMPILED=1``
(CI) they fail instead.
"""

from __future__ import annotations

import hashlib
import random

import pytest
from helpers import require_compiled, scaled

from replay.events import Event
from replay.games.wonders_dice import cbots, compiled, simulate_game
from replay.games.wonders_dice.bots import RandomBot
from replay.games.wonders_dice.engine import (
    _PASS,
    StepKey,
    action_candidates,
    board_tables,
    candidate_ok,
    legal_candidates,
    resolve_chosen,
)
from replay.games.wonders_dice.events import KIND
from replay.games.wonders_dice.kernel import direct_action
from replay.games.wonders_dice.projector import _done, states
from replay.games.wonders_dice.rules_data import shipped_rulesets
from replay.games.wonders_dice.simulate import _step_dict
from replay.games.wonders_dice.state import GameState, PlayerState
from replay.jsonl import dump_line

require_compiled(cbots.BUILT_RANDOM_ACTION, cbots.NOT_BUILT)

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]
UPDATES = [
    ("7wd-default", {}),
    ("7wd-default-0.1.0", {}),
    ("7wd-default", {"resolution": "seat_order", "free_action_wonder": True, "resources": "spent"}),
    ("7wd-default", {"coin_cap": 12, "barracks": "one_building", "income": "when_chosen", "cross_mandatory": True,
                     "extra_action_pass": True, "resources": "spent"}),
    ("7wd-default", {"completion": "after_effects", "income": "after_action", "resolution": "simultaneous"}),
]


def _games(count: int, seed: int) -> list[tuple[list[Event], object]]:
    packs = shipped_rulesets()
    out = []
    for i in range(count):
        pack, update = UPDATES[i % len(UPDATES)]
        rules = packs[pack]
        out.append((simulate_game(f"a{i}", NAMES[:2 + i % 6], seed + i, ("random",), rules,
                                  rules.options.model_copy(update=update)), rules))
    return out


def _acting(events: list[Event]) -> list[tuple[GameState, int]]:
    """A copy of the table before each action of the game, with the seat about to act."""
    found = []
    for _event, state in states(events):
        if state.phase == "actions" and not state.pending and state.options.resolution != "two_phase":
            found.append((state.copy(), state.next_seat))
    return found


class _OddSet(set[int]):
    """A set of another type: the compiled seat bookkeeping leaves it to the Python ``_done``."""


def _python_action(state: GameState, seat: int, rng: random.Random, events: list[Event], turn: int) -> object:
    """What simulate_game's loop does for a random bot's action without the compiled call: chosen, applied
    (a step that asks a question by the resolver, asking the bot each follow-up in Python), logged, the seat done."""
    with cbots.use(False):
        bot = RandomBot(rng)
        step = bot.main(state, state.players[seat], board_tables(state.rules, state.players[seat].board))
        as_dict = _step_dict(step)
        trusted = compiled.TRUSTED
        done = trusted(state, seat, as_dict) if trusted is not None else direct_action(state, seat, as_dict, trusted=True)
        return _logged(state, seat, bot, step, done, events, turn)


def _logged(state: GameState, seat: int, bot: RandomBot, step: StepKey, done: tuple[int, int] | None,
            events: list[Event], turn: int) -> dict[str, int]:
    """The action's end in simulate_game's loop: resolved by the resolver when nothing applied it (``done`` None),
    its event appended, the seat done; its claims."""
    if done is None:
        first = resolve_chosen(state, seat, bot, step)
        steps = [_step_dict(s) for s in first.steps]
        done = first.paid, first.vp
    else:
        steps = [_step_dict(step)]
    claims = {"paid": done[0], "vp": done[1], "coins": 0}
    events.append(Event("g", len(events), KIND, "action_taken", 1,
                        {"turn": turn, "player": seat, "steps": steps, "claims": claims}))
    _done(state, seat)
    return claims


def test_random_action_is_the_pythons_at_every_decision():
    """Every action of simulated games taken both ways from copies of the table before it: the same claims,
    the same event (with the bot's answers to the questions its step asks, answered in C or declined to the
    resolver with the draws taken back), the same draws and the same table after (its hash, the seats done,
    the phase); every sixth with ``acted`` of another set type (the Python ``_done`` then does the bookkeeping)."""
    kinds = {"one step": 0, "answered": 0, "declined": 0, "odd acted": 0}
    for g, (events, _rules) in enumerate(_games(scaled(30, 200), 700_000)):
        for k, (before, seat) in enumerate(_acting(events)):
            odd = k % 6 == 5
            a, b = before.copy(), before.copy()
            if odd:
                a.acted, b.acted = _OddSet(a.acted), _OddSet(b.acted)
                kinds["odd acted"] += 1
            rng_a, rng_b = random.Random(g * 1000 + k), random.Random(g * 1000 + k)
            events_a: list[Event] = [events[0]]
            events_b: list[Event] = [events[0]]
            p = a.players[seat]
            got = cbots.BUILT_RANDOM_ACTION(rng_a.getrandbits, _PASS, board_tables(a.rules, p.board), a, p, candidate_ok,
                                            compiled.BUILT_TRUSTED, seat, _done, events_a, Event, "g", KIND, a.turn)
            if type(got) is StepKey:  # a question the kernel left to the resolver: nothing drawn for it yet
                kinds["declined"] += 1
                with cbots.use(False):
                    got = _logged(a, seat, RandomBot(rng_a), got, None, events_a, a.turn)
            else:
                kinds["answered" if len(events_a[-1].payload["steps"]) > 1 else "one step"] += 1
            expected = _python_action(b, seat, rng_b, events_b, b.turn)
            assert got == expected
            assert type(got) is dict
            assert [dump_line(e) for e in events_a] == [dump_line(e) for e in events_b]
            assert all(type(e) is Event for e in events_a)
            assert rng_a.getstate() == rng_b.getstate()
            assert (a.acted, a.next_seat, a.phase) == (b.acted, b.next_seat, b.phase)
            assert a.state_hash() == b.state_hash()
    assert kinds["one step"] > 2_000 and kinds["answered"] > 100 and kinds["declined"] > 20, kinds
    assert kinds["odd acted"] > 300, kinds


def test_random_main_is_the_pythons_at_every_decision():
    """``random_main`` against ``RandomBot.main``'s Python for every player after every roll and action of
    simulated games: the same step and the same draws."""
    compared = 0
    for events, _rules in _games(scaled(20, 150), 710_000):
        for event, state in states(events):
            if event.type not in ("dice_rolled", "action_taken"):
                continue
            for p in state.players:
                tables = board_tables(state.rules, p.board)
                rng_a, rng_b = random.Random(compared), random.Random(compared)
                got = cbots.BUILT_RANDOM_MAIN(rng_a.getrandbits, _PASS, tables, state, p, candidate_ok)
                with cbots.use(False):
                    expected = RandomBot(rng_b).main(state, p, tables)
                assert got == expected
                assert rng_a.getstate() == rng_b.getstate()
                compared += 1
    assert compared > 5_000


class _Player(PlayerState):
    """A player of another type: its resources are read from the property, never counted in C."""

    @property
    def resources(self) -> int:
        return 7


def _odd_players(p: PlayerState, i: int) -> list[PlayerState]:
    """Copies of ``p`` with values the C counting must count right or leave to the property."""
    producing = [b for b, _spaces in p.producers]
    out = []
    for spent in (0, 1, 3, -2, True, 2**70):
        q = p.copy()
        q.resources_spent = spent  # type: ignore[assignment]  # odd on purpose
        out.append(q)
    for b in producing:
        q = p.copy()
        q.crossed[b] = list(q.crossed.get(b, set()))  # type: ignore[assignment]  # a list: the property
        out.append(q)
        q = p.copy()
        q.crossed[b] = frozenset(q.crossed.get(b, set()))  # type: ignore[assignment]
        out.append(q)
        q = p.copy()  # every space of the producer crossed: the most resources it can give
        q.crossed[b] = set(q.board[b].space)
        out.append(q)
    q = p.copy()
    q.producers = q.producers + (("no-such-building", ("s1",)),)
    out.append(q)
    q = p.copy()  # a set of spaces, not a tuple: the property
    q.producers = tuple((b, frozenset(spaces)) for b, spaces in q.producers)  # type: ignore[misc]
    out.append(q)
    odd = _Player(p.seat, p.name, p.city, p.coins, p.board, {b: set(s) for b, s in p.crossed.items()}, dict(p.vp),
                  list(p.bonuses), set(p.unlocked), p.resources_spent, p.discount_all, dict(p.discount),
                  set(p.free_colours), dict(p.income), list(p.end_effects), list(p.this_turn), p.producers)
    out.append(odd)
    q = p.copy()
    q.coins = i % 4  # poor: the payment decides
    out.append(q)
    return out


def test_resources_counted_in_c_decide_as_the_property():
    """``first_ok`` and ``all_ok`` (which count a PlayerState's resources in C) against the Python
    ``candidate_ok`` (which reads the property) on every listed candidate, for players with odd values:
    spent resources of odd types and signs, a producer's crossed spaces as a list or frozenset, every space
    crossed, a producer not on the board, a player subclass with its own property, few coins."""
    verdicts = {True: 0, False: 0}
    costly = 0
    for i, (events, _rules) in enumerate(_games(scaled(10, 80), 720_000)):
        kept = [state.copy() for event, state in states(events) if event.type == "dice_rolled"][::3]
        for state in kept:
            for p in state.players:
                for q in _odd_players(p, i):
                    state.players[q.seat] = q
                    candidates = action_candidates(state, q, board_tables(state.rules, q.board))
                    with cbots.use(False):
                        expected = legal_candidates(state, q, candidates, False)
                    assert cbots.BUILT_ALL_OK(candidates, state, q, False, candidate_ok) == expected
                    assert cbots.BUILT_FIRST_OK(candidates, state, q, False, candidate_ok) == (expected[0] if expected else None)
                    for c in candidates:
                        ok = candidate_ok(state, q, c, False)
                        assert (cbots.BUILT_FIRST_OK([c], state, q, False, candidate_ok) is c) == ok, (c, q.resources_spent)
                        verdicts[ok] += 1
                        if c.kind != "pass" and q.board[c.building].space[c.space].cost:  # type: ignore[index]
                            costly += 1
                    state.players[q.seat] = p
    assert verdicts[True] > 5_000 and verdicts[False] > 1_000 and costly > 2_000, (verdicts, costly)


def _digest(count: int, seed: int) -> str:
    h = hashlib.sha256()
    for events, _rules in _games(count, seed):
        for e in events:
            h.update(dump_line(e).encode())
    return h.hexdigest()


@pytest.mark.parametrize("module, switch", [(cbots, "RANDOM_ACTION"), (cbots, "RANDOM_MAIN"), (compiled, "START_TURN"),
                                            (compiled, "TURN_END")])
def test_whole_games_are_the_same_bytes_with_each_piece_off(monkeypatch, module, switch):
    """Whole seeded games with the one-call action (or the one-call choice, and so the action), or the
    kernel's start or end of a turn, switched off: the same bytes."""
    count = scaled(300, 3_000)
    with cbots.use(True), compiled.use(True):
        assert getattr(module, switch) is not None
        on = _digest(count, 730_000)
        monkeypatch.setattr(module, switch, None)
        off = _digest(count, 730_000)
    assert on == off


def test_random_action_refuses_what_it_does_not_take():
    with pytest.raises(TypeError):
        cbots.BUILT_RANDOM_ACTION(1, 2, 3)
    with pytest.raises(TypeError):  # events not a list
        cbots.BUILT_RANDOM_ACTION(*([None] * 9), (), Event, "g", KIND, 1)
    with pytest.raises(TypeError):
        cbots.BUILT_RANDOM_MAIN(1, 2)
    with pytest.raises(TypeError):
        cbots.BUILT_RANDOM_ACTION(*([None] * 9), [], StepKey.__name__, "g", KIND, 1)  # not a tuple type


def test_simulated_turns_start_and_end_in_the_kernel(monkeypatch):
    """Not a vacuous comparison above: the simulation's rolls all start their turn in the kernel, and most
    turns end there (the Python settles the Agora, once a game)."""
    answers: dict[str, list[object]] = {"START_TURN": [], "TURN_END": []}
    for name, seen in answers.items():
        piece = getattr(compiled, name)
        assert piece is not None

        def counted(*args, piece=piece, seen=seen):
            done = piece(*args)
            seen.append(done)
            return done

        monkeypatch.setattr(compiled, name, counted)
    _digest(20, 731_000)
    rolls, ends = answers["START_TURN"], answers["TURN_END"]
    assert rolls and all(done is True for done in rolls)
    assert len(ends) == len(rolls) and sum(done is True for done in ends) > 0.9 * len(ends)


def test_whole_games_are_the_same_bytes_with_the_bots_answers_in_the_kernel_or_not():
    """The questions a random bot's step asks answered in the kernel (``compiled.bot_answers``) or by the
    resolver asking the bot in Python: the same bytes, under every option set of ``UPDATES``."""
    count = scaled(300, 3_000)
    assert compiled.bot_answers(True)
    try:
        on = _digest(count, 740_000)
        assert not compiled.bot_answers(False)
        off = _digest(count, 740_000)
    finally:
        compiled.bot_answers(True)
    assert on == off


def test_most_questions_are_answered_in_the_kernel(monkeypatch):
    """Not a vacuous comparison above: with the answers in the kernel, the resolver is asked for few of the
    actions whose step asks a question (those the kernel cannot judge: a Guild Court, a table left unsure)."""
    from replay.games.wonders_dice import simulate

    asked: list[int] = []
    resolve = simulate.resolve_chosen

    def counted(*args):
        asked.append(1)
        return resolve(*args)

    monkeypatch.setattr(simulate, "resolve_chosen", counted)
    try:
        compiled.bot_answers(False)
        _digest(40, 741_000)
        without = len(asked)
        asked.clear()
        compiled.bot_answers(True)
        _digest(40, 741_000)
    finally:
        compiled.bot_answers(True)
    assert without > 200 and len(asked) < 0.25 * without, (without, len(asked))


def test_the_kernels_answers_refuse_what_they_do_not_take():
    with pytest.raises(TypeError):  # steps not a list of one step
        compiled.BUILT_TRUSTED(None, 0, {}, random.Random(1).getrandbits, [])  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        compiled._KERNEL.link_bots("not a capsule")
    with pytest.raises(TypeError):
        compiled._KERNEL.link_bots()
