"""``replay plot``: which plots there are, which kinds have each, and the file formats.

This package does not import matplotlib; :mod:`replay.plots.draw` does, and is imported only
by a command that draws, after :func:`require_matplotlib` (matplotlib is the optional extra
``plot``). The data comes from :mod:`replay.services.series`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from ..errors import ReplayError
from ..registry import GameRegistry
from ..services.series import DICE_RESIDUALS, FINAL_SCORES, kinds_with

FORMATS = ("png", "svg")
INSTALL = "pip install 'boardgame-replay[plot]'"


@dataclass(frozen=True, slots=True)
class Plot:
    name: str
    what: str
    example: str
    query: str | None = None
    """The named query a game kind ships to have this plot (None: every kind has it)."""

    def kinds(self, registry: GameRegistry) -> list[str]:
        """The installed kinds that have this plot."""
        if self.query is None:
            return list(registry.kinds())
        return [g.kind for g in kinds_with(registry, self.query)]


PLOTS = (
    Plot("scores", "each seat's score after every event of one game, with its turns or rounds",
         "replay plot scores GAME -o scores.svg"),
    Plot("final-scores", "the spread of final scores by group over an archive: city (7 Wonders Dice), strategy (Flip 7)",
         "replay plot final-scores --game 7wonders-dice -o final-scores.png", FINAL_SCORES),
    Plot("lengths", "game length in events (or turns) by player count over an archive, a panel per kind",
         "replay plot lengths -o lengths.png"),
    Plot("dice", "each die face's count against a fair die's, per colour (Pearson residuals) over an archive",
         "replay plot dice -o dice.svg", DICE_RESIDUALS),
)


def plot_format(path: Path) -> str:
    """``png`` or ``svg``, from the output file's extension; a clear error for any other."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        got = f"its extension is {path.suffix!r}" if path.suffix else "it has no extension"
        raise ReplayError(f"{path}: a plot is written as PNG or SVG, and {got}: name the file .png or .svg")
    return fmt


def matplotlib_version() -> str | None:
    """The installed matplotlib's version, or None."""
    try:
        module = importlib.import_module("matplotlib")
    except ImportError:
        return None
    return str(getattr(module, "__version__", "?"))


def require_matplotlib() -> None:
    """A one-line error saying how to install matplotlib when it is missing."""
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        raise ReplayError(f"replay plot needs matplotlib, which is not installed: {INSTALL}") from None
