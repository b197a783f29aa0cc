"""``replay project``'s derived rows, pinned: the sha256 of every derived table's rows (read back
from the Parquet parts, each row as canonical JSON, sorted) for a fixed archive of seeded games of
every kind, computed with the projection as it was before it was made faster (commit 09d5e61),
as appended (many files, one game split over two) and compacted into small row groups.

The archive holds finished games of Pig, 7 Wonders Dice (2-7 players, two bot mixes) and Flip 7
(3-8 players), a disputed 7 Wonders Dice game (a wrong claim), one illegal event, and a game of
each kind still in progress (live parts). It is projected in one process and in two, with chunks
and parts small enough that games cross chunk and part boundaries; every way gives the same rows,
the same games projected and in progress, and the same games skipped.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from helpers import rows_digest

from replay.analytics import project as project_module
from replay.analytics.project import derived_dir, part_paths, project
from replay.archive import NEW_STREAM, Archive
from replay.archive.compact import compact
from replay.games.flip7 import GAME as FLIP7
from replay.games.pig import GAME as PIG
from replay.games.wonders_dice import GAME as WD
from replay.services.simulation import simulate_games

KINDS = (PIG, WD, FLIP7)

PINNED = {
    "pig/games":
        "7:4701bc5da162add0664929077e2b03dc7d8f7b73f14cf03eb669756745cc5a6a",
    "pig/pig.turns":
        "158:651086ba4c5b7ee88d22c7b2307ca1006369cc4a4425927c4bdb1d7087287f57",
    "pig/players":
        "18:e5412b36c625b17168538115d9b821ffd42e7b65c50941ff13c6df7e792ab0b1",
    "pig/manifest":
        "c6f0c39da831169c3c2cf349baab68d2d648039ac337addca20e9119b4a62500",
    "7wonders-dice/games":
        "21:cd20d49fe2d4a1b1cfe21a6e44268a53ff6e0d9f1dda12aba3dc0d1a17a02586",
    "7wonders-dice/players":
        "83:83db1c57a1ee4413c5806ded1223ac46db5326b3fbb2eb3829df8b03559f4e4c",
    "7wonders-dice/wonders_dice.actions":
        "2799:357895dc1bcdc2e10e40a45d3de4375c9563998d8b50491317c9beafb88d522b",
    "7wonders-dice/wonders_dice.dice":
        "5110:025e15eaecd2d604072dd11d7992044c0117d59fee39e327ec1d358218ba0cd7",
    "7wonders-dice/wonders_dice.players":
        "79:7f7505ebb193246d9535b2f94efacb1cc3ead0b60b9ada49b88b0115e0132f79",
    "7wonders-dice/wonders_dice.turn_states":
        "2804:cd0a19cc1f204c6891bf007dfc85b2dce26e84743dc3e414c94d0803a8b1e953",
    "7wonders-dice/manifest":
        "1a04304efe4215ad4219575f1ecca8880f14c4d59671a38c4ac9e5d052ab38e8",
    "flip7/flip7.decisions":
        "1263:134b57000299d34caa2a30065b23c339634fb65fe85c4537cd4d69179353a430",
    "flip7/flip7.players":
        "49:3a17b566f8ce9181c3d20aff65e216c4efac353e1371f43a5f9035fdb59c6052",
    "flip7/flip7.rounds":
        "479:5acf4abb8b752b7733ae3364d8ba2fd6cae10f4209110d601290b1e17f6235d8",
    "flip7/flip7.targets":
        "103:cd34c1b83a600331ba326b767107244dcdba550cf2b9ba5ac41dd614dd06be78",
    "flip7/games":
        "11:1a49d5e4e3c89c1d52bfc313f240f9fcca965047d81a28c492b4b15026553927",
    "flip7/players":
        "54:2596955e351e7fd2a14a7cd2d33e473b84a692ec1b09f3f43255c871abab3e3b",
    "flip7/manifest":
        "349d60c8b3eb4c2a082e90cc2507f542b6d2035c63783bfb58fe185b29b54d99",
}


def _build(root: Path) -> Archive:
    archive = Archive.init(root)
    simulate_games(PIG, archive, 6, (2, 4), (), seed=31)
    simulate_games(WD, archive, 12, (2, 7), ("random",), seed=32)
    simulate_games(WD, archive, 6, (2, 7), ("greedy", "random"), seed=33)
    simulate_games(FLIP7, archive, 10, (3, 8), ("odds", "random", "stay20"), seed=34)
    # a disputed game (a wrong claim of coins paid) and an illegal event (a die that is not rolled)
    events = WD.bots.simulate("wd-disputed", ["Ana", "Ben", "Chloe"], 41, ("greedy", "random"), WD.pack())
    i = next(i for i, e in enumerate(events) if e.type == "action_taken" and e.payload["claims"]["paid"] > 0)
    p = events[i].payload
    events[i] = events[i]._replace(payload={**p, "claims": {**p["claims"], "paid": p["claims"]["paid"] + 6}})
    j = next(j for j, e in enumerate(events) if j > i + 5 and e.type == "action_taken")
    q = events[j].payload
    events[j] = events[j]._replace(payload={**q, "player": (q["player"] + 1) % 3})
    archive.append("wd-disputed", events, NEW_STREAM)
    # a finished game appended in two commits (two files until compaction)
    split = WD.bots.simulate("wd-split", ["Ana", "Ben", "Chloe", "Dev"], 45, ("random",), WD.pack())
    archive.append("wd-split", split[:60], NEW_STREAM)
    archive.append("wd-split", split[60:], 59)
    # games in progress, one of each kind
    for game, n, seed in ((PIG, 2, 42), (WD, 4, 43), (FLIP7, 5, 44)):
        names = ["Ana", "Ben", "Chloe", "Dev", "Eve"][:n]
        live = game.bots.simulate(f"{game.kind}-live", names, seed, game.bots.default, game.pack())
        archive.append(f"{game.kind}-live", live[: len(live) // 2], NEW_STREAM)
    return archive




def digests(archive: Archive) -> dict[str, str]:
    """sha256 of each kind's derived tables' rows (sorted canonical JSON), and of its manifest's games."""
    out: dict[str, str] = {}
    for game in KINDS:
        for table, paths in sorted(part_paths(archive, game).items()):
            out[f"{game.kind}/{table}"] = rows_digest(paths)
        manifest = json.loads((derived_dir(archive, game.kind) / "manifest.json").read_text())
        games = {"games": sorted(manifest["games"]), "live": sorted(manifest["live"]["games"]),
                 "skipped": manifest["skipped"]}
        out[f"{game.kind}/manifest"] = hashlib.sha256(json.dumps(games, sort_keys=True).encode()).hexdigest()
    return out


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("pinned") / "archive").root


