"""7 Wonders' derived tables and named queries, on a small simulated archive, against answers counted here.

The archive (3 to 7 players, the bots ``science``, ``military``, ``civilian``, ``random``) is
projected and queried through the command line (``replay project``, ``replay query --name
seven_wonders.NAME --format json``, in the default sandbox). The expected answers never come from
SQL nor from the observer's code: each game is replayed here through the rules, strictly (a
wrong claim would stop it, so the coins each ``card_played`` writes as paid are the rules' own),
and counted in plain Python from the events, the pack's data and the table after each event:
scores and ranks from ``Views.result``, shields from the effects in each city, the coins a card
gives from its effects, strategies from the line-up the test simulated with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest
import query_check
from query_check import agree, every, grouped, mean, rate

from replay.analytics.project import derive_game
from replay.analytics.sql import all_queries, connect, run_sql
from replay.archive import Archive
from replay.driver import Replay
from replay.events import Event
from replay.games.seven_wonders import GAME
from replay.games.seven_wonders.events import CATEGORIES
from replay.games.seven_wonders.pack import Card, Effect, SevenWondersPack
from replay.registry import registry

LINEUP = ("science", "military", "civilian", "random")
PACK = GAME.pack()
assert isinstance(PACK, SevenWondersPack)
CARD = {(c.age, c.id): c for c in PACK.cards}
QUERIES = ("win_rate_by_wonder", "points_by_category", "science_vs_military", "win_rate_by_strategy",
           "coins_paid_to_neighbours", "cards_built_by_winners", "chain_use", "score_distribution", "discards_per_age")


# ----------------------------------------------------------------------------- the archive


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    return query_check.projected(tmp_path_factory, GAME, 30, (3, 7), LINEUP, seed=14)


def ask(archive: Archive, name: str, **params: Any) -> list[dict[str, Any]]:
    return query_check.ask(archive, f"seven_wonders.{name}", **params)


# ----------------------------------------------------------------------------- the replays, counted by hand


def card_of(age: int, card_id: str) -> Card:
    """A card by id as of ``age`` (a card built from the discard pile may be of an earlier Age)."""
    return next(CARD[(a, card_id)] for a in range(age, 0, -1) if (a, card_id) in CARD)


def counted(state: Any, seat: int, what: str) -> int:
    if what == "wonder_stages":
        return int(state.stages[seat])
    if what == "defeats":
        return sum(1 for t in state.tokens[seat] if t < 0)
    return sum(1 for c in state.cards(seat) if c.colour == what)


def coins_given(state: Any, seat: int, effects: Iterable[Effect]) -> int:
    """The coins effects give their owner when built, counted on the table after the turn (the rules text:
    coins once; Vineyard, Bazar, Haven, ...: coins per card of a colour on the named boards)."""
    n = len(state.names)
    boards = {"self": seat, "left": (seat + 1) % n, "right": (seat - 1) % n}
    total = 0
    for e in effects:
        if e.type == "coins":
            total += e.amount
        elif e.type == "per" and e.coins:
            total += e.coins * sum(counted(state, boards[b], what) for b in e.boards for what in e.counted)
    return total


def shields(state: Any, seat: int) -> int:
    """Military strength: the shields on the city's structures and its built Wonder stages."""
    wonder, side = state.wonders[seat]
    board = PACK.wonder_by_id[wonder].a if side == "a" else PACK.wonder_by_id[wonder].b
    effects = [e for c in state.cards(seat) for e in c.effects] + [e for s in board.stages[:state.stages[seat]]
                                                                    for e in s.effects]
    return sum(e.amount for e in effects if e.type == "shields")


