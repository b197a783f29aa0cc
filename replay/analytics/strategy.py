"""The bot behind each seat of a simulated game, read from its start event's provenance.

A simulation writes its line-up in the provenance's ``detail`` (``replay.games.flip7 seed=N
bots=a,b,c``) and cycles it over the seats (``bots[seat % len(bots)]``), so the line-up names
every seat's bot. Games not simulated (typed, imported) record none.
"""

from __future__ import annotations

import re

from ..events import Event

_BOTS = re.compile(r"(?:^|\s)bots=([A-Za-z0-9_,]+)(?:\s|$)")


def strategies(start: Event) -> list[str | None]:
    """Each seat's bot, from the provenance a simulation writes; None where nothing records one."""
    p = start.payload
    n = len(p.get("seats") or ())
    provenance = p.get("provenance") or {}
    found = _BOTS.search(provenance.get("detail") or "") if provenance.get("source") == "simulated" else None
    bots = [b for b in found.group(1).split(",") if b] if found else []
    return [bots[s % len(bots)] if bots else None for s in range(n)]
