"""The rules packs an archive's games pin, kept beside the events: ``packs/<kind>/<hex>.json``.

When a game is appended, the pack its start event pins is written here once,
named after its content hash, so audit, show, step and project never need the
user to find it again. A file's name is its checksum: ``replay verify`` reads
every pack back, recomputes its hash and names any that does not match.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import NotAnArchive, PackError, ReplayError
from ..packs import RulesPack, pack_json, parse_pack
from ..registry import GameRegistry
from .fsutil import atomic_write
from .location import LOCAL_ONLY, AnyPath, listing

PACKS_DIR = "packs"


@dataclass(frozen=True)
class StoredPack:
    kind: str
    content_hash: str
    path: AnyPath


class PackStore:
    """Packs by kind and content hash, written atomically and never rewritten."""

    def __init__(self, root: AnyPath, registry: GameRegistry) -> None:
        self.root = root / PACKS_DIR
        self.registry = registry
        self._loaded: dict[str, RulesPack] = {}

    def path(self, kind: str, content_hash: str) -> AnyPath:
        return self.root / kind / f"{content_hash.removeprefix('sha256:')}.json"

    def has(self, kind: str, content_hash: str) -> bool:
        return self.path(kind, content_hash).is_file()

    def load(self, kind: str, content_hash: str) -> RulesPack | None:
        """The stored pack, checked against its name; None if there is none."""
        cached = self._loaded.get(content_hash)
        if cached is not None:
            return cached
        path = self.path(kind, content_hash)
        if not path.is_file():
            return None
        pack = self.read(kind, path)
        if pack.content_hash != content_hash:
            raise PackError(f"{path}: the stored pack's content hash is {pack.content_hash}, not its name: "
                            "the file was altered; run `replay verify`")
        self._loaded[content_hash] = pack
        return pack

    def read(self, kind: str, path: AnyPath) -> RulesPack:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise PackError(f"{path}: cannot read the stored pack: {exc}") from exc
        return parse_pack(self.registry.get(kind).pack_model, text, str(path))

    def put(self, kind: str, pack: RulesPack) -> bool:
        """Store a pack unless it is there already; True if it was written now."""
        path = self.path(kind, pack.content_hash)
        if not isinstance(path, Path):
            raise NotAnArchive(f"{path}: {LOCAL_ONLY}")
        if path.is_file():
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        text = pack_json(pack)
        atomic_write(path, text.encode())
        self._loaded[pack.content_hash] = pack
        return True

    def stored(self) -> Iterator[StoredPack]:
        if not self.root.is_dir():
            return
        for kind_dir in (p for p in listing(self.root) if p.is_dir()):
            for f in listing(kind_dir, "*.json"):
                yield StoredPack(kind_dir.name, "sha256:" + f.stem, f)

    def check(self, stored: StoredPack) -> str | None:
        """What is wrong with a stored pack file, or None."""
        try:
            pack = self.read(stored.kind, stored.path)
        except ReplayError as exc:
            return str(exc).splitlines()[0]
        if pack.content_hash != stored.content_hash:
            return f"its content hash is {pack.content_hash}, not its name: the file was altered"
        return None
