"""What every game must do, checked the same way for each installed kind.

Simulated games are the material: they come from the game's own bots, seeded, so a
failure names a kind, a seed and an event.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pyarrow as pa
import pytest
from helpers import scaled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.contract import Observer, Step
from replay.driver import Replay, replay
from replay.events import Event
from replay.registry import registry
from replay.services.audit import audit
from replay.services.logs import Log
from replay.snapshots import restore, take

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus", "Hana"]
SCHEMAS = Path(__file__).parent.parent.parent / "schemas"


def simulate(game, pack, seed: int, players: int | None = None) -> list[Event]:
    """A seeded game of the kind under the pack: each is simulated once per run (the bots are
    deterministic, so the same call gives the same events) and handed out as a deep copy, so no
    test can spoil another's material by changing a payload."""
    key = (game.kind, pack.content_hash, seed, players)
    if key not in _SIMULATED:
        low, high = game.players
        n = players or random.Random(seed).randint(max(low, 2), min(high, len(NAMES)))
        _SIMULATED[key] = game.bots.simulate(f"{game.kind}-c{seed}", NAMES[:n], seed, game.bots.default, pack)
    return copy.deepcopy(_SIMULATED[key])


_SIMULATED: dict[tuple[str, str, int, int | None], list[Event]] = {}


SEEDS = range(6)


def test_simulate_append_read_gives_the_same_events(game, pack, bots, tmp_path):
    archive = Archive.init(tmp_path / "a")
    games = [simulate(game, pack, seed) for seed in SEEDS]
    archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games])
    for events in games:
        assert archive.read_game(events[0].game_id) == events
    assert {(p.kind, p.content_hash) for p in archive.packs.stored()} == {(game.kind, pack.content_hash)}


def test_simulated_games_replay_clean_audit_clean_and_end(game, pack, bots):
    for seed in SEEDS:
        events = simulate(game, pack, seed)
        r = replay(game, events, level="raise")
        assert game.rules.is_over(r.state)
        result = game.views.result(r.state)
        assert result is not None and result.finished and result.winners
        assert {s.seat for s in result.scores} == set(range(len(r.names)))
        report = audit(Log(events, game, "simulated"))
        assert report.ok, [str(p) for p in report.problems]


def test_a_disputed_claim_is_one_problem_at_its_event(game, pack, bots):
    """``Views.dispute`` (what the demo shows): the one changed claim is reported at its event, and
    nothing else is; a game that records no claim says so with None."""
    events = simulate(game, pack, 1)
    dispute = game.views.dispute(events)
    if dispute is None:
        pytest.skip(f"{game.title} records no claim to dispute")
    i, payload, what = dispute
    assert what and payload != events[i].payload
    altered = [*events[:i], events[i]._replace(payload=payload), *events[i + 1:]]
    report = audit(Log(altered, game, "disputed"))
    assert [p.seq for p in report.problems] == [events[i].seq], [str(p) for p in report.problems]


def test_every_recorded_action_was_legal(game, pack, bots):
    class Check(Observer):
        def __init__(self):
            self.checked = 0

        def before(self, state, event):
            action = game.rules.action_of(event)
            if action is None:
                return
            seat = game.rules.position(state, event).seat
            assert seat is not None, f"{event.type} at seq {event.seq} records an action but no seat"
            assert action in list(game.rules.legal_actions(state, seat)), (event.seq, action)
            self.checked += 1

    for seed in range(2):
        check = Check()
        replay(game, simulate(game, pack, seed, players=game.players[0] if game.players[0] > 1 else 2),
               level="raise", observers=[check])
        assert check.checked > 0


class _Hashes(Observer):
    def __init__(self, game):
        self.game, self.hashes, self.snapshots = game, [], []

    def after(self, step: Step) -> None:
        self.hashes.append(self.game.views.state_hash(step.state))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), cut=st.floats(0, 1))
