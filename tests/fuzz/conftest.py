"""Shared fixtures and the one invariant of the fuzz suite.

Every input surface is fed mutated or hostile data and must answer with a clear
message and a non-zero exit, or succeed; never a traceback (an uncaught exception
other than SystemExit), never a half-written output file, and never an archive that
``verify`` passes while it holds something other than what was acknowledged.

Hypothesis settings: the profile ``ci`` (small, derandomized: the same examples on
every run) unless ``REPLAY_FUZZ=long``, which selects ``long`` (thousands of examples,
random, with the example database). The profiles are registered here and applied per
test with :data:`FUZZ` instead of ``settings.load_profile``: loading a profile is
global, and would change the example counts of every other property test in the
session.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
import tempfile
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from replay.canonical import canonical_json
from replay.cli.main import cli

LONG = os.environ.get("REPLAY_FUZZ") == "long"

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large,
            HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=30, deadline=None, derandomize=True, database=None,
                          suppress_health_check=_SLOW_OK, print_blob=True)
settings.register_profile("long", max_examples=3000, deadline=None, suppress_health_check=_SLOW_OK, print_blob=True)
PROFILE = "long" if LONG else "ci"

FUZZ = settings(settings.get_profile(PROFILE))
"""The suite's settings, as a decorator: ``@FUZZ`` above ``@given``."""


def examples(ci: int) -> settings:
    """:data:`FUZZ` with another example count for the ci profile (the long profile keeps its own)."""
    return FUZZ if LONG else settings(FUZZ, max_examples=ci)


def scaled(ci: int, long: int) -> int:
    """A loop count for the damage loops that are not hypothesis tests."""
    return long if LONG else ci


# ----------------------------------------------------------------------------- the CLI, in-process

MAX_MESSAGE = 20_000
"""A message longer than this is not a message: echoing a megabyte input back is a failure."""
MAX_REPORT = 200_000
"""An audit or a diff lists every problem it finds; still, a report is not a flood."""


def run(args: Sequence[str | Path], input: str | bytes | None = None, codes: Sequence[int] = (0, 1, 2),
        max_output: int | None = MAX_MESSAGE) -> Result:
    """Run ``replay ARGS`` in-process and check the invariant every command keeps:
    no uncaught exception, no traceback in the output, an exit status in ``codes``,
    a message when it fails, and (``max_output``) no flood of output."""
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert_clean(result, args, codes, max_output)
    return result


class Uncaught(AssertionError):
    """A command ended in an uncaught exception (a traceback): the failure this suite looks for."""


def assert_clean(result: Result, args: Sequence[str | Path], codes: Sequence[int] = (0, 1, 2),
                 max_output: int | None = MAX_MESSAGE) -> None:
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        trace = "".join(traceback.format_exception(exc))
        raise Uncaught(f"replay {' '.join(map(str, args))[:300]} raised {exc!r}\n{trace}")
    output = result.output
    assert "Traceback (most recent call last)" not in output, output[-3000:]
    assert result.exit_code in codes, f"exit {result.exit_code} for replay {' '.join(map(str, args))[:300]}:\n{output[-3000:]}"
    if result.exit_code != 0:
        assert output.strip(), f"replay {' '.join(map(str, args))[:300]} failed (exit {result.exit_code}) without a word"
    if max_output is not None:
        assert len(output) <= max_output, f"{len(output):,} characters of output for replay {' '.join(map(str, args))[:300]}"


# ----------------------------------------------------------------------------- the archive's content

def tree(root: Path, parts: Sequence[str] = ("manifest", "data")) -> dict[str, str]:
    """sha256 of every file under ``parts`` of an archive: what a refused write must leave as it was."""
    out = {}
    for part in parts:
        base = root / part
        if base.is_dir():
            for p in sorted(base.rglob("*")):
                if p.is_file():
                    out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def exported(archive: Path) -> str:
    """Every event of the archive as JSON Lines (``replay export``), which must succeed."""
    result = run(["export", "-a", archive], codes=(0,), max_output=None)
    return result.stdout


