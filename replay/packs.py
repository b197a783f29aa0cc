"""Rules packs: the data a game is played under, validated, content-hashed, and found again.

Boards, dice, cards, costs and options are data, not code. A game's pack model
subclasses :class:`RulesPack` (id, version, title, a content hash) and builds
its parts from :class:`PackPart` and :class:`Provenanced` (every part may say
where its facts come from and how sure we are of them). Every game pins the
exact pack it was played under (id, version, content hash) in its start event.

:func:`parse_pack` reads a pack and names every problem by its path inside the
file (``buildings[3](agora).spaces[4](r1c1).cost``); :class:`PackLibrary` finds
the pack a game pins among the ones given, the archive's and the shipped ones.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Iterable, Mapping
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Protocol, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .canonical import content_hash
from .errors import PackError
from .events import RulesetPin

Confidence = Literal["high", "medium", "low", "missing"]
"""How sure a pack is of a part. ``missing``: the part is known to exist (a card of the box, say) but
its facts could not be found; its fields stay empty and a game that needs it is refused."""


class PackPart(BaseModel):
    """Base of every part of a pack: strict (unknown fields are errors) and immutable.

    Values derived from a part are cached (``functools.cached_property``); a copy
    with changes must not carry them over, or it would keep the old content hash.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="after")
    @classmethod
    def _sane_numbers(cls, value: Any) -> Any:
        """No number a board could print is beyond a billion; a larger one is a typo or an attack
        (it would overflow a typed column once a game uses it). Strings are interned: a pack's ids
        are the keys of every table a fold looks up, and the archive's decoder interns the same
        short strings, so most lookups find the very object and compare no characters."""
        _bounded(value)
        return _interned(value)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        clone = super().model_copy(update=update, deep=deep)
        if update:
            for klass in type(self).__mro__:
                for name, value in vars(klass).items():
                    if isinstance(value, cached_property):
                        clone.__dict__.pop(name, None)
        return clone


class Provenanced(PackPart):
    """A part that says where its facts come from and how sure we are of them."""

    source: str = ""
    confidence: Confidence = "low"


class RulesPack(PackPart):
    """The base of every game's pack model."""

    id: str = Field(min_length=1)
    version: str = Field(min_length=1)
    title: str

    @cached_property
    def content_hash(self) -> str:
        """``sha256:`` of the pack's canonical JSON: whitespace and key order do not count, and
        neither do fields added to the model later while they hold their defaults (see :func:`added`)."""
        return content_hash(hashed_data(self))

    @property
    def pin(self) -> RulesetPin:
        return RulesetPin(id=self.id, version=self.version, content_hash=self.content_hash)

    def provenance(self) -> list[tuple[str, str, str]]:
        """(path, source, confidence) of every part that says where it comes from."""
        out: list[tuple[str, str, str]] = []
        _walk_provenance(self, "", out)
        return out


PACK_NUMBERS = 10**9


