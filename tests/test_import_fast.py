"""Bulk import's fast paths give what the event-by-event code gave: the same checks' verdicts and
errors (``_shapes_fine`` vouches only for batches ``_check_shapes`` passes), the same game spans, the
same sort, the same bytes."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers import pig_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.archive import manifest as mf
from replay.archive.store import _check_shapes, _shapes_fine, game_spans, in_key_order, parquet_bytes
from replay.chain import chain
from replay.errors import StreamError
from replay.games.pig import GAME as PIG
from replay.registry import registry
from replay.schema import encode, kind_schema
from replay.services.simulation import check_bots, simulated

GAMES = {g: pig_game(g, seed, players=2 + seed % 3) for seed, g in enumerate(["a1", "b2", "c3", "d4"], start=1)}


def reference_spans(table: pa.Table, game) -> dict[str, mf.GameSpan]:
    """game_spans as it was: a Python step per event (the definition the Arrow version must match)."""
    game_ids = table.column("game_id").to_pylist()
    seqs = table.column("seq").to_pylist()
    types = table.column("type").to_pylist()
    start = game.start_type.event_type
    starts = table.column(start)
    spans: dict[str, mf.GameSpan] = {}
    i, n = 0, len(game_ids)
    while i < n:
        g, j, players, ended = game_ids[i], i, None, False
        while j < n and game_ids[j] == g:
            if types[j] == start:
                players = tuple(s["name"] for s in sorted(starts[j].as_py()["seats"], key=lambda s: s["seat"]))
            if types[j] in game.end_types:
                ended = True
            j += 1
        spans[g] = mf.GameSpan(seqs[i], seqs[j - 1], players, ended)
        i = j
    return spans


def _table(events):
    return encode(events, PIG, chain(events)).sort_by([("game_id", "ascending"), ("seq", "ascending")])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(GAMES)), st.integers(0, 400), st.integers(0, 400)), max_size=4),
       st.booleans())
def test_game_spans_match_the_event_by_event_definition(pieces, through_parquet):
    events = []
    for g, a, b in pieces:  # any slice of any game: partial games, no start, no end
        events.extend(GAMES[g][min(a, b):max(a, b)])
    table = _table(events)
    if through_parquet:  # as verify reads a file: dictionary columns, several chunks
        table = pq.read_table(pa.BufferReader(parquet_bytes(table, row_group_rows=97)),
                              read_dictionary=["game_id", "kind", "type"])
    assert game_spans(table, PIG) == reference_spans(table, PIG)


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(12)), st.integers(0, 12))
def test_in_key_order_says_whether_sorting_changes_anything(order, unsorted_from):
    events = [e for g in sorted(GAMES) for e in GAMES[g][:3]]
    rows = list(range(unsorted_from)) + [unsorted_from + i for i in order if unsorted_from + i < 12]
    table = encode([events[i] for i in rows], PIG, [0] * len(rows))
    assert in_key_order(table) == table.sort_by([("game_id", "ascending"), ("seq", "ascending")]).equals(table)


MUTATIONS = ["none", "game_id", "seq", "kind", "type", "unknown type", "version", "start", "end early",
             "swap", "duplicate game", "empty", "bad id", "expected", "payload", "pack", "pack and payload"]


def _unknown_pack(start):
    """A start event pinning a pack nobody has (anything else: unchanged)."""
    if start.seq != 0:
        return start
    return start._replace(payload={**start.payload, "ruleset": {**start.payload["ruleset"], "id": "nowhere"}})


def _mutated(mutation: str, where: int, appends: list[StreamAppend]) -> list[StreamAppend]:
    """A batch with one kind of damage, at an event chosen by ``where``."""
    a = appends[where % len(appends)]
    events = list(a.events)
    i = where % len(events)
    e = events[i]
    change = {
        "game_id": lambda: [*events[:i], e._replace(game_id="zz"), *events[i + 1:]],
        "seq": lambda: [*events[:i], e._replace(seq=e.seq + 1 + where % 3), *events[i + 1:]],
        "kind": lambda: [*events[:i], e._replace(kind="flip7"), *events[i + 1:]],
        "type": lambda: [*events[:i], e._replace(type="held" if e.type != "held" else "die_rolled"), *events[i + 1:]],
        "unknown type": lambda: [*events[:i], e._replace(type="nope"), *events[i + 1:]],
        "version": lambda: [*events[:i], e._replace(version=e.version + 1), *events[i + 1:]],
        "start": lambda: [*events[:i], events[0]._replace(seq=e.seq), *events[i + 1:]],
        "end early": lambda: [*events[:i], events[-1]._replace(seq=e.seq), *events[i + 1:]],
        "swap": lambda: [*events[:i], *events[i + 1:i + 2], e, *events[i + 2:]],
        "empty": lambda: [],
        "payload": lambda: [*events[:i], e._replace(payload={**e.payload, "face": "six"}), *events[i + 1:]],
        "pack": lambda: [_unknown_pack(events[0]), *events[1:]],
        "pack and payload": lambda: [_unknown_pack(events[0]), *events[1:-1], events[-1]._replace(payload={"x": {1}})],
    }
    out = list(appends)
    k = where % len(appends)
    if mutation in change:
        out[k] = StreamAppend(a.game_id, a.expected_last_seq, change[mutation]())
    elif mutation == "duplicate game":
        out.append(a)
    elif mutation == "bad id":
        out[k] = StreamAppend("-" + a.game_id, a.expected_last_seq, [x._replace(game_id="-" + a.game_id) for x in events])
    elif mutation == "expected":
        out[k] = StreamAppend(a.game_id, a.expected_last_seq + 1 + where % 2, events)
    return out


def _shapes_pass(batch) -> bool:
    try:
        _check_shapes(batch, registry)
    except StreamError:
        return False
    return True


def _outcome(action):
    try:
        action()
    except Exception as exc:  # the error's class and message are what must not change
        return type(exc).__name__, str(exc)
    return None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(MUTATIONS), st.integers(0, 10_000), st.integers(1, 4), st.booleans())
def test_append_many_errors_as_the_event_by_event_checks_give_them(mutation, where, games, continuing):
    names = sorted(GAMES)[:games]
    appends = [StreamAppend(g, NEW_STREAM, GAMES[g][:40]) for g in names]
    with tempfile.TemporaryDirectory() as tmp:
        archive = Archive.init(Path(tmp) / "a")
        if continuing:  # appends that continue stored games: chained from the stored links
            archive.append_many(appends)
            appends = [StreamAppend(g, 39, GAMES[g][40:90]) for g in names]
        batch = _mutated(mutation, where, appends)
        events = [e for a in batch for e in a.events]

        def definition():  # append_many as it was: the checks event by event, then packs, then encoding
            _check_shapes(batch, registry)
            archive.pinned_packs([a.events[0] for a in batch if a.events[0].seq == 0])
            archive.prepare_files(events)

        expected = _outcome(definition)
        tables = archive._encoded(events, {}) if _outcome(lambda: archive._encoded(events, {})) is None else []
        if len(tables) == 1:  # it vouches for sound shapes, never for shapes the definition refuses
            assert _shapes_fine(tables[0][1], batch, registry.get(tables[0][0])) == _shapes_pass(batch)
        assert _outcome(lambda: archive.append_many(batch)) == expected
        if expected is None and mutation != "payload":  # (an unknown payload key is not stored)
            stored = [e for g in names for e in GAMES[g][:40]] if continuing else []
            assert sorted(e for g in names for e in archive.read_game(g)) == sorted(stored + events)


@pytest.mark.parametrize("sort", [False, True])
def test_bulk_import_bytes_are_the_definitions(tmp_path, sort):
    """The files bulk import writes: the same bytes as encoding the chained events and sorting them."""
    games = sorted(GAMES, reverse=sort)
    archive = Archive.init(tmp_path / "a")
    result = archive.append_many([StreamAppend(g, NEW_STREAM, GAMES[g]) for g in games])
    events = [e for g in games for e in GAMES[g]]
    hashes = [h for g in games for h in chain(GAMES[g])]
    table = encode(events, PIG, hashes).sort_by([("game_id", "ascending"), ("seq", "ascending")])
    assert archive.path_of(result.files[0]).read_bytes() == parquet_bytes(table)


def _encode_definition(events, game, hashes) -> pa.Table:
    """encode as defined: every column converted whole, a payload column holding None at other types' rows."""
    envelope = {"game_id": [e.game_id for e in events], "seq": [e.seq for e in events], "kind": [e.kind for e in events],
                "type": [e.type for e in events], "version": [e.version for e in events], "hash": hashes}
    schema = kind_schema(game)
    return pa.Table.from_arrays(
        [pa.array(envelope[f.name] if f.name in envelope else [e.payload if e.type == f.name else None for e in events],
                  f.type) for f in schema], schema=schema)


@pytest.mark.parametrize("kind", sorted(g.kind for g in registry.games()))
def test_encode_gives_the_bytes_of_the_column_by_column_definition(kind):
    game = registry.get(kind)
    low, high = game.players
    events = [e for i in range(6) for e in simulated(game, 3, i, min(low + i % 2, high), check_bots(game, ()), game.pack())]
    for part in (events, events[5:40], [e for e in events if e.seq != 0]):
        hashes = list(range(len(part)))
        assert parquet_bytes(encode(part, game, hashes)) == parquet_bytes(_encode_definition(part, game, hashes))