def verified(archive: Path) -> bool:
    """``replay verify``: True when it passes (exit 0), False when it names a problem (exit 1)."""
    result = run(["verify", "-a", archive], codes=(0, 1), max_output=None)
    return result.exit_code == 0


def assert_holds(archive: Path, expected_export: str, expected_games: str | None = None) -> bool:
    """The archive invariant: either ``verify`` reports a problem, or the archive holds exactly what
    was acknowledged (its export, and its list of games, are the expected ones). Returns verify's verdict."""
    if not verified(archive):
        return False
    assert exported(archive) == expected_export, "verify passes, but the archive's events are not the acknowledged ones"
    by_game: dict[str, str] = {}
    for line in expected_export.splitlines(keepends=True):
        game_id = json.loads(line)["game_id"]
        by_game[game_id] = by_game.get(game_id, "") + line
    for game_id, lines in by_game.items():  # one game is read otherwise: through row-group statistics
        events = run(["events", "-a", archive, game_id, "--format", "jsonl"], codes=(0, 1), max_output=None)
        assert events.stdout == lines, f"verify passes, but game {game_id} does not read back as acknowledged"
    if expected_games is not None:
        games = run(["games", "-a", archive, "--format", "json"], codes=(0,), max_output=None).stdout
        assert games == expected_games, "verify passes, but the list of games is not the acknowledged one"
    return True


def no_partial_files(directory: Path) -> None:
    leftovers = [p.name for p in directory.iterdir() if p.name.endswith(".partial")]
    assert not leftovers, f"half-written outputs left behind: {leftovers}"


def check_output_file(result: Result, target: Path) -> None:
    """``-o FILE``: on failure no file (and no temporary) is left; on success the file is there."""
    no_partial_files(target.parent)
    if result.exit_code == 0:
        assert target.is_file()
    else:
        assert not target.exists(), f"{target.name} was left behind by a failed command"


# ----------------------------------------------------------------------------- the base data

