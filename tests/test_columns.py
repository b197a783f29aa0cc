"""The compiled column decoder (replay._columns through replay/columns.py) gives what pyarrow gives.

Same values, same dict key order, same None for nulls, on every game's archives (simulated, upcast,
disputed) and on random nested arrays (hypothesis: every type the archive's schemas use, nulls at
every level, slices, several chunks); what it declines (a repeated map key, bytes that are not
UTF-8, an index past its dictionary) goes to pyarrow, whose result or error is then the one given.
"""

from __future__ import annotations

import gc
import io
import string
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers import SEVEN, pig_game, require_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_upcast_archive import OLD_PIG, _as_v1

from replay import columns
from replay.analytics.project import derive_records
from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.archive.compact import compact
from replay.archive.scan import iter_games, read_games
from replay.errors import ReplayError, SchemaError
from replay.events import Event
from replay.registry import registry
from replay.schema import DICTIONARY_COLUMNS, decode, encode, payload_string_columns

require_compiled(columns.BUILT, columns.NOT_BUILT)


def both(column: pa.Array | pa.ChunkedArray, maps_as_dicts: bool = True) -> tuple[object, object]:
    """(compiled, pyarrow) conversions of ``column``: each a list, or the type of the error raised."""
    out = []
    for on in (True, False):
        with columns.use(on):
            try:
                out.append(repr(columns.to_pylist(column, maps_as_dicts)))
            except Exception as exc:  # the same error either way is what is checked
                out.append(type(exc).__name__)
    return out[0], out[1]


def decoded_both_ways(table: pa.Table, game) -> tuple[str, str]:
    with columns.use(True):
        fast = repr(decode(table, game))  # repr: dict key order and value types count too
    with columns.use(False):
        slow = repr(decode(table, game))
    return fast, slow


def as_stored(table: pa.Table) -> pa.Table:
    """The table written to Parquet and read back as the archive's readers of row groups read it: a row group at a
    time, its envelope strings and its payloads' strings outside maps as dictionaries (``Archive.open_data``)."""
    sink = io.BytesIO()
    pq.write_table(table, sink, row_group_size=500)
    meta = pq.read_metadata(pa.BufferReader(sink.getvalue()))
    leaves = [meta.schema.column(i).path for i in range(len(meta.schema))]
    strings = payload_string_columns(meta.schema.to_arrow_schema(), leaves)
    pf = pq.ParquetFile(pa.BufferReader(sink.getvalue()), read_dictionary=list(DICTIONARY_COLUMNS) + strings)
    return pa.concat_tables(pf.read_row_group(g) for g in range(meta.num_row_groups))


def simulated_events(kind: str) -> list[Event]:
    """A game of each player count from 2 to 5 the kind allows, by its default bots."""
    game = registry.get(kind)
    events = []
    for seed, players in enumerate(range(2, 6)):
        try:
            events += game.bots.simulate(f"{kind}-{seed}", SEVEN[:players], seed, game.bots.default, game.pack())
        except ReplayError:  # not a player count of this game
            continue
    return events


@pytest.mark.parametrize("kind", sorted(registry.kinds()))
def test_every_games_events_decode_the_same(kind):
    game = registry.get(kind)
    events = simulated_events(kind)
    assert events
    i, payload, _ = game.views.dispute(events)  # a claim changed, as a disputed log has it
    events[i] = events[i]._replace(payload=payload)
    table = as_stored(encode(events, game, [0] * len(events)))
    for model in game.event_types:  # the compiled decoder takes every payload column (it declines none)
        assert all(columns.BUILT(chunk) is not None for chunk in table.column(model.event_type).chunks)
    fast, slow = decoded_both_ways(table, game)
    assert fast == slow
    assert fast == repr(events)  # and both are the events written
    for offset, length in ((0, 1), (7, 40), (len(events) - 3, 3)):
        assert decoded_both_ways(table.slice(offset, length), game)[0] == repr(events[offset:offset + length])


