"""Minimal repros of what the fuzz suite found and what was fixed with it (each fails without its fix).

Some repros sit beside the fuzz test that found them: test_fuzz_notation.py (numbers the notation
readers passed to int()), test_fuzz_step.py (positions), test_fuzz_parquet.py (readers trusting a
damaged Parquet footer) and test_hostile_corpus.py (seqs of a JSON Lines file).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from .conftest import Base, data_files, forge, records, run, scratch


def _files(archive: Path) -> tuple[Path, Path]:
    pig = next(f for f in data_files(archive) if f.parent.name == "pig" and f.name.startswith("0000000001-"))
    wd = next(f for f in data_files(archive) if f.parent.name == "7wonders-dice")
    return pig, wd


@pytest.mark.parametrize("command", [["audit", "7wonders-dice-s2-000000"], ["show", "pig-s1-000000"],
                                     ["diff", "pig-s1-000000", "pig-s1-000000"]])
def test_a_game_whose_file_holds_none_of_its_rows(base: Base, scratch_root: Path, command: list[str]) -> None:
    """The pig and 7wonders-dice files swapped: reading a game by the manifest found none of its rows,
    and `read_game_and_chain` took the first of none (IndexError)."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        pig, wd = _files(archive)
        swapped = tmp / "swap"
        shutil.move(pig, swapped)
        shutil.move(wd, pig)
        shutil.move(swapped, wd)
        result = run([command[0], "-a", archive, *command[1:]], codes=(1,))
        assert "replay verify" in result.output


@pytest.mark.parametrize("command", [["verify"], ["audit", "pig-s1-000000"], ["events", "pig-s1-000000"],
                                     ["show", "pig-s1-000001"], ["step", "pig-s1-000002"]])
def test_footer_statistics_that_are_not_utf8(base: Base, scratch_root: Path, command: list[str]) -> None:
    """A byte of the game_id statistics in the Parquet footer flipped to 0xff: pyarrow raises
    UnicodeDecodeError when a one-game read consults them, which `reading()` (and verify) did not take
    for a damaged file."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        pig, _ = _files(archive)
        raw = pig.read_bytes()
        footer = len(raw) - 8 - int.from_bytes(raw[-8:-4], "little")
        at = raw.index(b"pig-s1-000000", footer) + 5
        pig.write_bytes(raw[:at] + b"\xff" + raw[at + 1:])
        result = run([command[0], "-a", archive, *command[1:]], input="q\n", codes=(1,), max_output=None)
        assert pig.name in result.output


@pytest.mark.parametrize("edit", [
    pytest.param(lambda b: {**b, "add": [{**b["add"][0], "games": {**b["add"][0]["games"],
                                                                    "pig-s1-000001": ["0", 68, None, True]}}]},
                 id="a seq as a string"),
    pytest.param(lambda b: {**b, "add": [{**b["add"][0], "games": "pig-s1-000001"}]}, id="games as a string"),
    pytest.param(lambda b: {**b, "remove": [["data/pig/0000000001-0000.parquet"]]}, id="a path as a list"),
    pytest.param(lambda b: {**b, "add": [{**b["add"][0], "kind": ["pig"]}]}, id="a kind as a list"),
    pytest.param(lambda b: {**b, "add": [{**b["add"][0], "path": {"p": 1}}]}, id="a path as an object"),
])
@pytest.mark.parametrize("command", [["games"], ["verify"], ["compact"], ["export"], ["stats"]])
def test_a_re_signed_manifest_record_of_the_wrong_types(base: Base, scratch_root: Path, edit: object, command: list[str]) -> None:
    """A commit record edited and re-signed (its checksum is right) with values of the wrong JSON types:
    `apply`, `compact`, `games`... raised TypeError/AttributeError; now the record is malformed, one message."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        record = next(r for r in records(archive) if r.name == "commit-0000000001.json")
        forge(record, edit)  # type: ignore[arg-type]
        result = run([command[0], "-a", archive, *command[1:]], codes=(1,), max_output=None)
        assert "commit 1" in result.output or "manifest" in result.output


def test_verify_names_a_footer_whose_column_names_are_not_utf8(base: Base, scratch_root: Path) -> None:
    """A column name in the footer made invalid UTF-8: verify's `pq.read_schema` raised UnicodeDecodeError."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        pig, _ = _files(archive)
        raw = pig.read_bytes()
        footer = len(raw) - 8 - int.from_bytes(raw[-8:-4], "little")
        at = raw.index(b"kind", footer) + 2
        pig.write_bytes(raw[:at] + b"\xff" + raw[at + 1:])
        result = run(["verify", "-a", archive], codes=(1,), max_output=None)
        assert pig.name in result.output


def _game_id_type_damaged(path: Path) -> None:
    """Flip (xor 0x5A) the first footer byte that makes the game_id column chunk's physical type UNKNOWN."""
    raw = path.read_bytes()
    for at in range(len(raw) - 8 - int.from_bytes(raw[-8:-4], "little"), len(raw) - 8):
        damaged = raw[:at] + bytes([raw[at] ^ 0x5A]) + raw[at + 1:]
        path.write_bytes(damaged)
        try:
            if pq.read_metadata(path).row_group(0).column(0).physical_type == "UNKNOWN":
                return
        except (OSError, pa.ArrowException, UnicodeDecodeError):
            pass
    raise AssertionError("no such byte")


