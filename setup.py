"""The optional C extension of the 7 Wonders Dice fold (everything else is in pyproject.toml).

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
    ],
)
