"""Damaged manifests: records (``manifest/checkpoint-*.json``, ``commit-*.json``) flipped, cut,
deleted, emptied, renamed, duplicated, swapped; ``manifest/HEAD`` rewritten or removed; and
records edited and re-signed (a careful forger, or a buggy tool).

Every command answers or fails with a word; and either ``verify`` reports a problem, or the
archive holds exactly the acknowledged events (and lists exactly the acknowledged games).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from hypothesis import event, given
from hypothesis import strategies as st

from .conftest import (
    FUZZ,
    Base,
    assert_holds,
    examples,
    forge,
    mutate_json,
    read_some,
    records,
    scratch,
    write_after_damage,
)

HEADS = ["", "0", "1", "2", "3", "4", "9", "-1", "3\n3\n", " 3 ", "0003", "99999999999", "٣", "abc", "\x00", "3\r\n"]
RAW = ["flip", "truncate", "delete", "empty", "rename", "duplicate", "swap"]


def damage_manifest(data: st.DataObject, archive: Path) -> tuple[str, bool]:
    """One kind of damage to the manifest; returns what was done, and whether verify must see it
    (every change to a record must be caught; HEAD only says how far the log went)."""
    manifest = archive / "manifest"
    recs = records(archive)
    how = data.draw(st.sampled_from(RAW + ["forge", "forge", "forge", "head"]), label="damage")
    if how == "head":
        head = manifest / "HEAD"
        text = data.draw(st.sampled_from([*HEADS, None]) | st.text(max_size=12), label="HEAD")
        if text is None:
            head.unlink()
        else:
            head.write_bytes(text.encode("utf-8", errors="surrogatepass"))
        return f"HEAD={text!r}"[:30], False
    target = data.draw(st.sampled_from(recs), label="record")
    raw = target.read_bytes()
    if how == "flip":
        at = data.draw(st.integers(0, len(raw) - 1), label="offset")
        target.write_bytes(raw[:at] + bytes([raw[at] ^ data.draw(st.integers(1, 255), label="mask")]) + raw[at + 1:])
    elif how == "truncate":
        target.write_bytes(raw[:data.draw(st.integers(0, len(raw) - 1), label="length")])
    elif how == "delete":
        target.unlink()
    elif how == "empty":
        target.write_bytes(b"")
    elif how in ("rename", "duplicate"):
        gen = int(re.findall(r"\d+", target.name)[0])
        name = data.draw(st.sampled_from([f"commit-{gen + 1:010d}.json", f"commit-{gen + 5:010d}.json",
                                          f"checkpoint-{gen:010d}.json", f"checkpoint-{gen + 1:010d}.json",
                                          f"commit-{max(gen - 1, 0):010d}.json"]), label="new name")
        if name == target.name:
            return f"{how} to itself", False
        (shutil.move if how == "rename" else shutil.copyfile)(target, manifest / name)
        if how == "duplicate" and name.startswith("commit-") and int(name[7:17]) <= max(
                int(p.name[11:21]) for p in manifest.glob("checkpoint-*.json")):
            return "duplicate as a superseded commit", False  # never read: harmless, and verify says nothing
    elif how == "swap":
        other = data.draw(st.sampled_from(recs), label="other record")
        if other == target:
            return "swap with itself", False
        target.write_bytes(other.read_bytes())
        other.write_bytes(raw)
    else:
        forge(target, lambda body: mutate_json(data, body, "forged "))
        return "forge", False
    return how, True


@FUZZ
@given(data=st.data())
def test_damage_then_read(base: Base, scratch_root: Path, data: st.DataObject) -> None:
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        how, must_see = damage_manifest(data, archive)
        ok = assert_holds(archive, base.export, base.games)
        event(f"{how.split('=')[0]}: verify {'OK' if ok else 'finds it'}")
        if must_see:
            assert not ok, f"verify does not see the damage ({how})"
        read_some(data, archive, base.game_ids(), tmp)


@examples(20)
@given(data=st.data())
def test_damage_then_write(base: Base, scratch_root: Path, data: st.DataObject) -> None:
    """Writes after the damage never make a damaged manifest look whole while it holds other events."""
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        how, _ = damage_manifest(data, archive)
        expected = write_after_damage(base, archive, tmp)
        ok = assert_holds(archive, expected)
        event(f"{how.split('=')[0]}: after writes, verify {'OK' if ok else 'finds it'}")