@pytest.mark.parametrize("command", [["audit", "part-pig"], ["events", "part-pig"], ["show", "part-pig"]])
def test_a_footer_whose_game_id_type_is_unknown_does_not_abort(base: Base, scratch_root: Path, command: list[str]) -> None:
    """Found by the byte-flip sweep (REPLAY_FUZZ=long): one flipped footer byte makes the game_id column
    chunk's physical type UNKNOWN, and pyarrow then aborts the whole process (SIGABRT, 'ColumnMetaData type
    does not match ColumnDescriptor physical type') when the row-group statistics are read. Run in a
    child process, so that a regression fails this test instead of killing the test run."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        part = next(f for f in data_files(archive) if f.parent.name == "pig" and not f.name.startswith("0000000001-"))
        _game_id_type_damaged(part)
        done = subprocess.run([sys.executable, "-m", "replay", command[0], "-a", str(archive), *command[1:]],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
        assert part.name in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("record, edit", [
    pytest.param("checkpoint-0000000000.json", lambda b: {**b, "retired": ["../victim.txt"]}, id="retired out of the archive"),
    pytest.param("checkpoint-0000000000.json", lambda b: {**b, "retired": ["manifest/commit-0000000001.json"]},
                 id="retired: a manifest record"),
    pytest.param("commit-0000000001.json", lambda b: {**b, "add": [{**b["add"][0], "path": "../victim.txt"}]},
                 id="a file out of the archive"),
    pytest.param("commit-0000000001.json", lambda b: {**b, "add": [{**b["add"][0], "path": b["add"][0]["path"] + "\x00"}]},
                 id="a path with a NUL"),
])
@pytest.mark.parametrize("command", [["simulate", "--game", "pig", "--games", "1"], ["compact"], ["verify"]])
def test_a_re_signed_manifest_naming_files_out_of_data(base: Base, scratch_root: Path, record: str, edit: object,
                                                        command: list[str]) -> None:
    """A re-signed record whose paths leave data/: the next write deleted whatever a checkpoint's
    `retired` named (a file beside the archive, one of its own manifest records), and a NUL in a path
    was a ValueError traceback in compaction. Now the record is malformed: refused, nothing deleted."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        victim = tmp / "victim.txt"
        victim.write_text("precious")
        forge(archive / "manifest" / record, edit)  # type: ignore[arg-type]
        result = run([command[0], "-a", archive, *command[1:]], codes=(1,), max_output=None)
        assert "not a data file of the archive" in result.output
        assert victim.read_text() == "precious"
        assert (archive / "manifest" / "commit-0000000001.json").is_file()


def _dictionary_shortened(path: Path) -> None:
    """Flip the first bit near the start of the file (a page header: no page checksum covers it) after
    which a dictionary-encoded envelope column refers past its dictionary."""
    src = path.read_bytes()
    for at in range(0, 400):
        for mask in (1, 2, 4, 8, 16, 32, 64, 128):
            raw = src[:at] + bytes([src[at] ^ mask]) + src[at + 1:]
            try:
                table = pq.read_table(pa.BufferReader(raw), read_dictionary=["game_id", "kind", "type"],
                                      page_checksum_verification=True)
            except (OSError, pa.ArrowException, UnicodeDecodeError):
                continue
            for name in ("game_id", "kind", "type"):
                for chunk in table.column(name).chunks:
                    if len(chunk) and pc.max(chunk.indices).as_py() >= len(chunk.dictionary):
                        path.write_bytes(raw)
                        return
    raise AssertionError("no such bit")


@pytest.mark.parametrize("command", [["export"], ["audit", "7wonders-dice-s2-000000"], ["events", "7wonders-dice-s2-000001"]])
def test_a_dictionary_shortened_by_a_damaged_page_header(base: Base, scratch_root: Path, command: list[str]) -> None:
    """A flipped bit in a dictionary page header (not covered by page checksums) leaves indices past the
    end of the dictionary: `replay export` (and every reader of the envelope) raised IndexError."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        _, wd = _files(archive)
        _dictionary_shortened(wd)
        result = run([command[0], "-a", archive, *command[1:]], codes=(1,), max_output=None)
        assert "replay verify" in result.output
