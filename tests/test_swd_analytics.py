"""7 Wonders Duel's derived tables and named queries, on a small simulated archive, against answers counted here.

The archive (40 games of the bots ``science`` and ``random``: every kind of victory) is projected and queried through the
command line (``replay project``, ``replay query --name seven_wonders_duel.NAME --format json``, in
the default sandbox). The expected answers never come from SQL nor from the observer's code: each
game is replayed here through the rules, strictly (a wrong claim would stop it, so the coins each
``card_played`` writes as paid are the rules' own), and counted in plain Python from the events,
the pack's data and the table after each event: scores and winners from ``Views.result``, the
scientific symbols from the effects of each city's cards and tokens in the pack.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import query_check
from query_check import agree, every, grouped, mean, rate

from replay.analytics.project import derive_game
from replay.analytics.sql import connect, run_sql
from replay.archive import Archive
from replay.driver import Replay
from replay.events import Event
from replay.games.seven_wonders_duel import GAME
from replay.games.seven_wonders_duel.events import CATEGORIES
from replay.games.seven_wonders_duel.pack import DuelPack

LINEUP = ("science", "random")
PACK = GAME.pack()
assert isinstance(PACK, DuelPack)
TOKEN = {t.id: t for t in PACK.all_progress_tokens}
QUERIES = ("victory_types", "win_rate_by_first_player", "win_rate_by_wonder", "win_rate_by_progress_token",
           "supremacy_pace", "points_by_category", "chain_use", "win_rate_by_divinity", "senate_control")


# ----------------------------------------------------------------------------- the archive


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    return query_check.projected(tmp_path_factory, GAME, 40, (2, 2), LINEUP, seed=14)


def ask(archive: Archive, name: str, **params: Any) -> list[dict[str, Any]]:
    return query_check.ask(archive, f"seven_wonders_duel.{name}", **params)


# ----------------------------------------------------------------------------- the replays, counted by hand


def symbols(state: Any, seat: int) -> int:
    """Distinct scientific symbols: those printed on the city's cards and on its progress tokens (Law)."""
    effects = [e for c in state.built[seat] for e in PACK.by_id[c].effects]
    effects += [e for t in state.tokens[seat] for e in TOKEN[t].effects]
    return len({e.symbol for e in effects if e.type == "science"})


def towards(state: Any, seat: int) -> int:
    return int(state.pawn) if seat == 0 else -int(state.pawn)


