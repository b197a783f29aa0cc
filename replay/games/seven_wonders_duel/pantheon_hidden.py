"""What one seat may not know of Pantheon's Divinities, for ``observe`` and ``conceal``.

The rules text: "When you take a Mythology token, draw 2 Divinities from the corresponding deck,
choose 1 to put in the Pantheon facedown and put the other on top of the deck." Only the drawer
sees the two cards, so until Age II's reveal the other seat knows of them only what the table
shows: a face-down card's back (its mythology), the space, the decks' sizes. What it cannot tell
apart, for one mythology: the Divinities the opponent put face down, the two the opponent has
just drawn (before placing one), and which of them lie in the deck. The deck's order is a secret
too: the card put back on top is known to its drawer only, until a Gate turns the tops up (after
which every top is public) or the Divine Theater's search leaves the order unknown to both.

Who put a top back is read from the Mythology tokens: the one seat holding that mythology's
tokens. When both hold one (the ``random`` token option can bring a mythology twice) the record
does not say who drew last, and the top is hidden from both: a seat may be shown less than it
knows, never more (docs/games/7-wonders-duel.md, "Face-down Divinities").
"""

from __future__ import annotations

import copy
import random
from typing import Any

from .pantheon import divinities
from .state import State


def _gate_opened(state: State) -> bool:
    """Whether a Gate has turned up the decks' tops (from then on every top is public)."""
    pan, pack = state.pantheon, state.pack
    assert pan is not None and pack.pantheon is not None
    gate = pack.pantheon.gate.id
    return any(a["divinity"] == gate for acts in pan["activated"] for a in acts)


def _top_known_by(state: State, mythology: str) -> int | None:
    """The seat that alone knows the Divinity on top of ``mythology``'s deck; None when it is public
    (after a Gate), unknown to both (after the Divine Theater: no top recorded), or when the record
    cannot tell which of the two seats drew last."""
    pan = state.pantheon
    assert pan is not None
    if not pan["tops"][mythology] or _gate_opened(state):
        return None
    holders = [seat for seat in (0, 1) if mythology in pan["mythology"][seat]]
    return holders[0] if len(holders) == 1 else None


def secrets(state: State, seat: int) -> dict[str, dict[str, Any]]:
    """For each mythology with something ``seat`` cannot see: the face-down spaces it cannot read,
    whether the drawn pair is hidden, whether the deck's contents and its tops are."""
    pan = state.pantheon
    if pan is None:
        return {}
    table = divinities(state.pack)
    other = 1 - seat
    out: dict[str, dict[str, Any]] = {}
    for mythology in pan["decks"]:
        spaces = [i for i, s in enumerate(pan["spaces"])
                  if s is not None and not s["face_up"] and s["by"] == other and table[s["divinity"]].mythology == mythology]
        task = state.queue[0] if state.queue else None
        drawn = bool(pan["drawn"]) and task is not None and task[0] == "place" and task[1] == other \
            and table[pan["drawn"][0]].mythology == mythology
        tops = bool(pan["tops"][mythology]) and not _gate_opened(state) and _top_known_by(state, mythology) != seat
        deck = bool(spaces or drawn)
        if deck or (tops and len(pan["decks"][mythology]) > len(pan["tops"][mythology])):
            out[mythology] = {"spaces": spaces, "drawn": drawn, "deck": deck, "tops": tops}
    return out


def observe(data: dict[str, Any], state: State, seat: int) -> dict[str, Any]:
    """``data`` (the table's, or what another part already hid of it) with the Divinities ``seat``
    cannot know left out: a face-down space keeps its back (``mythology``) and its placer, a hidden
    draw or deck keeps its size, a hidden top its place."""
    pan = data["pantheon"]
    for mythology, hidden in secrets(state, seat).items():
        for i in hidden["spaces"]:
            pan["spaces"][i] = {**pan["spaces"][i], "divinity": None, "mythology": mythology}
        if hidden["drawn"]:
            pan["drawn"] = [None] * len(pan["drawn"])
        if hidden["deck"]:
            pan["decks"][mythology] = [None] * len(pan["decks"][mythology])
        if hidden["tops"]:
            pan["tops"][mythology] = [None] * len(pan["tops"][mythology])
    return data


def conceal(state: State, seat: int, rng: random.Random) -> State | None:
    """The table with the Divinities ``seat`` cannot tell apart shuffled among their places (within a
    mythology; a top the seat knows stays); None when it can tell every one apart."""
    hidden_of = secrets(state, seat)
    if not hidden_of:
        return None
    before = state.data()
    for _ in range(20):
        data = copy.deepcopy(before)
        for mythology, hidden in sorted(hidden_of.items()):
            _shuffle(data["pantheon"], mythology, hidden, rng)
        if data != before:
            return State.of_data(data, state.pack)
    return None  # pragma: no cover - a hidden place always has another Divinity it could be


def _shuffle(pan: dict[str, Any], mythology: str, hidden: dict[str, Any], rng: random.Random) -> None:
    """One mythology's hidden Divinities permuted among the places the seat cannot tell apart."""
    deck, tops = pan["decks"][mythology], pan["tops"][mythology]
    pool = [pan["spaces"][i]["divinity"] for i in hidden["spaces"]] + (list(pan["drawn"]) if hidden["drawn"] else [])
    pool += [d for d in deck if hidden["tops"] or d not in tops] if hidden["deck"] else list(deck)
    swap = dict(zip(pool, rng.sample(pool, len(pool))))
    for i in hidden["spaces"]:
        pan["spaces"][i]["divinity"] = swap[pan["spaces"][i]["divinity"]]
    if hidden["drawn"]:
        pan["drawn"] = [swap[d] for d in pan["drawn"]]
    pan["decks"][mythology] = sorted(swap.get(d, d) for d in deck)
    pan["tops"][mythology] = [swap.get(d, d) for d in tops]


__all__ = ["conceal", "observe", "secrets"]