@pytest.fixture(scope="module")
def compacted(source, tmp_path_factory) -> Path:
    """The same games compacted into row groups of 500 events: most games cross a row group."""
    archive = Archive(shutil.copytree(source, tmp_path_factory.mktemp("compacted") / "archive"))
    compact(archive, row_group_rows=500)
    return archive.root


@pytest.mark.parametrize("layout", ["appended", "compacted"])
@pytest.mark.parametrize("workers,chunk,batch", [(1, 200, 20_000), (1, 3, 7), (2, 200, 20_000), (2, 2, 5)])
def test_derived_rows_are_the_pinned_ones(request, tmp_path, monkeypatch, layout, workers, chunk, batch):
    root = request.getfixturevalue("source" if layout == "appended" else "compacted")
    archive = Archive(shutil.copytree(root, tmp_path / "archive"))
    monkeypatch.setattr(project_module, "CHUNK_GAMES", chunk)
    monkeypatch.setattr(project_module, "BATCH_GAMES", batch)
    result = project(archive, workers=workers)
    assert result.skipped == {}
    assert digests(archive) == PINNED


@pytest.mark.parametrize("workers", [1, 2])
def test_a_damaged_row_group_skips_and_names_only_its_games(compacted, tmp_path, workers):
    archive = Archive(shutil.copytree(compacted, tmp_path / "archive"))
    path = max((archive.root / "data" / WD.kind).glob("*.parquet"), key=lambda p: p.stat().st_size)
    meta = pq.ParquetFile(path).metadata
    group = meta.num_row_groups // 2
    column = next(meta.row_group(group).column(j) for j in range(meta.num_columns)
                  if meta.row_group(group).column(j).path_in_schema.startswith("action_taken."))
    data = bytearray(path.read_bytes())
    data[column.data_page_offset + column.total_compressed_size // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    result = project(archive, [WD], workers=workers)
    relative = str(path.relative_to(archive.root))
    # a row group of 500 events holds parts of two or three games: those are skipped and named, no others
    assert 0 < len(result.skipped) <= 3 and all(relative in why for why in result.skipped.values())
    wd_games = [g for g in archive.games() if g.kind == WD.kind]
    assert result.games + result.live + len(result.skipped) == len(wd_games)
    assert result.games > 0  # the file's other row groups were read
