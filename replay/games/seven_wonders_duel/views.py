"""What people see of a 7 Wonders Duel game: the table as data and text, each event in words, the result.

Nothing on the table is hidden from one player and shown to the other: the face-down cards, the
three cards removed from each Age, the progress tokens set aside and the Wonders not yet turned up
are unknown to both, and the record holds a card only from its ``card_revealed`` on (a token from
its draw, a Wonder from its set's reveal). So the table *is* what each seat sees
(``hidden_information`` false); a face-down slot shows as ``None``.

With Agora, the conspiracies a seat holds (and those it draws, and puts back on the deck) are
hidden from the other seat: :meth:`DuelViews.observe` shows the other seat only how many it has
and which are prepared (:mod:`.agora_views`). With Pantheon, the Divinities a seat draws and puts
face down in Age I, and the one it puts back on top of the deck, are hidden from the other seat
(:mod:`.pantheon_hidden`). ``hidden_information`` (one flag for the game) stays false, as the
base game hides nothing; :meth:`DuelViews.hides` says true for a game with either expansion
(docs/games/7-wonders-duel.md, Agora's and Pantheon's hidden information).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from replay.contract import Result, Score, Views, ranks
from replay.events import Event
from replay.games.explain import explain_rule

from . import pantheon_hidden, pantheon_views
from .agora_events import AGORA_TYPES
from .pantheon_events import EVENT_NAMES as PANTHEON_EVENTS
from .rules import RULES, expected_words
from .scoring import scores
from .state import OVER, State


class DuelViews(Views[State]):
    hidden_information = False
    bookkeeping = frozenset({"queue", "again", "picks", "chooser", "last_taker", "seen", "seen_tokens"})

    def data(self, state: State) -> dict[str, Any]:
        return state.data()

    # --- Agora's conspiracies and Pantheon's face-down Divinities are hidden from the other seat
    def hides(self, state: State) -> bool:
        return state.agora is not None or state.pantheon is not None

    def observe(self, state: State, seat: int) -> dict[str, Any]:
        from .agora_views import observe

        data = observe(state, seat) if state.agora is not None else state.data()
        return pantheon_hidden.observe(data, state, seat) if state.pantheon is not None else data

    def conceal(self, state: State, seat: int, rng: random.Random) -> State | None:
        """Pantheon's hidden Divinities shuffled, then Agora's conspiracies (each part leaves the
        other's secrets as they were)."""
        from .agora_views import conceal

        divine = pantheon_hidden.conceal(state, seat, rng) if state.pantheon is not None else None
        plotted = conceal(divine or state, seat, rng) if state.agora is not None else None
        return plotted or divine
    # --- end hidden parts

    def page_board(self, state: State) -> dict[str, Any]:
        """The cards' names and colours, the Wonders' and tokens' names, each Age's slots: what a board script draws with."""
        pack = state.pack
        return {"cards": {c.id: {"name": c.name, "colour": c.colour} for c in pack.all_cards},
                "wonders": {w.id: w.name for w in pack.all_wonders},
                "tokens": {t.id: t.name for t in pack.all_progress_tokens},
                "layouts": {str(lay.age): [{"id": s.id, "row": s.row, "col": s.col} for s in lay.slots]
                            for lay in pack.layouts},
                "capital": pack.military.capital,
                **({"pantheon": pantheon_views.page_board(state)} if pack.pantheon else {})} | self._agora_board(state)

    def _agora_board(self, state: State) -> dict[str, Any]:
        """Agora: its structures, the Senate's chambers, the names of Decrees, conspiracies and Senators."""
        from .agora_views import page_board

        return page_board(state) if state.pack.agora is not None else {}

    def headline(self, event: Event, names: Sequence[str]) -> str:
        p, t = event.payload, event.type

        def who(seat: Any) -> str:
            return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"

        if t == "game_started":
            return "game started: " + " v ".join(s["name"] for s in p["seats"]) + f"; {who(p.get('first', 0))} first"
        if t == "tokens_revealed":
            return "progress tokens on the board: " + ", ".join(p["tokens"])
        if t == "wonders_revealed":
            return f"Wonders, set {p['set']}: " + ", ".join(p["wonders"])
        if t == "wonder_picked":
            return f"{who(p['seat'])} takes {p['wonder']}"
        if t == "age_dealt":
            return f"Age {p['age']} laid out"
        if t == "card_revealed":
            return f"{p['slot']} turned up: {p['card']}"
        if t == "card_played":
            verb = {"construct": "constructs", "discard": "discards", "wonder": f"builds {p.get('wonder')} with"}[p["action"]]
            how = " (free by chain)" if p.get("free") == "chain" else " (1 coin, Engineering)" if p.get("free") else ""
            bought = ", ".join(f"{k} {r}" for r, k in (p.get("bought") or {}).items())
            return f"{who(p['seat'])} {verb} {p['card']}{how}" + (f", buying {bought}" if bought else "")
        if t == "progress_taken":
            library = " (Great Library)" if p.get("source") == "box" else ""
            return f"{who(p['seat'])} takes the progress token {p['token']}{library}"
        if t == "tokens_drawn":
            return f"{who(p['seat'])} draws " + ", ".join(p["tokens"])
        if t == "card_destroyed":
            return f"{who(p['seat'])} destroys {p['card'] or 'nothing'}"
        if t == "discard_built":
            return f"{who(p['seat'])} builds {p['card'] or 'nothing'} from the discard pile"
        if t == "starter_chosen":
            return f"{who(p['seat'])} has {who(p['starts'])} start the next Age"
        if t == "game_ended":
            return "game ended" + (f": {p['victory']} victory" if p.get("victory") else "")
        if t in PANTHEON_EVENTS:  # Pantheon
            return pantheon_views.headline(event, names)
        if t in AGORA_TYPES:  # Agora
            from .agora_views import headline

            return headline(event, who)
        return super().headline(event, names)

    def result(self, state: State) -> Result:
        final = scores(state)
        supremacy = state.victory in ("military", "science", "political")
        rank = ranks([(1 if supremacy and i in state.winners else 0, s["total"], s["civilian"]) for i, s in enumerate(final)])
        return Result(tuple(state.winners),
                      tuple(Score(i, s["total"], rank[i], i in state.winners, {c: s[c] for c in s if c != "total"})
                            for i, s in enumerate(final)),
                      finished=state.phase == OVER, tie_break="civilian")

    def show(self, state: State, player: str | None = None) -> str:
        lines = [f"Age {state.age}, turn {state.turn}, {state.phase}: waiting for {expected_words(state)}; "
                 f"pawn {state.pawn:+d}; discard pile {len(state.discard)}"]
        if state.board_tokens:
            lines.append("progress tokens on the board: " + ", ".join(state.board_tokens))
        if state.agora is not None:  # Agora
            from .agora_views import senate_lines

            lines += senate_lines(state, player)
        final = scores(state)
        for seat, name in enumerate(state.names):
            if player and name.lower() != player.lower():
                continue
            wonders = ", ".join(w + ("*" if w in state.built_wonders[seat] else "") for w in state.wonders[seat])
            lines.append(f"{name}: {state.coins[seat]} coins, {final[seat]['total']} points so far; Wonders {wonders or 'none'}"
                         + (f"; tokens {', '.join(state.tokens[seat])}" if state.tokens[seat] else ""))
            by_colour: dict[str, list[str]] = {}
            for card in state.cards(seat):
                by_colour.setdefault(card.colour or "", []).append(card.id)
            for colour, ids in by_colour.items():
                lines.append(f"    {colour:<7} {', '.join(ids)}")
        lines += pantheon_views.show(state, player)  # Pantheon
        if state.slots and not player:
            available = set(state.available())
            rows: dict[int, list[str]] = {}
            for slot in state.pack.layout(state.age).slots:
                if slot.id in state.taken:
                    continue
                shown = state.slots[slot.id] or "(face down)"
                rows.setdefault(slot.row, []).append(f"{slot.id} {shown}" + (" *" if slot.id in available else ""))
            for row in sorted(rows):
                lines.append(f"  row {row}: " + "; ".join(rows[row]))
        return "\n".join(lines)

    def explain(self, problem: Any) -> str:
        return explain_rule(problem, RULES)

    def dispute(self, events: Sequence[Event]) -> tuple[int, dict[str, Any], str] | None:
        """The first play written with coins paid, with one coin more written down."""
        for i, e in enumerate(events):
            paid = e.payload.get("paid") if e.type == "card_played" else None
            if paid:
                return i, {**e.payload, "paid": paid + 1}, f"{paid + 1} coins written as paid instead of {paid}"
        return None
