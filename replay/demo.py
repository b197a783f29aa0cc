"""``replay demo``: a tour of the archive on simulated games, start to finish.

It only uses the plug-in interface (``simulate``, ``fold``, ``render``), so it
shows whichever game is asked for without knowing its rules.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from .archive import NEW_STREAM, Archive
from .archive.compact import compact
from .archive.verify import verify
from .cli.output import render
from .errors import DuplicateAppend, ReplayError
from .plugin import registry

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]
"""Player counts cycle 2, 3, 4 across the demo's games."""


def run_demo(
    archive_path: Path | None, n_games: int, seed: int, echo: Callable[[str], None], kind: str = "7wonders-dice"
) -> None:
    plugin = registry.get(kind)
    if plugin.simulate is None:
        raise ReplayError(f"the {kind} plug-in cannot simulate games")
    root = archive_path or Path(tempfile.mkdtemp(prefix="replay-demo-")) / "archive"
    archive = Archive.init(root)
    echo(f"1. A new archive in {root}\n")

    games = []
    for i in range(n_games):
        names = NAMES[: 2 + (seed + i) % 3]
        game_id = f"{kind}-{seed}-{i:04d}"
        games.append(plugin.simulate(game_id, names, seed * 100_003 + i, plugin.bots))
    for events in games:
        half = len(events) // 2  # appended in two steps, as a live recorder would
        archive.append(events[0].game_id, events[:half], NEW_STREAM)
        archive.append(events[0].game_id, events[half:], half - 1)
    total = sum(len(g) for g in games)
    echo(f"2. Simulated {n_games} {plugin.title} games (seed {seed}; bots {', '.join(plugin.bots)}, one per seat in turn) "
         f"and appended each in two commits: "
         f"{total} events, {len(archive.snapshot().files)} files.\n")

    try:
        archive.append(games[0][0].game_id, games[0][:3], NEW_STREAM)
    except DuplicateAppend as exc:
        echo(f"3. Appending a game's first events again is refused:\n   {exc}\n")

    rows = [{"game_id": g.game_id, "players": list(g.players), "events": g.events, "status": g.status}
            for g in archive.games()[:5]]
    echo("4. The first games (replay games):\n" + _indent(render(rows, ["game_id", "players", "events", "status"], "table")))

    report = verify(archive)
    echo(f"5. replay verify: {'OK' if report.ok else 'PROBLEMS'}: {report.files} files, {report.games} games, {report.events} events.\n")

    result = compact(archive)
    report = verify(archive)
    echo(f"6. replay compact: {result.files_before} files -> {result.files_after}; verify again: "
         f"{'OK' if report.ok else 'PROBLEMS'} ({report.events} events).\n")

    game_id = games[0][0].game_id
    events = archive.read_game(game_id)
    echo(f"7. Replaying {game_id} from the archive ({len(events)} events, every rule checked):")
    if plugin.fold is not None:
        state = plugin.fold(events)
        echo(_indent(plugin.render(state) if plugin.render else repr(state)))
    same = events == games[0]
    echo(f"   The events read back are identical to the simulated ones: {same}.\n")

    if plugin.derive is not None:
        from .analytics.project import project
        from .analytics.sql import connect, load_queries, run_named

        project(archive, plugin)
        table = run_named(connect(archive, kind), load_queries()["score_and_length_by_players"], {})
        echo("8. SQL across the games (replay project; replay query --name score_and_length_by_players):\n"
             + _indent(render(table.to_pylist(), table.column_names, "table")))
    echo(f"Explore it yourself:\n   export REPLAY_ARCHIVE={root}\n   replay games\n   replay audit {game_id}\n"
         f"   replay step {game_id}\n   replay query --list\n")


def _indent(text: str) -> str:
    return "".join(f"   {line}\n" for line in text.rstrip("\n").splitlines())