def walk(archive: Archive, events: list[Event]) -> dict[str, Any]:
    """One game replayed through the rules, counted as a player with the score pad would."""
    start = events[0].payload
    n = len(start["seats"])
    seats = sorted(start["seats"], key=lambda s: s["seat"])
    r: Replay[Any] = Replay(GAME, archive.library("7wonders"), level="raise")
    out: dict[str, Any] = {"game_id": events[0].game_id, "players": n, "plays": [], "turns": [], "ages": []}
    turn: list[dict[str, Any]] = []
    coins_at_start: list[int] = []
    tokens_before: list[int] = []
    for e in events:
        s, p = r.state, e.payload
        if e.type == "card_played":
            if not turn:
                coins_at_start = list(s.coins)
            card = CARD[(p["age"], p["card"])]
            side = PACK.wonder_by_id[seats[p["seat"]]["wonder"]]
            stage = (side.a if seats[p["seat"]]["side"] == "a" else side.b).stages[s.stages[p["seat"]]] \
                if p["action"] == "wonder" else None
            cost = 0 if p["action"] == "discard" or p.get("free") else (stage.cost.coins if stage else card.cost.coins)
            paid = p.get("paid") or {}
            row = {"seq": e.seq, "seat": p["seat"], "age": p["age"], "turn": p["turn"], "card": card.id,
                   "card_age": card.age, "action": p["action"], "free": p.get("free"), "cost": cost,
                   "to_left": paid["to_left"], "to_right": paid["to_right"], "colour": card.colour,
                   "coins_before": s.coins[p["seat"]], "bought": sorted(r for side in ("left", "right")
                                                                         for r, k in (p.get(side) or {}).items()
                                                                         for _ in range(k)),
                   "effects": stage.effects if stage else card.effects if p["action"] == "build" else ()}
            out["plays"].append(row)
            turn.append(row)
        elif e.type == "discard_built" and p["card"] is not None:
            card = card_of(s.age, p["card"])
            before = s.coins[p["seat"]]
            out["plays"].append({"seq": e.seq, "seat": p["seat"], "age": s.age, "turn": out["plays"][-1]["turn"],
                                 "card": card.id, "card_age": card.age, "action": "build", "free": "discard_pile",
                                 "cost": 0, "to_left": 0, "to_right": 0, "colour": card.colour, "effects": (),
                                 "coins_before": before, "bought": []})
        elif e.type == "age_ended":
            tokens_before = [len(t) for t in s.tokens]
        r.push(e)
        s = r.state
        if e.type == "card_played" and all(c is None for c in s.chosen):  # every seat has chosen: the turn resolved
            for seat in range(n):
                mine = [x for x in turn if x["seat"] == seat]
                known = sum(3 if x["action"] == "discard" else coins_given(s, seat, x["effects"]) - x["cost"] for x in mine)
                out["turns"].append({"age": p["age"], "turn": p["turn"], "seat": seat,
                                     "trade": s.coins[seat] - coins_at_start[seat] - known})
            turn = []
        elif e.type == "discard_built" and p["card"] is not None:
            assert s.coins[p["seat"]] - before == coins_given(s, p["seat"], card_of(s.age, p["card"]).effects)
        elif e.type == "age_ended":
            for seat in range(n):
                tokens = s.tokens[seat][tokens_before[seat]:]
                mine = [x for x in out["plays"] if x["seat"] == seat and x["age"] == p["age"]]
                out["ages"].append({"age": p["age"], "seat": seat, "tokens": tokens, "shields": shields(s, seat),
                                    "discards": sum(1 for x in mine if x["action"] == "discard"),
                                    "chains": sum(1 for x in mine if x["free"] == "chain"), "coins": s.coins[seat]})
    state = r.finish()
    assert state is not None and state.phase == "over"
    result = GAME.views.result(state)
    out["seats"] = []
    for score in sorted(result.scores, key=lambda x: x.seat):
        seat = score.seat
        mine = [x for x in out["plays"] if x["seat"] == seat]
        out["seats"].append({
            "seat": seat, "players": n, "wonder": seats[seat]["wonder"], "side": seats[seat]["side"],
            "strategy": LINEUP[seat % len(LINEUP)], "total": score.total, "rank": score.rank, "won": score.won,
            "vp": dict(score.categories), "coins": state.coins[seat], "built": set(state.built[seat]),
            "paid": sum(x["to_left"] + x["to_right"] for x in mine),
            "received": sum(x["to_left"] for x in out["plays"] if (x["seat"] + 1) % n == seat)
            + sum(x["to_right"] for x in out["plays"] if (x["seat"] - 1) % n == seat),
            "chains": sum(1 for x in mine if x["free"] == "chain"),
            "discards": sum(1 for x in mine if x["action"] == "discard"),
        })
    return out


@pytest.fixture(scope="module")
def games(archive: Archive) -> list[dict[str, Any]]:
    return [walk(archive, archive.read_game(g.game_id)) for g in archive.games()]


def seats_by(games: list[dict[str, Any]], key: Any) -> dict[Any, list[dict[str, Any]]]:
    return grouped((key(s), s) for _, s in every(games, "seats"))


def table(archive: Archive, sql: str, keys: int) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """SQL rows by their first ``keys`` columns."""
    rows = run_sql(connect(archive), sql).to_pylist()
    return {tuple(r.values())[:keys]: tuple(r.values())[keys:] for r in rows}