def walk(archive: Archive, events: list[Event]) -> dict[str, Any]:
    """One game replayed through the rules, counted as a player with the scorepad would."""
    start = events[0].payload
    first = start["first"]
    strategy = [LINEUP[s % len(LINEUP)] for s in (0, 1)]
    r: Replay[Any] = Replay(GAME, archive.library(GAME.kind), level="raise")
    out: dict[str, Any] = {"game_id": events[0].game_id, "first": first, "plays": [], "ages": [], "progress": [],
                           "picked": [[], []]}

    def age_rows(state: Any, complete: bool) -> None:
        for seat in (0, 1):
            mine = [x for x in out["plays"] if x["seat"] == seat and x["age"] == state.age]
            out["ages"].append({"age": state.age, "seat": seat, "complete": complete, "pawn": towards(state, seat),
                                "symbols": symbols(state, seat), "coins": state.coins[seat],
                                "constructed": sum(x["action"] == "construct" for x in mine),
                                "wonders_built": sum(x["action"] == "wonder" for x in mine),
                                "discards": sum(x["action"] == "discard" for x in mine),
                                "chains": sum(x["free"] == "chain" for x in mine)})

    for e in events:
        p = e.payload
        if e.type == "age_dealt" and p["age"] > 1:
            age_rows(r.state, True)
        r.push(e)
        s = r.state
        if e.type == "card_played":
            out["plays"].append({"seq": e.seq, "turn": len(out["plays"]) + 1, "age": p["age"], "seat": p["seat"],
                                 "card": p["card"], "colour": PACK.by_id[p["card"]].colour, "action": p["action"],
                                 "wonder": p["wonder"], "free": p["free"], "coins_paid": p["paid"],
                                 "bought": sum(p["bought"].values()), "pawn": towards(s, p["seat"]),
                                 "symbols": symbols(s, p["seat"])})
        elif e.type == "wonder_picked":
            out["picked"][p["seat"]].append(p["wonder"])
        elif e.type == "progress_taken":
            out["progress"].append({"seq": e.seq, "age": s.age, "seat": p["seat"], "token": p["token"],
                                    "source": p["source"]})
    state = r.finish()
    assert state is not None and state.phase == "over"
    age_rows(state, complete=len(state.taken) == len(state.slots))
    result = GAME.views.result(state)
    winners = sorted(sc.seat for sc in result.scores if sc.won)
    out.update(victory=state.victory, winners=winners, turns=len(out["plays"]), last_age=state.age, pawn=state.pawn)
    out["seats"] = []
    for score in sorted(result.scores, key=lambda x: x.seat):
        seat = score.seat
        mine = [x for x in out["plays"] if x["seat"] == seat]
        out["seats"].append({
            "seat": seat, "strategy": strategy[seat], "first": seat == first, "won": score.won, "total": score.total,
            "vp": dict(score.categories), "coins": state.coins[seat], "pawn": towards(state, seat),
            "symbols": symbols(state, seat), "wonders_built": sum(x["action"] == "wonder" for x in mine),
            "progress_tokens": sum(1 for x in out["progress"] if x["seat"] == seat),
            "constructed": sum(x["action"] == "construct" for x in mine),
            "chains": sum(x["free"] == "chain" for x in mine), "discards": sum(x["action"] == "discard" for x in mine),
            "coins_paid": sum(x["coins_paid"] for x in mine),
        })
    built = {(x["seat"], x["wonder"]): x for x in out["plays"] if x["action"] == "wonder"}
    out["wonders"] = [{"seat": seat, "wonder": w, "draft_set": 1 + i // 2, "built": (seat, w) in built,
                       "age_built": built[(seat, w)]["age"] if (seat, w) in built else None,
                       "won": seat in winners} for seat in (0, 1) for i, w in enumerate(out["picked"][seat])]
    for x in out["progress"]:
        x["won"] = x["seat"] in winners
    return out


@pytest.fixture(scope="module")
def games(archive: Archive) -> list[dict[str, Any]]:
    return [walk(archive, archive.read_game(g.game_id)) for g in archive.games()]


def table(archive: Archive, sql: str, keys: int) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """SQL rows by their first ``keys`` columns."""
    rows = run_sql(connect(archive), sql).to_pylist()
    return {tuple(r.values())[:keys]: tuple(r.values())[keys:] for r in rows}


# ----------------------------------------------------------------------------- the material


def test_the_archive_has_what_the_questions_ask_about(games: list[dict[str, Any]]) -> None:
    assert {g["victory"] for g in games} == {"civilian", "military", "science"}
    assert {g["first"] for g in games} == {0, 1}
    assert {g["last_age"] for g in games} >= {2, 3}
    assert {x["source"] for _, x in every(games, "progress")} == {"board", "box"}
    assert any(x["free"] == "chain" for _, x in every(games, "plays"))
    assert any(not w["built"] for _, w in every(games, "wonders")) and any(w["built"] for _, w in every(games, "wonders"))
    assert any(a["symbols"] >= 5 for _, a in every(games, "ages")) and any(a["pawn"] >= 6 for _, a in every(games, "ages"))


def test_every_duel_query_is_named_with_its_question_and_answers_with_its_columns(
        archive: Archive, pantheon_archive: Archive, agora_archive: Archive) -> None:
    query_check.check_named(archive, GAME.kind, "seven_wonders_duel", QUERIES,
                            {"win_rate_by_divinity": pantheon_archive, "senate_control": agora_archive})


