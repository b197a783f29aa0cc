"""Pinned outputs: the speed work on 7 Wonders Dice must not change a byte.

The digests below were computed on the code as it stood before the fast paths
(commit 7b0b3be): the JSON Lines of simulated games per bot mix, player count and
option set, and the state hash after every event of replayed games.
"""

from __future__ import annotations

import hashlib

import pytest

from replay.driver import Replay
from replay.games.wonders_dice import GAME, simulate_game
from replay.games.wonders_dice.rules_data import shipped_rulesets
from replay.jsonl import dump_line

NAMES = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]

SIMULATED = {
    ("random", 2): "702b8994d729c3021e9b72ee05207e74bf3bacb65685c5a2ca4eae17603cefd4",
    ("random", 3): "fa3a113cc28e3cadf0801711cc5b2e2a3f464a1d696046096ffc5eaa997ada49",
    ("random", 4): "1ad645e867ad9fbd37f091680d1eaa1afd16f648e017286561f4524558b5c8c2",
    ("random", 5): "d86f770d4e1b68c530abebfa11d821dcf0a28167d2813e5fc4290e14c4d60cf2",
    ("random", 6): "d83d032be209ba1252c0d581cf05385d437827f36351882c3af00225fac3deb0",
    ("random", 7): "671d06641096f9560853b31b9c689443b7063dd035f31f9d82928fc1509bca7e",
    ("greedy", 2): "2796ea98948ebdae712454be7b16d522cf1802a8936e86e59b50789e2b25b43a",
    ("greedy", 3): "a7a766fa79b9b30070ed09e53945113dfcb38422dd15c169449942e5419c671c",
    ("greedy", 4): "58459615fe6250e3cc70e819a740b2fbf41a46234ef0aa9f6deb0d1545e641c7",
    ("greedy", 5): "72d6865b81e5d822a780d4cd8aebe711d7346072445d61c496e485c7347be2e2",
    ("greedy", 6): "543814cb1e5c37fcc3a68a2ccc5e085e331f0fb8ea1ebde6b6edd3fb72137d64",
    ("greedy", 7): "0381fffd527da394bad15c329c7719d43e8d5aa1a234a0d743fff95f876323da",
    ("greedy,random", 2): "641447342bd8cf7f2ba221cb8974d443ce1280542eb8756cdb44d03103be05fc",
    ("greedy,random", 3): "942195cee85ced3e805601730d70c9dd4465825fd8364b3f12a0d6ca99f80de4",
    ("greedy,random", 4): "73de09a3a7405950c64cdbab6a56c8f9a7842dd0ff20a7d2ac001e9687791793",
    ("greedy,random", 5): "4053cb9ea5cb0a8f2765e036d4d48815d1576c81ebc7ee1e13c4c8e015968fa7",
    ("greedy,random", 6): "68eed9697cff1c865426d87dd464e269de3f281739617d1560bcc8946d05bce2",
    ("greedy,random", 7): "efb08acb1bfe9b56267910659e12c526c8b9f2ffa316af650d9cbc2ebbe4b6bc",
}