# ----------------------------------------------------------------------------- the material


def test_the_archive_has_what_the_questions_ask_about(games: list[dict[str, Any]]) -> None:
    assert {g["players"] for g in games} == {3, 4, 5, 6, 7}
    plays = [x for _, x in every(games, "plays")]
    assert {x["action"] for x in plays} == {"build", "wonder", "discard"}
    assert sum(1 for x in plays if x["free"] == "chain") > 20
    assert any(x["free"] == "discard_pile" for x in plays)  # Halicarnassus
    assert sum(1 for x in plays if x["to_left"]) > 20 and sum(1 for x in plays if x["to_right"]) > 20
    assert {s["strategy"] for _, s in every(games, "seats")} == set(LINEUP)
    assert any(t < 0 for _, a in every(games, "ages") for t in a["tokens"])
    assert any(s["vp"]["science"] == s["vp"]["military"] for _, s in every(games, "seats"))  # the 'neither' focus


def test_every_7_wonders_query_is_named_with_its_question() -> None:
    queries = {k: q for k, q in all_queries(registry).items() if q.kind == "7wonders"}
    assert set(queries) == {f"seven_wonders.{q}" for q in QUERIES}
    assert all(q.question and q.columns for q in queries.values())


def test_every_query_runs_and_answers_with_its_columns(archive: Archive) -> None:
    for name in QUERIES:
        rows = ask(archive, name)
        assert rows, name
        columns = [c.strip() for c in all_queries(registry)[f"seven_wonders.{name}"].columns.split(",")]
        assert list(rows[0]) == columns, name


# ----------------------------------------------------------------------------- the tables against the replays


def test_players_totals_ranks_and_winners_are_the_replays_result(archive: Archive, games: list[dict[str, Any]]) -> None:
    vp = ", ".join(f"vp_{c}" for c in CATEGORIES)
    got = table(archive, f"SELECT game_id, seat, wonder, side, strategy, total, rank, won, coins, {vp} "
                         "FROM seven_wonders.players", 2)
    assert got == {(g["game_id"], s["seat"]): (s["wonder"], s["side"], s["strategy"], s["total"], s["rank"], s["won"],
                                               s["coins"], *(s["vp"][c] for c in CATEGORIES))
                   for g, s in every(games, "seats")}
    assert all(sum(s["vp"].values()) == s["total"] for _, s in every(games, "seats"))


def test_each_play_is_the_event_the_rules_accepted(archive: Archive, games: list[dict[str, Any]]) -> None:
    got = table(archive, "SELECT game_id, seq, seat, age, turn, card, card_age, action, free, cost_coins, to_left, "
                         "to_right, colour, coins_before, bought FROM seven_wonders.plays", 2)
    assert got == {(g["game_id"], x["seq"]): (x["seat"], x["age"], x["turn"], x["card"], x["card_age"], x["action"],
                                              x["free"], x["cost"], x["to_left"], x["to_right"], x["colour"],
                                              x["coins_before"], x["bought"])
                   for g, x in every(games, "plays")}
    sums = table(archive, "SELECT count(*) FILTER (WHERE trade_coins <> to_left + to_right OR coins_paid <> cost_coins "
                          "+ trade_coins OR len(bought) <> bought_left + bought_right) AS wrong FROM seven_wonders.plays", 1)
    assert sums == {(0,): ()}


def test_coins_paid_to_neighbours_are_what_the_coins_on_the_table_say(archive: Archive,
                                                                      games: list[dict[str, Any]]) -> None:
    """Each turn, a seat's coins change by what it received from its neighbours minus what it paid them
    (the rest: the card's coins, 3 for a discard, the coins its new cards give, counted here)."""
    plays = run_sql(connect(archive), "SELECT game_id, age, turn, seat, players, to_left, to_right FROM seven_wonders.plays "
                                      "WHERE free IS DISTINCT FROM 'discard_pile'").to_pylist()
    trade: Counter[tuple[str, int, int, int]] = Counter()
    for x in plays:
        n, seat = x["players"], x["seat"]
        trade[(x["game_id"], x["age"], x["turn"], seat)] -= x["to_left"] + x["to_right"]
        trade[(x["game_id"], x["age"], x["turn"], (seat + 1) % n)] += x["to_left"]
        trade[(x["game_id"], x["age"], x["turn"], (seat - 1) % n)] += x["to_right"]
    implied = {(g["game_id"], t["age"], t["turn"], t["seat"]): t["trade"] for g, t in every(games, "turns")}
    assert {k: v for k, v in trade.items() if v} == {k: v for k, v in implied.items() if v}
    assert any(implied.values())


