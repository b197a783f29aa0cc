"""What changed between two plain-data states, as short readable lines.

Games turn their states into plain data (``Views.data``); this works on any
of them, so step-through and audit explain every game the same way.
"""

from __future__ import annotations

from typing import Any


def changes(before: Any, after: Any, path: str = "") -> list[str]:
    """Lines like ``players[0].coins: 7 -> 4`` or ``players[1].crossed.agora: + r0c1``."""
    out: list[str] = []
    _walk(before, after, path, out)
    return out


def _walk(a: Any, b: Any, path: str, out: list[str]) -> None:
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            _walk(a.get(k), b.get(k), f"{path}.{k}" if path else str(k), out)
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) == len(b) and all(isinstance(x, (dict, list)) for x in a + b):
            for i, (x, y) in enumerate(zip(a, b)):
                _walk(x, y, f"{path}[{i}]", out)
            return
        if all(not isinstance(x, (dict, list)) for x in a + b):
            added = [x for x in b if x not in a]
            removed = [x for x in a if x not in b]
            if (added or removed) and len(a) + len(added) - len(removed) == len(b) and sorted(map(str, a)) != sorted(map(str, b)):
                parts = [f"+ {x}" for x in added] + [f"- {x}" for x in removed]
                out.append(f"{path}: {', '.join(parts)}")
                return
    out.append(f"{path}: {_short(a)} -> {_short(b)}")


def _short(v: Any) -> str:
    if v is None:
        return "none"
    text = str(v) if not isinstance(v, str) else v
    return text if len(text) <= 60 else text[:57] + "..."