def test_an_archive_reads_the_same_through_every_reader(tmp_path):
    game = registry.get("7wonders-dice")
    archive = Archive.init(tmp_path / "a")
    games = [game.bots.simulate(f"g{n}-{i}", SEVEN[:n], 10 * n + i, ("random",), game.pack())
             for n in (2, 5, 7) for i in range(3)]
    archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games[:5]])
    archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in games[5:]])
    for compacted in (False, True):
        if compacted:
            compact(archive)
        streams = archive.snapshot().streams
        for on in (True, False):
            with columns.use(on):
                assert [archive.read_game(g[0].game_id) for g in games] == games
                assert sorted(archive.iter_events(), key=lambda e: (e.game_id, e.seq)) == sorted(
                    (e for g in games for e in g), key=lambda e: (e.game_id, e.seq))
                assert sorted(iter_games(archive, game, streams), key=lambda es: es[0].game_id) == sorted(
                    games, key=lambda es: es[0].game_id)
                assert read_games(archive, game, streams, archive.snapshot().files, {}) == {g[0].game_id: g for g in games}
                ids = sorted(streams)
                for chosen in (ids[2:5], ids[::2], ids[-1:]):  # one run of rows (a slice), scattered rows (a filter)
                    some = {g: streams[g] for g in chosen}
                    assert read_games(archive, game, some, archive.snapshot().files, {}) == {
                        g: archive.read_game(g) for g in chosen}
                    assert {es[0].game_id: es for es in iter_games(archive, game, some)} == {
                        g: archive.read_game(g) for g in chosen}


def test_row_group_readers_take_the_payloads_strings_as_dictionaries(tmp_path):
    """What ``open_data(by_row_group=True)`` reads: the payloads' strings as dictionaries (a map's keys and values
    as stored), which the compiled decoder takes as they are (it declines none of the columns)."""
    game = registry.get("7wonders-dice")
    archive = Archive.init(tmp_path / "a")
    events = game.bots.simulate("g", SEVEN[:3], 1, ("random",), game.pack())
    archive.append("g", events, NEW_STREAM)
    entry = next(iter(archive.snapshot().files.values()))
    table = archive.open_data(entry, by_row_group=True).read_row_group(0)
    steps = table.schema.field("action_taken").type.field("steps").type.value_type
    assert pa.types.is_dictionary(steps.field("die").type) and pa.types.is_dictionary(table.schema.field("type").type)
    categories = table.schema.field("game_ended").type.field("scores").type.value_type.field("categories").type
    assert pa.types.is_map(categories) and categories.key_type == pa.string()
    assert not pa.types.is_dictionary(table.schema.field("seq").type)
    for model in game.event_types:
        assert all(columns.BUILT(chunk) is not None for chunk in table.column(model.event_type).chunks)
    assert decoded_both_ways(table, game) == (repr(events),) * 2


def test_old_versions_are_upcast_the_same(tmp_path):
    events = _as_v1(pig_game("g1"))
    table = as_stored(encode(events, OLD_PIG, [0] * len(events)))
    pig = registry.get("pig")
    fast, slow = decoded_both_ways(table, pig)
    assert fast == slow == repr(pig_game("g1"))


def test_what_it_declines_goes_to_pyarrow():
    # a map with a repeated key: pyarrow's strict conversion refuses it, and so does the reader
    repeated = pa.array([[("a", 1), ("a", 2)]], pa.map_(pa.string(), pa.int64()))
    fast, slow = both(repeated)
    assert fast == slow and not fast.startswith("[")  # an error's name, not values
    # bytes that are not UTF-8 in a string column
    bad = pa.array([b"ok", b"\xff\xfe"], pa.binary()).view(pa.string())
    fast, slow = both(pa.StructArray.from_arrays([bad], names=["s"]))
    assert fast == slow == "UnicodeDecodeError"
    # a dictionary-encoded field, a type it does not convert (dates, decimals): pyarrow's values
    encoded = pa.StructArray.from_arrays([pa.array(["x", "y", "x"]).dictionary_encode()], names=["d"])
    dates = pa.array([0, None, 20000], pa.date32())
    for column in (encoded, dates, pa.array([1, None], pa.decimal128(5, 2))):
        fast, slow = both(column)
        assert fast == slow and fast.startswith("[")
    # maps asked as lists of pairs: pyarrow's way, not dicts
    pairs = pa.array([[("a", 1)]], pa.map_(pa.string(), pa.int64()))
    assert both(pairs, maps_as_dicts=False) == (repr([[("a", 1)]]),) * 2