def test_the_players_trade_is_the_sum_of_their_plays(archive: Archive, games: list[dict[str, Any]]) -> None:
    got = table(archive, "SELECT p.game_id, p.seat, p.coins_paid_to_neighbours, p.coins_from_trade, p.chains, p.discards, "
                         "coalesce(sum(x.trade_coins), 0), count(x.seq) FILTER (WHERE x.free = 'chain') "
                         "FROM seven_wonders.players p LEFT JOIN seven_wonders.plays x USING (game_id, seat) GROUP BY ALL", 2)
    for key, (paid, _, chains, _, paid_in_plays, chains_in_plays) in got.items():
        assert paid == paid_in_plays and chains == chains_in_plays, key
    assert got == {(g["game_id"], s["seat"]): (s["paid"], s["received"], s["chains"], s["discards"], s["paid"], s["chains"])
                   for g, s in every(games, "seats")}
    balance = table(archive, "SELECT game_id, sum(coins_paid_to_neighbours) - sum(coins_from_trade) "
                             "FROM seven_wonders.players GROUP BY game_id", 1)
    assert set(balance.values()) == {(0,)}  # what one seat pays, its neighbours receive


def test_ages_are_the_conflicts_and_the_plays_of_each_age(archive: Archive, games: list[dict[str, Any]]) -> None:
    got = table(archive, "SELECT game_id, age, seat, tokens, shields, military_points, victories, defeats, discards, "
                         "chains, coins FROM seven_wonders.ages", 3)
    assert got == {(g["game_id"], a["age"], a["seat"]): (a["tokens"], a["shields"], sum(a["tokens"]),
                                                         sum(1 for t in a["tokens"] if t > 0),
                                                         sum(1 for t in a["tokens"] if t < 0), a["discards"], a["chains"],
                                                         a["coins"])
                   for g, a in every(games, "ages")}
    military = table(archive, "SELECT game_id, seat, sum(military_points) FROM seven_wonders.ages GROUP BY ALL", 2)
    assert military == {(g["game_id"], s["seat"]): (s["vp"]["military"],) for g, s in every(games, "seats")}
    chains = table(archive, "SELECT a.game_id, a.age, a.seat, a.chains, a.structures, a.stages, a.coins_paid_to_neighbours, "
                            "count(x.seq) FILTER (WHERE x.free = 'chain'), count(x.seq) FILTER (WHERE x.action = 'build'), "
                            "count(x.seq) FILTER (WHERE x.action = 'wonder'), coalesce(sum(x.trade_coins), 0) "
                            "FROM seven_wonders.ages a LEFT JOIN seven_wonders.plays x USING (game_id, age, seat) "
                            "GROUP BY ALL", 3)
    assert all(v[:4] == v[4:] for v in chains.values())


def test_every_table_is_filled_and_its_rows_fit_its_schema(archive: Archive, games: list[dict[str, Any]]) -> None:
    counts = {"plays": sum(len(g["plays"]) for g in games), "players": sum(g["players"] for g in games),
              "ages": 3 * sum(g["players"] for g in games)}
    query_check.check_tables(archive, GAME, counts)
    con = connect(archive)
    cards = run_sql(con, "SELECT age, id, colour, chain_from, min_players FROM seven_wonders.cards ORDER BY age, id").to_pylist()
    assert [(c["age"], c["id"], c["colour"], tuple(c["chain_from"])) for c in cards] == \
        sorted((c.age, c.id, c.colour, c.chain_from) for c in PACK.cards)
    assert {c["min_players"] for c in cards if c["colour"] == "purple"} == {3}


def test_the_tables_never_read_the_claims() -> None:
    """A game whose claims are wrong (a payment, the tokens, the scores) gives the same rows: the rules' values."""
    events = GAME.bots.simulate("claims", ["Ana", "Ben", "Chloe", "Dev"], 5, LINEUP, PACK) if GAME.bots else []
    honest = derive_game(GAME, events, GAME.library(), ended=True)
    wrong = []
    for e in events:
        p = e.payload
        if e.type == "card_played" and p.get("paid"):
            p = {**p, "paid": {"to_left": (p["paid"]["to_left"] or 0) + 2, "to_right": (p["paid"]["to_right"] or 0) + 1}}
        elif e.type == "age_ended":
            p = {**p, "tokens": [[5, 5] for _ in p["tokens"]]}
        elif e.type == "game_ended":
            p = {**p, "scores": [{**s, "total": 99, "science": 40} for s in p["scores"]]}
        wrong.append(e._replace(payload=p))
    disputed = derive_game(GAME, wrong, GAME.library(), ended=True)
    assert disputed["games"][0]["problems"] > 0
    assert {k: v for k, v in disputed.items() if k.startswith("seven_wonders.")} == \
        {k: v for k, v in honest.items() if k.startswith("seven_wonders.")}


