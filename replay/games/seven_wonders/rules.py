"""7 Wonders on the game contract: each event checked against the rules, then applied.

A turn's choices are simultaneous: each ``card_played`` is checked against the table as it was at
the start of the turn (hands, coins, what every city produces) and kept; when every seat has
chosen, the turn is resolved at once (payments, building, coins from neighbours, coins the new
cards give, the hands passed). An illegal event changes nothing and raises
:class:`RuleViolation`; wrong claims (coins paid, tokens, scores) are returned after the event is
applied, the rules' value standing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from replay.contract import Position, Rules
from replay.errors import RuleViolation
from replay.events import Event
from replay.games.explain import rule_problem
from replay.problems import Location, Problem

from .city import check_payment, payments
from .events import CATEGORIES
from .pack import Card, Cost, SevenWondersPack
from .scoring import per_total, scores, winners
from .state import AGE_END, CHOOSE, DEAL, DISCARD_BUILD, OVER, SCORE, State

RULES = {
    "7w.start": "Each seat plays a Wonder board of the pack, no board twice, on the side the pack's options allow.",
    "7w.expected": "Events come in the order the rules give: the deal, each seat's card every turn, the end of the Age.",
    "7w.deal": "Each Age deals every seat a hand of seven from that Age's cards for the number of players (Age III: "
               "with as many guilds as players plus two).",
    "7w.turn": "A card is played by a seat that has not yet played this turn, in this Age and turn.",
    "7w.hand": "A card played is in the seat's hand.",
    "7w.build.duplicate": "A city never builds two identical structures.",
    "7w.chain": "A structure is free through a chain only when the city has the structure it chains from.",
    "7w.power": "Olympia's free building is used at most once per Age, by a city that has built that stage, for a "
                "structure.",
    "7w.wonder.stage": "Wonder stages are built in order, each once.",
    "7w.pay.free": "Nothing is bought or chosen for a card that is free or discarded.",
    "7w.pay.choice": "Each choice-producing card gives one of its resources, once a turn, to its owner.",
    "7w.pay.neighbour": "Resources are bought from a neighbour who produces them for sale (brown and grey cards, "
                        "the Wonder's own resource).",
    "7w.pay.resources": "The resources used pay the whole cost: the city's own and those bought.",
    "7w.pay.coins": "Coins paid (the cost and the trade) never exceed what the seat has at the start of the turn.",
    "7w.discard-built": "Halicarnassus builds a card of the discard pile that its city does not have, or none when "
                        "there is none.",
    "7w.claim.paid": "The coins written as paid to a neighbour are what the trade costs after discounts.",
    "7w.claim.tokens": "The military tokens written down are those the Age's conflicts give.",
    "7w.claim.score": "A score written down is the score the rules give.",
    "7w.game-over": "Nothing happens after the game has ended.",
}


def problem(state: State | None, event: Event, rule_id: str, expected: str, found: str, seat: Any = None) -> Problem:
    return rule_problem(RULES, rule_id, expected, found, event, state.names if state else [], seat,
                        global_turn(state.age, state.turn) if state and state.turn else None)


def global_turn(age: int, turn: int) -> int:
    """Turns are numbered through the game: Age I is 1-7, Age II 8-14, Age III 15-21 (7: Babylon's card)."""
    return (age - 1) * 7 + turn


def refuse(state: State, event: Event, rule_id: str, expected: str, found: str, seat: Any = None) -> RuleViolation:
    return RuleViolation(problem(state, event, rule_id, expected, found, seat))


# ----------------------------------------------------------------------------- what is expected


def expected_seats(state: State) -> list[int]:
    """Seats that still play a card this turn."""
    if state.phase != CHOOSE:
        return []
    playing = state.last_card if state.turn == 7 else range(state.n)
    return [s for s in playing if state.chosen[s] is None]


def expected_words(state: State) -> str:
    if state.phase == DEAL:
        return f"age_dealt {state.age + 1}"
    if state.phase == CHOOSE:
        return "card_played by " + ", ".join(state.names[s] for s in expected_seats(state))
    if state.phase == DISCARD_BUILD:
        return f"discard_built by {state.names[state.pending[0]]}"
    if state.phase == AGE_END:
        return f"age_ended {state.age}"
    if state.phase == SCORE:
        return "game_ended"
    return "no event (the game is over)"


def card_of(state: State, age: int, card_id: str) -> Card | None:
    """A card by id as of ``age``: that Age's, else the latest earlier one (the discard pile keeps ids)."""
    for a in range(age, 0, -1):
        card = state.pack.card(a, card_id)
        if card is not None:
            return card
    return None


# ----------------------------------------------------------------------------- checking


def check(state: State, event: Event) -> tuple[int, int] | None:
    """Raise RuleViolation if ``event`` may not come now; change nothing. For a ``card_played``,
    the coins it pays to the left and right neighbours (so that applying it does not judge it again)."""
    t, p = event.type, event.payload
    if state.phase == OVER:
        raise refuse(state, event, "7w.game-over", "no event", t)
    wanted = {DEAL: "age_dealt", CHOOSE: "card_played", DISCARD_BUILD: "discard_built", AGE_END: "age_ended",
              SCORE: "game_ended"}[state.phase]
    if t != wanted:
        raise refuse(state, event, "7w.expected", expected_words(state), t, p.get("seat"))
    if t == "age_dealt":
        _check_deal(state, event)
    elif t == "card_played":
        return _check_card(state, event)
    elif t == "discard_built":
        _check_discard_built(state, event)
    elif t == "age_ended" and p["age"] != state.age:
        raise refuse(state, event, "7w.expected", f"age_ended {state.age}", f"age_ended {p['age']}")
    return None


def _check_deal(state: State, event: Event) -> None:
    p = event.payload
    age, hands, pack = p["age"], p["hands"], state.pack
    if age != state.age + 1:
        raise refuse(state, event, "7w.expected", f"age_dealt {state.age + 1}", f"age_dealt {age}")
    size = pack.numbers.hand_size
    if len(hands) != state.n or any(len(h) != size for h in hands):
        raise refuse(state, event, "7w.deal", f"{state.n} hands of {size}", ", ".join(str(len(h)) for h in hands))
    dealt = Counter(c for h in hands for c in h)
    guilds = set(pack.guilds())
    want = pack.deck(age, state.n)
    found_guilds = [c for c in dealt if c in guilds]
    plain = Counter({c: k for c, k in dealt.items() if c not in guilds})
    wrong = []
    if plain != want:
        missing, extra = want - plain, plain - want
        wrong += [f"missing {', '.join(sorted(missing.elements()))}"] if missing else []
        wrong += [f"not in this deck {', '.join(sorted(extra.elements()))}"] if extra else []
    guilds_wanted = state.n + 2 if age == 3 else 0
    if len(found_guilds) != guilds_wanted or any(dealt[g] > 1 for g in found_guilds):
        wrong.append(f"{sum(dealt[g] for g in found_guilds)} guild cards (expected {guilds_wanted} different)")
    if wrong:
        raise refuse(state, event, "7w.deal", f"the Age {age} deck for {state.n} players", "; ".join(wrong))


def _check_card(state: State, event: Event) -> tuple[int, int]:
    p = event.payload
    seat = p["seat"]
    if (p["age"], p["turn"]) != (state.age, state.turn):
        raise refuse(state, event, "7w.turn", f"Age {state.age}, turn {state.turn}", f"Age {p['age']}, turn {p['turn']}", seat)
    if seat not in expected_seats(state):
        who = ", ".join(state.names[s] for s in expected_seats(state))
        raise refuse(state, event, "7w.turn", f"a card from {who}", f"a second card from seat {seat}"
                     if 0 <= seat < state.n and state.chosen[seat] is not None else f"a card from seat {seat}", seat)
    if p["card"] not in state.hands[seat]:
        raise refuse(state, event, "7w.hand", "a card of " + ", ".join(state.hands[seat]), p["card"], seat)
    outcome = judge(state, seat, p)
    if isinstance(outcome, Problem):
        raise RuleViolation(_located(outcome, state, event, seat))
    return outcome


def judge(state: State, seat: int, p: dict[str, Any]) -> Problem | tuple[int, int]:
    """Whether ``seat`` may play ``p`` (a ``card_played`` payload) now: the problem, or the coins it
    pays (to the left neighbour, to the right one). Legal actions and the checks share it."""
    action, free = p["action"], p.get("free")
    paid_for = bool(p.get("choices") or p.get("left") or p.get("right"))
    card = state.pack.card(state.age, p["card"])
    if card is None:
        return _bare("7w.hand", f"a card of the Age {state.age} deck", p["card"])
    if action == "discard" or free is not None:
        if paid_for:
            return _bare("7w.pay.free", "nothing bought or chosen", "a payment")
    if action == "discard":
        if free is not None:
            return _bare("7w.power", "a discard with nothing free", f"free by {free}")
        return 0, 0
    if action == "build":
        if card.id in state.built[seat]:
            return _bare("7w.build.duplicate", f"a structure {state.names[seat]} does not have", card.name)
        if free == "chain":
            if not set(card.chain_from) & set(state.built[seat]):
                return _bare("7w.chain", "one of " + (", ".join(card.chain_from) or "no structure (it has no chain)"),
                             "none of them in the city")
            return 0, 0
        if free == "power":
            if not state.has_power(seat, "free_build_per_age") or state.power_used[seat] == state.age:
                return _bare("7w.power", "Olympia's free building, unused this Age", "none available")
            return 0, 0
        return _pay(state, seat, card.cost, p)
    side = state.side(seat)
    if free is not None:
        return _bare("7w.power", "a Wonder stage paid for", f"free by {free}")
    if state.stages[seat] >= len(side.stages):
        return _bare("7w.wonder.stage", f"at most {len(side.stages)} stages", f"stage {state.stages[seat] + 1}")
    return _pay(state, seat, side.stages[state.stages[seat]].cost, p)


def _pay(state: State, seat: int, cost: Cost, p: dict[str, Any]) -> Problem | tuple[int, int]:
    found, to_left, to_right = check_payment(state, seat, cost, p.get("choices") or {}, p.get("left") or {},
                                             p.get("right") or {})
    if found is not None:
        return _bare(found.rule_id, found.expected, found.found)
    return to_left, to_right


def _bare(rule_id: str, expected: str, found: str) -> Problem:
    return Problem(rule_id, RULES[rule_id], expected, found, Location())


def _located(p: Problem, state: State, event: Event, seat: int) -> Problem:
    return problem(state, event, p.rule_id, p.expected or "", p.found or "", seat)


def _check_discard_built(state: State, event: Event) -> None:
    p = event.payload
    seat = state.pending[0]
    if p["seat"] != seat:
        raise refuse(state, event, "7w.expected", expected_words(state), f"discard_built by seat {p['seat']}", p["seat"])
    choices = buildable_discards(state, seat)
    if p["card"] is None and choices:
        raise refuse(state, event, "7w.discard-built", "one of " + ", ".join(choices), "none", seat)
    if p["card"] is not None and p["card"] not in choices:
        raise refuse(state, event, "7w.discard-built", "one of " + (", ".join(choices) or "none"), p["card"], seat)


def buildable_discards(state: State, seat: int) -> list[str]:
    return sorted({c for c in state.discard if c not in state.built[seat]})


# ----------------------------------------------------------------------------- applying


def perform(state: State, event: Event, paid: tuple[int, int] | None = None) -> list[Problem]:
    """Apply an event :func:`check` accepted (``paid``: what it said a ``card_played`` pays);
    return the wrong claims it makes."""
    t, p = event.type, event.payload
    found: list[Problem] = []
    if t == "age_dealt":
        state.age, state.turn, state.phase = p["age"], 1, CHOOSE
        state.hands = [list(h) for h in p["hands"]]
        state.chosen = [None] * state.n
        state.last_card = []
    elif t == "card_played":
        assert paid is not None
        found = _chosen(state, event, paid)
    elif t == "discard_built":
        _discard_built(state, p["seat"], p["card"])
    elif t == "age_ended":
        found = _conflicts(state, event)
    elif t == "game_ended":
        found = _game_ended(state, event)
    return found


def _chosen(state: State, event: Event, paid: tuple[int, int]) -> list[Problem]:
    p = event.payload
    seat = p["seat"]
    to_left, to_right = paid
    state.chosen[seat] = {"card": p["card"], "action": p["action"], "free": p.get("free"), "to_left": to_left,
                          "to_right": to_right}
    found = []
    claimed = p.get("paid") or {}
    for side, want in (("left", to_left), ("right", to_right)):
        said = claimed.get(f"to_{side}")
        if said is not None and said != want:
            neighbour = state.left(seat) if side == "left" else state.right(seat)
            found.append(problem(state, event, "7w.claim.paid", f"{want} coins to {state.names[neighbour]}",
                                 f"{said} coins", seat))
    if not expected_seats(state):
        resolve_turn(state)
    return found


def resolve_turn(state: State) -> None:
    """Every seat has chosen: pay, build, collect, pass the hands (all at once)."""
    pack, n = state.pack, state.n
    income = [0] * n
    new: list[tuple[int, list[Any]]] = []
    for seat, choice in enumerate(state.chosen):
        if choice is None:
            continue
        state.hands[seat].remove(choice["card"])
        card = pack.card(state.age, choice["card"])
        assert card is not None
        if choice["action"] == "discard":
            state.discard.append(card.id)
            income[seat] += pack.numbers.discard_coins
            continue
        if choice["free"] == "power":
            state.power_used[seat] = state.age
        paid_cost = 0 if choice["free"] else (card.cost.coins if choice["action"] == "build" else
                                              state.side(seat).stages[state.stages[seat]].cost.coins)
        state.coins[seat] -= paid_cost + choice["to_left"] + choice["to_right"]
        income[state.left(seat)] += choice["to_left"]
        income[state.right(seat)] += choice["to_right"]
        if choice["action"] == "build":
            state.built[seat].append(card.id)
            state.built_age[seat].append(card.age)
            new.append((seat, list(card.effects)))
        else:
            stage = state.side(seat).stages[state.stages[seat]]
            state.stages[seat] += 1
            new.append((seat, list(stage.effects)))
            if any(e.type == "build_from_discard" for e in stage.effects):
                state.pending.append(seat)
    for seat, effects in new:
        income[seat] += _coins_now(state, seat, effects)
    for seat in range(n):
        state.coins[seat] += income[seat]
    state.chosen = [None] * n
    _after_turn(state)


def _coins_now(state: State, seat: int, effects: Sequence[Any]) -> int:
    """Coins a new card or stage gives when it is built (counted once the turn's structures are in)."""
    total = 0
    for e in effects:
        if e.type == "coins":
            total += e.amount
        elif e.type == "per" and e.coins:
            total += per_total(state, seat, e, "coins")
    return total


def _after_turn(state: State) -> None:
    """The turn is over: pass the hands, or end the Age's turns (the last cards discarded)."""
    if state.turn == 7:
        state.last_card = []
    elif state.turn == 6:
        last = [s for s in range(state.n) if state.hands[s] and state.has_power(s, "play_last_card")]
        for s in range(state.n):
            if s not in last:
                state.discard.extend(state.hands[s])
                state.hands[s] = []
        state.last_card = last
        if last:
            state.turn = 7
    else:
        direction = state.pack.numbers.passing[state.age - 1]
        hands = state.hands
        state.hands = [hands[state.right(s)] if direction == "left" else hands[state.left(s)] for s in range(state.n)]
        state.turn += 1
    state.phase = _next_phase(state)


def _next_phase(state: State) -> str:
    if state.pending:
        return DISCARD_BUILD
    return CHOOSE if any(state.hands) else AGE_END


def _discard_built(state: State, seat: int, card_id: str | None) -> None:
    state.pending.pop(0)
    if card_id is not None:
        card = card_of(state, state.age, card_id)
        assert card is not None
        state.discard.remove(card_id)
        state.built[seat].append(card.id)
        state.built_age[seat].append(card.age)
        state.coins[seat] += _coins_now(state, seat, card.effects)
    state.phase = _next_phase(state)


def military(state: State, seat: int) -> int:
    return sum(e.amount for _, e in state.effects(seat) if e.type == "shields")


def conflict_tokens(state: State) -> list[list[int]]:
    """The tokens each seat gains from the Age's conflicts with its two neighbours."""
    win, lose = state.pack.numbers.victory_points[state.age - 1], state.pack.numbers.defeat_points
    strength = [military(state, s) for s in range(state.n)]
    out: list[list[int]] = [[] for _ in range(state.n)]
    for s in range(state.n):
        for other in (state.left(s), state.right(s)):
            if strength[s] > strength[other]:
                out[s].append(win)
            elif strength[s] < strength[other]:
                out[s].append(lose)
    return out


def _conflicts(state: State, event: Event) -> list[Problem]:
    tokens = conflict_tokens(state)
    found = []
    claimed = event.payload.get("tokens")
    if claimed is not None:
        for s in range(state.n):
            said = sorted(claimed[s]) if s < len(claimed) else None
            if said != sorted(tokens[s]):
                found.append(problem(state, event, "7w.claim.tokens", str(sorted(tokens[s])), str(said), s))
    for s in range(state.n):
        state.tokens[s].extend(tokens[s])
    state.phase = DEAL if state.age < 3 else SCORE
    state.turn = 0
    return found


def _game_ended(state: State, event: Event) -> list[Problem]:
    final = scores(state)
    found = []
    for claim in event.payload.get("scores") or []:
        seat = claim["seat"]
        if not 0 <= seat < state.n:
            continue
        for category in (*CATEGORIES, "total"):
            said = claim.get(category)
            if said is not None and said != final[seat][category]:
                found.append(problem(state, event, "7w.claim.score", f"{category} {final[seat][category]}",
                                     f"{category} {said}", seat))
    state.winners = winners(state)
    state.phase = OVER
    return found


# ----------------------------------------------------------------------------- the contract


class SevenWondersRules(Rules[State, SevenWondersPack]):
    def start(self, event: Event, pack: SevenWondersPack) -> State:
        seats = sorted(event.payload["seats"], key=lambda s: s["seat"])
        names = [s["name"] for s in seats]
        wonders = [[s["wonder"], s["side"]] for s in seats]
        state = State.new(pack, names, wonders)
        found = None
        if [s["seat"] for s in seats] != list(range(len(seats))):
            found = ("seats 0, 1, 2, ...", ", ".join(str(s["seat"]) for s in seats))
        elif unknown := [w for w, _ in wonders if w not in pack.wonder_by_id]:
            found = ("Wonders of the pack: " + ", ".join(pack.wonder_by_id), ", ".join(unknown))
        elif len({w for w, _ in wonders}) != len(wonders):
            found = ("a different Wonder for each seat", ", ".join(w for w, _ in wonders))
        elif pack.options.sides != "chosen" and any(side != pack.options.sides for _, side in wonders):
            found = (f"side {pack.options.sides.upper()} for every seat", ", ".join(side for _, side in wonders))
        elif not 3 <= len(seats) <= 7:
            found = ("3 to 7 players", str(len(seats)))
        if found:
            raise RuleViolation(Problem("7w.start", RULES["7w.start"], found[0], found[1], Location(seq=event.seq)))
        return state

    def apply(self, state: State, event: Event) -> Sequence[Problem]:
        return perform(state, event, check(state, event))

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def position(self, state: State, event: Event) -> Position:
        p = event.payload
        seat = p.get("seat") if isinstance(p.get("seat"), int) else None
        if event.type == "card_played" and isinstance(p.get("age"), int) and isinstance(p.get("turn"), int):
            return Position(turn=global_turn(p["age"], p["turn"]), round=p["age"], seat=seat)
        age = p.get("age") if isinstance(p.get("age"), int) else (state.age or None)
        return Position(turn=global_turn(state.age, state.turn) if state.turn else None, round=age, seat=seat)

    def legal_actions(self, state: State, seat: int) -> Sequence[Any]:
        from .legal import legal_plays

        return legal_plays(state, seat)

    def action_of(self, event: Event) -> Any | None:
        from .legal import play_of

        return play_of(event) if event.type in ("card_played", "discard_built") else None

    def snapshot(self, state: State) -> dict[str, Any]:
        return state.data()

    def restore(self, data: dict[str, Any], pack: SevenWondersPack) -> State:
        return State.of_data(data, pack)


__all__ = ["RULES", "SevenWondersRules", "conflict_tokens", "judge", "payments"]
