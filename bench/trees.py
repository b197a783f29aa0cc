"""One benchmark, this checkout against older commits, alternated run by run: the ratios of the medians.

    python bench/trees.py --against 57b17fb --against 449a31f --rounds 3 -- wonders_dice_bench.py --games 150
    python bench/trees.py --against 57b17fb --row "^-w|decode" -- project_bench.py --dir /tmp/pb --games 2000

The machine's speed moves from day to day and with the neighbours' load, so figures taken minutes or
days apart do not compare; the same benchmark, run by each tree in turn (this checkout, then each older
commit, then again), does. Each commit is exported (``git archive``) into ``--work`` and installed
beside itself, its optional C extensions built, by pip (``pip install --no-deps --target <tree>/site``, in
pip's isolated build environment, as a user's install builds it), once: a later run reuses the tree.
"now" is this checkout's tracked files as they are, changes not yet committed included (``git stash
create``, which leaves the checkout alone; a new file counts once ``git add`` has staged it), exported
and installed the same way, so every tree runs as installed and none is changed by the run. Each run is
``python <tree>/bench/<script> <args>`` with ``PYTHONPATH=<tree>/site`` and this interpreter (its
environment gives the dependencies), each tree running its own copy of the benchmark. A benchmark that
keeps its data (``project_bench.py --dir``) gives every tree the same data.

The benchmarks print aligned rows: a label, then numbers, columns two spaces or more apart. Every such row
is kept (``--row`` filters the labels by a regular expression); the report gives each row's medians over
the rounds for this checkout and for each commit, and ``now/<commit>``, this checkout's median over the
commit's: above 1 where the row is a rate and this checkout is faster, below 1 where the row is a time.
``--json`` writes every run's rows too. A row some trees did not print (an optional extension that did
not build there, say) is named at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
_COLUMNS = re.compile(r"\s{2,}")


def number(token: str) -> float | None:
    """A benchmark's printed number ("1,214", "0.58", "1.40x"), or None."""
    try:
        return float(token.replace(",", "").removesuffix("x"))
    except ValueError:
        return None


def numeric_rows(text: str) -> dict[str, list[float]]:
    """Each printed row that ends in numbers: its label and the numbers. A row with no label, a
    sentence (words one space apart) or no number is left out; a repeated label keeps its first row."""
    rows: dict[str, list[float]] = {}
    for line in text.splitlines():
        tokens = _COLUMNS.split(line.strip())
        values: list[float] = []
        while len(tokens) > 1 and (value := number(tokens[-1])) is not None:
            values.insert(0, value)
            tokens.pop()
        label = " ".join(tokens)
        if values and label and number(label) is None:
            rows.setdefault(label, values)
    return rows


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(HERE), *args], capture_output=True, text=True)


def commit_of(name: str) -> str:
    found = git("rev-parse", "--verify", f"{name}^{{commit}}")
    if found.returncode != 0:
        sys.exit(f"trees: {name!r} is not a commit of {HERE}: {found.stderr.strip()}")
    return found.stdout.strip()


def working_tree() -> str:
    """A commit of the checkout's tracked files as they are (HEAD where nothing changed)."""
    stash = git("stash", "create")
    if stash.returncode != 0:
        sys.exit(f"trees: {HERE} is not a git checkout: {stash.stderr.strip()}")
    return stash.stdout.strip() or commit_of("HEAD")


def exported(commit: str, work: Path) -> Path:
    """The commit's tree under ``work``, installed into its ``site`` folder, made once."""
    tree = work / f"tree-{commit[:12]}"
    done = tree / ".built"
    if done.exists():
        return tree
    tree.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(HERE), "archive", commit], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    built = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile",
                            "--target", str(tree / "site"), str(tree)], capture_output=True, text=True)
    if built.returncode != 0:
        sys.exit(f"trees: installing {commit[:12]} failed:\n{built.stderr[-2000:]}")
    done.touch()
    return tree


