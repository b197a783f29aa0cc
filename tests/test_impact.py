"""rules impact: what a corrected pack would change in the archive, checked against replays done here,
each game under each pack, with the pin rewritten (not through the command's stand-in library)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from replay.archive import Archive
from replay.cli.main import cli
from replay.contract import Result
from replay.driver import replay
from replay.errors import ReplayError
from replay.games.pig import GAME as PIG
from replay.games.wonders_dice import GAME as WD
from replay.services.impact import impact
from replay.services.simulation import simulate_games

OLD = WD.pack()
BUILDING, SPACE = "barracks_west", "axe2"


def corrected(pack, vp=12, version="0.1.1-axe2"):
    """``pack`` with the west Barracks' second axe attacking for ``vp`` (the shipped pack says 4)."""
    data = pack.model_dump(mode="json")
    building = next(b for b in data["buildings"] if b["id"] == BUILDING)
    [attack] = next(s for s in building["spaces"] if s["id"] == SPACE)["effects"]
    assert attack["type"] == "attack" and attack["vp"] != vp
    attack["vp"] = vp
    data["version"] = version
    return type(pack).model_validate(data)


NEW = corrected(OLD)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """60 7 Wonders Dice games under the shipped pack, 3 under a house pack, 4 Pig games."""
    archive = Archive.init(tmp_path_factory.mktemp("impact") / "archive")
    simulate_games(WD, archive, 60, (2, 4), seed=5)
    house = OLD.model_copy(update={"version": "0.1.0-house", "title": "house copy"})
    simulate_games(WD, archive, 3, (2, 3), seed=6, pack=house)
    simulate_games(PIG, archive, 4, (2, 3), seed=2)
    return archive, house


@pytest.fixture(scope="module")
def report(played):
    return impact(played[0], WD, OLD, NEW)


def under(events, pack):
    """A replay of ``events`` as if their start event had pinned ``pack``."""
    start = events[0]._replace(payload={**events[0].payload, "ruleset": pack.pin.model_dump()})
    return replay(WD, [start, *events[1:]], WD.library(extra=[pack]))


def outcome(result: Result):
    return result.winners, [(s.seat, s.total, s.rank, dict(s.categories)) for s in sorted(result.scores, key=lambda s: s.seat)]


def expected(archive, old, new):
    """(pinned, changed, other winners, more problems) worked out game by game."""
    pinned, changed, winners, more = [], [], [], []
    for info in archive.games():
        events = archive.read_game(info.game_id)
        if info.kind != WD.kind or events[0].payload["ruleset"] != old.pin.model_dump():
            continue
        pinned.append(info.game_id)
        a, b = under(events, old), under(events, new)
        before, after = outcome(WD.views.result(a.state)), outcome(WD.views.result(b.state))
        if before != after:
            changed.append(info.game_id)
        if before[0] != after[0]:
            winners.append(info.game_id)
        if len(b.problems) > len(a.problems):
            more.append(info.game_id)
    return pinned, changed, winners, more


def first_crossing(events):
    """The first event that crosses the corrected space: where the attack first scores differently."""
    return next(e.seq for e in events if e.type == "action_taken"
                and any(s["building"] == BUILDING and s["space"] == SPACE for s in e.payload["steps"]))


def test_the_games_whose_result_changes_are_named_and_counted(played):
    archive, _ = played
    generation = archive.snapshot().generation
    report = impact(archive, WD, OLD, NEW)
    pinned, changed, winners, more = expected(archive, OLD, NEW)
    assert report.pinned == len(pinned) == 60
    assert [g.game_id for g in report.changed] == sorted(changed)
    assert report.unchanged == 60 - len(changed)
    assert [g.game_id for g in report.changed if "winners" in g.changes] == sorted(winners)
    assert sorted(report.more_problems) == sorted(more)
    # the correction matters to some games, decides some, and leaves others alone
    assert 0 < len(winners) < len(changed) < 60
    assert archive.snapshot().generation == generation  # nothing was written


