"""7 Wonders Duel (the base game) on the game contract: each event checked against the rules, then applied.

An illegal event changes nothing and raises :class:`RuleViolation`; wrong claims (coins paid, the
Conflict pawn, the coins looted, the scores, the victory) are returned after the event is
applied, the rules' value standing. An expansion whose rules are not implemented (in
``IMPLEMENTED``) is refused at the start. The expansions' rules live in :mod:`.pantheon` and
:mod:`.agora`, called from hooks marked ``# Pantheon`` and ``# Agora``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay.contract import Position, Rules
from replay.errors import PackError, RuleViolation
from replay.events import Event
from replay.games.explain import rule_problem
from replay.problems import Location, Problem

from . import pantheon
from .city import check_payment, own_coins
from .pack import Card, Cost, DuelPack
from .scoring import per_total, scores, winners
from .state import DEAL, DRAFT, OVER, PENDING, PLAY, SCORE, STARTER, TOKENS, State

RULES = {
    "swd.start": "Two seats, 0 and 1; the first player is one of them.",
    "swd.expansion": "A game whose pack plays an expansion whose rules are not implemented yet is refused at the "
                     "start.",
    "swd.pack": "A game is played under a pack whose every part it uses is known.",
    "swd.expected": "Events come in the order the rules give: the setup, the draft, each Age's deal, the turns and "
                    "what each turn leads to, the start of the next Age, the end.",
    "swd.tokens": "Five different progress tokens of the pack are laid face up on the board.",
    "swd.draft.reveal": "Each set of the draft turns up four different Wonders of the pack never turned up before.",
    "swd.draft.pick": "The draft goes first player, second, second, first (the second set: second, first, first, "
                      "second), each taking a Wonder on offer.",
    "swd.deal": "An Age's structure gets a card of that Age's deck in each face-up slot, each card once (Age III: "
                "with at most three guilds), the three removed cards never.",
    "swd.reveal": "A face-down card is turned up when no card covers it, and it is a card of the Age's deck not yet seen.",
    "swd.turn": "The player whose turn it is plays (the other one, or the same after a replay), in the Age being played.",
    "swd.available": "The card taken is the card of a slot of the structure that no card covers.",
    "swd.chain": "A building is free through its chain only when the city has a building with that chain symbol.",
    "swd.wonder": "A Wonder is built by its owner, once, while fewer than seven are built (the eighth is then out).",
    "swd.pay.free": "Nothing is chosen, left out or bought for a discard or a building free by its chain.",
    "swd.pay.choice": "Each of the city's choice producers (yellow cards, Wonders) gives one of its resources a turn.",
    "swd.pay.discount": "Resources of a cost are left out only by Masonry (blue cards) and Architecture (Wonders) "
                        "(Agora: and the Decrees of one cost symbol less), as many as they allow.",
    "swd.pay.resources": "The resources used pay the whole cost: the city's own, those left out, those bought.",
    "swd.pay.coins": "The coins paid (the cost and the resources bought) never exceed what the player has.",
    "swd.progress": "A progress token is taken from the board by the player who has just made a new pair of "
                    "symbols (the Great Library: from the tokens it drew), once.",
    "swd.library": "The Great Library draws three different tokens among those set aside at the start.",
    "swd.destroy": "The card destroyed is one of the opponent's of the Wonder's colour, or none when they have none.",
    "swd.discard-built": "The Mausoleum builds a card of the discard pile, or none when the pile is empty.",
    "swd.starter": "The player the Conflict pawn is nearer to (at the centre: who took the Age's last card) chooses "
                   "who starts the next Age.",
    "swd.claim.paid": "The coins written as paid are what the play costs.",
    "swd.claim.military": "The Conflict pawn and the coins looted are what the shields give, each military token once.",
    "swd.claim.score": "A score written down is the score the rules give.",
    "swd.claim.victory": "The victory and the winners written down are those the rules give.",
    "swd.game-over": "Nothing happens after the game has ended.",
}

IMPLEMENTED = frozenset({"pantheon", "agora"})
"""The expansions whose rules are implemented: a pack that plays another is refused (``swd.expansion``)."""
TOGETHER = True
"""Whether Pantheon and Agora may be played in one game (pack ``7wd-duel-pantheon-agora``): yes, their
interactions are implemented in the expansions' modules (docs/games/7-wonders-duel.md, "Pantheon and
Agora together"); off, the combined pack is refused at the start (``swd.expansion``)."""

