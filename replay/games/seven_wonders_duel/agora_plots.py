"""Agora's three conspiracies that reach past the Senate's usual choices (7 Wonders Duel): Treason
(the Age's removed cards turned up, one built for free), Coercion (a card swapped for one of the
same colour) and Insider Influence (a Decree moved under another chamber's). Each is a task of
:mod:`.agora` with its own event: what it may be (the lists the rules check and the legal plays
offer) and what it does. The rulings are in docs/games/7-wonders-duel.md (Agora, Rulings).
"""

from __future__ import annotations

from typing import Any

from replay.events import Event

from .agora import _shield_decree, ag, controller, part
from .rules import age_deck, refuse, science
from .state import State, chamber_decrees

# ----------------------------------------------------------------------------- Treason


def removed_count(state: State) -> int:
    """How many cards Treason turns up: those removed from the Age's deck at its setup."""
    return state.pack.numbers.removed_per_age


def removed_pool(state: State) -> list[str]:
    """The cards Treason's may be: of the Age's deck (no guild or Grand Temple), not seen in its structure."""
    return sorted(age_deck(state.pack, state.age)[0] - set(state.seen))


def check_removed(state: State, event: Event) -> None:
    p = event.payload
    cards, pool, k = p["cards"], removed_pool(state), removed_count(state)
    if p["age"] != state.age or len(cards) != k or len(set(cards)) != len(cards) or not set(cards) <= set(pool):
        wrong = [c for c in cards if c not in pool]
        got = f"Age {p['age']}: " + ", ".join(cards) + (f" ({', '.join(wrong)} not one)" if wrong else "")
        raise refuse(state, event, "swd.agora.removed", f"{k} different cards of the Age {state.age} deck not seen in "
                     "its structure", got, p["seat"])


def is_removed(state: State, card: str) -> bool:
    """Whether ``card`` is one of the Age's removed cards Treason turned up (so it is in no slot: ``swd.reveal``)."""
    if state.agora is None or "removed" not in state.agora:
        return False
    removed = state.agora["removed"]
    return bool(removed["age"] == state.age and card in removed["cards"])


# ----------------------------------------------------------------------------- Coercion


def swap_options(state: State, seat: int, colours: list[str]) -> list[tuple[str, str]]:
    """Coercion's swaps: (the opponent's card taken, the player's own given), of the same colour."""
    mine, theirs = state.cards(seat), state.cards(1 - seat)
    return sorted((t.id, g.id) for colour in colours for t in theirs if t.colour == colour
                  for g in mine if g.colour == colour)


def check_swap(state: State, event: Event) -> None:
    p = event.payload
    allowed = swap_options(state, p["seat"], ag(state)["tasks"][0][2])
    got = (p.get("take"), p.get("give"))
    if got not in allowed and not (got == (None, None) and not allowed):
        sample = "; ".join(f"{t} for {g}" for t, g in allowed[:6]) + ("; ..." if len(allowed) > 6 else "")
        raise refuse(state, event, "swd.agora.swap", "one of: " + (sample or "nothing (no colour on both sides)"),
                     f"{got[0] or 'nothing'} for {got[1] or 'nothing'}", p["seat"])


def swap(state: State, p: dict[str, Any]) -> None:
    """Coercion: the two cards change cities. Whether a green card so gained gives a pair's token or
    scientific supremacy is the pack option ``coercion_science``: ``gained`` (as if built, the
    player first, then the opponent), or ``moved`` (no; its symbol counts from then on, when
    :func:`.rules.science` next looks)."""
    seat, take, give = p["seat"], p.get("take"), p.get("give")
    if take is None or give is None:
        return
    opponent = 1 - seat
    state.built[opponent].remove(take)
    state.built[seat].append(take)
    state.built[seat].remove(give)
    state.built[opponent].append(give)
    if state.pack.options.coercion_science != "gained":
        return
    waiting, state.queue = state.queue, []
    for who, card in ((seat, take), (opponent, give)):
        for e in state.card(card).effects:
            if e.type == "science" and e.symbol is not None:
                science(state, who, e.symbol)
    # each pair's token in the order gained (a supremacy ends the game: nothing waits then)
    state.queue = [] if state.victory is not None else list(reversed(state.queue)) + waiting


# ----------------------------------------------------------------------------- Insider Influence


def decree_moves(state: State) -> list[tuple[str, str, str | None]]:
    """Insider Influence's moves: (origin, chamber, the Decree or None for a face-down one)."""
    agora = ag(state)
    chambers = [ch.id for ch in part(state).chambers]
    return [(origin, to, d) for origin in chambers for d in sorted(set(chamber_decrees(agora, origin)), key=str)
            for to in chambers if to != origin]


def check_decree_move(state: State, event: Event) -> None:
    p = event.payload
    got = (p["origin"], p["chamber"], p.get("decree"))
    if got not in decree_moves(state):
        held = chamber_decrees(ag(state), p["origin"]) if p["origin"] in ag(state)["decrees"] else []
        raise refuse(state, event, "swd.agora.decree_move", f"a Decree of {p['origin']} ("
                     + (", ".join(d or "face down" for d in held) or "none") + ") to another chamber",
                     f"{p.get('decree') or 'face down'} from {p['origin']} to {p['chamber']}", p["seat"])


def move_decree(state: State, p: dict[str, Any]) -> None:
    """Insider Influence: the Decree goes under the other chamber's (that chamber now holds two); a
    face-down one moved into a controlled chamber is turned up at once (ruling), and the Shield
    Decree moves the pawn as control of it changes hands (as for a change of control)."""
    agora = ag(state)
    origin, to, decree = p["origin"], p["chamber"], p.get("decree")
    left = chamber_decrees(agora, origin)
    left.remove(decree)
    agora["decrees"][origin] = left
    agora["decrees"][to] = [*chamber_decrees(agora, to), decree]
    now = controller(state, to)
    if decree is None:
        if now is not None:
            agora["tasks"].insert(0, ["decree", None, to])
        return
    was = controller(state, origin)
    if was != now:
        _shield_decree(state, decree, was, now)
