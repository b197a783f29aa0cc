"""What people see of a 7 Wonders game: the table as data and text, each event in words, the result.

Hidden from a seat: the other seats' hands (their sizes are public) and the discard pile (face
down; its size is public), and, until the turn is resolved, what the other seats chose.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from replay.contract import Result, Score, Views, ranks
from replay.events import Event
from replay.games.explain import explain_rule

from .events import CATEGORIES
from .rules import RULES, global_turn
from .scoring import scores
from .state import OVER, State


class SevenWondersViews(Views[State]):
    hidden_information = True
    bookkeeping = frozenset({"chosen", "pending", "last_card", "power_used", "built_age"})

    def data(self, state: State) -> dict[str, Any]:
        return state.data()

    def observe(self, state: State, seat: int) -> dict[str, Any]:
        data = state.data()
        data["hands"] = [list(h) if s == seat else len(h) for s, h in enumerate(state.hands)]
        data["discard"] = len(state.discard)
        data["chosen"] = [c if s == seat else (c is not None) for s, c in enumerate(state.chosen)]
        return data

    def conceal(self, state: State, seat: int, rng: random.Random) -> State | None:
        """The same table with another seat's hand (or the discard pile) in another order."""
        other = State.of_data(state.data(), state.pack)
        piles = [h for s, h in enumerate(other.hands) if s != seat] + [other.discard]
        for pile in piles:
            if len(set(pile)) > 1:
                pile.reverse()
                if pile != list(reversed(pile)):
                    return other
        return None

    def page_board(self, state: State) -> dict[str, Any]:
        """The cards' names and colours, and each seat's Wonder: what the page's board script draws with."""
        return {"cards": {c.id: {"name": c.name, "colour": c.colour} for c in state.pack.cards},
                "wonders": [{"name": state.pack.wonder_by_id[w].name, "side": side, "stages": len(state.side(seat).stages)}
                            for seat, (w, side) in enumerate(state.wonders)]}

    def headline(self, event: Event, names: Sequence[str]) -> str:
        p = event.payload

        def who(seat: Any) -> str:
            return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"

        t = event.type
        if t == "game_started":
            return "game started: " + ", ".join(f"{s['name']} ({s['wonder']} {s['side'].upper()})" for s in p["seats"])
        if t == "age_dealt":
            return f"Age {p['age']} dealt"
        if t == "card_played":
            head = f"Age {p['age']} turn {p['turn']}: {who(p['seat'])} "
            verb = {"build": "builds", "wonder": "builds a Wonder stage with", "discard": "discards"}[p["action"]]
            bought = [f"{k} {r}" for side in ("left", "right") for r, k in (p.get(side) or {}).items()]
            how = " (free by chain)" if p.get("free") == "chain" else " (free: Olympia)" if p.get("free") == "power" else ""
            return head + f"{verb} {p['card']}{how}" + (f", buying {', '.join(bought)}" if bought else "")
        if t == "discard_built":
            return f"{who(p['seat'])} builds {p['card'] or 'nothing'} from the discard pile"
        if t == "age_ended":
            return f"Age {p['age']} ends: conflicts"
        if t == "game_ended":
            return "game ended"
        return super().headline(event, names)

    def result(self, state: State) -> Result:
        final = scores(state)
        rank = ranks([(s["total"], state.coins[i]) for i, s in enumerate(final)])
        return Result(tuple(state.winners),
                      tuple(Score(i, s["total"], rank[i], i in state.winners, {c: s[c] for c in CATEGORIES})
                            for i, s in enumerate(final)),
                      finished=state.phase == OVER, tie_break="coins")

    def show(self, state: State, player: str | None = None) -> str:
        turn = f", turn {state.turn} (game turn {global_turn(state.age, state.turn)})" if state.turn else ""
        lines = [f"Age {state.age}{turn}, {state.phase}; discard pile {len(state.discard)}"]
        final = scores(state)
        for seat, name in enumerate(state.names):
            if player and name.lower() != player.lower():
                continue
            wonder, side = state.wonders[seat]
            stages = len(state.side(seat).stages)
            lines.append(f"{name} ({wonder} {side.upper()}): {state.coins[seat]} coins, Wonder {state.stages[seat]}/{stages}, "
                         f"tokens {state.tokens[seat] or 'none'}, {final[seat]['total']} points so far")
            by_colour: dict[str, list[str]] = {}
            for card in state.cards(seat):
                by_colour.setdefault(card.colour, []).append(card.id)
            for colour, ids in by_colour.items():
                lines.append(f"    {colour:<7} {', '.join(ids)}")
            if state.hands and state.hands[seat]:
                lines.append(f"    hand    {', '.join(state.hands[seat])}")
        return "\n".join(lines)

    def checked(self, events: Sequence[Event], state: State | None) -> dict[str, Any]:
        plays = [e.payload for e in events if e.type == "card_played"]
        claims = sum(v is not None for p in plays for v in (p.get("paid") or {}).values())
        claims += sum(1 for e in events if e.type == "age_ended" and e.payload.get("tokens") is not None)
        claims += sum(v is not None for e in events if e.type == "game_ended" for s in e.payload.get("scores") or []
                      for k, v in s.items() if k != "seat")
        return {"events": len(events), "plays": len(plays),
                "payments": sum(1 for p in plays if p.get("left") or p.get("right") or p.get("choices")),
                "claims": claims, "rules": len(RULES),
                "final scores": "yes" if any(e.type == "game_ended" for e in events) else "no (unfinished)"}

    def explain(self, problem: Any) -> str:
        return explain_rule(problem, RULES)

    def dispute(self, events: Sequence[Event]) -> tuple[int, dict[str, Any], str] | None:
        """The first payment written with coins to a neighbour, with one coin more written down."""
        for i, e in enumerate(events):
            paid = (e.payload.get("paid") or {}) if e.type == "card_played" else {}
            coins = paid.get("to_left")
            if coins:
                payload = {**e.payload, "paid": {**paid, "to_left": coins + 1}}
                return i, payload, f"{coins + 1} coins written as paid to the left neighbour instead of {coins}"
        return None
