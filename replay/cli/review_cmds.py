"""Commands for disputed games: ``audit``, ``show``, ``step``, ``diff``; and loading a log
from the archive, a JSON Lines file or a notation file."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ..archive import Archive
from ..audit import AuditReport, Finding
from ..chain import GENESIS, link
from ..diff import changes
from ..errors import ReplayError, Violation
from ..events import Event
from ..jsonl import read_events
from ..notation import NotationError
from ..plugin import GamePlugin, registry
from .options import archive_option

DEFAULT_NOTATION_KIND = "7wonders-dice"
KIND_TAG = re.compile(r'^\s*\[\s*Kind\s+"([^"]+)"\s*\]', re.IGNORECASE | re.MULTILINE)


@dataclass
class Log:
    """A game's events from wherever they came, and where each came from."""

    events: list[Event]
    plugin: GamePlugin
    source: str
    lines: dict[int, int] | None = None
    chain: list[tuple[Event, int]] | None = None


def notation_kind(text: str) -> str:
    m = KIND_TAG.search(text)
    return m.group(1) if m else DEFAULT_NOTATION_KIND


def read_notation_file(path: Path, strict: bool = False) -> Log:
    text = path.read_text(encoding="utf-8")
    plugin = registry.get(notation_kind(text))
    if plugin.read_notation is None:
        raise ReplayError(f"the {plugin.kind} plug-in has no notation")
    parsed = plugin.read_notation(text, strict=strict, source=str(path))
    if parsed.problems:
        raise NotationError(parsed.problems, str(path))
    if not parsed.events:
        raise ReplayError(f"{path}: no game in it")
    return Log(parsed.events, plugin, str(path), parsed.lines)


def load_log(spec: str, archive_path: Path) -> Log:
    """GAME_ID in the archive, or a file: .jsonl (JSON Lines) or anything else (notation)."""
    path = Path(spec)
    if path.is_file():
        if path.suffix == ".jsonl":
            text = path.read_text(encoding="utf-8").splitlines(keepends=True)
            events = list(read_events(text, registry, source=spec))
            numbers = [n for n, line in enumerate(text, start=1) if line.strip()]
            if not events:
                raise ReplayError(f"{spec}: no events")
            games = {e.game_id for e in events}
            if len(games) > 1:
                raise ReplayError(f"{spec} holds {len(games)} games; export one with `replay export GAME`")
            return Log(events, registry.get(events[0].kind), spec, dict(zip((e.seq for e in events), numbers)))
        return read_notation_file(path)
    archive = Archive(archive_path)
    events = archive.read_game(spec)
    return Log(events, registry.get(events[0].kind), spec, chain=archive.read_chain(spec))


def _rulesets(plugin: GamePlugin, files: tuple[Path, ...]) -> list[Any]:
    if files and plugin.load_ruleset is None:
        raise ReplayError(f"the {plugin.kind} plug-in has no ruleset packs")
    return [plugin.load_ruleset(f) for f in files]


def _need(plugin: GamePlugin, *hooks: str) -> None:
    missing = [h for h in hooks if getattr(plugin, h) is None]
    if missing:
        raise ReplayError(f"the {plugin.kind} plug-in cannot do this (no {', '.join(missing)})")


def chain_finding(log: Log) -> Finding | None:
    """The first event whose stored chain hash does not match (archived games only)."""
    if not log.chain:
        return None
    prev = GENESIS
    for event, stored in log.chain:
        if link(prev, event) != stored:
            violation = Violation(event.seq, event.payload.get("turn"), None, "archive.chain",
                                  "Each stored event's hash covers it and the hash before it.",
                                  "the hash of the event as written", "a different one")
            return Finding(violation, f"event {event.seq} was altered after it was written (the first altered event)")
        prev = stored
    return None


def run_audit(log: Log, rulesets: list[Any]) -> AuditReport:
    _need(log.plugin, "audit")
    report: AuditReport = log.plugin.audit(log.events, log.lines, rulesets)
    broken = chain_finding(log)
    if broken:
        report.findings.insert(0, broken)
    report.checked["hash chain"] = "yes" if log.chain else "no (not archived)"
    return report


ruleset_option = click.option("--ruleset", "ruleset_files", multiple=True, type=click.Path(dir_okay=False, exists=True, path_type=Path),
                              help="a ruleset pack the game was played under, if not shipped (repeatable)")


@click.command()
@click.argument("game")
@ruleset_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@archive_option
def audit(game: str, ruleset_files: tuple[Path, ...], fmt: str, archive_path: Path) -> None:
    """Replay a game with every rule check and compare every claimed value.

    GAME is a game id in the archive, or a file: JSON Lines (.jsonl) or notation.
    Every problem is reported with its event, notation line, turn, player, rule id
    and sentence, expected against found, and a plain explanation. A clean game
    prints the winner, the scores by category and what was checked. Exit status 1
    if anything is wrong.

    \b
    Example:
      replay audit disputed-game.txt
      replay audit 7wonders-dice-s1-000003 --format json
    """
    log = load_log(game, archive_path)
    report = run_audit(log, _rulesets(log.plugin, ruleset_files))
    click.echo(json.dumps(report.to_json(), indent=2) if fmt == "json" else report.to_text(), nl=fmt == "json")
    if not report.ok:
        sys.exit(1)