# ----------------------------------------------------------------------------- the tables against the replays


def test_games_are_the_replays_end(archive: Archive, games: list[dict[str, Any]]) -> None:
    got = table(archive, "SELECT game_id, first, victory, winner, shared, turns, last_age, pawn "
                         "FROM seven_wonders_duel.games", 1)
    assert got == {(g["game_id"],): (g["first"], g["victory"], g["winners"][0] if len(g["winners"]) == 1 else None,
                                     len(g["winners"]) > 1, g["turns"], g["last_age"], g["pawn"]) for g in games}


def test_players_are_the_replays_result(archive: Archive, games: list[dict[str, Any]]) -> None:
    vp = ", ".join(f"vp_{c}" for c in CATEGORIES)
    got = table(archive, f"SELECT game_id, seat, strategy, first, victory, won, total, coins, pawn, symbols, wonders_built, "
                         f"progress_tokens, constructed, chains, discards, coins_paid, {vp} FROM seven_wonders_duel.players", 2)
    assert got == {(g["game_id"], s["seat"]): (s["strategy"], s["first"], g["victory"], s["won"], s["total"], s["coins"],
                                               s["pawn"], s["symbols"], s["wonders_built"], s["progress_tokens"],
                                               s["constructed"], s["chains"], s["discards"], s["coins_paid"],
                                               *(s["vp"][c] for c in CATEGORIES))
                   for g, s in every(games, "seats")}
    assert all(sum(s["vp"].values()) == s["total"] for _, s in every(games, "seats"))


def test_each_play_is_the_event_the_rules_accepted(archive: Archive, games: list[dict[str, Any]]) -> None:
    got = table(archive, "SELECT game_id, seq, turn, age, seat, card, colour, action, wonder, free, coins_paid, bought, "
                         "pawn, symbols FROM seven_wonders_duel.plays", 2)
    assert got == {(g["game_id"], x["seq"]): (x["turn"], x["age"], x["seat"], x["card"], x["colour"], x["action"],
                                              x["wonder"], x["free"], x["coins_paid"], x["bought"], x["pawn"],
                                              x["symbols"])
                   for g, x in every(games, "plays")}


def test_ages_wonders_and_progress_are_the_replays(archive: Archive, games: list[dict[str, Any]]) -> None:
    got = table(archive, "SELECT game_id, age, seat, complete, pawn, symbols, coins, constructed, wonders_built, discards, "
                         "chains FROM seven_wonders_duel.ages", 3)
    assert got == {(g["game_id"], a["age"], a["seat"]): tuple(a[k] for k in ("complete", "pawn", "symbols", "coins",
                                                                               "constructed", "wonders_built",
                                                                               "discards", "chains"))
                   for g, a in every(games, "ages")}
    got = table(archive, "SELECT game_id, seat, wonder, draft_set, built, age_built, won FROM seven_wonders_duel.wonders", 3)
    assert got == {(g["game_id"], w["seat"], w["wonder"]): (w["draft_set"], w["built"], w["age_built"], w["won"])
                   for g, w in every(games, "wonders")}
    got = table(archive, "SELECT game_id, seq, age, seat, token, source, won, victory FROM seven_wonders_duel.progress", 2)
    assert got == {(g["game_id"], x["seq"]): (x["age"], x["seat"], x["token"], x["source"], x["won"], g["victory"])
                   for g, x in every(games, "progress")}


def test_every_table_is_filled_and_its_rows_fit_its_schema(archive: Archive, games: list[dict[str, Any]]) -> None:
    counts = {"games": len(games), "players": 2 * len(games), "plays": sum(len(g["plays"]) for g in games),
              "ages": sum(len(g["ages"]) for g in games), "wonders": sum(len(g["wonders"]) for g in games),
              "progress": sum(len(g["progress"]) for g in games), "divinities": 0, "senate": 0}  # the expansions': none
    query_check.check_tables(archive, GAME, counts)