def test_a_game_without_a_recorded_strategy_has_none() -> None:
    query_check.strategies_unrecorded(GAME, ("science",), ("plays", "players", "ages"))


# ----------------------------------------------------------------------------- each query against the hand count


def test_win_rate_by_wonder(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {k: {"seats": len(v), "wins": sum(s["won"] for s in v), "win_rate": rate(v, lambda s: s["won"]),
                    "fair_share": mean([1 / s["players"] for s in v]), "avg_total": mean([s["total"] for s in v]),
                    "avg_rank": mean([s["rank"] for s in v]), "avg_vp_wonder": mean([s["vp"]["wonder"] for s in v])}
                for k, v in seats_by(games, lambda s: (s["wonder"], s["side"])).items()}
    got = ask(archive, "win_rate_by_wonder")
    agree(got, ("wonder", "side"), expected)
    assert [r["win_rate"] for r in got] == sorted((r["win_rate"] for r in got), reverse=True)
    kept = ask(archive, "win_rate_by_wonder", min_seats=8)
    assert {(r["wonder"], r["side"]) for r in kept} == {k for k, v in expected.items() if v["seats"] >= 8}


def test_points_by_category(archive: Archive, games: list[dict[str, Any]]) -> None:
    seats = [s for _, s in every(games, "seats")]
    everything = sum(s["total"] for s in seats)
    expected = {(c,): {"seats": len(seats), "avg_points": mean([s["vp"][c] for s in seats]),
                       "share": sum(s["vp"][c] for s in seats) / everything,
                       "avg_points_winners": mean([s["vp"][c] for s in seats if s["won"]]),
                       "avg_points_others": mean([s["vp"][c] for s in seats if not s["won"]]),
                       "max_points": max(s["vp"][c] for s in seats)} for c in CATEGORIES}
    got = ask(archive, "points_by_category")
    agree(got, ("category",), expected)
    assert abs(sum(r["share"] for r in got) - 1) < 1e-3


@pytest.mark.parametrize("margin", [0, 3])
def test_science_vs_military(archive: Archive, games: list[dict[str, Any]], margin: int) -> None:
    def focus(s: dict[str, Any]) -> str:
        science, military = s["vp"]["science"], s["vp"]["military"]
        return "science" if science - military > margin else "military" if military - science > margin else "neither"

    every_seat = sum(g["players"] for g in games)
    expected = {(k,): {"seats": len(v), "seat_share": len(v) / every_seat, "wins": sum(s["won"] for s in v),
                       "win_rate": rate(v, lambda s: s["won"]), "avg_total": mean([s["total"] for s in v]),
                       "avg_vp_science": mean([s["vp"]["science"] for s in v]),
                       "avg_vp_military": mean([s["vp"]["military"] for s in v])}
                for k, v in seats_by(games, focus).items()}
    agree(ask(archive, "science_vs_military", margin=margin), ("focus",), expected)


def test_win_rate_by_strategy(archive: Archive, games: list[dict[str, Any]]) -> None:
    """The win rates recomputed from the seats, one by one."""
    expected = {k: {"seats": len(v), "wins": sum(s["won"] for s in v), "win_rate": rate(v, lambda s: s["won"]),
                    "avg_total": mean([s["total"] for s in v]),
                    **{f"avg_vp_{c}": mean([s["vp"][c] for s in v]) for c in ("science", "military", "civilian")}}
                for k, v in seats_by(games, lambda s: (s["players"], s["strategy"])).items()}
    agree(ask(archive, "win_rate_by_strategy"), ("players", "strategy"), expected)
    assert sum(v["wins"] for v in expected.values()) >= len(games)  # every game has a winner
    kept = ask(archive, "win_rate_by_strategy", min_seats=7)
    assert {(r["players"], r["strategy"]) for r in kept} == {k for k, v in expected.items() if v["seats"] >= 7}


def test_coins_paid_to_neighbours(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {}
    for n, gs in grouped((g["players"], g) for g in games).items():
        seats = [s for _, s in every(gs, "seats")]
        plays = [x for _, x in every(gs, "plays")]
        paid_plays = [x for x in plays if x["action"] != "discard" and x["free"] is None]
        buying = [x for x in plays if x["to_left"] + x["to_right"]]
        expected[(n,)] = {"seats": len(seats), "avg_paid": mean([s["paid"] for s in seats]),
                          "max_paid": max(s["paid"] for s in seats),
                          "avg_paid_winners": mean([s["paid"] for s in seats if s["won"]]),
                          "avg_paid_others": mean([s["paid"] for s in seats if not s["won"]]),
                          "paid_plays": len(paid_plays), "buying_plays": len(buying),
                          "buying_share": len(buying) / len(paid_plays),
                          "avg_coins_per_buying_play": mean([x["to_left"] + x["to_right"] for x in buying])}
    agree(ask(archive, "coins_paid_to_neighbours"), ("players",), expected)


def test_cards_built_by_winners(archive: Archive, games: list[dict[str, Any]]) -> None:
    seats = [s for _, s in every(games, "seats")]
    winners, others = [s for s in seats if s["won"]], [s for s in seats if not s["won"]]
    colour = {c.id: c.colour for c in PACK.cards}
    expected = {}
    for card in {c for s in seats for c in s["built"]}:
        by_winners = sum(1 for s in winners if card in s["built"])
        by_others = sum(1 for s in others if card in s["built"])
        if by_winners:
            lift = (by_winners / len(winners)) / (by_others / len(others)) if by_others else None
            expected[(card,)] = {"colour": colour[card], "by_winners": by_winners, "winner_rate": by_winners / len(winners),
                                 "by_others": by_others, "other_rate": by_others / len(others),
                                 **({"lift": lift} if lift is not None else {})}
    got = ask(archive, "cards_built_by_winners", top=500)
    agree(got, ("card",), expected)
    order = sorted(expected, key=lambda k: (-expected[k]["by_winners"], k[0]))
    top = ask(archive, "cards_built_by_winners", top=5, min_builds=2)
    assert [r["card"] for r in top] == [k[0] for k in order if expected[k]["by_winners"] >= 2][:5]


def test_chain_use(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {}
    for age, builds in grouped((x["age"], x) for _, x in every(games, "plays") if x["action"] == "build").items():
        chainable = [x for x in builds if CARD[(x["card_age"], x["card"])].chain_from]
        chained = [x for x in builds if x["free"] == "chain"]
        seat_ages = [a for _, a in every(games, "ages") if a["age"] == age]
        expected[(age,)] = {"builds": len(builds), "chainable_builds": len(chainable), "chain_builds": len(chained),
                            "chains_per_seat": len(chained) / len(seat_ages),
                            "seats_chaining_share": rate(seat_ages, lambda a: a["chains"] > 0),
                            **({"chain_share": len(chained) / len(chainable)} if chainable else {})}
    got = ask(archive, "chain_use")
    agree(got, ("age",), expected)
    assert got[0]["age"] == 1 and got[0]["chain_builds"] == 0 and got[0]["chain_share"] is None  # Age I has no chains


@pytest.mark.parametrize("width", [10, 7])
def test_score_distribution(archive: Archive, games: list[dict[str, Any]], width: int) -> None:
    expected = {}
    by_players = seats_by(games, lambda s: s["players"])
    for (n, low), v in seats_by(games, lambda s: (s["players"], s["total"] // width * width)).items():
        expected[(n, low)] = {"to_total": low + width - 1, "seats": len(v), "share": len(v) / len(by_players[n]),
                              "wins": sum(s["won"] for s in v)}
    got = ask(archive, "score_distribution", width=width)
    agree(got, ("players", "from_total"), expected)
    assert sum(r["seats"] for r in got) == sum(g["players"] for g in games)


def test_discards_per_age(archive: Archive, games: list[dict[str, Any]]) -> None:
    expected = {(age,): {"seat_ages": len(v), "discards": sum(a["discards"] for a in v),
                         "avg_discards": mean([a["discards"] for a in v]), "max_discards": max(a["discards"] for a in v),
                         "discarding_share": rate(v, lambda a: a["discards"] > 0),
                         "avg_coins_at_end": mean([a["coins"] for a in v])}
                for age, v in grouped((a["age"], a) for _, a in every(games, "ages")).items()}
    agree(ask(archive, "discards_per_age"), ("age",), expected)
