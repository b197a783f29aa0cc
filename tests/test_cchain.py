"""The compiled chain (``replay._cchain``, see ``replay/chain_compiled.py``) against the pure-Python code,
its reference: the same SHA-256 (hashlib's), the same canonical bodies (the definition's), the same links,
the same Arrow columns, the same data files byte for byte, and the same errors, in the same order, for
damaged batches.

Where the extension is not built (no compiler when the package was installed) these tests are skipped,
saying so; with ``REPLAY_REQUIRE_COMPILED=1`` (CI) they fail instead. The pinned digest of the benchmark's
bulk import runs either way.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from helpers import require_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_canonical import EVENTS, INT64, JSON, TEXT, definition, definition_link
from test_import_fast import GAMES, MUTATIONS, _mutated, _outcome

from replay import chain_compiled
from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.archive.store import parquet_bytes
from replay.chain import chain_words, definition_body, words_to_ints
from replay.events import Event
from replay.registry import registry
from replay.schema import encode
from replay.services.simulation import check_bots, simulated

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from archive_bench import synthetic_game

BENCH_DATA_SHA256 = "feaef5207f126eace0d6323e6fa7e42a4a9e6c29a331da97eaee3bd72522792c"
"""``bulk_data_sha256`` of ``python bench/archive_bench.py --games 4000 --import-only`` (11,913,485 bytes of data
files): written alike by the pure-Python path and the compiled chain. Pinned again when the files stopped keeping
min/max statistics of strings other than game_id (``store.statistics_columns``); the rows are the same."""


def _data_digest(archive: Archive) -> str:
    files = sorted(archive.snapshot().files)
    digests = "".join(hashlib.sha256(archive.path_of(p).read_bytes()).hexdigest() for p in files)
    return hashlib.sha256(digests.encode()).hexdigest()


def _bench_import(root: Path, compiled: bool, games: int = 4000) -> Archive:
    archive = Archive.init(root)
    with chain_compiled.use(compiled):
        for start in range(0, games, 1000):
            batch = [synthetic_game(f"g{i:07d}", i) for i in range(start, min(start + 1000, games))]
            archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g) for g in batch])
    return archive


def test_the_benchmark_import_writes_the_pinned_bytes(tmp_path: Path) -> None:
    """The data files of the benchmark's bulk import do not move (the compiled path where built, else the pure one)."""
    archive = _bench_import(tmp_path / "a", compiled=True)
    assert _data_digest(archive) == BENCH_DATA_SHA256


require_compiled(chain_compiled.BUILT, chain_compiled.NOT_BUILT)

C: Any = chain_compiled.BUILT


@pytest.mark.parametrize("sha", ["sha256", "sha256_portable"])
def test_sha256_is_hashlibs(sha: str) -> None:
    rng = random.Random(7)
    sizes = [*range(0, 260), 511, 512, 513, 4095, 65_536, 1_000_003]
    for size in sizes:
        data = rng.randbytes(size)
        assert getattr(C, sha)(data) == hashlib.sha256(data).digest(), size


@settings(max_examples=400, deadline=None)
@given(data=JSON)
def test_a_canonical_body_is_the_definition_or_declined(data: Any) -> None:
    """Made in C, a body is the definition's bytes; declined (None) only where the value holds a float."""
    body = C.canonical(data)
    if body is None:
        assert _holds_float(data)
    else:
        assert body == definition(data)


def test_a_remembered_key_order_is_used_only_for_the_same_keys_in_the_same_order() -> None:
    """The C body remembers each dict's sorted key order by its key objects: dicts of the same keys inserted in
    other orders, of fewer or more keys, of equal keys that are other objects, and of keys made and dropped
    again and again (their addresses reused) are each still written in sorted order."""
    rng = random.Random(7)
    pool = ["b", "a", "ä", "aa", "id", "colour", "face", "section", "\u00e9t\u00e9", "z" * 20, "", "A"]
    for i in range(3000):
        keys = rng.sample(pool, rng.randint(1, len(pool)))
        if i % 3 == 0:  # equal strings that are new objects, dropped after this dict (their addresses reused)
            keys = ["".join(list(k)) + str(i % 2) for k in keys]
        data = {k: [rng.randint(0, 9), {k2: None for k2 in reversed(keys)}] for k in keys}
        assert C.canonical(data) == definition(data)
    many = {f"k{i:02d}": i for i in range(20, 0, -1)}  # more keys than are remembered
    assert C.canonical(many) == definition(many) == C.canonical(many)