def test_the_claims_change_no_row(games: list[dict[str, Any]]) -> None:
    """Rows come from the replay, not from what the events claim: wrong claims give the same rows."""
    events = GAME.bots.simulate("claims", ["Ana", "Ben"], 11, LINEUP, GAME.pack())
    honest = derive_game(GAME, events, GAME.library(), ended=True)
    wrong = []
    for e in events:
        p = e.payload
        if e.type == "card_played":
            p = {**p, "paid": (p["paid"] or 0) + 3, "pawn": 0, "looted": 7}
        elif e.type == "game_ended":
            p = {**p, "victory": "military", "winners": [0, 1], "scores": [{**s, "total": 99} for s in p["scores"]]}
        wrong.append(e._replace(payload=p))
    disputed = derive_game(GAME, wrong, GAME.library(), ended=True)
    assert disputed["games"][0]["problems"] > 0
    assert {k: v for k, v in disputed.items() if k.startswith("seven_wonders_duel.")} == \
        {k: v for k, v in honest.items() if k.startswith("seven_wonders_duel.")}


def test_a_game_without_a_recorded_strategy_has_none() -> None:
    events = GAME.bots.simulate("typed", ["Ana", "Ben"], 3, ("science",), GAME.pack())
    events[0] = events[0]._replace(payload={**events[0].payload, "provenance": {"source": "typed", "detail": ""}})
    rows = derive_game(GAME, events, GAME.library(), ended=True)
    assert rows["seven_wonders_duel.players"]
    assert all(r["strategy"] is None for t in ("plays", "players", "ages") for r in rows[f"seven_wonders_duel.{t}"])


# ----------------------------------------------------------------------------- each query against the hand count


def test_victory_types(archive: Archive, games: list[dict[str, Any]]) -> None:
    by = grouped((g["victory"], g) for g in games)
    expected = {(k,): {"games": len(v), "share": len(v) / len(games), "avg_turns": mean([g["turns"] for g in v]),
                       "min_turns": min(g["turns"] for g in v), "max_turns": max(g["turns"] for g in v),
                       **{f"ended_age_{a}": sum(g["last_age"] == a for g in v) for a in (1, 2, 3)}}
                for k, v in by.items()}
    agree(ask(archive, "victory_types"), ("victory",), expected)


def test_win_rate_by_first_player(archive: Archive, games: list[dict[str, Any]]) -> None:
    def row(v: list[dict[str, Any]]) -> dict[str, Any]:
        return {"games": len(v), "first_wins": sum(g["winners"] == [g["first"]] for g in v),
                "second_wins": sum(g["winners"] == [1 - g["first"]] for g in v),
                "shared": sum(len(g["winners"]) > 1 for g in v),
                "first_win_rate": rate(v, lambda g: g["winners"] == [g["first"]])}

    expected = {(k,): row(v) for k, v in grouped((g["victory"], g) for g in games).items()}
    expected[("all",)] = row(games)
    got = ask(archive, "win_rate_by_first_player")
    agree(got, ("victory",), expected)
    assert got[0]["victory"] == "all"