TASK_EVENTS = {"progress": "progress_taken", "library": "progress_taken", "draw": "tokens_drawn",
               "destroy": "card_destroyed", "discard_build": "discard_built", "reveal": "card_revealed"}

# --- Pantheon: its rules, its tasks
RULES.update(pantheon.RULES)
TASK_EVENTS.update(pantheon.TASK_EVENTS)


def problem(state: State | None, event: Event, rule_id: str, expected: str, found: str, seat: Any = None) -> Problem:
    return rule_problem(RULES, rule_id, expected, found, event, state.names if state else [], seat,
                        state.turn or None if state else None)


def refuse(state: State, event: Event, rule_id: str, expected: str, found: str, seat: Any = None) -> RuleViolation:
    return RuleViolation(problem(state, event, rule_id, expected, found, seat))


# ----------------------------------------------------------------------------- what is expected


def drafter(state: State) -> int:
    side = state.pack.numbers.draft[state.draft_set - 1][state.picks]
    return state.first if side == "first" else 1 - state.first


def expected(state: State) -> tuple[str, int | None]:
    """The event the rules wait for, and the seat that makes it (None: chance or the table)."""
    # --- Agora: what the expansion waits for comes first
    if state.agora is not None:
        waiting = agora.expected_task(state)
        if waiting is not None:
            return waiting
    # --- end Agora
    if state.phase == TOKENS:
        return "tokens_revealed", None
    if state.phase == DRAFT:
        return ("wonder_picked", drafter(state)) if state.offered else ("wonders_revealed", None)
    if state.phase == DEAL:
        return "age_dealt", None
    if state.phase == PLAY:
        return "card_played", state.player
    if state.phase == PENDING:
        what, seat = state.queue[0][0], state.queue[0][1]
        return TASK_EVENTS[what], seat
    if state.phase == STARTER:
        return "starter_chosen", state.chooser
    if state.phase == SCORE:
        return "game_ended", None
    return "", None


def expected_words(state: State) -> str:
    t, seat = expected(state)
    if not t:
        return "no event (the game is over)"
    if t == "card_revealed":
        return f"card_revealed of slot {state.queue[0][2]}"
    if t == "wonders_revealed":
        return f"wonders_revealed {state.draft_set + 1}"
    if t == "age_dealt":
        return f"age_dealt {state.age + 1}"
    return t + (f" by {state.names[seat]}" if seat is not None else "")


def age_deck(pack: DuelPack, age: int) -> tuple[set[str], set[str]]:
    """The Age's cards and (Age III) the guilds that may join them."""
    return set(pack.deck(age)), set(pantheon.third_age(pack)[0]) if age == 3 else set()


# ----------------------------------------------------------------------------- checking


def check(state: State, event: Event) -> int | None:
    """Raise RuleViolation if ``event`` may not come now; change nothing. For a ``card_played``,
    the coins it costs (so that applying it does not judge it again)."""
    t, p = event.type, event.payload
    if state.phase == OVER:
        raise refuse(state, event, "swd.game-over", "no event", t)
    wanted, seat = expected(state)
    # --- Agora: the expansion's own events
    if state.agora is not None and t in AGORA_TYPES:
        return agora.check(state, event)
    # --- end Agora
    if state.pantheon is not None and t == "divinity_activated" and wanted == "card_played":  # Pantheon
        wanted = t
    if t != wanted:
        raise refuse(state, event, "swd.expected", expected_words(state), t, p.get("seat"))
    if seat is not None and p.get("seat") != seat:
        rule = "swd.turn" if t == "card_played" else "swd.draft.pick" if t == "wonder_picked" else \
            "swd.starter" if t == "starter_chosen" else "swd.expected"
        raise refuse(state, event, rule, expected_words(state), f"{t} by seat {p.get('seat')}", p.get("seat"))
    if t == "tokens_revealed":
        _check_tokens(state, event)
    elif t == "wonders_revealed":
        _check_wonders(state, event)
    elif t == "wonder_picked" and p["wonder"] not in state.offered:
        raise refuse(state, event, "swd.draft.pick", "one of " + ", ".join(state.offered), p["wonder"], seat)
    elif t == "age_dealt":
        _check_deal(state, event)
    elif t == "card_revealed":
        _check_reveal(state, event)
    elif t == "card_played":
        return _check_play(state, event)
    elif t == "progress_taken":
        _check_progress(state, event)
    elif t == "tokens_drawn":
        _check_drawn(state, event)
    elif t in ("card_destroyed", "discard_built"):
        options = choices_of(state)
        if (p["card"] is None and options) or (p["card"] is not None and p["card"] not in options):
            rule = "swd.destroy" if t == "card_destroyed" else "swd.discard-built"
            raise refuse(state, event, rule, "one of " + (", ".join(options) or "none"), str(p["card"]), seat)
    elif t in pantheon.TASK_EVENTS.values() or t == "divinity_activated":  # Pantheon
        return pantheon.check(state, event)
    # --- Agora: the Senators of the Age decks
    if state.agora is not None and t in ("age_dealt", "card_revealed"):
        agora.check_senators(state, event)
    # --- end Agora
    return None


