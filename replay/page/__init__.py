"""The replay page: one self-contained HTML file (no server, no network), data and scripts inlined.

:func:`assemble` puts the page's data (``replay.services.page.page_data``), the core script that
scrubs through it, and each game's board script into ``page.html``. The core draws any game (its
state as a tree); a game with a board script (``Views.page_script``) draws its own board.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

_MARKER = re.compile(r"/\*@(?:CSS|CORE|BOARDS)@\*/|@(?:DATA|TITLE|GENERATOR)@")


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """JSON that can sit inside a ``<script>`` element: every ``<`` (only ever inside a string) is
    written ``\\u003c``, so no ``</script>`` or ``<!--`` in a player's name can end or open anything."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # key order kept: it is the game's (the Forum's dice)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def assemble(data: Mapping[str, Any], boards: Mapping[str, str]) -> str:
    """The page's HTML: ``data`` as the page reads it, ``boards`` the board script of each game kind."""
    registered = "\n".join(
        f"ReplayPage.registerBoard({json.dumps(kind)}, (function () {{\n{script}\n}})());"
        for kind, script in sorted(boards.items()))
    parts = {
        "/*@CSS@*/": _asset("page.css"),
        "/*@CORE@*/": _asset("page.js"),
        "/*@BOARDS@*/": registered.replace("</script", "<\\/script"),
        "@DATA@": script_json(data),
        "@TITLE@": html.escape(str(data.get("title", "replay"))),
        "@GENERATOR@": html.escape(str(data.get("generator", "replay"))),
    }
    template = _asset("page.html")
    # One pass over the template: what is put in is never searched again for markers.
    return _MARKER.sub(lambda m: parts[m.group(0)], template)