def test_win_rate_by_wonder(archive: Archive, games: list[dict[str, Any]]) -> None:
    def share(v: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> float | None:
        return rate(v, test) if v else None

    by = grouped((w["wonder"], w) for _, w in every(games, "wonders"))
    expected = {(k,): {"drafted": len(v), "built": sum(w["built"] for w in v), "build_rate": rate(v, lambda w: w["built"]),
                       "wins_when_built": sum(w["built"] and w["won"] for w in v),
                       "win_rate_when_built": share([w for w in v if w["built"]], lambda w: w["won"]),
                       "win_rate_when_not_built": share([w for w in v if not w["built"]], lambda w: w["won"]),
                       "avg_age_built": mean([w["age_built"] for w in v if w["built"]])}
                for k, v in by.items()}
    agree(ask(archive, "win_rate_by_wonder"), ("wonder",), expected)
    kept = ask(archive, "win_rate_by_wonder", min_drafted=25)
    assert {r["wonder"] for r in kept} == {k[0] for k, v in expected.items() if v["drafted"] >= 25}
    assert 0 < len(kept) < len(expected)


def test_win_rate_by_progress_token(archive: Archive, games: list[dict[str, Any]]) -> None:
    by = grouped((x["token"], x) for _, x in every(games, "progress"))
    expected = {(k,): {"taken": len(v), "from_box": sum(x["source"] == "box" for x in v),
                       "by_winners": sum(x["won"] for x in v), "win_rate": rate(v, lambda x: x["won"]),
                       "avg_age": mean([x["age"] for x in v])} for k, v in by.items()}
    agree(ask(archive, "win_rate_by_progress_token"), ("token",), expected)


@pytest.mark.parametrize("threats", [{}, {"military_threat": 3, "science_threat": 3}])
def test_supremacy_pace(archive: Archive, games: list[dict[str, Any]], threats: dict[str, int]) -> None:
    military, science = threats.get("military_threat", 6), threats.get("science_threat", 5)
    per_game = [(g["victory"], a["age"], max(x["pawn"] for x in g["ages"] if x["age"] == a["age"]),
                 max(x["symbols"] for x in g["ages"] if x["age"] == a["age"]))
                for g in games for a in g["ages"] if a["seat"] == 0]
    by = grouped(((age, victory), (pawn, sym)) for victory, age, pawn, sym in per_game)
    expected = {k: {"games": len(v), "avg_pawn": mean([p for p, _ in v]),
                    "military_threat_share": rate(v, lambda x: x[0] >= military), "avg_symbols": mean([s for _, s in v]),
                    "science_threat_share": rate(v, lambda x: x[1] >= science)} for k, v in by.items()}
    agree(ask(archive, "supremacy_pace", **threats), ("age", "victory"), expected)


def test_points_by_category(archive: Archive, games: list[dict[str, Any]]) -> None:
    seats = [s for g, s in every(games, "seats") if g["victory"] == "civilian"]
    everything = sum(s["total"] for s in seats)
    expected = {(c,): {"seats": len(seats), "avg_points": mean([s["vp"][c] for s in seats]),
                       "share": sum(s["vp"][c] for s in seats) / everything,
                       "avg_points_winners": mean([s["vp"][c] for s in seats if s["won"]]),
                       "avg_points_others": mean([s["vp"][c] for s in seats if not s["won"]]),
                       "max_points": max(s["vp"][c] for s in seats)} for c in CATEGORIES}
    got = ask(archive, "points_by_category")
    agree(got, ("category",), expected)
    assert abs(sum(r["share"] for r in got) - 1) < 1e-3


def test_chain_use(archive: Archive, games: list[dict[str, Any]]) -> None:
    won = {(g["game_id"], s["seat"]): s["won"] for g, s in every(games, "seats")}
    rows = [(a, won[(g["game_id"], a["seat"])]) for g, a in every(games, "ages")]
    by = grouped((a["age"], (a, w)) for a, w in rows)
    expected = {(k,): {"constructed": sum(a["constructed"] for a, _ in v), "chain_builds": sum(a["chains"] for a, _ in v),
                       "chain_share": sum(a["chains"] for a, _ in v) / sum(a["constructed"] for a, _ in v),
                       "chains_per_winner": mean([a["chains"] for a, w in v if w]),
                       "chains_per_other": mean([a["chains"] for a, w in v if not w])} for k, v in by.items()}
    agree(ask(archive, "chain_use"), ("age",), expected)


# ----------------------------------------------------------------------------- Pantheon


@pytest.fixture(scope="module")
def pantheon_archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    return query_check.projected(tmp_path_factory, GAME, 24, (2, 2), ("random", "military"), seed=5,
                                 pack=GAME.pack("7wd-duel-pantheon"))


def test_win_rate_by_divinity(pantheon_archive: Archive) -> None:
    """Each game replayed strictly: the Divinities its table says were activated (their turns' events
    counted apart), its winners from ``Views.result``."""
    activations = []
    for g in pantheon_archive.games():
        events = pantheon_archive.read_game(g.game_id)
        r: Replay[Any] = Replay(GAME, pantheon_archive.library(GAME.kind), level="raise")
        for e in events:
            r.push(e)
        result = GAME.views.result(r.state)
        assert result is not None
        done = r.state.pantheon["activated"]
        turns = [e.payload["seat"] for e in events if e.type == "divinity_activated"]
        assert [sum(a["via"] == "pantheon" for a in done[s]) for s in (0, 1)] == [turns.count(s) for s in (0, 1)]
        activations += [{**a, "won": seat in result.winners} for seat in (0, 1) for a in done[seat]]
    pantheon = GAME.pack("7wd-duel-pantheon").pantheon
    mythology = {d.id: d.mythology for d in (*pantheon.divinities, pantheon.gate)}
    by = grouped((a["divinity"], a) for a in activations)
    expected = {(k,): {"mythology": mythology[k], "activated": len(v), "wins": sum(a["won"] for a in v),
                       "win_rate": rate(v, lambda a: a["won"]), "avg_age": mean([a["age"] for a in v]),
                       "avg_paid": mean([a["paid"] for a in v]), "through_gate": sum(a["via"] == "gate" for a in v),
                       "through_theater": sum(a["via"] == "theater" for a in v)} for k, v in by.items()}
    assert len(expected) >= 8  # most Divinities come up in two dozen games
    agree(ask(pantheon_archive, "win_rate_by_divinity"), ("divinity",), expected)


def test_a_base_game_has_no_divinity(archive: Archive) -> None:
    assert ask(archive, "win_rate_by_divinity") == []


# ----------------------------------------------------------------------------- Agora


@pytest.fixture(scope="module")
def agora_archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    return query_check.projected(tmp_path_factory, GAME, 30, (2, 2), ("military", "science"), seed=3,
                                 pack=GAME.pack("7wd-duel-agora"))


def test_senate_control(agora_archive: Archive) -> None:
    """Each game replayed strictly: the chambers each seat controls at the end counted from the
    influence cubes (more than the opponent's), the Senate's points from ``Views.result``."""
    seats = []
    for g in agora_archive.games():
        r: Replay[Any] = Replay(GAME, agora_archive.library(GAME.kind), level="raise")
        for e in agora_archive.read_game(g.game_id):
            r.push(e)
        result = GAME.views.result(r.state)
        assert result is not None
        influence = r.state.agora["influence"]
        for score in result.scores:
            s = score.seat
            chambers = sum(cubes[s] > cubes[1 - s] for cubes in influence.values())
            seats.append({"chambers": chambers, "won": score.won, "political": r.state.victory == "political" and score.won,
                          "senate": score.categories["senate"], "senators": len(r.state.agora["senators"][s]),
                          "triggered": len(r.state.agora["triggered"][s])})
    by = grouped((x["chambers"], x) for x in seats)
    expected = {(k,): {"seats": len(v), "wins": sum(x["won"] for x in v), "win_rate": rate(v, lambda x: x["won"]),
                       "political_wins": sum(x["political"] for x in v), "avg_senate_vp": mean([x["senate"] for x in v]),
                       "avg_senators": mean([x["senators"] for x in v]),
                       "avg_conspiracies_triggered": mean([x["triggered"] for x in v])} for k, v in by.items()}
    assert len(expected) >= 3
    agree(ask(agora_archive, "senate_control"), ("chambers",), expected)


def test_a_base_game_has_no_senate(archive: Archive) -> None:
    assert ask(archive, "senate_control") == []