# ---------------------------------------------------------------------- off the collector's lists (tenth pass)


def containers(value: object) -> list[object]:
    """Every dict and list in a decoded payload, itself included."""
    if isinstance(value, dict):
        return [value] + [c for v in value.values() for c in containers(v)]
    if isinstance(value, list):
        return [value] + [c for v in value for c in containers(v)]
    return []


def simulated_table(kind: str) -> tuple[pa.Table, list]:
    events = simulated_events(kind)
    return as_stored(encode(events, registry.get(kind), [0] * len(events))), events


@pytest.mark.parametrize("kind", sorted(registry.kinds()))
def test_decoded_events_are_off_the_collectors_lists(kind):
    """Every payload dict and list the compiled decoder makes, and every event row, is untracked (the collector
    never walks them); the same events as pyarrow's, which leaves its lists tracked."""
    table, events = simulated_table(kind)
    game = registry.get(kind)
    with columns.use(True):
        fast = decode(table, game)
    with columns.use(False):
        slow = decode(table, game)
    assert repr(fast) == repr(slow) == repr(events)
    assert all(type(e) is Event for e in fast)
    made = [c for e in fast for c in containers(e.payload)]
    assert made and not any(gc.is_tracked(c) for c in made)
    assert not any(gc.is_tracked(e) for e in fast)
    if any(isinstance(c, list) for e in slow for c in containers(e.payload)):
        assert any(gc.is_tracked(c) for e in slow for c in containers(e.payload))  # pyarrow's, as CPython makes them


@pytest.mark.parametrize("kind", sorted(registry.kinds()))
def test_replaying_and_deriving_leave_decoded_payloads_unchanged(kind):
    """What makes untracking them safe (replay/columns.py): nothing in the replay, the rules' checks or the
    derived tables' observers changes a decoded payload in place (a list appended to would not track itself)."""
    table, events = simulated_table(kind)
    game = registry.get(kind)
    with columns.use(True):
        decoded = decode(table, game)
    before = repr(decoded)
    for first in range(len(decoded)):
        end = first + 1
        while end < len(decoded) and decoded[end].game_id == decoded[first].game_id:
            end += 1
        if first == 0 or decoded[first - 1].game_id != decoded[first].game_id:
            derive_records(game, decoded[first:end], game.library(), True)
    assert repr(decoded) == before


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_decoded_short_strings_are_interned_as_the_packs_are():
    """The compiled decoder interns each short ASCII string (a fold then finds a payload's ids in its pack's
    tables, whose strings are interned too, by identity); longer or non-ASCII ones are made as they are."""
    table, _ = simulated_table("7wonders-dice")
    with columns.use(True):
        decoded = decode(table, registry.get("7wonders-dice"))
    short = [s for e in decoded for s in _strings(e.payload) if len(s) <= 40 and s.isascii()]
    assert len(short) > 1000 and all(sys.intern(s) is s for s in short)
    assert all(sys.intern(e.type) is e.type for e in decoded)
    pack = registry.get("7wonders-dice").pack()
    ids = [b.id for b in pack.buildings] + [d.colour for d in pack.dice] + list(pack.start.special)
    assert all(sys.intern(i) is i for i in ids)


def test_a_payload_dict_tracks_itself_again_when_a_container_goes_in():
    """CPython's rule the untracking relies on for dicts (a list does not do this: hence the test above)."""
    table, _ = simulated_table("7wonders-dice")
    with columns.use(True):
        payload = decode(table, registry.get("7wonders-dice"))[1].payload
    assert not gc.is_tracked(payload)
    payload["added"] = []
    assert gc.is_tracked(payload)


