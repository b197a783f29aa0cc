"""Each named query, run on a small archive, against answers computed here from the projector's states.

The expected values never come from SQL or from the derived tables: each is computed by
replaying the games with ``projector.states`` and reading the rules data directly.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict

import pytest
from click.testing import CliRunner

from replay.analytics.named import QueryError
from replay.analytics.project import project
from replay.analytics.sql import all_queries, connect, find_query, run_named, run_sql
from replay.archive import Archive
from replay.cli.main import cli
from replay.games.wonders_dice.projector import states
from replay.games.wonders_dice.rules_data import default_ruleset
from replay.games.wonders_dice.scoring import final_scores
from replay.registry import registry
from replay.services.simulation import simulate_games

RULES = default_ruleset()
GAME = registry.get("7wonders-dice")


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    archive = Archive.init(tmp_path_factory.mktemp("analytics") / "archive")
    simulate_games(GAME, archive, 40, (2, 5), ("greedy", "random"), seed=77)
    project(archive, [GAME])
    return archive


@pytest.fixture(scope="module")
def con(archive):
    return connect(archive)


@pytest.fixture(scope="module")
def games(archive):
    """Per game: events, and the states the projector went through (copied where needed)."""
    out = []
    for g in archive.games():
        events = archive.read_game(g.game_id)
        record = {"events": events, "turn_end": [], "actions": [], "forum_by_turn": {}, "forum_at_end": {}}
        for e, state in states(events):
            if e.type == "action_taken":
                record["actions"].append(record.pop("_before"))
            if e.seq + 1 < len(events) and events[e.seq + 1].type == "action_taken":
                record["_before"] = _before_action(state, events[e.seq + 1])
            if e.type == "dice_rolled":
                record["forum_by_turn"][e.payload["turn"]] = dict(state.forum)
                record.setdefault("rolls", []).append({d: state.roll[d] for d in state.forum})
            if e.type == "turn_ended":
                record["forum_at_end"][state.turn] = dict(state.forum)
                record["turn_end"].append((state.turn, [(p.seat, [b for b in p.board if p.complete(b)]) for p in state.players]))
        record["state"] = state
        record["result"] = final_scores(state)
        out.append(record)
    return out


def _before_action(state, e):
    """What the action chose and costs, computed here from the state before it."""
    p = state.players[e.payload["player"]]
    main = e.payload["steps"][0]
    info = {"turn": e.payload["turn"], "seat": p.seat, "kind": main["kind"], "paid": e.payload["claims"]["paid"],
            "building": main["building"]}
    if main["kind"] == "build":
        colour = state.forum[main["die"]]
        section = state.roll[main["die"]][1]
        forum = RULES.start.forum_sections[section]
        die = 0 if colour in p.free_colours else max(0, forum - p.discount_all - p.discount.get(colour, 0))
        cost = p.board[main["building"]].space[main["space"]].cost
        info.update(colour=colour, section=section, forum=forum, die=die,
                    construction=max(0, cost - len(p.crossed.get("warehouse", ()))))
        attack = [x.vp for x in p.board[main["building"]].space[main["space"]].effects if x.type == "attack"]
        if attack:
            n = len(state.players)
            defender = (p.seat + 1) % n if main["building"] == "barracks_west" else (p.seat - 1) % n
            facing = "barracks_east" if main["building"] == "barracks_west" else "barracks_west"
            d = state.players[defender]
            crossed = d.crossed.get(facing, set()) - {s for b, s in d.this_turn if b == facing}
            info["attack"] = (attack[0], sum(1 for s in crossed if s.startswith("shield")))
    return info


def rows(con, name, **params):
    return run_named(con, find_query(all_queries(registry), name), {k: str(v) for k, v in params.items()}).to_pylist()


def close(a, b, places=3):
    return abs(a - b) <= 10 ** -places + 1e-9


def test_there_are_named_queries_with_headers_for_every_kind():
    queries = all_queries(registry)
    assert len([q for q in queries.values() if q.kind == "7wonders-dice"]) >= 11
    assert {"games_by_kind", "win_rate_by_seat", "pig.bust_rate_by_rolls"} <= set(queries)
    assert all(q.question and q.columns for q in queries.values())


def _players(games):
    for g in games:
        n = len(g["state"].players)
        for s in g["result"]["scores"]:
            p = g["state"].players[s["seat"]]
            yield g, n, p, s, s["seat"] in g["result"]["winners"]


def test_win_rate_by_city(con, games):
    acc = defaultdict(lambda: [0, 0])
    for _, n, p, _, won in _players(games):
        acc[(n, p.city)][0] += 1
        acc[(n, p.city)][1] += won
    got = {(r["players"], r["city"]): r for r in rows(con, "win_rate_by_city")}
    assert set(got) == set(acc)
    for key, (played, wins) in acc.items():
        assert (got[key]["games"], got[key]["wins"]) == (played, wins)
        assert close(got[key]["win_rate"], wins / played, 4)
    assert all(r["games"] >= 3 for r in rows(con, "win_rate_by_city", min_games=3))


def test_win_rate_by_seat(con, games):
    acc = defaultdict(lambda: [0, 0])
    for _, n, p, _, won in _players(games):
        acc[(n, p.seat)][0] += 1
        acc[(n, p.seat)][1] += won
    got = {(r["players"], r["seat"]): (r["games"], r["wins"]) for r in rows(con, "win_rate_by_seat")}
    assert got == {k: tuple(v) for k, v in acc.items()}


def test_score_by_category(con, games):
    sums = defaultdict(lambda: defaultdict(int))
    counts = defaultdict(int)
    for _, n, _, s, _ in _players(games):
        counts[n] += 1
        for cat, vp in s["categories"].items():
            sums[n][cat] += vp
    for r in rows(con, "score_by_category"):
        n, cat = r["players"], r["category"]
        assert close(r["avg_vp"], sums[n][cat] / counts[n])
        assert close(r["share_of_total"], sums[n][cat] / sum(sums[n].values()), 4)


def test_score_and_length_by_players(con, games):
    by = defaultdict(list)
    for g in games:
        scores = [s["total"] for s in g["result"]["scores"]]
        by[len(scores)].append((sum(scores) / len(scores), max(scores), g["state"].turn, len(g["events"])))
    got = {r["players"]: r for r in rows(con, "score_and_length_by_players")}
    for n, items in by.items():
        r = got[n]
        assert r["games"] == len(items)
        for key, i in (("avg_score", 0), ("avg_winning_score", 1), ("avg_turns", 2)):
            assert close(r[key], sum(x[i] for x in items) / len(items), 2)
        assert close(r["avg_events"], sum(x[3] for x in items) / len(items), 1)


def test_first_completed_building_vs_win(con, games):
    acc = defaultdict(lambda: [0, 0])
    for g in games:
        winners = g["result"]["winners"]
        first = {}
        for _turn, completed in g["turn_end"]:
            for seat, buildings in completed:
                if buildings and seat not in first:
                    first[seat] = min(buildings)
        for seat, building in first.items():
            acc[building][0] += 1
            acc[building][1] += seat in winners
    got = {r["first_completed"]: (r["players"], r["wins"]) for r in rows(con, "first_completed_building_vs_win")}
    assert got == {k: tuple(v) for k, v in acc.items()}


def test_special_die_unlock_turn(con, games):
    turns = defaultdict(list)
    for g in games:
        seen = set()
        for turn, forum in sorted(g["forum_at_end"].items()):
            for colour in set(forum.values()) & {"black", "white", "purple"}:
                if colour not in seen:
                    seen.add(colour)
                    turns[colour].append(turn)  # it entered the Forum at the end of this turn
    got = {r["die"]: r for r in rows(con, "special_die_unlock_turn")}
    assert set(got) == set(turns)
    for die, ts in turns.items():
        r = got[die]
        assert (r["games"], r["first_turn"], r["last_turn"]) == (len(ts), min(ts), max(ts))
        assert close(r["avg_turn"], sum(ts) / len(ts), 2) and close(r["share_of_games"], len(ts) / len(games), 4)


def test_coins_paid_by_die(con, games):
    acc = defaultdict(list)
    for g in games:
        for a in g["actions"]:
            if a["kind"] == "build":
                acc[(a["colour"], a["section"])].append(a)
    got = {(r["colour"], r["section"]): r for r in rows(con, "coins_paid_by_die")}
    assert set(got) == set(acc)
    for key, items in acc.items():
        r = got[key]
        assert r["builds"] == len(items)
        for col, field in (("avg_forum_cost", "forum"), ("avg_die_cost", "die"),
                           ("avg_construction_coins", "construction"), ("avg_paid", "paid")):
            assert close(r[col], sum(i[field] for i in items) / len(items)), (key, col)


def test_pass_rate_by_turn(con, games):
    acc = defaultdict(lambda: [0, 0])
    for g in games:
        for a in g["actions"]:
            acc[a["turn"]][0] += 1
            acc[a["turn"]][1] += a["kind"] == "pass"
    got = {r["turn"]: (r["actions"], r["passes"]) for r in rows(con, "pass_rate_by_turn", max_turn=999)}
    assert got == {k: tuple(v) for k, v in acc.items()}
    assert max(r["turn"] for r in rows(con, "pass_rate_by_turn", max_turn=5)) == 5


def test_barracks_vp_vs_shields(con, games):
    acc = defaultdict(list)
    for g in games:
        for a in g["actions"]:
            if "attack" in a:
                printed, shields = a["attack"]
                acc[shields].append((printed, max(0, printed - min(2, shields))))
    got = {r["defender_shields"]: r for r in rows(con, "barracks_vp_vs_shields")}
    assert set(got) == set(acc)
    for shields, items in acc.items():
        assert got[shields]["attacks"] == len(items)
        assert close(got[shields]["avg_attack_vp"], sum(v for _, v in items) / len(items))


def test_guild_court_use(con, games):
    acc = defaultdict(lambda: [0, 0])
    for _g, n, p, _s, won in _players(games):
        used = p.count("guild_court") > 0
        acc[(n, used)][0] += 1
        acc[(n, used)][1] += won
    got = {(r["players"], r["used_guild_court"]): r for r in rows(con, "guild_court_use")}
    assert set(got) == set(acc)
    for key, (count, wins) in acc.items():
        assert got[key]["player_count"] == count and close(got[key]["win_rate"], wins / count, 4)


def test_coin_tiebreaks(con, games):
    acc = defaultdict(lambda: [0, 0, 0])
    for g in games:
        n = len(g["state"].players)
        acc[n][0] += 1
        acc[n][1] += g["result"]["tie_break"] == "coins"
        acc[n][2] += g["result"]["tie_break"] == "shared"
    got = {r["players"]: (r["games"], r["decided_by_coins"], r["shared"]) for r in rows(con, "coin_tiebreaks")}
    assert got == {k: tuple(v) for k, v in acc.items()}


def test_dice_fairness(con, games):
    faces = defaultdict(lambda: defaultdict(int))
    sections = defaultdict(int)
    for g in games:
        for roll in g["rolls"]:
            for die, (face, section) in roll.items():
                colour = "grey" if die.startswith("grey") else die
                faces[colour][face] += 1
                sections[section] += 1
    got = {(r["test"], r["colour"]): r for r in rows(con, "dice_fairness")}
    for colour, counts in faces.items():
        total = sum(counts.values())
        sides = defaultdict(int)
        for f in RULES.die[colour].faces:
            sides[f.face] += 1
        chi = sum((n - total * sides[f] / 6) ** 2 / (total * sides[f] / 6) for f, n in counts.items())
        r = got[("faces", colour)]
        assert (r["rolls"], r["categories"], r["dof"]) == (total, len(counts), len(counts) - 1)
        assert close(r["chi_square"], chi)
    total = sum(sections.values())
    chi = sum((n - total / 4) ** 2 / (total / 4) for n in sections.values())
    assert close(got[("sections", "all")]["chi_square"], chi) and not math.isnan(chi)


def test_wonder_completion_by_city(con, games):
    acc = defaultdict(lambda: [0, 0, 0])
    for _, _, p, s, _ in _players(games):
        acc[p.city][0] += 1
        acc[p.city][1] += p.count("wonder") == 3
        acc[p.city][2] += s["categories"]["wonder"]
    got = {r["city"]: r for r in rows(con, "wonder_completion_by_city")}
    for city, (n, done, vp) in acc.items():
        assert (got[city]["players"], got[city]["completed"]) == (n, done)
        assert close(got[city]["avg_wonder_vp"], vp / n, 2)


def test_projection_is_incremental_and_queries_see_new_games(archive):
    before = run_sql(connect(archive), "SELECT count(*) AS n FROM games").to_pylist()[0]["n"]
    again = project(archive, [GAME])
    assert again.games == 0 and again.already == before
    simulate_games(GAME, archive, 5, (2, 3), ("random",), seed=78)
    more = project(archive, [GAME])
    assert more.games == 5
    assert run_sql(connect(archive), "SELECT count(*) AS n FROM games").to_pylist()[0]["n"] == before + 5


def test_bad_sql_and_unknown_names_are_explained(archive):
    with pytest.raises(QueryError, match="views: events, games, players, .*wonders_dice.actions"):
        run_sql(connect(archive), "SELECT nope FROM nowhere")
    runner = CliRunner()
    result = runner.invoke(cli, ["query", "-a", str(archive.root), "--name", "nope"])
    assert result.exit_code == 1 and "wonders_dice.win_rate_by_city" in result.output
    result = runner.invoke(cli, ["query", "-a", str(archive.root), "--name", "pass_rate_by_turn", "--param", "bogus=1"])
    assert result.exit_code == 1 and "no parameter 'bogus'" in result.output


def test_query_output_formats_and_stats(archive, tmp_path):
    runner = CliRunner()
    base = ["query", "-a", str(archive.root), "--name", "coin_tiebreaks"]
    table = runner.invoke(cli, base).output
    assert table.splitlines()[0].split() == ["players", "games", "decided_by_coins", "shared", "tie_rate"]
    rows = list(csv.DictReader(io.StringIO(runner.invoke(cli, base + ["--format", "csv"]).stdout)))
    assert rows and list(rows[0])[:2] == ["players", "games"]
    as_json = json.loads(runner.invoke(cli, base + ["--format", "json"]).stdout)
    assert [int(r["games"]) for r in rows] == [r["games"] for r in as_json]  # counts are JSON numbers
    out = tmp_path / "t.parquet"
    assert runner.invoke(cli, base + ["-o", str(out)]).exit_code == 0
    import pyarrow.parquet as pq

    assert pq.read_table(out).column_names[0] == "players"
    stats = runner.invoke(cli, ["stats", "-a", str(archive.root)]).output
    assert "7wonders-dice:" in stats and "games projected" in stats


def test_parallel_projection_writes_the_same_rows(tmp_path):
    import shutil

    one = Archive.init(tmp_path / "one")
    simulate_games(GAME, one, 12, (2, 4), ("random",), seed=5)
    shutil.copytree(one.root, tmp_path / "two")
    two = Archive(tmp_path / "two")
    project(one, [GAME], workers=1)
    project(two, [GAME], workers=2)
    for table in ("games", "players", "wonders_dice.players", "wonders_dice.turn_states", "wonders_dice.actions",
                  "wonders_dice.dice"):
        sql = f"SELECT * FROM {table} ORDER BY ALL"
        assert run_sql(connect(one), sql).to_pylist() == run_sql(connect(two), sql).to_pylist(), table


def test_project_command_is_incremental(tmp_path):
    runner = CliRunner()
    root = str(tmp_path / "a")
    assert runner.invoke(cli, ["simulate", "-a", root, "--game", "7wonders-dice", "--init", "--games", "4",
                               "--players", "2-3", "--seed", "3"]).exit_code == 0
    first = runner.invoke(cli, ["project", "-a", root, "--workers", "1"])
    assert first.exit_code == 0 and "projected 4 new games (0 already projected)" in first.output
    second = runner.invoke(cli, ["project", "-a", root])
    assert "projected 0 new games (4 already projected): nothing new" in second.output
    listed = runner.invoke(cli, ["query", "--list"]).output
    assert listed.count("\n    columns:") >= 15
    assert listed.index("== every kind ==") < listed.index("== 7wonders-dice ==") < listed.index("== pig ==")
