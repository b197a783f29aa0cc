"""A batch of one kind's events to its Arrow table, column by column in compiled code.

:func:`replay.schema.encode` hands Python lists to pyarrow: a conversion per envelope value and a dict
lookup per payload field, ~0.4 µs an event of a bulk import. Where the compiled chain is built
(:mod:`replay.chain_compiled`), :func:`encode_columns` makes the same table from the Arrow buffers the
extension writes straight from the events' columns: the envelope's strings and integers, and the fields of
each event type whose fields are all plain values (integers, bools, floats, strings). Nested payloads
(lists, structs, maps) are still converted by pyarrow, and each type is spread to its rows as
``encode`` does. Anything the extension does not take as it is (a value of another type, an integer out of
range, a missing or extra key, a lone surrogate) sends the whole batch to ``encode``, which converts or
raises exactly as it always did: the table is the same either way (``tests/test_cchain.py`` compares the
Parquet bytes).

In a bulk import those buffers are written by the chain's own pass (:func:`column_builder`): each event's
envelope and plain fields go to the buffers right after its canonical body, while its objects are still in
cache, rather than in later passes over a batch too large for the cache. Where that builder declines, the
columns are made here from the transposed events, and where those builders decline, by ``encode``.
"""

from __future__ import annotations

import functools
import itertools
import sys
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

import pyarrow as pa

from .. import chain_compiled
from ..contract import AnyGame
from ..errors import UnknownGameKind
from ..events import Event
from ..registry import GameRegistry
from ..schema import _blank_row, encode, kind_schema

_CODES: dict[pa.DataType, str] = {
    pa.int64(): "q", pa.int32(): "i", pa.int16(): "h", pa.int8(): "b",
    pa.bool_(): "?", pa.float64(): "d", pa.string(): "s",
}
"""The column types the extension writes (``_cchain.column``'s codes)."""


def column_builder(compiled: Any, registry: GameRegistry, kind: str, capacity: int) -> Any | None:
    """A builder (``_cchain.builder``) to hand to ``_cchain.chain`` for one kind's runs, for at most ``capacity``
    events: the chain's pass then writes the envelope columns and the fields of every type whose fields are
    all plain values while each event is in cache. None for a kind not installed (``encode`` names it)."""
    try:
        schema = kind_schema(registry.get(kind))
    except UnknownGameKind:
        return None
    specs = []
    for field in list(schema)[6:]:
        children = list(field.type)
        codes = [_CODES.get(f.type) for f in children]
        if children and all(c is not None for c in codes):
            specs.append((field.name, tuple(f.name for f in children), "".join(c or "" for c in codes).encode(),
                          bytes(f.nullable for f in children)))
    return compiled.builder(capacity, tuple(specs))


def encode_columns(compiled: Any, events: list[Event], game: AnyGame, hashes: pa.Array,
                   columns: Sequence[Sequence[Any]] | None = None, fused: tuple[Any, Any, Any] | None = None) -> pa.Table:
    """``encode(events, game, hashes, columns=columns)``'s table, made from the compiled column builders
    where they take the values, else by ``encode`` itself. ``columns``: the events transposed
    (``_cchain.columns``), if the caller has them; ``fused``: what a :func:`column_builder` wrote as the
    events were hashed (None where it declined: the events are then transposed and the columns made here)."""
    if fused is None and columns is None:
        columns = compiled.columns(events)
    try:
        table = _encoded(compiled, game, hashes, columns, fused)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):  # whatever it is, encode raises it in its words
        table = None
    return table if table is not None else encode(events, game, hashes, columns=columns)


def _array(compiled: Any, values: Sequence[Any], type_: pa.DataType, nullable: bool, index: int = -1) -> pa.Array | None:
    """``pa.array(values, type_)`` from the extension's buffers, or None where it does not take them; with ``index``,
    of each record's value at that index (``values`` records, exact tuples)."""
    code = _CODES.get(type_)
    built = None if code is None else compiled.column(values, code, nullable, index)
    if built is None:
        return None
    return _from_buffers(type_, len(values), built)


def arrow_column(values: Sequence[Any], type_: pa.DataType) -> pa.Array:
    """``pa.array(values, type=type_)``, the same array: written by the compiled chain's column writers where they take
    the values as they are (plain values of the type, nulls included; lists and structs of them, as ``nested``
    takes a payload's), else by pyarrow, which converts them or raises as it always did. For the derived tables'
    columns (``replay project``), whose lists (the spaces unlocked, an action's effects) pyarrow converted value
    by value in ten times the time."""
    compiled = chain_compiled.CCHAIN
    if compiled is not None and type_ in _CODES:
        built = _array(compiled, values, type_, True)
        if built is not None:
            return built
    elif compiled is not None and (pa.types.is_list(type_) or pa.types.is_struct(type_)):
        made = compiled.nested(values, _spec(type_, True))
        if made is not None:
            return _from_nested(type_, len(values), made)
    return pa.array(values, type=type_)


