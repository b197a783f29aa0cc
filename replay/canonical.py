"""Canonical JSON: one byte string per value, so equal data hashes equally on any machine.

Used for content hashes of rules packs, the hash chain of stored events, manifest
checksums and state hashes.

The definition is :func:`reference_canonical_json` (``json.dumps`` with sorted keys, no
spaces, UTF-8) and it never changes: stored hashes depend on it. :func:`canonical_json`
returns the same bytes faster. With ``orjson`` installed it serializes there and falls
back to the definition wherever the two could differ:

* floats (Python's ``repr`` and orjson differ on small exponents, NaN and infinities):
  a float always shows in orjson's output as a digit followed by ``.``/``e``, or as
  ``null`` (NaN, infinities), so such output is re-encoded by the definition (a string
  holding such characters costs a re-encoding, never a wrong byte);
* whatever orjson refuses (integers beyond 64 bits, keys that are not strings, lone
  surrogates, subclasses of str/int/dict/list, other types): the definition then
  encodes or raises exactly as before.

What is left to orjson (strings and their escapes, key order, integers, bools, None,
nested lists and dicts) is byte-for-byte the same, which ``tests/test_canonical.py``
checks over generated values. Without orjson the definition is used, through one
encoder built once. Where the hash chain's extension is built, its compiled canonical body
(:data:`COMPILED`) is tried before either.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from .compiled_ext import PURE, load

try:
    import orjson
except ImportError:  # pragma: no cover - the tests run both ways (tests/test_canonical.py)
    orjson = None  # type: ignore[assignment]

_CCHAIN, _ = load(__package__, "_cchain", "the compiled canonical body")
COMPILED: Callable[[Any], bytes | None] | None = None if PURE or _CCHAIN is None else _CCHAIN.canonical
"""The hash chain's compiled canonical body (``replay/_cchain.c``, where built; not under ``REPLAY_PURE=1``):
the definition's bytes for strings, integers within 64 bits, bools, None, exact lists, tuples and dicts
with string keys, and None for anything else (a float first), which then goes the ways below
(``tests/test_cchain.py`` holds it to the definition). About twice as fast as orjson's way with its
float check on a 7 Wonders Dice state (a state hash per projected game)."""

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""``json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``, built once."""


def reference_canonical_json(data: Any) -> bytes:
    """The definition: sorted keys, no spaces, UTF-8 (``json.dumps``). Hashes stored with this stay valid."""
    return _ENCODER.encode(data).encode()


FLOAT_MARKS = bytes.maketrans(b"0123456789:,[.En", b"XXXXXXXXXXXXXeee")
"""orjson's output with digits and ``:`` ``,`` ``[`` as X, and ``.`` ``E`` ``n`` as e: a float (a digit then
``.`` or ``e``) or a null (NaN and infinities become null) inside a list or dict then reads ``Xe``."""


def has_float(value: Any) -> bool:
    """Whether a float is anywhere in ``value`` (through dicts' values, lists and tuples)."""
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:  # iterative: a call and a generator per node cost ten times more
        item = pop()
        if isinstance(item, float):
            return True
        if isinstance(item, dict):
            extend(item.values())
        elif isinstance(item, (list, tuple)):
            extend(item)
    return False


def marks_a_number(text: bytes, at: int) -> bool:
    """Whether the mark found at ``at`` (``Xe`` in ``text.translate(FLOAT_MARKS)``) can be a float's: the digits
    ending there begin a token (after ``[`` ``,`` ``:`` or ``-``), or ``at`` is such a delimiter before a
    null. A hex digest or a version inside a string (``"1.0.0"``, ``"a4e1"``) fails this and costs nothing."""
    while at > 0 and 48 <= text[at] <= 57:  # back over the digits
        at -= 1
    return text[at] in b":,[-" or 48 <= text[at] <= 57  # (digits from the very start: a number, to be safe)


FAST = orjson is not None
"""Whether :func:`canonical_json` runs on orjson (else on the standard library's json)."""

OPTIONS = 0 if orjson is None else (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS
                                    | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS)
"""orjson's options: sorted keys; subclasses, datetimes and dataclasses refused (so the definition decides)."""


def orjson_dumps() -> Callable[..., bytes] | None:
    """``orjson.dumps``, or None without orjson (looked up at each call: the tests hide orjson)."""
    return None if orjson is None else orjson.dumps


def orjson_module() -> Any:
    """The orjson module, or None without it (looked up at each call: the tests hide orjson)."""
    return orjson


def canonical_json(data: Any) -> bytes:
    """One byte string per value: sorted keys, no spaces, UTF-8 (the same bytes as the definition)."""
    compiled = COMPILED
    if compiled is not None:
        body = compiled(data)
        if body is not None:
            return body
    if orjson is None:
        return reference_canonical_json(data)
    try:
        out = orjson.dumps(data, option=OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: not plain JSON data for orjson; the definition decides
        return reference_canonical_json(data)
    if (b"Xe" in out.translate(FLOAT_MARKS) or out == b"null") and has_float(data):
        return reference_canonical_json(data)  # a float, or a string that merely looks like one
    return out


def content_hash(data: Any) -> str:
    """``sha256:<hex>`` of the canonical JSON of ``data`` (whitespace and key order do not count)."""
    return "sha256:" + hashlib.sha256(canonical_json(data)).hexdigest()
