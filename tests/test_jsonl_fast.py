"""The JSON Lines reader's fast path (orjson reading the line, the envelope checked without its model, orjson
writing the payload back for its model) gives what the json and pydantic path gives, line for line: the same
event, or the same problems in the same words, on valid lines of every game and on damaged ones."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import jsonl
from replay.jsonl import dump_line
from replay.registry import registry
from replay.services.simulation import check_bots, simulated


def _slow(text: str, line: int) -> Any:
    """The line read by json and its envelope validated by the model, as every line was before the fast path."""
    saved = jsonl._loads, jsonl._plain_envelope
    jsonl._loads, jsonl._plain_envelope = (lambda t: (json.loads(t), False)), (lambda raw: False)  # type: ignore[assignment]
    try:
        return jsonl._parse(text, line, registry)
    finally:
        jsonl._loads, jsonl._plain_envelope = saved


def _same(text: str, line: int = 3) -> Any:
    fast, slow = jsonl._parse(text, line, registry), _slow(text, line)
    assert fast == slow, text
    return fast


LINES = [dump_line(e) for kind in sorted(g.kind for g in registry.games())
         for i in range(2) for e in simulated(registry.get(kind), 5, i, registry.get(kind).players[0],
                                              check_bots(registry.get(kind), ()), registry.get(kind).pack())]


def test_every_games_lines_are_read_alike_and_fast() -> None:
    for text in LINES:
        event, problems, _ = _same(text)
        assert event is not None and problems == []
    assert jsonl._loads(LINES[0])[1] and jsonl._plain_envelope(json.loads(LINES[0]))  # the fast path is taken


DAMAGE = [
    lambda d: {**d, "seq": "3"}, lambda d: {**d, "seq": -1}, lambda d: {**d, "seq": True}, lambda d: {**d, "seq": 2**64},
    lambda d: {**d, "seq": 3.0}, lambda d: {**d, "version": 0}, lambda d: {**d, "game_id": "bad id"},
    lambda d: {**d, "game_id": "g1\n"}, lambda d: {**d, "extra": 1}, lambda d: {k: v for k, v in d.items() if k != "kind"},
    lambda d: {**d, "kind": "nope"}, lambda d: {**d, "type": "nope"}, lambda d: {**d, "payload": []},
    lambda d: {**d, "payload": {**d["payload"], "extra": 1}}, lambda d: {**d, "payload": {}},
    lambda d: {**d, "version": d["version"] + 5},
]


def _spoil(value: Any, rng: random.Random) -> Any:
    """One value somewhere in a payload replaced by something of another kind."""
    odd = rng.choice([None, "x", 2**63, 2**64 + 1, -(2**63) - 1, 1.5, 1e300, True, [], {}, "\ud800", 12345678901234567890])
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        return {**value, key: _spoil(value[key], rng) if rng.random() < 0.6 else odd}
    if isinstance(value, list) and value:
        i = rng.randrange(len(value))
        return value[:i] + [_spoil(value[i], rng) if rng.random() < 0.6 else odd] + value[i + 1:]
    return odd


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(LINES) - 1), st.integers(0, len(DAMAGE)), st.integers(0, 10**6))
def test_damaged_lines_give_the_same_problems(which: int, damage: int, seed: int) -> None:
    data = json.loads(LINES[which])
    rng = random.Random(seed)
    data = DAMAGE[damage](data) if damage < len(DAMAGE) else {**data, "payload": _spoil(data["payload"], rng)}
    _same(json.dumps(data, ensure_ascii=rng.random() < 0.5))


@pytest.mark.parametrize("text", [
    "", "{", "[]", "3", '{"a": NaN}', '{"seq": 1e400}', '{"a": 1, "a": 2}', "\ufeff{}", '{"game_id": "\\ud800"}',
    '{"game_id": "g", "seq": 0, "seq": 1, "kind": "pig", "type": "x", "version": 1, "payload": {}}',
])
def test_odd_json_gives_the_same_problems(text: str) -> None:
    _same(text)


def test_a_number_json_and_orjson_would_read_differently_is_read_by_json() -> None:
    line = json.loads(LINES[0])
    line["seq"] = 18446744073709551616  # orjson reads it as a float, json as an int
    text = json.dumps(line)
    assert not jsonl._loads(text)[1]
    _same(text)
