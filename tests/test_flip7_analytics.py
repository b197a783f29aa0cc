"""Flip 7's derived tables and named queries, on a small simulated archive, against answers computed here.

The archive is projected and queried through the command line (``replay project``, ``replay query
--name flip7.NAME --format json``, in the default sandbox). The expected answers never come from
SQL nor from the derived tables: each game is replayed here through the rules, event by event,
and counted in plain Python. Round scores are worked out from the cards in front of each seat and
the rules text (numbers, doubled by x2, plus modifiers, plus the Flip 7 bonus), a hit's outcome
from the events that follow its card, and a seat's strategy from the line-up the test simulated
with: none of it from the observer's own code.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
import query_check
from click.testing import CliRunner
from query_check import agree, every, grouped, mean, rate

from replay.analytics.sql import all_queries, connect, run_sql
from replay.archive import Archive
from replay.cli.main import cli
from replay.driver import Replay
from replay.events import Event
from replay.games.flip7 import GAME
from replay.games.flip7.pack import Flip7Pack
from replay.games.wonders_dice import GAME as WD
from replay.registry import registry
from replay.services.simulation import simulate_games

LINEUP = ("odds", "stay20", "stay25", "random")
PACK = GAME.pack()
assert isinstance(PACK, Flip7Pack)
VALUE = {c.card: c.value for c in PACK.deck}
KIND = {c.card: c.kind for c in PACK.deck}
BONUS = PACK.scoring.flip_seven_bonus
QUERIES = ("bust_rate_by_cards_held", "bust_rate_by_sum", "hit_gain_by_sum", "flip7_frequency", "second_chance_saves",
           "round_score_by_strategy", "win_rate_by_strategy", "win_rate_by_position", "game_length", "action_targets",
           "stay_sum_by_strategy", "final_scores")


# ----------------------------------------------------------------------------- the archive


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    return query_check.projected(tmp_path_factory, GAME, 40, (3, 6), LINEUP, seed=7)


def ask(archive: Archive, name: str, **params: Any) -> list[dict[str, Any]]:
    return query_check.ask(archive, f"flip7.{name}", **params)


# ----------------------------------------------------------------------------- the replays, counted by hand


def standing(state: Any, seat: int, sevens: set[int]) -> int:
    """The seat's round score from the cards in front of it (the rules text), 0 once busted."""
    if state.status[seat] == "busted":
        return 0
    numbers = sum(VALUE[c] for c in state.line[seat])
    factor = 2 if "x2" in state.area[seat] else 1
    modifiers = sum(VALUE[c] for c in state.area[seat] if KIND[c] == "modifier")
    return numbers * factor + modifiers + (BONUS if seat in sevens else 0)


def odds(state: Any, seat: int) -> float | None:
    pile = state.draw or state.discard
    if not pile:
        return None
    held = set(state.line[seat])
    return sum(1 for c in pile if c in held) / len(pile)


def rank_of(totals: list[int], seat: int) -> int:
    return 1 + sum(1 for t in totals if t > totals[seat])


def outcome_of(events: list[Event], i: int) -> str:
    """What the hit's card (``events[i]``) did, from the event after it."""
    card, seat = events[i].payload["card"], events[i].payload["seat"]
    nxt = events[i + 1] if i + 1 < len(events) else None
    if nxt is not None and nxt.payload.get("seat") == seat:
        found = {"busted": "bust", "second_chance_used": "saved", "flipped_seven": "flip7"}.get(nxt.type)
        if found:
            return found
    return {"number": "number", "modifier": "modifier", "multiplier": "modifier", "action": "action"}[KIND[card]]


