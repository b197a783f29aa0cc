"""Rows out: aligned tables for people, JSON and CSV for tools."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import uuid
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

FORMATS = ("table", "json", "csv")

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def json_value(value: Any) -> Any:
    """What JSON cannot hold natively, as a program would want it: a DECIMAL (DuckDB's SUM of
    integers is one) as a number, dates and times as ISO 8601, bytes as hex."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (dt.date, dt.time)):  # datetime is a date
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, uuid.UUID):
        return str(value)
    return str(value)


def visible(text: str) -> str:
    """``text`` with control characters shown as escapes, so that a name holding a newline
    cannot print what looks like another row."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def _cell(value: Any, shown: bool = True) -> str:
    """One value as text; ``shown`` (a table for people) also escapes control characters. CSV
    keeps them: its quoting holds a newline, and a program wants the value as it is."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(_cell(v, shown) for v in value)
    if isinstance(value, dict):
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=json_value)
    elif isinstance(value, (bytes, bytearray, memoryview, Decimal, dt.date, dt.time, dt.timedelta)):
        text = str(json_value(value))
    else:
        text = str(value)
    return visible(text) if shown else text


def to_json(rows: Sequence[dict[str, Any]]) -> str:
    return json.dumps(rows, indent=2, ensure_ascii=False, default=json_value) + "\n"


def render(rows: Sequence[dict[str, Any]], columns: Sequence[str], fmt: str, max_width: int = 80) -> str:
    if fmt == "json":
        return to_json([{c: r.get(c) for c in columns} for r in rows])
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(columns)
        for r in rows:
            writer.writerow([_cell(r.get(c), shown=False) for c in columns])
        return buf.getvalue()
    cells = [[_cell(r.get(c)) for c in columns] for r in rows]
    cells = [[v if len(v) <= max_width else v[: max_width - 1] + "…" for v in row] for row in cells]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    numeric = [bool(rows) and all(_is_number(r.get(c)) for r in rows) for c in columns]
    lines = ["  ".join(c.ljust(w) if not n else c.rjust(w) for c, w, n in zip(columns, widths, numeric)).rstrip()]
    for row in cells:
        lines.append("  ".join(v.rjust(w) if n else v.ljust(w) for v, w, n in zip(row, widths, numeric)).rstrip())
    return "\n".join(lines) + "\n"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
