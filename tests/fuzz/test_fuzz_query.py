"""Named queries and their parameters: ``replay query --name NAME --param k=v ...`` with any names,
keys and values (SQL in a value, numbers of every size and script, nothing at all).

A value is data, never SQL: a query either runs (a well-formed integer always does) or is
refused with a word (exit 1; a --param without '=' is a usage error, 2). Nothing in the archive
changes, and an output file appears whole or not at all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from replay.analytics.sql import all_queries
from replay.registry import registry

from .conftest import FUZZ, MAX_REPORT, Base, check_output_file, examples, run, scratch, tree

QUERIES = all_queries(registry)
WITH_PARAMS = sorted(name for name, q in QUERIES.items() if q.params)
VALUES = st.one_of(
    st.integers(-(2**63), 2**63 - 1).map(str),
    st.integers().map(str),
    st.sampled_from(["", " ", "0", "-0", "+5", " 5 ", "5.0", "1e3", "0x10", "nan", "inf", "²", "١٢", "9" * 30, "9" * 5000,
                     "1; DROP TABLE games", "1 OR 1=1", "$min_games", "'", "\\", "NULL", "true", "=", "a=b", "\x00"]),
    st.text(max_size=30),
)


@pytest.fixture(scope="module")
def projected(base: Base, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the base archive (projected), shared by the tests here: queries only read it."""
    root = tmp_path_factory.mktemp("query")
    return base.copy(root)


@FUZZ
@given(name=st.sampled_from(sorted(QUERIES)),
       params=st.lists(st.tuples(st.sampled_from(["min_games", "min_turns", "max_turn", "min_players", "x", "", "MIN_GAMES"])
                                 | st.text(max_size=10), VALUES), max_size=3),
       fmt=st.sampled_from(["table", "json", "csv"]))
def test_any_parameters(projected: Path, name: str, params: list[tuple[str, str]], fmt: str) -> None:
    before = tree(projected, ("manifest", "data", "derived"))
    args = ["query", "-a", projected, "--name", name, "--format", fmt]
    for key, value in params:
        args += ["--param", f"{key}={value}"]
    result = run(args, codes=(0, 1), max_output=MAX_REPORT)
    event(f"exit {result.exit_code}")
    if result.exit_code == 0 and fmt == "json":
        assert isinstance(json.loads(result.stdout), list)
    known = {p.name: p.type for p in QUERIES[name].params}
    if all(k in known and known[k] == "int" and v.isascii() and v.strip().lstrip("-").isdigit() and len(v) < 19
           for k, v in params):
        assert result.exit_code == 0, f"well-formed parameters refused:\n{result.output[-2000:]}"
    assert tree(projected, ("manifest", "data", "derived")) == before, "a query changed the archive"


@examples(20)
@given(name=st.sampled_from(WITH_PARAMS), value=VALUES, fmt=st.sampled_from(["csv", "json", "parquet", "table"]))
def test_parameters_to_an_output_file(projected: Path, scratch_root: Path, name: str, value: str, fmt: str) -> None:
    param = next(p.name for p in QUERIES[name].params)
    with scratch(scratch_root) as tmp:
        out = tmp / f"result.{'parquet' if fmt == 'parquet' else 'txt'}"
        result = run(["query", "-a", projected, "--name", name, "--param", f"{param}={value}", "--format", fmt, "-o", out],
                     codes=(0, 1))
        check_output_file(result, out)


@examples(20)
@given(name=st.one_of(st.sampled_from(sorted(QUERIES)).map(lambda n: n.upper()), st.text(max_size=30),
                      st.sampled_from(["", ".", "wonders_dice.", "../etc/passwd", "games_by_kind.sql",
                                       "pig.bust_rate_by_rolls;"])))
def test_any_name(projected: Path, name: str) -> None:
    result = run(["query", "-a", projected, "--name", name], codes=(0, 1, 2))
    if name not in QUERIES and not any(q.endswith("." + name) for q in QUERIES):
        assert result.exit_code != 0


@pytest.mark.parametrize("param", ["min_games", "min_games:5", "", "=="])
def test_a_param_without_a_value_is_a_usage_error(projected: Path, param: str) -> None:
    result = run(["query", "-a", projected, "--name", "wonders_dice.win_rate_by_city", "--param", param], codes=(1, 2))
    assert "param" in result.output
