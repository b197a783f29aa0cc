"""The fast canonical encoder and the chain built on it give the definition's bytes and hashes exactly.

Stored chain hashes were made with ``json.dumps(sort_keys=True, separators=(",", ":"),
ensure_ascii=False)`` per event; archives written before the fast path must keep verifying,
so every value an event can hold must encode to the same bytes, with and without orjson.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import canonical
from replay.canonical import canonical_json, content_hash, reference_canonical_json
from replay.chain import (
    BODY_SEPARATOR,
    canonical_block,
    canonical_bodies,
    chain,
    chain_words,
    fast_canonical_block,
    link,
    words_to_ints,
)
from replay.events import Event

INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
TRICKY = "0123456789.eEn:,[]{}\"\\/ \n\r\t\b\f\x00\x01\x1f\x7f\x80\u00e9\u2028\u2029\ufeff\uffff\U0001f600null"
TEXT = st.one_of(st.text(), st.text(alphabet=TRICKY), st.sampled_from(["1e5", "2.", "x1E", ":n", "[n", "null", "NaN"]))
FLOATS = st.one_of(st.floats(), st.sampled_from([0.0, -0.0, 1e-5, 1e-7, 1e16, 1e22, 5e-324, 1.7976931348623157e308,
                                                 math.nan, math.inf, -math.inf, 0.1, 100.0]))
SCALARS = st.one_of(st.none(), st.booleans(), INT64, TEXT, FLOATS)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(TEXT, inner, max_size=6),
    st.lists(inner, max_size=4).map(tuple)), max_leaves=30)
NO_FLOATS = st.recursive(st.one_of(st.none(), st.booleans(), INT64, TEXT), lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(TEXT, inner, max_size=6)), max_leaves=30)
SHARED = [HealthCheck.function_scoped_fixture]  # the encoder fixture is the same for every input
EVENTS = st.builds(Event, TEXT, INT64, TEXT, TEXT, INT64, st.dictionaries(TEXT, JSON, max_size=6))


def definition(data: Any) -> bytes:
    """Today's definition, spelled out as it was first written."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def definition_link(previous: int, e: Event) -> int:
    body = definition([e.game_id, e.seq, e.kind, e.type, e.version, e.payload])
    digest = hashlib.sha256(previous.to_bytes(8, "big", signed=True) + b"\n" + body).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@pytest.fixture(params=["compiled", "orjson", "stdlib"])
def encoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each way canonical_json can go: the compiled body first (where built), orjson, the standard library."""
    if request.param == "compiled":
        if canonical.COMPILED is None:
            pytest.skip("the compiled canonical body is not built")
        return "compiled"
    monkeypatch.setattr(canonical, "COMPILED", None)
    if request.param == "orjson":
        if canonical.orjson is None:
            pytest.skip("orjson is not installed")
    else:
        monkeypatch.setattr(canonical, "orjson", None)
    return str(request.param)


@settings(max_examples=300, deadline=None, suppress_health_check=SHARED)
@given(data=JSON)
def test_canonical_json_is_the_definition(encoder: str, data: Any) -> None:
    assert canonical_json(data) == reference_canonical_json(data) == definition(data)


@settings(max_examples=200, deadline=None)
@given(data=NO_FLOATS)
def test_without_floats_orjson_alone_is_the_definition(data: Any) -> None:
    """What the fast path leaves to orjson (no float anywhere) is byte-for-byte the definition."""
    if canonical.orjson is None:
        pytest.skip("orjson is not installed")
    assert canonical.orjson.dumps(data, option=canonical.OPTIONS) == definition(data)


@settings(max_examples=150, deadline=None, suppress_health_check=SHARED)
@given(events=st.lists(EVENTS, max_size=8), previous=INT64)
def test_chain_is_link_by_link_the_definition(encoder: str, events: list[Event], previous: int) -> None:
    want = []
    h = previous
    for e in events:
        h = definition_link(h, e)
        want.append(h)
    assert chain(events, previous) == want
    assert words_to_ints(chain_words(events, previous)) == want
    assert [link(p, e) for p, e in zip([previous, *want], events)] == want
    assert canonical_bodies(events) == [definition([*e]) for e in events]


@pytest.mark.parametrize("value", [
    {"big": 2**64}, {"big": -(2**63) - 1}, {1: "int key"}, {"nested": {(1, 2): 3}}, {"f": 1e-7, "s": "1e5"},
    [math.nan, math.inf], {"sub": True.__class__(1)}, None, 1.5, "text",
])
def test_what_orjson_refuses_or_would_write_otherwise_goes_to_the_definition(encoder: str, value: Any) -> None:
    try:
        want: bytes | type[BaseException] = definition(value)
    except Exception as exc:  # the same refusal is what is wanted
        want = type(exc)
    if isinstance(want, bytes):
        assert canonical_json(value) == want
    else:
        with pytest.raises(want):
            canonical_json(value)


def test_refusals_stay_refusals(encoder: str) -> None:
    """Where the definition raises (a lone surrogate cannot be UTF-8, a set is not JSON), so does the fast path."""
    with pytest.raises(UnicodeEncodeError):
        canonical_json({"s": "\ud800"})
    with pytest.raises(TypeError):
        canonical_json({"s": {1, 2}})
    with pytest.raises(UnicodeEncodeError):
        chain([Event("g", 0, "k", "t", 1, {"s": "\udfff"})])


def test_known_hashes_do_not_move(encoder: str) -> None:
    """Hashes computed by the code before the fast path existed, pinned literally."""
    e = Event("g1", 0, "pig", "game_started", 1, {"seats": [{"seat": 0, "name": "Zoë"}], "target": 100})
    assert chain([e, e._replace(seq=1, type="die_rolled", payload={"player": 0, "face": 6})]) == [
        -3645274722165945259, 6030243527161038950]
    floats = {"x": [1.5, math.nan, None, "é\n\x01", {"b": 1e-7, "a": 2**63 - 1}]}
    assert link(12345, Event("s000000", 0, "pig", "x", 1, floats)) == 2318548912278093679
    assert content_hash({"b": [1, 2.5], "a": "ü"}) == "sha256:75151e181452ee19f62c437a12e96bbbe4453c199f041abfe6b18ab3cb8f3c4f"


def has_float_definition(value: Any) -> bool:
    """has_float as first written: recursive."""
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(has_float_definition(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(has_float_definition(v) for v in value)
    return False


@settings(max_examples=300, deadline=None)
@given(data=JSON)
def test_has_float_is_the_recursive_definition(data: Any) -> None:
    assert canonical.has_float(data) == has_float_definition(data)


HEXLIKE = st.sampled_from(["a4e1", "sha256:9e0f", "1.0.0", "v2.5", "x:1.5", ",2e", "[3.", "-4e"])
"""Strings whose bytes show a float's mark (a digit, then . or e) but hold no float."""
MARKED = st.recursive(st.one_of(SCALARS, HEXLIKE), lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(TEXT, HEXLIKE), inner, max_size=4)), max_leaves=12)
BATCH_EVENTS = st.builds(Event, st.one_of(TEXT, HEXLIKE), INT64, TEXT, TEXT, INT64,
                         st.dictionaries(st.one_of(TEXT, HEXLIKE), MARKED, max_size=4))


@settings(max_examples=200, deadline=None, suppress_health_check=SHARED)
@given(events=st.lists(BATCH_EVENTS, max_size=30))
def test_a_batch_block_is_the_definition_of_each_event(encoder: str, events: list[Event]) -> None:
    """One orjson call over a batch (floats, strings that look like them, raw separators in strings):
    each event's bytes are the definition's, and splitting the block gives them back."""
    want = [definition([*e]) for e in events]
    try:
        block = canonical_block(events)
    except (TypeError, ValueError):  # the definition refuses one of them: so must the block
        with pytest.raises((TypeError, ValueError)):
            [definition([*e]) for e in events]
        return
    assert block == BODY_SEPARATOR.join(want)
    assert canonical_bodies(events) == want
    fast = fast_canonical_block(events)
    assert fast is None or fast == block


@pytest.mark.parametrize("payload", [
    {"h": "a4e1", "x": 1.5}, {"a": 1.5, "h": "a4e1"}, {"h": "9e9", "n": math.nan}, {"v": "1.0.0", "z": None},
    {"h": ["1e5", 2.0]}, {"x": -1e-07}, {"x": [1, 2, 0.5]}, {"s": ",\n,", "t": "\n"},
])
def test_a_string_that_looks_like_a_float_does_not_hide_a_float_after_it(encoder: str, payload: dict) -> None:
    events = [Event("g", i, "k", "t", 1, payload if i % 2 else {"plain": i}) for i in range(5)]
    assert canonical_bodies(events) == [definition([*e]) for e in events]


def test_a_mark_counts_where_a_number_token_can_begin() -> None:
    marks = canonical.marks_a_number
    assert marks(b'[1.5', 1) and marks(b'{"a":-12e5', 7) and marks(b'[1,null', 2) and marks(b"12.5", 1)
    assert not marks(b'["a4e1"', 3) and not marks(b'{"v":"1.0.0"', 6) and not marks(b'["x91.5"', 4)