def test_each_changed_game_names_the_event_where_the_replays_part(played, report):
    archive, _ = played
    for g in report.changed:
        events = archive.read_game(g.game_id)
        assert g.divergence is not None
        assert g.divergence.index == first_crossing(events), g.game_id
        assert g.divergence.headline == WD.views.headline(events[g.divergence.index], list(g.names))
        a, b = under(events, OLD), under(events, NEW)
        assert g.old.scores == tuple(s.total for s in sorted(WD.views.result(a.state).scores, key=lambda s: s.seat))
        assert g.new.winners == tuple(WD.views.result(b.state).winners)
    assert report.diverged == len(report.changed)  # the VP is all that changes, and it always counts


def test_only_games_pinned_to_old_are_replayed(played):
    archive, house = played
    report = impact(archive, WD, house, corrected(house, version="0.1.1-house"))
    pinned, changed, _, _ = expected(archive, house, corrected(house, version="0.1.1-house"))
    assert report.pinned == len(pinned) == 3
    assert [g.game_id for g in report.changed] == sorted(changed)
    assert all(g.game_id.startswith("7wonders-dice-s6-") for g in report.changed)


def test_the_same_pack_or_another_kinds_pack_is_refused(played):
    archive, _ = played
    with pytest.raises(ReplayError, match="same pack"):
        impact(archive, WD, OLD, OLD)
    with pytest.raises(ReplayError, match="not a 7 Wonders Dice rules pack"):
        impact(archive, WD, OLD, PIG.pack())


def test_the_command_prints_the_report_as_text_and_json(played, report, tmp_path):
    archive, house = played
    new_file = tmp_path / "fixed.json"
    new_file.write_text(json.dumps(NEW.model_dump(mode="json")))
    runner = CliRunner()
    text = runner.invoke(cli, ["rules", "impact", "7wd-default", str(new_file), "-a", str(archive.root)])
    assert text.exit_code == 0, text.output
    assert f"{len(report.changed)} with a changed result ({report.other_winners} with other winners), " \
           f"{report.unchanged} unchanged" in text.stdout
    for g in report.changed:
        assert f"{g.game_id}: " in text.stdout
        assert f"first divergent event: {g.divergence.index}: {g.divergence.headline}\n" in text.stdout
    as_json = runner.invoke(cli, ["rules", "impact", "7wd-default", str(new_file), "-a", str(archive.root),
                                  "--format", "json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.stdout)
    assert (data["pinned"], data["changed"], data["unchanged"]) == (60, len(report.changed), report.unchanged)
    assert [g["game_id"] for g in data["games"]] == [g.game_id for g in report.changed]
    assert [g["first_divergence"]["event"] for g in data["games"]] == [g.divergence.index for g in report.changed]
    assert data["new"]["content_hash"] == NEW.content_hash

    # OLD as the content hash of a pack kept in the archive (a beginning of it will do)
    house_new = tmp_path / "house-fixed.json"
    house_new.write_text(json.dumps(corrected(house, version="0.1.1-house").model_dump(mode="json")))
    by_hash = runner.invoke(cli, ["rules", "impact", house.content_hash[:20], str(house_new), "-a", str(archive.root),
                                  "--format", "json"])
    assert by_hash.exit_code == 0, by_hash.output
    assert json.loads(by_hash.stdout)["pinned"] == 3
    assert "Example" in runner.invoke(cli, ["rules", "impact", "--help"]).output


def test_the_command_exits_1_on_errors_only(played, tmp_path):
    archive, _ = played
    runner = CliRunner()
    same = runner.invoke(cli, ["rules", "impact", "7wd-default", "7wd-default", "-a", str(archive.root)])
    assert same.exit_code == 1 and "same pack" in same.output
    unknown = runner.invoke(cli, ["rules", "impact", "sha256:0000", "7wd-default", "-a", str(archive.root)])
    assert unknown.exit_code == 1 and "sha256:0000" in unknown.output
    nothing = runner.invoke(cli, ["rules", "impact", "pig-standard", "7wd-default", "-a", str(archive.root)])
    assert nothing.exit_code == 1


def test_a_pack_no_game_is_pinned_to_is_reported_not_refused(played, tmp_path):
    archive, _ = played
    unused = tmp_path / "unused.json"
    unused.write_text(json.dumps(corrected(OLD, vp=9, version="0.1.2").model_dump(mode="json")))
    done = CliRunner().invoke(cli, ["rules", "impact", str(unused), "7wd-default", "-a", str(archive.root)])
    assert done.exit_code == 0, done.output
    assert "0 game(s) pinned to 7wd-default 0.1.2" in done.stdout and "nothing to compare" in done.stdout
