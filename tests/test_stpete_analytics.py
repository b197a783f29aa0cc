"""St. Petersburg's derived tables and named queries, on a small simulated archive projected and queried
through the command line, against answers counted here from the events in plain Python (the written
claims of a simulated game, the pack's printed costs and the final state's hands), never from SQL nor
from the observer's code."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
import query_check
from query_check import agree, mean

from replay.archive import Archive
from replay.driver import replay
from replay.games.st_petersburg import GAME

LINEUP = ("greedy", "saver", "random")
PACK = GAME.pack()
CARD = PACK.by_id  # type: ignore[attr-defined]
PHASES = ("worker", "building", "aristocrat", "trading")


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    return query_check.projected(tmp_path_factory, GAME, 12, (2, 4), LINEUP, seed=5)


@pytest.fixture(scope="module")
def games(archive: Archive) -> list[dict[str, Any]]:
    """Each game counted by hand: per seat its buys (phase, deck, row, paid, printed cost), income per round."""
    out = []
    for g in archive.games():
        events = archive.read_game(g.game_id)
        state = replay(GAME, events, level="raise").state
        n = len(events[0].payload["seats"])
        phase, rnd = 0, 1
        buys: list[dict[str, Any]] = []
        income: dict[tuple[int, int], int] = defaultdict(int)
        for e in events:
            p = e.payload
            if e.type == "card_bought":
                buys.append({"seat": p["seat"], "phase": PHASES[phase], "deck": CARD[p["card"]].deck, "round": rnd,
                             "card": p["card"], "source": p["source"], "paid": p["paid"],
                             "printed": CARD[p["card"]].cost})
            elif e.type == "phase_ended":
                for c in p["income"]:
                    income[(rnd, c["seat"])] += c["rubles"]
                phase = (phase + 1) % 4
            elif e.type == "round_ended":
                rnd += 1
        out.append({"n": n, "rounds": rnd, "buys": buys, "income": income, "winners": set(e.payload["winners"]),
                    "totals": {c["seat"]: c["total"] for c in e.payload["scores"]}, "hands": [len(h) for h in state.hand],
                    "strategy": [LINEUP[s % 3] for s in range(n)], "turns": sum(1 for x in events if x.type in (
                        "passed", "card_bought", "card_taken", "observatory_used") and x.payload.get("source") != "observatory")})
    return out


def test_tables_have_their_columns_and_rows(archive, games):
    query_check.check_tables(archive, GAME, {
        "players": sum(g["n"] for g in games),
        "actions": sum(g["turns"] + sum(1 for b in g["buys"] if b["source"] == "observatory") for g in games)
        + _observatory_extras(archive),
        "phases": sum(g["n"] * 3 * g["rounds"] for g in games),
        "rounds": sum(g["rounds"] - 1 for g in games),
    })


def _observatory_extras(archive) -> int:
    """Observatory draws resolved by a take or a discard (a buy from the Observatory is counted above)."""
    return sum(1 for g in archive.games() for e in archive.read_game(g.game_id)
               if (e.type == "card_taken" and e.payload["source"] == "observatory") or e.type == "card_discarded")


def test_game_length_by_players(archive, games):
    by: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for g in games:
        by[g["n"]].append(g)
    expected = {(n,): {"games": len(gs), "min_rounds": min(g["rounds"] for g in gs), "max_rounds": max(g["rounds"] for g in gs),
                       "avg_rounds": mean([g["rounds"] for g in gs]), "avg_buys": mean([len(g["buys"]) for g in gs]),
                       "avg_winning_total": mean([max(g["totals"].values()) for g in gs])} for n, gs in by.items()}
    agree(query_check.ask(archive, "stpete.game_length_by_players"), ("players",), expected)


def test_hand_penalties(archive, games):
    seats = defaultdict(list)
    for g in games:
        for s in range(g["n"]):
            seats[g["strategy"][s]].append((g["hands"][s], s in g["winners"]))
    expected = {(k,): {"seats": len(v), "seats_penalised": sum(1 for h, _ in v if h),
                       "avg_hand_cards": mean([h for h, _ in v]), "avg_hand_points": mean([-5 * h for h, _ in v])}
                for k, v in seats.items()}
    agree(query_check.ask(archive, "stpete.hand_penalties"), ("strategy",), expected)


def test_win_rate_by_first_aristocrat(archive, games):
    seats = defaultdict(list)
    for g in games:
        for s in range(g["n"]):
            first = next((b["card"] for b in g["buys"] if b["seat"] == s and CARD[b["card"]].colour == "aristocrat"), "none")
            seats[(g["n"], first)].append(s in g["winners"])
    expected = {k: {"seats": len(v), "wins": sum(v), "win_rate": sum(v) / len(v)} for k, v in seats.items()}
    agree(query_check.ask(archive, "stpete.win_rate_by_first_aristocrat"), ("players", "first_aristocrat"), expected)


def test_rouble_income_by_round(archive, games):
    by = defaultdict(list)
    for g in games:
        for (rnd, _seat), rubles in g["income"].items():
            by[(g["n"], rnd)].append(rubles)
    expected = {k: {"seats": len(v), "avg_income": mean(v), "max_income": max(v)} for k, v in by.items()}
    agree(query_check.ask(archive, "stpete.rouble_income_by_round"), ("players", "round"), expected)


def test_lower_row_value_and_winner_buys(archive, games):
    rows = defaultdict(list)
    for g in games:
        for b in g["buys"]:
            if b["source"] in ("top", "bottom"):
                rows[b["source"]].append(b)
    got = query_check.ask(archive, "stpete.lower_row_value")
    agree([{k: r[k] for k in ("source", "buys", "avg_price", "avg_saving")} for r in got], ("source",),
          {(k,): {"buys": len(v), "avg_price": mean([b["paid"] for b in v]),
                  "avg_saving": mean([b["printed"] - b["paid"] for b in v])} for k, v in rows.items()})
    buys = defaultdict(lambda: [0, 0])
    for g in games:
        for b in g["buys"]:
            buys[(b["phase"], b["deck"])][0 if b["seat"] in g["winners"] else 1] += 1
    got = query_check.ask(archive, "stpete.winner_buys_by_phase")
    agree([{k: r[k] for k in ("phase", "card_deck", "winner_buys", "other_buys")} for r in got], ("phase", "card_deck"),
          {k: {"winner_buys": w, "other_buys": o} for k, (w, o) in buys.items()})