class Base:
    """Small real data, made once per session with the CLI: copy it, never change it.

    ``archive``: pig (3 games, seed 1), 7wonders-dice (2 games, seed 2), and ``part-pig``, the first
    30 events of a pig game (for continuations); projected (``replay project``). ``pig_jsonl``,
    ``wd_jsonl``: one finished game of each kind as exported (``pig-s1-000001``,
    ``7wonders-dice-s2-000001``); ``pig_txt``, ``wd_txt``: the same games in notation;
    ``rest_jsonl``: the events of ``part-pig`` after the 30 the archive holds; ``export`` and
    ``games``: the archive's ``replay export`` and ``replay games --format json``.
    (A plain class: hypothesis prints a dataclass field by field when an example fails.)
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.archive = root / "archive"
        self.pig_jsonl, self.wd_jsonl = root / "pig.jsonl", root / "wd.jsonl"
        self.pig_txt, self.wd_txt = root / "pig.txt", root / "wd.txt"
        self.rest_jsonl = root / "part-rest.jsonl"
        self.export = ""
        self.games = ""
        self.simulated = ""
        """the export of ``simulate --game pig --games 1 --seed 99`` (what write_after_damage adds)"""

    def __repr__(self) -> str:  # hypothesis prints the fixtures of a failing example
        return f"Base({self.root})"

    def copy(self, into: Path) -> Path:
        target = into / "archive"
        shutil.copytree(self.archive, target)
        return target

    def game_ids(self) -> list[str]:
        return [g["game_id"] for g in json.loads(self.games)]


@pytest.fixture(scope="session")
def base(tmp_path_factory: pytest.TempPathFactory) -> Base:
    b = Base(tmp_path_factory.mktemp("fuzz-base"))
    archive = b.archive
    run(["simulate", "-a", archive, "--init", "--game", "pig", "--games", "3", "--seed", "1"], codes=(0,))
    run(["simulate", "-a", archive, "--game", "7wonders-dice", "--games", "2", "--players", "2-3", "--seed", "2"],
        codes=(0,))
    for path, game, fmt in ((b.pig_jsonl, "pig-s1-000001", "jsonl"), (b.wd_jsonl, "7wonders-dice-s2-000001", "jsonl"),
                            (b.pig_txt, "pig-s1-000001", "notation"), (b.wd_txt, "7wonders-dice-s2-000001", "notation")):
        run(["export", "-a", archive, game, "--format", fmt, "-o", path], codes=(0,))
    part = [json.loads(line) for line in run(["export", "-a", archive, "pig-s1-000002"], codes=(0,), max_output=None)
            .stdout.splitlines()]
    for e in part:
        e["game_id"] = "part-pig"
    head = b.root / "part-head.jsonl"
    head.write_text("".join(json.dumps(e) + "\n" for e in part[:30]))
    b.rest_jsonl.write_text("".join(json.dumps(e) + "\n" for e in part[30:]))
    run(["import", "-a", archive, head], codes=(0,))
    run(["project", "-a", archive, "--workers", "1"], codes=(0,))
    run(["verify", "-a", archive], codes=(0,))
    b.export = exported(archive)
    b.games = run(["games", "-a", archive, "--format", "json"], codes=(0,), max_output=None).stdout
    run(["simulate", "-a", b.root / "sim", "--init", "--game", "pig", "--games", "1", "--seed", "99"], codes=(0,))
    b.simulated = exported(b.root / "sim")
    return b


@pytest.fixture(scope="session")
def scratch_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-scratch")


@contextmanager
def scratch(root: Path) -> Iterator[Path]:
    """A fresh directory for one hypothesis example (``tmp_path`` is shared by every example of a test)."""
    path = Path(tempfile.mkdtemp(dir=root))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# ----------------------------------------------------------------------------- mutations

HOSTILE_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 10), st.integers(),
    st.sampled_from([2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**30, 1e308, -0.0, 0.5, float("nan"), float("inf")]),
    st.floats(), st.text(max_size=20),
    st.sampled_from(["", " ", "\x00", "\n", "é", "\u202e", "Ana", "pig", "7wonders-dice", "game_started", "sha256:"]),
)
JSON_VALUES = st.recursive(
    HOSTILE_SCALARS,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=8,
)


def json_paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``doc`` (dict keys and list indices), the empty path first."""
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += json_paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += json_paths(v, prefix + (i,))
    return out


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def mutate_json(data: st.DataObject, doc: Any, label: str = "", words: Sequence[str] = ()) -> Any:
    """One structural mutation of a JSON document (a deep copy): a value replaced by any JSON value or
    by a near miss (a number as a string, off by one, far too big; for a string, one of ``words``), a
    key deleted, renamed or added, a list item repeated or dropped, a list reversed."""
    doc = copy.deepcopy(doc)
    path = data.draw(st.sampled_from(json_paths(doc)), label=f"{label}path")
    value = _at(doc, path)
    near: list[Any] = [str(value), [value], {"value": value}, None]
    if isinstance(value, bool):
        near += [int(value), not value]
    elif isinstance(value, int):
        near += [value + 1, value - 1, -value, float(value), value * 10**20, 2**63]
    elif isinstance(value, str):
        near += [value.upper(), value + "x", value[:-1], value * 50, "", value + "\x00", value.encode("utf-8").hex()]
        near += list(words)
    elif isinstance(value, list) and value:
        near += [value[:-1], value + value[-1:], value[::-1], []]
    elif isinstance(value, dict) and value:
        key = data.draw(st.sampled_from(sorted(value)), label=f"{label}key")
        near += [{k: v for k, v in value.items() if k != key}, {**value, key + "_": value[key]},
                 {**value, data.draw(st.text(max_size=8), label=f"{label}new key"): value[key]}, {}]
    replacement = data.draw(st.sampled_from(near) | JSON_VALUES, label=f"{label}new value")
    if not path:
        return replacement
    parent = _at(doc, path[:-1])
    parent[path[-1]] = replacement
    return doc


