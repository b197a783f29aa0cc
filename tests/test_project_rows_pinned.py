"""7 Wonders Dice's derived rows, pinned on many games: the sha256 of every derived table (the
Arrow tables a projection worker hands on, row by row in their order, with their schema) for
300 seeded games of 2-7 players under six rule packs (the default, 0.1.0, packs setting the
other options, and the every-variant packs of both other resolutions) and two bot mixes.

The digests were computed on the projection before its columnar rows (commit ffaa2d2, the
row-dict observers): a faster way to derive them must give these tables exactly.
``test_project_pinned.py`` covers the rest (every kind, disputed and illegal events, live
games, parts and workers) on fewer games.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pyarrow as pa
import pytest
from helpers import every_variant_content

from replay.analytics.project import _tables, derive_game, derive_records, tables_of
from replay.games.wonders_dice import GAME as WD
from replay.games.wonders_dice import simulate_game
from replay.games.wonders_dice.rules_data import Ruleset, default_ruleset, shipped_rulesets

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]


def _pack(version: str, options: dict[str, Any], every: bool = False) -> Ruleset:
    data = default_ruleset().model_dump(mode="json")
    data["version"] = version
    data["options"] = {**data["options"], **options}
    if every:
        every_variant_content(data)
    return Ruleset.model_validate(data)


EVERY = {"extra_action_pass": True, "void_actions": True, "income": "when_chosen", "cross_mandatory": True,
         "free_action_wonder": True, "per_space_vp": "max", "completion": "at_crossing"}
PACKS: dict[str, Ruleset] = {
    "default": default_ruleset(),
    "0.1.0": shipped_rulesets()["7wd-default-0.1.0"],
    "spent-cap9": _pack("0.2.0-pin-a", {"resources": "spent", "coin_cap": 9, "barracks": "one_building",
                                        "agora_first_same_turn": "none"}),
    "after-action": _pack("0.2.0-pin-b", {"income": "after_action", "completion": "after_effects",
                                          "per_space_vp": "max"}),
    "every-seat-order": _pack("0.2.0-pin-c", {**EVERY, "resolution": "seat_order"}, every=True),
    "every-two-phase": _pack("0.2.0-pin-d", {**EVERY, "resolution": "two_phase"}, every=True),
}
BOTS = {"random": ("random",), "greedy": ("greedy", "random")}

PINNED: dict[str, str] = {
    "default/random/games":
        "80:ebb6079bdcad2b81437b0a96e5c2d14d218f371e62af2e7be5e7726c40d57962",
    "default/random/players":
        "356:0b108488478ae92f06e89518dbffd7fcf3460b6d2baff9b7256ca4df36d1c113",
    "default/random/wonders_dice.players":
        "356:c366a659fe74dfd67c145c6c0347ee07074b683b4b13a48ac18084f812485fce",
    "default/random/wonders_dice.turn_states":
        "14790:68960d01d9c09c4959bceac0180023799452b660d392ccc6b9cf98a2684a2268",
    "default/random/wonders_dice.dice":
        "23520:4d6d2a11c61494fdff634f2378bf8dcebcae6f889bef2dff0dc897b38d802dde",
    "default/random/wonders_dice.actions":
        "14790:30cbf3a5602df6527f0cefd2d02436f32efe4241ab1e804b944653dd46c19aaf",
    "default/greedy/games":
        "40:3727d435e6a06d3efa48b3fa08c745e9481b5fcdec1bc4772d0c5569c49d87c1",
    "default/greedy/players":
        "176:7681eb77ebfb734653822be4d02589cc95021f9f04acc05f27f4285ce80dd8e7",
    "default/greedy/wonders_dice.players":
        "176:eaa332b7fa5ba306f630c3c313277f5ed77f040c3bbaa9ca6d0ba8ecc650b559",
    "default/greedy/wonders_dice.turn_states":
        "5017:85235429a099a9aac460397a0b81a094c48bc53daec6ce02318aa221d1d45034",
    "default/greedy/wonders_dice.dice":
        "8050:eb8fc8e9c673dab586dd4760a36dc774b447fe6d3d4a35cf6779f838fa4eda0a",
    "default/greedy/wonders_dice.actions":
        "5017:c23d72cd225684f7c07797a6e8d73be48d468e035b9179e43efb2e16d1e13d15",
    "0.1.0/greedy/games":
        "36:c6073d90d235af9c65979e4749a7ffbb34612c29538c43643e7068e55326c4c1",
    "0.1.0/greedy/players":
        "162:c36b87c010fd4bef4ac7b01a9a449641a6bf7098e450bd29dfa7da0034da2c6e",
    "0.1.0/greedy/wonders_dice.players":
        "162:5a43284241d1006792ab7fae4c29cb3405e08aa154fc6fa648613be3ff1ab48e",
    "0.1.0/greedy/wonders_dice.turn_states":
        "4283:11ada741ef82b9aea8c927d6a11f452c442e1a9742bd50a8947420e9a7dd6a7d",
    "0.1.0/greedy/wonders_dice.dice":
        "6804:9ad3096bd322ebe51d2df19df365a0dd78cf29cd5adfa2869510460b2cc3678a",
    "0.1.0/greedy/wonders_dice.actions":
        "4283:98766b9910849057466bdc02639eaba46230390d918767e97b25dad80d4c195c",
    "spent-cap9/random/games":
        "36:5b7ee3966fa5076f4050f6218c84d562a0abf7d9cddd5c103fc33ba4463d3d86",
    "spent-cap9/random/players":
        "162:2fc75a66f1882ef6b60859f22f5c9a54247bc7687c972847905d6438fbfc1087",
    "spent-cap9/random/wonders_dice.players":
        "162:f3046890971b829cf8f4d63276a3dd68bc967efb71e391f53c72f8cbcfdfbc70",
    "spent-cap9/random/wonders_dice.turn_states":
        "9996:6f9d6993262605794a487056a4a429b664f6cbf62f6b236ab57286513894265c",
    "spent-cap9/random/wonders_dice.dice":
        "15883:effadffa260c484a002e48dfaab6347388a72feb6368ed6c1e3873dae72f5d60",
    "spent-cap9/random/wonders_dice.actions":
        "9996:dc6ef9a2bc53dd256747d68f041658190fa6a681a82c71b9336009f11effd116",
    "after-action/greedy/games":
        "36:402ef28884516f43404699d54bb811646c377dd02ca6b7c132fcdeceb9c6913d",
    "after-action/greedy/players":
        "162:7d8959fa6a8dca85644607221f528acb95c33d096e6f1a3e6ef05b591510151f",
    "after-action/greedy/wonders_dice.players":
        "162:a8862f8bf7b783b91f0b6eb9ce71da40751dd7ff74a0d5dc8e6a5523432178be",
    "after-action/greedy/wonders_dice.turn_states":
        "4606:44994a8ab22fc599584b79955b532635cb0a0e017ba8e77a632f964f499d34ba",
    "after-action/greedy/wonders_dice.dice":
        "7182:e08f4898bbec95a64fd3ddfee89fd78d909c10527256efdb55888ebc678cf1c3",
    "after-action/greedy/wonders_dice.actions":
        "4606:cf387933db09bacd570ad74715bb47633df4d2c891e9c402d724db19d47031e7",
    "every-seat-order/greedy/games":
        "36:3c66ece13fb68c1813ee6d9640b5399c742f0be13921d594e2010bdc4292998c",
    "every-seat-order/greedy/players":
        "162:234507948c5f5f4ab6829899916a4f7efcf141210ccdea771c22a10fc1a9903a",
    "every-seat-order/greedy/wonders_dice.players":
        "162:bf601d2d774862137e579f6518fe67425c2098badbbca0eb36c705dc01705f22",
    "every-seat-order/greedy/wonders_dice.turn_states":
        "4359:85f770a5d160576fed65493c712e1a8a8d9f906485191321007a0345327836b8",
    "every-seat-order/greedy/wonders_dice.dice":
        "6818:588ee0e41c1c2d287df14aacbc94e6f2beb4f33bd015d8de7183f253eaa154b6",
    "every-seat-order/greedy/wonders_dice.actions":
        "4359:ec4f281f3afe0a87aef3bef2ed4237e3529289e1958761ddad52757b64f5175d",
    "every-two-phase/random/games":
        "36:b444b820cfc1c8dda7b911ce2d8c2cb2da75bcc124b075847ed49ecc4c22a741",
    "every-two-phase/random/players":
        "162:35aa65c2c9bd4670e208cd1f0b0fcee333e6e554f5755dd03f28ba14674668a7",
    "every-two-phase/random/wonders_dice.players":
        "162:454efcef8b1ba5566879ff3410b72e8a8cd3a9e3e93acfb1126547e669f46670",
    "every-two-phase/random/wonders_dice.turn_states":
        "6639:ce465287c6a17b12789b0028358ceb6703dcea54ddb29ffbade75423161d5335",
    "every-two-phase/random/wonders_dice.dice":
        "10493:cade0d164d15b9210d28eeb4c6cb96c1f39f828c9c80ed1edf029b80a98eea05",
    "every-two-phase/random/wonders_dice.actions":
        "6639:844429d01e5ac86cd151b993af2e10bb014621eda0837fe0ee8f6b1c604e7dc6",
}


def _digest(table: pa.Table) -> str:
    rows = "\n".join(json.dumps(r, sort_keys=True, separators=(",", ":")) for r in table.to_pylist())
    text = rows + "\n" + table.schema.remove_metadata().to_string()
    return f"{table.num_rows}:{hashlib.sha256(text.encode()).hexdigest()}"


def derived(pack_name: str, bots: str, games: int) -> dict[str, str]:
    pack = PACKS[pack_name]
    library = WD.library(extra=[pack])
    rows = {}
    for i in range(games):
        events = simulate_game(f"{pack_name}-{bots}-{i}", NAMES[: 2 + i % 6], 7000 + i, BOTS[bots], pack)
        rows[events[0].game_id] = derive_records(WD, events, library, True)
    skipped: dict[str, str] = {}
    tables = _tables(rows, tables_of(WD), skipped)
    assert skipped == {}
    return {name: _digest(table) for name, table in tables.items()}


CASES = [("default", "random", 80), ("default", "greedy", 40), ("0.1.0", "greedy", 36), ("spent-cap9", "random", 36),
         ("after-action", "greedy", 36), ("every-seat-order", "greedy", 36), ("every-two-phase", "random", 36)]


@pytest.mark.parametrize("pack_name,bots,games", CASES)
def test_wonders_dice_derived_tables_are_the_pinned_ones(pack_name, bots, games):
    got = derived(pack_name, bots, games)
    assert got == {t: PINNED[f"{pack_name}/{bots}/{t}"] for t in got}


if __name__ == "__main__":  # print the digests (to pin them on the code before a change)
    for case in CASES:
        for table, digest in derived(*case).items():
            print(f'    "{case[0]}/{case[1]}/{table}":\n        "{digest}",')


def test_the_rows_as_dicts_make_the_same_tables_as_the_records():
    """``derive_game`` (every row a dict, what ``TableObserver.rows`` gives) and the records the
    projection uses make the same Arrow tables."""
    library = WD.library()
    events = [simulate_game(f"same-{i}", NAMES[: 2 + i % 6], 8000 + i, ("greedy", "random")) for i in range(6)]
    by_records = _tables({e[0].game_id: derive_records(WD, e, library, True) for e in events}, tables_of(WD), {})
    by_dicts = _tables({e[0].game_id: (derive_game(WD, e, library, True), {}) for e in events}, tables_of(WD), {})
    assert set(by_records) == set(by_dicts)
    for name, table in by_records.items():
        assert table.equals(by_dicts[name]) and table.schema.equals(by_dicts[name].schema), name


def test_a_record_of_the_wrong_width_skips_and_names_only_its_game():
    library = WD.library()
    good, bad = (simulate_game(f"width-{i}", NAMES[:3], 8100 + i, ("random",)) for i in range(2))
    rows = {e[0].game_id: derive_records(WD, e, library, True) for e in (good, bad)}
    turns = rows["width-1"][1]["wonders_dice.turn_states"]
    turns[0] = turns[0][:-1]  # a column short: zip would silently drop a column of every row
    skipped: dict[str, str] = {}
    tables = _tables(rows, tables_of(WD), skipped)
    assert list(skipped) == ["width-1"]
    assert set(tables["games"].column("game_id").to_pylist()) == {"width-0"}
