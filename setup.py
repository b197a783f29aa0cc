"""The optional C extensions (everything else is in pyproject.toml): the 7 Wonders Dice fold's kernel,
and the hash chain's links for bulk import.

``optional=True``: where one cannot be compiled (no compiler, no Python headers), the install goes on
without it and the pure-Python code runs instead, with the same results
(replay/games/wonders_dice/compiled.py, replay/chain_compiled.py; REPLAY_PURE=1 forces that path where
they are built).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "replay.games.wonders_dice._ckernel",
            ["replay/games/wonders_dice/_ckernel.c"],
            optional=True,
        ),
        Extension(
            "replay._cchain",
            ["replay/_cchain.c"],
            libraries=["m"],  # cbrtl, sqrtl: SHA-256's constants computed from their definition
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ],
)