def _check_tokens(state: State, event: Event) -> None:
    tokens = event.payload["tokens"]
    known = {t.id for t in state.pack.all_progress_tokens}
    want = state.pack.numbers.progress_on_board
    if len(tokens) != want or len(set(tokens)) != len(tokens) or not set(tokens) <= known:
        raise refuse(state, event, "swd.tokens", f"{want} different tokens of " + ", ".join(sorted(known)),
                     ", ".join(tokens))


def _check_wonders(state: State, event: Event) -> None:
    p = event.payload
    if p["set"] != state.draft_set + 1:
        raise refuse(state, event, "swd.expected", f"wonders_revealed {state.draft_set + 1}", f"wonders_revealed {p['set']}")
    wonders, pack = p["wonders"], state.pack
    before = set(state.wonders[0]) | set(state.wonders[1])
    fresh = {w.id for w in pack.all_wonders} - before
    want = pack.numbers.wonders_per_player
    if len(wonders) != want or len(set(wonders)) != len(wonders) or not set(wonders) <= fresh:
        raise refuse(state, event, "swd.draft.reveal", f"{want} different Wonders of " + ", ".join(sorted(fresh)),
                     ", ".join(wonders))


def _check_deal(state: State, event: Event) -> None:
    p = event.payload
    age, cards = p["age"], p["cards"]
    if age != state.age + 1:
        raise refuse(state, event, "swd.expected", f"age_dealt {state.age + 1}", f"age_dealt {age}")
    layout = state.pack.layout(age)
    face_up = {s.id for s in layout.slots if s.face_up}
    if set(cards) != face_up:
        raise refuse(state, event, "swd.deal", "the face-up slots " + ", ".join(sorted(face_up)),
                     ", ".join(sorted(cards)))
    wrong = _deck_problem(state.pack, age, list(cards.values()))
    if wrong:
        raise refuse(state, event, "swd.deal", f"cards of the Age {age} deck", wrong)


def _deck_problem(pack: DuelPack, age: int, seen: list[str]) -> str | None:
    """What is wrong with ``seen`` as cards turned up in Age ``age``'s structure (None: nothing)."""
    plain, guilds = age_deck(pack, age)
    seen = agora.without_senators(pack, seen)  # Agora: Senators are checked apart
    if len(set(seen)) != len(seen):
        return "a card twice: " + ", ".join(sorted({c for c in seen if seen.count(c) > 1}))
    unknown = [c for c in seen if c not in plain and c not in guilds]
    if unknown:
        return "not in this deck: " + ", ".join(unknown)
    in_deck = sum(1 for c in seen if c in plain)
    if in_deck > len(plain) - pack.numbers.removed_per_age:
        return f"{in_deck} cards of the deck of {len(plain)} (three are removed unseen)"
    if sum(1 for c in seen if c in guilds) > pantheon.third_age(pack)[1]:
        return f"more than {pantheon.third_age(pack)[1]} " + ("Grand Temples" if pack.pantheon else "guilds")
    return None


def _check_reveal(state: State, event: Event) -> None:
    p = event.payload
    slot = state.queue[0][2]
    if p["age"] != state.age or p["slot"] != slot:
        raise refuse(state, event, "swd.reveal", f"Age {state.age}, slot {slot}", f"Age {p['age']}, slot {p['slot']}")
    wrong = _deck_problem(state.pack, state.age, [*state.seen, p["card"]])
    if not wrong and agora_plots.is_removed(state, p["card"]):  # Agora: Treason turned it up among the removed cards
        wrong = f"{p['card']} was removed from the deck at the setup (Treason turned it up)"
    if wrong:
        raise refuse(state, event, "swd.reveal", f"a card of the Age {state.age} deck not yet seen", wrong)


