"""Fleet on the game contract: each event checked against what the rules wait for, then applied.

An illegal event changes nothing: :func:`check` runs before anything moves and raises
:class:`RuleViolation` with a rule id; wrong written claims (a discount, a price, VP, winners)
are returned after the event is applied, the rules' value standing. The rule ids and their
sentences are listed in ``RULES`` (and in docs/games/fleet.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from replay.contract import Position, Rules
from replay.errors import RuleViolation
from replay.events import Event
from replay.games.explain import event_words as shared_event_words
from replay.games.explain import rule_problem
from replay.problems import Problem

from . import scoring
from .flow import advance, finish_step, next_in, open_auction, start_round
from .pack import FleetPack
from .state import State, seat_name

RULES = {
    "fleet.start": "Fleet is for 2 to 4 players, seated 0, 1, 2, ...; the first player is one of them.",
    "fleet.expected": "Events come in the order of the phases: setup, then each round's auction, launches, captains, "
                      "fishing, processing, trading and draw, each in turn order from the first player.",
    "fleet.turn-order": "Only the seat whose turn it is in the phase may act.",
    "fleet.setup-removal": "At setup, 2 players remove 6 common and 3 premium licenses, 3 players 2 and 2, 4 players none.",
    "fleet.license-deck": "The shuffled license deck holds exactly the licenses left after the removal.",
    "fleet.premium-early": "Premium licenses (the Pub, the King Crabs) cannot appear before the third round: the "
                           "license deck's first two rounds' worth of cards are common licenses.",
    "fleet.boat-deck": "A shuffled boat deck holds exactly the cards expected: the deck after the starting hands, or "
                       "the discard pile when it is reshuffled.",
    "fleet.hand": "Each seat starts with the hand the pack gives (one boat of each type).",
    "fleet.draw": "Cards drawn are the top cards of the boat deck, as many as the rule gives.",
    "fleet.cod-draw": "After launching at least one boat, a Cod license owner draws one card per Cod license.",
    "fleet.lobster-draw": "After hiring captains, a Lobster license owner draws by its licenses and captained boats.",
    "fleet.tuna-draw": "The draw phase draws two cards, keeping one; Tuna licenses draw and keep more.",
    "fleet.trade-draw": "A trade draws one card per Processing Vessel license.",
    "fleet.round": "Rounds are numbered from 1 and the first-player token passes left each round.",
    "fleet.auction-license": "An auction is opened on a license in the auction row.",
    "fleet.bid-min": "An opening bid is at least the license's printed cost; a raise is above the leading bid.",
    "fleet.bid-afford": "A bid is at most what the bidder can pay: its cards' coins, processed fish, and its Shrimp discount.",
    "fleet.payment-cards": "Payment is made with cards in the payer's hand and processed fish it has.",
    "fleet.payment": "A payment covers the price (the winning bid, or the launch cost) less the Shrimp discount: "
                     "$1 per Shrimp license.",
    "fleet.license-owned": "A boat is launched only by a seat owning a license for it.",
    "fleet.launch-limit": "One boat is launched per round, two with a Cod license.",
    "fleet.captain": "A captain is a boat card from hand placed face down on the seat's own launched boat without a captain.",
    "fleet.hire-limit": "One captain is hired per round, two with a Lobster license.",
    "fleet.capacity": "Fishing puts one crate on each captained boat holding fewer than 4 crates, and no other.",
    "fleet.process": "Only a Processing Vessel license owner processes fish, one crate from each of its boats holding fish.",
    "fleet.trade": "Only a Processing Vessel license owner with a processed crate trades it, once per round.",
    "fleet.discard": "The draw phase discards down to what may be kept, from the cards just drawn (any card in hand "
                     "with a Tuna license).",
    "fleet.end": "The game ends after phase three of the round in which the auction row could not be refilled or the "
                 "fish supply ran out, and only then.",
    "fleet.claim-discount": "A Shrimp discount written down is the one the seat's Shrimp licenses give.",
    "fleet.claim-price": "A license's price written down is the winning bid.",
    "fleet.claim-score": "A final score written down, in all and by category, is the VP the rules give.",
    "fleet.claim-winners": "The winners written down are the players with the most VP after the tie-breaks.",
    "fleet.game-over": "Nothing happens after the game has ended.",
}

CHOICES = {
    "auction_open": ("auction_opened", "auction_passed"), "bid": ("bid_raised", "bid_dropped"),
    "license_bought": ("license_bought",), "launch": ("boat_launched", "step_passed"),
    "hire": ("captain_hired", "step_passed"), "process": ("fish_processed", "step_passed"),
    "trade": ("fish_traded", "step_passed"), "discard": ("cards_discarded",), "fish_caught": ("fish_caught",),
    "hand_dealt": ("hand_dealt",),
}
DRAW_RULE = {"cod": "fleet.cod-draw", "lobster": "fleet.lobster-draw", "draw": "fleet.tuna-draw", "trade": "fleet.trade-draw"}


def problem(state: State | None, event: Event, rule_id: str, expected: str, found: str, seat: Any = None) -> Problem:
    return rule_problem(RULES, rule_id, expected, found, event, state.names if state else [], seat,
                        (state.turn or None) if state else None)


def name(state: State, seat: Any) -> str:
    return seat_name(state.names, seat)


def expected_words(state: State) -> str:
    e = state.expect
    what = e[0]
    if what == "none":
        return "no event (the game is over)"
    if what in ("licenses_removed", "license_deck_shuffled", "game_ended"):
        return str(what)
    if what == "boat_deck_shuffled":
        return f"boat_deck_shuffled ({e[1]})"
    if what == "round_started":
        return f"round_started {e[1]} with {name(state, e[2])} first"
    if what == "cards_drawn":
        return f"cards_drawn by {name(state, e[1])} ({e[2]}): {e[3]} card(s)"
    if what == "license_bought":
        return f"license_bought by {name(state, e[1])}: {e[2]} for {e[3]}"
    if what == "discard":
        return f"cards_discarded by {name(state, e[1])}: {e[2]} card(s)"
    return f"{' or '.join(CHOICES.get(what, (what,)))} by {name(state, e[1])}"


def event_words(event: Event) -> str:
    return shared_event_words(event, ("seat", "step", "reason", "license", "boat", "bid", "round"))


# ----------------------------------------------------------------------------- checking


def _fits(want: Counter[str], have: Counter[str]) -> bool:
    return not (want - have)


def _difference(want: Counter[str], found: Counter[str]) -> str:
    missing, extra = want - found, found - want
    parts = []
    if missing:
        parts.append("missing " + ", ".join(f"{c} x{k}" for c, k in sorted(missing.items())))
    if extra:
        parts.append("extra " + ", ".join(f"{c} x{k}" for c, k in sorted(extra.items())))
    return "; ".join(parts)


def check(state: State, event: Event) -> None:
    """Raise RuleViolation if ``event`` is not one the rules allow now; change nothing."""
    e, t, p = state.expect, event.type, event.payload
    what = e[0]
    seat = p.get("seat") if isinstance(p.get("seat"), int) else None
    if what == "none":
        raise RuleViolation(problem(state, event, "fleet.game-over", "no event", event_words(event), seat))
    allowed = CHOICES.get(what, (what,))
    mine = len(e) > 1 and e[1] == seat and t in allowed
    if not mine and seat is not None and state.phase == "launch" and 0 <= seat < state.n:
        if t == "boat_launched" and state.launched[seat] >= state.max_launches(seat):
            raise RuleViolation(problem(state, event, "fleet.launch-limit", f"at most {state.max_launches(seat)}",
                                        f"launch {state.launched[seat] + 1}", seat))
        if t == "captain_hired" and state.hired[seat] >= state.max_hires(seat):
            raise RuleViolation(problem(state, event, "fleet.hire-limit", f"at most {state.max_hires(seat)}",
                                        f"captain {state.hired[seat] + 1}", seat))
    if not mine and t in ("fish_processed", "fish_traded") and seat is not None and 0 <= seat < state.n:
        if not state.owned(seat, "processing"):
            rule = "fleet.process" if t == "fish_processed" else "fleet.trade"
            raise RuleViolation(problem(state, event, rule, "a Processing Vessel license", "none", seat))
        if t == "fish_traded" and not state.processed[seat]:
            raise RuleViolation(problem(state, event, "fleet.trade", "a processed crate", "none", seat))
    if t not in allowed:
        if t == "game_ended":
            raise RuleViolation(problem(state, event, "fleet.end", expected_words(state),
                                        "game_ended with no end condition met after phase three"))
        raise RuleViolation(problem(state, event, "fleet.expected", expected_words(state), event_words(event), seat))
    if len(e) > 1 and isinstance(e[1], int) and what not in ("round_started",) and seat is not None and seat != e[1]:
        raise RuleViolation(problem(state, event, "fleet.turn-order", f"{name(state, e[1])} to act",
                                    f"{t} by {name(state, seat)}", seat))
    if t == "step_passed" and p["step"] != what:
        raise RuleViolation(problem(state, event, "fleet.expected", expected_words(state), event_words(event), seat))
    _CHECKS[t](state, event, e)


def _check_removed(state: State, event: Event, e: list[Any]) -> None:
    lic = state.pack.license
    found = event.payload["licenses"]
    unknown = [x for x in found if x not in lic]
    r = state.pack.removal(state.n)
    common = sum(1 for x in found if x in lic and not lic[x].premium)
    premium = len(found) - common
    if unknown or not _fits(Counter(found), Counter(state.licenses_deck)) or (common, premium) != (r.common, r.premium):
        found_words = f"{common} common and {premium} premium" + (f" ({', '.join(unknown)} unknown)" if unknown else "")
        raise RuleViolation(problem(state, event, "fleet.setup-removal", f"{r.common} common and {r.premium} premium",
                                    found_words))


def _check_license_deck(state: State, event: Event, e: list[Any]) -> None:
    order = event.payload["order"]
    diff = _difference(Counter(state.licenses_deck), Counter(order))
    if diff:
        raise RuleViolation(problem(state, event, "fleet.license-deck", "the licenses left after the removal", diff))
    early = (state.pack.setup.premium_from_round - 1) * state.n * state.pack.setup.auction_row_per_player
    bad = [i for i, x in enumerate(order[:early]) if state.pack.license[x].premium]
    if bad:
        raise RuleViolation(problem(state, event, "fleet.premium-early", f"common licenses in the first {early} cards",
                                    f"{order[bad[0]]} at position {bad[0] + 1}"))


def _check_hand(state: State, event: Event, e: list[Any]) -> None:
    cards = event.payload["cards"]
    want = state.pack.cards.starting_hand
    if Counter(cards) != Counter(want):
        raise RuleViolation(problem(state, event, "fleet.hand", ", ".join(want), ", ".join(cards) or "nothing", e[1]))
    if not _fits(Counter(cards), Counter(state.deck)):
        raise RuleViolation(problem(state, event, "fleet.boat-deck", "cards still in the box", ", ".join(cards), e[1]))


def _check_boat_deck(state: State, event: Event, e: list[Any]) -> None:
    p = event.payload
    if p["reason"] != e[1]:
        raise RuleViolation(problem(state, event, "fleet.expected", expected_words(state), event_words(event)))
    want = Counter(state.deck if e[1] == "new_deck" else state.discard)
    diff = _difference(want, Counter(p["order"]))
    if diff:
        pile = "the boat deck after the starting hands" if e[1] == "new_deck" else "the discard pile"
        raise RuleViolation(problem(state, event, "fleet.boat-deck", pile, diff))


def _check_round(state: State, event: Event, e: list[Any]) -> None:
    p = event.payload
    if [p["round"], p["first_player"]] != e[1:]:
        raise RuleViolation(problem(state, event, "fleet.round", f"round {e[1]} with {name(state, e[2])} first",
                                    f"round {p['round']} with {name(state, p['first_player'])} first"))


def power(state: State, seat: int) -> int:
    """The highest bid the seat can pay: its money plus its Shrimp discount."""
    return state.money(seat) + state.discount(seat)


def _check_open(state: State, event: Event, e: list[Any]) -> None:
    p, seat = event.payload, e[1]
    if p.get("license") is None:
        return  # auction_passed
    if p["license"] not in state.row:
        raise RuleViolation(problem(state, event, "fleet.auction-license", "one of " + ", ".join(state.row), p["license"], seat))
    cost = state.pack.license[p["license"]].cost
    if p["bid"] < cost:
        raise RuleViolation(problem(state, event, "fleet.bid-min", f"at least {cost}", str(p["bid"]), seat))
    if p["bid"] > power(state, seat):
        raise RuleViolation(problem(state, event, "fleet.bid-afford", f"at most {power(state, seat)}", str(p["bid"]), seat))


def _check_bid(state: State, event: Event, e: list[Any]) -> None:
    p, seat = event.payload, e[1]
    if "bid" not in p:
        return  # bid_dropped
    assert state.auction is not None
    if p["bid"] <= state.auction["bid"]:
        raise RuleViolation(problem(state, event, "fleet.bid-min", f"more than {state.auction['bid']}", str(p["bid"]), seat))
    if p["bid"] > power(state, seat):
        raise RuleViolation(problem(state, event, "fleet.bid-afford", f"at most {power(state, seat)}", str(p["bid"]), seat))


def _check_payment(state: State, event: Event, seat: int, price: int, keep: str | None = None) -> None:
    p = event.payload
    hand = Counter(state.hand[seat])
    if keep is not None:
        hand[keep] -= 1
    fish = p.get("fish", 0)
    if not _fits(Counter(p["paid"]), hand) or fish > state.processed[seat] or (fish and not state.pack.options.pay_with_fish):
        raise RuleViolation(problem(state, event, "fleet.payment-cards", "cards in hand and processed fish it has",
                                    f"{', '.join(p['paid']) or 'no cards'} and {fish} fish", seat))
    due = max(0, price - state.discount(seat))
    value = sum(state.pack.coins(c) for c in p["paid"]) + fish
    if value < due:
        raise RuleViolation(problem(state, event, "fleet.payment", f"${due} (${price} less ${state.discount(seat)} discount)",
                                    f"${value}", seat))


def _check_bought(state: State, event: Event, e: list[Any]) -> None:
    p = event.payload
    if p["license"] != e[2]:
        raise RuleViolation(problem(state, event, "fleet.auction-license", e[2], p["license"], e[1]))
    _check_payment(state, event, e[1], e[3])


def _check_launch(state: State, event: Event, e: list[Any]) -> None:
    p, seat = event.payload, e[1]
    if t_pass(event):
        return
    boat = p["boat"]
    if boat not in state.pack.boat or boat not in state.hand[seat]:
        raise RuleViolation(problem(state, event, "fleet.payment-cards", "a boat card in hand", boat, seat))
    if not state.may_launch(seat, boat):
        raise RuleViolation(problem(state, event, "fleet.license-owned", f"a license for the {boat} boat",
                                    ", ".join(state.licenses[seat]) or "no license", seat))
    _check_payment(state, event, seat, state.pack.boat[boat].cost, keep=boat)


def t_pass(event: Event) -> bool:
    return event.type == "step_passed"


def _check_hire(state: State, event: Event, e: list[Any]) -> None:
    p, seat = event.payload, e[1]
    if t_pass(event):
        return
    boats = state.boats[seat]
    if p["card"] not in state.hand[seat] or p["card"] not in state.pack.boat:
        raise RuleViolation(problem(state, event, "fleet.captain", "a boat card from hand", p["card"], seat))
    if not p["boat"] < len(boats) or boats[p["boat"]][1] is not None:
        open_ = ", ".join(str(i) for i in state.open_boats(seat)) or "none"
        raise RuleViolation(problem(state, event, "fleet.captain", f"a boat without a captain ({open_})",
                                    f"boat {p['boat']}", seat))


def _check_fish(state: State, event: Event, e: list[Any]) -> None:
    if sorted(event.payload["boats"]) != e[2]:
        raise RuleViolation(problem(state, event, "fleet.capacity", f"boats {e[2]}", f"boats {event.payload['boats']}", e[1]))


def _check_process(state: State, event: Event, e: list[Any]) -> None:
    if t_pass(event):
        return
    seat, boats = e[1], event.payload["boats"]
    ok = [i for i, b in enumerate(state.boats[seat]) if b[2] > 0]
    if len(set(boats)) != len(boats) or any(b not in ok for b in boats):
        raise RuleViolation(problem(state, event, "fleet.process", f"distinct boats holding fish ({ok})", str(boats), seat))


def _check_trade(state: State, event: Event, e: list[Any]) -> None:
    return  # the expectation already says the seat owns the license and a processed crate


def _check_draw(state: State, event: Event, e: list[Any]) -> None:
    p = event.payload
    if p["reason"] != e[2] or len(p["cards"]) != e[3]:
        raise RuleViolation(problem(state, event, DRAW_RULE[e[2]], f"{e[3]} card(s) ({e[2]})",
                                    f"{len(p['cards'])} card(s) ({p['reason']})", e[1]))
    top = state.deck[: e[3]]
    if p["cards"] != top:
        raise RuleViolation(problem(state, event, "fleet.draw", f"the top cards, {', '.join(top)}", ", ".join(p["cards"]), e[1]))


def _check_discard(state: State, event: Event, e: list[Any]) -> None:
    seat, cards = e[1], event.payload["cards"]
    pool = state.hand[seat] if state.owned(seat, "tuna") else state.just_drawn
    if len(cards) != e[2] or not _fits(Counter(cards), Counter(pool)):
        where = "from hand" if state.owned(seat, "tuna") else f"from the cards just drawn ({', '.join(state.just_drawn)})"
        raise RuleViolation(problem(state, event, "fleet.discard", f"{e[2]} card(s) {where}", ", ".join(cards), seat))


def _check_end(state: State, event: Event, e: list[Any]) -> None:
    if event.payload["reason"] != state.final:
        raise RuleViolation(problem(state, event, "fleet.end", f"reason {state.final}", f"reason {event.payload['reason']}"))


def _nothing(state: State, event: Event, e: list[Any]) -> None:
    return


_CHECKS = {
    "licenses_removed": _check_removed, "license_deck_shuffled": _check_license_deck, "hand_dealt": _check_hand,
    "boat_deck_shuffled": _check_boat_deck, "round_started": _check_round, "auction_opened": _check_open,
    "auction_passed": _nothing, "bid_raised": _check_bid, "bid_dropped": _nothing, "license_bought": _check_bought,
    "boat_launched": _check_launch, "captain_hired": _check_hire, "fish_caught": _check_fish,
    "fish_processed": _check_process, "fish_traded": _check_trade, "cards_drawn": _check_draw,
    "cards_discarded": _check_discard, "game_ended": _check_end,
}


def _check_passed(state: State, event: Event, e: list[Any]) -> None:
    _CHECKS_BY_STEP[event.payload["step"]](state, event, e)


_CHECKS_BY_STEP = {"launch": _check_launch, "hire": _check_hire, "process": _check_process, "trade": _check_trade}
_CHECKS["step_passed"] = _check_passed


# ----------------------------------------------------------------------------- applying


def _pay(state: State, seat: int, paid: Sequence[str], fish: int) -> None:
    for c in paid:
        state.hand[seat].remove(c)
        if c == "gone_fishin":
            state.gone_supply += 1
        else:
            state.discard.append(c)
    state.processed[seat] -= fish


def perform(state: State, event: Event) -> list[Problem]:
    """Apply an event :func:`check` accepted; return the wrong claims it makes."""
    t, p = event.type, event.payload
    found: list[Problem] = []
    seat: int = p.get("seat", 0)
    if t == "licenses_removed":
        for x in p["licenses"]:
            state.licenses_deck.remove(x)
            state.box.append(x)
        state.todo.pop()
    elif t == "license_deck_shuffled":
        want = state.n * state.pack.setup.auction_row_per_player
        state.row = list(p["order"][:want])
        state.licenses_deck = list(p["order"][want:])
        state.todo.pop()
    elif t == "hand_dealt":
        for c in p["cards"]:
            state.deck.remove(c)
        state.hand[seat] += p["cards"]
        state.todo.pop()
    elif t == "boat_deck_shuffled":
        if p["reason"] == "new_deck":
            state.deck = list(p["order"])
            state.todo.pop()
        else:
            state.deck += p["order"]
            state.discard = []
    elif t == "round_started":
        state.todo.pop()
        start_round(state, p["round"], p["first_player"])
    elif t == "auction_opened":
        state.turn += 1
        open_auction(state, seat, p["license"], p["bid"])
    elif t == "auction_passed":
        state.turn += 1
        state.done[seat] = True
        if state.pack.gone_fishin.enabled and state.gone_supply > 0:
            state.gone_supply -= 1
            state.hand[seat].append("gone_fishin")
    elif t == "bid_raised":
        state.turn += 1
        a = state.auction
        assert a is not None
        a["bid"], a["leader"], a["next"] = p["bid"], seat, next_in(a["in"], seat, state.n)
    elif t == "bid_dropped":
        state.turn += 1
        a = state.auction
        assert a is not None
        a["in"].remove(seat)
        a["next"] = next_in(a["in"], seat, state.n)
        if len(a["in"]) == 1:
            a["leader"] = a["in"][0]
    elif t == "license_bought":
        state.turn += 1
        price = state.auction["bid"] if state.auction else 0
        found += _claims(state, event, seat, price)
        _pay(state, seat, p["paid"], p["fish"])
        state.row.remove(p["license"])
        state.licenses[seat].append(p["license"])
        state.done[seat] = True
        state.bought += 1
        state.auction = None
    elif t == "boat_launched":
        state.turn += 1
        found += _claims(state, event, seat, None)
        state.hand[seat].remove(p["boat"])
        _pay(state, seat, p["paid"], p["fish"])
        state.boats[seat].append([p["boat"], None, 0])
        state.launched[seat] += 1
        if state.launched[seat] >= state.max_launches(seat):
            finish_step(state, seat, "launch")
    elif t == "captain_hired":
        state.turn += 1
        state.hand[seat].remove(p["card"])
        state.boats[seat][p["boat"]][1] = p["card"]
        state.hired[seat] += 1
        if state.hired[seat] >= state.max_hires(seat) or not state.open_boats(seat):
            finish_step(state, seat, "hire")
    elif t == "step_passed":
        state.turn += 1
        finish_step(state, seat, p["step"])
    elif t == "cards_drawn":
        del state.deck[: len(p["cards"])]
        state.hand[seat] += p["cards"]
        if p["reason"] == "draw":
            state.just_drawn = list(p["cards"])
        state.todo.pop()
    elif t == "cards_discarded":
        state.turn += 1
        _pay(state, seat, p["cards"], 0)
        state.just_drawn = []
        state.todo.pop()
    elif t == "fish_caught":
        state.phase = "fishing"
        for i in p["boats"]:
            state.boats[seat][i][2] += 1
        state.supply -= len(p["boats"])
        if state.supply <= 0 and p["boats"]:
            state.supply = 0
            state.final = state.final or "fish"
        state.todo.pop()
    elif t == "fish_processed":
        state.turn += 1
        for i in p["boats"]:
            state.boats[seat][i][2] -= 1
        state.processed[seat] += len(p["boats"])
        state.todo.pop()
    elif t == "fish_traded":
        state.turn += 1
        state.phase = "trade"
        state.processed[seat] -= 1
        state.todo.pop()
        k = state.owned(seat, "processing") * state.pack.bonuses.processing_draw
        if k:
            state.todo.append(["draw", seat, "trade", k])
    elif t == "game_ended":
        state.todo.pop()
        found += _end(state, event)
    advance(state)
    return found


def _claims(state: State, event: Event, seat: int, price: int | None) -> list[Problem]:
    p, found = event.payload, []
    if p.get("discount") is not None and p["discount"] != state.discount(seat):
        found.append(problem(state, event, "fleet.claim-discount", str(state.discount(seat)), str(p["discount"]), seat))
    if price is not None and p.get("price") is not None and p["price"] != price:
        found.append(problem(state, event, "fleet.claim-price", str(price), str(p["price"]), seat))
    return found


def _end(state: State, event: Event) -> list[Problem]:
    p, found = event.payload, []
    state.phase = "over"
    state.end_reason = p["reason"]
    state.winners, _ = scoring.winners(state)
    for claim in p["scores"] or ():
        s = claim["seat"]
        if not 0 <= s < state.n:
            found.append(problem(state, event, "fleet.claim-score", f"a seat from 0 to {state.n - 1}", f"seat {s}"))
        else:
            if claim["total"] is not None and claim["total"] != scoring.total(state, s):
                found.append(problem(state, event, "fleet.claim-score", str(scoring.total(state, s)), str(claim["total"]), s))
            parts = scoring.claimed(state, s)
            for k in scoring.CLAIMED:
                if claim.get(k) is not None and claim[k] != parts[k]:
                    found.append(problem(state, event, "fleet.claim-score", f"{parts[k]} VP of {k}", f"{claim[k]}", s))
    if p["winners"] is not None and sorted(set(p["winners"])) != state.winners:
        found.append(problem(state, event, "fleet.claim-winners", ", ".join(name(state, w) for w in state.winners),
                             ", ".join(name(state, w) for w in p["winners"]) or "nobody"))
    return found


# ----------------------------------------------------------------------------- actions


def legal_actions(state: State, seat: int) -> list[str]:
    """Every choice ``seat`` may make now, named as :func:`action_of` names an event. A payment is
    part of a purchase's event, not of its name: ``buy cod`` whichever cards pay for it."""
    e = state.expect
    what = e[0]
    if what not in CHOICES or what in ("fish_caught", "hand_dealt") or e[1] != seat:
        return []
    pack = state.pack
    if what == "auction_open":
        top = power(state, seat)
        return ["pass"] + [f"open {x} {b}" for x in sorted(set(state.row)) for b in range(pack.license[x].cost, top + 1)]
    if what == "bid":
        assert state.auction is not None
        return ["drop"] + [f"raise {b}" for b in range(state.auction["bid"] + 1, power(state, seat) + 1)]
    if what == "license_bought":
        return [f"buy {e[2]}"]
    if what == "launch":
        out = ["pass"]
        for boat in sorted(set(state.hand[seat])):
            if boat in pack.boat and state.may_launch(seat, boat):
                due = max(0, pack.boat[boat].cost - state.discount(seat))
                if state.money(seat) - pack.coins(boat) >= due:
                    out.append(f"launch {boat}")
        return out
    if what == "hire":
        cards = sorted({c for c in state.hand[seat] if c in pack.boat})
        return ["pass"] + [f"hire {c} on {i}" for c in cards for i in state.open_boats(seat)]
    if what == "process":
        ok = [i for i, b in enumerate(state.boats[seat]) if b[2] > 0]
        subsets = [c for k in range(1, len(ok) + 1) for c in combinations(ok, k)]
        return ["pass"] + [f"process {','.join(map(str, c))}" for c in subsets]
    if what == "trade":
        return ["pass", "trade"]
    pool = sorted(state.hand[seat] if state.owned(seat, "tuna") else state.just_drawn)
    return sorted({f"discard {' '.join(c)}" for c in combinations(pool, e[2])})


