"""Typed Arrow columns derived from the event models.

An archive file of one game kind has the envelope columns followed by one
nullable struct column per event type, named after the type. A row fills the
struct of its own type and leaves the others null, so DuckDB reads
``die_rolled.face`` as an integer column, not as text inside a JSON blob.

The mapping is deliberately small: int, float, bool, str, Literal, Enum,
list/tuple, dict[str, X], nested models and Optional. An ``Annotated[int,
pa.int8()]`` hint overrides the default Arrow type of a field.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
import json
import types
import typing
from collections.abc import Sequence
from typing import Any, Literal, Union

import pyarrow as pa
import pyarrow.compute as pc
from pydantic import BaseModel, Field, TypeAdapter, create_model

from . import columns as compiled_columns
from .contract import AnyGame
from .errors import SchemaError
from .events import Event
from .gcpause import gc_paused

ENVELOPE_SCHEMA = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("seq", pa.int64(), nullable=False),
        pa.field("kind", pa.string(), nullable=False),
        pa.field("type", pa.string(), nullable=False),
        pa.field("version", pa.int32(), nullable=False),
        pa.field("hash", pa.int64(), nullable=False),  # the game's hash chain (replay.chain)
    ]
)

_SCALARS: dict[Any, pa.DataType] = {
    int: pa.int64(),
    float: pa.float64(),
    bool: pa.bool_(),
    str: pa.string(),
}


def arrow_type(annotation: Any, where: str) -> tuple[pa.DataType, bool]:
    """(Arrow type, nullable) for a Python annotation; ``where`` names the field in errors."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        override = next((a for a in args[1:] if isinstance(a, pa.DataType)), None)
        inner, nullable = arrow_type(args[0], where)
        return (override or inner), nullable
    if origin in (Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        if len(members) != 1:
            raise SchemaError(f"{where}: unions of several types cannot be a typed column")
        inner, _ = arrow_type(members[0], where)
        return inner, len(members) < len(args)
    if annotation in _SCALARS:
        return _SCALARS[annotation], False
    if origin is Literal:
        kinds = {type(a) for a in args}
        if len(kinds) != 1 or next(iter(kinds)) not in _SCALARS:
            raise SchemaError(f"{where}: Literal values must all be of one scalar type")
        return _SCALARS[next(iter(kinds))], False
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        values = {type(m.value) for m in annotation}
        if len(values) != 1 or next(iter(values)) not in _SCALARS:
            raise SchemaError(f"{where}: enum values must all be of one scalar type")
        return _SCALARS[next(iter(values))], False
    if origin in (list, tuple, typing.Sequence) or annotation in (list, tuple):
        if not args:
            raise SchemaError(f"{where}: a list needs an item type, e.g. list[int]")
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(set(args)) != 1:
                raise SchemaError(f"{where}: tuples must be homogeneous (tuple[int, ...])")
        item, item_nullable = arrow_type(args[0], f"{where}[]")
        return pa.list_(pa.field("element", item, nullable=item_nullable)), False  # Parquet's name: round-trips unchanged
    if origin is dict:
        if args[0] is not str:
            raise SchemaError(f"{where}: dict keys must be str")
        value, _ = arrow_type(args[1], f"{where}{{}}")
        return pa.map_(pa.string(), value), False
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return model_struct(annotation, where), False
    raise SchemaError(f"{where}: {annotation!r} has no typed column mapping")


def model_struct(model: type[BaseModel], where: str | None = None) -> pa.StructType:
    """The struct type of a model's fields, in declaration order."""
    where = where or model.__name__
    fields = []
    for name, info in model.model_fields.items():
        annotation: Any = info.annotation  # a type form, rebuilt below when the field carries metadata
        if info.metadata:
            annotation = typing.Annotated[(annotation, *info.metadata)]
        typ, nullable = arrow_type(annotation, f"{where}.{name}")
        fields.append(pa.field(name, typ, nullable=nullable or not info.is_required()))
    return pa.struct(fields)


_KIND_SCHEMAS: dict[int, pa.Schema] = {}


def kind_schema(game: AnyGame) -> pa.Schema:
    """The Arrow schema of an archive file holding events of ``game.kind`` (cached per game)."""
    cached = _KIND_SCHEMAS.get(id(game))
    if cached is None:
        cached = _KIND_SCHEMAS[id(game)] = _build_kind_schema(game)
    return cached


def _build_kind_schema(game: AnyGame) -> pa.Schema:
    columns = list(ENVELOPE_SCHEMA)
    for model in game.event_types:
        columns.append(pa.field(model.event_type, model_struct(model), nullable=True))
    return pa.schema(columns, metadata={"replay.kind": game.kind})


def schema_text(schema: pa.Schema) -> str:
    """A stable, complete rendering of a schema, one field a line (schemas/*.arrow.txt).

    pyarrow's own ``to_string`` elides long nested types, which would make two
    different layouts print (and fingerprint) alike.
    """
    lines: list[str] = []
    for f in schema:
        _render_field(f, 0, lines)
    return "\n".join(lines) + "\n"


def _render_field(f: pa.Field, depth: int, lines: list[str]) -> None:
    t = f.type
    null = "" if f.nullable else " not null"
    pad = "  " * depth
    if pa.types.is_struct(t):
        lines.append(f"{pad}{f.name}: struct{null}")
        for i in range(t.num_fields):
            _render_field(t.field(i), depth + 1, lines)
    elif pa.types.is_list(t):
        lines.append(f"{pad}{f.name}: list{null}")
        _render_field(t.value_field, depth + 1, lines)
    elif pa.types.is_map(t):
        lines.append(f"{pad}{f.name}: map<{t.key_type}>{null}")
        _render_field(t.item_field, depth + 1, lines)
    else:
        lines.append(f"{pad}{f.name}: {t}{null}")


def schema_fingerprint(schema: pa.Schema) -> str:
    """Short hash of the column layout; two files agree on it iff their columns do."""
    return hashlib.sha256(schema_text(schema).encode()).hexdigest()[:16]


def events_json_schema(game: AnyGame) -> dict[str, Any]:
    """JSON Schema of one JSON Lines record of this kind: a union discriminated by ``type``."""
    envelopes = []
    for model in game.event_types:
        # Literal types of run-time values: only the JSON Schema sees them, so they are typed Any here.
        kind_literal: Any = Literal[game.kind]
        type_literal: Any = Literal[model.event_type]
        version_literal: Any = Literal[model.version]
        envelopes.append(
            create_model(
                f"{model.__name__}Event",
                game_id=(str, ...),
                seq=(int, ...),
                kind=(kind_literal, ...),
                type=(type_literal, ...),
                version=(version_literal, ...),
                payload=(model, ...),
            )
        )
    union: Any = typing.Annotated[Union[tuple(envelopes)], Field(discriminator="type")]  # noqa: UP007 - built at run time
    schema = TypeAdapter(union).json_schema()
    schema["title"] = f"{game.kind} event (one JSON Lines record)"
    return schema


def json_text(obj: Any) -> str:
    return json.dumps(obj, indent=2, sort_keys=True) + "\n"


# ----------------------------------------------------------------------------- encode / decode


def encode(events: list[Event], game: AnyGame, hashes: Sequence[int] | pa.Array, schema: pa.Schema | None = None,
           columns: Sequence[Sequence[Any]] | None = None) -> pa.Table:
    """Events of one kind, with their chain hashes (ints, or an int64 array), as a typed table (rows in the order given).
    ``columns``: the events' six fields as columns (``tuple(zip(*events))``), if the caller has made them already.

    Each event type's payloads are converted together, then spread to their rows by one ``take``
    (null elsewhere): no full-length column of Python Nones per type, no Python loop per cell.
    """
    schema = schema or kind_schema(game)
    n = len(events)
    # The envelope fields and payloads as columns, transposed in one C-level pass (no list per field). The
    # pass makes an iterator per event: with the cyclic collector running, it would walk them again and again.
    if columns is None:
        with gc_paused():
            columns = tuple(zip(*events)) if n else ((),) * 6
    game_ids, seqs, kinds, types, versions, all_payloads = columns
    payloads: dict[str, list[Any]] = {name: [] for name in set(types)}
    unknown = {name for name in payloads if name not in game.models or name in _ENVELOPE_NAMES}
    if unknown:
        e = next(e for e in events if e.type in unknown)
        raise SchemaError(f"event {e.game_id}#{e.seq}: unknown {game.kind} event type {e.type!r}")
    if len(payloads) == 1:
        payloads[types[0]] = all_payloads  # type: ignore[assignment]  # one type: its payloads are all of them, in order
    else:
        for t, p in zip(types, all_payloads):
            payloads[t].append(p)
    type_column = pa.array(types, pa.string())
    envelope: dict[str, Any] = {
        "game_id": game_ids,
        "seq": seqs,
        "kind": kinds,
        "type": type_column,
        "version": versions,
        "hash": hashes,
    }
    arrays = []
    for field in schema:
        try:
            values = envelope.get(field.name)
            if field.name in payloads:
                arrays.append(_spread(pa.array(payloads[field.name], type=field.type), type_column, field.name))
            elif values is None:  # no event of this type (pa.nulls would make the children null too)
                arrays.append(pa.array(itertools.repeat(None, n), type=field.type, size=n))
            elif isinstance(values, pa.Array) and values.type == field.type:
                arrays.append(values)
            else:
                arrays.append(pa.array(values, type=field.type))
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError) as exc:
            raise SchemaError(f"{game.kind} column {field.name!r} cannot hold these events: {exc}") from exc
    return pa.Table.from_arrays(arrays, schema=schema)