def check_taken(state: State, event: Event) -> None:
    """A turn that takes a card (played, or with Agora: recruited, or under a conspiracy prepared):
    in the Age being played, from a slot no card covers, the card that lies there."""
    p, seat = event.payload, event.payload["seat"]
    if p["age"] != state.age:
        raise refuse(state, event, "swd.turn", f"Age {state.age}", f"Age {p['age']}", seat)
    available = state.available()
    if p["slot"] not in available or state.slots.get(p["slot"]) != p["card"]:
        raise refuse(state, event, "swd.available", "one of " + ", ".join(f"{s} {state.slots[s]}" for s in available),
                     f"{p['slot']} {p['card']}", seat)


def _check_play(state: State, event: Event) -> int:
    p = event.payload
    seat = p["seat"]
    check_taken(state, event)
    outcome = judge(state, seat, p)
    if isinstance(outcome, Problem):
        raise RuleViolation(problem(state, event, outcome.rule_id, outcome.expected or "", outcome.found or "", seat))
    return outcome


def judge(state: State, seat: int, p: dict[str, Any]) -> Problem | int:
    """Whether ``seat`` may play ``p`` (a ``card_played`` payload) now: the problem, or the coins it
    costs. Legal actions and the checks share it."""
    action, free = p["action"], p.get("free")
    if state.agora is not None and agora.is_senator(state, p["card"]):  # Agora: a Senator card
        return agora.judge_senator_card(state, seat, p)
    paid_for = bool(p.get("choices") or p.get("discount") or p.get("bought"))
    card = state.pack.by_id.get(p["card"])
    if card is None or card.cost is None:
        return _bare("swd.available", "a card of the pack", p["card"])
    if (action == "discard" or free is not None) and paid_for:
        return _bare("swd.pay.free", "nothing chosen, left out or bought", "a payment")
    if action != "wonder" and p.get("wonder") is not None:
        return _bare("swd.wonder", f"no Wonder for a card to {action}", p["wonder"])
    if action == "discard":
        return _bare("swd.chain", "a discard with nothing free", "free by chain") if free is not None else 0
    if action == "construct":
        if free == "chain":
            if card.chain_from is None or card.chain_from not in chain_symbols(state, seat):
                return _bare("swd.chain", f"a building with the chain symbol {card.chain_from or '(none: it has no chain)'}",
                             "none in the city")
            return 0
        if free == "engineering":  # Pantheon
            return pantheon.engineering(state, seat, card)
        return _pay(state, seat, card.cost, card.colour, p)
    if free is not None:
        return _bare("swd.chain", "a Wonder paid for", "free by chain")
    return judge_wonder(state, seat, p)


def judge_wonder(state: State, seat: int, p: dict[str, Any]) -> Problem | int:
    """A Wonder built with the turn's card (a card or a Senator): one the seat may build, paid
    for as its cost asks. Returns the coins paid, or the problem."""
    wonder = p.get("wonder")
    if wonder not in buildable_wonders(state, seat):
        return _bare("swd.wonder", "one of " + (", ".join(buildable_wonders(state, seat)) or "none"), str(wonder))
    cost = state.pack.wonder_by_id[wonder].cost
    assert cost is not None
    return _pay(state, seat, cost, "wonder", p)


def _pay(state: State, seat: int, cost: Cost, target: str | None, p: dict[str, Any]) -> Problem | int:
    found, trade = check_payment(state, seat, cost, target, p.get("choices") or {}, p.get("discount") or {},
                                 p.get("bought") or {})
    if found is not None:
        return _bare(found.rule_id, found.expected, found.found)
    return own_coins(cost, p.get("discount") or {}) + trade


def _bare(rule_id: str, expected: str, found: str) -> Problem:
    return Problem(rule_id, RULES[rule_id], expected, found, Location())


def chain_symbols(state: State, seat: int) -> set[str]:
    own = {c.chain_gives for c in state.cards(seat) if c.chain_gives} | pantheon.chain_symbols(state, seat)
    if state.agora is not None and state.has(seat, "opponent_chains"):  # Agora: a Decree
        own |= {c.chain_gives for c in state.cards(1 - seat) if c.chain_gives}
    return own


