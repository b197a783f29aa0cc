"""What people see of Agora's part of a 7 Wonders Duel game.

Agora's secrets are a seat's conspiracies: those it holds (prepared or not), those it has
just drawn, and the one it put back on top or at the bottom of the deck; and the Age's removed
cards Treason turned up for it (the one built is no secret). The other seat sees only
how many it holds and which are prepared (the card under a prepared one was taken face up from
the structure, so it is no secret). :func:`conceal` swaps those identities for others the seat
cannot tell apart, for the conformance checks.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from replay.events import Event

from .agora import ag, controls, part
from .agora_plots import removed_pool
from .state import State, chamber_decrees


def _hidden(state: State, seat: int) -> list[tuple[str, Any]]:
    """Where ``seat`` may not see a conspiracy's identity: (kind, place) pairs."""
    agora = state.agora
    assert agora is not None
    other = 1 - seat
    out: list[tuple[str, Any]] = [("hand", i) for i in range(len(agora["hands"][other]))]
    if agora["drawn"] and agora["tasks"] and agora["tasks"][0][0] == "choose" and agora["tasks"][0][1] == other:
        out += [("drawn", i) for i in range(len(agora["drawn"]))]
    out += [(where, i) for where in ("top", "bottom") for i, (_, who) in enumerate(agora[where]) if who == other]
    return out


def _get(data: dict[str, Any], seat: int, place: tuple[str, Any]) -> str:
    kind, i = place
    agora = data["agora"]
    if kind == "hand":
        return str(agora["hands"][1 - seat][i]["id"])
    if kind == "drawn":
        return str(agora["drawn"][i])
    return str(agora[kind][i][0])


def _set(data: dict[str, Any], seat: int, place: tuple[str, Any], value: str | None) -> None:
    kind, i = place
    agora = data["agora"]
    if kind == "hand":
        agora["hands"][1 - seat][i]["id"] = value
    elif kind == "drawn":
        agora["drawn"][i] = value
    else:
        agora[kind][i][0] = value


def observe(state: State, seat: int) -> dict[str, Any]:
    """The table as ``seat`` sees it: the other seat's conspiracies without their identity (None),
    and the removed cards Treason turned up for the other seat as None too."""
    data = state.data()
    for place in _hidden(state, seat):
        _set(data, seat, place, None)
    removed = data["agora"].get("removed")
    if removed is not None and removed["seat"] != seat:
        removed["cards"] = [None] * len(removed["cards"])
    return data


def conceal(state: State, seat: int, rng: random.Random) -> State | None:
    """The table with the conspiracies (and Treason's removed cards) ``seat`` cannot see swapped for
    others it cannot tell apart (None when it sees every one)."""
    places = _hidden(state, seat)
    secret = _removed_secret(state, seat)
    if not places and not secret:
        return None
    data = state.data()
    if secret:
        data["agora"]["removed"]["cards"] = _other_removed(state, secret, rng)
    if not places:
        return State.of_data(copy.deepcopy(data), state.pack)
    current = [_get(data, seat, p) for p in places]
    visible = set(_get_all(data)) - set(current)
    pool = sorted(c.id for c in part(state).conspiracies if c.id not in visible)
    for _ in range(20):
        chosen = rng.sample(pool, len(places))
        if chosen != current:
            break
    else:  # pragma: no cover - the pool has more identities than places whenever a draw is possible
        return None
    for place, value in zip(places, chosen):
        _set(data, seat, place, value)
    return State.of_data(copy.deepcopy(data), state.pack)


def _removed_secret(state: State, seat: int) -> list[str]:
    """The removed cards Treason turned up for the other seat (in the Age being played), that ``seat`` has not seen."""
    removed = ag(state).get("removed")
    return list(removed["cards"]) if removed is not None and removed["seat"] != seat else []


def _other_removed(state: State, secret: list[str], rng: random.Random) -> list[str]:
    """As many other cards the Age's removed ones could be, for all the seat knows (when there are others)."""
    shown = {c for seat in (0, 1) for c in state.built[seat]} | set(state.discard)
    pool = [c for c in removed_pool(state) if c not in shown]
    for _ in range(20):
        chosen = rng.sample(pool, len(secret))
        if sorted(chosen) != sorted(secret):
            return chosen
    return secret  # pragma: no cover - the Age's deck has more unseen cards than removed ones while it is played


