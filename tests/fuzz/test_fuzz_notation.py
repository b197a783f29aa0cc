"""Notation (typed games) through import, audit, show, step and diff, on mutated real games.

A notation import archives the game or nothing; what it archives is what the file says
(``replay diff FILE GAME`` finds them identical), and the archive then verifies.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from .conftest import FUZZ, MAX_REPORT, Base, examples, mutate_bytes, mutate_lines, run, scratch, tree

NUMBER_LIKE = ["0", "1", "-1", "7", "99", "١٢", "0x10", "1e3", "9" * 30, "3.5", "", "²", "9" * 5000]
"""Numbers and near misses ('²' and 5000 digits are what int() refuses: READER_INT_BUGS)."""
ODD_TEXT = ["\x00", "\x07", "\x1b[31m", "\t", "\r", "\u2028", "\x0b", "\x85", "\u202e", "#", "[", "]", '"', "{", "}",
            ";", ":", ",", "é", "Ana", "ana", "ANA", "Bob"]


# Found by the fuzzer, fixed (replay/numbers.py): numbers read as str.isdigit() or \d+ and then int(), which
# refuses '²' and more than 4300 digits; and an option value of '--5'. Each was a ValueError traceback.
HUGE = "9" * 5000
READER_INT_BUGS = [
    ("pig", r'\[Seat "0 Ana"\]', '[Seat "² Ana"]'),
    ("pig", r'\[Target "100"\]', '[Target "²"]'),
    ("pig", r"^1\. Ana: \d", "1. Ana: ²"),
    ("pig", r"result Ana \d+", "result Ana ²"),
    ("pig", r"\{banked \d+\}", "{banked " + HUGE + "}"),
    ("wd", r'\[Seat "0 (\w+) Ana"\]', r'[Seat "² \1 Ana"]'),
    ("wd", r"coin_cap=none", "coin_cap=--5"),
    ("wd", r"^1\. roll", HUGE + ". roll"),
    ("wd", r"^(1\. roll grey1 \w+) \d", r"\1 ²"),
    ("wd", r"\{paid \d+", "{paid ²"),
    ("wd", r"bonus \d", "bonus ²"),
    ("wd", r"(result Ana \d+ coins \d+ \[warehouse) \d+", r"\1 ²"),
]


def _renamed(path: Path, game_id: str) -> str:
    return re.sub(r'^\[Game "[^"]*"\]', f'[Game "{game_id}"]', path.read_text(), count=1, flags=re.M)


def _mutate_token(data: st.DataObject, line: str, label: str) -> str:
    tokens = re.split(r"(\s+|[,;:{}\[\]\"])", line)
    spots = [i for i, t in enumerate(tokens) if t.strip()]
    if not spots:
        return line + data.draw(st.sampled_from(ODD_TEXT), label=f"{label}appended")
    i = data.draw(st.sampled_from(spots), label=f"{label}token")
    token = tokens[i]
    choices = NUMBER_LIKE + ODD_TEXT + ["", token * 2, token.upper(), token[:-1], token + "x", token * 300]
    if token.isascii() and token.isdigit() and len(token) < 100:
        choices += [str(int(token) + 1), str(int(token) - 1), str(int(token) * 1000)]
    tokens[i] = data.draw(st.sampled_from(choices) | st.text(max_size=10), label=f"{label}new token")
    return "".join(tokens)


def mutated_notation(data: st.DataObject, text: str) -> bytes:
    raw = _mutated(data, text)
    return raw


def _mutated(data: st.DataObject, text: str) -> bytes:
    lines = text.splitlines(keepends=True)
    raw = None
    for n in range(data.draw(st.integers(1, 3), label="mutations")):
        how = data.draw(st.sampled_from(["token", "token", "token", "lines", "bytes", "char"]), label=f"m{n}")
        if raw is not None or how == "bytes":
            raw = mutate_bytes(data, raw if raw is not None else "".join(lines).encode(), f"m{n} ")
        elif how == "lines":
            lines = mutate_lines(data, lines, f"m{n} ")
        elif lines:
            i = data.draw(st.integers(0, len(lines) - 1), label=f"m{n} line")
            if how == "token":
                body, end = (lines[i][:-1], "\n") if lines[i].endswith("\n") else (lines[i], "")
                lines[i] = _mutate_token(data, body, f"m{n} ") + end
            else:
                at = data.draw(st.integers(0, len(lines[i])), label=f"m{n} at")
                lines[i] = lines[i][:at] + data.draw(st.sampled_from(ODD_TEXT) | st.characters(), label=f"m{n} char") \
                    + lines[i][at:]
    return raw if raw is not None else "".join(lines).encode("utf-8", errors="surrogatepass")


class Sources(dict[str, str]):
    def __repr__(self) -> str:  # hypothesis prints the fixtures of a failing example
        return "Sources(pig, wd)"


@pytest.fixture(scope="module")
def sources(base: Base) -> Sources:
    return Sources(pig=_renamed(base.pig_txt, "fz-pig"), wd=_renamed(base.wd_txt, "fz-wd"))


@FUZZ
@given(data=st.data(), which=st.sampled_from(["pig", "wd"]), allow=st.booleans())
def test_import(base: Base, scratch_root: Path, sources: Sources, data: st.DataObject, which: str,
                allow: bool) -> None:
    with scratch(scratch_root) as tmp:
        archive = base.copy(tmp)
        path = tmp / "typed.txt"
        path.write_bytes(mutated_notation(data, sources[which]))
        before = tree(archive)
        result = run(["import", "-a", archive, path, *(["--allow-problems"] if allow else [])], codes=(0, 1),
                     max_output=MAX_REPORT)
        event(f"import exit {result.exit_code}")
        if result.exit_code != 0:
            assert tree(archive) == before, "a refused notation import changed the archive"
            return
        run(["verify", "-a", archive], codes=(0,), max_output=None)
        game_id = re.search(r"imported game (\S+),", result.stdout)
        assert game_id, result.stdout
        same = run(["diff", "-a", archive, path, game_id.group(1).rstrip(",")], codes=(0, 1), max_output=MAX_REPORT)
        assert same.exit_code == 0 and same.stdout.startswith("identical"), same.stdout[-2000:]
        assert base.export.splitlines()[0] in run(["export", "-a", archive], codes=(0,), max_output=None).stdout


@FUZZ
@given(data=st.data(), which=st.sampled_from(["pig", "wd"]))
def test_audit_show_step_diff(base: Base, scratch_root: Path, sources: Sources, data: st.DataObject,
                              which: str) -> None:
    original = base.pig_txt if which == "pig" else base.wd_txt
    with scratch(scratch_root) as tmp:
        path = tmp / "disputed.txt"
        path.write_bytes(mutated_notation(data, original.read_text()))
        audit = run(["audit", path], codes=(0, 1), max_output=MAX_REPORT)
        event(f"audit exit {audit.exit_code}")
        at = data.draw(st.sampled_from(["end", "turn:1", "turn:3", "seq:0", "seq:7", "event:2", "turn:0", "seq:-1"]))
        player = data.draw(st.sampled_from([[], ["--player", "Ana"], ["--player", "Nobody"]]))
        show = run(["show", path, "--at", at, *player], codes=(0, 1), max_output=MAX_REPORT)
        if audit.exit_code == 1 and show.exit_code == 0:
            assert show.stdout.startswith("[event ")
        run(["step", path], input="!\nN\nP\nb\nf Ana\nn\np\nq\n", codes=(0, 1), max_output=MAX_REPORT)
        diff = run(["diff", original, path], codes=(0, 1), max_output=MAX_REPORT)
        if diff.exit_code == 0:
            assert diff.stdout.startswith("identical")


@examples(20)
@given(text=st.text(max_size=300), kind=st.sampled_from([[], ["--game", "pig"], ["--game", "7wonders-dice"]]))
def test_any_text(scratch_root: Path, text: str, kind: list[str]) -> None:
    """Text that is barely a notation at all: audit refuses it with a word."""
    with scratch(scratch_root) as tmp:
        path = tmp / "any.txt"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        run(["audit", path, *kind], codes=(0, 1))
        run(["show", path, *kind], codes=(0, 1))




@pytest.mark.parametrize("which, pattern, replacement", READER_INT_BUGS,
                         ids=[f"{which}-{i}" for i, (which, _, _) in enumerate(READER_INT_BUGS)])
def test_reader_numbers_int_refuses(base: Base, scratch_root: Path, which: str, pattern: str, replacement: str) -> None:
    original = (base.pig_txt if which == "pig" else base.wd_txt).read_text()
    text, n = re.subn(pattern, replacement, original, count=1, flags=re.M)
    assert n == 1, pattern
    with scratch(scratch_root) as tmp:
        path = tmp / "typed.txt"
        path.write_text(text)
        result = run(["audit", path], codes=(1,))
        assert "notation" in result.output
