"""What people see of a Fleet game: the table as data and text, each event in words, the result.

Hidden from a seat: the other seats' hands and the cards they just drew, the captains lying face
down on other seats' boats, both decks (their contents and order) and the licenses out of the
game. What a seat may see of them is how many there are.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from replay.contract import Result, Score, Views
from replay.events import Event
from replay.problems import Problem

from . import scoring
from .rules import RULES, expected_words
from .state import State, seat_name


class FleetViews(Views[State]):
    hidden_information = True
    bookkeeping = frozenset({"todo", "expect", "just_drawn"})

    def data(self, state: State) -> dict[str, Any]:
        return state.data()

    def observe(self, state: State, seat: int) -> dict[str, Any]:
        data = state.data()
        data["deck"] = len(state.deck)
        data["licenses_deck"] = len(state.licenses_deck)
        data["box"] = len(state.box)
        for other in range(state.n):
            if other == seat:
                continue
            data["hand"][other] = len(state.hand[other])
            data["boats"][other] = [[b[0], b[1] is not None, b[2]] for b in state.boats[other]]
        data["just_drawn"] = list(state.just_drawn) if _drawing(state) == seat else len(state.just_drawn)
        return data

    def conceal(self, state: State, seat: int, rng: random.Random) -> State | None:
        """The same table with a card of another seat's hand (or a captain on its boats) swapped with a
        different card of the boat deck, or else the boat deck or the license deck in another order:
        what ``seat`` cannot tell apart."""
        other = State.of_data(state.data(), state.pack)
        if _swap_hand(other, seat, rng) or _reorder(other.deck, rng):
            return other
        if _reorder(other.licenses_deck, rng):
            return other
        return None

    def headline(self, event: Event, names: Sequence[str]) -> str:
        p, t = event.payload, event.type

        def who(key: str = "seat") -> str:
            return seat_name(names, p.get(key))

        if t == "game_started":
            return f"game started: {', '.join(names)}; {who('first_player')} is first player"
        if t == "licenses_removed":
            return f"{len(p['licenses'])} license(s) removed from the game"
        if t == "license_deck_shuffled":
            return f"the license deck is shuffled ({len(p['order'])} cards)"
        if t == "boat_deck_shuffled":
            return f"{'the boat deck' if p['reason'] == 'new_deck' else 'the discard pile'} is shuffled ({len(p['order'])} cards)"
        if t == "hand_dealt":
            return f"{who()} takes a starting hand of {len(p['cards'])} boats"
        if t == "round_started":
            return f"round {p['round']}: {who('first_player')} is first player"
        if t == "auction_opened":
            return f"{who()} opens an auction on a {p['license']} license at {p['bid']}"
        if t == "bid_raised":
            return f"{who()} bids {p['bid']}"
        if t == "bid_dropped":
            return f"{who()} drops out of the auction"
        if t == "auction_passed":
            return f"{who()} passes in the auction phase"
        if t == "license_bought":
            fish = f" and {p['fish']} fish" if p["fish"] else ""
            return f"{who()} buys the {p['license']} license, paying {len(p['paid'])} card(s){fish}"
        if t == "boat_launched":
            return f"{who()} launches a {p['boat']} boat, paying {len(p['paid'])} card(s)"
        if t == "captain_hired":
            return f"{who()} hires a captain for boat {p['boat']}"
        if t == "step_passed":
            return f"{who()} passes ({p['step']})"
        if t == "cards_drawn":
            return f"{who()} draws {len(p['cards'])} card(s) ({p['reason']})"
        if t == "cards_discarded":
            return f"{who()} discards {len(p['cards'])} card(s)"
        if t == "fish_caught":
            return f"{who()} catches {len(p['boats'])} crate(s)"
        if t == "fish_processed":
            return f"{who()} processes {len(p['boats'])} crate(s)"
        if t == "fish_traded":
            return f"{who()} trades a processed crate"
        if t == "game_ended":
            why = "the auction row could not be refilled" if p["reason"] == "licenses" else "the fish supply ran out"
            return f"game ended: {why}"
        return super().headline(event, names)

    def result(self, state: State) -> Result:
        totals = [scoring.total(state, s) for s in range(state.n)]
        keys = [scoring.tie_key(state, s) for s in range(state.n)]
        over = state.phase == "over"
        winners, tie = scoring.winners(state) if over else ([], "none")
        rank = [1 + sum(1 for k in keys if k > mine) for mine in keys]
        return Result(tuple(winners), tuple(Score(s, totals[s], rank[s], s in winners, scoring.vp(state, s))
                                            for s in range(state.n)), finished=over, tie_break=tie)

    def show(self, state: State, player: str | None = None) -> str:
        head = f"round {state.round}, first player {state.names[state.first_player]}" if state.round else "setup"
        lines = [f"{head}; auction row {' '.join(state.row) or '-'}; fish supply {state.supply}; "
                 f"boat deck {len(state.deck)}; next: {expected_words(state)}"]
        for seat, name in enumerate(state.names):
            if player and name.lower() != player.lower():
                continue
            boats = " ".join(f"{b[0]}{'*' if b[1] else ''}({b[2]})" for b in state.boats[seat]) or "-"
            mark = "  winner" if seat in state.winners else ""
            lines.append(f"  {name:<12} licenses {' '.join(state.licenses[seat]) or '-'}; boats {boats}; "
                         f"hand {len(state.hand[seat])}; processed {state.processed[seat]}; "
                         f"VP {scoring.total(state, seat)}{mark}")
        return "\n".join(lines)

    def checked(self, events: Sequence[Event], state: State | None) -> dict[str, Any]:
        claims = sum(1 for e in events for k in ("discount", "price") if e.payload.get(k) is not None)
        claims += sum(1 for e in events if e.type == "game_ended" for c in e.payload.get("scores") or ()
                      for v in c.values() if v is not None) - sum(len(e.payload.get("scores") or ()) for e in events
                                                                   if e.type == "game_ended")  # not the seats
        return {"events": len(events), "rounds": state.round if state else 0, "claims": claims, "rules": len(RULES),
                "final scores": "yes" if any(e.type == "game_ended" for e in events) else "no (unfinished)"}

    def explain(self, problem: Problem) -> str:
        who = problem.player or "the table"
        head = f"turn {problem.turn}, {who}: " if problem.turn else f"{who}: "
        expected, found = problem.expected or "", problem.found or ""
        text = {
            "fleet.payment": f"the payment was {found}, but {expected} was due",
            "fleet.license-owned": f"launching needs {expected}; the seat owns {found}",
            "fleet.draw": f"the cards drawn were {found}, but the deck's top was {expected.removeprefix('the top cards, ')}",
            "fleet.claim-score": f"the rules give {expected} VP; the sheet says {found}",
            "fleet.claim-discount": f"the Shrimp discount is {expected}; the sheet says {found}",
        }.get(problem.rule_id, f"expected {expected}, found {found}")
        return head + text

    def page_board(self, state: State) -> dict[str, Any]:
        pack = state.pack
        return {"licenses": {x.license: {"cost": x.cost, "vp": x.vp} for x in pack.cards.licenses},
                "boats": {b.boat: {"cost": b.cost, "vp": b.vp, "coins": b.coins} for b in pack.cards.boats},
                "capacity": pack.setup.capacity}

    def dispute(self, events: Sequence[Event]) -> tuple[int, dict[str, Any], str] | None:
        """The first final score written down, five more."""
        for i, e in enumerate(events):
            claims = e.payload.get("scores") if e.type == "game_ended" else None
            if claims and claims[0].get("total") is not None:
                changed = [{**claims[0], "total": claims[0]["total"] + 5}, *claims[1:]]
                return i, {**e.payload, "scores": changed}, "one written final score changed"
        return None


def _drawing(state: State) -> int | None:
    """The seat whose just-drawn cards are pending a discard."""
    e = state.expect
    return e[1] if e[0] == "discard" else None


def _swap_hand(state: State, seat: int, rng: random.Random) -> bool:
    """Swap a card of another seat's hand (or a captain face down on its boats) with a different card
    of the boat deck: what ``seat`` cannot tell apart. False when there is none to swap."""
    if state.just_drawn:
        return False
    places = [(s, "hand", i) for s in range(state.n) if s != seat for i, c in enumerate(state.hand[s]) if c != "gone_fishin"]
    places += [(s, "captain", i) for s in range(state.n) if s != seat for i, b in enumerate(state.boats[s]) if b[1]]
    rng.shuffle(places)
    for s, where, i in places:
        card = state.hand[s][i] if where == "hand" else state.boats[s][i][1]
        k = next((k for k, d in enumerate(state.deck) if d != card), None)
        if k is None:
            continue
        if where == "hand":
            state.hand[s][i] = state.deck[k]
        else:
            state.boats[s][i][1] = state.deck[k]
        state.deck[k] = card
        return True
    return False


def _reorder(pile: list[str], rng: random.Random) -> bool:
    if len(set(pile)) < 2:
        return False
    before = list(pile)
    rng.shuffle(pile)
    if pile == before:
        i = next(i for i, c in enumerate(pile) if c != pile[0])
        pile[0], pile[i] = pile[i], pile[0]
    return True