def _holds_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_holds_float(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_float(v) for v in value)
    return False


class Str(str):
    pass


class Int(int):
    pass


@pytest.mark.parametrize("value", [1.5, 2**63, -(2**63) - 1, Str("a"), Int(3), {1: 2}, {Str("k"): 1}, "\ud800",
                                   {"k": "\udfff"}, {"a": object()}, set(), b"x", Event("g", 0, "k", "t", 1, {})])
def test_what_is_not_plain_json_is_declined(value: Any) -> None:
    assert C.canonical(value) is None


def test_deep_nesting_is_declined_to_the_definition() -> None:
    deep: Any = 1
    for _ in range(150):
        deep = [deep]
    assert C.canonical(deep) is None
    assert C.canonical([[[[1]]]]) == b"[[[[1]]]]"


@settings(max_examples=100, deadline=None)
@given(events=st.lists(EVENTS, max_size=8), previous=INT64)
def test_the_links_are_the_definitions(events: list[Event], previous: int) -> None:
    want, h = [], previous
    for e in events:
        h = definition_link(h, e)
        want.append(h)
    word = previous.to_bytes(8, "big", signed=True)
    assert words_to_ints(C.chain(events, 0, len(events), word, definition_body)) == want
    for compiled in (True, False):
        with chain_compiled.use(compiled):
            assert words_to_ints(chain_words(events, previous)) == want


def test_a_slice_continues_from_the_word_given() -> None:
    events = GAMES["a1"][:30]
    whole = C.chain(events, 0, 30, bytes(8), definition_body)
    assert C.chain(events, 10, 30, whole[72:80], definition_body) == whole[80:]
    assert C.chain(events, 5, 5, bytes(8), definition_body) == b""
    with pytest.raises(ValueError):
        C.chain(events, 0, 31, bytes(8), definition_body)
    with pytest.raises(ValueError):
        C.chain(events, 0, 3, bytes(7), definition_body)


@pytest.mark.parametrize("payload", [{"x": {1, 2}}, {"x": object()}, {1.5: 1}, {"x": "\ud800"}])
def test_what_cannot_be_hashed_fails_as_the_definition_fails(payload: dict[Any, Any]) -> None:
    events = [*GAMES["a1"][:3], Event("a1", 3, "pig", "held", 1, payload), *GAMES["a1"][4:6]]
    outcomes = []
    for compiled in (True, False):
        with chain_compiled.use(compiled):
            outcomes.append(_outcome(lambda: chain_words(events)))
    assert outcomes[0] == outcomes[1]
    try:
        definition([*events[3]])
    except Exception:
        assert outcomes[0] is not None
    else:  # a float key, a lone surrogate...: the definition encodes what orjson and the C code decline
        assert outcomes[0] is None


def test_columns_and_runs_are_the_transposition_and_groupby() -> None:
    events = [e for g in ("a1", "b2", "a1") for e in GAMES[g][:20]]
    assert C.columns(events) == tuple(zip(*events))
    assert C.columns([]) == ((),) * 6
    assert C.columns([*events, (1, 2)]) is None
    assert C.columns(iter(events)) is None
    ids, kinds = tuple(e.game_id for e in events), tuple(e.kind for e in events)
    ends = list(itertools.accumulate(len(list(g)) for _, g in itertools.groupby(zip(ids, kinds))))
    assert C.event_run_ends(events) == ends == [20, 40, 60]


VALUES = {
    "q": (pa.int64(), st.one_of(INT64, st.integers(), st.none(), st.booleans(), st.floats(), TEXT)),
    "i": (pa.int32(), st.one_of(st.integers(-(2**31) - 2, 2**31 + 1), st.none(), st.booleans())),
    "h": (pa.int16(), st.one_of(st.integers(-(2**15) - 2, 2**15 + 1), st.none())),
    "b": (pa.int8(), st.one_of(st.integers(-130, 130), st.none())),
    "?": (pa.bool_(), st.one_of(st.booleans(), st.none(), st.integers(0, 1))),
    "d": (pa.float64(), st.one_of(st.floats(), st.none(), st.integers(-5, 5))),
    "s": (pa.string(), st.one_of(TEXT, st.none(), st.integers(), st.just("\ud800"))),
}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(VALUES)).flatmap(lambda code: st.tuples(st.just(code), st.lists(VALUES[code][1], max_size=40))),
       st.booleans())
