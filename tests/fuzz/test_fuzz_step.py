"""``replay step GAME`` reads its commands from standard input: any keys, piped, must be answered
(or refused with a word) without a traceback, and the session always ends with ``bye``. And the
position ``show --at`` takes, parsed the same way (turn:N, seq:N, event:N, end)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from .conftest import FUZZ, Base, examples, run

NUMBERS = st.one_of(
    st.integers(-3, 150).map(str),
    st.sampled_from(["", "-1", "+2", " 3 ", "1e3", "0x10", "3.0", "²", "١٢", "٣", "9" * 30, "9" * 5000]),
)
NAMES = st.one_of(st.sampled_from(["Ana", "ana", "ANA", " Ben ", "Chloe", "Nobody", "A\x00na", "Ana\x1b[31m"]),
                  st.text(max_size=20))
COMMAND = st.one_of(
    st.sampled_from(["n", "p", "N", "P", "!", "b", "h", "help", "?", "f", "", " ", "nn", "q q", "t", "s"]),
    st.builds(lambda word, n: f"{word} {n}", st.sampled_from(["t", "s"]), NUMBERS),
    st.builds(lambda name: f"f {name}", NAMES),
    st.text(max_size=40),
)
AT_NUMBERS = ["0", "1", "-1", "7", "99", "²", "١٢", "0x10", "1e3", "9" * 30, "9" * 5000, "3.5", ""]
HEADER = re.compile(r"^\[event (\d+)/(\d+)\]", re.M)


@pytest.fixture(scope="module")
def targets(base: Base, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[list[str], str]]:
    """(extra arguments, game) for each kind of GAME step takes: an archived game, a notation file with
    a wrong claim (so `!` has somewhere to go), a JSON Lines file."""
    root = tmp_path_factory.mktemp("step")
    archive = root / "archive"
    shutil.copytree(base.archive, archive)
    disputed = root / "disputed.txt"
    text = base.wd_txt.read_text()
    disputed.write_text(re.sub(r"\{paid (\d+)", lambda m: "{paid " + str(int(m.group(1)) + 3), text, count=2))
    return {
        "archived": (["-a", str(archive)], "7wonders-dice-s2-000000"),
        "archived-pig": (["-a", str(archive)], "pig-s1-000000"),
        "notation": ([], str(disputed)),
        "jsonl": ([], str(base.pig_jsonl)),
    }


def _session(extra: list[str], game: str, keys: str) -> str:
    result = run(["step", *extra, game], input=keys, codes=(0,), max_output=None)
    out = result.stdout
    assert out.rstrip().endswith("bye"), out[-500:]
    headers = [(int(a), int(b)) for a, b in HEADER.findall(out)]
    assert headers, out[:500]
    assert all(0 <= at <= last for at, last in headers), headers
    return out


@FUZZ
@given(target=st.sampled_from(["archived", "archived-pig", "notation", "jsonl"]),
       commands=st.lists(COMMAND, max_size=12), end=st.integers(0, 500))
def test_any_keys(targets: dict[str, tuple[list[str], str]], target: str, commands: list[str], end: int) -> None:
    """Any keys are answered; a final `s N` lands exactly on event N (or the last one), whatever came before."""
    extra, game = targets[target]
    keys = "".join(c.replace("\n", " ") + "\n" for c in commands if c.strip() not in ("q", "quit", "exit"))
    out = _session(extra, game, keys + f"s {end}\n")
    at, last = [(int(a), int(b)) for a, b in HEADER.findall(out)][-1]
    assert at == min(end, last)


@FUZZ
@given(target=st.sampled_from(["archived", "notation", "jsonl"]), raw=st.binary(max_size=200))
def test_raw_bytes_on_stdin(targets: dict[str, tuple[list[str], str]], target: str, raw: bytes) -> None:
    """Bytes that are not even text (invalid UTF-8, NULs, lone CRs) are keys like any others."""
    extra, game = targets[target]
    _session(extra, game, raw.decode("utf-8", errors="surrogateescape").encode("utf-8", errors="replace")
             .decode("utf-8") + "\nq\n")


@pytest.mark.parametrize("command", ["t ²", "s ²", "t ١٢", "s ٣", "t " + "9" * 5000, "s " + "9" * 5000])
def test_digits_that_int_refuses(targets: dict[str, tuple[list[str], str]], command: str) -> None:
    """Found by the fuzzer: `str.isdigit()` admits superscripts and 5000-digit numbers, which int() refuses."""
    extra, game = targets["notation"]
    _session(extra, game, command + "\nq\n")


def test_step_reads_no_further_after_q(targets: dict[str, tuple[list[str], str]], tmp_path: Path) -> None:
    extra, game = targets["jsonl"]
    out = _session(extra, game, "n\nq\nn\nn\n")
    assert [int(a) for a, _ in HEADER.findall(out)] == [0, 1]


@examples(20)
@given(at=st.one_of(st.text(max_size=12), st.builds(lambda k, n: f"{k}:{n}", st.sampled_from(["turn", "seq", "event", "x"]),
                                                     st.sampled_from(AT_NUMBERS + ["--1", "-0", " 3", "+3"]))))
def test_show_at(base: Base, at: str) -> None:
    """`show --at` takes turn:N, seq:N, event:N or end; anything else is refused with a word."""
    result = run(["show", base.wd_txt, "--at", at], codes=(0, 1))
    if result.exit_code == 0:
        assert result.stdout.startswith("[event ")


@pytest.mark.parametrize("at", ["seq:²", "turn:١٢", "seq:--5", "turn:" + "9" * 5000])
def test_show_at_digits_that_int_refuses(base: Base, at: str) -> None:
    """Found by the fuzzer: `show --at seq:²` (and --5, and 5000 digits) raised ValueError."""
    result = run(["show", base.wd_txt, "--at", at], codes=(1,))
    assert "use turn:N, seq:N or end" in result.output