def buildable_wonders(state: State, seat: int) -> list[str]:
    """``seat``'s Wonders it may still build."""
    return [w for w in state.wonders[seat] if w not in state.built_wonders[seat] and w not in state.wonders_out]


def choices_of(state: State) -> list[str]:
    """The cards the task at the head of the queue may take: the opponent's cards of the Wonder's
    colours (destroy), the discard pile (Mausoleum)."""
    what, seat, detail = state.queue[0]
    if what == "destroy":
        return sorted(c.id for c in state.cards(1 - seat) if c.colour in detail)
    if what == "discard_build":
        return sorted(set(state.discard))
    return []


def unseen_tokens(state: State) -> list[str]:
    return sorted(t.id for t in state.pack.all_progress_tokens if t.id not in state.seen_tokens)


def _check_progress(state: State, event: Event) -> None:
    p = event.payload
    what = state.queue[0][0]
    source, pool = ("board", state.board_tokens) if what == "progress" else ("box", state.drawn)
    if p["source"] != source or p["token"] not in pool:
        raise refuse(state, event, "swd.progress", f"a token from the {source}: " + ", ".join(pool),
                     f"{p['token']} from the {p['source']}", p["seat"])


def _check_drawn(state: State, event: Event) -> None:
    tokens = event.payload["tokens"]
    pool = unseen_tokens(state)
    want = min(state.queue[0][2], len(pool))
    if len(tokens) != want or len(set(tokens)) != len(tokens) or not set(tokens) <= set(pool):
        raise refuse(state, event, "swd.library", f"{want} different tokens of " + ", ".join(pool), ", ".join(tokens))


# ----------------------------------------------------------------------------- applying


def perform(state: State, event: Event, paid: int | None = None) -> list[Problem]:
    """Apply an event :func:`check` accepted (``paid``: what it said a ``card_played`` costs);
    return the wrong claims it makes."""
    t, p = event.type, event.payload
    found: list[Problem] = []
    # --- Agora: the expansion's own events, and the Senators turned up
    if state.agora is not None:
        if t in AGORA_TYPES:
            return agora.perform(state, event, paid)
        if t in ("age_dealt", "card_revealed"):
            agora.seen_cards(state, event)
    # --- end Agora
    if t == "tokens_revealed":
        state.board_tokens = list(p["tokens"])
        state.seen_tokens = list(p["tokens"])
        state.phase = DRAFT
    elif t == "wonders_revealed":
        state.draft_set, state.picks, state.offered = p["set"], 0, list(p["wonders"])
    elif t == "wonder_picked":
        state.wonders[p["seat"]].append(p["wonder"])
        state.offered.remove(p["wonder"])
        state.picks += 1
        if state.agora is not None:  # Agora: a Wonder's effects when selected
            agora.wonder_picked(state, p["seat"], p["wonder"])
        if not state.offered and state.draft_set == len(state.pack.numbers.draft):
            state.phase = DEAL
    elif t == "age_dealt":
        state.age = p["age"]
        state.slots = {s.id: p["cards"].get(s.id) for s in state.pack.layout(state.age).slots}
        state.taken, state.seen = [], list(p["cards"].values())
        state.phase = PLAY
        if state.pantheon is not None:  # Pantheon: the Age's tokens, the Divinities revealed
            pantheon.after_deal(state)
    elif t == "starter_chosen":
        state.player = p["starts"]
        state.phase = DEAL
    elif t == "card_played":
        assert paid is not None
        found = _played(state, event, paid)
    elif t == "game_ended":
        found = _game_ended(state, event)
    elif t in pantheon.TASK_EVENTS.values() or t == "divinity_activated":  # Pantheon
        found = pantheon.perform(state, event, paid)
    else:
        _task_done(state, event)
    return found


def _played(state: State, event: Event, paid: int) -> list[Problem]:
    looted = resolve_play(state, event.payload, paid)
    found = _claims(state, event, paid, looted)
    settle(state)
    return found


def claims_of(state: State, p: dict[str, Any]) -> dict[str, int]:
    """The claims a legal ``card_played`` payload should carry: the coins paid, the pawn after it, the coins looted."""
    table = State.of_data(state.data(), state.pack)
    paid = judge(table, p["seat"], p)
    assert isinstance(paid, int), paid
    looted = resolve_play(table, p, paid)
    return {"paid": paid, "pawn": table.pawn, "looted": looted}