def test_a_column_is_pyarrows_or_declined(code_values: tuple[str, list[Any]], nullable: bool) -> None:
    """Where the C builder takes the values, its array equals pyarrow's; it declines every value pyarrow refuses."""
    from replay.archive.columnar import _array
    code, values = code_values
    type_ = VALUES[code][0]
    built = _array(C, tuple(values), type_, nullable)
    try:
        want = pa.array(values, type_)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        assert built is None
        return
    if built is not None:
        built.validate(full=True)
        # equals() holds NaN unequal to itself: the values compared by repr (nan, -0.0 and 0.0 told apart)
        assert built.type == want.type and [repr(v) for v in built.to_pylist()] == [repr(v) for v in want.to_pylist()]
        assert built.null_count == want.null_count
        assert nullable or want.null_count == 0


NESTED = pa.struct([
    pa.field("turn", pa.int64(), nullable=False),
    pa.field("dice", pa.list_(pa.field("element", pa.struct([
        pa.field("id", pa.string(), nullable=False), pa.field("section", pa.int64()),
        pa.field("faces", pa.list_(pa.field("element", pa.string(), nullable=False)), nullable=False)]), nullable=False))),
    pa.field("claims", pa.struct([pa.field("paid", pa.int64()), pa.field("ok", pa.bool_())]), nullable=False),
    pa.field("categories", pa.map_(pa.string(), pa.int64())),
])
"""A payload type with what the 7 Wonders Dice events nest (lists of structs, a struct, a map), and a list in a list."""

_ODD = st.one_of(st.none(), st.integers(-(2**64), 2**64), st.floats(), TEXT, st.booleans())
_GOOD_DIE = st.fixed_dictionaries({"id": TEXT, "section": st.one_of(INT64, st.none()), "faces": st.lists(TEXT, max_size=3)})
_DIE = st.one_of(
    _GOOD_DIE,
    st.fixed_dictionaries({"id": _ODD, "section": _ODD, "faces": st.one_of(st.lists(_ODD, max_size=2), st.tuples(TEXT), _ODD)}),
    st.fixed_dictionaries({"id": TEXT, "section": INT64, "faces": st.lists(TEXT, max_size=1), "extra": st.just(1)}),
    st.fixed_dictionaries({"id": TEXT}), st.none())
_GOOD_CLAIMS = st.fixed_dictionaries({"paid": st.one_of(INT64, st.none()), "ok": st.one_of(st.booleans(), st.none())})
_GOOD_PAYLOAD = st.fixed_dictionaries({
    "turn": INT64, "dice": st.lists(_GOOD_DIE, max_size=4), "claims": _GOOD_CLAIMS,
    "categories": st.one_of(st.dictionaries(TEXT, INT64, max_size=3), st.none()),
})
_NESTED_PAYLOAD = st.fixed_dictionaries({
    "turn": st.one_of(INT64, _ODD),
    "dice": st.one_of(st.lists(_DIE, max_size=4), st.lists(_GOOD_DIE, max_size=3).map(tuple), st.none()),
    "claims": st.one_of(_GOOD_CLAIMS, st.fixed_dictionaries({"paid": _ODD, "ok": _ODD}), st.none()),
    "categories": st.one_of(st.dictionaries(TEXT, INT64, max_size=3), st.none(), st.dictionaries(TEXT, _ODD, max_size=2)),
})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_NESTED_PAYLOAD, _GOOD_PAYLOAD), max_size=12))
def test_a_nested_column_is_pyarrows_or_declined(payloads: list[Any]) -> None:
    """Where ``nested`` takes the payloads (structs and lists written in C, a map left to pyarrow), the array is
    pyarrow's; where pyarrow refuses them, so does the compiled way (declining, or raising as pyarrow raises)."""
    from replay.archive.columnar import _struct
    try:
        want = pa.array(payloads, NESTED)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        want = None
    try:
        built = _struct(C, payloads, NESTED)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        assert want is None
        return
    assert want is not None
    built.validate(full=True)
    assert built.equals(want) and built.type == want.type


