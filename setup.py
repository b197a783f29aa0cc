"""The optional C extensions (everything else is in pyproject.toml): the 7 Wonders Dice fold's kernel,
the hash chain's links for bulk import, and the archive's column decoder; and the 7 Wonders Dice
bots' listing and shuffle of candidate actions and its projection's rows.

``optional=True``: where one cannot be compiled (no compiler, no Python headers), the install goes on
without it and the pure-Python code runs instead, with the same results
(replay/games/wonders_dice/compiled.py, cbots.py and rows_compiled.py, replay/chain_compiled.py,
replay/columns.py; REPLAY_PURE=1 forces that path where they are built).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "replay.games.wonders_dice._ckernel",
            ["replay/games/wonders_dice/_ckernel.c"],
            # shared with _cbots: rebuilt when they change, and carried in the sdist
            depends=["replay/games/wonders_dice/_attrs.h", "replay/games/wonders_dice/_resources.h",
                     "replay/games/wonders_dice/_shields.h", "replay/games/wonders_dice/_lent.h",
                     "replay/games/wonders_dice/_end_rates.h"],
            optional=True,
        ),
        Extension(  # the bots' listing and shuffle (replay/games/wonders_dice/cbots.py), the same way optional
            "replay.games.wonders_dice._cbots",
            ["replay/games/wonders_dice/_cbots.c"],
            depends=["replay/games/wonders_dice/_attrs.h", "replay/games/wonders_dice/_resources.h",
                     "replay/games/wonders_dice/_lent.h"],
            optional=True,
        ),
        Extension(  # the 7 Wonders Dice projection's rows (replay/games/wonders_dice/rows_compiled.py), the same way optional
            "replay.games.wonders_dice._crows",
            ["replay/games/wonders_dice/_crows.c"],
            depends=["replay/games/wonders_dice/_attrs.h", "replay/games/wonders_dice/_resources.h",
                     "replay/games/wonders_dice/_shields.h", "replay/games/wonders_dice/_end_rates.h"],
            optional=True,
        ),
        Extension(
            "replay._cchain",
            ["replay/_cchain.c"],
            libraries=["m"],  # cbrtl, sqrtl: SHA-256's constants computed from their definition
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(  # the replay driver's loop (replay/driver.py, Replay._run), the same way optional
            "replay._cdriver",
            ["replay/_cdriver.c"],
            optional=True,
        ),
        Extension(  # Arrow payload columns to Python values (replay/columns.py), the same way optional
            "replay._columns",
            ["replay/_columns.c"],
            optional=True,
        ),
    ],
)
