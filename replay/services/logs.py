"""A game's events from wherever they come: the archive, a JSON Lines file, a notation file.

The game kind comes from the archive, from the events' envelope, or from a
notation's ``[Kind "..."]`` tag; where none says it, the caller's ``kind``
(``--game``) does, and otherwise the error says how to give it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from ..archive import Archive
from ..contract import AnyGame
from ..errors import GameNotFound, InvalidInput, NotAnArchive, NotationError, ReplayError
from ..events import Event
from ..jsonl import read_events, sequence_problems, validation_problems
from ..notation import kind_of
from ..packs import PackLibrary, RulesPack
from ..problems import Problem
from ..registry import GameRegistry, registry


@dataclass
class Log:
    """A game's events, its game, and where each event came from."""

    events: list[Event]
    game: AnyGame
    source: str
    lines: dict[int, int] | None = None
    """Line of each event (by seq), for files."""
    chain: list[tuple[Event, int]] | None = None
    """Events as stored and their chain hashes, for archived games."""
    archive: Archive | None = None

    @property
    def game_id(self) -> str:
        return self.events[0].game_id

    @property
    def archived(self) -> bool:
        return self.archive is not None

    def library(self, extra: Iterable[RulesPack] = ()) -> PackLibrary:
        """Where this game's pack is found: the packs given, the shipped ones, the archive's."""
        if self.archive is not None:
            return self.archive.library(self.game.kind, extra)
        return self.game.library(extra=extra)


def read_text(path: Path) -> str:
    """A text file, or one clear error (missing, unreadable, not UTF-8)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReplayError(f"{path}: is a directory, not a file") from None
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{path}: not UTF-8 text (byte {exc.start} is {exc.object[exc.start]:#04x}); "
                          "game files are UTF-8") from None
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read: {exc.strerror}") from None


def game_for_text(text: str, source: str, kind: str | None, games: GameRegistry = registry) -> AnyGame:
    """The game a notation text is in: its ``[Kind]`` tag, else ``kind``, else a clear error."""
    tagged = kind_of(text)
    if tagged and kind and tagged != kind:
        raise ReplayError(f'{source}: the header says [Kind "{tagged}"], not {kind}')
    chosen = tagged or kind
    if chosen is None:
        raise ReplayError(f"{source}: the notation does not say which game it is: add a [Kind \"...\"] tag "
                          f"to its header, or pass --game KIND (installed: {', '.join(games.kinds())})")
    return games.get(chosen)


FILE_FORMATS = ("auto", "jsonl", "notation")


def sniff_format(head: str, name: str) -> str:
    """``jsonl`` or ``notation`` for a file that begins with ``head``: a JSON Lines file begins with
    ``{`` (no notation does); otherwise the name decides (``.jsonl``), then notation."""
    return "jsonl" if head.lstrip().startswith("{") or name.endswith(".jsonl") else "notation"


def file_format(path: Path, given: str = "auto") -> str:
    """The format of a file: ``given``, or detected from its first bytes (see :func:`sniff_format`)."""
    if given != "auto":
        return given
    try:
        with path.open("rb") as handle:
            head = handle.read(4096).decode("utf-8", errors="replace")
    except OSError:
        head = ""  # the reader that follows names the problem
    return sniff_format(head, path.name)


def read_notation_file(path: Path, kind: str | None = None, games: GameRegistry = registry) -> Log:
    """A game in notation; every syntax problem (line and column) stops it with NotationError."""
    return read_notation_text(read_text(path), str(path), kind, games)


def read_notation_text(text: str, source: str, kind: str | None = None, games: GameRegistry = registry) -> Log:
    game = game_for_text(text, source, kind, games)
    notation = game.require("notation")
    parsed = notation.read(text, "collect", source)
    problems = parsed.problems or _invalid_values(parsed.events, parsed.lines, game, source)
    if problems:
        raise NotationError(problems)
    if not parsed.events:
        raise ReplayError(f"{source}: no game in it")
    return Log(parsed.events, game, source, parsed.lines)


def read_jsonl_file(path: Path, games: GameRegistry = registry) -> Log:
    """One game in JSON Lines (a file of several games is refused: export one)."""
    text = read_text(path).splitlines(keepends=True)
    events = list(read_events(text, games, source=str(path), level="collect"))
    if not events:
        raise ReplayError(f"{path}: no events")
    ids = {e.game_id for e in events}
    if len(ids) > 1:
        raise ReplayError(f"{path} holds {len(ids)} games; name one of them, or export one with `replay export GAME`")
    numbers = [n for n, line in enumerate(text, start=1) if line.strip()]
    if misplaced := sequence_problems(events, numbers, str(path)):
        raise InvalidInput(misplaced)
    return Log(events, games.get(events[0].kind), str(path), dict(zip((e.seq for e in events), numbers)))


def _invalid_values(events: Sequence[Event], lines: dict[int, int], game: AnyGame, source: str) -> list[Problem]:
    """What a notation reader parsed but the event types do not allow (a number too large for its
    column, a negative count): checked here once for every game's notation, as JSON Lines is."""
    problems = []
    for e in events:
        try:
            game.models[e.type].model_validate(e.payload)
        except ValidationError as exc:
            problems += [p.at(source=source) for p in validation_problems(exc, lines.get(e.seq), e.type, "notation")]
    return problems


def load_log(spec: str, archive: Archive | Path | None, kind: str | None = None) -> Log:
    """GAME_ID in the archive, or a file: JSON Lines or notation (told apart by :func:`file_format`)."""
    path = Path(spec)
    if path.exists():
        return read_jsonl_file(path) if file_format(path) == "jsonl" else read_notation_file(path, kind)
    looks_like_a_file = path.suffix != "" or "/" in spec
    try:
        if archive is None:
            raise ReplayError(f"{spec}: no archive to look the game up in")
        store = archive if isinstance(archive, Archive) else Archive(archive)
        events, chain = store.read_game_and_chain(spec)
    except (GameNotFound, NotAnArchive) as exc:
        if looks_like_a_file:
            raise ReplayError(f"{spec}: no such file (nor a game of that id: {exc})") from None
        raise
    game = store.registry.get(events[0].kind)
    return Log(events, game, spec, chain=chain, archive=store)


def same_game(logs: Sequence[Log]) -> AnyGame:
    kinds = {log.game.kind for log in logs}
    if len(kinds) > 1:
        raise ReplayError(" and ".join(f"{log.source} is {log.game.kind}" for log in logs) + ": not the same game")
    return logs[0].game