def test_nested_writes_lists_of_structs_in_c() -> None:
    """The usual payloads are taken (not declined to pyarrow), and what is not exactly their shape is declined."""
    from replay.archive.columnar import _spec
    spec = _spec(NESTED, False)
    usual = [{"turn": 1, "dice": [{"id": "a", "section": 2, "faces": ["x", "y"]}], "claims": {"paid": 1, "ok": True},
              "categories": {"vp": 3}}, {"turn": 2, "dice": [], "claims": {"paid": None, "ok": None}, "categories": None}]
    assert C.nested(usual, spec) is not None
    from replay.archive.columnar import _struct
    assert _struct(C, usual, NESTED).equals(pa.array(usual, NESTED))
    for odd in ({**usual[0], "dice": ({"id": "a", "section": 2, "faces": []},)},  # a tuple, not a list
                {**usual[0], "claims": None}, {**usual[0], "extra": 1}, {"turn": 1}):
        assert C.nested([usual[0], odd], spec) is None
    with pytest.raises(ValueError, match="not a column spec"):
        C.nested(usual, ("x",))


def test_fields_takes_exact_dicts_with_exactly_the_keys() -> None:
    assert C.fields([{"a": 1, "b": 2}, {"b": 3, "a": 4}], ("a", "b")) == ((1, 4), (2, 3))
    assert C.fields([{"a": 1}], ("a", "b")) is None
    assert C.fields([{"a": 1, "b": 2, "c": 3}], ("a", "b")) is None
    assert C.fields([{"a": 1, "c": 3}], ("a", "b")) is None
    assert C.fields([None], ("a",)) is None
    assert C.fields([], ("a",)) == ((),)


@pytest.mark.parametrize("kind", sorted(g.kind for g in registry.games()))
def test_every_kinds_import_writes_the_same_files_both_ways(kind: str) -> None:
    game = registry.get(kind)
    low, high = game.players
    games = [simulated(game, 3, i, min(low + i % 2, high), check_bots(game, ()), game.pack()) for i in range(6)]
    files = []
    for compiled in (True, False):
        with tempfile.TemporaryDirectory() as tmp, chain_compiled.use(compiled):
            archive = Archive.init(Path(tmp) / "a")
            archive.append_many([StreamAppend(g[0].game_id, NEW_STREAM, g[:7]) for g in games])
            archive.append_many([StreamAppend(g[0].game_id, 6, g[7:]) for g in games])  # chained from stored links
            files.append([archive.path_of(p).read_bytes() for p in sorted(archive.snapshot().files)])
    assert files[0] == files[1]
    events = [e for g in games for e in g]
    hashes = pa.array(range(len(events)), pa.int64())
    from replay.archive.columnar import encode_columns
    columnar = encode_columns(C, events, game, hashes, C.columns(events))
    assert parquet_bytes(columnar) == parquet_bytes(encode(events, game, hashes))
    fused = _fused(events, kind)
    assert parquet_bytes(encode_columns(C, events, game, hashes, C.columns(events), fused)) == parquet_bytes(columnar)


def _fused(events: list[Event], kind: str, capacity: int | None = None) -> Any:
    """What the chain's pass writes into a kind's column builder as it hashes ``events``."""
    from replay.archive.columnar import column_builder
    builder = column_builder(C, registry, kind, len(events) if capacity is None else capacity)
    C.chain(events, 0, len(events), bytes(8), definition_body, True, builder)
    return C.builder_finish(builder)


def test_the_chains_pass_writes_the_benchmarks_columns() -> None:
    """The fused pass takes the benchmark's events (every plain type, no declining) and gives encode's table."""
    from replay.archive.columnar import encode_columns
    events = [e for i in range(20) for e in synthetic_game(f"g{i:03d}", i)]
    fused = _fused(events, "pig")
    assert fused is not None
    envelope, types, (type_column, payload_column) = fused
    assert len(envelope) == 5 and [count for count, _, _ in types] == [
        sum(e.type == t for e in events) for t in ("die_rolled", "held")]
    assert type_column == tuple(e.type for e in events)
    assert all(p is e.payload for p, e in zip(payload_column, events, strict=True))
    game, hashes = registry.get("pig"), pa.array(range(len(events)), pa.int64())
    table = encode_columns(C, events, game, hashes, C.columns(events), fused)
    assert parquet_bytes(table) == parquet_bytes(encode(events, game, hashes))


