"""Commands that write a game for people to look at: ``view`` (the replay page) and ``bundle``."""

from __future__ import annotations

import re
from pathlib import Path

import click

from ..services.bundle import bundle_kind, make_bundle, page_html
from ..services.logs import Log, load_log
from ..services.packs import load_files
from .options import F, archive_option, game_option, ruleset_option
from .output import output_path

notation_game = game_option("the game of a notation file without a [Kind] tag")


def _one_or_two_games(f: F) -> F:
    """GAME [OTHER] and what finds and replays them (--ruleset, --game, --archive)."""
    f = archive_option(notation_game(ruleset_option(f)))
    return click.argument("games", nargs=-1, required=True, metavar="GAME [OTHER]")(f)


def _logs(games: tuple[str, ...], archive_path: Path, kind: str | None) -> list[Log]:
    if len(games) > 2:
        raise click.UsageError("give one game, or two versions of one game")
    return [load_log(g, archive_path, kind) for g in games]


def _default_name(game: str, suffix: str) -> Path:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(game).stem if Path(game).exists() else game).strip("._") or "game"
    return Path(f"{stem}{suffix}")


@click.command()
@_one_or_two_games
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="the page to write (default: GAME.html in the current directory)")
def view(games: tuple[str, ...], output: Path | None, ruleset_files: tuple[Path, ...], kind: str | None,
         archive_path: Path) -> None:
    """Write a game's replay page: one HTML file that opens from disk in any browser.

    GAME is a game id in the archive, or a file (.jsonl or notation). The page has
    a scrubber over every event (← → an event, shift+← → a turn, Home/End), each
    seat's board at that step with what the event changed highlighted, the
    audit's problems marked on the timeline (click one to jump to it), the log in
    the game's notation, the score progression, and for a game with hidden
    information a choice of whose view to show. With OTHER (another version of
    the same game) the two are shown side by side from their first difference.

    \b
    Example:
      replay view 7wonders-dice-s7-000000 -o game.html
      replay view anas-version.txt bens-version.txt -o dispute.html
    """
    logs = _logs(games, archive_path, kind)
    target = output or _default_name(games[0], ".html")
    html = page_html(logs, load_files(ruleset_files, logs[0].game.kind))
    with output_path(target) as tmp:
        tmp.write_text(html, encoding="utf-8")
    click.echo(f"wrote {target} ({len(html.encode('utf-8')) // 1024 + 1} KB): open it in a browser")


@click.command()
@_one_or_two_games
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="NAME.zip, or NAME.html for one page with the files attached (default: GAME-dispute.zip)")
def bundle(games: tuple[str, ...], output: Path | None, ruleset_files: tuple[Path, ...], kind: str | None,
           archive_path: Path) -> None:
    """Write everything needed to settle a dispute without the tool.

    The bundle holds the game's events (JSON Lines, and its notation), the rules
    pack it pinned, the audit report (text and JSON), and the replay page that
    shows them (the same as `replay view`). With OTHER, both versions are in it and
    the page shows them side by side from their first difference.

    \b
    Example:
      replay bundle 7wonders-dice-s7-000000-disputed -o dispute.zip
      replay bundle anas-version.txt bens-version.txt -o dispute.html
    """
    target = output or _default_name(games[0], "-dispute.zip")
    kind_of_file = bundle_kind(target)
    logs = _logs(games, archive_path, kind)
    payload, names = make_bundle(logs, kind_of_file, load_files(ruleset_files, logs[0].game.kind))
    with output_path(target) as tmp:
        tmp.write_bytes(payload)
    size = f"{len(payload) // 1024 + 1} KB"
    if kind_of_file == "html":
        click.echo(f"wrote {target} ({size}): the replay page, with {', '.join(names)} attached")
    else:
        click.echo(f"wrote {target} ({size}): {', '.join(names)}")