def record_column(records: list[tuple[Any, ...]], index: int, type_: pa.DataType) -> pa.Array:
    """``arrow_column([r[index] for r in records], type_)``, the same array: a plain column's values read in place
    from the records (exact tuples) by the compiled column writer, which otherwise declines; the other columns,
    and any record of another type, from the values picked out (``itemgetter``, in C: ``zip(*records)``, which
    this replaces, took twice as long)."""
    compiled = chain_compiled.CCHAIN
    built = _array(compiled, records, type_, True, index) if compiled is not None else None
    return built if built is not None else arrow_column(list(map(itemgetter(index), records)), type_)


def _from_buffers(type_: pa.DataType, n: int, built: tuple[bytes | None, bytes, bytes | None]) -> pa.Array:
    """An array of ``n`` values from the extension's (validity or None, data, offsets or None)."""
    validity, data, offsets = built
    buffers = [None if validity is None else pa.py_buffer(validity)]
    if offsets is not None:
        buffers.append(pa.py_buffer(offsets))
    buffers.append(pa.py_buffer(data))
    return pa.Array.from_buffers(type_, n, buffers, null_count=-1 if validity is not None else 0)


def _struct(compiled: Any, payloads: list[Any], struct: pa.StructType) -> pa.Array:
    """The payloads of one type as a struct array: by the extension's ``nested`` where it takes them (structs and
    lists of plain values, at any depth), else field by field where every field is a plain value."""
    built = compiled.nested(payloads, _spec(struct, False)) if hasattr(compiled, "nested") else None
    if built is not None:
        return _from_nested(struct, len(payloads), built)
    children = list(struct)
    if all(f.type in _CODES for f in children):
        values = compiled.fields(payloads, tuple(f.name for f in children))
        if values is not None:
            arrays = [_array(compiled, v, f.type, f.nullable) for v, f in zip(values, children)]
            if all(a is not None for a in arrays):
                return pa.StructArray.from_arrays(arrays, fields=children)
    return pa.array(payloads, type=struct)


@functools.cache
def _spec(type_: pa.DataType, nullable: bool) -> tuple[Any, ...]:
    """What ``_cchain.nested`` writes for a column of ``type_``: a plain value (``_CODES``), a struct (never null),
    a list (never null) of any of these, or ("o",): anything else, its values kept for pyarrow (a map)."""
    if type_ in _CODES:
        return ("p", _CODES[type_], nullable)
    if pa.types.is_struct(type_):
        names = tuple(sys.intern(f.name) for f in type_)  # the payloads' keys are mostly interned: found by identity
        return ("s", names, tuple(_spec(f.type, f.nullable) for f in type_))
    if pa.types.is_list(type_):
        return ("l", _spec(type_.value_type, type_.value_field.nullable))
    return ("o",)


def _from_nested(type_: pa.DataType, n: int, built: Any) -> pa.Array:
    """The array of ``n`` values that ``_cchain.nested`` wrote by :func:`_spec` (its buffers, or the values it kept)."""
    if type_ in _CODES:
        return _from_buffers(type_, n, built)
    if pa.types.is_struct(type_):
        return pa.StructArray.from_arrays([_from_nested(f.type, n, b) for f, b in zip(type_, built)], fields=list(type_))
    if pa.types.is_list(type_):
        offsets, elements, child = built
        return pa.ListArray.from_arrays(pa.Array.from_buffers(pa.int32(), n + 1, [None, pa.py_buffer(offsets)]),
                                        _from_nested(type_.value_type, elements, child), type=type_)
    return pa.array(built, type=type_)


def _spread_taken(compiled: Any, compact: pa.Array, types: tuple[Any, ...], name: str) -> pa.Array:
    """``replay.schema._spread`` (which see: the same blank row, the same take, the same mask), its indices and
    mask made by the extension in one pass instead of six Arrow passes."""
    if len(compact) == len(types):
        return compact
    n = len(types)
    blank = _blank_row(compact.type)
    indices, mask = compiled.positions(types, name, len(compact) if blank is not None else 0)
    source = pa.concat_arrays([compact, blank]) if blank is not None else compact
    spread = source.take(pa.Array.from_buffers(pa.int64(), n, [None, pa.py_buffer(indices)]))
    struct = spread.type
    return pa.StructArray.from_arrays([spread.field(i) for i in range(struct.num_fields)], fields=list(struct),
                                      mask=pa.Array.from_buffers(pa.bool_(), n, [None, pa.py_buffer(mask)]))


