"""Fleet's derived tables and its six named queries, on a small simulated archive (both packs, 2 to
4 players), against answers counted here from the events: the first license each seat bought, the
winning bids, how each game ended, from the log itself; VP by category from the rules' result.
Nothing expected comes from SQL or from the derived tables."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
import query_check
from query_check import agree, mean, rate

from replay.archive import Archive
from replay.driver import replay
from replay.games.fleet import GAME
from replay.services.simulation import simulate_games

LINEUP = ("greedy", "frugal", "random")


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    archive = query_check.projected(tmp_path_factory, GAME, 24, (2, 4), LINEUP, seed=3)
    simulate_games(GAME, archive, 12, (2, 4), LINEUP, seed=4, pack=GAME.pack("fleet-gone-fishin"))
    from click.testing import CliRunner

    from replay.cli.main import cli

    result = CliRunner().invoke(cli, ["project", "-a", str(archive.root)])
    assert result.exit_code == 0, result.output
    return archive


@pytest.fixture(scope="module")
def counted(archive: Archive) -> list[dict[str, Any]]:
    """Each game counted by hand from its events (and the rules' final result for VP)."""
    out = []
    for g in archive.games():
        events = archive.read_game(g.game_id)
        r = replay(GAME, events, archive.library("fleet"))
        assert r.state is not None
        result = GAME.views.result(r.state)
        first: dict[int, str] = {}
        sales = []
        bid = 0
        rnd = 0
        raises = 0
        for e in events:
            p = e.payload
            if e.type == "round_started":
                rnd = p["round"]
            elif e.type == "auction_opened":
                bid, raises = p["bid"], 0
            elif e.type == "bid_raised":
                bid, raises = p["bid"], raises + 1
            elif e.type == "license_bought":
                first.setdefault(p["seat"], p["license"])
                sales.append({"round": rnd, "license": p["license"], "price": bid, "raises": raises})
        end = events[-1].payload
        n = len(r.names)
        out.append({"players": n, "gone_fishin": r.state.pack.gone_fishin.enabled, "reason": end["reason"], "rounds": rnd,
                    "seats": [{"seat": s.seat, "won": s.won, "total": s.total, "first": first.get(s.seat, "none"),
                               "categories": s.categories, "licenses": set(r.state.licenses[s.seat])}
                              for s in result.scores],
                    "sales": sales})
    return out


def test_tables_have_their_rows(archive, counted):
    query_check.check_tables(archive, GAME, {
        "licenses": sum(len(g["sales"]) for g in counted), "players": sum(g["players"] for g in counted),
        "holdings": sum(len(s["licenses"]) for g in counted for s in g["seats"]), "endings": len(counted)})


def test_win_rate_by_first_license(archive, counted):
    groups: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for g in counted:
        for s in g["seats"]:
            groups[(g["players"], s["first"])].append(s)
    agree(query_check.ask(archive, "fleet.win_rate_by_first_license"), ("players", "first_license"), {
        k: {"seats": len(v), "wins": sum(s["won"] for s in v), "win_rate": rate(v, lambda s: s["won"]),
            "avg_total": mean([s["total"] for s in v])} for k, v in groups.items()})


def test_vp_by_category(archive, counted):
    groups: dict[tuple[int, bool], list[dict[str, Any]]] = defaultdict(list)
    for g in counted:
        for s in g["seats"]:
            groups[(g["players"], s["won"])].append(s)
    crab = ("crab_captains", "crab_fish", "crab_licenses")
    agree(query_check.ask(archive, "fleet.vp_by_category"), ("players", "won"), {
        k: {"seats": len(v), "avg_total": mean([s["total"] for s in v]),
            "avg_fish": mean([s["categories"]["fish"] for s in v]),
            "avg_crab": mean([sum(s["categories"][c] for c in crab) for s in v]),
            "avg_gone_fishin": mean([s["categories"]["gone_fishin"] for s in v])} for k, v in groups.items()})


def test_license_value_to_winners(archive, counted):
    seats = [s for g in counted for s in g["seats"]]
    winners = [s for s in seats if s["won"]]
    others = [s for s in seats if not s["won"]]
    kinds = {x for s in seats for x in s["licenses"]}
    agree(query_check.ask(archive, "fleet.license_value_to_winners"), ("license",), {
        (x,): {"winners_holding": sum(x in s["licenses"] for s in winners),
               "others_holding": sum(x in s["licenses"] for s in others),
               "winner_share": sum(x in s["licenses"] for s in winners) / len(winners)} for x in kinds})


def test_auction_prices_by_round(archive, counted):
    by_round: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for g in counted:
        for sale in g["sales"]:
            by_round[sale["round"]].append(sale)
    agree(query_check.ask(archive, "fleet.auction_prices_by_round"), ("round",), {
        (r,): {"sold": len(v), "avg_price": mean([x["price"] for x in v]),
            "contested_share": rate(v, lambda x: x["raises"] > 0)} for r, v in by_round.items()})
    cod = query_check.ask(archive, "fleet.auction_prices_by_round", license="cod")
    assert sum(r["sold"] for r in cod) == sum(1 for g in counted for x in g["sales"] if x["license"] == "cod")


def test_how_games_end(archive, counted):
    groups: dict[tuple[int, bool, str], list[dict[str, Any]]] = defaultdict(list)
    for g in counted:
        groups[(g["players"], g["gone_fishin"], g["reason"])].append(g)
    agree(query_check.ask(archive, "fleet.how_games_end"), ("players", "gone_fishin", "reason"), {
        k: {"games": len(v), "avg_rounds": mean([g["rounds"] for g in v]),
            "game_share": len(v) / sum(len(w) for j, w in groups.items() if j[:2] == k[:2])} for k, v in groups.items()})


def test_player_count_effect(archive, counted):
    groups: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for g in counted:
        groups[g["players"]].append(g)

    def margin(g: dict[str, Any]) -> int:
        totals = sorted((s["total"] for s in g["seats"]), reverse=True)
        return totals[0] - totals[1]

    agree(query_check.ask(archive, "fleet.player_count_effect"), ("players",), {
        (n,): {"games": len(v), "avg_rounds": mean([g["rounds"] for g in v]),
            "avg_winning_total": mean([max(s["total"] for s in g["seats"]) for g in v]),
            "avg_margin": mean([margin(g) for g in v]), "fish_end_share": rate(v, lambda g: g["reason"] == "fish")}
        for n, v in groups.items()})

