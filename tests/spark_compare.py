"""Whether two engines' answers are the same answer: the same columns and the same rows, in any
order, numbers equal (a decimal and a float of the same value are equal; floats to within the
last place the query rounded to), text, booleans and nulls exactly."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import pyarrow as pa


def _plain(value: Any) -> Any:
    """Numbers as int or float whatever their Arrow type (DuckDB's HUGEINT sums, Spark's decimal averages)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _key(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """Sorting key: floats rounded coarsely so that two engines' near-equal rows sort alike."""
    return tuple((0, "") if v is None else (1, round(v, 2)) if isinstance(v, float) else (1, repr(v)) for v in row)


def _places(x: float) -> int:
    text = repr(x)
    return len(text.partition(".")[2]) if "." in text and "e" not in text else 15


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return bool(a == b)
    if a == b:
        return True
    if isinstance(a, int) and isinstance(b, int):
        return False
    places = min(_places(float(a)), _places(float(b)))
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) or (places <= 6 and abs(a - b) <= 10 ** -places + 1e-12)


def differences(one: pa.Table, other: pa.Table) -> list[str]:
    """What differs between the two answers (empty: the same answer)."""
    if one.column_names != other.column_names:
        return [f"columns {one.column_names} != {other.column_names}"]
    if one.num_rows != other.num_rows:
        return [f"{one.num_rows} rows != {other.num_rows} rows"]
    rows = [sorted((tuple(_plain(v) for v in r.values()) for r in t.to_pylist()), key=_key) for t in (one, other)]
    out = []
    for a, b in zip(*rows):
        if len(a) != len(b) or not all(_close(x, y) for x, y in zip(a, b)):
            out.append(f"{a} != {b}")
    return out