def test_event_rows_are_those_of_the_python_reference():
    """``columns.events``, compiled and Python, with the payloads as a list and as columns by type: the same rows;
    a row holding a tracked container stays tracked."""
    tracked = {"x": [1]}  # made by Python: tracked
    assert gc.is_tracked(tracked)
    plain = {"y": 2}
    args = (["g", "g", "h"], [0, 1, 0], ["k"] * 3, ["a", "b", "a"], [1, 2, 1])
    by_type = {"a": [plain, None, {"z": "w"}], "b": [None, tracked, None]}
    as_list = [plain, tracked, {"z": "w"}]
    made = []
    for on in (True, False):
        with columns.use(on):
            for payloads in (by_type, as_list):
                rows = columns.events(Event, *args, payloads)
                assert all(type(r) is Event for r in rows)
                made.append(rows)
    assert all(rows == made[0] for rows in made)
    assert made[0] == [Event("g", 0, "k", "a", 1, plain), Event("g", 1, "k", "b", 2, tracked),
                       Event("h", 0, "k", "a", 1, {"z": "w"})]
    compiled = made[0]
    assert [gc.is_tracked(r) for r in compiled] == [False, True, False]
    gc.collect()  # rows in and out of the collector's lists: a collection and their freeing go as for any tuple
    assert compiled[1].payload is tracked
    del made, compiled, rows
    gc.collect()


def test_event_rows_refuse_what_they_cannot_make():
    """Mistakes of the caller (not data): one precise error each."""
    class WithDict(tuple):  # a __dict__: attributes could make a cycle through an untracked row
        pass

    args = (["g"], [0], ["k"], ["a"], [1])
    with columns.use(True):
        with pytest.raises(TypeError):
            columns.events(WithDict, *args, [{}])
        with pytest.raises(ValueError):
            columns.events(Event, *args, [{}, {}])
        with pytest.raises(KeyError):
            columns.events(Event, *args, {"b": [{}]})
        with pytest.raises(ValueError):
            columns.events(Event, *args, {"a": [{}, {}]})


@pytest.mark.parametrize("index", [pa.int8(), pa.uint8(), pa.int16(), pa.int32(), pa.uint32(), pa.int64()])
@pytest.mark.parametrize("values", [pa.array(["x", "yy", None, "é"]), pa.array([7, 2**40, -1, None], pa.int64()),
                                    pa.array([True, False, None, True])])
def test_dictionary_arrays_decode_as_pyarrow_does(index, values):
    """A top-level dictionary-encoded array (the envelope's strings are read so): its values, each distinct value
    one object, nulls as None, sliced too."""
    array = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 3, 0, 2, 1, 0], index), values)
    for part in (array, array.slice(3, 4), array.slice(8)):
        found = columns.BUILT(part)
        assert found is not None and repr(found) == repr(part.to_pylist())
    found = columns.BUILT(array)
    assert found[0] is found[4]
    # inside a struct and a list of structs, as the payloads' strings are read (a row group at a time)
    struct = pa.StructArray.from_arrays([array, pa.array(range(8))], names=["d", "n"])
    listed = pa.ListArray.from_arrays(pa.array([0, 3, 3, 8]), struct)
    for part in (struct, struct.slice(2, 5), listed, listed.slice(1)):
        found = columns.BUILT(part)
        assert found is not None and repr(found) == repr(part.to_pylist())
    found = columns.BUILT(struct)
    assert found[0]["d"] is found[4]["d"]


