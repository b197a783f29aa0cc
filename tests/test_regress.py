"""regress: after a change of code, the projected games whose end (final state hash, winners, score totals)
is no longer the recorded one, and only those; the games expected are worked out here, replay by replay."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from replay.analytics.project import derived_dir, project
from replay.archive import NEW_STREAM, Archive
from replay.cli.main import cli
from replay.driver import replay
from replay.games.pig import GAME as PIG
from replay.games.pig.rules import PigRules
from replay.games.wonders_dice import GAME as WD
from replay.jsonl import import_lines
from replay.services.regress import regress
from replay.services.simulation import simulate_games

FIXTURES = Path(__file__).parent.parent / "fixtures" / "7wd"
GOLDEN = ("7wd-golden-2p", "7wd-golden-4p")


def _first_hold(events):
    return next(e.seq for e in events if e.type == "held")


@pytest.fixture(scope="module")
def projected(tmp_path_factory):
    """The golden 7 Wonders Dice games, simulated 7 Wonders Dice and Pig games, and two Pig games in
    progress, projected; then both games in progress go on, and one more game is added, unprojected.

    Returns the archive, how many events the projection saw of each projected game, and how each of
    those ends when replayed here before any change of code."""
    archive = Archive.init(tmp_path_factory.mktemp("regress") / "archive")
    for name in ("golden-2p", "golden-4p"):
        path = FIXTURES / f"{name}.jsonl"
        import_lines(archive, path.read_text().splitlines(keepends=True), source=str(path))
    simulate_games(WD, archive, 4, (2, 4), seed=4)
    simulate_games(PIG, archive, 6, (2, 4), seed=3)
    early = PIG.bots.simulate("pig-early", ["Ana", "Ben"], 21, PIG.bots.default, PIG.pack())
    later = PIG.bots.simulate("pig-later", ["Ana", "Ben", "Chloe"], 22, PIG.bots.default, PIG.pack())
    early_seen = _first_hold(early)  # no hold yet when projected
    later_seen = _first_hold(later) + 4  # a hold and more
    archive.append("pig-early", early[:early_seen], NEW_STREAM)
    archive.append("pig-later", later[:later_seen], NEW_STREAM)
    result = project(archive, workers=1)
    assert result.live == 2 and not result.skipped
    archive.append("pig-early", early[early_seen:early_seen + 20], early_seen - 1)  # now with a hold
    archive.append("pig-later", later[later_seen:], later_seen - 1)  # now finished
    simulate_games(PIG, archive, 1, (2, 2), seed=8)  # not projected
    seen = {g.game_id: g.events for g in archive.games() if g.game_id != "pig-s8-000000"}
    seen.update({"pig-early": early_seen, "pig-later": later_seen})
    return archive, seen, ends(archive, seen)


def ends(archive, seen):
    """Each projected game's end, replayed here: (final state hash, winners, totals by seat)."""
    out = {}
    for game_id, n in seen.items():
        events = archive.read_game(game_id)
        game = archive.registry.get(events[0].kind)
        r = replay(game, events[:n], archive.library(game.kind))
        result = game.views.result(r.state)
        out[game_id] = (game.views.state_hash(r.state), list(result.winners),
                        [s.total for s in sorted(result.scores, key=lambda s: s.seat)])
    return out


def bank_one_more(monkeypatch):
    """A change of code: in Pig, holding banks one point more than the turn's total."""
    apply = PigRules._apply

    def banking_one_more(self, state, event):
        if event.type == "held" and not state.winners and event.payload["player"] == state.current:
            state.turn_total += 1
        return apply(self, state, event)

    monkeypatch.setattr(PigRules, "_apply", banking_one_more)


@pytest.fixture
def changed_code(monkeypatch):
    bank_one_more(monkeypatch)


