"""Rules packs: ``replay rules validate``, ``rules show``/``diff``, and packs given with ``--ruleset``
(audit and import of a game pinned to the pack, ``simulate --ruleset``), on mutated shipped packs.

A pack validate accepts is one every command can use: a game pinned to it is audited and
imported (or refused with a word), games can be simulated under it (or refused with a word),
and the pack round-trips through ``rules show`` with the same content hash.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from .conftest import FUZZ, MAX_REPORT, Base, examples, json_paths, mutate_bytes, mutate_json, run, scratch, tree

SHIPPED = {"pig": "pig-standard", "wd": "7wd-default"}
KIND = {"pig": "pig", "wd": "7wonders-dice"}
OK = re.compile(r": OK \((.*), (sha256:[0-9a-f]{64})\)$", re.M)


def _accepted(pack: Path, kind: str) -> tuple[str, str, str] | None:
    """(id, version, content hash) of a pack `rules validate` accepts, else None."""
    checked = run(["rules", "validate", pack, "--game", kind], codes=(0, 1))
    event(f"validate exit {checked.exit_code}")
    ok = OK.search(checked.stdout)
    if checked.exit_code or ok is None:
        assert checked.exit_code == 1 and ok is None, checked.output
        return None
    shown = json.loads(run(["rules", "show", pack, "--game", kind], codes=(0,), max_output=None).stdout)
    return shown["id"], shown["version"], ok.group(2)


class Packs(dict[str, Any]):
    def __repr__(self) -> str:  # hypothesis prints the fixtures of a failing example
        return "Packs(pig, wd)"


@pytest.fixture(scope="module")
def packs() -> Packs:
    return Packs({which: json.loads(run(["rules", "show", name], codes=(0,), max_output=None).stdout)
                  for which, name in SHIPPED.items()})


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _at(doc, path[:-1])[path[-1]] = value
    return doc


def _mutated_pack(data: st.DataObject, doc: Any) -> bytes:
    """1-3 mutations, mostly ones a pack may survive: a number nudged (or set to 0, 1, 7, 20, a billion,
    -1), a list item dropped or repeated, a list reversed or emptied, a string swapped for another of
    the pack's own (ids, colours, names); and now and then any JSON value, or damaged bytes."""
    doc = json.loads(json.dumps(doc))
    for n in range(data.draw(st.integers(1, 3), label="mutations")):
        paths = json_paths(doc)
        numbers = [p for p in paths if isinstance(_at(doc, p), int) and not isinstance(_at(doc, p), bool)]
        lists = [p for p in paths if isinstance(_at(doc, p), list) and _at(doc, p)]
        strings = [p for p in paths if isinstance(_at(doc, p), str)]
        words = sorted({_at(doc, p) for p in strings if len(_at(doc, p)) < 40})
        how = data.draw(st.sampled_from(["number", "number", "list", "list", "string", "any"]), label=f"m{n}")
        if how == "number" and numbers:
            path = data.draw(st.sampled_from(numbers), label=f"m{n} path")
            v = _at(doc, path)
            doc = _set(doc, path, data.draw(st.sampled_from([v + 1, v - 1, 0, 1, 7, 20, v * 2, 10**9, -1]), label=f"m{n} to"))
        elif how == "list" and lists:
            path = data.draw(st.sampled_from(lists), label=f"m{n} path")
            items = _at(doc, path)
            i = data.draw(st.integers(0, len(items) - 1), label=f"m{n} item")
            op = data.draw(st.sampled_from(["drop", "repeat", "reverse", "empty"]), label=f"m{n} op")
            changed = {"drop": items[:i] + items[i + 1:], "repeat": items[:i + 1] + items[i:], "reverse": items[::-1],
                       "empty": []}[op]
            doc = _set(doc, path, changed)
        elif how == "string" and strings:
            path = data.draw(st.sampled_from(strings), label=f"m{n} path")
            doc = _set(doc, path, data.draw(st.sampled_from(words), label=f"m{n} to"))
        else:
            doc = mutate_json(data, doc, f"m{n} ")
    raw = json.dumps(doc, indent=1).encode()
    if data.draw(st.integers(0, 9), label="bytes?") == 0:
        raw = mutate_bytes(data, raw, "bytes ")
    return raw


def _pinned(game_text: str, id_: str, version: str, content_hash: str) -> str:
    return re.sub(r'^\[Ruleset "[^"]*"\]', f'[Ruleset "{id_} {version} {content_hash}"]', game_text, count=1, flags=re.M)


