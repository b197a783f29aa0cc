"""Pantheon's hidden information: until Age II's reveal a seat's observation never names a Divinity
the other seat drew or put face down (nor tells it by the deck it came from, nor the top the other
put back), and names them all once they are turned up; the page's seat views and headlines do
not leak them either; ``conceal`` changes only what ``observe`` hides."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from replay.driver import Replay
from replay.events import Event
from replay.games.seven_wonders_duel import GAME, simulate_game
from replay.games.seven_wonders_duel.state import State
from replay.services.logs import Log
from replay.services.page import page_data, page_state

NAMES = ["Ana", "Ben"]
SEEDS = range(6)


@cache
def game(pack_id: str, seed: int) -> list[Event]:
    return simulate_game(f"hidden-{pack_id}-{seed}", NAMES, seed, ("random",), GAME.pack(pack_id))


def steps(events: list[Event]) -> list[tuple[Event, State]]:
    r = Replay(GAME)
    out = []
    for e in events:
        r.push(e)
        assert r.state is not None
        out.append((e, State.of_data(r.state.data(), r.state.pack)))
    return out


def secret_of(state: State, seat: int) -> set[str]:
    """The Divinities the other seat has drawn or put face down, which ``seat`` has not seen."""
    pan = state.pantheon
    assert pan is not None
    out = {s["divinity"] for s in pan["spaces"] if s is not None and not s["face_up"] and s["by"] == 1 - seat}
    if pan["drawn"] and state.queue and state.queue[0][:2] == ["place", 1 - seat]:
        out |= set(pan["drawn"])
    return out


def words(data: Any) -> set[str]:
    """Every string anywhere in ``data``."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return {w for v in data.values() for w in words(v)}
    if isinstance(data, list):
        return {w for v in data for w in words(v)}
    return set()


def test_a_seat_never_sees_the_other_seats_face_down_divinities_before_the_reveal() -> None:
    hidden_seen = 0
    for pack_id in ("7wd-duel-pantheon", "7wd-duel-pantheon-agora"):
        for seed in SEEDS:
            for _, state in steps(game(pack_id, seed)):
                if state.age != 1 or state.pantheon is None:
                    continue
                for seat in (0, 1):
                    secret = secret_of(state, seat)
                    seen = GAME.views.observe(state, seat)
                    assert not secret & words(seen["pantheon"]), f"seat {seat} sees {secret & words(seen['pantheon'])}"
                    hidden_seen += bool(secret)
                    # its own face-down Divinities it does see
                    own = [s for s in state.pantheon["spaces"] if s is not None and s["by"] == seat]
                    assert [s["divinity"] for s in own] == [s["divinity"] for s in seen["pantheon"]["spaces"]
                                                             if s is not None and s["by"] == seat]
    assert hidden_seen > 100


def test_the_back_and_the_deck_size_stay_visible() -> None:
    """What the table showed: a face-down card's mythology, how many cards each deck holds."""
    events = game("7wd-duel-pantheon", 1)
    backs = {d: g["mythology"] for d, g in GAME.views.page_board(steps(events)[0][1])["pantheon"]["divinities"].items()}
    for _, state in steps(events):
        pan = state.pantheon
        assert pan is not None
        seen = GAME.views.observe(state, 0)["pantheon"]
        assert {m: len(d) for m, d in seen["decks"].items()} == {m: len(d) for m, d in pan["decks"].items()}
        for mine, theirs in zip(pan["spaces"], seen["spaces"]):
            if mine is not None and theirs["divinity"] is None:
                assert not mine["face_up"] and mine["by"] == 1
                assert theirs["mythology"] == backs[mine["divinity"]]


def test_after_the_reveal_every_seat_sees_the_pantheon() -> None:
    checked = 0
    for seed in SEEDS:
        for event, state in steps(game("7wd-duel-pantheon", seed)):
            if event.type == "age_dealt" and event.payload["age"] == 2:
                pan = state.pantheon
                assert pan is not None and all(s["face_up"] for s in pan["spaces"] if s is not None)
                for seat in (0, 1):
                    seen = GAME.views.observe(state, seat)["pantheon"]
                    assert seen["spaces"] == pan["spaces"]
                    assert seen["decks"] == pan["decks"]  # the contents are known by elimination; only a top is not
                checked += 1
    assert checked == len(SEEDS)


def test_a_top_put_back_is_known_to_its_drawer_only() -> None:
    """Seed 1: Ben draws Ishtar and Nisaba, places Nisaba and puts Ishtar back on top."""
    for event, state in steps(game("7wd-duel-pantheon", 1)):
        if event.type == "divinity_chosen" and event.payload == {"seat": 1, "divinity": "nisaba", "space": 2}:
            assert GAME.views.observe(state, 1)["pantheon"]["tops"]["mesopotamian"] == ["ishtar"]
            assert GAME.views.observe(state, 0)["pantheon"]["tops"]["mesopotamian"] == [None]
            assert GAME.views.observe(state, 0)["pantheon"]["decks"]["mesopotamian"] == [None, None]
            return
    raise AssertionError("seed 1 no longer places Nisaba")


def test_conceal_changes_only_what_observe_hides() -> None:
    rng = random.Random(3)
    concealed = 0
    for seed in SEEDS[:3]:
        for _, state in steps(game("7wd-duel-pantheon", seed)):
            for seat in (0, 1):
                other = GAME.views.conceal(state, seat, rng)
                if other is None:
                    continue
                concealed += 1
                assert GAME.views.data(other) != GAME.views.data(state)
                assert GAME.views.observe(other, seat) == GAME.views.observe(state, seat)
                assert GAME.views.observe(other, 1 - seat) != GAME.views.observe(state, 1 - seat)
    assert concealed > 50


def test_the_page_leaks_no_face_down_divinity() -> None:
    """A seat's view on the page, its board data and the headlines of the draws and placings."""
    events = game("7wd-duel-pantheon", 1)
    version = page_data([Log(events, GAME, "page")])["versions"][0]
    board = json.dumps(version["board"])
    for i, (event, state) in enumerate(steps(events)):
        headline = version["events"][i]["headline"]
        if event.type == "divinities_drawn" and event.payload["mythology"]:
            assert not set(event.payload["divinities"]) & set(headline.replace(",", " ").split())
        if event.type == "divinity_chosen" and event.payload["space"] is not None:
            assert event.payload["divinity"] not in headline.split()
        if state.age == 1:
            for seat, name in enumerate(NAMES):
                secret = secret_of(state, seat)
                assert not secret & words(page_state(version, name, i)["pantheon"])
    # the board holds the pack's names only: the same whatever the table
    first, last = steps(events)[0][1], steps(events)[-1][1]
    assert GAME.views.page_board(first) == GAME.views.page_board(last)
    assert json.loads(board) == GAME.views.page_board(first)