def test_snapshots_are_lossless_and_replay_on_identically(game, pack, bots, seed, cut):
    events = simulate(game, pack, seed)
    straight = _Hashes(game)
    replay(game, events, observers=[straight])
    at = int(cut * (len(events) - 1))
    r = Replay(game)
    for e in events[: at + 1]:
        r.push(e)
    snap = take(game, r.state, at, r.pack)
    json.dumps(snap.state)  # plain JSON data
    restored = restore(game, snap, r.pack)
    assert restored == r.state
    assert game.rules.snapshot(restored) == snap.state
    resumed = _Hashes(game)
    go_on = Replay.resume(game, r.pack, restored, at, r.names, observers=[resumed])
    for e in events[at + 1:]:
        go_on.push(e)
    assert straight.hashes[at + 1:] == resumed.hashes
    assert not go_on.problems


def test_notation_round_trips(game, pack, bots):
    if game.notation is None:
        pytest.skip(f"{game.title} has no notation")
    for seed in SEEDS:
        events = simulate(game, pack, seed)
        text = game.notation.write(events)
        parsed = game.notation.read(text, "raise", "round-trip")
        assert parsed.events == events
        assert game.notation.write(parsed.events) == text
        assert sorted(parsed.lines) == [e.seq for e in events]


def test_derived_rows_fit_their_schemas(game, pack, bots):
    if game.analytics is None:
        pytest.skip(f"{game.title} has no derived tables")
    from replay.analytics.project import derive_game, tables_of

    tables = tables_of(game)
    seen = set()
    for seed in SEEDS:
        events = simulate(game, pack, seed)
        rows = derive_game(game, events, game.library(), ended=True)
        assert set(rows) == set(tables)
        for name, table_rows in rows.items():
            schema = tables[name]
            for row in table_rows:
                assert set(row) == set(schema.names), (name, set(row) ^ set(schema.names))
            pa.Table.from_pylist(table_rows, schema=schema)  # every value fits its column
            seen |= {name} if table_rows else set()
    own = {f"{game.analytics.schema}.{t}" for t in game.analytics.tables}
    expected = set(tables) - own | {f"{game.analytics.schema}.{t}" for t in game.analytics.tables_played(pack)}
    assert seen == expected, f"tables never filled: {expected - seen}; filled though not played: {seen - expected}"


def test_schema_files_are_current(game):
    from replay.schema_files import schema_files

    for name, text in schema_files(registry).items():
        if name.startswith(f"{game.kind}."):
            assert (SCHEMAS / name).read_text() == text, f"run `replay schema --write schemas`: {name}"


def test_what_a_seat_sees_hides_what_it_must_not(game, pack, bots):
    """A game of hidden information may have nothing hidden at some moment (7 Wonders before the
    first deal): ``conceal`` then says None; but it must conceal something in the games played (a
    7 Wonders Duel game with Agora in which nobody conspires has no secret)."""
    rng = random.Random(5)
    concealed = 0
    hides = False
    for seed in range(3):
        events = simulate(game, pack, seed)
        r = Replay(game)
        for i, e in enumerate(events):
            r.push(e)
            if i % 7:
                continue
            for seat in range(len(r.names)):
                seen = game.views.observe(r.state, seat)
                json.dumps(seen)
                other = game.views.conceal(r.state, seat, rng)
                secret = game.views.hides(r.state)
                if other is None:
                    if not secret:
                        assert seen == game.views.data(r.state)
                else:
                    concealed += 1
                    assert secret, "conceal() hides something in a game of perfect information"
                    assert game.views.observe(other, seat) == seen, "observe() shows what the seat must not see"
                    assert game.views.data(other) != game.views.data(r.state), "conceal() changed nothing"
        hides = hides or game.views.hides(r.state)
    assert concealed > 0 or not hides, "a game of hidden information never hid anything"


def test_the_replay_page_shows_every_step(game, pack, bots):
    """The page (``replay view``) of a game and of a damaged copy: every step it can show is the
    state a straight replay gives, in every view; its board data is plain JSON."""
    from replay.services.page import ALL, page_data, page_state

    events = simulate(game, pack, 2)
    for log in (events, _mutate(events, random.Random(9), game)):
        version = page_data([Log(log, game, "page")])["versions"][0]
        json.dumps(version["board"])
        r = Replay(game)
        for i, e in enumerate(log):
            r.push(e)
            if r.state is None:
                break
            assert page_state(version, ALL, i) == game.views.data(r.state), f"event {i}"
            for seat, name in enumerate(r.names if game.views.hides(r.state) else []):
                assert page_state(version, name, i) == game.views.observe(r.state, seat)
    script = game.views.page_script()
    assert script is None or "return function" in script