_ENVELOPE_NAMES = frozenset(ENVELOPE_SCHEMA.names)


def _spread(compact: pa.StructArray, types: pa.Array, name: str) -> pa.Array:
    """The payloads of type ``name`` (in row order) at the rows of that type, null at the others."""
    if len(compact) == len(types):
        return compact
    rows = pc.equal(types, name)
    position = pc.subtract(pc.cumulative_sum(pc.cast(rows, pa.int64())), 1)
    # Other rows take a blank payload (empty strings and lists, zeros) and are then masked null: a null
    # index would put nulls in the struct's children, which Parquet refuses for a field declared
    # non-nullable; taking payload 0 there would copy a whole payload (a rules pin) to every such row.
    # What lies under a null is never written to Parquet: the file is the same either way.
    blank = _blank_row(compact.type)
    if blank is not None:
        spread = pa.concat_arrays([compact, blank]).take(pc.if_else(rows, position, len(compact)))
    else:
        spread = compact.take(pc.if_else(rows, position, 0))
    struct = spread.type
    return pa.StructArray.from_arrays([spread.field(i) for i in range(struct.num_fields)],
                                      fields=list(struct), mask=pc.invert(rows))


_BLANKS: dict[pa.DataType, pa.Array | None] = {}


def _blank_row(t: pa.DataType) -> pa.Array | None:
    """One row of type ``t`` holding as little as it can (None if a field's type has no blank here)."""
    if t not in _BLANKS:
        try:
            _BLANKS[t] = pa.array([_blank_value(t)], type=t)
        except (KeyError, pa.ArrowException):
            _BLANKS[t] = None
    return _BLANKS[t]