@pytest.mark.parametrize("damage", ["float", "extra", "missing", "none", "big", "payload", "id"])
def test_the_chains_pass_declines_what_it_does_not_take_exactly(damage: str) -> None:
    """A value the builders do not take makes the fused pass decline (the columns are then made the old way)."""
    events = [e for i in range(3) for e in synthetic_game(f"g{i:03d}", i)]
    at = next(i for i, e in enumerate(events) if e.type == "held")
    payload = dict(events[at].payload)
    if damage == "float":
        payload["player"] = 1.0
    elif damage == "extra":
        payload["more"] = 1
    elif damage == "missing":
        del payload["player"]
    elif damage == "none":
        payload["player"] = None
    elif damage == "big":
        payload["player"] = 2**63
    events[at] = events[at]._replace(payload=None if damage == "payload" else payload)
    if damage == "id":
        events[at] = events[at]._replace(game_id=7)
    assert _fused(events, "pig") is None
    assert _fused(events[:at], "pig") is not None  # the rows before it were taken
    assert _fused(events, "pig", capacity=len(events) - 1) is None  # more rows than it was made for


def test_run_ends_read_from_the_events_are_run_ends() -> None:
    events = [e for i in range(4) for e in synthetic_game(f"g{i % 3:03d}", i)[:5]]
    events[7] = events[7]._replace(kind="flip7")
    keys = [(e.game_id, e.kind) for e in events]
    ends = list(itertools.accumulate(len(list(g)) for _, g in itertools.groupby(keys)))
    assert C.event_run_ends(events) == ends == [5, 7, 8, 10, 15, 20]
    assert C.event_run_ends(tuple(events)) == [5, 7, 8, 10, 15, 20]
    assert C.event_run_ends([]) == []
    assert C.event_run_ends(events + [(1, 2)]) is None  # as columns declines: the pure path then
    assert C.event_run_ends(iter(events)) is None


def test_spread_is_the_take_it_replaces() -> None:
    """``spread``: one type's fields at its rows, the blank (or null, for a nullable field) at the others."""
    types = ("a", "b", "a", "c", "a")
    payloads = ({"x": 1, "s": "é"}, None, {"x": -2, "s": None}, 3, {"x": 5, "s": ""})
    count, mask, built = C.spread(types, "a", payloads, ("x", "s"), b"qs", bytes([0, 1]))
    assert count == 3
    assert pa.Array.from_buffers(pa.bool_(), 5, [None, pa.py_buffer(mask)]).to_pylist() == [False, True, False, True, False]
    from replay.archive.columnar import _from_buffers
    assert _from_buffers(pa.int64(), 5, built[0]).to_pylist() == [1, 0, -2, 0, 5]
    assert _from_buffers(pa.string(), 5, built[1]).to_pylist() == ["é", None, None, None, ""]
    assert C.spread(("a",), "a", ({"x": 1},), ("x",), b"q", b"\0")[1] is None  # every row: no mask
    assert C.spread(("a",), "a", ({"x": 1.5},), ("x",), b"q", b"\0") is None
    assert C.spread(("a",), "a", ({"x": None},), ("x",), b"q", b"\0") is None
    assert C.spread(("a", "a"), "a", ({"x": 1}, {"y": 1}), ("x",), b"q", b"\0") is None


