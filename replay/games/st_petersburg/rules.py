"""St. Petersburg on the game contract: each event checked against what the rules expect, then applied.

An illegal event changes nothing: :func:`check` runs before anything moves and raises
:class:`RuleViolation` with a rule id; a wrong written claim (roubles paid, a phase's income, the
markers, the final scores and winners) is returned after the event is applied, the rules' value
standing. docs/games/st-petersburg.md gives the sources and every ruling.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from replay.contract import Position, Rules
from replay.errors import PackError, RuleViolation
from replay.events import Event
from replay.games.explain import event_words as shared_event_words
from replay.games.explain import rule_problem
from replay.problems import Problem

from .legal import action_of, cost, legal_actions, may_displace
from .pack import StPetePack
from .scoring import final_scoring, phase_income
from .state import PHASES, State, seat_name

RULES = {
    "stpete.start": "Seats are numbered 0, 1, 2, ... and two to four play.",
    "stpete.pack": "Every card of the pack has its facts (count, cost, income, points) from a source.",
    "stpete.markers": "The four starting-player markers are dealt round the table: every seat holds at least one "
                      "and no seat two more than another.",
    "stpete.expected": "Events come in the order the rules give: reveals, turns, the end of each phase, its scoring, "
                       "the end of each round.",
    "stpete.turn-order": "A phase starts with the holder of its marker and goes clockwise; only the player whose turn "
                         "it is acts.",
    "stpete.reveal": "A phase reveals cards from its own deck until the board (both rows) holds 8 (the first phase: 2 "
                     "per player), or as many as the deck has left; only cards the deck still holds.",
    "stpete.card-place": "A card bought or taken is where the event says: in the upper or lower row, or in the "
                         "player's own hand (a card in hand is bought, never taken again).",
    "stpete.cost": "A card costs its printed price, less 1 in the lower row, 1 per identical card owned, 1 per "
                   "Carpenter Workshop or Gold Smelter of its colour owned, and for a trading card the value of the "
                   "card it displaces; never less than 1 rouble. The buyer must have the roubles.",
    "stpete.hand-limit": "A hand holds at most 3 cards (4 with the Warehouse).",
    "stpete.displace": "A trading card displaces a card of its colour from the buyer's play area (a green one: the "
                       "worker of its kind, or Czar and Carpenter); never another trading card nor a used "
                       "Observatory. Other cards displace nothing.",
    "stpete.observatory": "In the building phase, the owner of an unused Observatory may draw the top card of a deck "
                          "that holds at least two cards; once a round per Observatory.",
    "stpete.observatory-card": "The card an Observatory drew is then bought, taken into hand or discarded, before "
                               "anything else.",
    "stpete.pub": "After the building scoring, each Pub owner may buy up to 5 points per Pub, 2 roubles a point.",
    "stpete.phase": "A phase ends when every player has passed in a row; its end names the phase.",
    "stpete.round": "Rounds are numbered 1, 2, 3, ...",
    "stpete.end": "The game ends after the trading phase of the round in which a deck ran out, and not before.",
    "stpete.claim-paid": "The roubles written down for a card are its cost.",
    "stpete.claim-income": "A phase's income written down (roubles and points) is what the rules give.",
    "stpete.claim-markers": "The markers written down after a round are each passed to the next player.",
    "stpete.claim-score": "A final score written down is the score the rules give.",
    "stpete.claim-winners": "The winners written down are the players with the most points (ties: most roubles left).",
    "stpete.game-over": "Nothing happens after the game has ended.",
}

TURN_EVENTS = ("passed", "card_bought", "card_taken", "observatory_used")


def problem(state: State | None, event: Event, rule_id: str, expected: str, found: str, seat: Any = None) -> Problem:
    return rule_problem(RULES, rule_id, expected, found, event, state.names if state else [], seat,
                        (state.turn or None) if state else None)


def expected_words(state: State) -> str:
    e = state.expect
    what = e[0]

    def name(seat: Any) -> str:
        return seat_name(state.names, seat)

    if what == "reveal":
        return f"{e[2]} {e[1]} cards revealed"
    if what == "turn":
        return f"a turn by {name(e[1])}"
    if what == "observatory":
        return f"{name(e[1])} to buy, take or discard {e[2]}"
    if what == "phase_end":
        return f"the end of the {e[1]} phase"
    if what == "pub":
        return f"{name(e[1])}'s Pub"
    if what == "round_end":
        return f"the end of round {e[1]}"
    if what == "game_end":
        return "the end of the game"
    return "no event (the game is over)"


def event_words(event: Event) -> str:
    return shared_event_words(event, ("seat", "card", "source", "deck", "phase", "round"))


# ----------------------------------------------------------------------------- checking


def check(state: State, event: Event) -> None:
    """Raise RuleViolation unless ``event`` is one the rules allow now; change nothing."""
    e, t, p = state.expect, event.type, event.payload
    what = e[0]
    seat = p.get("seat") if isinstance(p.get("seat"), int) else None
    if what == "none":
        raise RuleViolation(problem(state, event, "stpete.game-over", "no event", event_words(event), seat))
    if what == "reveal" and t == "cards_revealed":
        _check_reveal(state, event, e[1], e[2])
        return
    if what == "turn" and t in TURN_EVENTS and p.get("source") != "observatory":
        if seat != e[1]:
            raise RuleViolation(problem(state, event, "stpete.turn-order", f"a turn by {seat_name(state.names, e[1])}",
                                        f"{t} by {seat_name(state.names, seat)}", seat))
        _check_turn(state, event)
        return
    if what == "observatory":
        if t in TURN_EVENTS + ("card_discarded",) and seat == e[1]:
            if t in ("card_bought", "card_taken", "card_discarded") and p["card"] == e[2] \
                    and p.get("source", "observatory") == "observatory":
                _check_turn(state, event)
                return
            raise RuleViolation(problem(state, event, "stpete.observatory-card", f"buy, take or discard {e[2]}",
                                        event_words(event), seat))
    if what == "phase_end" and t == "phase_ended":
        if p["phase"] != e[1]:
            raise RuleViolation(problem(state, event, "stpete.phase", f"the end of the {e[1]} phase",
                                        f"the end of the {p['phase']} phase"))
        return
    if what == "turn" and t == "phase_ended":
        raise RuleViolation(problem(state, event, "stpete.phase", f"{state.n} passes in a row",
                                    f"{state.passes} in a row, then the end of the {p['phase']} phase"))
    if what == "pub" and t == "pub_used":
        if seat != e[1]:
            raise RuleViolation(problem(state, event, "stpete.turn-order", f"{seat_name(state.names, e[1])}'s Pub",
                                        f"a Pub by {seat_name(state.names, seat)}", seat))
        most = state.pack.scoring.pub_points * state.owns(e[1], "pub")
        price = state.pack.scoring.pub_price * p["points"]
        if p["points"] > most or price > state.rubles[e[1]]:
            raise RuleViolation(problem(state, event, "stpete.pub", f"at most {most} points, "
                                        f"{state.pack.scoring.pub_price} roubles each (has {state.rubles[e[1]]})",
                                        f"{p['points']} points", seat))
        return
    if what == "round_end" and t == "round_ended":
        if p["round"] != e[1]:
            raise RuleViolation(problem(state, event, "stpete.round", f"round {e[1]}", f"round {p['round']}"))
        return
    if what == "game_end" and t == "game_ended":
        return
    if (what == "game_end" and t == "round_ended") or (t == "game_ended" and what != "game_end"):
        why = "the game ends now (a deck ran out this round)" if what == "game_end" else expected_words(state)
        raise RuleViolation(problem(state, event, "stpete.end", why, event_words(event), seat))
    raise RuleViolation(problem(state, event, "stpete.expected", expected_words(state), event_words(event), seat))


def _check_reveal(state: State, event: Event, deck: str, count: int) -> None:
    p = event.payload
    if p["deck"] != deck or len(p["cards"]) != count:
        raise RuleViolation(problem(state, event, "stpete.reveal", f"{count} {deck} cards",
                                    f"{len(p['cards'])} {p['deck']} cards"))
    held = Counter(state.decks.get(deck, {}))
    over = Counter(p["cards"]) - held
    if over:
        raise RuleViolation(problem(state, event, "stpete.reveal", f"cards the {deck} deck holds",
                                    ", ".join(sorted(over))))


def _check_turn(state: State, event: Event) -> None:
    t, p = event.type, event.payload
    seat = p["seat"]
    if t == "passed":
        return
    if t == "observatory_used":
        deck = p["deck"]
        if state.phase_name != "building" or state.unused_observatories(seat) <= 0 or state.deck_size(deck) < 2 \
                or state.decks[deck].get(p["card"], 0) <= 0:
            raise RuleViolation(problem(state, event, "stpete.observatory", _observatory_words(state, seat, deck),
                                        f"the Observatory on the {deck} deck drawing {p['card']}", seat))
        return
    if t == "card_discarded":
        return
    card = state.card(p["card"])
    source = p["source"]
    if card is None or not _there(state, seat, p["card"], source):
        raise RuleViolation(problem(state, event, "stpete.card-place", f"{p['card']} in {_place(source)}",
                                    "not there", seat))
    if t == "card_taken":
        if len(state.hand[seat]) >= state.hand_limit(seat):
            raise RuleViolation(problem(state, event, "stpete.hand-limit", f"at most {state.hand_limit(seat)} cards",
                                        f"a card more than {len(state.hand[seat])}", seat))
        return
    displaced = None
    if card.trading or p.get("displaces") is not None:
        displaced = state.card(p["displaces"]) if p.get("displaces") else None
        if not card.trading or displaced is None or not may_displace(state, seat, card, displaced):
            want = f"{card.id} to displace one of its kind" if card.trading else f"{card.id} to displace nothing"
            raise RuleViolation(problem(state, event, "stpete.displace", want,
                                        f"displacing {p.get('displaces') or 'nothing'}", seat))
    price = cost(state, seat, card, source, displaced)
    if price > state.rubles[seat]:
        raise RuleViolation(problem(state, event, "stpete.cost", f"{price} roubles", f"{state.rubles[seat]} roubles held",
                                    seat))


def _observatory_words(state: State, seat: int, deck: str) -> str:
    if state.phase_name != "building":
        return "an Observatory used in the building phase"
    if state.unused_observatories(seat) <= 0:
        return "an unused Observatory of the player's own"
    if state.deck_size(deck) < 2:
        return f"a deck of two cards or more (the {deck} deck has {state.deck_size(deck)})"
    return f"a card the {deck} deck holds"


def _there(state: State, seat: int, card: str, source: str) -> bool:
    if source == "top":
        return card in state.top
    if source == "bottom":
        return card in state.bottom
    if source == "hand":
        return card in state.hand[seat]
    return bool(state.pending) and state.pending[1] == card


def _place(source: str) -> str:
    return {"top": "the upper row", "bottom": "the lower row", "hand": "the player's hand",
            "observatory": "the Observatory's draw"}[source]


# ----------------------------------------------------------------------------- applying


def perform(state: State, event: Event) -> list[Problem]:
    """Apply an event :func:`check` accepted; return the wrong claims it makes."""
    t, p = event.type, event.payload
    found: list[Problem] = []
    if t == "cards_revealed":
        deck = state.decks[p["deck"]]
        for c in p["cards"]:
            deck[c] -= 1
            if not deck[c]:
                del deck[c]
        state.top.extend(p["cards"])
        if not deck:
            state.last_round = True
        state.seat, state.passes = state.markers[state.phase], 0
        state.expect = ["turn", state.seat]
    elif t == "passed":
        state.turn += 1
        state.passes += 1
        if state.passes >= state.n:
            state.expect = ["phase_end", state.phase_name]
        else:
            _next_seat(state)
    elif t in ("card_bought", "card_taken"):
        if p["source"] != "observatory":
            state.turn += 1
        found = _move(state, event)
        state.passes = 0
        _next_seat(state)
    elif t == "observatory_used":
        state.turn += 1
        deck = state.decks[p["deck"]]
        deck[p["card"]] -= 1
        if not deck[p["card"]]:
            del deck[p["card"]]
        state.observatory_used[p["seat"]] += 1
        state.pending = [p["seat"], p["card"]]
        state.expect = ["observatory", p["seat"], p["card"]]
    elif t == "card_discarded":
        state.pending = []
        state.discard.append(p["card"])
        state.passes = 0
        _next_seat(state)
    elif t == "phase_ended":
        found = _score_phase(state, event)
    elif t == "pub_used":
        seat, points = p["seat"], p["points"]
        state.rubles[seat] -= state.pack.scoring.pub_price * points
        state.points[seat] += points
        state.categories[seat]["pub"] += points
        state.pubs_left.pop(0)
        _after_scoring(state)
    elif t == "round_ended":
        found = _end_round(state, event)
    elif t == "game_ended":
        found = _end_game(state, event)
    return found


def _next_seat(state: State) -> None:
    state.seat = (state.seat + 1) % state.n
    state.expect = ["turn", state.seat]


def _move(state: State, event: Event) -> list[Problem]:
    p = event.payload
    seat, cid, source = p["seat"], p["card"], p["source"]
    card = state.pack.by_id[cid]
    displaced = state.pack.by_id[p["displaces"]] if p.get("displaces") else None
    price = cost(state, seat, card, source, displaced) if event.type == "card_bought" else 0
    if source == "top":
        state.top.remove(cid)
    elif source == "bottom":
        state.bottom.remove(cid)
    elif source == "hand":
        state.hand[seat].remove(cid)
    else:
        state.pending = []
    if event.type == "card_taken":
        state.hand[seat].append(cid)
        return []
    if displaced is not None:
        state.tableau[seat].remove(displaced.id)
        state.discard.append(displaced.id)
    state.tableau[seat].append(cid)
    state.rubles[seat] -= price
    if p.get("paid") is not None and p["paid"] != price:
        return [problem(state, event, "stpete.claim-paid", str(price), str(p["paid"]), seat)]
    return []


def _score_phase(state: State, event: Event) -> list[Problem]:
    found: list[Problem] = []
    phase = state.phase_name
    income = [(0, 0)] * state.n
    if phase != "trading":
        income = [phase_income(state, s, phase) for s in range(state.n)]
        for s, (rubles, points) in enumerate(income):
            state.rubles[s] += rubles
            state.points[s] += points
            state.categories[s][phase] += points
    for claim in event.payload.get("income") or ():
        s = claim["seat"]
        if not 0 <= s < state.n:
            found.append(problem(state, event, "stpete.claim-income", f"a seat from 0 to {state.n - 1}", f"seat {s}"))
            continue
        for i, key in enumerate(("rubles", "points")):
            if claim.get(key) is not None and claim[key] != income[s][i]:
                found.append(problem(state, event, "stpete.claim-income", f"{income[s][i]} {key}",
                                     f"{claim[key]} {key}", s))
    if phase == "building":
        first = state.markers[1]
        state.pubs_left = [(first + i) % state.n for i in range(state.n) if state.owns((first + i) % state.n, "pub")]
    _after_scoring(state)
    return found


def _after_scoring(state: State) -> None:
    if state.pubs_left:
        state.expect = ["pub", state.pubs_left[0]]
    elif state.phase_name == "trading":
        state.expect = ["game_end"] if state.last_round else ["round_end", state.round]
    else:
        state.phase += 1
        begin_phase(state)


def begin_phase(state: State) -> None:
    board = state.pack.board
    if state.round == 1 and state.phase == 0:
        want = board.first_fill_per_player * state.n
    else:
        want = board.spaces - len(state.top) - len(state.bottom)
    deck = state.phase_name
    state.expect = ["reveal", deck, max(0, min(want, state.deck_size(deck)))]


def _end_round(state: State, event: Event) -> list[Problem]:
    state.discard.extend(state.bottom)
    state.bottom, state.top = state.top, []
    state.markers = [(m + 1) % state.n for m in state.markers]
    state.observatory_used = [0] * state.n
    state.round += 1
    state.phase = 0
    begin_phase(state)
    claimed = event.payload.get("markers")
    if claimed is not None and list(claimed) != state.markers:
        return [problem(state, event, "stpete.claim-markers", _names(state, state.markers), str(claimed))]
    return []


def _end_game(state: State, event: Event) -> list[Problem]:
    final_scoring(state)
    state.expect = ["none"]
    found: list[Problem] = []
    p = event.payload
    for claim in p.get("scores") or ():
        s = claim["seat"]
        if not 0 <= s < state.n:
            found.append(problem(state, event, "stpete.claim-score", f"a seat from 0 to {state.n - 1}", f"seat {s}"))
        elif claim.get("total") is not None and claim["total"] != state.points[s]:
            found.append(problem(state, event, "stpete.claim-score", str(state.points[s]), str(claim["total"]), s))
    if p.get("winners") is not None and sorted(set(p["winners"])) != state.winners:
        found.append(problem(state, event, "stpete.claim-winners", _names(state, state.winners),
                             _names(state, p["winners"])))
    return found


def _names(state: State, seats: Sequence[int]) -> str:
    return ", ".join(seat_name(state.names, s) for s in seats) or "nobody"


# ----------------------------------------------------------------------------- the contract


def new_state(pack: StPetePack, names: list[str], markers: list[int]) -> State:
    n = len(names)
    state = State(pack=pack, names=names, markers=list(markers),
                  decks={d: pack.deck(d) for d in PHASES}, tableau=[[] for _ in range(n)], hand=[[] for _ in range(n)],
                  rubles=[pack.scoring.starting_rubles] * n, points=[0] * n,
                  categories=[{"worker": 0, "building": 0, "aristocrat": 0, "pub": 0, "aristocrat_types": 0, "rubles": 0,
                               "hand": 0} for _ in range(n)],
                  observatory_used=[0] * n)
    begin_phase(state)
    return state


class StPeteRules(Rules[State, StPetePack]):
    def start(self, event: Event, pack: StPetePack) -> State:
        p = event.payload
        seats = sorted(p["seats"], key=lambda s: s["seat"])
        n = len(seats)
        if [s["seat"] for s in seats] != list(range(n)) or not 2 <= n <= 4:
            raise RuleViolation(problem(None, event, "stpete.start", "seats 0 to n-1, two to four of them",
                                        str([s["seat"] for s in p["seats"]])))
        try:
            pack.require_complete()
        except PackError as exc:
            raise RuleViolation(problem(None, event, "stpete.pack", "a complete pack", str(exc))) from None
        markers = p["markers"]
        held = Counter(markers)
        if any(not 0 <= m < n for m in markers) or len(held) < n or max(held.values()) - min(held.values()) > 1:
            raise RuleViolation(problem(None, event, "stpete.markers", "every seat one marker or two, evenly dealt",
                                        str(markers)))
        return new_state(pack, [s["name"] for s in seats], markers)

    def apply(self, state: State, event: Event) -> Sequence[Problem]:
        check(state, event)
        return perform(state, event)

    def recover(self, state: State, event: Event, problem: Problem) -> Sequence[Problem]:
        """Put the table right where a log merely skipped what the rules can work out, and try the
        event again: a turn taken out of seat order (the turn moves to that seat), a phase end, a
        Pub's answer or a round end left out (applied without claims), a phase ended before everyone
        passed (ended there). Anything else is skipped: it changes nothing."""
        for _ in range(3):
            if not _fill_in(state, event):
                return ()
            try:
                check(state, event)
            except RuleViolation:
                continue
            return perform(state, event)
        return ()

    def is_over(self, state: State) -> bool:
        return bool(state.expect[0] == "none")

    def position(self, state: State, event: Event) -> Position:
        seat = event.payload.get("seat")
        acting = event.type in TURN_EVENTS and state.expect[0] != "observatory"  # resolving a draw: the same turn
        turn = state.turn + 1 if acting else (state.turn or None)
        return Position(turn=turn, round=state.round, seat=seat if isinstance(seat, int) else None)

    def legal_actions(self, state: State, seat: int) -> Sequence[str]:
        return legal_actions(state, seat)

    def action_of(self, event: Event) -> str | None:
        return action_of(event.type, event.payload)

    def snapshot(self, state: State) -> dict[str, Any]:
        return state.data()

    def restore(self, data: dict[str, Any], pack: StPetePack) -> State:
        return State.of_data(data, pack)


def _fill_in(state: State, event: Event) -> bool:
    """Apply what the log left out before ``event``, when the rules can work it out; False if nothing."""
    what, t, p = state.expect[0], event.type, event.payload
    seat = p.get("seat")
    if what == "turn" and t in TURN_EVENTS and isinstance(seat, int) and 0 <= seat < state.n and seat != state.seat:
        state.seat = seat
        state.expect = ["turn", seat]
        return True
    if what == "turn" and t == "phase_ended" and p["phase"] == state.phase_name:
        state.expect = ["phase_end", state.phase_name]
        return True
    if what == "phase_end" and t in ("cards_revealed", "pub_used", "round_ended", "game_ended"):
        _score_phase(state, event._replace(type="phase_ended", payload={"phase": state.phase_name, "income": None}))
        return True
    if what == "pub" and t != "pub_used":
        state.pubs_left.pop(0)
        _after_scoring(state)
        return True
    if what == "round_end" and t == "cards_revealed":
        _end_round(state, event._replace(type="round_ended", payload={"round": state.round, "markers": None}))
        return True
    return False
