"""One archive, several game kinds: projection per game, SQL across kinds, honest notes when the
derived tables are missing or behind."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from replay.analytics.project import project
from replay.analytics.sql import connect, freshness, run_sql
from replay.archive import NEW_STREAM, Archive
from replay.cli.main import cli
from replay.driver import replay
from replay.games.pig import GAME as PIG
from replay.games.wonders_dice import GAME as WD
from replay.registry import registry
from replay.services.simulation import simulate_games


@pytest.fixture
def mixed(tmp_path):
    """Pig and 7 Wonders Dice games, one Pig game still in progress, one 7WD game whose start is unplayable."""
    archive = Archive.init(tmp_path / "mixed")
    simulate_games(PIG, archive, 6, (2, 4), (), seed=3)
    simulate_games(WD, archive, 5, (2, 4), (), seed=4)
    live = PIG.bots.simulate("pig-live", ["Ana", "Ben"], 99, PIG.bots.default, PIG.pack())
    archive.append("pig-live", live[:12], NEW_STREAM)
    bad = WD.bots.simulate("wd-bad", ["Ana", "Ben"], 5, WD.bots.default, WD.pack())
    seats = bad[0].payload["seats"]
    bad[0] = bad[0]._replace(payload={**bad[0].payload, "seats": [seats[0], {**seats[1], "city": seats[0]["city"]}]})
    archive.append("wd-bad", bad, NEW_STREAM)
    return archive, live


def test_projection_projects_the_good_games_and_names_the_bad_one(mixed):
    archive, _ = mixed
    result = project(archive)
    assert result.games == 11 and result.live == 1
    assert list(result.skipped) == ["wd-bad"] and "start.seats" in result.skipped["wd-bad"]
    con = connect(archive)
    rows = run_sql(con, "SELECT kind, status, count(*) AS n FROM games GROUP BY ALL ORDER BY ALL").to_pylist()
    assert rows == [{"kind": "7wonders-dice", "status": "finished", "n": 5},
                    {"kind": "pig", "status": "finished", "n": 6},
                    {"kind": "pig", "status": "in progress", "n": 1}]
    again = project(archive)
    assert again.games == 0 and again.already == 11 and again.live == 1 and list(again.skipped) == ["wd-bad"]
    stats = CliRunner().invoke(cli, ["stats", "-a", str(archive.root)]).output
    assert "1 game(s) could not be projected" in stats and "wd-bad:" in stats


def test_one_query_spans_both_kinds_and_agrees_with_the_replays(mixed):
    archive, _ = mixed
    project(archive)
    con = connect(archive)
    got = {(r["kind"], r["game_id"]): (r["winners"], r["scores"], r["events"], r["problems"])
           for r in run_sql(con, "SELECT * FROM games WHERE status = 'finished'").to_pylist()}
    expected = {}
    for g in archive.games():
        if g.status != "finished" or g.game_id == "wd-bad":
            continue
        events = archive.read_game(g.game_id)
        game = registry.get(g.kind)
        result = game.views.result(replay(game, events, archive.library(g.kind)).state)
        expected[(g.kind, g.game_id)] = (list(result.winners), [s.total for s in sorted(result.scores, key=lambda s: s.seat)],
                                         len(events), 0)
    assert got == expected
    per_kind = run_sql(con, "SELECT p.kind, count(*) AS seats, sum(CASE WHEN won THEN 1 ELSE 0 END) AS wins "
                            "FROM players p JOIN games g USING (game_id) WHERE g.status = 'finished' "
                            "GROUP BY ALL ORDER BY ALL").to_pylist()
    assert {r["kind"] for r in per_kind} == {"pig", "7wonders-dice"} and all(r["wins"] >= 1 for r in per_kind)
    # each game's own tables, under its own schema, and its typed events
    assert run_sql(con, "SELECT count(DISTINCT game_id) AS n FROM pig.turns").to_pylist() == [{"n": 6}]
    assert run_sql(con, "SELECT count(DISTINCT game_id) AS n FROM wonders_dice.actions").to_pylist() == [{"n": 5}]
    assert run_sql(con, "SELECT max(die_rolled.face) AS top FROM pig.events").to_pylist()[0]["top"] <= 6


def test_queries_say_when_the_derived_tables_are_missing_or_behind(mixed):
    archive, live = mixed
    notes = freshness(archive)
    assert any("pig: no derived tables yet" in n for n in notes)
    project(archive)
    assert freshness(archive) == ["7wonders-dice: 1 game(s) could not be projected (see `replay stats`)"]
    archive.append("pig-live", live[12:], 11)  # the live game ends
    notes = freshness(archive)
    assert any(n.startswith("pig: the derived tables cover 6 of 7 games") for n in notes)
    result = CliRunner().invoke(cli, ["query", "-a", str(archive.root), "SELECT count(*) AS n FROM games"])
    assert result.exit_code == 0 and "run `replay project`" in result.output  # the note (on standard error)
    project(archive)
    assert not [n for n in freshness(archive) if "cover" in n]


def test_a_layout_change_rebuilds_the_derived_tables(mixed):
    archive, _ = mixed
    project(archive, [PIG])
    manifest = archive.root / "derived" / "pig" / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"layout": "', '"layout": "old-'))
    assert any("older layout" in n for n in freshness(archive))
    again = project(archive, [PIG])
    assert again.rebuilt == ["pig"] and again.games == 6
    assert run_sql(connect(archive), "SELECT count(*) AS n FROM games WHERE kind = 'pig'").to_pylist() == [{"n": 7}]
