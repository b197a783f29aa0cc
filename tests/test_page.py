"""The replay page's data and files (the page in a real browser: tests/test_page_browser.py).

Every step the page can show is rebuilt here from its snapshots and patches, as the page does,
and compared with the state a straight replay gives at that step.
"""

from __future__ import annotations

import copy
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import disputed_log, simulated_log
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.archive import NEW_STREAM, Archive, StreamAppend
from replay.cli.main import cli
from replay.contract import Views
from replay.driver import Replay
from replay.page import assemble, script_json
from replay.registry import registry
from replay.services.bundle import make_bundle, page_html
from replay.services.logs import Log
from replay.services.page import ALL, apply_patch, page_data, page_state, patch, path_text
from replay.services.review import compare

# ----------------------------------------------------------------------------- patches

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "b", "c"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(["x", "y", "z", "w"]), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(json_values, json_values)
def test_a_patch_turns_one_value_into_the_other(a, b):
    before = copy.deepcopy(a)
    ops = patch(a, b)
    assert a == before, "patch() changed its input"
    assert apply_patch(copy.deepcopy(a), ops) == b
    assert json.loads(json.dumps(ops)) == ops  # the page reads it as JSON
    if a == b and type(a) is type(b):
        assert ops == []


def test_a_card_drawn_from_a_pile_is_a_small_splice():
    pile = [str(n) for n in range(80)]
    ops = patch({"draw": pile}, {"draw": pile[1:]})
    assert ops == [[["draw"], 0, 1, []]]
    assert path_text(["players", 2, "crossed", "agora"]) == "players[2].crossed.agora"


def test_applying_a_patch_never_shares_the_patch_s_objects():
    ops = patch({"a": []}, {"a": [1], "b": {"c": [2]}})
    state = apply_patch({"a": []}, ops)
    state["b"]["c"].append(3)
    assert apply_patch({"a": []}, ops) == {"a": [1], "b": {"c": [2]}}


# ----------------------------------------------------------------------------- the data


@pytest.mark.parametrize("kind,players", [("pig", 3), ("7wonders-dice", 4), ("flip7", 4)])
def test_every_step_of_the_page_is_the_replayed_state(kind, players):
    log = disputed_log(simulated_log(kind, 3, players)) if kind != "pig" else simulated_log(kind, 3, players)
    data = page_data([log])
    version = data["versions"][0]
    game = log.game
    r = Replay(game)
    assert len(version["events"]) == len(log.events)
    for i, event in enumerate(log.events):
        step = r.push(event)
        assert page_state(version, ALL, i, data["keyframe_every"]) == game.views.data(r.state), f"event {i}"
        for seat, name in enumerate(r.names if game.views.hides(r.state) else []):
            assert page_state(version, name, i, data["keyframe_every"]) == game.views.observe(r.state, seat)
        assert version["events"][i]["headline"] == game.views.headline(event, r.names)
        assert version["events"][i]["seat"] == step.position.seat
        result = game.views.result(r.state)
        assert version["totals"][i] == [s.total for s in sorted(result.scores, key=lambda s: s.seat)]


def test_the_audit_s_problems_are_at_their_events():
    log = disputed_log(simulated_log("7wonders-dice", 5, 3))
    i, _, _ = log.game.views.dispute(simulated_log("7wonders-dice", 5, 3).events)
    version = page_data([log])["versions"][0]
    assert [p["event"] for p in version["problems"]] == [i]
    problem = version["problems"][0]
    assert problem["rule_id"].startswith("claim.") and problem["expected"] != problem["found"]
    assert not version["audit"]["ok"]


def test_a_seat_s_view_hides_the_draw_pile_s_order():
    version = page_data([simulated_log("flip7", 4, 3)])["versions"][0]
    assert set(version["names"]) <= set(version["views"]) | set(version["view_alias"])
    for name in version["names"]:
        first = page_state(version, name, 0)
        assert isinstance(first["draw"], dict) and "count" in first["draw"]
        text = json.dumps(version["views"][version["view_alias"].get(name, name)])
        whole = json.dumps(version["views"][ALL]["keyframes"]["0"]["draw"])
        assert whole not in text


def test_two_versions_start_differing_where_diff_says():
    log = simulated_log("7wonders-dice", 6, 3)
    other = disputed_log(log)
    data = page_data([log, other])
    assert data["first_difference"] == compare(log, other).first
    assert [v["label"] for v in data["versions"]] == [log.source, other.source]
    with pytest.raises(Exception, match="only two versions of one game"):
        page_data([log, simulated_log("pig", 1, 2)])


def test_a_seven_player_page_is_under_two_megabytes():
    html = page_html([simulated_log("7wonders-dice", 7, 7)])
    assert len(html.encode("utf-8")) < 2_000_000


def test_a_game_without_a_board_script_is_drawn_as_a_tree():
    assert Views().page_script() is None
    for kind in ("pig", "7wonders-dice", "flip7", "7wonders-duel"):
        assert "return function (ctx)" in registry.get(kind).views.page_script()


# ----------------------------------------------------------------------------- the file


