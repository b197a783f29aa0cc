"""Shared helpers for tests (importable because conftest puts tests/ on sys.path)."""

from __future__ import annotations

import os

from replay.games.pig import simulate_game

LONG = os.environ.get("REPLAY_FUZZ") == "long"
"""A long hunt (docs/testing.md): the randomised tests run many times the default rounds."""


def scaled(default: int, long: int) -> int:
    """How many rounds a randomised test runs: ``default`` in every run (CI's budget), ``long`` with
    ``REPLAY_FUZZ=long``. The assertions are the same; only how much of the space is tried differs."""
    return long if LONG else default


NAMES = ["Ana", "Ben", "Chloe", "Dev"]


def pig_game(game_id: str = "g1", seed: int = 1, players: int = 2):
    return simulate_game(game_id, NAMES[:players], seed)


def data_files(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in (root / "data").rglob("*") if p.is_file())


def bare_game(kind, event_types, start_type, **attrs):
    """A game with only its description: for tests of the archive and the schema, which need no rules."""
    from replay.contract import Game, Rules, Views
    from replay.packs import RulesPack

    attrs = {"kind": kind, "title": kind, "players": (1, 8), "event_types": event_types, "start_type": start_type,
             "end_types": frozenset(), "pack_model": RulesPack, "default_pack": "none", "rules": Rules(),
             "views": Views(), **attrs}
    return type("BareGame", (Game,), attrs)()


SEVEN = ["Ana", "Ben", "Chloe", "Dev", "Emil", "Fatou", "Gus"]


def simulated_log(kind: str, seed: int, players: int):
    """A game of ``kind`` its default bots played, as a log read from nowhere."""
    from replay.registry import registry
    from replay.services.logs import Log

    game = registry.get(kind)
    events = game.bots.simulate(f"{kind}-p{seed}", SEVEN[:players], seed, game.bots.default, game.pack())
    return Log(events, game, f"{kind}-p{seed}")


def disputed_log(log):
    """``log`` with the claim its game's ``Views.dispute`` changes: one problem, at that event."""
    from replay.services.logs import Log

    i, payload, _ = log.game.views.dispute(log.events)
    events = [*log.events[:i], log.events[i]._replace(payload=payload), *log.events[i + 1:]]
    return Log(events, log.game, f"{log.source}-disputed")


def assert_refused(read, text: str) -> None:
    """A notation text with a problem: lenient reading locates each one (line and column, never a
    traceback), strict reading raises NotationError."""
    import pytest

    from replay.errors import NotationError

    parsed = read(text)
    assert parsed.problems and all(p.line is not None and p.column is not None for p in parsed.problems)
    with pytest.raises(NotationError):
        read(text, "raise")


def assert_reads_anything(read, texts) -> None:
    """Any text reads without a traceback, each problem at a line."""
    for text in texts:
        assert all(p.line is not None for p in read(text).problems)


def mutate(text: str, data, inserts) -> str:
    """``text`` with one of ``inserts`` put somewhere (hypothesis ``data`` draws where)."""
    from hypothesis import strategies as st

    lines = text.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    j = data.draw(st.integers(0, len(lines[i])))
    lines[i] = lines[i][:j] + data.draw(st.sampled_from(inserts)) + lines[i][j:]
    return "\n".join(lines)


def golden_events(folder, name: str):
    """The events of a golden game, ``NAME.jsonl`` in ``folder``, read through the registry."""
    from replay.jsonl import read_events
    from replay.registry import registry

    return list(read_events((folder / f"{name}.jsonl").read_text(encoding="utf-8").splitlines(True), registry))