def mutate_bytes(data: st.DataObject, raw: bytes, label: str = "") -> bytes:
    """One byte-level mutation: a byte flipped, the text cut short, bytes inserted or deleted."""
    if not raw:
        return data.draw(st.binary(max_size=50), label=f"{label}bytes")
    at = data.draw(st.integers(0, len(raw) - 1), label=f"{label}offset")
    how = data.draw(st.sampled_from(["flip", "truncate", "insert", "delete"]), label=f"{label}how")
    if how == "flip":
        mask = data.draw(st.integers(1, 255), label=f"{label}mask")
        return raw[:at] + bytes([raw[at] ^ mask]) + raw[at + 1:]
    if how == "truncate":
        return raw[:at]
    if how == "insert":
        return raw[:at] + data.draw(st.binary(min_size=1, max_size=20), label=f"{label}inserted") + raw[at:]
    return raw[:at] + raw[at + data.draw(st.integers(1, 40), label=f"{label}deleted"):]


def mutate_lines(data: st.DataObject, lines: list[str], label: str = "") -> list[str]:
    """One line-level mutation: a line deleted, repeated, moved, two swapped, or a line of anything added."""
    lines = list(lines)
    if not lines:
        return [data.draw(st.text(max_size=80), label=f"{label}line")]
    i = data.draw(st.integers(0, len(lines) - 1), label=f"{label}line")
    j = data.draw(st.integers(0, len(lines) - 1), label=f"{label}other line")
    how = data.draw(st.sampled_from(["delete", "repeat", "move", "swap", "add"]), label=f"{label}how")
    if how == "delete":
        del lines[i]
    elif how == "repeat":
        lines.insert(j, lines[i])
    elif how == "move":
        lines.insert(j, lines.pop(i))
    elif how == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(i, data.draw(st.text(max_size=80).map(lambda t: t.replace("\n", " ").replace("\r", " ") + "\n"),
                                  label=f"{label}added"))
    return lines


# ----------------------------------------------------------------------------- a damaged archive

def forge(record: Path, edit: Callable[[Any], Any]) -> None:
    """Edit a manifest record's body and re-sign it, as a careful forger (or a buggy tool) would."""
    raw = json.loads(record.read_bytes())
    raw["body"] = edit(raw["body"])
    raw["sha256"] = hashlib.sha256(canonical_json(raw["body"])).hexdigest()
    record.write_bytes(json.dumps(raw, separators=(",", ":")).encode())


def records(archive: Path) -> list[Path]:
    return sorted((archive / "manifest").glob("*.json"))


def data_files(archive: Path) -> list[Path]:
    return sorted((archive / "data").rglob("*.parquet"))


def _export_to_file(archive: Path, game_id: str, tmp: Path) -> None:
    out = tmp / "out.jsonl"
    check_output_file(run(["export", "-a", archive, "-o", out], codes=(0, 1)), out)
    out.unlink(missing_ok=True)
    text = tmp / "game.txt"
    check_output_file(run(["export", "-a", archive, game_id, "--format", "notation", "-o", text], codes=(0, 1)), text)
    text.unlink(missing_ok=True)


def _query_to_file(archive: Path, game_id: str, tmp: Path) -> None:
    table = tmp / "q.parquet"
    check_output_file(run(["query", "-a", archive, "--name", "games_by_kind", "-o", table], codes=(0, 1)), table)
    table.unlink(missing_ok=True)


