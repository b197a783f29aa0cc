"""Numbers read from text (notation, command lines, small files of the archive): ASCII digits only.

``str.isdigit()`` and the regex ``\\d`` admit '²' and other Unicode digits that ``int()``
refuses, and ``int()`` refuses more than 4,300 digits. Every reader asks here instead,
so a strange number ends in a message about the text, never a ValueError traceback.
Whether the number fits what it counts is the event models' business (``within_int64``).
"""

from __future__ import annotations

import re

MAX_DIGITS = 1000
"""More than any count can use, well under what ``int()`` accepts."""

DIGITS = f"[0-9]{{1,{MAX_DIGITS}}}"
"""The regex of a number, for patterns (``\\d`` matches any Unicode digit)."""

_NUMBER = re.compile(DIGITS)
_SIGNED = re.compile(f"-?{DIGITS}")


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number ``int()`` takes: ASCII digits, not too many."""
    return _NUMBER.fullmatch(text) is not None


def is_signed_number(text: str) -> bool:
    """Like ``is_number``, with an optional leading minus (one, not '--5')."""
    return _SIGNED.fullmatch(text) is not None
