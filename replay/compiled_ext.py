"""What the optional C extensions share: loading one, or saying why it is not there, and the
``REPLAY_PURE`` switch.

Each extension (the 7 Wonders Dice kernel, the hash chain, the column decoder) is built by
``pip install`` where a compiler is there and left out where not (setup.py); its Python module
(``games/wonders_dice/compiled.py``, ``chain_compiled.py``, ``columns.py``) then runs the pure-Python
code, which is the reference. The reason a module is missing is kept for the benchmarks and for CI,
which requires every extension (``REPLAY_REQUIRE_COMPILED=1``).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType

PURE = os.environ.get("REPLAY_PURE", "") not in ("", "0")
"""REPLAY_PURE=1 (read at import): the pure-Python code everywhere, even where the extensions are built."""


def load(package: str, name: str, what: str) -> tuple[ModuleType | None, str]:
    """(the extension ``package.name``, "") or (None, why it is not there: not built, or not loading)."""
    try:
        module = importlib.import_module(f"{package}.{name}")
    except ImportError as missing:
        if importlib.util.find_spec(f"{package}.{name}") is None:
            return None, f"{what} ({package}.{name}) is not built"
        return None, f"{what} does not load ({missing})"
    return module, ""
