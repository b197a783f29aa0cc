"""The rules packs games are played under: list, load (by shipped name, file, or kept in an archive), compare."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..archive import Archive
from ..contract import AnyGame
from ..errors import PackError, ReplayError
from ..packs import RulesPack, load_pack
from ..registry import GameRegistry, registry


def shipped(kind: str | None = None, games: GameRegistry = registry) -> list[tuple[AnyGame, str, RulesPack]]:
    """(game, name, pack) of every shipped pack, or of one kind's."""
    chosen = [games.get(kind)] if kind else games.games()
    return [(g, name, pack) for g in chosen for name, pack in g.packs().items()]


def load(spec: str, kind: str | None = None, games: GameRegistry = registry) -> tuple[AnyGame, RulesPack]:
    """A pack by shipped name, or from a file (validated; every problem names its path inside the file).

    A file is tried as a pack of each kind (or of ``kind``); the error lists why each refused it.
    """
    for game, name, pack in shipped(kind, games):
        if spec == name:
            return game, pack
    path = Path(spec)
    if not path.is_file():
        raise ReplayError(f"{spec!r} is neither a shipped pack (see `replay rules list`) nor a file")
    candidates = [games.get(kind)] if kind else _likely_games(path, games)
    errors = []
    for game in candidates:
        try:
            return game, load_pack(game.pack_model, path)
        except PackError as exc:
            errors.append(str(exc) if kind or len(candidates) == 1 else f"as a {game.kind} pack: {exc}")
    hint = "" if kind else f"\n(read as a {candidates[0].kind} pack; pass --game KIND to choose another)"
    raise PackError("\n".join(errors[:1]) + hint)


def _likely_games(path: Path, games: GameRegistry) -> list[AnyGame]:
    """The games whose pack model fits the file's top-level keys best, best first: a file meant for one
    game is judged as that game's pack, not as every game's."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        raw = {}
    keys = set(raw) if isinstance(raw, dict) else set()
    ranked = sorted(games.games(), key=lambda g: -len(keys & set(g.pack_model.model_fields)))
    return ranked


def load_stored(archive: Archive, content_hash: str, kind: str | None = None) -> tuple[AnyGame, RulesPack]:
    """A pack kept in the archive (``packs/``) by its content hash, or a beginning of it that only it has.

    Packs no longer shipped (an older version, a user's own file) are found this way
    once a game pinned to them was archived."""
    found = sorted({(s.kind, s.content_hash) for s in archive.packs.stored()
                    if s.content_hash.startswith(content_hash) and kind in (None, s.kind)})
    if not found:
        raise ReplayError(f"{content_hash}: no rules pack with that content hash is kept in {archive.base}"
                          + (f" for {kind}" if kind else ""))
    if len(found) > 1:
        raise ReplayError(f"{content_hash} begins several kept packs' hashes ({', '.join(h for _, h in found)}); "
                          "give more of it")
    stored_kind, stored_hash = found[0]
    pack = archive.packs.load(stored_kind, stored_hash)
    if pack is None:
        raise ReplayError(f"{content_hash}: the kept pack {stored_hash} has gone from {archive.base}")
    return archive.registry.get(stored_kind), pack


def locate(spec: str, kind: str | None = None, archive: Archive | None = None) -> tuple[AnyGame, RulesPack]:
    """A pack by shipped name, from a file, or (``sha256:...``) kept in ``archive``."""
    if spec.startswith("sha256:") and archive is not None:
        return load_stored(archive, spec, kind)
    return load(spec, kind, archive.registry if archive is not None else registry)


def load_files(files: tuple[Path, ...] | list[Path], kind: str | None = None) -> list[RulesPack]:
    """Packs given with ``--ruleset``: each must be a valid pack of ``kind`` (or of some game)."""
    return [load(str(f), kind)[1] for f in files]


def keep_pinned(archive: Archive, extra: list[RulesPack] | None = None) -> tuple[list[str], list[str]]:
    """Store in the archive every pack its games pin that it does not keep yet (an archive from
    before packs were kept): (packs stored now, pins that cannot be found), each as a sentence."""
    stored, missing = [], []
    kept = {(p.kind, p.content_hash) for p in archive.packs.stored()}
    for game_id, (kind, pin) in sorted(archive.pins().items()):
        if (kind, pin["content_hash"]) in kept:
            continue
        try:
            pack = archive.library(kind, extra or ()).find(pin)
        except PackError as exc:
            missing.append(f"game {game_id}: {exc}")
            continue
        if archive.packs.put(kind, pack):
            stored.append(f"{kind} {pack.id} {pack.version} ({pack.content_hash})")
        kept.add((kind, pack.content_hash))
    return stored, missing


def differences(a: Any, b: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """(path, before, after) for every difference between two packs' data."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            yield from differences(a.get(k), b.get(k), f"{path}.{k}" if path else k)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, path + _label(x, i))
    elif a != b:
        yield path, a, b


def _label(item: Any, index: int) -> str:
    if isinstance(item, dict):
        for key in ("id", "colour", "symbol", "face"):
            if key in item:
                return f"[{item[key]}]"
    return f"[{index}]"