def _get_all(data: dict[str, Any]) -> list[str]:
    agora = data["agora"]
    out = [c["id"] for hand in agora["hands"] for c in hand] + [c for t in agora["triggered"] for c in t]
    return out + list(agora["drawn"]) + [c for c, _ in agora["top"]] + [c for c, _ in agora["bottom"]]


def page_board(state: State) -> dict[str, Any]:
    """What the board script needs for Agora: its structures, the chambers, the names."""
    pack = state.pack
    agora = part(state)
    cards = {f"{s.id}_{k}": {"name": s.name, "colour": "senator"} for s in agora.senators for k in range(1, s.copies + 1)}
    return {"layouts": {str(age): [{"id": s.id, "row": s.row, "col": s.col} for s in pack.layout(age).slots]
                        for age in (1, 2, 3)},
            "chambers": [{"id": ch.id, "number": ch.number, "section": ch.section, "vp": ch.vp} for ch in agora.chambers],
            "decrees": {d.id: d.name for d in agora.decrees},
            "conspiracies": {c.id: c.name for c in agora.conspiracies},
            "cards": {c.id: {"name": c.name, "colour": c.colour} for c in pack.all_cards} | cards}


def senate_lines(state: State, player: str | None) -> list[str]:
    agora = state.agora
    assert agora is not None
    held = controls(state)
    lines = ["senate: " + "; ".join(
        f"{ch} {agora['influence'][ch][0]}-{agora['influence'][ch][1]}"
        + (f" {state.names[who]}" if (who := held[ch]) is not None else "")
        + f" ({', '.join(d or 'decree face down' for d in chamber_decrees(agora, ch)) or 'no decree'})"
        for ch in agora["influence"])]
    for seat, name in enumerate(state.names):
        if player and name.lower() != player.lower():
            continue
        hand = agora["hands"][seat]
        mine = player is not None
        shown = ", ".join((c["id"] if mine else "a conspiracy") + (" (prepared)" if c["prepared"] else "") for c in hand)
        removed = agora.get("removed")
        looked = removed["cards"] if mine and removed is not None and removed["seat"] == seat and removed["cards"] else []
        lines.append(f"{name}: {len(agora['senators'][seat])} Senators; conspiracies {shown or 'none'}"
                     + (f"; triggered {', '.join(agora['triggered'][seat])}" if agora["triggered"][seat] else "")
                     + (f"; removed cards seen (Treason) {', '.join(looked)}" if looked else ""))
    return lines


def headline(event: Event, who: Callable[[Any], str]) -> str:
    p, t = event.payload, event.type
    if t == "decrees_placed":
        return "Decrees face up: " + ", ".join(f"{c} {d}" for c, d in p["decrees"].items())
    if t == "decree_revealed":
        return f"Decree of {p['chamber']} turned up: {p['decree']}"
    if t == "senator_recruited":
        return f"{who(p['seat'])} recruits {p['card']}"
    if t == "conspiracy_prepared":
        return f"{who(p['seat'])} prepares a conspiracy with {p['card']}"
    if t == "conspiracy_triggered":
        return f"{who(p['seat'])} triggers {p['conspiracy']}"
    if t == "senate_action":
        where = {"place": f" in {p.get('chamber')}", "remove": f" from {p.get('chamber')}",
                 "move": f" from {p.get('origin')} to {p.get('chamber')}"}.get(p["action"], "")
        return f"{who(p['seat'])} senate: {p['action']}{where}"
    if t == "conspiracies_drawn":
        return f"{who(p['seat'])} draws {len(p['conspiracies'])} conspiracies"
    if t == "conspiracy_chosen":
        back = f", one back on the {p['place']}" if p.get("place") else ""
        return f"{who(p['seat'])} keeps {len(p['keep'])} conspiracies{back}"
    if t == "removed_revealed":
        return f"{who(p['seat'])} looks at the {len(p['cards'])} cards removed from Age {p['age']}"
    if t == "cards_swapped":
        return f"{who(p['seat'])} swaps: takes {p['take']}, gives {p['give']}" if p.get("take") else \
            f"{who(p['seat'])} swaps nothing"
    if t == "decree_moved":
        return f"{who(p['seat'])} moves the Decree {p.get('decree') or '(face down)'} from {p['origin']} to {p['chamber']}"
    return f"{who(p['seat'])} {p['effect'].replace('_', ' ')}: {p.get('target') or 'nothing'}"


__all__ = ["conceal", "headline", "observe", "page_board", "senate_lines"]