def resolve_play(state: State, p: dict[str, Any], paid: int) -> int:
    """Take the card, pay, build or discard, queue what follows; the coins looted by military tokens."""
    if state.agora is not None and agora.is_senator(state, p["card"]):  # Agora: a Senator card
        return agora.resolve_senator_card(state, p, paid)
    seat, card = p["seat"], state.card(p["card"])
    state.taken.append(p["slot"])
    state.last_taker = seat
    state.turn += 1
    looted = 0
    if p["action"] == "discard":
        state.discard.append(card.id)
        numbers = state.pack.numbers
        state.coins[seat] += numbers.discard_coins + numbers.discard_coins_per_yellow * state.colour_count(seat, "yellow")
        if state.agora is not None:  # Agora: a Decree
            state.coins[seat] += sum(e.amount for _, e in state.effects(seat) if e.type == "discard_bonus")
    else:
        pantheon.spend(state, seat, paid)  # Pantheon: Astarte's coins may pay too
        cost = state.pack.wonder_by_id[p["wonder"]].cost if p["action"] == "wonder" else card.cost
        trade = paid - (own_coins(cost, p.get("discount") or {}) if cost and paid else 0)  # Agora: coins left out
        if p.get("free") == "engineering":  # Pantheon: Engineering's coin buys nothing from the bank
            trade = 0
        if trade and state.has(1 - seat, "trade_income"):
            state.coins[1 - seat] += trade
        if p["action"] == "construct":
            looted = build(state, seat, card, chain=p.get("free") == "chain")
        else:
            looted = _wonder_built(state, seat, p["wonder"], card.id)
    if state.victory is None:
        layout = state.pack.layout(state.age)
        state.queue += [["reveal", None, s] for s in layout.available(frozenset(state.taken)) if state.slots[s] is None]
    return looted


def _claims(state: State, event: Event, paid: int, looted: int) -> list[Problem]:
    p, seat = event.payload, event.payload["seat"]
    found = []
    if p.get("paid") is not None and p["paid"] != paid:
        found.append(problem(state, event, "swd.claim.paid", f"{paid} coins", f"{p['paid']} coins", seat))
    if p.get("pawn") is not None and p["pawn"] != state.pawn:
        found.append(problem(state, event, "swd.claim.military", f"the pawn at {state.pawn}", f"at {p['pawn']}", seat))
    if p.get("looted") is not None and p["looted"] != looted:
        found.append(problem(state, event, "swd.claim.military", f"{looted} coins looted", f"{p['looted']}", seat))
    return found


def build(state: State, seat: int, card: Card, chain: bool = False) -> int:
    """Construct ``card`` in ``seat``'s city and apply what it does at once; the coins looted."""
    state.built[seat].append(card.id)
    looted = 0
    bonus = sum(e.amount for _, e in state.effects(seat) if e.type == "shield_bonus") if card.colour == "red" else 0
    for e in card.effects:
        if e.type == "coins":
            state.coins[seat] += e.amount
        elif e.type == "per" and e.coins:
            state.coins[seat] += per_total(state, seat, e, "coins")
        elif e.type == "shields":
            looted += military(state, seat, e.amount + bonus)
        elif e.type == "science" and e.symbol is not None:
            science(state, seat, e.symbol)
    if chain:
        state.coins[seat] += sum(e.amount for _, e in state.effects(seat) if e.type == "chain_coins")
    if state.agora is not None:  # Agora: the Decrees paying for buildings
        agora.on_built(state, card.colour)
    return looted


def science(state: State, seat: int, symbol: str) -> None:
    """A new symbol: scientific supremacy, or a pair (a token from the board, once per symbol)."""
    numbers = state.pack.numbers
    symbols = state.symbols(seat)
    if len(set(symbols)) >= numbers.science_supremacy:
        _won(state, seat, "science")
    elif symbols.count(symbol) >= numbers.science_pair and symbol not in state.pairs[seat]:
        state.pairs[seat].append(symbol)
        if state.board_tokens:
            state.queue.insert(0, ["progress", seat, "board"])