def walk(archive: Archive, events: list[Event]) -> dict[str, Any]:
    """One game replayed through the rules, counted as a player would: decisions, rounds, targets, seats."""
    start = events[0].payload
    n, first_dealer = len(start["seats"]), start["first_dealer"]
    strategy = [LINEUP[s % len(LINEUP)] for s in range(n)]
    r: Replay[Any] = Replay(GAME, archive.library("flip7"), level="raise")
    out: dict[str, Any] = {"decisions": [], "rounds": [], "targets": [], "players": n}
    totals = [0] * n
    hit: dict[str, Any] | None = None
    hits: Counter[int] = Counter()
    saves: Counter[int] = Counter()
    sevens: set[int] = set()
    for i, e in enumerate(events):
        s, p = r.state, e.payload
        if i and hit is not None and e.type in ("player_hit", "player_stayed", "round_ended"):
            hit["gain"] = standing(s, hit["seat"], sevens) - hit["before"]
            out["decisions"].append(hit)
            hit = None
        if e.type in ("player_hit", "player_stayed"):
            seat = p["seat"]
            row = {"game_id": e.game_id, "seq": e.seq, "seat": seat, "strategy": strategy[seat],
                   "hit": e.type == "player_hit", "numbers": len(s.line[seat]),
                   "sum": sum(VALUE[c] for c in s.line[seat]), "before": standing(s, seat, sevens),
                   "chance": s.chance[seat], "odds": odds(s, seat), "outcome": None, "gain": None}
            if row["hit"]:
                hit = row
                hits[seat] += 1
            else:
                out["decisions"].append(row)
        elif e.type == "card_drawn" and p["reason"] == "hit":
            assert hit is not None
            hit["outcome"] = outcome_of(events, i)
        elif e.type == "second_chance_used":
            saves[p["seat"]] += 1
        elif e.type == "flipped_seven":
            sevens.add(p["seat"])
        elif e.type == "target_chosen":
            target = p["target"]
            out["targets"].append({"game_id": e.game_id, "seq": e.seq, "card": p["card"],
                                   "strategy": strategy[p["seat"]], "self": target == p["seat"], "discarded": target is None,
                                   "target_rank": None if target is None else rank_of(totals, target)})
        elif e.type == "round_ended":
            for seat in range(n):
                status = s.status[seat]
                if seat in sevens:
                    status = "flip7"
                elif status == "active":
                    status = "active_at_flip7" if sevens else "active"
                score = standing(s, seat, sevens)
                totals[seat] += score
                out["rounds"].append({"game_id": e.game_id, "round": p["round"], "seat": seat, "strategy": strategy[seat],
                                      "status": status, "score": score, "hits": hits[seat], "saves": saves[seat]})
            hits.clear()
            saves.clear()
            sevens.clear()
        r.push(e)
    state = r.finish()
    assert state is not None and state.total == totals  # the hand count agrees with the rules' totals
    winners = set(GAME.views.result(state).winners)
    out["rounds_played"] = sum(1 for e in events if e.type == "round_ended")
    out["seats"] = [{"seat": s, "strategy": strategy[s], "position": (s - first_dealer - 1) % n + 1,
                     "total": totals[s], "won": s in winners} for s in range(n)]
    return out


@pytest.fixture(scope="module")
def games(archive: Archive) -> list[dict[str, Any]]:
    return [walk(archive, archive.read_game(g.game_id)) for g in archive.games()]


# ----------------------------------------------------------------------------- the material


def test_the_archive_has_what_the_questions_ask_about(games: list[dict[str, Any]]) -> None:
    outcomes = Counter(d["outcome"] for _, d in every(games, "decisions"))
    assert {"bust", "saved", "number", "modifier", "action"} <= set(outcomes)
    statuses = Counter(r["status"] for _, r in every(games, "rounds"))
    assert {"stayed", "busted", "frozen", "flip7", "active_at_flip7"} <= set(statuses)
    targets = [t for _, t in every(games, "targets")]
    assert {t["card"] for t in targets} == {"freeze", "flip_three", "second_chance"}
    assert any(t["self"] for t in targets) and any(t["discarded"] for t in targets)
    assert any(d["outcome"] == "action" and d["gain"] for _, d in every(games, "decisions"))
    assert {g["players"] for g in games} == {3, 4, 5, 6}