VARIANTS = {
    ("0.1.0", 2): "fe78f447e51c9cd1d8badfc406ef2c25491a26d68c544308ec328eeada1d170c",
    ("0.1.0", 3): "c91ff25917641daa0a0d8d11d2489ce8cadc890595dcf5e7042422ea0ee1a55b",
    ("0.1.0", 4): "19a763c21d80c6ba855fb59225f49929b6662291fe0be3206b0f95b51a070a28",
    ("0.1.0", 7): "6bd091ab33af3f3276e385c1af1c6481a653e74c4f30c24c076658d3f6ba74ad",
    ("two_phase_void", 2): "6fc2bbdeea01fbe08a2bc1cebc7c34909202eaf711a6fcd816b403f092363555",
    ("two_phase_void", 3): "7979e00ac1cb3b0932d952f6942fdb75b273d5130586ff4c37c58e96c6aabb42",
    ("two_phase_void", 4): "293ce375f7ea4a5b2cd64eba6ce7fb121756887dae6e6593396013af5020a623",
    ("two_phase_void", 7): "cf6490f2c97abd5828b5210b7417171f8957657c6435d6bb0734aa75d1f676bc",
    ("seat_order", 2): "6d4ff7bbbb7a9f3892a8b1fef84059cc340f1ad487398a3faa14751d3ad64742",
    ("seat_order", 3): "0f00159f58d01b7783b8fd05deb80e28159c134166e4f02b89864aa8898508dd",
    ("seat_order", 4): "f3d187cce804b7b6bef005f144cb0b9244a9b9f8a6c07f6139636c0d3804436d",
    ("seat_order", 7): "9646aea64123edb23adfc9695f7322dab4835cd3d96dd33f2890b995446a0a63",
    ("misc", 2): "961c003ea70fa9879ef19e1c556a122e009a8a74069976d20bb3c942ccd6c205",
    ("misc", 3): "edb97c80513adc4c8d121f7668ec656944d90dbef1bfde613b6333586abe1c27",
    ("misc", 4): "38c8d90aeb5964a2b93ba2b26bb28e2f80b23b70c24047a672e8efa73adf6f1d",
    ("misc", 7): "2959978293ab09dd8213344dc20b8bcc32241e85026340e16e0fc1c5e2898e5c",
    ("misc2", 2): "595eebb395929e5e7bbba27090f2e31dc84ef005a2925d89e60c5c8c3d9ce842",
    ("misc2", 3): "03fd8d82609fdb1dbebbf155aca3544acfcc75a5c13d560069163e756ae681ce",
    ("misc2", 4): "40d87ae15e301231af7a9e9ac8572b9c598d3827e21c87e07efffa6e1ddfb00d",
    ("misc2", 7): "f0dca8bf5da00eb3bad0f464bff22fde699907832cc33102b974925102608709",
}

STATES = {
    2: "2ef28041037452203d2f60e62c3a1af1f2ae7d24b395dd553466578510908d4f",
    3: "001b00e0ba53eac55bf49f63db61938051419963f26ea2b67e5aceda0ae59316",
    4: "67eab5b589996c7e712b68edd5396e1b790c2f5f4609b57471320be5580685b4",
    5: "b957ab55d0e824b43e5ad5b1fbafb7af6d3585fb12270e41205bbfc15aedf7a5",
    6: "60ca2434e3e0c80698139099db8492a236e21c9f9ef4ddf065f27d4c1eaf881b",
    7: "1b68874a0fc7d26727c3ad98fad831845bc5bd21dfe412a7d5cde5929f3d0edc",
}

OPTIONS = {
    "0.1.0": ("7wd-default-0.1.0", {}),
    "two_phase_void": ("7wd-default", {"resolution": "two_phase", "void_actions": True}),
    "seat_order": ("7wd-default", {"resolution": "seat_order", "agora_first_same_turn": "none", "resources": "spent"}),
    "misc": ("7wd-default", {"coin_cap": 12, "barracks": "one_building", "income": "when_chosen", "cross_mandatory": True,
                             "extra_action_pass": True, "per_space_vp": "max", "free_action_wonder": True}),
    "misc2": ("7wd-default", {"completion": "after_effects", "income": "after_action", "resolution": "two_phase"}),
}


@pytest.mark.parametrize(("bots", "players"), sorted(SIMULATED))
def test_simulated_games_are_byte_identical(bots, players):
    h = hashlib.sha256()
    for i in range(5):
        for e in simulate_game(f"pin-{players}-{i}", NAMES[:players], 7_000 + 100 * players + i, tuple(bots.split(","))):
            h.update(dump_line(e).encode())
    assert h.hexdigest() == SIMULATED[bots, players]


@pytest.mark.parametrize(("variant", "players"), sorted(VARIANTS))
def test_simulated_games_under_options_are_byte_identical(variant, players):
    pack, update = OPTIONS[variant]
    rules = shipped_rulesets()[pack]
    options = rules.options.model_copy(update=update)
    h = hashlib.sha256()
    for i in range(4):
        for e in simulate_game(f"v-{players}-{i}", NAMES[:players], 9_000 + 100 * players + i, ("greedy", "random"),
                               rules, options):
            h.update(dump_line(e).encode())
    assert h.hexdigest() == VARIANTS[variant, players]


@pytest.mark.parametrize("players", sorted(STATES))
def test_state_hashes_after_every_event_are_unchanged(players):
    h = hashlib.sha256()
    for i in range(3):
        events = simulate_game(f"s-{players}-{i}", NAMES[:players], 3_000 + 100 * players + i, ("random",))
        r = Replay(GAME, level="raise")
        for e in events:
            state = r.push(e).state
            assert state is not None
            h.update(state.state_hash().encode())
    assert h.hexdigest() == STATES[players]
