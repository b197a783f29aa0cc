"""replay: event-sourced game-log replay and analysis.

The core (everything outside ``replay.games``) knows events, archives and
games (through the contract in ``replay.contract``), never the rules of a particular game.
"""

__version__ = "0.2.0.dev0"
"""The one place the version is written: pyproject reads it, and so does `replay --version`."""
