"""The Pantheon expansion's Divinity powers that ask their owner a choice (a ``divinity_power``
event): what each may be used on (:func:`options`, for the checks and the legal plays alike) and
what it does (:func:`use`). Apart from :mod:`.pantheon` so that each module stays small; the
power is found by its effect's type in the pack's vocabulary, never by the Divinity's name.
"""

from __future__ import annotations

from typing import Any

from . import pantheon as core
from . import rules as base
from .state import State


def options(state: State, seat: int, divinity_id: str) -> list[dict[str, Any]]:
    """What ``divinity_id``'s power may be used on now, each as the payload's fields; ``[{}]`` when nothing."""
    divinity = core.divinities(state.pack)[divinity_id]
    e = next(e for e in divinity.effects if e.type in core.POWERS)
    opponent = 1 - seat
    out: list[dict[str, Any]]
    if e.type == "progress_of_two":
        out = [{"token": t} for t in core._pan(state)["enki"]]
    elif e.type == "snake":
        out = [{"card": c.id} for c in state.cards(opponent) if c.colour == "green" and core._symbol(c)]
    elif e.type == "steal":
        out = [{"card": c.id} for c in state.cards(opponent) if c.colour in e.colours]
    elif e.type == "discard_from_structure":
        out = [{"slot": s} for s in state.slots if s not in state.taken]
    elif e.type == "discard_wonder_card":
        out = [{"wonder": w} for s in (0, 1) for w in state.built_wonders[s]]
    elif e.type == "wonder_from_discard":
        out = [{"card": c, "wonder": w} for c in sorted(set(state.discard)) for w in base.buildable_wonders(state, seat)]
    elif e.type == "steal_wonder":
        out = [{"wonder": w} for w in state.wonders[opponent]
               if w not in state.built_wonders[opponent] and w not in state.wonders_out]
    elif e.type == "block_pawn":
        capital = state.pack.military.capital
        out = [{"space": x} for x in range(-capital, capital + 1) if x != state.pawn]
    else:
        refs = [f"{s}:{t}" for s in (0, 1) for t in state.loot[s]]
        out = [{"discarded": a, **({"applied": b} if b else {})} for a in refs
               for b in ([r for r in refs if r != a] or [""])]
    return out or [{}]


def chosen(p: dict[str, Any]) -> dict[str, Any]:
    """The choice a ``divinity_power`` payload records (only the fields set)."""
    return {k: p[k] for k in core.POWER_FIELDS if p.get(k) is not None}


def words(option: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in option.items()) or "nothing"


def use(state: State, p: dict[str, Any]) -> None:
    pan, seat = core._pan(state), p["seat"]
    opponent = 1 - seat
    effect = next(e for e in core.divinities(state.pack)[p["divinity"]].effects if e.type in core.POWERS).type
    picked = chosen(p)
    if not picked:
        return
    if effect == "progress_of_two":
        for other in pan["enki"]:
            if other != p["token"]:
                state.seen_tokens.remove(other)
        pan["enki"] = []
        base._token_taken(state, seat, p["token"])
    elif effect == "snake":
        pan["snake"] = [seat, p["card"]]
        symbol = core._symbol(state.card(p["card"]))
        assert symbol is not None
        base.science(state, seat, symbol)
    elif effect == "steal":
        state.built[opponent].remove(p["card"])
        state.built[seat].append(p["card"])
    elif effect == "discard_from_structure":
        _zeus(state, p["slot"])
    elif effect == "discard_wonder_card":
        owner = 0 if p["wonder"] in state.built_wonders[0] else 1
        i = state.built_wonders[owner].index(p["wonder"])
        del state.built_wonders[owner][i]
        to_discard(state, state.under[owner].pop(i))
    elif effect == "wonder_from_discard":
        state.discard.remove(p["card"])
        base._wonder_built(state, seat, p["wonder"], p["card"])
    elif effect == "steal_wonder":
        state.wonders[opponent].remove(p["wonder"])
        state.wonders[seat].append(p["wonder"])
    elif effect == "block_pawn":
        pan["minerva"] = p["space"]
    else:
        _neptune(state, p)


def _zeus(state: State, slot: str) -> None:
    """A card of the structure to the discard pile with its token; a face-down one is turned up
    first (a chance event), and the cards it uncovers too."""
    pan = core._pan(state)
    state.taken.append(slot)
    pan["tokens"].pop(slot, None)
    reveals = [task for task in state.queue if task[0] == "reveal"]
    state.queue = [task for task in state.queue if not (task[0] == "reveal" and task[2] == slot)]
    card = state.slots[slot]
    if card is not None:
        to_discard(state, card)
    else:
        state.queue.insert(0, ["reveal", None, slot])
    pending = {task[2] for task in reveals}
    layout = state.pack.layout(state.age)
    state.queue += [["reveal", None, s] for s in layout.available(frozenset(state.taken))
                    if state.slots[s] is None and s not in pending]


def to_discard(state: State, card: str) -> None:
    """A card a Divinity discards goes to the discard pile; with Agora a Senator is set aside instead,
    as Agora sets aside every Senator discarded (so Hades, Isis and the Mausoleum never see one)."""
    from . import agora  # Agora

    (agora.ag(state)["set_aside"] if agora.is_senator(state, card) else state.discard).append(card)


def _neptune(state: State, p: dict[str, Any]) -> None:
    """One military token discarded, another applied. With Agora its tokens are Agora's, whose
    effect is Senate actions: whose they are is the pack option ``neptune_agora_token`` (Neptune's
    owner by default, or the player whose shields would have reached it), docs/games/7-wonders-duel.md,
    "Pantheon and Agora together"."""
    side, token = p["discarded"].split(":")
    state.loot[int(side)].remove(token)
    if p.get("applied"):
        side, token = p["applied"].split(":")
        state.loot[int(side)].remove(token)
        if state.pack.agora is not None:  # Agora: its military tokens give Senate actions
            from . import agora
            effects = next(t.effects for t in state.pack.agora.military_tokens if t.id == token)
            shields = state.pack.options.neptune_agora_token == "shields"
            agora.apply_effects(state, 1 - int(side) if shields else p["seat"], effects)
            return
        loss = next(t.coins for t in state.pack.military.tokens if t.id == token)
        state.coins[int(side)] -= min(state.coins[int(side)], loss)
