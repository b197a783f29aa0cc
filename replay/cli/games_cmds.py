"""Commands that drive a game plug-in: ``simulate`` and ``rules``."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import click

from ..archive import NEW_STREAM, Archive, StreamAppend
from ..errors import ReplayError
from ..plugin import GamePlugin, registry
from .options import default_archive
from .output import render

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]
DEFAULT_GAME = "7wonders-dice"
COMMIT_GAMES = 500


def _plugin(kind: str) -> GamePlugin:
    return registry.get(kind)


def _player_range(text: str) -> tuple[int, int]:
    try:
        low, _, high = text.partition("-")
        lo, hi = int(low), int(high or low)
    except ValueError:
        raise click.BadParameter(f"{text!r}: give a count like 4 or a range like 2-7") from None
    if not 1 <= lo <= hi:
        raise click.BadParameter(f"{text!r}: the range must run upwards from at least 1")
    return lo, hi


def simulate_games(
    plugin: GamePlugin, archive: Archive, games: int, players: tuple[int, int], bots: tuple[str, ...],
    seed: int, ruleset: Any = None, progress=None,
) -> int:
    """Simulate ``games`` games into the archive (commits of COMMIT_GAMES); returns events written.

    Game i uses seed ``hash((seed, i))``-free arithmetic so that the same seed always
    gives byte-identical events, whatever the batch size.
    """
    if plugin.simulate is None:
        raise ReplayError(f"the {plugin.kind} plug-in cannot simulate games")
    chooser = random.Random(seed)
    counts = [chooser.randint(*players) for _ in range(games)]
    batch: list[StreamAppend] = []
    written = 0
    for i, n in enumerate(counts):
        game_id = f"{plugin.kind}-s{seed}-{i:06d}"
        kwargs = {"ruleset": ruleset} if ruleset is not None else {}
        events = plugin.simulate(game_id, NAMES[:n], seed * 1_000_003 + i, bots, **kwargs)
        batch.append(StreamAppend(game_id, NEW_STREAM, events))
        written += len(events)
        if len(batch) >= COMMIT_GAMES or i == games - 1:
            archive.append_many(batch)
            if progress:
                progress(len(batch))
            batch = []
    return written


@click.command()
@click.argument("archive_path", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--game", "kind", default=DEFAULT_GAME, show_default=True, help="game kind (see `replay kinds`)")
@click.option("--games", "n_games", type=click.IntRange(1), default=100, show_default=True)
@click.option("--players", default="2-7", show_default=True, help="players per game: a count (4) or a range (2-7)")
@click.option("--bot", "bots", default="greedy,random", show_default=True,
              help="bot per seat, comma-separated and cycled over the seats")
@click.option("--seed", type=int, default=1, show_default=True, help="the same seed gives byte-identical events")
@click.option("--ruleset", "ruleset_file", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="play under this ruleset pack instead of the default")
@click.option("--init", "create", is_flag=True, help="create the archive if it does not exist")
def simulate(archive_path: Path | None, kind: str, n_games: int, players: str, bots: str, seed: int,
             ruleset_file: Path | None, create: bool) -> None:
    """Simulate complete games between bots and append them to an archive.

    ARCHIVE defaults to $REPLAY_ARCHIVE, else ./archive. Every chance outcome is
    recorded as an event and every action records what the player would write
    down (coins paid, VP, coins left), so each simulated game is also an audit test.

    \b
    Example:
      replay simulate --games 1000 --players 2-7 --bot greedy,random --seed 42 --init sims
    """
    root = archive_path or default_archive()
    plugin = _plugin(kind)
    bot_names = tuple(b.strip() for b in bots.split(",") if b.strip())
    unknown = [b for b in bot_names if b not in plugin.bots]
    if unknown or not bot_names:
        raise click.BadParameter(f"unknown bot {unknown[0] if unknown else bots!r}; {kind} has: {', '.join(plugin.bots)}",
                                 param_hint="--bot")
    ruleset = plugin.load_ruleset(ruleset_file) if ruleset_file and plugin.load_ruleset else None
    archive = Archive.init(root) if create and not (root / "REPLAY_ARCHIVE").exists() else Archive(root)
    with click.progressbar(length=n_games, label=f"simulating {kind}", file=sys.stderr, show_eta=True) as bar:
        events = simulate_games(plugin, archive, n_games, _player_range(players), bot_names, seed, ruleset, bar.update)
    click.echo(f"simulated {n_games} {kind} games ({events} events) into {root}")


@click.group()
def rules() -> None:
    """Inspect ruleset packs: the data (dice, boards, costs, options) a game is played under.

    \b
    Example:
      replay rules list
      replay rules show 7wd-default --part options
      replay rules validate my-corrected-pack.json
      replay rules diff 7wd-default my-corrected-pack.json
    """


@rules.command(name="list")
@click.option("--game", "kind", help="only this game kind")
def rules_list(kind: str | None) -> None:
    """List the shipped ruleset packs with their versions and content hashes."""
    rows = []
    for k in ([kind] if kind else registry.kinds()):
        plugin = _plugin(k)
        for name, pack in (plugin.rulesets() if plugin.rulesets else {}).items():
            rows.append({"game": k, "name": name, "id": pack.id, "version": pack.version,
                         "content_hash": pack.content_hash[:19] + "…"})
    click.echo(render(rows, ["game", "name", "id", "version", "content_hash"], "table"), nl=False)


def _load(spec: str, kind: str | None) -> tuple[GamePlugin, Any]:
    """A pack by shipped name, or from a file (validated, with errors naming the path inside it)."""
    kinds = [kind] if kind else registry.kinds()
    for k in kinds:
        plugin = _plugin(k)
        shipped = plugin.rulesets() if plugin.rulesets else {}
        if spec in shipped:
            return plugin, shipped[spec]
    path = Path(spec)
    if not path.is_file():
        raise ReplayError(f"{spec!r} is neither a shipped ruleset (see `replay rules list`) nor a file")
    errors = []
    for k in kinds:
        plugin = _plugin(k)
        if plugin.load_ruleset is None:
            continue
        try:
            return plugin, plugin.load_ruleset(path)
        except ReplayError as exc:
            errors.append(str(exc))
    raise ReplayError("\n".join(errors) or f"{spec}: no game can read ruleset packs")


@rules.command(name="show")
@click.argument("pack")
@click.option("--game", "kind", help="game kind, when a file could belong to several")
@click.option("--part", help="only this top-level part (e.g. options, dice, cities)")
def rules_show(pack: str, kind: str | None, part: str | None) -> None:
    """Print a pack (shipped name or file) as JSON, with its content hash."""
    _, loaded = _load(pack, kind)
    data = loaded.model_dump(mode="json")
    if part:
        if part not in data:
            raise ReplayError(f"no part {part!r}; parts: {', '.join(data)}")
        data = data[part]
    click.echo(f"# {loaded.id} {loaded.version} {loaded.content_hash}")
    click.echo(json.dumps(data, indent=2))


@rules.command(name="validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True))
@click.option("--game", "kind", help="game kind of the packs")
def rules_validate(files: tuple[str, ...], kind: str | None) -> None:
    """Check pack files; every problem names the file and the path inside it. Exit 1 on any."""
    failed = False
    for f in files:
        try:
            _, loaded = _load(f, kind)
            click.echo(f"{f}: OK ({loaded.id} {loaded.version}, {loaded.content_hash})")
        except ReplayError as exc:
            failed = True
            click.echo(str(exc), err=True)
    if failed:
        sys.exit(1)


@rules.command(name="diff")
@click.argument("old")
@click.argument("new")
@click.option("--game", "kind", help="game kind of the packs")
def rules_diff(old: str, new: str, kind: str | None) -> None:
    """What changed between two packs, path by path (exit 1 if they differ)."""
    _, a = _load(old, kind)
    _, b = _load(new, kind)
    changes = list(_diff(a.model_dump(mode="json"), b.model_dump(mode="json"), ""))
    for path, before, after in changes:
        click.echo(f"{path}: {json.dumps(before)} -> {json.dumps(after)}")
    click.echo(f"{len(changes)} difference(s): {a.content_hash} -> {b.content_hash}")
    if changes:
        sys.exit(1)


def _label(item: Any, index: int) -> str:
    if isinstance(item, dict):
        for key in ("id", "colour", "symbol", "face"):
            if key in item:
                return f"[{item[key]}]"
    return f"[{index}]"


def _diff(a: Any, b: Any, path: str):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            yield from _diff(a.get(k), b.get(k), f"{path}.{k}" if path else k)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from _diff(x, y, path + _label(x, i))
    elif a != b:
        yield path, a, b