READERS: dict[str, Callable[[Path, str, Path], object]] = {
    "games": lambda a, g, t: run(["games", "-a", a], codes=(0, 1), max_output=MAX_REPORT),
    "stats": lambda a, g, t: run(["stats", "-a", a], codes=(0, 1), max_output=MAX_REPORT),
    "verify --deep": lambda a, g, t: run(["verify", "-a", a, "--deep", "--format", "json"], codes=(0, 1), max_output=None),
    "export": lambda a, g, t: run(["export", "-a", a], codes=(0, 1), max_output=None),
    "export -o": _export_to_file,
    "events": lambda a, g, t: run(["events", "-a", a, g, "--format", "jsonl"], codes=(0, 1), max_output=None),
    "audit": lambda a, g, t: run(["audit", "-a", a, g], codes=(0, 1), max_output=MAX_REPORT),
    "show": lambda a, g, t: run(["show", "-a", a, g, "--at", "turn:2"], codes=(0, 1), max_output=MAX_REPORT),
    "step": lambda a, g, t: run(["step", "-a", a, g], input="n\nN\n!\nb\nq\n", codes=(0, 1), max_output=MAX_REPORT),
    "diff": lambda a, g, t: run(["diff", "-a", a, g, g], codes=(0, 1), max_output=MAX_REPORT),
    "query": lambda a, g, t: run(["query", "-a", a, "SELECT kind, count(*) AS n FROM events GROUP BY kind"], codes=(0, 1),
                                 max_output=MAX_REPORT),
    "query -o": _query_to_file,
    "regress": lambda a, g, t: run(["regress", "-a", a], codes=(0, 1), max_output=MAX_REPORT),
    "rules store": lambda a, g, t: run(["rules", "store", "-a", a], codes=(0, 1), max_output=MAX_REPORT),
}
"""Every reading command (``rules store`` writes packs only), as (archive, a game id, a scratch dir)."""


def read_some(data: st.DataObject, archive: Path, game_ids: Sequence[str], tmp: Path, most: int = 5) -> None:
    """Some reading commands, drawn, on a (maybe damaged) archive: each answers, or fails with a word."""
    names = data.draw(st.lists(st.sampled_from(sorted(READERS)), min_size=1, max_size=most, unique=True), label="readers")
    game_id = data.draw(st.sampled_from(list(game_ids)), label="game")
    for name in names:
        READERS[name](archive, game_id, tmp)


def read_everything(archive: Path, game_ids: Sequence[str], tmp: Path) -> None:
    for game_id in game_ids:
        for read in READERS.values():
            read(archive, game_id, tmp)


def write_after_damage(base: Base, archive: Path, scratch_dir: Path) -> str:
    """The writing commands on a (maybe damaged) archive: an import of a new game, a compaction, a
    projection, a simulation. Each succeeds or fails with a word. Returns the export the archive must
    now hold if it verifies: the base's, plus the new games whose import was acknowledged."""
    expected = base.export
    new = scratch_dir / "new.jsonl"
    new.write_text(base.pig_jsonl.read_text().replace('"pig-s1-000001"', '"zz-new"'))
    if run(["import", "-a", archive, new], codes=(0, 1)).exit_code == 0:
        expected += new.read_text()
        assert run(["events", "-a", archive, "zz-new", "--format", "jsonl"], codes=(0, 1), max_output=None).stdout \
            in ("", new.read_text()), "the acknowledged import reads back otherwise"
    run(["compact", "-a", archive, "--max-rows", "200"], codes=(0, 1), max_output=MAX_REPORT)
    run(["project", "-a", archive, "--workers", "1"], codes=(0, 1), max_output=MAX_REPORT)
    if run(["simulate", "-a", archive, "--game", "pig", "--games", "1", "--seed", "99"], codes=(0, 1)).exit_code == 0:
        expected += base.simulated
    return "".join(sorted(expected.splitlines(keepends=True), key=_export_order))


def _export_order(line: str) -> tuple[str, int]:
    e = json.loads(line)
    return e["game_id"], e["seq"]
