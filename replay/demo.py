"""``replay demo``: a tour of the tool on simulated games, start to finish.

It uses only the game contract and the services the commands use, so it shows
every installed game that has bots, without knowing any of their rules.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from .analytics.project import project
from .analytics.sql import all_queries, connect, find_query, run_named
from .archive import NEW_STREAM, Archive, StreamAppend
from .archive.compact import compact
from .archive.fsutil import atomic_write
from .archive.verify import verify
from .errors import DuplicateAppend, ReplayError
from .registry import registry
from .services.audit import audit
from .services.bundle import page_html
from .services.logs import load_log
from .services.review import open_review
from .services.simulation import player_counts, simulate_games, simulated
from .tables import render


def run_demo(archive_path: Path | None, n_games: int, seed: int, echo: Callable[[str], None],
             kinds: Sequence[str] = ()) -> None:
    games = [registry.get(k) for k in kinds] if kinds else [g for g in registry.games() if g.bots is not None]
    if not games:
        raise ReplayError("no installed game has bots to simulate with")
    for g in games:
        g.require("bots")
    root = archive_path or Path(tempfile.mkdtemp(prefix="replay-demo-")) / "archive"
    archive = Archive.init(root)
    echo(f"1. A new archive in {root}\n")

    for g in games:
        low, high = g.players
        simulate_games(g, archive, n_games, (max(low, 2), min(high, 4)), (), seed)
    g = games[0]
    first_count = player_counts(n_games, (max(g.players[0], 2), min(g.players[1], 4)), seed)[0]
    again = simulated(g, seed, 0, first_count, g.require("bots").default, g.pack())
    state = archive.snapshot()
    echo(f"2. Simulated {n_games} games of each of {', '.join(g.title for g in games)} (seed {seed}, each game's "
         f"default bots): {sum(s.last_seq + 1 for s in state.streams.values())} events in {len(state.files)} files, "
         f"with the rules pack each game pins stored beside them.\n")

    first = again[0].game_id
    same = archive.read_game(first) == again
    try:
        archive.append(first, archive.read_game(first)[:3], NEW_STREAM)
    except DuplicateAppend as exc:
        echo(f"3. {first} read back from the archive is identical to the simulated events: {same}.\n"
             f"   Appending its first events again is refused:\n   {exc}\n")

    rows = [{"game_id": g.game_id, "kind": g.kind, "players": list(g.players), "events": g.events, "status": g.status}
            for g in archive.games()[:: max(1, n_games)]]
    echo("4. Some games (replay games):\n" + _indent(render(rows, ["game_id", "kind", "players", "events", "status"],
                                                           "table")))
    report = verify(archive)
    echo(f"5. replay verify: {'OK' if report.ok else 'PROBLEMS'}: {report.files} files, {report.games} games, "
         f"{report.events} events, {report.packs} packs.\n")
    result = compact(archive)
    report = verify(archive)
    echo(f"6. replay compact: {result.files_before} files -> {result.files_after}; verify again: "
         f"{'OK' if report.ok else 'PROBLEMS'} ({report.events} events).\n")

    for g in games:
        game_id = next(i for i, s in sorted(archive.snapshot().streams.items()) if s.kind == g.kind)
        found = audit(load_log(game_id, archive))
        echo(f"7. replay audit {game_id}: {'OK, no problem' if found.ok else 'problems'} "
             f"({', '.join(f'{k}: {v}' for k, v in found.checked.items())})\n" + _indent(found.summary))

    disputed = _disputed(archive)
    if disputed:
        echo(disputed)

    projected = project(archive)
    echo(f"9. replay project: {projected.games} games replayed into the derived tables "
         f"({', '.join(f'{n} {t}' for t, n in projected.rows.items() if n)}).\n")
    con = connect(archive)
    queries = all_queries(registry)
    table = run_named(con, find_query(queries, "games_by_kind"), {})
    echo("10. One SQL query across every kind (replay query --name games_by_kind):\n"
         + _indent(render(table.to_pylist(), table.column_names, "table")))
    shown = _page(archive, root.with_name(f"{root.name}-page.html"))
    echo(f"11. The replay page of {shown[0]} (replay view {shown[0]}): {shown[1]}\n"
         "   Open it in a browser: ← → step through the events, shift+← → the turns; the problems are marked on the "
         "timeline.\n")
    echo(f"Explore it yourself:\n   export REPLAY_ARCHIVE={root}\n   replay games\n   replay audit {first}\n"
         f"   replay step {first}\n   replay view {first}\n   replay query --list\n")


def _page(archive: Archive, target: Path) -> tuple[str, Path]:
    """Write the replay page of the disputed game (else the first game): (its id, the page's path)."""
    streams = archive.snapshot().streams
    game_id = next((g for g in sorted(streams) if g.endswith("-disputed")), min(streams))
    atomic_write(target, page_html([load_log(game_id, archive)]).encode("utf-8"))
    return game_id, target


def _disputed(archive: Archive) -> str:
    """Copy one game with a written claim changed (each game says which: ``Views.dispute``), then
    audit it and show the table at the problem."""
    for game_id, stream in sorted(archive.snapshot().streams.items()):
        events = archive.read_game(game_id)
        dispute = archive.registry.get(stream.kind).views.dispute(events)
        if dispute is None:
            continue
        i, payload, what = dispute
        copy = f"{game_id}-disputed"
        altered = [e._replace(game_id=copy) for e in events]
        altered[i] = altered[i]._replace(payload=payload)
        archive.append_many([StreamAppend(copy, NEW_STREAM, altered)])
        found = audit(load_log(copy, archive))
        review = open_review(copy, archive)
        at = review.problem_indexes()[0]
        shown = "\n".join(review.show(at).splitlines()[:6])
        return (f"8. A disputed game: {copy} is {game_id} with {what}. replay audit {copy}:\n"
                + _indent("\n".join(str(p) for p in found.problems))
                + f"   It can still be stepped through and shown at every event; at event {at} "
                  f"(replay show {copy} --at seq:{at}):\n" + _indent(shown))
    return ""


def _indent(text: str) -> str:
    return "".join(f"   {line}\n" for line in text.rstrip("\n").splitlines())
