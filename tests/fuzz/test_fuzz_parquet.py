"""Damaged Parquet files in the archive: truncated, bytes flipped or zeroed, deleted, renamed,
swapped, moved to another kind's folder; and the same damage with the manifest re-signed to
match (a careful forger, or a buggy tool).

Every command, reading or writing, answers or fails with a word; and either ``verify``
reports a problem, or the archive holds exactly the acknowledged events.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from .conftest import (
    FUZZ,
    Base,
    assert_holds,
    data_files,
    examples,
    forge,
    read_some,
    records,
    run,
    scaled,
    scratch,
    tree,
    verified,
    write_after_damage,
)

DAMAGE = ["flip", "flip", "flip", "truncate", "zero", "append", "delete", "rename", "swap", "overwrite", "move"]


def damage(data: st.DataObject, archive: Path) -> tuple[str, list[Path]]:
    """One kind of damage to the archive's data files; returns what was done and the files now holding it."""
    files = data_files(archive)
    target = data.draw(st.sampled_from(files), label="file")
    other = data.draw(st.sampled_from([f for f in files if f != target]), label="other file")
    how = data.draw(st.sampled_from(DAMAGE), label="damage")
    raw = bytearray(target.read_bytes())
    if how == "flip":
        for _ in range(data.draw(st.integers(1, 3), label="flips")):
            at = data.draw(st.integers(0, len(raw) - 1), label="offset")
            raw[at] ^= data.draw(st.integers(1, 255), label="mask")
        target.write_bytes(bytes(raw))
    elif how == "truncate":
        target.write_bytes(bytes(raw[:data.draw(st.integers(0, len(raw) - 1), label="length")]))
    elif how == "zero":
        at = data.draw(st.integers(0, len(raw) - 1), label="offset")
        n = data.draw(st.integers(1, 64), label="length")
        raw[at:at + n] = bytes(len(raw[at:at + n]))
        target.write_bytes(bytes(raw))
    elif how == "append":
        target.write_bytes(bytes(raw) + data.draw(st.binary(min_size=1, max_size=64), label="garbage"))
    elif how == "delete":
        target.unlink()
        return how, []
    elif how == "rename":
        gen, n = target.stem.split("-")
        renamed = target.with_name(data.draw(st.sampled_from([f"{int(gen) + 1:010d}-{n}", f"{gen}-{int(n) + 1:04d}",
                                                               "0000000000-0000", "x"]), label="new name") + ".parquet")
        target.rename(renamed)
        return how, [renamed]
    elif how == "swap":
        a, b = target.read_bytes(), other.read_bytes()
        target.write_bytes(b)
        other.write_bytes(a)
        return how, [target, other]
    elif how == "overwrite":
        shutil.copyfile(other, target)
    else:  # move to the other kind's folder, under its own name
        moved = other.parent / target.name
        if moved.exists():
            moved = other.parent / f"9{target.name[1:]}"
        target.rename(moved)
        return how, [moved]
    return how, [target]


def re_sign(archive: Path, files: list[Path]) -> None:
    """The manifest, re-signed to vouch for the damaged files' sizes and checksums as they now are."""
    by_path = {str(f.relative_to(archive)): f for f in files if f.is_file()}

    def edit(body: Any) -> Any:
        for entry in body.get("add", []) + body.get("files", []):
            f = by_path.get(entry["path"])
            if f is not None:
                raw = f.read_bytes()
                entry["bytes"], entry["sha256"] = len(raw), hashlib.sha256(raw).hexdigest()
        return body

    for record in records(archive):
        forge(record, edit)


@FUZZ
@given(data=st.data(), forged=st.booleans())
def test_damage_then_read(base: Base, scratch_root: Path, data: st.DataObject, forged: bool) -> None:
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        how, touched = damage(data, archive)
        if forged:
            re_sign(archive, touched)
        ok = assert_holds(archive, base.export, base.games)
        event(f"{how}{' forged' if forged else ''}: verify {'OK' if ok else 'finds it'}")
        if not forged and tree(archive, ("data",)) != tree(base.archive, ("data",)):
            assert not ok, f"verify does not see the damage ({how})"
        read_some(data, archive, base.game_ids(), tmp)