def pack_json(pack: RulesPack) -> str:
    """A pack as the JSON file the archive keeps (and a dispute bundle carries): readable, sorted keys."""
    return json.dumps(pack.model_dump(mode="json"), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def _interned(value: Any) -> Any:
    """``value`` with its strings interned, in the plain containers a pack's fields hold (the same
    values, of the same types: a subclass, such as a named tuple or an enum's str, is left as it is)."""
    kind = type(value)
    if kind is str:
        return sys.intern(value)
    if kind is tuple or kind is list or kind is frozenset:
        return kind(_interned(v) for v in value)
    if kind is dict:
        return {_interned(k): _interned(v) for k, v in value.items()}
    return value


def _bounded(value: Any) -> None:
    if isinstance(value, int) and not isinstance(value, bool):
        if abs(value) > PACK_NUMBERS:
            raise ValueError(f"{value} is beyond what a pack may hold (at most {PACK_NUMBERS:,} either way)")
    elif isinstance(value, (list, tuple)):
        for item in value:
            _bounded(item)
    elif isinstance(value, dict):
        for item in value.values():
            _bounded(item)


ADDED = "added"


def added(default: Any, since: str, **kwargs: Any) -> Any:
    """A field added to a pack model after packs were pinned with it missing.

    While it holds its default it is left out of the content hash, so every pack written
    before it existed keeps its hash, and every game pinned to such a pack keeps finding it.
    The default must therefore mean what the model did before the field existed.
    ``since`` names the release that added it (for people; the hash only needs the mark).
    """
    return Field(default, json_schema_extra={ADDED: since}, **kwargs)


def hashed_data(pack: BaseModel) -> Any:
    """The pack as JSON data, less the later-added fields that hold their defaults."""
    data = pack.model_dump(mode="json")
    _prune(pack, data)
    return data


def _prune(node: Any, data: Any) -> None:
    if isinstance(node, BaseModel) and isinstance(data, dict):
        for name, info in type(node).model_fields.items():
            value = getattr(node, name)
            extra = info.json_schema_extra
            if isinstance(extra, dict) and ADDED in extra and value == info.get_default(call_default_factory=True):
                data.pop(name, None)
            elif name in data:
                _prune(value, data[name])
    elif isinstance(node, (list, tuple)) and isinstance(data, list):
        for item, dumped in zip(node, data):
            _prune(item, dumped)
    elif isinstance(node, dict) and isinstance(data, dict):
        for key, item in node.items():
            if key in data:
                _prune(item, data[key])


def _walk_provenance(node: Any, path: str, out: list[tuple[str, str, str]]) -> None:
    if isinstance(node, Provenanced):
        out.append((path or "(pack)", node.source, node.confidence))
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            _walk_provenance(getattr(node, name), f"{path}.{name}" if path else name, out)
    elif isinstance(node, (list, tuple)):
        for i, item in enumerate(node):
            label = getattr(item, "id", None) or getattr(item, "colour", None)
            _walk_provenance(item, f"{path}[{i}]" + (f"({label})" if label else ""), out)


P = TypeVar("P", bound=RulesPack)


def parse_pack(model: type[P], text: str, source: str) -> P:
    """A pack from JSON text; every problem is named by its path inside the file."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PackError(f"{source}: line {exc.lineno} column {exc.colno}: malformed JSON: {exc.msg}") from exc
    except RecursionError:
        raise PackError(f"{source}: nested too deeply to be a rules pack") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        lines = [f"{source}: {readable_path(raw, err['loc'])}: {err['msg']}" for err in exc.errors(include_url=False)]
        raise PackError("invalid rules pack:\n  " + "\n  ".join(lines)) from exc


def readable_path(raw: object, loc: tuple[int | str, ...]) -> str:
    """``buildings[2](agora).spaces[4](r1c1).cost`` rather than bare indices."""
    parts: list[str] = []
    node = raw
    for key in loc:
        if isinstance(key, int) and isinstance(node, list):
            node = node[key] if key < len(node) else None
            label = (node.get("id") or node.get("colour") or node.get("symbol")) if isinstance(node, dict) else None
            step = f"[{key}]" + (f"({label})" if label else "")
            if parts:
                parts[-1] += step
            else:
                parts.append(step)
        else:
            node = node.get(key) if isinstance(node, dict) else None
            parts.append(str(key))
    return ".".join(parts) or "(top)"


def load_pack(model: type[P], path: Path | str) -> P:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PackError(f"{path}: cannot read: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise PackError(f"{path}: not UTF-8 text (byte {exc.start}); a pack is a JSON file") from exc
    return parse_pack(model, text, str(path))


@functools.cache
def shipped_packs(model: type[P], package: str, folder: str = "rulesets") -> dict[str, P]:
    """The packs shipped in ``package/folder/*.json``, by file stem (read once per process)."""
    out: dict[str, P] = {}
    base = resources.files(package).joinpath(folder)
    if not base.is_dir():
        return out
    for entry in sorted(base.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            out[entry.name[:-5]] = parse_pack(model, entry.read_text(encoding="utf-8"), f"{folder}/{entry.name}")
    return out


class PackSource(Protocol):
    """Somewhere packs are kept by content hash (the archive's ``packs/``)."""

    def load(self, kind: str, content_hash: str) -> RulesPack | None: ...


def pin_key(pin: RulesetPin | Mapping[str, Any]) -> tuple[str, str, str]:
    if isinstance(pin, RulesetPin):
        return pin.id, pin.version, pin.content_hash
    return str(pin["id"]), str(pin["version"]), str(pin["content_hash"])


class PackLibrary:
    """Finds the exact pack a game pins: among packs given by the user, the archive's, the shipped ones."""

    def __init__(self, kind: str, shipped: Iterable[RulesPack] = (), store: PackSource | None = None,
                 extra: Iterable[RulesPack] = ()) -> None:
        self.kind = kind
        self.store = store
        self._packs: dict[tuple[str, str, str], RulesPack] = {}
        for pack in (*shipped, *extra):
            self.add(pack)

    def add(self, pack: RulesPack) -> None:
        self._packs[pin_key(pack.pin)] = pack

    def find(self, pin: RulesetPin | Mapping[str, Any]) -> RulesPack:
        key = pin_key(pin)
        pack = self._packs.get(key)
        if pack is None and self.store is not None:
            pack = self.store.load(self.kind, key[2])
            if pack is not None and pin_key(pack.pin) == key:
                self._packs[key] = pack
            else:
                pack = None
        if pack is not None:
            return pack
        same = [p for (i, v, _), p in self._packs.items() if (i, v) == key[:2]]
        hint = f"; the available {key[0]} {key[1]} has {same[0].content_hash} (its data changed)" if same else ""
        raise PackError(
            f"the game pins rules pack {key[0]} {key[1]} ({key[2]}), which is not available{hint}; "
            "pass the pack it was played under with --ruleset FILE"
        )

    def __iter__(self) -> Any:
        return iter(self._packs.values())
