"""Every file of the hostile corpus (fixtures/hostile/, see its README.md), and the large inputs made
here (GENERATED), through import, audit, show, step, diff and rules validate.

Each command gives the exit status the table says: a failure is a short message (no traceback, at
most a screenful, never the megabyte that caused it), a success is where success is right.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import MAX_MESSAGE, Base, Uncaught, run, tree

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "hostile"
COMMANDS = ("import", "audit", "show", "step", "diff", "validate")
FAIL, OK, EITHER = (1,), (0,), (0, 1)
USAGE = (2,)
MAX_LINES = 60


def _all(codes: tuple[int, ...], **but: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    return {c: but.get(c, codes) for c in COMMANDS}


EXPECTED: dict[str, dict[str, tuple[int, ...]]] = {
    "non-utf8.jsonl": _all(FAIL),
    "non-utf8.txt": _all(FAIL),
    "int-2-63.jsonl": _all(FAIL),
    # a disputed game: refused by import and audit, walked through by show and step
    "event-after-end.jsonl": _all(FAIL, show=OK, step=OK, diff=OK),
    "bad-game-id-50-lines.jsonl": _all(FAIL),
    "nan-and-nul.jsonl": _all(FAIL),
    "duplicate-keys.jsonl": _all(FAIL),
    # seq 10**18 on line 2: a file, not a disputed game (like malformed JSON): refused by every reader
    "huge-seq.jsonl": _all(FAIL),
    "bom-and-crlf.jsonl": _all(FAIL),
    "control-characters-in-a-name.txt": _all(FAIL),
    "superscript-digit.txt": _all(FAIL),
    "empty.txt": _all(FAIL),
    "a-directory.jsonl": _all(FAIL, **{"import": USAGE, "validate": USAGE}),
    "one-city-pack.json": _all(FAIL, validate=OK),  # a valid pack: too few cities only for a game of two
    "two-players-one-city.txt": _all(FAIL, diff=EITHER),  # the same events on both sides: identical
    "pig-pack-unknown-field.json": _all(FAIL),
    "pig-pack-bust-face-beyond-the-die.json": _all(FAIL, validate=OK),
    # made by the test (too big to keep)
    "megabyte-string.jsonl": _all(FAIL),
    "deep-pack.json": _all(FAIL),
    "deep-line.jsonl": _all(FAIL),
}

KNOWN: dict[tuple[str, str], str] = {}
"""(file, command) pairs that raise today, as xfail(strict) tests: none left."""


def _megabyte_string(path: Path) -> None:
    lines = [json.loads(line) for line in (CORPUS / "int-2-63.jsonl").read_text().splitlines()]
    lines[1]["payload"]["face"] = 3
    lines[0]["payload"]["seats"][0]["name"] = "x" * 1_000_000
    path.write_text("".join(json.dumps(e) + "\n" for e in lines))


GENERATED: dict[str, Callable[[Path], object]] = {
    "megabyte-string.jsonl": _megabyte_string,
    "deep-pack.json": lambda p: p.write_text("[" * 100_000 + "]" * 100_000),
    "deep-line.jsonl": lambda p: p.write_text('{"game_id": ' + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "}\n"),
}


def test_the_table_names_every_file() -> None:
    on_disk = {p.name for p in CORPUS.iterdir() if p.name not in ("README.md", "make_hostile.py")}
    assert on_disk | set(GENERATED) == set(EXPECTED)
    readme = (CORPUS / "README.md").read_text()
    assert all(f"`{name}`" in readme for name in EXPECTED), "the README lists every file"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus, and the generated files, in one directory."""
    root = tmp_path_factory.mktemp("hostile")
    for p in CORPUS.iterdir():
        if p.is_dir():
            (root / p.name).mkdir()
        elif p.suffix != ".md":
            (root / p.name).write_bytes(p.read_bytes())
    for name, make in GENERATED.items():
        make(root / name)
    return root


def _args(command: str, path: Path, archive: Path) -> list[str | Path]:
    return {"import": ["import", "-a", archive, path], "audit": ["audit", path], "show": ["show", path],
            "step": ["step", path], "diff": ["diff", path, path], "validate": ["rules", "validate", path]}[command]


CASES = [pytest.param(name, command, id=f"{name}-{command}",
                      marks=[pytest.mark.xfail(strict=True, raises=Uncaught, reason=KNOWN[(name, command)])]
                      if (name, command) in KNOWN else [])
         for name in sorted(EXPECTED) for command in COMMANDS]


@pytest.mark.parametrize("name, command", CASES)
def test_hostile_file(base: Base, corpus: Path, tmp_path: Path, name: str, command: str) -> None:
    archive = base.copy(tmp_path)
    before = tree(archive)
    result = run(_args(command, corpus / name, archive), input="n\nN\n!\nb\nq\n", codes=EXPECTED[name][command])
    if result.exit_code != 0:
        assert len(result.output.splitlines()) <= MAX_LINES, result.output[:3000]
        if command == "import":
            assert tree(archive) == before, "a refused import wrote something"
    assert len(result.output) <= MAX_MESSAGE


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_file_as_keys_to_step(base: Base, corpus: Path, name: str) -> None:
    """The corpus file's bytes piped to `replay step` on a good game, as keys: each line is answered."""
    path = corpus / name
    keys = path.read_bytes()[:20_000].decode("utf-8", errors="replace") if path.is_file() else ""
    result = run(["step", base.pig_jsonl], input=keys + "\nq\n", codes=OK, max_output=None)
    assert result.stdout.rstrip().endswith("bye")


@pytest.mark.parametrize("pack, args", [
    ("one-city-pack.json", ["simulate", "--game", "7wonders-dice", "--games", "1", "--players", "2"]),
    ("one-city-pack.json", ["audit", CORPUS / "two-players-one-city.txt"]),
    ("one-city-pack.json", ["show", CORPUS / "two-players-one-city.txt"]),
    ("one-city-pack.json", ["import", CORPUS / "two-players-one-city.txt"]),
    ("deep-pack.json", ["audit", CORPUS / "two-players-one-city.txt"]),
    ("pig-pack-unknown-field.json", ["import", CORPUS / "event-after-end.jsonl"]),
    ("a-directory.jsonl", ["audit", CORPUS / "two-players-one-city.txt"]),
])
def test_hostile_pack_given_with_ruleset(base: Base, corpus: Path, tmp_path: Path, pack: str, args: list[str | Path]) -> None:
    """A pack given with --ruleset that cannot serve: refused with a word, nothing written."""
    archive = base.copy(tmp_path)
    before = tree(archive)
    option = ["--ruleset", corpus / pack]
    full = [args[0], "-a", archive, *option, *args[1:]] if args[0] in ("simulate", "import") else [*args, *option]
    result = run(full, codes=(1, 2))
    assert len(result.output.splitlines()) <= MAX_LINES
    assert tree(archive) == before


@pytest.mark.parametrize("name", ["huge-seq.jsonl"])
def test_audit_of_a_file_checks_its_seqs(corpus: Path, name: str) -> None:
    result = run(["audit", corpus / name], codes=EITHER)
    assert result.exit_code == 1 and "seq" in result.output
