"""The file ``spark-submit`` runs: ``spark-submit [options] <this file> project --engine spark -a ARCHIVE``.

``spark-submit`` runs a Python file as a script, not as a module of its package, so the tool's own
``replay/__main__.py`` (relative imports) cannot be given to it. This file imports the tool by its
absolute name, and first takes its own folder off ``sys.path`` (a script's folder goes first there,
and this folder's modules must not be importable under bare names). Print its path with
``python -c 'import replay.cli.spark_submit as m; print(m.__file__)'``.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main() -> None:
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if not p or Path(p).resolve() != here]
    from replay.cli.main import cli

    cli(prog_name="replay")


if __name__ == "__main__":
    main()
