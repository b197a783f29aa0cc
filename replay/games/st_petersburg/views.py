"""What people see of a St. Petersburg game: the table as data and text, each event in words, the result.

Hands are hidden from the other seats (they see how many cards each holds), and a deck shows only how
many cards it has left: what it holds would tell what sits in the hands.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from replay.contract import Result, Score, Views, ranks
from replay.events import Event
from replay.problems import Problem

from .rules import RULES, expected_words
from .state import State, seat_name


class StPeteViews(Views[State]):
    hidden_information = True
    bookkeeping = frozenset({"expect", "pubs_left", "passes"})

    def data(self, state: State) -> dict[str, Any]:
        return state.data()

    def observe(self, state: State, seat: int) -> dict[str, Any]:
        data = state.data()
        data["hand"] = [list(h) if s == seat else {"count": len(h)} for s, h in enumerate(state.hand)]
        data["decks"] = {d: state.deck_size(d) for d in state.decks}
        return data

    def conceal(self, state: State, seat: int, rng: random.Random) -> State | None:
        """The same table with a card of another seat's hand swapped for another card of its deck."""
        other = State.of_data(state.data(), state.pack)
        by_id = state.pack.by_id
        places = [(s, i) for s in range(state.n) if s != seat for i in range(len(state.hand[s]))]
        rng.shuffle(places)
        for s, i in places:
            card = other.hand[s][i]
            deck = other.decks[by_id[card].deck]
            swaps = sorted(c for c in deck if c != card)
            if swaps:
                new = rng.choice(swaps)
                deck[new] -= 1
                if not deck[new]:
                    del deck[new]
                deck[card] = deck.get(card, 0) + 1
                other.hand[s][i] = new
                return other
        return None

    def headline(self, event: Event, names: Sequence[str]) -> str:
        p = event.payload
        who = seat_name(names, p.get("seat"))
        t = event.type
        if t == "game_started":
            return f"game started: {', '.join(names)}"
        if t == "cards_revealed":
            return f"{p['deck']} cards revealed: {', '.join(p['cards']) or 'none'}"
        if t == "card_bought":
            what = f" displacing {p['displaces']}" if p.get("displaces") else ""
            return f"{who} buys {p['card']} from {p['source']}{what}" + (f" for {p['paid']}" if p.get("paid") is not None else "")
        if t == "card_taken":
            return f"{who} takes {p['card']} into hand from {p['source']}"
        if t == "passed":
            return f"{who} passes"
        if t == "observatory_used":
            return f"{who} uses an Observatory on the {p['deck']} deck: {p['card']}"
        if t == "card_discarded":
            return f"{who} discards {p['card']}"
        if t == "phase_ended":
            return f"the {p['phase']} phase ends"
        if t == "pub_used":
            return f"{who} buys {p['points']} points at the Pub"
        if t == "round_ended":
            return f"round {p['round']} ends"
        if t == "game_ended":
            won = [seat_name(names, w) for w in p.get("winners") or ()]
            return "game ended" + (f": {', '.join(won)} won" if won else "")
        return super().headline(event, names)

    def result(self, state: State) -> Result:
        over = state.expect[0] == "none"
        key = [(state.points[s], state.rubles_left[s] if over and state.pack.options.tie_break == "rubles_left" else 0)
               for s in range(state.n)]
        rank = ranks(key)
        winners = tuple(state.winners)
        tied = sum(1 for s in range(state.n) if state.points[s] == max(state.points))
        tie = "rubles left" if over and tied > len(winners) else ("shared" if len(winners) > 1 else "none")
        return Result(winners, tuple(Score(s, state.points[s], rank[s], s in winners, dict(state.categories[s]))
                                     for s in range(state.n)), finished=over, tie_break=tie)

    def show(self, state: State, player: str | None = None) -> str:
        lines = [f"round {state.round}, {state.phase_name} phase; next: {expected_words(state)}"
                 + ("; last round" if state.last_round else ""),
                 f"  upper row: {' '.join(state.top) or '-'}", f"  lower row: {' '.join(state.bottom) or '-'}",
                 "  decks: " + ", ".join(f"{d} {state.deck_size(d)}" for d in state.decks)]
        for seat, name in enumerate(state.names):
            if player and name.lower() != player.lower():
                continue
            marks = "".join(d[0].upper() for i, d in enumerate(state.decks) if state.markers[i] == seat)
            lines.append(f"  {name:<10} {state.rubles[seat]:>3} roubles {state.points[seat]:>3} points  markers {marks or '-'}"
                         f"  hand {len(state.hand[seat])}  cards: {' '.join(state.tableau[seat]) or '-'}")
        return "\n".join(lines)

    def checked(self, events: Sequence[Event], state: State | None) -> dict[str, Any]:
        claims = sum(1 for e in events if e.type == "card_bought" and e.payload.get("paid") is not None)
        claims += sum(1 for e in events if e.type == "phase_ended" for _ in e.payload.get("income") or ())
        return {"events": len(events), "rounds": state.round if state else 0,
                "cards bought": sum(1 for e in events if e.type == "card_bought"), "claims": claims, "rules": len(RULES),
                "final scores": "yes" if any(e.type == "game_ended" for e in events) else "no (unfinished)"}

    def explain(self, problem: Problem) -> str:
        who = problem.player or "the table"
        head = f"turn {problem.turn}, {who}: " if problem.turn else f"{who}: "
        text = {
            "stpete.cost": f"the card costs {problem.expected}, but only {problem.found}",
            "stpete.claim-paid": f"the card costs {problem.expected} roubles; the sheet says {problem.found}",
            "stpete.claim-income": f"the phase gives {problem.expected}; the sheet says {problem.found}",
            "stpete.claim-score": f"the final score is {problem.expected}; the sheet says {problem.found}",
            "stpete.claim-winners": f"the winners are {problem.expected}; the sheet says {problem.found}",
        }.get(problem.rule_id, f"expected {problem.expected}, found {problem.found}")
        return head + text

    def dispute(self, events: Sequence[Event]) -> tuple[int, dict[str, Any], str] | None:
        """The first phase income written down, five points more."""
        for i, e in enumerate(events):
            income = e.payload.get("income") if e.type == "phase_ended" else None
            if income and income[0].get("points") is not None:
                changed = [{**income[0], "points": income[0]["points"] + 5}, *income[1:]]
                return i, {**e.payload, "income": changed}, "one written phase income changed"
        return None

    def page_board(self, state: State) -> dict[str, Any]:
        return {"cards": {c.id: {"name": c.name, "deck": c.deck, "colour": c.colour, "cost": c.cost, "rubles": c.rubles,
                                 "points": c.points} for c in state.pack.cards}}