def action_of(event: Event) -> str | None:
    p, t = event.payload, event.type
    if t == "auction_opened":
        return f"open {p['license']} {p['bid']}"
    if t in ("auction_passed", "step_passed"):
        return "pass"
    if t == "bid_raised":
        return f"raise {p['bid']}"
    if t == "bid_dropped":
        return "drop"
    if t == "license_bought":
        return f"buy {p['license']}"
    if t == "boat_launched":
        return f"launch {p['boat']}"
    if t == "captain_hired":
        return f"hire {p['card']} on {p['boat']}"
    if t == "fish_processed":
        return f"process {','.join(map(str, sorted(p['boats'])))}"
    if t == "fish_traded":
        return "trade"
    if t == "cards_discarded":
        return f"discard {' '.join(sorted(p['cards']))}"
    return None


# ----------------------------------------------------------------------------- the contract


class FleetRules(Rules[State, FleetPack]):
    def start(self, event: Event, pack: FleetPack) -> State:
        p = event.payload
        seats = sorted(p["seats"], key=lambda s: s["seat"])
        n = len(seats)
        if [s["seat"] for s in seats] != list(range(n)) or not 2 <= n <= 4:
            raise RuleViolation(problem(None, event, "fleet.start", "2 to 4 seats numbered 0, 1, ...",
                                        str([s["seat"] for s in p["seats"]])))
        if not p["first_player"] < n:
            raise RuleViolation(problem(None, event, "fleet.start", f"a first player from 0 to {n - 1}", str(p["first_player"])))
        state = State(pack=pack, names=[s["name"] for s in seats], first_player=p["first_player"],
                      hand=[[] for _ in range(n)], licenses=[[] for _ in range(n)], boats=[[] for _ in range(n)],
                      processed=[0] * n, done=[False] * n, launched=[0] * n, hired=[0] * n,
                      supply=pack.setup.fish_per_player * n,
                      gone_supply=pack.gone_fishin.count if pack.gone_fishin.enabled else 0)
        state.licenses_deck = [x.license for x in pack.cards.licenses for _ in range(x.count)]
        state.deck = [b.boat for b in pack.cards.boats for _ in range(b.count)]  # the box, until the shuffle
        state.todo = [["round"], ["shuffle"]] + [["deal", s] for s in reversed(range(n))] + \
            [["license_deck_shuffled"], ["licenses_removed"]]
        state.expect = ["licenses_removed"]
        return state

    def apply(self, state: State, event: Event) -> Sequence[Problem]:
        check(state, event)
        return perform(state, event)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def position(self, state: State, event: Event) -> Position:
        seat = event.payload.get("seat")
        rnd = state.round + 1 if event.type == "round_started" else state.round
        return Position(turn=state.turn or None, round=rnd or None, seat=seat if isinstance(seat, int) else None)

    def legal_actions(self, state: State, seat: int) -> Sequence[str]:
        return legal_actions(state, seat)

    def action_of(self, event: Event) -> str | None:
        return action_of(event)

    def snapshot(self, state: State) -> dict[str, Any]:
        return state.data()

    def restore(self, data: dict[str, Any], pack: FleetPack) -> State:
        return State.of_data(data, pack)