def test_with_the_code_unchanged_every_projected_game_ends_as_recorded(projected):
    archive, seen, _ = projected
    report = regress(archive)
    assert report.ok and report.regressions == [] and report.failed == {}
    assert report.checked == len(seen) == 14 and set(GOLDEN) <= set(seen)
    assert report.not_projected == 1
    assert {k.kind: (k.checked, k.not_projected) for k in report.kinds} == {WD.kind: (6, 0), PIG.kind: (8, 1)}
    assert not any(k.older_layout or k.without_hash for k in report.kinds)


def test_a_change_of_code_names_exactly_the_games_it_changes(projected, changed_code):
    archive, seen, recorded = projected
    now = ends(archive, seen)  # the change is in force: how the changed code replays each game
    affected = {g for g in seen if now[g] != recorded[g]}
    assert affected == {g for g in seen if g.startswith("pig-")} - {"pig-early"}  # it had no hold when projected
    report = regress(archive)
    assert not report.ok and report.checked == 14
    assert [r.game_id for r in report.regressions] == sorted(affected)
    for r in report.regressions:
        state_hash, winners, scores = now[r.game_id]
        assert (r.now.state_hash, list(r.now.winners), list(r.now.scores)) == (state_hash, winners, scores)
        assert (r.recorded.state_hash, list(r.recorded.winners), list(r.recorded.scores)) == recorded[r.game_id]
        assert r.differs == tuple(name for name, i in (("state", 0), ("winners", 1), ("scores", 2))
                                  if now[r.game_id][i] != recorded[r.game_id][i])


def test_the_command_exits_1_when_a_game_ends_differently(projected, monkeypatch):
    archive, seen, recorded = projected
    runner = CliRunner()
    same = runner.invoke(cli, ["regress", "-a", str(archive.root)])
    assert same.exit_code == 0, same.output
    assert "checked 14 game(s)" in same.stdout and "1 game(s) not projected yet" in same.stdout
    assert "no difference" in same.stdout
    only_wd = json.loads(runner.invoke(cli, ["regress", "-a", str(archive.root), "--game", WD.kind,
                                             "--format", "json"]).stdout)
    assert (only_wd["ok"], only_wd["checked"], only_wd["not_projected"]) == (True, 6, 0)
    assert "Example" in runner.invoke(cli, ["regress", "--help"]).output

    bank_one_more(monkeypatch)
    changed = runner.invoke(cli, ["regress", "-a", str(archive.root)])
    assert changed.exit_code == 1
    named = [g for g in seen if g in changed.stdout]
    assert named and set(named) <= {g for g in seen if g.startswith("pig-")} and "pig-early" not in named
    as_json = runner.invoke(cli, ["regress", "-a", str(archive.root), "--format", "json"])
    assert as_json.exit_code == 1
    data = json.loads(as_json.stdout)
    assert data["ok"] is False and data["differ"] == len(named) == len(data["games"])
    assert runner.invoke(cli, ["regress", "-a", str(archive.root), "--game", WD.kind]).exit_code == 0


def test_a_record_of_an_older_layout_without_state_hashes_is_checked_on_the_results(projected, changed_code,
                                                                                      tmp_path):
    """Tables projected by a replay from before state hashes: read all the same, compared on winners and scores."""
    archive, seen, recorded = projected
    older = Archive(shutil.copytree(archive.root, tmp_path / "older"))
    for kind in (WD.kind, PIG.kind):
        root = derived_dir(older, kind)
        for part in (root / "games").iterdir():
            table = pq.read_table(part)
            pq.write_table(table.drop_columns(["state_hash"]), part)
        manifest = json.loads((root / "manifest.json").read_text())
        (root / "manifest.json").write_text(json.dumps({**manifest, "layout": "an-older-one"}))
    now = ends(older, seen)
    report = regress(older)
    assert all(k.older_layout and k.without_hash == k.checked for k in report.kinds) and report.checked == 14
    assert [r.game_id for r in report.regressions] == sorted(g for g in seen if now[g][1:] != recorded[g][1:])
    assert report.regressions and all("state" not in r.differs for r in report.regressions)
