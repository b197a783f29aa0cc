"""Commands that drive a game: ``simulate``, and ``rules`` (the packs games are played under,
and what correcting one would change in the archive)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from ..archive import Archive
from ..errors import ReplayError
from ..registry import registry
from ..services import packs as pack_service
from ..services.impact import impact
from ..services.simulation import COMMIT_GAMES, check_bots, check_players, simulate_games
from ..tables import render
from .options import archive_option, reading_archive_option


def _player_range(text: str) -> tuple[int, int]:
    try:
        low, _, high = text.partition("-")
        lo, hi = int(low), int(high or low)
    except ValueError:
        raise click.BadParameter(f"{text!r}: give a count like 4 or a range like 2-7") from None
    if not 1 <= lo <= hi:
        raise click.BadParameter(f"{text!r}: the range must run upwards from at least 1")
    return lo, hi


@click.command()
@click.option("--game", "kind", help="the game kind to play (required; see `replay kinds`)")
@click.option("--games", "n_games", type=click.IntRange(1), default=100, show_default=True)
@click.option("--players", help="players per game: a count (4) or a range (2-7); default: the game's range")
@click.option("--bot", "bots", help="bot per seat, comma-separated and cycled over the seats; default: the game's line-up")
@click.option("--seed", type=int, default=1, show_default=True, help="the same seed gives byte-identical events")
@click.option("--ruleset", "ruleset", metavar="NAME|FILE",
              help="play under this rules pack instead of the game's default: a shipped pack's name "
                   "(an expansion, an option set; see `replay kinds`) or a pack file")
@click.option("--workers", type=click.IntRange(1), default=os.cpu_count() or 1, show_default="all cores",
              help=f"processes simulating batches of {COMMIT_GAMES} games in parallel (the archive gets the same "
                   "events and files whatever the number)")
@click.option("--init", "create", is_flag=True, help="create the archive if it does not exist")
@archive_option
def simulate(kind: str | None, n_games: int, players: str | None, bots: str | None, seed: int,
             ruleset: str | None, workers: int, create: bool, archive_path: Path) -> None:
    """Simulate complete games between bots and append them to an archive.

    Every chance outcome is recorded as an event, and every action records what
    the player would write down, so each simulated game is also an audit test.
    Game ids are KIND-sSEED-NNNNNN.

    Games are committed in batches of 500, each batch all or nothing: an interrupted run
    keeps the batches committed before it. --workers processes simulate the batches
    side by side; the archive gets the same games and files whatever their number.

    \b
    Example:
      replay simulate --game 7wonders-dice --games 1000 --players 2-7 --bot greedy,random --seed 42 --init
      replay simulate --game pig --games 50 -a sims
      replay simulate --game 7wonders-duel --ruleset 7wd-duel-pantheon --games 20 -a sims
    """
    if kind is None:
        raise click.UsageError(f"which game? --game KIND (installed: {', '.join(registry.kinds())})")
    game = registry.get(kind)
    try:
        bot_names = check_bots(game, [b.strip() for b in (bots or "").split(",") if b.strip()])
    except ReplayError as exc:
        raise click.BadParameter(str(exc), param_hint="--bot") from None
    player_range = _player_range(players) if players else game.players
    try:
        check_players(game, player_range)
    except ReplayError as exc:
        raise click.BadParameter(str(exc), param_hint="--players") from None
    try:
        pack = pack_service.load(ruleset, kind)[1] if ruleset else None
    except ReplayError as exc:
        raise click.BadParameter(str(exc), param_hint="--ruleset") from None
    archive = Archive.init(archive_path) if create and not (archive_path / "REPLAY_ARCHIVE").exists() else Archive(archive_path)
    with click.progressbar(length=n_games, label=f"simulating {kind}", file=sys.stderr, show_eta=True) as bar:
        events = simulate_games(game, archive, n_games, player_range, bot_names, seed, pack, bar.update, workers)
    click.echo(f"simulated {n_games} {kind} games ({events} events) into {archive_path}")


@click.group()
def rules() -> None:
    """Inspect rules packs: the data (dice, boards, costs, options) a game is played under.

    \b
    Example:
      replay rules list
      replay rules show 7wd-default --part options
      replay rules validate my-corrected-pack.json
      replay rules diff 7wd-default my-corrected-pack.json
      replay rules impact 7wd-default my-corrected-pack.json
    """


@rules.command(name="list")
@click.option("--game", "kind", help="only this game kind")
def rules_list(kind: str | None) -> None:
    """List the shipped packs with their versions and content hashes."""
    rows = [{"game": g.kind, "name": name, "id": p.id, "version": p.version, "content_hash": p.content_hash[:19] + "…"}
            for g, name, p in pack_service.shipped(kind)]
    click.echo(render(rows, ["game", "name", "id", "version", "content_hash"], "table"), nl=False)


@rules.command(name="show")
@click.argument("pack")
@click.option("--game", "kind", help="game kind, when a file could belong to several")
@click.option("--part", help="only this top-level part (e.g. options, dice, cities)")
@click.option("--provenance", is_flag=True, help="where each part's facts come from, and how sure we are")
def rules_show(pack: str, kind: str | None, part: str | None, provenance: bool) -> None:
    """Print a pack (shipped name or file) as JSON; its id, version and content hash go to standard
    error, so the output is a pack file as it is.

    \b
    Example:
      replay rules show pig-standard > my-pig.json     # edit, then: replay rules validate my-pig.json
      replay rules show 7wd-default --part options
    """
    _, loaded = pack_service.load(pack, kind)
    click.echo(f"# {loaded.id} {loaded.version} {loaded.content_hash}", err=True)
    if provenance:
        rows = [{"part": p, "source": s, "confidence": c} for p, s, c in loaded.provenance()]
        click.echo(render(rows, ["part", "confidence", "source"], "table", max_width=90), nl=False)
        return
    data = loaded.model_dump(mode="json")
    if part:
        if part not in data:
            raise click.ClickException(f"no part {part!r}; parts: {', '.join(data)}")
        data = data[part]
    click.echo(json.dumps(data, indent=2))


@rules.command(name="validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True))
@click.option("--game", "kind", help="game kind of the packs")
def rules_validate(files: tuple[str, ...], kind: str | None) -> None:
    """Check pack files; every problem names the file and the path inside it. Exit 1 on any."""
    failed = False
    for f in files:
        try:
            _, loaded = pack_service.load(f, kind)
            click.echo(f"{f}: OK ({loaded.id} {loaded.version}, {loaded.content_hash})")
        except ReplayError as exc:  # reported per file; the others are still checked
            failed = True
            click.echo(str(exc), err=True)
    if failed:
        sys.exit(1)


@rules.command(name="store")
@click.option("--ruleset", "ruleset_files", multiple=True, type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="a pack some games pin that is not shipped (repeatable)")
@archive_option
def rules_store(ruleset_files: tuple[Path, ...], archive_path: Path) -> None:
    """Keep in the archive every pack its games pin (an archive from before packs were kept).

    Exit 1 if a game pins a pack that is neither shipped nor given with --ruleset.

    \b
    Example:
      replay rules store -a old-archive && replay verify -a old-archive
    """
    stored, missing = pack_service.keep_pinned(Archive(archive_path), pack_service.load_files(ruleset_files))
    for line in stored:
        click.echo(f"stored {line}")
    for line in missing:
        click.echo(line, err=True)
    click.echo(f"{len(stored)} pack(s) stored; {len(missing)} game(s) pin a pack that cannot be found")
    if missing:
        sys.exit(1)


@rules.command(name="diff")
@click.argument("old")
@click.argument("new")
@click.option("--game", "kind", help="game kind of the packs")
def rules_diff(old: str, new: str, kind: str | None) -> None:
    """What changed between two packs, path by path (exit 1 if they differ)."""
    _, a = pack_service.load(old, kind)
    _, b = pack_service.load(new, kind)
    changes = list(pack_service.differences(a.model_dump(mode="json"), b.model_dump(mode="json")))
    for path, before, after in changes:
        click.echo(f"{path}: {json.dumps(before)} -> {json.dumps(after)}")
    click.echo(f"{len(changes)} difference(s): {a.content_hash} -> {b.content_hash}")
    if changes:
        sys.exit(1)


@rules.command(name="impact")
@click.argument("old")
@click.argument("new")
@click.option("--game", "kind", help="game kind of the packs, when a file could belong to several")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@reading_archive_option
def rules_impact(old: str, new: str, kind: str | None, fmt: str, archive_path: Path | str) -> None:
    """What NEW, a corrected pack, would change in the archived games pinned to OLD.

    Every game pinned to OLD (same id, version and content hash) is replayed twice,
    leniently: under OLD, as it was played, and under NEW in OLD's place. The report
    counts the games whose result (winners, ranking, scores by category) changes, those
    whose replay finds more problems under NEW, and names, for each changed game, the
    first event after which the two replays' states differ. Nothing in the archive is
    written: the games keep pinning OLD.

    OLD and NEW are a shipped pack's name or a pack file; OLD may also be the content
    hash of a pack kept in the archive (sha256:..., a beginning only it has will do).
    Exit 0 whether or not results change; 1 on errors.

    \b
    Example:
      replay rules impact 7wd-default my-corrected-pack.json
      replay rules impact sha256:6c096add my-corrected-pack.json -a club --format json
    """
    archive = Archive.for_reading(archive_path)
    game, old_pack = pack_service.locate(old, kind, archive)
    _, new_pack = pack_service.load(new, game.kind)
    with click.progressbar(length=1, label="replaying", file=sys.stderr, show_eta=True) as bar:
        report = impact(archive, game, old_pack, new_pack, progress=bar.update,
                        total=lambda n: setattr(bar, "length", max(1, n)))
    if fmt == "json":
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        click.echo(report.to_text(), nl=False)
