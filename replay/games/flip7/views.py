"""What people see of a Flip 7 game: the table as data and text, each event in words, the result.

The draw pile is face down: a seat sees how many cards it holds and which (every card not in
sight is in it), never their order. The discard pile is shown as its contents: no rule depends
on the order cards were discarded in.
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


class Flip7Views(Views[State]):
    hidden_information = True
    bookkeeping = frozenset({"todo", "expect", "last_targeter"})

    def data(self, state: State) -> dict[str, Any]:
        return state.data()

    def observe(self, state: State, seat: int) -> dict[str, Any]:
        data = state.data()
        data["draw"] = {"count": len(state.draw), "cards": sorted(state.draw)}
        data["discard"] = sorted(state.discard)
        return data

    def conceal(self, state: State, seat: int, rng: random.Random) -> State | None:
        """The same table with the draw pile in another order (or, when the pile cannot be reordered,
        the discard pile): what no seat may tell apart."""
        other = State.of_data(state.data(), state.pack)
        for pile in (other.draw, other.discard):
            if _reorder(pile, rng):
                return other
        return None

    def headline(self, event: Event, names: Sequence[str]) -> str:
        p = event.payload

        def who(key: str = "seat") -> str:
            return seat_name(names, p.get(key))

        t = event.type
        if t == "game_started":
            return f"game started: {', '.join(names)}; {who('first_dealer')} deals first"
        if t == "round_started":
            return f"round {p['round']}, dealt by {who('dealer')}"
        if t == "deck_shuffled":
            return f"{'a new deck' if p['reason'] == 'new_deck' else 'the discard pile'} is shuffled ({len(p['order'])} cards)"
        if t == "card_drawn":
            how = {"deal": "is dealt", "hit": "draws", "flip_three": "flips"}[p["reason"]]
            return f"{who()} {how} {p['card']}"
        if t == "player_hit":
            return f"{who()} hits"
        if t == "player_stayed":
            return f"{who()} stays"
        if t == "target_chosen":
            card = p["card"].replace("_", " ")
            return f"{who()} gives {card} to {who('target') if p['target'] is not None else 'nobody (discarded)'}"
        if t == "frozen":
            return f"{who()} is frozen"
        if t == "busted":
            return f"{who()} busts on a second {p['card']}"
        if t == "second_chance_used":
            return f"{who()} uses a Second Chance on a second {p['card']}"
        if t == "flipped_seven":
            return f"{who()} flips 7!"
        if t == "round_ended":
            return f"round {p['round']} ends"
        if t == "game_ended":
            return "game ended" + (f": {', '.join(names[w] for w in p['winners'] if w < len(names))} won" if p["winners"] else "")
        return super().headline(event, names)

    def result(self, state: State) -> Result:
        rank = ranks(state.total)
        return Result(tuple(state.winners),
                      tuple(Score(s, state.total[s], rank[s], s in state.winners, dict(state.categories[s]))
                            for s in range(state.n)),
                      finished=state.phase == "over", tie_break="shared" if len(state.winners) > 1 else "none")

    def show(self, state: State, player: str | None = None) -> str:
        head = f"round {state.round}, dealer {state.names[state.dealer]}" if state.round else "before the first round"
        lines = [f"{head}; draw pile {len(state.draw)}, discard pile {len(state.discard)}; next: {expected_words(state)}"]
        for seat, name in enumerate(state.names):
            if player and name.lower() != player.lower():
                continue
            line = " ".join(state.line[seat]) or "-"
            area = " ".join(state.area[seat])
            mark = "  winner" if seat in state.winners else ""
            lines.append(f"  {name:<12} {state.status[seat]:<7} {line:<24} {area:<24} total {state.total[seat]:>4}{mark}")
        aside = state.aside()
        if aside:
            lines.append(f"  set aside: {' '.join(aside)}")
        return "\n".join(lines)

    def summary(self, state: State, names: Sequence[str]) -> str:
        if state.phase != "over":
            return f"Unfinished: round {state.round}.\n" + super().summary(state, names)
        return super().summary(state, names)

    def checked(self, events: Sequence[Event], state: State | None) -> dict[str, Any]:
        claims = sum(1 for e in events if e.type == "round_ended" for c in e.payload.get("scores") or ()
                     for k in ("score", "total") if c.get(k) is not None)
        return {
            "events": len(events), "rounds": state.round if state else 0,
            "cards drawn": sum(1 for e in events if e.type == "card_drawn"), "claims": claims, "rules": len(RULES),
            "final scores": "yes" if any(e.type == "game_ended" for e in events) else "no (unfinished)",
        }

    def explain(self, problem: Problem) -> str:
        who = problem.player or "the table"
        head = f"turn {problem.turn}, {who}: " if problem.turn else f"{who}: "
        expected, found = problem.expected or "", problem.found or ""
        text = {
            "flip7.draw": f"the card drawn was {found}, but the top of the pile was {expected.removeprefix('the top card, ')}",
            "flip7.deck": f"the shuffled deck should hold the {expected.removeprefix('the ')}: {found}",
            "flip7.turn-order": f"it was {expected}, not {found}",
            "flip7.claim-score": f"the round scores {expected}; the sheet says {found}",
            "flip7.claim-total": f"the total is {expected}; the sheet says {found}",
            "flip7.claim-winners": f"the winners are {expected}; the sheet says {found}",
        }.get(problem.rule_id, f"expected {expected}, found {found}")
        return head + text

    def dispute(self, events: Sequence[Event]) -> tuple[int, dict[str, Any], str] | None:
        """The first round score written down, five more."""
        for i, e in enumerate(events):
            claims = e.payload.get("scores") if e.type == "round_ended" else None
            if claims and claims[0].get("score") is not None:
                changed = [{**claims[0], "score": claims[0]["score"] + 5}, *claims[1:]]
                return i, {**e.payload, "scores": changed}, "one written round score changed"
        return None

def _reorder(pile: list[str], rng: random.Random) -> bool:
    """Shuffle ``pile`` in place into an order other than its own; False if it has only one order."""
    if len(set(pile)) < 2:
        return False
    before = list(pile)
    rng.shuffle(pile)
    if pile == before:  # the shuffle gave the same order: move the top card below the first different one
        i = next(i for i, c in enumerate(pile) if c != pile[0])
        pile[0], pile[i] = pile[i], pile[0]
    return True