def military(state: State, seat: int, shields: int) -> int:
    """Move the Conflict pawn ``shields`` spaces towards the opponent's capital; the coins its military tokens loot."""
    track = state.pack.military
    direction = 1 if seat == 0 else -1
    before = state.pawn
    state.pawn = max(-track.capital, min(track.capital, state.pawn + direction * shields))
    if state.pantheon is not None:  # Pantheon: Minerva, Poliorcetics
        pantheon.military_moved(state, seat, before)
    distance = state.pawn * direction
    opponent = 1 - seat
    looted = 0
    for token in track.tokens:
        if token.id in state.loot[opponent] and distance >= token.space:
            state.loot[opponent].remove(token.id)
            loss = min(state.coins[opponent], token.coins)
            state.coins[opponent] -= loss
            looted += loss
    if state.agora is not None:  # Agora: its military tokens give Senate actions
        agora.military_tokens(state, seat, distance)
    if distance >= track.capital:
        _won(state, seat, "military")
    return looted


def _won(state: State, seat: int, how: str) -> None:
    if state.victory is None:
        state.victory, state.winners = how, [seat]
        state.queue = []


def _wonder_built(state: State, seat: int, wonder_id: str, card_id: str) -> int:
    pack = state.pack
    state.built_wonders[seat].append(wonder_id)
    state.under[seat].append(card_id)
    if sum(len(b) for b in state.built_wonders) >= pack.numbers.wonders_built_max:
        state.wonders_out = sorted(w for s in (0, 1) for w in state.wonders[s] if w not in state.built_wonders[s])
    looted = 0
    tasks: list[list[Any]] = []
    for e in pack.wonder_by_id[wonder_id].effects:
        if e.type == "coins":
            state.coins[seat] += e.amount
        elif e.type == "opponent_loses_coins":
            state.coins[1 - seat] -= min(state.coins[1 - seat], e.amount)
        elif e.type == "shields":
            looted += military(state, seat, e.amount)
        elif e.type == "replay":
            state.again = True
        elif e.type == "destroy":
            tasks.append(["destroy", seat, list(e.colours)])
        elif e.type == "build_from_discard":
            tasks.append(["discard_build", seat, None])
        elif e.type == "progress_from_box" and unseen_tokens(state):
            tasks += [["draw", seat, e.amount], ["library", seat, None]]
        else:  # Pantheon: the Divine Theater
            tasks += pantheon.wonder_task(state, seat, e)
    if state.has(seat, "wonders_replay"):
        state.again = True
    if state.agora is not None and state.victory is None:  # Agora: Decrees, Agora's Wonders
        agora.wonder_built(state, seat, wonder_id)
    if state.victory is None:
        state.queue += tasks
    return looted


def _task_done(state: State, event: Event) -> None:
    t, p = event.type, event.payload
    task = state.queue.pop(0)
    if t == "card_revealed":
        state.slots[p["slot"]] = p["card"]
        state.seen.append(p["card"])
        if state.pantheon is not None:  # Pantheon: the token on the card, or Zeus's discard
            pantheon.revealed(state, p["slot"], p["card"])
    elif t == "tokens_drawn":
        state.drawn = list(p["tokens"])
        state.seen_tokens += p["tokens"]
    elif t == "progress_taken":
        if task[0] == "progress":
            state.board_tokens.remove(p["token"])
        state.drawn = []
        _token_taken(state, p["seat"], p["token"])
    elif t == "card_destroyed" and p["card"] is not None:
        state.built[1 - p["seat"]].remove(p["card"])
        state.discard.append(p["card"])
    elif t == "discard_built" and p["card"] is not None:
        state.discard.remove(p["card"])
        waiting, state.queue = state.queue, []
        build(state, p["seat"], state.card(p["card"]))
        if state.victory is None:
            state.queue += waiting
    settle(state)


def _token_taken(state: State, seat: int, token_id: str) -> None:
    state.tokens[seat].append(token_id)
    token = next(t for t in state.pack.all_progress_tokens if t.id == token_id)
    for e in token.effects:
        if e.type == "coins":
            state.coins[seat] += e.amount
        elif e.type == "science" and e.symbol is not None:
            science(state, seat, e.symbol)


def settle(state: State) -> None:
    """After an event: what comes next (a task, the next turn, the end of the Age, the end)."""
    if state.agora is not None and agora.defer(state):  # Agora: its tasks first
        return
    if state.victory is not None:
        state.queue = []
        state.phase = SCORE
        return
    if state.queue:
        state.phase = PENDING
        return
    if len(state.taken) < len(state.slots):
        state.player = state.last_taker if state.again else 1 - state.last_taker
        state.again = False
        state.phase = PLAY
        return
    state.again = False
    if state.age == 3:
        state.victory = "civilian"
        state.phase = SCORE
        return
    state.chooser = 1 if state.pawn > 0 else 0 if state.pawn < 0 else state.last_taker
    state.phase = STARTER