def test_a_batch_of_several_kinds_writes_the_same_files_both_ways(tmp_path: Path) -> None:
    kinds = ["pig", "flip7"]
    files = []
    for compiled in (True, False):
        with chain_compiled.use(compiled):
            archive = Archive.init(tmp_path / f"a{compiled}")
            events = []
            for i, kind in enumerate(kinds * 2):
                game = registry.get(kind)
                events.extend(simulated(game, 3, i, game.players[0], check_bots(game, ()), game.pack()))
            for prepared in archive.prepare_files(events):
                files.append(prepared.data)
    assert files[: len(files) // 2] == files[len(files) // 2:]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(MUTATIONS), st.integers(0, 10_000), st.integers(1, 4), st.booleans())
def test_damaged_batches_fail_as_the_pure_path_fails(mutation: str, where: int, games: int, continuing: bool) -> None:
    names = sorted(GAMES)[:games]
    outcomes, stored = [], []
    for compiled in (True, False):
        appends = [StreamAppend(g, NEW_STREAM, GAMES[g][:40]) for g in names]
        with tempfile.TemporaryDirectory() as tmp, chain_compiled.use(compiled):
            archive = Archive.init(Path(tmp) / "a")
            if continuing:
                archive.append_many(appends)
                appends = [StreamAppend(g, 39, GAMES[g][40:90]) for g in names]
            batch = _mutated(mutation, where, appends)
            outcomes.append(_outcome(lambda archive=archive, batch=batch: archive.append_many(batch)))
            stored.append([archive.path_of(p).read_bytes() for p in sorted(archive.snapshot().files)])
    assert outcomes[0] == outcomes[1]
    assert stored[0] == stored[1]


def _gives_as(want: Callable[[], pa.Array], got: Callable[[], pa.Array]) -> None:
    """``got()`` gives ``want()``'s array (its type, nulls and values), or raises the class of error it raises."""
    try:
        expected = want()
    except (pa.ArrowException, TypeError, ValueError, OverflowError) as exc:
        with pytest.raises(type(exc)):
            got()
        return
    made = got()
    made.validate(full=True)
    assert made.type == expected.type and made.null_count == expected.null_count
    assert [repr(v) for v in made.to_pylist()] == [repr(v) for v in expected.to_pylist()]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(VALUES)).flatmap(lambda code: st.tuples(st.just(code), st.lists(VALUES[code][1], max_size=30))))
def test_a_derived_column_is_pyarrows_array(code_values: tuple[str, list[Any]]) -> None:
    """``arrow_column`` (the projection's columns) gives ``pa.array``'s array, nulls included, or raises as it raises."""
    from replay.archive.columnar import arrow_column
    code, values = code_values
    type_ = VALUES[code][0]
    _gives_as(lambda: pa.array(values, type_), lambda: arrow_column(tuple(values), type_))


NESTED_VALUES = {
    "list of strings": (pa.list_(pa.string()), st.one_of(st.none(), st.lists(VALUES["s"][1], max_size=4), st.tuples(TEXT), TEXT)),
    "list of int32": (pa.list_(pa.int32()), st.one_of(st.none(), st.lists(VALUES["i"][1], max_size=4))),
    "struct": (pa.struct([("a", pa.int64()), ("b", pa.string())]),
               st.one_of(st.none(), st.fixed_dictionaries({"a": VALUES["q"][1], "b": VALUES["s"][1]}),
                         st.dictionaries(st.sampled_from("abc"), st.integers(-3, 3), max_size=3))),
}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(NESTED_VALUES)).flatmap(
    lambda name: st.tuples(st.just(name), st.lists(NESTED_VALUES[name][1], max_size=20))))
def test_a_derived_nested_column_is_pyarrows_array(name_values: tuple[str, list[Any]]) -> None:
    """A derived list or struct column (the spaces unlocked, an action's effects) written by ``nested`` is
    ``pa.array``'s array; a null, a tuple, a missing key or an odd element leaves it to pyarrow, which raises as it raises."""
    from replay.archive.columnar import arrow_column
    name, values = name_values
    type_ = NESTED_VALUES[name][0]
    _gives_as(lambda: pa.array(values, type_), lambda: arrow_column(list(values), type_))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(VALUES)).flatmap(lambda code: st.tuples(st.just(code), st.lists(VALUES[code][1], max_size=30))),
       st.integers(0, 2), st.booleans())
def test_a_records_column_is_the_column_of_its_values(code_values: tuple[str, list[Any]], index: int, as_lists: bool) -> None:
    """``record_column`` (a derived table's records, read in place) gives ``arrow_column`` of the values picked out,
    or raises as it raises; records that are not tuples are picked out by the Python."""
    from replay.archive.columnar import arrow_column, record_column
    code, values = code_values
    type_ = VALUES[code][0]
    records: list[Any] = [tuple([None] * index + [v, "after"]) for v in values]
    if as_lists and records:
        records[-1] = list(records[-1])
    _gives_as(lambda: arrow_column(values, type_), lambda: record_column(records, index, type_))
