"""``bench/trees.py``: the rows it reads from the benchmarks' output, a real run of one benchmark in this
checkout and in an exported commit, and its errors."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "trees.py"
spec = importlib.util.spec_from_file_location("bench_trees", SCRIPT)
assert spec is not None and spec.loader is not None
trees = importlib.util.module_from_spec(spec)
spec.loader.exec_module(trees)

IN_GIT = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode == 0


def test_the_rows_of_each_benchmark_layout_are_read() -> None:
    text = "\n".join([
        "                                              2p          3p",             # a header: no label
        "simulate random games/s                    1,304         840",
        "fold only events/s kernel, pyarrow decoding     505,031     587,832",    # a label past its column
        "compiled kernel: built",                                                  # no number
        "stage (one process, CPU time)             s   games/s  ms/game",          # a header with a label
        "-w 2                                   2.85       702      0.88        4.17",  # a label ending in a digit
        "speed-up from 1 to 2 processes: 1.40x wall clock; 1.58x on two free cores",  # a sentence
        "bulk_import_events_per_s           1,409,138.205",
        "replay: compiled/pure                       2.76        3.06",
        "ratio                                       1.40x",
    ])
    assert trees.numeric_rows(text) == {
        "simulate random games/s": [1304.0, 840.0],
        "fold only events/s kernel, pyarrow decoding": [505031.0, 587832.0],
        "-w 2": [2.85, 702.0, 0.88, 4.17],
        "bulk_import_events_per_s": [1409138.205],
        "replay: compiled/pure": [2.76, 3.06],
        "ratio": [1.4],
    }


def test_the_report_gives_medians_and_ratios() -> None:
    runs = {"now": [{"a": [4.0, 10.0]}, {"a": [6.0, 30.0]}, {"a": [5.0, 20.0]}],
            "old": [{"a": [2.0, 10.0]}, {"a": [3.0, 10.0]}, {"a": [2.5, 10.0]}]}
    lines = trees.report(runs, trees.re.compile(""))
    assert lines[0] == "a"
    assert [float(v.replace(",", "")) for v in lines[1].split()[1:]] == [5.0, 20.0]
    assert [float(v.replace(",", "")) for v in lines[2].split()[1:]] == [2.5, 10.0]
    assert lines[3].split()[0] == "now/old" and [float(v) for v in lines[3].split()[1:]] == [2.0, 2.0]


def test_a_row_only_some_trees_printed_is_named() -> None:
    """A tree whose extension did not build prints fewer rows: the report says which, not just fewer lines."""
    runs = {"now": [{"pure": [1.0]}], "old": [{"pure": [1.0], "compiled": [2.0]}]}
    lines = trees.report(runs, trees.re.compile(""))
    assert lines[-1] == "rows now did not print: compiled"
    assert not [line for line in trees.report(runs, trees.re.compile("pure")) if "did not print" in line]


@pytest.mark.skipif(not IN_GIT, reason="not a git checkout: bench/trees.py exports commits with git")
def test_one_benchmark_runs_in_this_checkout_and_in_an_exported_commit(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--against", "HEAD", "--rounds", "1", "--work", str(tmp_path),
                           "--row", "^(events|bulk_import_events_per_s)$", "--json", str(tmp_path / "runs.json"),
                           "--", "archive_bench.py", "--games", "20", "--import-only", "--tiny", "0"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "events" and lines[4] == "bulk_import_events_per_s"
    # the same 20 synthetic games imported by both trees: the same number of events
    assert lines[1].split()[1:] == lines[2].split()[1:] and float(lines[3].split()[1]) == 1.0
    built = list(tmp_path.glob("tree-*"))  # one tree, or two where the checkout has changes not committed
    assert built and all((tree / ".built").exists() for tree in built)
    if importlib.util.find_spec("replay._cchain") is not None:  # this machine builds the extensions: so did the trees
        assert all(list(tree.glob("site/replay/*.so")) for tree in built)


def test_a_commit_that_is_not_one_is_refused(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--against", "no-such-commit", "--work", str(tmp_path),
                           "--", "archive_bench.py"], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "no-such-commit" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("args", "said"), [
    (["--against", "HEAD"], "name the benchmark after --"),
    (["--against", "HEAD", "--row", "(", "--", "archive_bench.py"], "not a regular expression"),
    (["--against", "HEAD", "--rounds", "0", "--", "archive_bench.py"], "1 or more"),
])
def test_a_command_line_it_cannot_run_is_refused_with_the_reason(args: list[str], said: str) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