def run(tree: Path, script: str, args: list[str]) -> str:
    path = tree / "bench" / script
    if not path.exists():
        sys.exit(f"trees: {tree} has no bench/{script}")
    env = {**os.environ, "PYTHONPATH": str(tree / "site")}
    done = subprocess.run([sys.executable, str(path), *args], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"trees: bench/{script} failed in {tree}:\n{done.stderr[-2000:]}")
    return done.stdout


def report(runs: dict[str, list[dict[str, list[float]]]], pattern: re.Pattern[str]) -> list[str]:
    """The rows' medians per tree and this checkout's ratio to each older one, as aligned text."""
    names = list(runs)
    labels = [label for label in runs[names[0]][0] if pattern.search(label)]
    lines = []
    for label in labels:
        medians = {}
        for name in names:
            columns = [r[label] for r in runs[name] if label in r]
            width = min((len(c) for c in columns), default=0)
            medians[name] = [statistics.median(c[i] for c in columns) for i in range(width)]
        lines.append(label)
        for name in names:
            lines.append(f"  {name:<14}" + "".join(f"{v:>14,.0f}" if abs(v) >= 100 else f"{v:>14.3f}"
                                                   for v in medians[name]))
        for name in names[1:]:
            ratios = [now / then if then else float("nan") for now, then in zip(medians[names[0]], medians[name])]
            lines.append(f"  {'now/' + name:<14}" + "".join(f"{v:>14.3f}" for v in ratios))
    for name in names:  # a row one tree printed and another did not (an extension that did not build, say)
        seen = {label for r in runs[name] for label in r if pattern.search(label)}
        others = {label for other in names if other != name for r in runs[other] for label in r if pattern.search(label)}
        if others - seen:
            lines.append(f"rows {name} did not print: " + "; ".join(sorted(others - seen)))
    return lines


def _pattern(text: str) -> re.Pattern[str]:
    try:
        return re.compile(text)
    except re.error as e:
        raise argparse.ArgumentTypeError(f"not a regular expression: {e}") from None


def _rounds(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("a whole number, 1 or more")
    return int(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", action="append", required=True, metavar="COMMIT", help="an older commit (repeatable)")
    ap.add_argument("--rounds", type=_rounds, default=3, help="runs per tree, alternated (the report gives medians)")
    ap.add_argument("--row", type=_pattern, default=_pattern(""), help="keep the rows whose label this regular expression finds")
    ap.add_argument("--work", type=Path, help="where the trees are exported (kept and reused; default: a temporary one, removed)")
    ap.add_argument("--json", type=Path, help="also write every run's rows here")
    ap.add_argument("bench", nargs=argparse.REMAINDER, help="-- SCRIPT [ARGS]: a script of bench/ and its arguments")
    args = ap.parse_args()
    bench = args.bench[1:] if args.bench[:1] == ["--"] else args.bench
    if not bench:
        ap.error("name the benchmark after --, e.g. -- wonders_dice_bench.py --games 150")
    work = args.work or Path(tempfile.mkdtemp(prefix="replay-trees-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        compared(args, bench, work)
    finally:
        if args.work is None:  # a temporary folder's built trees (hundreds of MB) are not left behind
            shutil.rmtree(work, ignore_errors=True)


def compared(args: argparse.Namespace, bench: list[str], work: Path) -> None:
    """The trees exported into ``work``, the benchmark run by each in turn, the report printed."""
    commits = {"now": working_tree(), **{name: commit_of(name) for name in args.against}}
    trees = {name: exported(commit, work) for name, commit in commits.items()}
    runs: dict[str, list[dict[str, list[float]]]] = {name: [] for name in trees}
    for r in range(args.rounds):
        for name, tree in trees.items():
            print(f"round {r + 1}/{args.rounds}: {name}", file=sys.stderr, flush=True)
            runs[name].append(numeric_rows(run(tree, bench[0], bench[1:])))
    if args.json:
        args.json.write_text(json.dumps({"bench": bench, "runs": runs}, indent=1))
    print("\n".join(report(runs, args.row)))


if __name__ == "__main__":
    main()
