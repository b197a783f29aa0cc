"""The README's examples run as written, in order, in an empty directory, with the installed command."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).parent.parent / "README.md"


def _examples() -> list[tuple[str, int]]:
    """(command, expected exit status) for every line of the 'Using it' block."""
    text = README.read_text()
    block = re.search(r"## Using it.*?```sh\n(.*?)```", text, re.S).group(1)
    out = []
    for line in block.splitlines():
        command, _, comment = line.partition("  #")
        if command.strip():
            out.append((command.strip(), 1 if "(exit 1)" in comment else 0))
    return out


def test_the_readme_opens_with_the_two_commands_and_ci_runs_the_second():
    first = re.search(r"```sh\n(.*?)```", README.read_text(), re.S).group(1).splitlines()
    assert first[0] == "pip install . && replay demo"
    assert first[1].startswith("pip install '.[test]' && ")
    ci = (Path(__file__).parent.parent / ".ci" / "run").read_text()
    assert first[1] in ci


@pytest.mark.skipif(shutil.which("replay", path=str(Path(sys.executable).parent)) is None,
                    reason="the replay command is not installed beside this Python")
def test_every_example_runs_as_written(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("REPLAY_ARCHIVE", "REPLAY_QUERIES")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    examples = _examples()
    assert len(examples) >= 20
    for command, status in examples:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=300)
        assert "Traceback" not in done.stderr, (command, done.stderr)
        assert done.returncode == status, (command, done.returncode, done.stdout[-2000:], done.stderr[-2000:])