def _spread_plain(compiled: Any, struct: pa.StructType, types: tuple[Any, ...], name: str,
                  payloads: tuple[Any, ...]) -> pa.Array | None:
    """``_spread_taken(_struct(...))``'s array for a type whose fields are all plain values, made in one C pass
    over the rows (``_cchain.spread``: each payload's fields written while the dict is in cache, the other rows
    given ``_spread``'s blank and mask, so no take and no struct copy), or None where the extension declines."""
    children = list(struct)
    codes = [_CODES.get(f.type) for f in children]
    if any(c is None for c in codes):
        return None
    made = compiled.spread(types, name, payloads, tuple(f.name for f in children), "".join(codes).encode(),  # type: ignore[arg-type]
                           bytes(f.nullable for f in children))
    if made is None:
        return None
    count, mask, built = made
    n = len(types)
    arrays = [_from_buffers(f.type, n, b) for f, b in zip(children, built)]
    if mask is None:  # every row is of this type: the payloads as they are, as _spread returns them
        return pa.StructArray.from_arrays(arrays, fields=children)
    return pa.StructArray.from_arrays(arrays, fields=children,
                                      mask=pa.Array.from_buffers(pa.bool_(), n, [None, pa.py_buffer(mask)]))


def _fused_spread(struct: pa.StructType, n: int, made: tuple[int, bytes | None, tuple[Any, ...]]) -> pa.Array | None:
    """A builder's columns of one type as ``_spread_plain`` makes them (None where no row is of that type)."""
    count, mask, built = made
    if count == 0:
        return None
    children = list(struct)
    arrays = [_from_buffers(f.type, n, b) for f, b in zip(children, built)]
    if mask is None:
        return pa.StructArray.from_arrays(arrays, fields=children)
    return pa.StructArray.from_arrays(arrays, fields=children,
                                      mask=pa.Array.from_buffers(pa.bool_(), n, [None, pa.py_buffer(mask)]))


def _encoded(compiled: Any, game: AnyGame, hashes: pa.Array, columns: Sequence[Sequence[Any]] | None,
             fused: tuple[Any, Any, Any] | None = None) -> pa.Table | None:
    schema = kind_schema(game)
    if fused is not None:
        game_ids: Sequence[Any] = ()
        seqs = kinds = versions = game_ids
        types, payloads = fused[2]  # the rows' types and payloads, as the builder met them
    elif columns is not None:
        game_ids, seqs, kinds, types, versions, payloads = columns
    else:
        return None
    n = len(types)
    if not isinstance(types, tuple) or not isinstance(payloads, tuple):
        return None
    by_type: dict[str, list[Any]] = compiled.group(types, payloads)
    if any(t not in game.models or t in schema.names[:6] for t in by_type):
        return None  # encode names the unknown type
    spreads: dict[str, pa.Array | None] = {}
    if fused is not None:  # the columns the chain's pass wrote
        made_envelope, made_types, _ = fused
        envelope: dict[str, pa.Array | None] = {
            name: _from_buffers(type_, n, made)
            for name, type_, made in zip(schema.names[:5], schema.types[:5], made_envelope)}
        envelope["hash"] = hashes
        plain = [f for f in list(schema)[6:] if list(f.type) and all(c.type in _CODES for c in f.type)]
        spreads = {f.name: _fused_spread(f.type, n, made) for f, made in zip(plain, made_types)}
    else:
        envelope = {
            "game_id": _array(compiled, game_ids, pa.string(), False),
            "seq": _array(compiled, seqs, pa.int64(), False),
            "kind": _array(compiled, kinds, pa.string(), False),
            "type": _array(compiled, types, pa.string(), False),
            "version": _array(compiled, versions, pa.int32(), False),
            "hash": hashes,
        }
    if any(a is None for a in envelope.values()) or hashes.type != pa.int64():
        return None
    arrays = []
    for field in schema:
        built = envelope.get(field.name)
        if built is not None:
            arrays.append(built)
        elif field.name in by_type:
            spread = spreads.get(field.name)
            if spread is None:
                spread = _spread_plain(compiled, field.type, types, field.name, payloads)
            arrays.append(spread if spread is not None else
                          _spread_taken(compiled, _struct(compiled, by_type[field.name], field.type), types, field.name))
        else:  # no event of this type: as encode makes it
            arrays.append(pa.array(itertools.repeat(None, n), type=field.type, size=n))
    return pa.Table.from_arrays(arrays, schema=schema)
