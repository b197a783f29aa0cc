"""Arrow columns to Python values, through the compiled decoder where it is built.

Decoding the archive's payload columns (``schema.decode``) was about half of a 7 Wonders Dice replay:
pyarrow's ``to_pylist`` makes each payload dict through its own per-value objects. The optional C
extension ``replay._columns`` (built by ``pip install`` with the package, like the 7 Wonders Dice
kernel; see setup.py) fills the same dicts, lists and values straight from the Arrow buffers. It
gives exactly what ``to_pylist(maps_as_pydicts="strict")`` gives, and declines anything it does not
know (another type, a dictionary of containers, a repeated map key, bytes that are not UTF-8):
that array is then converted by pyarrow, which gives what it always gave, its errors included
(``tests/test_columns.py`` compares both on every game's archives, damaged ones too).

The same extension makes the decoded rows (:func:`events`): the ``Event`` tuples, each payload taken
from its type's column, and takes the containers it makes (payload dicts and lists, and the rows whose
items are all untracked) off the cyclic collector's lists. A replay keeps every event alive, ~10
objects each, and the collections that walked them again and again were a fifth of reading
(docs/performance.md, "Reading, tenth pass"). This is safe because a decoded payload is a tree of
objects just made, which holds no reference cycle: the collector counts a reference from an
untracked object as one from outside, so it can only fail to free a cycle made later through a
payload (a dict tracks itself again when a container is put in it; a list does not), never free a
live object. Nothing in replay/ changes a decoded payload (upcasters make new dicts), and
``tests/test_columns.py`` replays and derives every game kind's decoded events and checks that.

``REPLAY_PURE=1`` (read at import) forces pyarrow and Python's rows everywhere; :func:`use` switches
in-process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import pyarrow as pa

from .compiled_ext import PURE, load

_MODULE, NOT_BUILT = load(__package__, "_columns", "the compiled column decoder")
BUILT: Callable[[pa.Array], list[Any] | None] | None = _MODULE.values if _MODULE is not None else None
"""The extension's ``values`` (None where it is not built), and why not ("" when it is)."""

VALUES = None if PURE else BUILT
"""The decoder in use now: None under REPLAY_PURE=1 (pyarrow's conversion) or where it is not built."""

_EVENTS: Callable[..., list[Any]] | None = _MODULE.events if _MODULE is not None else None

T = TypeVar("T", bound=tuple[Any, ...])


def to_pylist(column: pa.ChunkedArray | pa.Array, maps_as_dicts: bool = False) -> list[Any]:
    """``column.to_pylist()`` (with ``maps_as_dicts``: ``maps_as_pydicts="strict"``), chunk by chunk
    through the compiled decoder where it takes the chunk.

    The compiled decoder makes maps as dicts; a column with maps asked as lists of pairs goes to
    pyarrow whole (no archive column is read that way in a replay).
    """
    fast = VALUES
    if fast is None or (not maps_as_dicts and has_map(column.type)):
        return _pyarrow(column, maps_as_dicts)
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    out: list[Any] = []
    for chunk in chunks:
        found = fast(chunk)
        out.extend(_pyarrow(chunk, maps_as_dicts) if found is None else found)
    return out


def events(cls: type[T], game_ids: list[str], seqs: list[int], kinds: list[str], types: list[str], versions: list[int],
           payloads: list[Any] | dict[str, list[Any]]) -> list[T]:
    """Row ``i`` as ``tuple.__new__(cls, (game_ids[i], seqs[i], kinds[i], types[i], versions[i], payload))``, the
    payload ``payloads[i]``, or ``payloads[types[i]][i]`` when given as one column per type (all of the rows'
    length). Made by the compiled module while the decoder is in use, which untracks the rows whose items are
    all untracked (the module docstring says why); the Python below is its reference, with the same rows."""
    if VALUES is not None and _EVENTS is not None:
        return _EVENTS(cls, game_ids, seqs, kinds, types, versions, payloads)
    gathered: Sequence[Any] = [payloads[t][i] for i, t in enumerate(types)] if isinstance(payloads, dict) else payloads
    make = tuple.__new__
    return [make(cls, row) for row in zip(game_ids, seqs, kinds, types, versions, gathered)]


def values(array: pa.Array) -> list[Any] | None:
    """One array's values by the compiled decoder (a dictionary-encoded one too, at the top or nested, if its values
    are atomic: each distinct value made once), or None: the decoder not in use, or it declines the array."""
    fast = VALUES
    return None if fast is None else fast(array)


def _pyarrow(column: pa.ChunkedArray | pa.Array, maps_as_dicts: bool) -> list[Any]:
    values: list[Any] = column.to_pylist(maps_as_pydicts="strict") if maps_as_dicts else column.to_pylist()
    return values


def has_map(t: pa.DataType) -> bool:
    """Whether a column of type ``t`` holds a map anywhere (such columns convert differently)."""
    if pa.types.is_map(t):
        return True
    if pa.types.is_struct(t):
        return any(has_map(t.field(i).type) for i in range(t.num_fields))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return has_map(t.value_type)
    return False


def active() -> bool:
    """Whether columns are decoded by the compiled decoder now."""
    return VALUES is not None


@contextmanager
def use(compiled: bool) -> Iterator[bool]:
    """The compiled decoder on (where built) or off for a while; yields whether it is on."""
    global VALUES
    saved = VALUES
    VALUES = BUILT if compiled else None
    try:
        yield VALUES is not None
    finally:
        VALUES = saved
