"""The Pantheon expansion's rules (7 Wonders Duel): checked, then applied, like the base game's
(:mod:`.rules`), which calls in here from small marked hooks. The powers that ask a choice are
in :mod:`.pantheon_powers`.

Kept apart so that the base game's modules hold only those hooks, and everything the expansion
adds to the table lives in one plain dict, ``State.pantheon`` (None when the pack does not play
it). The rules read the pack's data: the board's costs, the Offering discounts, the token slots,
each Divinity's effects from the closed vocabulary; no Divinity is known here by its name.

``State.pantheon`` holds: ``spaces`` (the Pantheon's spaces, left to right as the first player
sees them: None or ``{"divinity", "face_up", "by"}``), ``decks`` (each mythology's Divinities
still in its deck) and ``tops`` (those of them known to lie on top, top first: put back there),
``tokens`` (the tokens still on the Age's face-down slots), ``mythology`` and ``offerings`` (each
seat's tokens), ``drawn`` (Divinities turned up, waiting for a choice), ``enki`` (the progress
tokens on Enki), ``reserve`` (coins on Astarte's card, by seat), ``snake`` (``[seat, card]``),
``minerva`` (the track space of Minerva's pawn), ``opening`` (the start of an Age's own events are
pending) and ``activated`` (each seat's activations, in order: ``{"divinity", "age", "via",
"paid"}``, ``via`` one of ``pantheon``, ``gate``, ``theater``: for analytics).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from replay.errors import RuleViolation
from replay.events import Event
from replay.problems import Problem

from . import pantheon_powers as powers
from . import rules as base
from .pack import MYTHOLOGIES, Card, Divinity, DuelPack, Effect
from .state import PENDING, PLAY, State

RULES = {
    "swd.pantheon.tokens": "Age I's Mythology tokens and Age II's Offering tokens lie one on each of the pack's token "
                           "slots of the Age, drawn from the box's tokens.",
    "swd.pantheon.draw": "A Mythology token draws two Divinities of its mythology from that deck (a Divinity put back "
                         "on top is drawn first); the Gate turns up the top Divinity of each deck.",
    "swd.pantheon.place": "One of the two Divinities drawn goes face down into an empty space of the Pantheon; the other "
                          "goes back on top of its deck.",
    "swd.pantheon.activate": "From Age II on, a player may activate a Divinity (or the Gate) of the Pantheon instead of "
                             "taking a card.",
    "swd.pantheon.offering": "The Offering tokens discarded to lower an activation are tokens the player holds.",
    "swd.pantheon.cost": "An activation costs its space's price for the player (the Gate: double), less the Offerings "
                         "discarded and the Sanctuary's discount, never below 0; the player has the coins (Astarte's "
                         "included).",
    "swd.pantheon.gate": "The Gate activates, for free, one of the Divinities it turned up; the others go back on top "
                         "of their decks.",
    "swd.pantheon.theater": "The Divine Theater activates, for free, a Divinity still in a deck.",
    "swd.pantheon.enki": "Enki gets two progress tokens of those set aside at the start when it is revealed (or first "
                         "activated).",
    "swd.pantheon.power": "A Divinity's power is used on something its text allows (on nothing only when nothing is "
                          "there).",
    "swd.pantheon.engineering": "With Engineering a card that has a chain link may be constructed for 1 coin, chain or not.",
}

TASK_EVENTS = {"pantheon_tokens": "pantheon_tokens_placed", "divinities_drawn": "divinities_drawn",
               "gate_drawn": "divinities_drawn", "place": "divinity_chosen", "gate": "divinity_chosen",
               "theater": "divinity_chosen", "enki_drawn": "enki_drawn", "power": "divinity_power"}
"""The expansion's tasks (queued like the base game's) and the event each waits for."""

POWERS = frozenset({"progress_of_two", "snake", "steal", "discard_from_structure", "discard_wonder_card",
                    "wonder_from_discard", "steal_wonder", "block_pawn", "swap_military_token"})
"""Divinity effects that ask their owner for a choice (a ``divinity_power`` event)."""

POWER_FIELDS = ("card", "slot", "wonder", "token", "space", "discarded", "applied")

_SYMBOL_EFFECTS: dict[str, Effect] = {}


# ----------------------------------------------------------------------------- the pack's data


def divinities(pack: DuelPack) -> dict[str, Divinity]:
    assert pack.pantheon is not None
    return {d.id: d for d in (*pack.pantheon.divinities, pack.pantheon.gate)}


def token_slots(pack: DuelPack, age: int) -> tuple[str, ...]:
    """Age I's Mythology token slots, Age II's Offering token slots (Agora's structures: their own)."""
    assert pack.pantheon is not None
    ts = pack.pantheon.token_slots
    if pack.agora is not None:
        return ts.agora_mythology_slots if age == 1 else ts.agora_offering_slots
    return ts.mythology_slots if age == 1 else ts.offering_slots


def token_supply(pack: DuelPack, age: int) -> Counter[str]:
    """The tokens the slots of Age ``age`` are drawn from: the box's Mythology tokens (the same
    number of each mythology; one each with the pack option ``mythology_tokens: one_of_each``), or
    the Offering tokens (``offering_<coins>``)."""
    assert pack.pantheon is not None
    if age == 1:
        each = 1 if pack.options.mythology_tokens == "one_of_each" else \
            pack.pantheon.components.mythology_tokens // len(MYTHOLOGIES)
        return Counter(dict.fromkeys(MYTHOLOGIES, each))
    return Counter(f"offering_{c}" for c in pack.pantheon.setup.offering_discounts)


def third_age(pack: DuelPack) -> tuple[list[str], int]:
    """The cards shuffled into Age III's deck besides its own, and how many: with Pantheon, Grand
    Temples in place of the guilds."""
    if pack.pantheon is not None:
        return [c.id for c in pack.pantheon.grand_temples], pack.pantheon.setup.grand_temples_in_age_3
    return pack.guilds(), pack.numbers.guilds_per_game


def initial(pack: DuelPack) -> dict[str, Any]:
    assert pack.pantheon is not None
    pan = pack.pantheon
    return {"spaces": [None] * len(pan.board.space_costs),
            "decks": {m: sorted(d.id for d in pan.divinities if d.mythology == m) for m in MYTHOLOGIES},
            "tops": {m: [] for m in MYTHOLOGIES}, "tokens": {}, "mythology": [[], []], "offerings": [[], []],
            "drawn": [], "enki": [], "reserve": [0, 0], "snake": None, "minerva": None, "opening": False,
            "activated": [[], []]}


# ----------------------------------------------------------------------------- small helpers


def _pan(state: State) -> dict[str, Any]:
    assert state.pantheon is not None
    return state.pantheon


def refuse(state: State, event: Event, rule_id: str, expected: str, found: str) -> RuleViolation:
    return base.refuse(state, event, rule_id, expected, found, event.payload.get("seat"))


def spend(state: State, seat: int, amount: int) -> None:
    """Pay ``amount`` coins from the treasury and Astarte's card. Which first is a pack option
    (``options.astarte_coins``): the record names no coins, and the order matters later (a coin on
    Astarte is safe from losses and worth 1 VP, a treasury's coin a third of one)."""
    if state.pantheon is None:
        state.coins[seat] -= amount
        return
    reserve = _pan(state)["reserve"]
    if state.pack.options.astarte_coins == "astarte_first":
        from_astarte = min(amount, reserve[seat])
    else:
        from_astarte = amount - min(amount, state.coins[seat])
    reserve[seat] -= from_astarte
    state.coins[seat] -= amount - from_astarte


def space_of(state: State, divinity: str) -> int | None:
    """The face-up Pantheon space ``divinity`` lies on (None: it is not there, or face down)."""
    for i, space in enumerate(_pan(state)["spaces"]):
        if space is not None and space["divinity"] == divinity and space["face_up"]:
            return i
    return None


def activation_cost(state: State, seat: int, space: int, offerings: list[int]) -> int:
    """The space's price for ``seat`` (the Gate: times its factor), less the offerings and the
    Sanctuary's discount, never below 0."""
    pack = state.pack
    assert pack.pantheon is not None
    price = pack.pantheon.board.space_costs[space][0 if seat == state.first else 1]
    divinity = divinities(pack)[_pan(state)["spaces"][space]["divinity"]]
    for e in divinity.effects:
        if e.type == "gate":
            price *= e.amount
    price -= sum(offerings) + sum(e.amount for _, e in state.effects(seat) if e.type == "divinity_discount")
    return max(0, price)


def chain_symbols(state: State, seat: int) -> set[str]:
    """A Mythology token is the chain link of its Grand Temple."""
    if state.pantheon is None:
        return set()
    return {f"{m}_token" for m in state.pantheon["mythology"][seat]}


def lasting_effects(state: State, seat: int) -> list[tuple[str, Effect]]:
    """The activated Divinities' scientific symbols and the Snake's symbol (while its card stands)."""
    pan = _pan(state)
    table = divinities(state.pack)
    out = [(a["divinity"], e) for a in pan["activated"][seat] for e in table[a["divinity"]].effects
           if e.type == "science"]
    snake = pan["snake"]
    if snake is not None and snake[0] == seat and snake[1] in state.built[1 - seat]:
        symbol = _symbol(state.card(snake[1]))
        if symbol is not None:
            out.append(("snake", _science(symbol)))
    return out


def _symbol(card: Card) -> str | None:
    return next((e.symbol for e in card.effects if e.type == "science" and e.symbol), None)


def _science(symbol: str) -> Effect:
    if symbol not in _SYMBOL_EFFECTS:
        _SYMBOL_EFFECTS[symbol] = Effect(type="science", symbol=symbol)  # type: ignore[arg-type]
    return _SYMBOL_EFFECTS[symbol]


def counted(state: State, seat: int, what: str) -> int | None:
    """Mythology and Offering tokens held (Mysticism counts them); None for anything else."""
    if state.pantheon is None or what not in ("mythology_tokens", "offering_tokens"):
        return None
    return len(state.pantheon["mythology" if what == "mythology_tokens" else "offerings"][seat])


def score(state: State, seat: int) -> int:
    """The Pantheon's VP: the Grand Temples (by how many), the Divinities' own VP and the coins left on Astarte."""
    pack = state.pack
    assert pack.pantheon is not None
    temples = sum(1 for c in state.cards(seat) if c.kind == "grand_temple")
    table = pack.pantheon.components.grand_temple_vp
    vp = table[min(temples, len(table)) - 1] if temples else 0
    by_id = divinities(pack)
    for a in _pan(state)["activated"][seat]:
        for e in by_id[a["divinity"]].effects:
            if e.type == "vp":
                vp += e.amount
            elif e.type == "reserve_coins":
                vp += e.vp * _pan(state)["reserve"][seat]
    return vp


def unseen_tokens(state: State) -> list[str]:
    return [t for t in base.unseen_tokens(state) if t not in _pan(state)["enki"]]


# ----------------------------------------------------------------------------- hooks from the base game


def after_deal(state: State) -> None:
    """An Age laid out: its tokens go on their slots (chance); at Age II's start the Divinities
    are revealed, the Gate fills the empty space, and Enki gets its tokens (chance)."""
    pack, pan = state.pack, _pan(state)
    assert pack.pantheon is not None
    if state.age in (1, 2) and token_slots(pack, state.age):
        state.queue.append(["pantheon_tokens", None, state.age])
    if state.age == pack.pantheon.components.from_age:
        for space in pan["spaces"]:
            if space is not None:
                space["face_up"] = True
        empty = [i for i, space in enumerate(pan["spaces"]) if space is None]
        if empty:
            pan["spaces"][empty[0]] = {"divinity": pack.pantheon.gate.id, "face_up": True, "by": None}
        table = divinities(pack)
        if any(s is not None and _has(table[s["divinity"]], "progress_of_two") for s in pan["spaces"]) \
                and unseen_tokens(state):
            state.queue.append(["enki_drawn", None, None])
    if state.queue:
        pan["opening"] = True
        state.phase = PENDING


def revealed(state: State, slot: str, card: str) -> None:
    """A face-down card turned up: its token goes to the player who uncovered it (a Mythology
    token draws two Divinities at once); a card Zeus discarded face down goes to the discard pile."""
    pan = _pan(state)
    if slot in state.taken:
        from .pantheon_powers import to_discard

        to_discard(state, card)
        return
    token = pan["tokens"].pop(slot, None)
    if token is None:
        return
    seat = state.last_taker
    if token.startswith("offering_"):
        pan["offerings"][seat].append(int(token.removeprefix("offering_")))
        return
    pan["mythology"][seat].append(token)
    if pan["decks"][token] and None in pan["spaces"]:
        state.queue[0:0] = [["divinities_drawn", seat, token], ["place", seat, None]]


def military_moved(state: State, seat: int, before: int) -> None:
    """The pawn moved for ``seat``: Minerva's pawn stops it before its space (then goes); with
    Poliorcetics the opponent loses a coin per space moved."""
    pan = _pan(state)
    direction = 1 if seat == 0 else -1
    block = pan["minerva"]
    if block is not None and 0 < (block - before) * direction <= (state.pawn - before) * direction:
        state.pawn = block - direction
        pan["minerva"] = None
    moved = (state.pawn - before) * direction
    per = sum(e.amount for _, e in state.effects(seat) if e.type == "opponent_loses_per_space")
    if moved > 0 and per:
        state.coins[1 - seat] -= min(state.coins[1 - seat], moved * per)


def engineering(state: State, seat: int, card: Card) -> Problem | int:
    """What constructing ``card`` by Engineering costs (or why it may not be)."""
    coins = [e.amount for _, e in state.effects(seat) if e.type == "chain_for_coins"]
    if not coins or card.chain_from is None:
        return base._bare("swd.pantheon.engineering", "a card with a chain link and the Engineering token",
                          f"{card.id}: " + ("no chain link" if card.chain_from is None else "no Engineering"))
    if coins[0] > state.spendable(seat):
        return base._bare("swd.pay.coins", f"at most {state.spendable(seat)} coins", f"{coins[0]} coins")
    return coins[0]


def wonder_task(state: State, seat: int, e: Effect) -> list[list[Any]]:
    """A Wonder's effect of the expansion: the Divine Theater's choice (when a deck holds a Divinity)."""
    if e.type == "divinity_from_deck" and state.pantheon is not None and any(state.pantheon["decks"].values()):
        return [["theater", seat, None]]
    return []


# ----------------------------------------------------------------------------- checking


def check(state: State, event: Event) -> int | None:
    """Raise RuleViolation if the expansion's ``event`` may not come now; an activation's cost."""
    t, p = event.type, event.payload
    if t == "divinity_activated":
        return _check_activation(state, event)
    task = state.queue[0]
    if t == "pantheon_tokens_placed":
        _check_tokens(state, event)
    elif t == "divinities_drawn":
        _check_drawn(state, event, task)
    elif t == "divinity_chosen":
        _check_chosen(state, event, task)
    elif t == "enki_drawn":
        pool = unseen_tokens(state)
        want = min(_enki_amount(state), len(pool))
        tokens = p["tokens"]
        if len(tokens) != want or len(set(tokens)) != want or not set(tokens) <= set(pool):
            raise refuse(state, event, "swd.pantheon.enki", f"{want} different tokens of " + ", ".join(pool),
                         ", ".join(tokens))
    elif t == "divinity_power":
        options = powers.options(state, task[1], task[2])
        chosen = powers.chosen(p)
        if p["divinity"] != task[2] or chosen not in options:
            raise refuse(state, event, "swd.pantheon.power",
                         f"{task[2]}'s power on " + "; ".join(powers.words(o) for o in options[:12]),
                         f"{p['divinity']}'s power on {powers.words(chosen)}")
    return None


def _check_tokens(state: State, event: Event) -> None:
    p = event.payload
    slots, supply = token_slots(state.pack, state.age), token_supply(state.pack, state.age)
    tokens = p["tokens"]
    if p["age"] != state.age or set(tokens) != set(slots) or Counter(tokens.values()) - supply:
        raise refuse(state, event, "swd.pantheon.tokens",
                     f"Age {state.age}: a token on each of " + ", ".join(slots) + " from " +
                     ", ".join(f"{k} {t}" for t, k in sorted(supply.items())),
                     f"Age {p['age']}: " + ", ".join(f"{s} {t}" for s, t in sorted(tokens.items())))


def _check_drawn(state: State, event: Event, task: list[Any]) -> None:
    p, pan = event.payload, _pan(state)
    drawn = p["divinities"]
    decks, tops = pan["decks"], pan["tops"]
    if task[0] == "divinities_drawn":
        mythology = task[2]
        assert state.pack.pantheon is not None
        want = min(state.pack.pantheon.components.divinities_drawn, len(decks[mythology]))
        first = tops[mythology][:want]
        ok = p["mythology"] == mythology and len(drawn) == len(set(drawn)) == want \
            and set(drawn) <= set(decks[mythology]) and set(first) <= set(drawn)
        expected = f"{want} of the {mythology} deck " + ", ".join(decks[mythology]) + \
            (f" (with {', '.join(first)} from the top)" if first else "")
    else:
        open_decks = [m for m in MYTHOLOGIES if decks[m]]
        by_deck = {m: [d for d in drawn if d in decks[m]] for m in open_decks}
        ok = p["mythology"] is None and len(drawn) == len(open_decks) and all(len(v) == 1 for v in by_deck.values()) \
            and all(not tops[m] or by_deck[m] == tops[m][:1] for m in open_decks)
        expected = "the top Divinity of each deck: " + "; ".join(
            f"{m} " + (tops[m][0] if tops[m] else "one of " + ", ".join(decks[m])) for m in open_decks)
    if not ok:
        raise refuse(state, event, "swd.pantheon.draw", expected,
                     f"{p['mythology'] or 'the Gate'}: " + ", ".join(drawn))


def _check_chosen(state: State, event: Event, task: list[Any]) -> None:
    p, pan = event.payload, _pan(state)
    what = task[0]
    if what == "place":
        empty = [i for i, s in enumerate(pan["spaces"]) if s is None]
        if p["divinity"] not in pan["drawn"] or p["space"] not in empty:
            raise refuse(state, event, "swd.pantheon.place", "one of " + ", ".join(pan["drawn"]) + " into space " +
                         " or ".join(map(str, empty)), f"{p['divinity']} into space {p['space']}")
    elif what == "gate":
        if p["divinity"] not in pan["drawn"] or p["space"] is not None:
            raise refuse(state, event, "swd.pantheon.gate", "one of " + ", ".join(pan["drawn"]) + " (no space)",
                         f"{p['divinity']}" + (f" into space {p['space']}" if p["space"] is not None else ""))
    else:
        in_decks = sorted(d for deck in pan["decks"].values() for d in deck)
        if p["divinity"] not in in_decks or p["space"] is not None:
            raise refuse(state, event, "swd.pantheon.theater", "one of " + ", ".join(in_decks) + " (no space)",
                         f"{p['divinity']}" + (f" into space {p['space']}" if p["space"] is not None else ""))


def _check_activation(state: State, event: Event) -> int:
    p, pan = event.payload, _pan(state)
    seat = p["seat"]
    pack = state.pack
    assert pack.pantheon is not None
    from_age = pack.pantheon.components.from_age
    if state.age < from_age or p["age"] != state.age:
        raise refuse(state, event, "swd.pantheon.activate", f"an activation from Age {from_age} on, in Age {state.age}",
                     f"Age {p['age']}")
    space = space_of(state, p["divinity"])
    if space is None:
        here = [s["divinity"] for s in pan["spaces"] if s is not None and s["face_up"]]
        raise refuse(state, event, "swd.pantheon.activate", "one of " + (", ".join(here) or "none"), p["divinity"])
    if Counter(p["offerings"]) - Counter(pan["offerings"][seat]):
        raise refuse(state, event, "swd.pantheon.offering", "offerings of " + (", ".join(map(str, pan["offerings"][seat]))
                                                                             or "none"), ", ".join(map(str, p["offerings"])))
    cost = activation_cost(state, seat, space, p["offerings"])
    if cost > state.spendable(seat):
        raise refuse(state, event, "swd.pantheon.cost", f"at most {state.spendable(seat)} coins", f"{cost} coins")
    return cost


def _has(divinity: Divinity, effect_type: str) -> bool:
    return any(e.type == effect_type for e in divinity.effects)


def _enki_amount(state: State) -> int:
    return max(e.amount for d in divinities(state.pack).values() for e in d.effects if e.type == "progress_of_two")


# ----------------------------------------------------------------------------- applying


def perform(state: State, event: Event, paid: int | None) -> list[Problem]:
    """Apply an expansion event :func:`check` accepted; the wrong claims it makes."""
    t, p, pan = event.type, event.payload, _pan(state)
    if t == "divinity_activated":
        return _activated(state, event, paid or 0)
    task = state.queue.pop(0)
    if t == "pantheon_tokens_placed":
        pan["tokens"] = dict(p["tokens"])
    elif t == "divinities_drawn":
        for d in p["divinities"]:
            mythology = divinities(state.pack)[d].mythology
            pan["decks"][mythology].remove(d)
            if d in pan["tops"][mythology]:
                pan["tops"][mythology].remove(d)
        pan["drawn"] = list(p["divinities"])
    elif t == "divinity_chosen":
        _chosen(state, p, task[0])
    elif t == "enki_drawn":
        pan["enki"] = list(p["tokens"])
        state.seen_tokens += p["tokens"]
    else:
        powers.use(state, p)
    _settle(state)
    return []


def _settle(state: State) -> None:
    pan = _pan(state)
    if pan["opening"] and not state.queue and state.victory is None:
        pan["opening"] = False
        state.phase = PLAY
        return
    base.settle(state)


def _chosen(state: State, p: dict[str, Any], what: str) -> None:
    pan, seat = _pan(state), p["seat"]
    table = divinities(state.pack)
    if what == "theater":
        mythology = table[p["divinity"]].mythology
        pan["decks"][mythology].remove(p["divinity"])
        pan["tops"][mythology] = []
        activate(state, seat, p["divinity"], "theater", 0)
        return
    for other in pan["drawn"]:
        if other != p["divinity"]:
            mythology = table[other].mythology
            pan["decks"][mythology] = sorted([*pan["decks"][mythology], other])
            pan["tops"][mythology].insert(0, other)
    pan["drawn"] = []
    if what == "place":
        pan["spaces"][p["space"]] = {"divinity": p["divinity"], "face_up": False, "by": seat}
    else:
        activate(state, seat, p["divinity"], "gate", 0)


def _activated(state: State, event: Event, paid: int) -> list[Problem]:
    p, pan = event.payload, _pan(state)
    seat = p["seat"]
    space = space_of(state, p["divinity"])
    assert space is not None
    for o in p["offerings"]:
        pan["offerings"][seat].remove(o)
    spend(state, seat, paid)
    pan["spaces"][space] = None
    state.turn += 1
    state.last_taker = seat
    activate(state, seat, p["divinity"], "pantheon", paid)
    found = []
    if p.get("paid") is not None and p["paid"] != paid:
        found.append(base.problem(state, event, "swd.claim.paid", f"{paid} coins", f"{p['paid']} coins", seat))
    base.settle(state)
    return found


def activate(state: State, seat: int, divinity_id: str, via: str, paid: int) -> None:
    """``seat`` activates a Divinity: recorded (for analytics), its effects applied or queued first."""
    pan = _pan(state)
    pan["activated"][seat].append({"divinity": divinity_id, "age": state.age, "via": via, "paid": paid})
    tasks: list[list[Any]] = []
    for e in divinities(state.pack)[divinity_id].effects:
        if e.type == "gate":
            if any(pan["decks"].values()):
                tasks += [["gate_drawn", seat, None], ["gate", seat, None]]
        elif e.type == "progress_of_two":
            if not pan["enki"] and unseen_tokens(state):
                tasks.append(["enki_drawn", None, None])
            if pan["enki"] or unseen_tokens(state):
                tasks.append(["power", seat, divinity_id])
        elif e.type == "science" and e.symbol is not None:
            base.science(state, seat, e.symbol)
        elif e.type == "reserve_coins":
            pan["reserve"][seat] += e.amount
        elif e.type == "coins":
            state.coins[seat] += e.amount
        elif e.type == "shields":
            base.military(state, seat, e.amount)
        elif e.type == "build_from_discard":
            tasks.append(["discard_build", seat, None])
        elif e.type in POWERS:
            tasks.append(["power", seat, divinity_id])
    if state.victory is None:
        state.queue[0:0] = tasks