def script(path, name: str):
    """A script that is not a package module (a fixture folder's ``make_golden.py``), imported."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def replaced(events, i: int, **payload):
    """``events`` with the payload of event ``i`` changed."""
    return [*events[:i], events[i]._replace(payload={**events[i].payload, **payload}), *events[i + 1:]]


def audited(game, events):
    """The problems the audit finds in ``events`` of ``game``."""
    from replay.services.audit import audit
    from replay.services.logs import Log

    return audit(Log(events, game, "mutated")).problems


def assert_round_trip(notation, events) -> str:
    """Events -> text -> the same events, and the text written again is the same: the text."""
    text = notation.write(events)
    parsed = notation.read(text, "raise")
    assert parsed.events == events
    assert notation.write(parsed.events) == text
    return text


def refused_by(game, state, event, seen: set[str]) -> str:
    """The rule id ``event`` is refused by, the table left as it was; the id is added to ``seen``
    (each rules test checks at its end that every rule id was seen)."""
    import pytest

    from replay.errors import RuleViolation

    before = game.views.data(state)
    with pytest.raises(RuleViolation) as info:
        game.rules.apply(state, event)
    assert game.views.data(state) == before
    seen.add(info.value.problem.rule_id)
    return info.value.problem.rule_id


def assert_snapshots_replay_on(game, pack, events, every: int) -> None:
    """Every ``every`` events: the snapshot restores the same state, and applying the next events to
    the restored state and to a copy of the live one gives the same problems and the same table."""
    import copy

    from replay.driver import Replay
    from replay.snapshots import restore, take

    r = Replay(game, level="raise")
    for i, e in enumerate(events):
        r.push(e)
        if i % every or i + 1 == len(events):
            continue
        back = restore(game, take(game, r.state, i, pack), pack)
        assert game.views.state_hash(back) == game.views.state_hash(r.state)
        ahead = copy.deepcopy(r.state)
        for later in events[i + 1:i + 40]:
            assert list(game.rules.apply(back, later)) == list(game.rules.apply(ahead, later))
        assert game.views.data(back) == game.views.data(ahead)


def every_variant_content(data: dict) -> None:
    """The 7 Wonders Dice pack data edits that let every variant happen: a Wonder space costing
    more than 6, a die face for two buildings, a space whose effect asks which resource
    (tests/test_wd_variants.py's pack, and the packs tests/test_project_rows_pinned.py pins)."""
    for c in data["cities"]:
        c["wonder"]["spaces"][2]["cost"] = 7
    black = next(die for die in data["dice"] if die["colour"] == "black")
    black["faces"][5]["buildings"] = ["wonder", "agora"]
    market = next(b for b in data["buildings"] if b["id"] == "market")
    market["spaces"][0]["effects"].append({"type": "resource"})


def flip_in_data_page(path) -> None:
    """Flip a byte inside a Pig file's payload column's data page (the footer stays readable)."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    column = next(meta.row_group(0).column(j) for j in range(meta.num_columns)
                  if meta.row_group(0).column(j).path_in_schema == "die_rolled.face")
    data = bytearray(path.read_bytes())
    data[column.data_page_offset + column.total_compressed_size // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def rows_digest(paths) -> str:
    """``rows:sha256`` of a derived table's parts, whatever their order and cut: the rows sorted as
    canonical JSON, then the distinct schemas."""
    import hashlib
    import json

    import pyarrow.parquet as pq

    rows: list[str] = []
    schemas = set()
    for path in paths:
        t = pq.read_table(path)
        schemas.add(t.schema.remove_metadata().to_string())
        rows.extend(json.dumps(r, sort_keys=True, separators=(",", ":"), default=str) for r in t.to_pylist())
    text = "\n".join(sorted(rows)) + "\n" + "\n".join(sorted(schemas))
    return f"{len(rows)}:{hashlib.sha256(text.encode()).hexdigest()}"


def require_compiled(built: object, why: str) -> None:
    """At the top of an extension's test module: where the extension is not built, skip the module
    saying why, or, under ``REPLAY_REQUIRE_COMPILED=1`` (CI, where gcc is), fail instead."""
    import pytest

    if built is not None:
        return
    if os.environ.get("REPLAY_REQUIRE_COMPILED", "") not in ("", "0"):
        raise RuntimeError(f"REPLAY_REQUIRE_COMPILED is set, but {why}")
    pytest.skip(f"{why}: only the pure-Python code can run here", allow_module_level=True)
