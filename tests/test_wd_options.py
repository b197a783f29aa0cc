"""The named ruleset options: each ruling where the texts are silent, and its alternative."""

from __future__ import annotations

from wd_table import PASS, Table, bonus, build


def _agora_all_but_last(p):
    p.coins = 30
    p.crossed["agora"] = {f"r{r}c{c}" for r in range(3) for c in range(3)} - {"r2c2"}


def _both_complete_agora(options):
    t = Table(options=options)
    for seat in (0, 1):
        _agora_all_but_last(t.player(seat))
    t.roll(blue=("fountain", 0))
    t.act(0, build("blue", "agora", "fountain", "r2c2"), bonus(2))
    t.act(1, build("blue", "agora", "fountain", "r2c2"), bonus(2))
    t.end()
    return [t.player(s).vp["agora"] for s in (0, 1)]


def test_agora_first_on_the_same_turn():
    assert _both_complete_agora({}) == [8, 8]  # ruling 2: each gets the 3 VP
    assert _both_complete_agora({"agora_first_same_turn": "none"}) == [5, 5]
    assert _both_complete_agora({"resolution": "seat_order"}) == [8, 5]  # the first in seat order


def test_seat_order_resolution_sees_earlier_seats_this_turn():
    for resolution, vp in (("simultaneous", 3), ("seat_order", 2)):
        t = Table(options={"resolution": resolution})
        t.roll(red=("shield", 0))
        t.act(0, build("red", "barracks_east", "shield", "shield1"))
        t.state.roll["red"] = ("sword", 0)
        t.act(1, build("red", "barracks_west", "sword", "sword1"), claims={"vp": vp})


def test_resources_spent_on_payment():
    for resources, paid in (("permanent", 0), ("spent", 1)):
        t = Table(options={"resources": resources})
        t.player(0).crossed["warehouse"] = {"stone"}
        t.roll(blue=("owl", 0), yellow=("coins", 0))
        t.act(0, build("blue", "agora", "owl", "r0c1"), claims={"paid": 0})  # cost 1, one resource
        t.act(1, PASS)
        t.end()
        t.roll(blue=("owl", 0))
        t.act(0, build("blue", "agora", "owl", "r1c1"), claims={"paid": 2 - 1 + paid})  # cost 2


def test_coin_cap():
    t = Table(options={"coin_cap": 9})
    t.roll()
    t.act(0, PASS, claims={"coins": 9})
    t.act(1, PASS, claims={"coins": 9})


def test_barracks_as_one_building_for_the_completion_bonus():
    for barracks, asks_bonus in (("two_buildings", True), ("one_building", False)):
        t = Table(options={"barracks": barracks})
        a = t.player(0)
        a.coins = 30
        a.crossed["barracks_west"] = {"shield1", "shield2", "axe1", "axe2", "sword1", "sword2"}
        t.roll(red=("sword", 0))
        steps = [build("red", "barracks_west", "sword", "sword3")] + ([bonus(2)] if asks_bonus else [])
        t.act(0, *steps)
        assert a.bonuses[2] is asks_bonus
