"""The optional C extensions: the 7 Wonders Dice fold's kernel and the archive's column decoder
(everything else is in pyproject.toml).

``optional=True``: where it cannot be compiled (no compiler, no Python headers), the install goes on
without it and the pure-Python code runs instead, with the same results
(replay/games/wonders_dice/compiled.py; REPLAY_PURE=1 forces that path where it is built).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "replay.games.wonders_dice._ckernel",
            ["replay/games/wonders_dice/_ckernel.c"],
            optional=True,
        ),
        Extension(  # Arrow payload columns to Python values (replay/columns.py), the same way optional
            "replay._columns",
            ["replay/_columns.c"],
            optional=True,
        ),
    ],
)