def embedded(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)
    assert found, "no data element"
    return json.loads(found.group(1))


def test_hostile_names_cannot_break_out_of_the_page():
    log = simulated_log("pig", 2, 2)
    evil = "</script><script>alert(1)</script><!--"
    start = log.events[0]
    seats = [{**s, "name": evil if s["seat"] == 0 else s["name"]} for s in start.payload["seats"]]
    events = [start._replace(payload={**start.payload, "seats": seats}), *log.events[1:]]
    html = page_html([Log(events, log.game, evil)])
    assert html.count("</script>") == 4  # the data, the core, the boards, the start: nothing more closes
    data = embedded(html)
    assert data["versions"][0]["names"][0] == evil
    assert "<title>Pig: &lt;/script&gt;" in html
    assert json.loads(script_json({"x": "\u2028</"})) == {"x": "\u2028</"}


def test_markers_in_the_data_are_left_alone():
    page = assemble({"title": "@TITLE@ /*@CORE@*/", "generator": "@DATA@"}, {"pig": "return function () {};"})
    assert page.count("var ReplayPage") == 1
    assert embedded(page) == {"title": "@TITLE@ /*@CORE@*/", "generator": "@DATA@"}


# ----------------------------------------------------------------------------- commands


@pytest.fixture
def archive(tmp_path):
    store = Archive.init(tmp_path / "archive")
    logs = [simulated_log("7wonders-dice", 8, 3), simulated_log("flip7", 8, 3)]
    store.append_many([StreamAppend(log.game_id, NEW_STREAM, log.events) for log in logs]
                      + [StreamAppend("wd-disputed", NEW_STREAM, [e._replace(game_id="wd-disputed")
                                                                   for e in disputed_log(logs[0]).events])])
    return store


def run(archive, *args, cwd: Path | None = None):
    return CliRunner().invoke(cli, [*args, "--archive", str(archive.root)], catch_exceptions=False)


def test_view_writes_a_page_that_holds_the_game(archive, tmp_path):
    out = tmp_path / "page.html"
    result = run(archive, "view", "wd-disputed", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert str(out) in result.output
    data = embedded(out.read_text())
    assert data["versions"][0]["game_id"] == "wd-disputed" and len(data["versions"][0]["problems"]) == 1
    assert not list(tmp_path.glob(".*partial"))


def test_bundle_holds_everything_to_settle_a_dispute(archive, tmp_path):
    out = tmp_path / "dispute.zip"
    result = run(archive, "bundle", "wd-disputed", "-o", str(out))
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        assert {"events.jsonl", "game.txt", "audit.txt", "audit.json", "page.html", "README.txt"} <= names
        assert [n for n in names if n.startswith("packs/") and n.endswith(".json")]
        report = json.loads(z.read("audit.json"))
        assert not report["ok"] and len(report["problems"]) == 1
        events = [json.loads(line) for line in z.read("events.jsonl").decode().splitlines()]
        assert len(events) == len(archive.read_game("wd-disputed"))
        assert embedded(z.read("page.html").decode())["versions"][0]["game_id"] == "wd-disputed"
    again = make_bundle([Log(archive.read_game("wd-disputed"), registry.get("7wonders-dice"), "wd-disputed",
                             archive=archive)], "zip")[0]
    assert again == make_bundle([Log(archive.read_game("wd-disputed"), registry.get("7wonders-dice"), "wd-disputed",
                                     archive=archive)], "zip")[0], "the same game, the same bundle"
    assert zipfile.ZipFile(io.BytesIO(again)).namelist()


def test_a_two_version_html_bundle_attaches_both(archive, tmp_path):
    game_id = next(g for g in archive.snapshot().streams if g.startswith("7wonders-dice"))
    out = tmp_path / "both.html"
    result = run(archive, "bundle", game_id, "wd-disputed", "-o", str(out))
    assert result.exit_code == 0, result.output
    data = embedded(out.read_text())
    assert len(data["versions"]) == 2 and data["first_difference"] is not None
    names = {a["name"] for a in data["attachments"]}
    assert {"version-1/events.jsonl", "version-2/events.jsonl", "version-2/audit.json"} <= names


@pytest.mark.parametrize("args,message", [
    (["bundle", "wd-disputed", "-o", "x.txt"], "a bundle is a .zip file or one .html page"),
    (["view", "no-such-game"], "no-such-game"),
    (["view", "wd-disputed", "-o", "/nonexistent-dir/x.html"], "cannot write"),
])
def test_errors_are_one_line_and_write_nothing(archive, tmp_path, args, message, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(archive, *args)
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output
    assert not list(tmp_path.glob("*.html")) and not list(tmp_path.glob("*.zip"))


def test_two_kinds_cannot_be_compared(archive, tmp_path):
    flip = next(g for g in archive.snapshot().streams if g.startswith("flip7"))
    result = run(archive, "view", "wd-disputed", flip, "-o", str(tmp_path / "x.html"))
    assert result.exit_code == 1 and "only two versions of one game" in result.output
    result = run(archive, "view", "a", "b", "c")
    assert result.exit_code == 2