@FUZZ
@given(data=st.data(), which=st.sampled_from(["pig", "wd", "wd"]), name_the_game=st.booleans())
def test_validate_show_diff(packs: Packs, scratch_root: Path, data: st.DataObject, which: str, name_the_game: bool) -> None:
    with scratch(scratch_root) as tmp:
        path = tmp / "pack.json"
        path.write_bytes(_mutated_pack(data, packs[which]))
        game = ["--game", KIND[which]] if name_the_game else []
        result = run(["rules", "validate", path, *game], codes=(0, 1))
        if result.exit_code == 1:
            assert str(path) in result.output
        diff = run(["rules", "diff", SHIPPED[which], path, *game], codes=(0, 1), max_output=MAX_REPORT)
        shipped_hash = run(["rules", "show", SHIPPED[which]], codes=(0,), max_output=None).stderr.split()[-1]
        if result.exit_code == 1:
            return
        ok = OK.search(result.stdout)
        assert ok, result.stdout
        shown = run(["rules", "show", path, *game], codes=(0,), max_output=None)
        again = tmp / "again.json"
        again.write_text(shown.stdout)
        assert ok.group(2) in run(["rules", "validate", again, *game], codes=(0,)).stdout, "show does not round-trip"
        assert (diff.exit_code == 0) == (ok.group(2) == shipped_hash), "rules diff and the content hash disagree"
        run(["rules", "show", path, *game, "--provenance"], codes=(0,), max_output=MAX_REPORT)


@examples(25)
@given(data=st.data(), which=st.sampled_from(["pig", "wd", "wd"]))
def test_a_game_pinned_to_the_pack(base: Base, packs: Packs, scratch_root: Path, data: st.DataObject, which: str) -> None:
    """A game whose start event pins a mutated pack (given with --ruleset) is audited, shown, stepped
    and imported, or refused with a word; an imported one needs --ruleset no more."""
    with scratch(scratch_root) as tmp:
        pack = tmp / "pack.json"
        pack.write_bytes(_mutated_pack(data, packs[which]))
        pin = _accepted(pack, KIND[which])
        if pin is None:
            return
        game = tmp / "game.txt"
        text = (base.pig_txt if which == "pig" else base.wd_txt).read_text()
        game.write_text(_pinned(re.sub(r'^\[Game "[^"]*"\]', '[Game "fz-pinned"]', text, count=1, flags=re.M), *pin))
        given_pack = ["--ruleset", str(pack)]
        audit = run(["audit", game, *given_pack], codes=(0, 1), max_output=MAX_REPORT)
        event(f"audit exit {audit.exit_code}")
        run(["show", game, *given_pack, "--at", "turn:2"], codes=(0, 1), max_output=MAX_REPORT)
        run(["step", game, *given_pack], input="!\nN\nb\np\nq\n", codes=(0, 1), max_output=MAX_REPORT)
        archive = base.copy(tmp)
        before = tree(archive)
        imported = run(["import", "-a", archive, game, *given_pack, "--allow-problems"], codes=(0, 1), max_output=MAX_REPORT)
        event(f"import exit {imported.exit_code}")
        if imported.exit_code == 1:
            assert tree(archive) == before
            return
        run(["verify", "-a", archive], codes=(0,), max_output=None)
        archived = run(["audit", "-a", archive, "fz-pinned"], codes=(0, 1), max_output=MAX_REPORT)
        assert archived.exit_code == audit.exit_code, "the archived game audits otherwise than the file"
        run(["project", "-a", archive, "--workers", "1"], codes=(0, 1), max_output=MAX_REPORT)
        run(["rules", "impact", SHIPPED[which], pack, "-a", archive], codes=(0, 1), max_output=MAX_REPORT)


@examples(15)
@given(data=st.data(), which=st.sampled_from(["pig", "wd"]), players=st.sampled_from(["2", "3", "2-7"]))
def test_simulate_under_the_pack(packs: Packs, scratch_root: Path, data: st.DataObject, which: str, players: str) -> None:
    """Bots play under a mutated pack, or the pack is refused with a word; what is simulated verifies."""
    with scratch(scratch_root) as tmp:
        pack = tmp / "pack.json"
        pack.write_bytes(_mutated_pack(data, packs[which]))
        if _accepted(pack, KIND[which]) is None:
            return
        archive = tmp / "archive"
        result = run(["simulate", "-a", archive, "--init", "--game", KIND[which], "--games", "1", "--players", players,
                      "--ruleset", pack, "--seed", str(data.draw(st.integers(0, 99)))], codes=(0, 1, 2), max_output=MAX_REPORT)
        event(f"simulate exit {result.exit_code}")
        if result.exit_code == 0:
            run(["verify", "-a", archive], codes=(0,), max_output=None)
            game_id = json.loads(run(["games", "-a", archive, "--format", "json"], codes=(0,)).stdout)[0]["game_id"]
            run(["audit", "-a", archive, game_id], codes=(0,), max_output=MAX_REPORT)