@examples(20)
@given(data=st.data(), forged=st.booleans())
def test_damage_then_write(base: Base, scratch_root: Path, data: st.DataObject, forged: bool) -> None:
    """Writes after the damage (import, compact, project, simulate) never launder it: at the end either
    verify still reports a problem, or the archive holds exactly what was acknowledged."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        how, touched = damage(data, archive)
        if forged:
            re_sign(archive, touched)
        expected = write_after_damage(base, archive, tmp)
        ok = assert_holds(archive, expected)
        event(f"{how}{' forged' if forged else ''}: after writes, verify {'OK' if ok else 'finds it'}")


@pytest.mark.fuzz
def test_every_byte_flip_of_a_small_file(base: Base, scratch_root: Path) -> None:
    """Not hypothesis: a sweep of single-byte flips over the whole of the smallest data file, the
    manifest re-signed each time (so only Parquet's own checks, the schema, the spans and the hash
    chain stand between the damage and a reader). About 16 evenly spread bytes by default; with
    REPLAY_FUZZ=long, every byte."""
    original = min(data_files(base.archive), key=lambda f: f.stat().st_size)
    size = original.stat().st_size
    step = scaled(size // 16, 1)
    seen = {"verify OK": 0, "verify finds it": 0}
    for at in range(0, size, step):
        with scratch(scratch_root) as tmp:
            archive = base.copy(tmp)
            target = archive / original.relative_to(base.archive)
            raw = bytearray(target.read_bytes())
            raw[at] ^= 0x5A
            target.write_bytes(bytes(raw))
            re_sign(archive, [target])
            verdict = "verify OK" if assert_holds(archive, base.export, base.games) else "verify finds it"
            for game_id in base.game_ids():
                run(["audit", "-a", archive, game_id], codes=(0, 1), max_output=None)
            seen[verdict] += 1
    assert sum(seen.values()) == len(range(0, size, step))
    assert seen["verify finds it"] > 0


def test_verified_base(base: Base) -> None:
    assert verified(base.archive)


# Found by the fuzzer, fixed: readers decoded a data file by the schema in its own Parquet footer,
# which no page checksum covers. One flipped byte there (a column renamed, a string column turned
# binary), or a file replaced by one of another layout, ended in KeyError / TypeError tracebacks.
# Now every reader checks the footer's layout against the manifest's fingerprint (Archive._footer)
# and names the file; verify reports the schema and stops decoding that file.

def _footer_start(raw: bytes) -> int:
    return len(raw) - 8 - int.from_bytes(raw[-8:-4], "little")


def _rename_in_footer(path: Path, name: bytes, new: bytes) -> None:
    raw = path.read_bytes()
    at = raw.index(name, _footer_start(raw))
    path.write_bytes(raw[:at] + new + raw[at + len(new):])


def _strings_as_binary(path: Path, column: str) -> None:
    """The file rewritten with one column's strings (at any depth) typed binary: the same rows."""
    table = pq.read_table(path)

    def retyped(t: pa.DataType) -> pa.DataType:
        if pa.types.is_struct(t):
            return pa.struct([pa.field(f.name, retyped(f.type), f.nullable) for f in t])
        if pa.types.is_list(t):
            return pa.list_(retyped(t.value_type))
        return pa.binary() if pa.types.is_string(t) else t

    i = table.schema.get_field_index(column)
    new = retyped(table.schema.field(i).type)
    pq.write_table(table.set_column(i, pa.field(column, new), table.column(i).cast(new)), path)


FOOTER_DAMAGE = {
    "game_id renamed": lambda f: _rename_in_footer(f, b"game_id", b"game_iD"),
    "seats renamed": lambda f: _rename_in_footer(f, b"seats", b"seatS"),
    "strings turned binary": lambda f: _strings_as_binary(f, "game_started"),
}


FOOTER_CASES = [pytest.param(how, command, id=f"{command}-{how.replace(' ', '-')}")
                for how in sorted(FOOTER_DAMAGE) for command in ("verify", "export", "audit", "regress")]


@pytest.mark.parametrize("how, command", FOOTER_CASES)
def test_a_damaged_footer_is_named_not_a_traceback(base: Base, scratch_root: Path, how: str, command: str) -> None:
    """Every reader checks a footer's columns against the manifest's record of them, and names the
    damaged file instead of decoding renamed or retyped columns."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        pig_file = next(f for f in data_files(archive) if f.parent.name == "pig" and f.name.startswith("0000000001-"))
        FOOTER_DAMAGE[how](pig_file)
        args = {"verify": [], "export": [], "audit": ["pig-s1-000000"], "regress": []}[command]
        result = run([command, "-a", archive, *args], codes=(1,), max_output=None)
        assert pig_file.name in result.output
        if command == "verify":
            assert "archive.checksum" in result.output and "archive.schema" in result.output
