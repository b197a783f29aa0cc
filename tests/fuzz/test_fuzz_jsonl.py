"""JSON Lines import (and audit, show, diff of a .jsonl file) on mutated real games.

A file is imported whole or not at all: when ``replay import`` fails, the archive's
manifest and data files are byte for byte as before; when it succeeds, the archive
verifies and holds the old events plus exactly the file's events.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from .conftest import FUZZ, MAX_REPORT, Base, examples, exported, mutate_bytes, mutate_json, mutate_lines, run, scratch, tree


def _renamed(path: Path, game_id: str) -> list[dict[str, Any]]:
    events = [json.loads(line) for line in path.read_text().splitlines()]
    for e in events:
        e["game_id"] = game_id
    return events


def _mutated_file(data: st.DataObject, events: list[dict[str, Any]]) -> bytes:
    """1-3 mutations: of a field of one event, of the lines, or of the bytes."""
    lines = [json.dumps(e) + "\n" for e in events]
    raw = None
    for n in range(data.draw(st.integers(1, 3), label="mutations")):
        how = data.draw(st.sampled_from(["field", "field", "lines", "bytes"]), label=f"m{n}")
        if raw is not None or how == "bytes":
            raw = mutate_bytes(data, raw if raw is not None else "".join(lines).encode(), f"m{n} ")
        elif how == "lines":
            lines = mutate_lines(data, lines, f"m{n} ")
        else:
            i = data.draw(st.integers(0, len(lines) - 1), label=f"m{n} event")
            try:
                doc = json.loads(lines[i])
            except ValueError:
                continue
            lines[i] = json.dumps(mutate_json(data, doc, f"m{n} ")) + "\n"
    return raw if raw is not None else "".join(lines).encode()


def _subset(part: Any, whole: Any) -> bool:
    """``part`` as read from the file is in ``whole`` as exported (which may add defaults)."""
    if isinstance(part, dict) and isinstance(whole, dict):
        return all(k in whole and _subset(v, whole[k]) for k, v in part.items())
    if isinstance(part, list) and isinstance(whole, list):
        return len(part) == len(whole) and all(_subset(a, b) for a, b in zip(part, whole))
    return bool(part == whole)


def _check_import(base: Base, archive: Path, path: Path, stdin: bool) -> None:
    before = tree(archive)
    args = ["import", "-a", archive, "-" if stdin else path]
    result = run(args, input=path.read_bytes() if stdin else None, codes=(0, 1))
    event(f"import exit {result.exit_code}")
    if result.exit_code != 0:
        assert tree(archive) == before, "a refused import changed the archive"
        assert "Error" in result.output
        return
    run(["verify", "-a", archive], codes=(0,), max_output=None)
    old = base.export.splitlines(keepends=True)
    now = exported(archive).splitlines(keepends=True)
    remaining = list(now)
    for line in old:
        assert line in remaining, "an event acknowledged before the import is gone"
        remaining.remove(line)
    given_events = [json.loads(line) for line in path.read_bytes().decode().splitlines() if line.strip()]
    stored = {(e["game_id"], e["seq"]): e for e in map(json.loads, remaining)}
    assert len(stored) == len(remaining) == len(given_events), "the import stored other events than the file's"
    for e in given_events:
        got = stored[(e["game_id"], e["seq"])]
        assert (got["kind"], got["type"]) == (e["kind"], e["type"])
        if got["version"] == e["version"]:
            assert _subset(e["payload"], got["payload"]), (e, got)


@FUZZ
@given(data=st.data(), which=st.sampled_from(["pig", "wd"]), stdin=st.booleans())
def test_import_new_game(base: Base, scratch_root: Path, data: st.DataObject, which: str, stdin: bool) -> None:
    events = _renamed(base.pig_jsonl if which == "pig" else base.wd_jsonl, f"fz-{which}")
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        path = tmp / "game.jsonl"
        path.write_bytes(_mutated_file(data, events))
        _check_import(base, archive, path, stdin)


@examples(20)
@given(data=st.data(), seed=st.integers(0, 1000))
def test_import_interleaved_and_continued(base: Base, scratch_root: Path, data: st.DataObject, seed: int) -> None:
    """Two new games interleaved with the rest of a game the archive holds the first 30 events of."""
    streams = [_renamed(base.pig_jsonl, "fz-pig"), _renamed(base.wd_jsonl, "fz-wd"),
               [json.loads(line) for line in base.rest_jsonl.read_text().splitlines()]]
    rng = random.Random(seed)
    merged: list[dict[str, Any]] = []
    while any(streams):
        merged.append(rng.choice([s for s in streams if s]).pop(0))
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        path = tmp / "games.jsonl"
        path.write_bytes(_mutated_file(data, merged))
        _check_import(base, archive, path, stdin=False)


@FUZZ
@given(data=st.data(), which=st.sampled_from(["pig", "wd"]))
def test_review_a_mutated_file(base: Base, scratch_root: Path, data: st.DataObject, which: str) -> None:
    """audit, show and diff take a .jsonl file; each reads it whole and fails with a message, or answers."""
    original = base.pig_jsonl if which == "pig" else base.wd_jsonl
    events = [json.loads(line) for line in original.read_text().splitlines()]
    with scratch(scratch_root) as tmp:
        path = tmp / "disputed.jsonl"
        path.write_bytes(_mutated_file(data, events))
        audit = run(["audit", path], codes=(0, 1), max_output=MAX_REPORT)
        json_audit = run(["audit", path, "--format", "json"], codes=(0, 1), max_output=None)
        assert json_audit.exit_code == audit.exit_code
        if json_audit.exit_code == 0:
            assert json.loads(json_audit.stdout)
        show = run(["show", path, "--at", data.draw(st.sampled_from(["end", "seq:0", "seq:5", "turn:2"]))], codes=(0, 1))
        diff = run(["diff", original, path], codes=(0, 1), max_output=MAX_REPORT)
        if diff.exit_code == 0:
            assert diff.stdout.startswith("identical")
        if audit.exit_code == 0 and "Error" in audit.output:
            raise AssertionError(audit.output)
        assert show.exit_code in (0, 1)


@examples(20)
@given(lines=st.lists(st.text(max_size=60) | st.binary(max_size=60).map(lambda b: b.decode("latin-1")), max_size=5))
def test_import_of_anything(base: Base, scratch_root: Path, lines: list[str]) -> None:
    """Lines of anything at all: nothing is written, and the reason is given."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        path = tmp / "anything.jsonl"
        path.write_text("\n".join(lines), encoding="utf-8", errors="surrogateescape")
        before = tree(archive)
        result = run(["import", "-a", archive, "--format", "jsonl", path], codes=(0, 1))
        if result.exit_code == 0:
            assert not "".join(lines).strip(), "an import of non-events succeeded"
        assert tree(archive) == before


@FUZZ
@given(data=st.data(), which=st.sampled_from(["pig", "wd"]))
def test_a_file_the_audit_passes_imports(base: Base, scratch_root: Path, data: st.DataObject, which: str) -> None:
    """What `replay audit FILE` finds nothing wrong with, `replay import FILE` takes, into an empty
    archive, and the archived game audits clean too."""
    original = base.pig_jsonl if which == "pig" else base.wd_jsonl
    events = [json.loads(line) for line in original.read_text().splitlines()]
    with scratch(scratch_root) as tmp:
        path = tmp / "game.jsonl"
        path.write_bytes(_mutated_file(data, events))
        audit = run(["audit", path], codes=(0, 1), max_output=MAX_REPORT)
        event(f"audit exit {audit.exit_code}")
        if audit.exit_code != 0:
            return
        archive = tmp / "archive"
        run(["init", archive], codes=(0,))
        imported = run(["import", "-a", archive, path], codes=(0, 1))
        assert imported.exit_code == 0, f"the audit passes a file import refuses:\n{imported.output[-2000:]}"
        game_id = json.loads(path.read_bytes().decode().splitlines()[0])["game_id"]
        run(["audit", "-a", archive, game_id], codes=(0,), max_output=MAX_REPORT)