MUTATIONS = ("drop", "duplicate", "swap", "alter", "borrow")


def _mutate(events: list[Event], rng: random.Random, game) -> list[Event]:
    """A log broken the way real logs break: an event lost, doubled, out of order, or changed."""
    out = list(events)
    for _ in range(rng.choice([1, 1, 2, 3])):
        how = rng.choice(MUTATIONS)
        i = 0 if rng.random() < 0.05 or len(out) < 2 else rng.randrange(1, len(out))  # now and then, the start
        if how == "drop":
            del out[i]
        elif how == "duplicate":
            out.insert(i, out[i])
        elif how == "swap" and i + 1 < len(out):
            out[i], out[i + 1] = out[i + 1], out[i]
        elif how == "alter":
            out[i] = out[i]._replace(payload=_altered(out[i].payload, rng))
        elif how == "borrow":  # another event's payload of the same type, elsewhere in the game
            same = [e for e in events if e.type == out[i].type]
            out[i] = out[i]._replace(payload=rng.choice(same).payload)
    valid = []
    for seq, e in enumerate(out):  # keep only what the event models accept: the archive stores nothing else
        try:
            game.models[e.type].model_validate(e.payload)
        except ValueError:
            continue
        valid.append(e._replace(seq=seq))
    return [e._replace(seq=s) for s, e in enumerate(valid)]


def _altered(value, rng: random.Random):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return max(0, value + rng.choice([-2, -1, 1, 1, 2, 5]))
    if isinstance(value, str):
        return rng.choice([value, value[::-1], value + "x", ""])
    if isinstance(value, list) and value:
        copy = list(value)
        j = rng.randrange(len(copy))
        copy[j] = _altered(copy[j], rng) if rng.random() < 0.8 else copy[j]
        if rng.random() < 0.2:
            del copy[j]
        return copy
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        return {**value, key: _altered(value[key], rng)}
    return value


def test_mutated_logs_give_problems_never_a_traceback(game, pack, bots):
    rng = random.Random(2026)
    problems = unplayable = 0
    for n in range(scaled(150, 1500)):
        events = simulate(game, pack, n % 10)
        broken = _mutate(events, rng, game)
        r = replay(game, broken)  # lenient: must reach the end
        assert r.index == len(broken) - 1
        internal = [p for p in r.problems if p.rule_id == "replay.internal"]
        assert not internal, f"seed {n % 10}, mutation {n}: {internal[0]}"
        problems += len(r.problems)
        unplayable += r.unplayable is not None
        if r.state is not None:
            json.dumps(game.views.data(r.state))  # every view still works on a disputed game
            game.views.show(r.state)
    assert problems > 0
    assert unplayable > 0  # some mutations broke the start: named, not raised


def test_a_mangled_start_event_is_a_problem_never_a_traceback(game, pack, bots):
    rng = random.Random(7)
    events = simulate(game, pack, 1)
    rule_ids = set()
    for _ in range(60):
        start = events[0]
        for _ in range(rng.choice([1, 2, 3])):
            start = start._replace(payload=_altered(start.payload, rng))
        try:
            game.models[start.type].model_validate(start.payload)
        except ValueError:
            continue
        r = replay(game, [start, *events[1:]])
        assert not [p for p in r.problems if p.rule_id == "replay.internal"], r.problems[:1]
        rule_ids |= {p.rule_id for p in r.problems}
    assert rule_ids  # the mangling was noticed


def test_the_playable_packs_are_shipped_and_complete(game):
    """Each pack a new game may be played under is shipped, the default first (the tests above play each)."""
    names = game.playable_packs()
    assert names[0] == game.default_pack and len(set(names)) == len(names)
    assert set(names) <= set(game.packs()), f"offered but not shipped: {set(names) - set(game.packs())}"
