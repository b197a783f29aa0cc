"""What people see of the Pantheon expansion: its events in words, the Pantheon and the tokens as
text, and what the page's board needs from the pack.

The face-down Divinities (docs/games/7-wonders-duel.md, "Face-down Divinities"): the record
holds which Divinity a player drew and put face down (the draw and the choice are events), so the
state does too, but the other seat saw only their backs: ``observe`` and ``conceal`` hide them
(:mod:`.pantheon_hidden`), the headlines of a draw and a placing name the deck and the space, not
the Divinities, and the text view shows a face-down one by its mythology, by its name only to the
player who placed it (``show`` with that player).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay.events import Event

from . import pantheon, pantheon_powers
from .state import State


def page_board(state: State) -> dict[str, Any]:
    pack = state.pack
    if pack.pantheon is None:
        return {}
    return {"divinities": {d.id: {"name": d.name, "mythology": d.mythology} for d in pantheon.divinities(pack).values()},
            "costs": [list(c) for c in pack.pantheon.board.space_costs]}


def headline(event: Event, names: Sequence[str]) -> str:
    p, t = event.payload, event.type

    def who(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"

    if t == "pantheon_tokens_placed":
        return f"Age {p['age']} tokens: " + ", ".join(f"{token} on {slot}" for slot, token in sorted(p["tokens"].items()))
    if t == "divinities_drawn":  # a Mythology token's draw is seen by its drawer only; the Gate's by both
        if p.get("mythology"):
            return f"{who(p['seat'])} draws {len(p['divinities'])} Divinities from the {p['mythology']} deck"
        return f"{who(p['seat'])} draws from the top of each deck (the Gate): " + ", ".join(p["divinities"])
    if t == "divinity_chosen":
        if p.get("space") is not None:
            return f"{who(p['seat'])} puts a Divinity face down into space {p['space']}"
        return f"{who(p['seat'])} chooses {p['divinity']} and activates it"
    if t == "divinity_activated":
        offered = f", discarding offerings {', '.join(map(str, p['offerings']))}" if p.get("offerings") else ""
        return f"{who(p['seat'])} activates {p['divinity']}" + offered
    if t == "enki_drawn":
        return "progress tokens on Enki: " + ", ".join(p["tokens"])
    on = ", ".join(f"{k} {v}" for k, v in pantheon_powers.chosen(p).items()) or "nothing"
    return f"{who(p['seat'])} uses {p['divinity']}'s power on {on}"


def show(state: State, player: str | None) -> list[str]:
    """The Pantheon's spaces (with each seat's price), and each seat's tokens and Divinities."""
    pan = state.pantheon
    if pan is None or state.pack.pantheon is None:
        return []
    table = pantheon.divinities(state.pack)
    costs = state.pack.pantheon.board.space_costs
    cells = []
    for i, space in enumerate(pan["spaces"]):
        price = costs[i][0] if state.first == 0 else costs[i][1], costs[i][1] if state.first == 0 else costs[i][0]
        if space is None:
            shown = "empty"
        elif space["face_up"]:
            shown = space["divinity"]
        else:
            placer = state.names[space["by"]] if space["by"] is not None else None
            mine = player is not None and placer is not None and placer.lower() == player.lower()
            shown = f"face down ({table[space['divinity']].mythology}" + (f": {space['divinity']})" if mine else ")")
        cells.append(f"{i} {shown} [{price[0]}/{price[1]}]")
    lines = ["Pantheon: " + "; ".join(cells)]
    for seat, name in enumerate(state.names):
        if player and name.lower() != player.lower():
            continue
        gods = ", ".join(f"{a['divinity']} (Age {a['age']})" for a in pan["activated"][seat])
        lines.append(f"{name}: mythology {', '.join(pan['mythology'][seat]) or 'none'}; offerings "
                     f"{', '.join(map(str, pan['offerings'][seat])) or 'none'}; Astarte {pan['reserve'][seat]}; "
                     f"Divinities {gods or 'none'}")
    return lines
