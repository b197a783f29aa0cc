"""``replay plot`` on a small simulated archive of every kind, drawn with the real matplotlib.

The data is checked against what the rest of the tool says independently: the score series
against the game's result after replaying only up to a step, and against the projector's own
tables at turn and round ends (``wonders_dice.turn_states.vp``, ``flip7.rounds.total_after``)
and at the end (the core ``players`` table); the archive plots' queries against the events and
the ``dice_fairness`` query. The files are checked by their bytes (PNG signature and size, SVG
ids per seat and per group, the same bytes for the same data), the errors by what they name.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from replay.analytics.sql import ask
from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.cli.main import cli
from replay.driver import Replay
from replay.jsonl import dump_line
from replay.registry import registry
from replay.services.logs import load_log
from replay.services.series import (
    ScoreSeries,
    dice_residuals,
    final_scores,
    game_lengths,
    game_progression,
    score_progression,
)
from replay.services.simulation import simulate_games, simulated

pytest.importorskip("matplotlib")

WD = registry.get("7wonders-dice")
FLIP7 = registry.get("flip7")
PIG = registry.get("pig")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    archive = Archive.init(tmp_path_factory.mktemp("plots") / "archive")
    simulate_games(WD, archive, 10, (2, 4), seed=3)
    simulate_games(FLIP7, archive, 6, (3, 5), ("odds", "stay20", "stay25"), seed=3)
    simulate_games(PIG, archive, 8, (2, 3), seed=3)
    result = CliRunner().invoke(cli, ["project", "-a", str(archive.root)])
    assert result.exit_code == 0, result.output
    return archive


def plot(archive: Archive | Path, *args: str) -> Result:
    root = archive.root if isinstance(archive, Archive) else archive
    return CliRunner().invoke(cli, ["plot", *args, "-a", str(root)])


def ok(archive: Archive, *args: str) -> Result:
    result = plot(archive, *args)
    assert result.exit_code == 0, result.output
    return result


def fails(archive: Archive | Path, *args: str) -> str:
    """The error of a plot that must fail: exit 1 or 2, one message, no traceback."""
    result = plot(archive, *args)
    assert result.exit_code in (1, 2), result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return " ".join(result.output.split())


def first(archive: Archive, kind: str) -> str:
    return sorted(g for g, s in archive.snapshot().streams.items() if s.kind == kind)[0]


def rows(archive: Archive, sql: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = ask(archive, sql).to_pylist()
    return out


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# ----------------------------------------------------------------------------- the series of one game


@pytest.mark.parametrize("kind", ["pig", "7wonders-dice", "flip7"])
def test_the_series_is_the_result_after_replaying_up_to_each_chosen_step(archive: Archive, kind: str) -> None:
    log = load_log(first(archive, kind), archive)
    library = log.library()
    series = score_progression(log.game, log.events, library)
    assert [p.index for p in series.points] == list(range(len(log.events)))
    assert [p.seq for p in series.points] == [e.seq for e in log.events]
    last = len(log.events) - 1
    for k in (0, 1, last // 3, last // 2, 2 * last // 3, last - 1, last):
        replay = Replay(log.game, library).run(log.events[:k + 1])
        result = log.game.views.result(replay.state)
        assert result is not None
        expected = tuple(s.total for s in sorted(result.scores, key=lambda s: s.seat))
        assert series.points[k].totals == expected, (kind, k)
    assert series.points[0].totals == (0,) * len(series.names)
    assert series.finished
    assert len(set(series.points[-1].totals)) > 1 or kind == "flip7"  # a game that moved somebody's score


@pytest.mark.parametrize("kind", ["pig", "7wonders-dice", "flip7"])
def test_the_last_point_is_the_projected_final_result(archive: Archive, kind: str) -> None:
    for game_id in sorted(g for g, s in archive.snapshot().streams.items() if s.kind == kind)[:3]:
        series = game_progression(game_id, archive)
        players = rows(archive, f"SELECT seat, name, total FROM players WHERE game_id = '{game_id}' ORDER BY seat")
        assert series.points[-1].totals == tuple(p["total"] for p in players)
        assert series.names == tuple(p["name"] for p in players)


def test_the_series_at_each_turn_end_is_the_projected_turn_state(archive: Archive) -> None:
    game_id = first(archive, "7wonders-dice")
    series, log = game_progression(game_id, archive), load_log(game_id, archive)
    ends = {e.payload["turn"]: i for i, e in enumerate(log.events) if e.type == "turn_ended"}
    states = rows(archive, f"SELECT turn, seat, vp FROM wonders_dice.turn_states WHERE game_id = '{game_id}'")
    assert len(states) == len(ends) * len(series.names) > 20
    for r in states:
        assert series.points[ends[r["turn"]]].totals[r["seat"]] == r["vp"], r


def test_the_series_at_each_round_end_is_the_projected_round_total(archive: Archive) -> None:
    game_id = first(archive, "flip7")
    series, log = game_progression(game_id, archive), load_log(game_id, archive)
    ends = [i for i, e in enumerate(log.events) if e.type == "round_ended"]
    totals = rows(archive, f"SELECT round, seat, total_after FROM flip7.rounds WHERE game_id = '{game_id}'")
    assert len(totals) == len(ends) * len(series.names)
    for r in totals:
        assert series.points[ends[r["round"] - 1]].totals[r["seat"]] == r["total_after"], r
    assert series.unit == "round"
    assert [n for _, n in series.boundaries()] == list(range(1, len(ends) + 1))


def test_turns_and_rounds_come_from_the_rules(archive: Archive) -> None:
    game_id = first(archive, "pig")
    series, log = game_progression(game_id, archive), load_log(game_id, archive)
    replay = Replay(PIG, log.library()).run(log.events[:1])
    for event, point in zip(log.events[1:], series.points[1:]):
        position = PIG.rules.position(replay.state, event)
        assert (point.turn, point.round) == (position.turn, position.round)
        replay.push(event)
    turns = rows(archive, f"SELECT turns FROM games WHERE game_id = '{game_id}'")[0]["turns"]
    assert series.unit == "turn" and [n for _, n in series.boundaries()] == list(range(1, turns + 1))
    assert series.points[0].label == "start" and series.points[-1].label == f"turn {turns}"


def test_an_unfinished_game_has_its_standing_so_far(archive: Archive) -> None:
    log = load_log(first(archive, "7wonders-dice"), archive)
    cut = log.events[:len(log.events) // 2]
    series = score_progression(log.game, cut, log.library())
    assert not series.finished and len(series.points) == len(cut)
    state = Replay(log.game, log.library()).run(cut).state
    result = log.game.views.result(state)
    assert result is not None and not result.finished
    assert series.points[-1].totals == tuple(s.total for s in sorted(result.scores, key=lambda s: s.seat))


def test_an_event_the_rules_refuse_is_counted_and_changes_no_total(archive: Archive) -> None:
    log = load_log(first(archive, "pig"), archive)
    held = next(i for i, e in enumerate(log.events) if e.type == "held")
    events = list(log.events)
    wrong = events[held]
    events[held] = wrong._replace(payload={**wrong.payload, "player": 1 - wrong.payload["player"]})  # out of turn
    series = score_progression(log.game, events, log.library())
    assert [p.index for p in series.points if p.problems][:1] == [held]
    assert series.points[held].totals == series.points[held - 1].totals
    assert score_progression(log.game, log.events, log.library()).points[held].totals != series.points[held].totals


def test_a_disputed_game_from_a_file_is_plotted_with_its_problems_marked(archive: Archive, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    log = load_log(first(archive, "pig"), archive)
    held = next(i for i, e in enumerate(log.events) if e.type == "held")
    events = list(log.events)
    events[held] = events[held]._replace(payload={**events[held].payload, "player": 1 - events[held].payload["player"]})
    (tmp_path / "disputed.jsonl").write_text("".join(dump_line(e) for e in events))
    (tmp_path / "clean.jsonl").write_text("".join(dump_line(e) for e in log.events))
    monkeypatch.chdir(tmp_path)
    result = ok(archive, "scores", "disputed.jsonl", "-o", "disputed.svg")
    assert 'id="problems"' in (tmp_path / "disputed.svg").read_text()
    result = ok(archive, "scores", "clean.jsonl")  # the default name: scores-<file stem>.png
    assert "scores-clean.png" in result.output and (tmp_path / "scores-clean.png").read_bytes()[:8] == PNG
    ok(archive, "scores", "clean.jsonl", "-o", "clean.svg")
    assert 'id="problems"' not in (tmp_path / "clean.svg").read_text()


# ----------------------------------------------------------------------------- the archive's data


def test_final_scores_are_the_projected_totals_by_city_and_by_strategy(archive: Archive) -> None:
    finished = rows(archive, "SELECT game_id, seat, total FROM players WHERE finished")
    core = {(r["game_id"], r["seat"]): r["total"] for r in finished}
    for game, group_by in ((WD, "city"), (FLIP7, "strategy")):
        data = final_scores(archive, game)
        assert data.group_by == group_by
        mine = {(r.game_id, r.seat): r.total for r in data.rows}
        assert mine == {k: v for k, v in core.items() if k[0].startswith(game.kind + "-")}
        assert sum(map(len, data.groups().values())) == len(data.rows)
    assert set(final_scores(archive, FLIP7).groups()) == {"odds", "stay20", "stay25"}
    cities = {r["city"] for r in rows(archive, "SELECT city FROM wonders_dice.players")}
    assert set(final_scores(archive, WD).groups()) == cities
    three = final_scores(archive, WD, players=3)
    assert three.rows and all(r.players == 3 for r in three.rows)


def test_game_lengths_count_each_games_events(archive: Archive) -> None:
    data = game_lengths(archive)
    streams = archive.snapshot().streams
    assert {r.game_id for r in data.rows} == set(streams)
    for r in data.rows:
        assert r.events == len(archive.read_game(r.game_id)) and r.kind == streams[r.game_id].kind
    assert {r.kind for r in game_lengths(archive, PIG).rows} == {"pig"}


def test_dice_residuals_square_to_the_dice_fairness_chi_square(archive: Archive) -> None:
    data = dice_residuals(archive, WD)
    fairness = {r["colour"]: r for r in ask(archive, _named("wonders_dice.dice_fairness")).to_pylist()
                if r["test"] == "faces"}
    by_colour = data.by_colour()
    assert set(by_colour) == set(fairness)
    for colour, faces in by_colour.items():
        assert sum(f.observed for f in faces) == fairness[colour]["rolls"]
        assert sum(f.expected for f in faces) == pytest.approx(float(fairness[colour]["rolls"]), abs=0.01)
        if all(f.observed for f in faces):  # dice_fairness counts only the faces that came up
            assert sum(f.residual ** 2 for f in faces) == pytest.approx(float(fairness[colour]["chi_square"]), abs=0.01)
    counted: dict[tuple[str, str], int] = {}
    for r in rows(archive, "SELECT colour, face FROM wonders_dice.dice"):
        counted[(r["colour"], r["face"])] = counted.get((r["colour"], r["face"]), 0) + 1
    assert {(r.colour, r.face): r.observed for r in data.rows if r.observed} == counted


def _named(name: str) -> Any:
    from replay.analytics.sql import all_queries, find_query

    return find_query(all_queries(registry), name)


# ----------------------------------------------------------------------------- the files


def test_a_png_is_a_png_of_the_plots_size(archive: Archive, tmp_path: Path) -> None:
    out = tmp_path / "scores.png"
    result = ok(archive, "scores", first(archive, "7wonders-dice"), "-o", str(out))
    assert str(out) in result.output
    data = out.read_bytes()
    assert png_size(data) == (1080, 576)  # 9 x 4.8 inches at 120 dpi
    assert 10_000 < len(data) < 400_000
    for args, name in ((["final-scores", "--game", "flip7"], "f.png"), (["lengths"], "l.png"), (["dice"], "d.png")):
        ok(archive, *args, "-o", str(tmp_path / name))
        width, height = png_size((tmp_path / name).read_bytes())
        assert width > 500 and height > 300
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.png", "f.png", "l.png", "scores.png"]  # no leftovers


@pytest.mark.parametrize("kind", ["pig", "7wonders-dice", "flip7"])
def test_the_svg_has_one_line_per_seat(archive: Archive, tmp_path: Path, kind: str) -> None:
    game_id = first(archive, kind)
    out = tmp_path / "scores.svg"
    ok(archive, "scores", game_id, "-o", str(out))
    svg = out.read_text()
    seats = len(game_progression(game_id, archive).names)
    assert svg.startswith("<?xml") and "</svg>" in svg
    for seat in range(seats):
        assert svg.count(f'id="seat-{seat}"') == 1, seat
    assert f'id="seat-{seats}"' not in svg
    assert "<dc:date>" not in svg


def test_the_same_data_gives_the_same_svg_bytes(archive: Archive, tmp_path: Path) -> None:
    game_id = first(archive, "7wonders-dice")
    a, b, other = tmp_path / "a.svg", tmp_path / "b.svg", tmp_path / "other.svg"
    ok(archive, "scores", game_id, "-o", str(a))
    ok(archive, "scores", game_id, "-o", str(b))
    ok(archive, "scores", sorted(g for g in archive.snapshot().streams if g.startswith("7wonders"))[1], "-o", str(other))
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != other.read_bytes()
    for args in (["final-scores", "--game", "7wonders-dice"], ["dice"], ["lengths", "--by", "turns"]):
        ok(archive, *args, "-o", str(a))
        ok(archive, *args, "-o", str(b))
        assert a.read_bytes() == b.read_bytes(), args


def test_the_archive_svgs_name_their_groups(archive: Archive, tmp_path: Path) -> None:
    out = tmp_path / "f.svg"
    ok(archive, "final-scores", "--kind", "wonders_dice", "-o", str(out))  # the SQL schema's name works too
    svg = out.read_text()
    for city in final_scores(archive, WD).groups():
        assert svg.count(f'id="group-{city}"') == 1, city
    ok(archive, "dice", "-o", str(out))
    svg = out.read_text()
    for r in dice_residuals(archive, WD).rows:
        assert f'id="die-{r.colour}-{r.face}"' in svg
    ok(archive, "lengths", "--game", "pig", "-o", str(out))
    svg = out.read_text()
    assert {n for (n,) in [(r.players,) for r in game_lengths(archive, PIG).rows]} == {2, 3}
    assert 'id="length-pig-2"' in svg and 'id="length-pig-3"' in svg and "length-flip7" not in svg


# ----------------------------------------------------------------------------- what is wrong, said once


def test_an_unknown_game_or_kind(archive: Archive, tmp_path: Path) -> None:
    assert "no game 'no-such-game'" in fails(archive, "scores", "no-such-game", "-o", str(tmp_path / "x.png"))
    assert "unknown game kind 'chess'" in fails(archive, "final-scores", "--game", "chess", "-o", str(tmp_path / "x.png"))
    assert not list(tmp_path.iterdir())


def test_a_kind_without_the_plot_says_which_kinds_have_it(archive: Archive, tmp_path: Path) -> None:
    message = fails(archive, "dice", "--game", "pig", "-o", str(tmp_path / "x.png"))
    assert "Pig has no dice plot" in message and "7wonders-dice" in message and "flip7" not in message
    message = fails(archive, "final-scores", "--game", "pig", "-o", str(tmp_path / "x.png"))
    assert "Pig has no final-scores plot" in message and "7wonders-dice, flip7" in message
    assert "--game KIND: 7wonders-dice or flip7" in fails(archive, "final-scores", "-o", str(tmp_path / "x.png"))


def test_an_archive_not_projected_says_to_run_project(tmp_path: Path) -> None:
    archive = Archive.init(tmp_path / "fresh")
    assert "no games yet" in fails(archive.root, "lengths", "-o", str(tmp_path / "l.png"))
    assert "holds no 7wonders-dice games" in fails(archive.root, "dice", "-o", str(tmp_path / "d.png"))
    simulate_games(WD, archive, 2, (2, 2), seed=1)
    for args in (["dice"], ["lengths"], ["final-scores", "--game", "7wonders-dice"]):
        message = fails(archive.root, *args, "-o", str(tmp_path / "x.png"))
        assert "run `replay project`" in message, args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh"]


def test_games_in_progress_are_not_counted_and_a_kind_behind_is_noted(tmp_path: Path) -> None:
    archive = Archive.init(tmp_path / "a")
    events = simulated(PIG, 9, 0, 2, ("hold20",), PIG.pack())
    archive.append_many([StreamAppend(events[0].game_id, NEW_STREAM, events[:10])], [PIG.pack()])
    assert CliRunner().invoke(cli, ["project", "-a", str(archive.root)]).exit_code == 0
    assert "pig: no game has finished yet (1 in progress)" in fails(archive.root, "lengths", "-o", str(tmp_path / "x.png"))
    simulate_games(PIG, archive, 3, (2, 2), seed=2)
    assert CliRunner().invoke(cli, ["project", "-a", str(archive.root)]).exit_code == 0
    simulate_games(WD, archive, 1, (2, 2), seed=2)  # not projected
    result = ok(archive, "lengths", "-o", str(tmp_path / "l.svg"))
    assert "wrote" in result.stdout and "3 games of pig" in result.stdout
    assert "7wonders-dice: no derived tables yet" in result.output and "run `replay project`" in result.output
    assert "run `replay project`" in fails(archive.root, "lengths", "--game", "7wonders-dice", "-o", str(tmp_path / "x.png"))


def test_only_png_and_svg(archive: Archive, tmp_path: Path) -> None:
    for name in ("scores.pdf", "scores", "scores.svg.txt"):
        message = fails(archive, "scores", first(archive, "pig"), "-o", str(tmp_path / name))
        assert "PNG or SVG" in message and ".png or .svg" in message, name
    ok(archive, "scores", first(archive, "pig"), "-o", str(tmp_path / "UPPER.SVG"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["UPPER.SVG"]


def test_an_unwritable_output_leaves_no_file(archive: Archive, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-dir" / "scores.png"
    assert "cannot write" in fails(archive, "scores", first(archive, "pig"), "-o", str(missing))
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if not _writable(locked):  # root may write anywhere
            assert "cannot write" in fails(archive, "scores", first(archive, "pig"), "-o", str(locked / "scores.svg"))
            assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["locked"]


def test_a_write_that_fails_half_way_leaves_the_old_file(archive: Archive, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from replay.plots import draw

    def half(fig: Any, path: Path, fmt: str) -> None:
        path.write_bytes(PNG + b"half a plot")
        raise OSError(28, "No space left on device", str(path))

    existing = tmp_path / "keep.png"
    existing.write_bytes(b"an older plot")
    monkeypatch.setattr(draw, "write", half)
    assert "cannot write" in fails(archive, "scores", first(archive, "pig"), "-o", str(existing))
    assert existing.read_bytes() == b"an older plot"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.png"]


def _writable(directory: Path) -> bool:
    try:
        (directory / ".probe").write_text("")
    except OSError:
        return False
    (directory / ".probe").unlink()
    return True


def test_without_matplotlib_one_line_says_how_to_install_it(archive: Archive, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    for args in (["scores", first(archive, "pig")], ["lengths"], ["dice"]):
        result = plot(archive, *args, "-o", str(tmp_path / "x.png"))
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "matplotlib" in lines[0] and "pip install 'boardgame-replay[plot]'" in lines[0]
    assert not list(tmp_path.iterdir())
    listing = CliRunner().invoke(cli, ["plot", "list"])
    assert listing.exit_code == 0 and "matplotlib is not installed: pip install" in listing.output


# ----------------------------------------------------------------------------- the help


def test_the_help_teaches_and_lists_the_plots(archive: Archive) -> None:
    runner = CliRunner()
    top = runner.invoke(cli, ["plot", "--help"]).output
    for example in ("replay plot scores GAME -o scores.svg", "replay plot final-scores", "replay plot lengths",
                    "replay plot dice", "replay plot list", "replay project"):
        assert example in top, example
    for command in ("scores", "final-scores", "lengths", "dice", "list"):
        assert "Example" in runner.invoke(cli, ["plot", command, "--help"]).output, command
    listing = runner.invoke(cli, ["plot", "list"]).output
    blocks = {b.split("\n")[0]: b for b in listing.split("\n") if b and not b.startswith(" ")}
    assert {"scores", "final-scores", "lengths", "dice"} <= set(blocks)
    finals = ", ".join(sorted(g.kind for g in registry.games() if g.analytics and "final_scores" in g.analytics.queries()))
    assert "kinds: 7wonders-dice\n" in listing and f"kinds: {finals}\n" in listing and "7wonders-dice, flip7" in finals
    every_kind = ", ".join(sorted(g.kind for g in registry.games()))  # the scores of any kind are drawn
    assert f"kinds: {every_kind}" in listing
    assert listing.strip().splitlines()[-1].startswith("matplotlib 3.")


def test_the_series_is_plain_data(archive: Archive) -> None:
    series = game_progression(first(archive, "flip7"), archive)
    assert isinstance(series, ScoreSeries)
    with pytest.raises(AttributeError):
        series.game_id = "x"  # type: ignore[misc]
    assert series.totals(0) == [p.totals[0] for p in series.points]
    assert series.points[-1].label.startswith("round ")