def _game_ended(state: State, event: Event) -> list[Problem]:
    p = event.payload
    final = scores(state)
    state.winners = winners(state)
    found = []
    for claim in p.get("scores") or []:
        seat = claim["seat"]
        for category in final[seat]:  # the categories, "total" (and with Pantheon, "pantheon")
            said = claim.get(category)
            if said is not None and said != final[seat][category]:
                found.append(problem(state, event, "swd.claim.score", f"{category} {final[seat][category]}",
                                     f"{category} {said}", seat))
    if state.agora is not None:  # Agora: the chambers controlled at the end
        agora.at_end(state)
    if p.get("victory") is not None and p["victory"] != state.victory:
        found.append(problem(state, event, "swd.claim.victory", f"{state.victory} victory", f"{p['victory']} victory"))
    if p.get("winners") is not None and sorted(p["winners"]) != state.winners:
        found.append(problem(state, event, "swd.claim.victory", f"winners {state.winners}", f"winners {p['winners']}"))
    state.phase = OVER
    return found


# ----------------------------------------------------------------------------- the contract


class DuelRules(Rules[State, DuelPack]):
    def start(self, event: Event, pack: DuelPack) -> State:
        seats = sorted(event.payload["seats"], key=lambda s: s["seat"])
        first = event.payload.get("first", 0)
        state = State.new(pack, [s["name"] for s in seats], first)
        location = Location(seq=event.seq)
        try:
            pack.require_complete()
        except PackError as exc:
            raise RuleViolation(Problem("swd.pack", RULES["swd.pack"], "a complete pack", str(exc), location)) from None
        refused = [e for e in pack.options.expansions if e not in IMPLEMENTED]
        if refused:
            raise RuleViolation(Problem("swd.expansion", RULES["swd.expansion"],
                                        "the base game or " + ", ".join(sorted(IMPLEMENTED)),
                                        f"pack {pack.id} plays {' and '.join(pack.options.expansions)}; the rules of "
                                        f"{', '.join(refused)} are not implemented yet", location))
        if len(pack.options.expansions) > 1 and not TOGETHER:
            raise RuleViolation(Problem("swd.expansion", RULES["swd.expansion"], "one expansion at a time",
                                        f"pack {pack.id} plays {' and '.join(pack.options.expansions)} together; the "
                                        "two together are not implemented yet", location))
        if "pantheon" in pack.options.expansions:  # Pantheon
            state.pantheon = pantheon.initial(pack)
        if [s["seat"] for s in seats] != [0, 1]:
            raise RuleViolation(Problem("swd.start", RULES["swd.start"], "seats 0 and 1",
                                        ", ".join(str(s["seat"]) for s in seats), location))
        if pack.agora is not None:  # Agora: the Senate and its military tokens
            agora.setup(state)
        return state

    def apply(self, state: State, event: Event) -> Sequence[Problem]:
        return perform(state, event, check(state, event))

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def position(self, state: State, event: Event) -> Position:
        p = event.payload
        seat = p.get("seat") if isinstance(p.get("seat"), int) else None
        turn = state.turn + 1 if event.type in ("card_played", "divinity_activated") else state.turn or None  # Pantheon
        return Position(turn=turn, round=state.age or None, seat=seat)

    def legal_actions(self, state: State, seat: int) -> Sequence[Any]:
        from .legal import legal_plays

        return legal_plays(state, seat)

    def action_of(self, event: Event) -> Any | None:
        from .legal import ACTION_EVENTS, play_of

        return play_of(event) if event.type in ACTION_EVENTS else None

    def snapshot(self, state: State) -> dict[str, Any]:
        return state.data()

    def restore(self, data: dict[str, Any], pack: DuelPack) -> State:
        return State.of_data(data, pack)


__all__ = ["RULES", "DuelRules", "judge"]


# --- Agora (replay/games/seven_wonders_duel/agora.py): imported last, as it uses this module's helpers
from . import agora, agora_plots  # noqa: E402  # agora_plots: Treason's removed cards (the reveal's check)
from .agora_events import AGORA_TYPES  # noqa: E402

RULES.update(agora.AGORA_RULES)
TASK_EVENTS["agora_discard"] = "conspiracy_target"  # Turn of Events' discards wait behind the cards they uncover