def test_dictionary_arrays_it_declines():
    """An index past the dictionary (a damaged page) or below it, and a dictionary of containers (pyarrow gives each
    row its own), are declined: the caller reads them its own way (schema._strings reports the damage, a negative
    index too, which Python's indexing would have counted from the end)."""
    for bad in ([0, 5], [0, -1]):
        damaged = pa.DictionaryArray.from_arrays(pa.array(bad, pa.int32()), pa.array(["a", "b"]), safe=False)
        assert columns.BUILT(damaged) is None
        for on in (True, False):
            with columns.use(on), pytest.raises(SchemaError, match="replay verify"):
                _schema_strings(pa.chunked_array([damaged]))
    lists = pa.DictionaryArray.from_arrays(pa.array([0, 0], pa.int32()), pa.array([[1], [2]]))
    assert columns.BUILT(lists) is None
    assert columns.to_pylist(lists) == [[1], [1]]  # pyarrow's
    # inside a struct: the whole column declined, and pyarrow's error is the one given
    damaged = pa.DictionaryArray.from_arrays(pa.array([0, 5], pa.int32()), pa.array(["a", "b"]), safe=False)
    nested = pa.StructArray.from_arrays([damaged], names=["d"])
    assert columns.BUILT(nested) is None and both(nested) == ("ArrowIndexError",) * 2


def _schema_strings(column: pa.ChunkedArray) -> list[str]:
    from replay.schema import _strings
    return _strings(column)


# ---------------------------------------------------------------------- random nested arrays

_SCALARS = [
    (pa.int8(), st.integers(-128, 127)), (pa.uint8(), st.integers(0, 255)),
    (pa.int16(), st.integers(-(2**15), 2**15 - 1)), (pa.uint16(), st.integers(0, 2**16 - 1)),
    (pa.int32(), st.integers(-(2**31), 2**31 - 1)), (pa.uint32(), st.integers(0, 2**32 - 1)),
    (pa.int64(), st.integers(-(2**63), 2**63 - 1)), (pa.uint64(), st.integers(0, 2**64 - 1)),
    (pa.bool_(), st.booleans()), (pa.float64(), st.floats(allow_nan=False)),
    (pa.float32(), st.floats(width=32, allow_nan=False)),
    (pa.string(), st.text(max_size=50)), (pa.large_string(), st.text(string.ascii_letters, max_size=8)),
    (pa.null(), st.none()),
]


def _nullable(values: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(st.none(), values)


def _extend(inner: st.SearchStrategy) -> st.SearchStrategy:
    def struct(fields):
        names = [f"f{i}" for i in range(len(fields))]
        typ = pa.struct([pa.field(n, t) for n, (t, _) in zip(names, fields)])
        values = st.fixed_dictionaries({n: _nullable(v) for n, (_, v) in zip(names, fields)})
        return typ, values

    def listed(pair, large):
        t, v = pair
        return (pa.large_list(t) if large else pa.list_(t)), st.lists(_nullable(v), max_size=4)

    def mapped(pair):
        t, v = pair
        keys = st.text(string.ascii_lowercase, min_size=1, max_size=3)
        return pa.map_(pa.string(), t), st.dictionaries(keys, _nullable(v), max_size=3).map(lambda d: list(d.items()))

    return st.one_of(
        st.lists(inner, min_size=1, max_size=4).map(struct),
        st.tuples(inner, st.booleans()).map(lambda a: listed(*a)),
        inner.map(mapped),
    )


TYPED = st.recursive(st.sampled_from(_SCALARS), lambda inner: _extend(inner), max_leaves=8)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(TYPED.flatmap(lambda tv: st.tuples(st.just(tv[0]), st.lists(_nullable(tv[1]), max_size=12), st.data())))
def test_random_nested_arrays_convert_as_pyarrow_does(case):
    typ, values, data = case
    array = pa.array(values, type=typ)
    assert columns.BUILT(array) is not None  # taken, not declined to pyarrow
    fast, slow = both(array)
    assert fast == slow
    start = data.draw(st.integers(0, len(values)))
    stop = data.draw(st.integers(start, len(values)))
    fast, slow = both(array.slice(start, stop - start))
    assert fast == slow
    chunked = pa.chunked_array([array.slice(0, start), array.slice(start)], type=typ)
    fast, slow = both(chunked)
    assert fast == slow