def _position(log: Log, at: str, rulesets: list[Any]) -> tuple[Event, Any]:
    kind, _, value = at.partition(":")
    if kind not in ("turn", "seq") or not value.lstrip("-").isdigit():
        raise click.BadParameter(f"{at!r}: use turn:N or seq:N", param_hint="--at")
    n = int(value)
    last = None
    for event, state in log.plugin.states(log.events, rulesets):
        last = (event, state)
        if kind == "seq" and event.seq == n:
            return last
        if kind == "turn" and event.type in ("dice_rolled",) and event.payload.get("turn") == n:
            return last
    raise ReplayError(f"{log.source} has no {kind} {n} (it ends at seq {last[0].seq if last else -1})")


@click.command()
@click.argument("game")
@click.option("--at", "at", default=None, help="turn:N (just after turn N's roll) or seq:N (after event N); default: the end")
@click.option("--player", help="only this player's board")
@ruleset_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@archive_option
def show(game: str, at: str | None, player: str | None, ruleset_files: tuple[Path, ...], fmt: str, archive_path: Path) -> None:
    """The whole table at one point: the Forum's dice with their costs, and each board.

    \b
    Example:
      replay show my-game.txt --at turn:12 --player Ana
      replay show 7wonders-dice-s1-000003 --at seq:40 --format json
    """
    log = load_log(game, archive_path)
    _need(log.plugin, "states", "state_dict", "show")
    rulesets = _rulesets(log.plugin, ruleset_files)
    event, state = _position(log, at or f"seq:{log.events[-1].seq}", rulesets)
    if fmt == "json":
        data = log.plugin.state_dict(state)
        if player:
            data["players"] = [p for p in data["players"] if p["name"].lower() == player.lower()]
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(log.plugin.show(state, player))


@click.command()
@click.argument("a")
@click.argument("b")
@ruleset_option
@archive_option
def diff(a: str, b: str, ruleset_files: tuple[Path, ...], archive_path: Path) -> None:
    """Two logs of the same game: the first event where they differ, and how the tables differ.

    Each side is a game id in the archive or a file (.jsonl or notation): two
    players' versions of one game, or a file against the archived game. Both are
    replayed leniently to their ends; then scores, coins and spaces are compared.
    Exit status 1 if they differ.

    \b
    Example:
      replay diff anas-version.txt bens-version.txt
    """
    left, right = load_log(a, archive_path), load_log(b, archive_path)
    if left.plugin is not right.plugin:
        raise ReplayError(f"{a} is {left.plugin.kind}, {b} is {right.plugin.kind}: not the same game")
    _need(left.plugin, "audit", "state_dict", "headline")
    rulesets = _rulesets(left.plugin, ruleset_files)
    first = next((i for i, (x, y) in enumerate(zip(left.events, right.events)) if x.payload != y.payload or x.type != y.type), None)
    if first is None and len(left.events) == len(right.events):
        click.echo(f"identical: {len(left.events)} events")
        return
    first = first if first is not None else min(len(left.events), len(right.events))
    names = [s["name"] for s in left.events[0].payload["seats"]]

    def where(log: Log) -> str:
        if first >= len(log.events):
            return "(no event: the log ends here)"
        line = f" (line {log.lines[first]})" if log.lines and first in log.lines else ""
        return f"{left.plugin.headline(log.events[first], names)}{line}"

    click.echo(f"first difference at event {first}:")
    click.echo(f"  {a}: {where(left)}")
    click.echo(f"  {b}: {where(right)}")
    ends = [left.plugin.audit(log.events, log.lines, rulesets) for log in (left, right)]
    for side, report in zip((a, b), ends):
        if report.findings:
            click.echo(f"  {side}: {len(report.findings)} rule problem(s) (see `replay audit {side}`)")
    delta = changes(left.plugin.state_dict(ends[0].state), left.plugin.state_dict(ends[1].state))
    click.echo(f"how the tables differ at the end ({a} -> {b}):")
    for line in delta or ["  (no difference)"]:
        click.echo(f"  {line}")
    sys.exit(1)


@click.command()
@click.argument("game")
@ruleset_option
@archive_option
def step(game: str, ruleset_files: tuple[Path, ...], archive_path: Path) -> None:
    """Step through a game, forward and back, seeing what changed.

    Commands (then Enter): n / p next / previous event, N / P next / previous turn,
    t N jump to turn N, s N jump to event N, f NAME follow one player (f alone: all),
    b show the whole table, h help, q quit. Works in a terminal or with piped input.

    \b
    Example:
      replay step my-game.txt
      printf 'N\\nN\\nf Ana\\nb\\nq\\n' | replay step my-game.txt
    """
    from .stepper import Stepper

    log = load_log(game, archive_path)
    _need(log.plugin, "states", "state_dict", "show", "headline")
    Stepper(log, _rulesets(log.plugin, ruleset_files), click.echo).run(sys.stdin)
