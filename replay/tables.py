"""Rows out: aligned tables for people, JSON and CSV for tools."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

FORMATS = ("table", "json", "csv")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def render(rows: Sequence[dict[str, Any]], columns: Sequence[str], fmt: str, max_width: int = 80) -> str:
    if fmt == "json":
        return json.dumps([{c: r.get(c) for c in columns} for r in rows], indent=2, ensure_ascii=False, default=str) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(columns)
        for r in rows:
            writer.writerow([_cell(r.get(c)) for c in columns])
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