def _blank_value(t: pa.DataType) -> Any:
    if pa.types.is_struct(t):
        return {t.field(i).name: None if t.field(i).nullable else _blank_value(t.field(i).type) for i in range(t.num_fields)}
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_map(t):
        return []
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return ""
    if pa.types.is_boolean(t):
        return False
    if pa.types.is_integer(t):
        return 0
    if pa.types.is_floating(t):
        return 0.0
    raise KeyError(str(t))


def decode(table: pa.Table, game: AnyGame, upcast: bool = True) -> list[Event]:
    """Events from a table, payloads upcast to the current versions (as stored if not ``upcast``).

    This is the replay hot path: whole columns are converted at once and rows are
    assembled as tuples; no model is built and nothing is validated again (the
    archive's checksums and the schema already vouch for the data). The cyclic
    garbage collector is paused meanwhile: these objects hold no cycles, and
    letting it run every few hundred allocations costs more than the decoding.
    Where the compiled decoder is in use, the payload containers and the rows are
    also made untracked (replay/columns.py says why that is safe), so that no
    collection after the pause walks them: a replay keeps every event alive.
    """
    if table.num_rows == 0:
        return []
    with gc_paused():
        return _decode(table, game, upcast)


def _decode(table: pa.Table, game: AnyGame, upcast: bool) -> list[Event]:
    type_names = _strings(table.column("type"))
    versions = table.column("version").to_pylist()
    columns: dict[str, Any] = {}
    with_maps: list[str] = []
    fast = compiled_columns.active()
    for name in set(type_names):
        if name not in game.models or name not in table.column_names:
            raise SchemaError(f"stored {game.kind} event type {name!r} is not known to this game")
        column = table.column(name)
        if fast:  # the compiled decoder (replay.columns): maps as dicts at no extra cost
            columns[name] = compiled_columns.to_pylist(column, maps_as_dicts=True)
        elif compiled_columns.has_map(column.type):
            with_maps.append(name)  # converted below, on this type's rows only
            columns[name] = [None] * len(type_names)
        else:
            columns[name] = column.to_pylist()
    for name in with_maps:
        # maps_as_pydicts is ten times slower than plain conversion: pay it only where needed.
        rows = [i for i, t in enumerate(type_names) if t == name]
        column = columns[name]
        for i, value in zip(rows, table.column(name).take(rows).to_pylist(maps_as_pydicts="strict")):
            column[i] = value
    payloads: list[Any] | dict[str, list[Any]] = columns  # each row's payload is in its type's column
    current = game.current_versions
    if upcast and _stale(table, current):
        payloads = [columns[t][i] for i, t in enumerate(type_names)]
        for i, (t, v) in enumerate(zip(type_names, versions)):
            if v != current[t]:
                payloads[i] = game.upcast(t, v, payloads[i])
                versions[i] = current[t]
    # the rows made in C where the decoder is (its containers off the collector's lists: replay/columns.py)
    return compiled_columns.events(Event, _strings(table.column("game_id")), table.column("seq").to_pylist(),
                                   _strings(table.column("kind")), type_names, versions, payloads)


