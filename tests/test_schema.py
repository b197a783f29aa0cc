"""Typed columns derived from the models, and the checked-in schemas/ kept in step."""

from __future__ import annotations

import enum
import io
from pathlib import Path
from typing import Annotated, Literal

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers import bare_game, pig_game
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from replay.chain import chain
from replay.errors import SchemaError
from replay.events import Event, EventPayload, GameStartedBase
from replay.registry import registry
from replay.schema import decode, encode, kind_schema, model_struct, schema_fingerprint, schema_text
from replay.schema_files import schema_files

SCHEMAS = Path(__file__).parent.parent / "schemas"


class Colour(enum.StrEnum):
    GREY = "grey"
    RED = "red"


class Die(BaseModel):
    id: int
    colour: Colour
    face: Literal["wood", "stone", "shield"]
    section: Annotated[int, pa.int8()]


class Everything(EventPayload):
    event_type = "everything"
    dice: list[Die]
    note: str | None = None
    weights: dict[str, float]
    flags: tuple[bool, ...]
    chosen: int | None


class Started(GameStartedBase):
    event_type = "started"


KITCHEN = bare_game("kitchen-sink", (Started, Everything), Started)


def test_every_supported_annotation_has_a_typed_column():
    struct = model_struct(Everything)
    assert struct.field("dice").type == pa.list_(pa.field("element", pa.struct([
        pa.field("id", pa.int64(), nullable=False), pa.field("colour", pa.string(), nullable=False),
        pa.field("face", pa.string(), nullable=False), pa.field("section", pa.int8(), nullable=False),
    ]), nullable=False))
    assert struct.field("note").nullable and struct.field("chosen").nullable
    assert struct.field("weights").type == pa.map_(pa.string(), pa.float64())
    assert struct.field("flags").type.value_type == pa.bool_()


@pytest.mark.parametrize("annotation", [dict[int, int], int | str, tuple[int, str], list, bytes])
def test_unsupported_annotations_are_named(annotation):
    from replay.schema import arrow_type

    with pytest.raises(SchemaError, match="Model.field"):
        arrow_type(annotation, "Model.field")


die = st.builds(Die, id=st.integers(0, 9), colour=st.sampled_from(Colour),
                face=st.sampled_from(["wood", "stone", "shield"]), section=st.integers(0, 3))
everything = st.builds(
    Everything, dice=st.lists(die, max_size=4), note=st.none() | st.text(max_size=8),
    weights=st.dictionaries(st.text(max_size=3), st.floats(allow_nan=False), max_size=3),
    flags=st.lists(st.booleans(), max_size=3).map(tuple), chosen=st.none() | st.integers(-5, 5),
)


@settings(max_examples=60, deadline=None)
@given(payloads=st.lists(everything, min_size=1, max_size=5))
def test_encode_parquet_decode_round_trip(payloads):
    events = [Event.create("kitchen-sink", "g", i, p) for i, p in enumerate(payloads)]
    table = encode(events, KITCHEN, chain(events))
    sink = io.BytesIO()
    pq.write_table(table, sink)
    back = pq.read_table(io.BytesIO(sink.getvalue()))
    assert schema_fingerprint(back.schema) == schema_fingerprint(kind_schema(KITCHEN))
    assert decode(back, KITCHEN) == events
    assert [Everything.of(e) for e in decode(back, KITCHEN)] == payloads


def test_schema_text_is_complete_for_deep_types():
    text = schema_text(kind_schema(KITCHEN))
    assert "      section: int8 not null" in text and "..." not in text


def test_checked_in_schemas_match_the_code():
    files = schema_files(registry)
    on_disk = {p.name: p.read_text() for p in SCHEMAS.iterdir()}
    assert on_disk == files, "schemas/ is out of date: run `replay schema --write schemas`"


def test_schema_changes_change_the_fingerprint():
    class Wider(EventPayload):
        event_type = "everything"
        dice: list[Die]
        extra: int

    other = bare_game("kitchen-sink", (Started, Wider), Started)
    assert schema_fingerprint(kind_schema(other)) != schema_fingerprint(kind_schema(KITCHEN))


def test_pig_events_fill_their_own_struct_only():
    events = pig_game("g1")[:3]
    table = encode(events, registry.get("pig"), chain(events))
    assert table.column("die_rolled").to_pylist()[1:] == [{"player": 0, "face": f} for f in
                                                          [e.payload["face"] for e in pig_game("g1")[1:3]]]
    assert table.column("die_rolled")[0].as_py() is None