def test_every_flip7_query_is_named_with_its_question() -> None:
    queries = {k: q for k, q in all_queries(registry).items() if q.kind == "flip7"}
    assert set(queries) == {f"flip7.{q}" for q in QUERIES}
    assert all(q.question and q.columns for q in queries.values())


# ----------------------------------------------------------------------------- each query against the hand count


def _hits(games: list[dict[str, Any]], key: str) -> dict[Any, list[dict[str, Any]]]:
    return grouped((d[key], d) for _, d in every(games, "decisions") if d["hit"])


def test_bust_rate_by_cards_held(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {(k,): {"hits": len(v), "busts": sum(d["outcome"] == "bust" for d in v),
                       "saved": sum(d["outcome"] == "saved" for d in v),
                       "bust_rate": rate(v, lambda d: d["outcome"] == "bust"),
                       "duplicate_rate": rate(v, lambda d: d["outcome"] in ("bust", "saved"))}
                for k, v in _hits(games, "numbers").items()}
    got = ask(archive, "bust_rate_by_cards_held")
    agree(got, ("numbers",), expected)
    assert [r["numbers"] for r in got] == sorted(r["numbers"] for r in got)
    few = ask(archive, "bust_rate_by_cards_held", min_hits=20)
    assert {r["numbers"] for r in few} == {k for (k,), v in expected.items() if v["hits"] >= 20}


def test_bust_rate_by_sum(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {(k,): {"hits": len(v), "busts": sum(d["outcome"] == "bust" for d in v),
                       "saved": sum(d["outcome"] == "saved" for d in v),
                       "bust_rate": rate(v, lambda d: d["outcome"] == "bust"),
                       "avg_bust_odds": mean([d["odds"] for d in v if d["odds"] is not None])}
                for k, v in _hits(games, "sum").items()}
    agree(ask(archive, "bust_rate_by_sum"), ("number_sum",), expected)


def test_hit_gain_by_sum(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {}
    for k, v in _hits(games, "sum").items():
        plain = [d["gain"] for d in v if not d["chance"]]
        expected[(k,)] = {"hits": len(v), "avg_score_before": mean([d["before"] for d in v]),
                          "avg_gain": mean([d["gain"] for d in v]), "hits_without_second_chance": len(plain),
                          "avg_gain_without_second_chance": mean(plain)}
    agree(ask(archive, "hit_gain_by_sum"), ("number_sum",), expected)
    busts = [d for _, d in every(games, "decisions") if d["outcome"] == "bust"]
    assert busts and all(d["gain"] == -d["before"] for d in busts)  # a bust loses the standing score


def test_flip7_frequency(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {}
    for n, rows in grouped((g["players"], r) for g, r in every(games, "rounds")).items():
        per_round: dict[Any, bool] = {}
        for g, r in every([g for g in games if g["players"] == n], "rounds"):
            key = (id(g), r["round"])
            per_round[key] = per_round.get(key, False) or r["status"] == "flip7"
        flips = sum(per_round.values())
        expected[(n,)] = {"rounds": len(per_round), "flip7_rounds": flips, "flip7_rate": flips / len(per_round),
                          "avg_flip7_score": mean([r["score"] for r in rows if r["status"] == "flip7"]),
                          "avg_other_score": mean([r["score"] for r in rows if r["status"] != "flip7"])}
    agree(ask(archive, "flip7_frequency"), ("players",), expected)


def test_second_chance_saves(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {}
    for n, rows in grouped((g["players"], r) for g, r in every(games, "rounds")).items():
        saved = [r for r in rows if r["saves"]]
        scored = [r for r in saved if r["status"] != "busted"]
        expected[(n,)] = {"seat_rounds": len(rows), "saved_rounds": len(saved), "saved_rate": len(saved) / len(rows),
                          "saves": sum(r["saves"] for r in rows), "saved_then_scored": len(scored),
                          "scored_share": len(scored) / len(saved) if saved else None,
                          "avg_score_saved": mean([r["score"] for r in saved]),
                          "avg_score_not_saved": mean([r["score"] for r in rows if not r["saves"]])}
    agree(ask(archive, "second_chance_saves"), ("players",), expected)


def test_round_score_by_strategy(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {}
    for k, v in grouped((r["strategy"], r) for _, r in every(games, "rounds")).items():
        expected[(k,)] = {"seat_rounds": len(v), "avg_score": mean([r["score"] for r in v]),
                          "avg_score_when_scoring": mean([r["score"] for r in v if r["status"] != "busted"]),
                          "bust_rate": rate(v, lambda r: r["status"] == "busted"),
                          "flip7_rate": rate(v, lambda r: r["status"] == "flip7"),
                          "stay_rate": rate(v, lambda r: r["status"] == "stayed"),
                          "frozen_rate": rate(v, lambda r: r["status"] == "frozen")}
    got = ask(archive, "round_score_by_strategy")
    agree(got, ("strategy",), expected)
    assert set(LINEUP) == {r["strategy"] for r in got}
    assert [r["avg_score"] for r in got] == sorted((r["avg_score"] for r in got), reverse=True)


def _seats(games: list[dict[str, Any]], key: str) -> dict[Any, list[dict[str, Any]]]:
    return grouped(((g["players"], s[key]), s) for g in games for s in g["seats"])


def test_win_rate_by_strategy(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {k: {"seats": len(v), "wins": sum(s["won"] for s in v), "win_rate": rate(v, lambda s: s["won"]),
                    "avg_total": mean([s["total"] for s in v])} for k, v in _seats(games, "strategy").items()}
    agree(ask(archive, "win_rate_by_strategy"), ("players", "strategy"), expected)
    assert sum(v["wins"] for v in expected.values()) >= len(games)  # every game has a winner


def test_win_rate_by_position(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {k: {"games": len(v), "wins": sum(s["won"] for s in v), "win_rate": rate(v, lambda s: s["won"]),
                    "avg_total": mean([s["total"] for s in v])} for k, v in _seats(games, "position").items()}
    agree(ask(archive, "win_rate_by_position"), ("players", "position"), expected)
    kept = ask(archive, "win_rate_by_position", min_games=8)
    assert {(r["players"], r["position"]) for r in kept} == {k for k, v in expected.items() if v["games"] >= 8}


def test_game_length(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {}
    for n, gs in grouped((g["players"], g) for g in games).items():
        rounds = [g["rounds_played"] for g in gs]
        expected[(n,)] = {"games": len(gs), "avg_rounds": mean(rounds), "min_rounds": min(rounds),
                          "max_rounds": max(rounds), "avg_decisions": mean([len(g["decisions"]) for g in gs]),
                          "avg_winning_total": mean([max(s["total"] for s in g["seats"]) for g in gs])}
    agree(ask(archive, "game_length"), ("players",), expected)


def test_action_targets(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {}
    for k, v in grouped(((t["card"], t["strategy"]), t) for _, t in every(games, "targets")).items():
        leader = sum(1 for t in v if not t["self"] and t["target_rank"] == 1)
        expected[k] = {"given": len(v), "to_self": sum(1 for t in v if t["self"]), "to_leader": leader,
                       "to_other": sum(1 for t in v if not t["self"] and (t["target_rank"] or 0) > 1),
                       "discarded": sum(1 for t in v if t["discarded"]), "leader_share": leader / len(v)}
    agree(ask(archive, "action_targets"), ("card", "strategy"), expected)


def test_stay_sum_by_strategy(archive: Archive, games: list[dict[str, Any]]) -> None:
    stays = grouped((d["strategy"], d) for _, d in every(games, "decisions") if not d["hit"])
    expected = {(k,): {"stays": len(v), "avg_number_sum": mean([d["sum"] for d in v]),
                       "avg_numbers": mean([d["numbers"] for d in v]), "avg_banked": mean([d["before"] for d in v])}
                for k, v in stays.items()}
    agree(ask(archive, "stay_sum_by_strategy"), ("strategy",), expected)


# ----------------------------------------------------------------------------- the tables themselves


def test_every_table_is_filled_and_its_rows_fit_its_schema(archive: Archive, games: list[dict[str, Any]]) -> None:
    counts = {"decisions": sum(len(g["decisions"]) for g in games), "rounds": sum(len(g["rounds"]) for g in games),
              "targets": sum(len(g["targets"]) for g in games), "players": sum(g["players"] for g in games)}
    query_check.check_tables(archive, GAME, counts)
    con = connect(archive)
    deck = run_sql(con, "SELECT card, kind, value, count FROM flip7.deck ORDER BY card").to_pylist()
    assert deck == sorted(({"card": c.card, "kind": c.kind, "value": c.value, "count": c.count} for c in PACK.deck),
                          key=lambda c: c["card"])
    assert sum(c["count"] for c in deck) == 94


def test_the_rows_agree_with_the_hand_count_one_by_one(archive: Archive, games: list[dict[str, Any]]) -> None:
    """Not only the aggregates: each decision, seat-round and target choice, by its key."""
    con = connect(archive)

    def table(sql: str, keys: int) -> dict[tuple[Any, ...], tuple[Any, ...]]:
        return {tuple(r.values())[:keys]: tuple(r.values())[keys:] for r in run_sql(con, sql).to_pylist()}

    decisions = table("SELECT game_id, seq, decision, outcome, gain, numbers, number_sum, score_before, strategy "
                      "FROM flip7.decisions", 2)
    assert decisions == {(d["game_id"], d["seq"]): ("hit" if d["hit"] else "stay", d["outcome"], d["gain"], d["numbers"],
                                                    d["sum"], d["before"], d["strategy"])
                         for _, d in every(games, "decisions")}
    rounds = table("SELECT game_id, round, seat, status, score, hits, second_chances_used FROM flip7.rounds", 3)
    assert rounds == {(r["game_id"], r["round"], r["seat"]): (r["status"], r["score"], r["hits"], r["saves"])
                      for _, r in every(games, "rounds")}
    targets = table("SELECT game_id, seq, card, to_self, discarded, target_rank FROM flip7.targets", 2)
    assert targets == {(t["game_id"], t["seq"]): (t["card"], None if t["discarded"] else t["self"], t["discarded"],
                                                  t["target_rank"]) for _, t in every(games, "targets")}


def test_a_game_without_a_recorded_strategy_has_none() -> None:
    query_check.strategies_unrecorded(GAME, ("odds",), ("decisions", "rounds", "players"))


def test_one_query_lists_flip7_and_7_wonders_dice_games(tmp_path: Any) -> None:
    archive = Archive.init(tmp_path / "mixed")
    simulate_games(GAME, archive, 3, (3, 5), (), seed=11)
    simulate_games(WD, archive, 2, (2, 4), (), seed=12)
    assert CliRunner().invoke(cli, ["project", "-a", str(archive.root)]).exit_code == 0
    result = CliRunner().invoke(cli, ["query", "-a", str(archive.root), "--format", "json",
                                      "SELECT kind, game_id, status FROM games ORDER BY kind, game_id"])
    assert result.exit_code == 0, result.output
    expected = sorted((g.kind, g.game_id) for g in archive.games())
    assert [(r["kind"], r["game_id"]) for r in json.loads(result.stdout)] == expected
    assert {k for k, _ in expected} == {"flip7", "7wonders-dice"}
    assert {r["status"] for r in json.loads(result.stdout)} == {"finished"}