def _stale(table: pa.Table, current: dict[str, int]) -> bool:
    """Whether some row's version is not its type's current one (its payload is then upcast): compared by
    Arrow, without a Python object per row (every type of the table is one of ``current``'s: checked before)."""
    names = list(current)
    wanted = pc.take(pa.array([current[n] for n in names], pa.int32()),
                     pc.index_in(table.column("type"), value_set=pa.array(names, pa.string())))
    return not pc.all(pc.equal(wanted, table.column("version"))).as_py()


DICTIONARY_COLUMNS = ("game_id", "kind", "type")
"""Envelope strings with few distinct values: read as dictionaries, decoded through their indices."""


def payload_string_columns(schema: pa.Schema, leaves: Sequence[str]) -> list[str]:
    """The payloads' string leaves of a file (``leaves``: its Parquet column paths, such as
    ``action_taken.steps.list.element.die``) that are not inside a map: what a read of one row group may take
    as dictionaries beside the envelope's.

    Why: a log repeats a few strings (die ids, faces, step kinds, buildings) in every event. Read as they are
    stored, dictionary-encoded, Parquet hands over indices instead of copying each string, and the decoder
    makes each distinct value once (replay/_columns.c) instead of once per row: reading and decoding ×1.17 fewer
    instructions (docs/performance.md, "Eighteenth pass"). pyarrow makes such nested dictionary columns of one
    chunk only, hence one row group a read. Maps are left out: their keys are checked for repeats, which is the
    pyarrow conversion's business."""
    out = []
    for path in leaves:
        parts = path.split(".")
        if len(parts) < 2 or schema.get_field_index(parts[0]) < 0:  # an envelope column, or not one of the file's
            continue
        t = schema.field(parts[0]).type
        rest = parts[1:]
        while rest and (pa.types.is_struct(t) or pa.types.is_list(t) or pa.types.is_large_list(t)):
            if pa.types.is_struct(t):
                k = t.get_field_index(rest[0])
                t, rest = (t.field(k).type, rest[1:]) if k >= 0 else (pa.null(), [])
            else:  # a list's leaves are <name>.list.element.<...>
                t, rest = t.value_type, rest[2:]
        if not rest and (pa.types.is_string(t) or pa.types.is_large_string(t)):
            out.append(path)
    return out


def _strings(column: pa.ChunkedArray) -> list[str]:
    """A string column as Python strings; a dictionary column makes one str per distinct value."""
    if not pa.types.is_dictionary(column.type):
        strings: list[str] = column.to_pylist()
        return strings
    out: list[str] = []
    for chunk in column.chunks:
        found = compiled_columns.values(chunk)  # the same strs; None where not in use or declined (an index too far)
        if found is not None:
            out.extend(found)
            continue
        values = chunk.dictionary.to_pylist()
        try:
            if (pc.min(chunk.indices).as_py() or 0) < 0:  # Python would count it from the end: a wrong value, no error
                raise IndexError
            out.extend([values[i] for i in chunk.indices.to_pylist()])
        except IndexError:  # a damaged page header (no page checksum covers it) shortened the dictionary
            raise SchemaError("a dictionary-encoded column refers past its dictionary: a data file is damaged; "
                              "run `replay verify`") from None
    return out
