"""Commands for disputed games: ``audit``, ``show``, ``step``, ``diff``.

GAME is a game id in the archive, or a file: JSON Lines (.jsonl) or notation.
Every command reaches every event of a disputed game: problems are shown where
they occur, never as a refusal to go on.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..services.audit import audit as run_audit
from ..services.logs import load_log
from ..services.packs import load_files
from ..services.review import compare, open_review
from ..services.stepper import StepSession
from .options import archive_option, game_option, ruleset_option

notation_game = game_option("the game of a notation file without a [Kind] tag")


@click.command()
@click.argument("game")
@ruleset_option
@notation_game
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@archive_option
def audit(game: str, ruleset_files: tuple[Path, ...], kind: str | None, fmt: str, archive_path: Path) -> None:
    """Replay a game with every rule check and compare every claimed value.

    GAME is a game id in the archive, or a file: JSON Lines (.jsonl) or notation.
    Every problem is reported with its event, line, turn, player, rule id and
    sentence, expected against found, and a plain explanation. A clean game prints
    the winner, the scores by category and what was checked. Exit status 1 if
    anything is wrong.

    \b
    Example:
      replay audit disputed-game.txt
      replay audit 7wonders-dice-s1-000003 --format json
    """
    log = load_log(game, archive_path, kind)
    report = run_audit(log, load_files(ruleset_files, log.game.kind))
    click.echo(json.dumps(report.to_json(), indent=2) if fmt == "json" else report.to_text(), nl=fmt == "json")
    if not report.ok:
        sys.exit(1)


@click.command()
@click.argument("game")
@click.option("--at", "at", default=None,
              help="turn:N (the first event of turn N), seq:N (after event N) or end; default: the end")
@click.option("--player", help="only this player's part (json: what this seat may see)")
@ruleset_option
@notation_game
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@archive_option
def show(game: str, at: str | None, player: str | None, ruleset_files: tuple[Path, ...], kind: str | None, fmt: str,
         archive_path: Path) -> None:
    """The whole table at one point of a game, and any problem found at that event.

    \b
    Example:
      replay show my-game.txt --at turn:12 --player Ana
      replay show 7wonders-dice-s1-000003 --at seq:40 --format json
    """
    review = open_review(game, archive_path, kind, load_files(ruleset_files))
    i = review.locate(at)
    if fmt == "json":
        click.echo(json.dumps(review.show_data(i, player), indent=2))
    else:
        click.echo(f"[event {i}/{review.last}] {review.headline(i)}")
        click.echo(review.show(i, player))


@click.command()
@click.argument("a")
@click.argument("b")
@ruleset_option
@notation_game
@archive_option
def diff(a: str, b: str, ruleset_files: tuple[Path, ...], kind: str | None, archive_path: Path) -> None:
    """Two logs of the same game: the first event where they differ, and how the tables differ.

    Each side is a game id in the archive or a file (.jsonl or notation): two
    players' versions of one game, or a file against the archived game. Both are
    replayed leniently to their ends; then their tables are compared. Exit status
    1 if they differ.

    \b
    Example:
      replay diff anas-version.txt bens-version.txt
    """
    left, right = load_log(a, archive_path, kind), load_log(b, archive_path, kind)
    d = compare(left, right, load_files(ruleset_files, left.game.kind))
    if d.identical:
        click.echo(f"identical: {d.events[0]} events")
        return
    click.echo(f"first difference at event {d.first}:")
    click.echo(f"  {a}: {d.where[0]}")
    click.echo(f"  {b}: {d.where[1]}")
    if d.event_changes:
        click.echo(f"  what differs in that event ({a} -> {b}):")
        for line in d.event_changes:
            click.echo(f"    {line}")
    for side, n in zip((a, b), d.problems):
        if n:
            click.echo(f"  {side}: {n} rule problem(s) (see `replay audit {side}`)")
    click.echo(f"how the tables differ at the end ({a} -> {b}):")
    for line in d.end_changes or ["(no difference)"]:
        click.echo(f"  {line}")
    sys.exit(1)


@click.command()
@click.argument("game")
@ruleset_option
@notation_game
@archive_option
def step(game: str, ruleset_files: tuple[Path, ...], kind: str | None, archive_path: Path) -> None:
    """Step through a game, forward and back, seeing what changed.

    Commands (then Enter): n / p next / previous event, N / P next / previous turn,
    t N jump to turn N, s N jump to event N, ! next problem, f NAME follow one
    player (f alone: all), b show the whole table, h help, q quit. Works in a
    terminal or with piped input. A disputed game steps like any other: each
    problem is shown at its event.

    \b
    Example:
      replay step my-game.txt
      printf 'N\\nN\\nf Ana\\nb\\nq\\n' | replay step my-game.txt
    """
    session = StepSession(open_review(game, archive_path, kind, load_files(ruleset_files)))
    for line in session.opening():
        click.echo(line)
    for raw in sys.stdin:
        if raw.strip() in ("q", "quit", "exit"):
            break
        for line in session.handle(raw):
            click.echo(line)
    click.echo("bye")
