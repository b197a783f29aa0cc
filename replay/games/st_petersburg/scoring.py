"""Scoring: a phase's income (roubles and points of the cards of its colour) and the final scoring
(different aristocrats by the table, points for roubles, the penalty for cards in hand, the winners)."""

from __future__ import annotations

from .state import State


def phase_income(state: State, seat: int, colour: str) -> tuple[int, int]:
    """(roubles, points) the cards of ``colour`` in ``seat``'s play area give at their phase's scoring.
    An Observatory used this round gives nothing; a card with ``rubles_per`` (Mariinskij-Theater, Tax Man)
    gives a rouble more per card of that colour its owner has."""
    by_id = state.pack.by_id
    cards = [by_id[c] for c in state.tableau[seat]]
    skip = state.observatory_used[seat]
    rubles = points = 0
    for card in cards:
        if card.colour != colour:
            continue
        if card.power == "observatory" and skip > 0:
            skip -= 1
            continue
        rubles += card.rubles
        points += card.points
        if card.rubles_per:
            rubles += sum(1 for c in cards if c.colour == card.rubles_per)
    return rubles, points


def aristocrat_types(state: State, seat: int) -> int:
    by_id = state.pack.by_id
    return len({c for c in state.tableau[seat] if by_id[c].colour == "aristocrat"})


def final_scoring(state: State) -> None:
    """Add the final points, set the roubles left after converting and the winners."""
    scoring = state.pack.scoring
    table = scoring.aristocrat_table
    state.rubles_left = []
    for s in range(state.n):
        cats = state.categories[s]
        cats["aristocrat_types"] = table[min(aristocrat_types(state, s), len(table) - 1)]
        cats["rubles"] = state.rubles[s] // scoring.rubles_per_point
        cats["hand"] = -scoring.hand_penalty * len(state.hand[s])
        state.points[s] += cats["aristocrat_types"] + cats["rubles"] + cats["hand"]
        state.rubles_left.append(state.rubles[s] - cats["rubles"] * scoring.rubles_per_point)
    best = max(state.points)
    leaders = [s for s in range(state.n) if state.points[s] == best]
    if state.pack.options.tie_break == "rubles_left":
        most = max(state.rubles_left[s] for s in leaders)
        leaders = [s for s in leaders if state.rubles_left[s] == most]
    state.winners = leaders
