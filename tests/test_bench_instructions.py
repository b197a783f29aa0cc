"""``bench/instructions.py`` keeps working against the code it measures: each workload runs (a couple of
games, without valgrind), and without valgrind the command says what it needs instead of failing later."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "instructions.py"


@pytest.mark.parametrize("work", ["fold", "derive", "simulate", "import", "pipeline", "project"])
def test_each_workload_runs(work: str) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--inner", work, "--games", "2", "--players", "3", "--reps", "2"],
                          capture_output=True, text=True, timeout=300, cwd=Path(__file__).parent)
    assert done.returncode == 0, done.stderr


def test_without_valgrind_it_says_what_it_needs(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--work", "fold"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": str(tmp_path)}, cwd=Path(__file__).parent)
    assert done.returncode != 0 and "valgrind is not installed" in done.stderr
