"""The Agora expansion's rules for 7 Wonders Duel: the Senate, Senators, Decrees, conspiracies,
Agora's military tokens, political supremacy and the chambers' points.

The base rules (:mod:`.rules`) call in here through small hooks, each behind ``state.agora is not
None``, so a base game never reaches this module. Everything Agora adds to the table lives in the
one dict ``state.agora`` (plain data, so snapshots and hashes stay plain):

``influence``     chamber id -> [seat 0's cubes, seat 1's cubes]
``decrees``       chamber id -> Decree id, or None while it lies face down unseen; once Insider
                  Influence moved one, the two chambers it touched hold a list of them
                  (:func:`.state.chamber_decrees` reads either)
``placed``        whether the setup's ``decrees_placed`` has come
``tasks``         what Agora waits for before anything else, in order: [what, seat, detail]
``deferred``      a turn ended while tasks were waiting: the base ``settle`` runs when they are done
``interrupt``     a conspiracy was triggered before the turn's card: the same player plays on after it
``senators``      each seat's recruited Senators (card ids, ``<senator id>_<copy>``)
``senators_seen`` every Senator card turned up so far (each copy comes once a game)
``set_aside``     Senators discarded for coins (apart from the discard pile: the Mausoleum builds buildings)
``hands``         each seat's conspiracies: {"id", "prepared", "under"} (hidden from the opponent)
``triggered``     each seat's conspiracies triggered (public)
``drawn``         the conspiracies drawn, until the drawer chooses
``top``/``bottom`` conspiracies known to lie on top (last: the top one) / at the bottom (first: the
                  bottom one) of the deck, as [id, seat who put it there]
``locked``        progress tokens Obscurantism put out of use for the rest of the game
``last_trigger``  the turn (``state.turn``) a conspiracy was last triggered in
``final_control`` at the end: the chambers each seat controls (for analytics)
``removed``       (from Treason's trigger to the next deal) {"seat", "age", "cards"}: the Age's removed
                  cards it turned up, the one built taken out (the triggering seat's secret)

Who controls a chamber, and so has its Decree, is worked out from the cubes whenever asked: the
Decrees' lasting effects follow control as it changes (:meth:`State.effects` lists the Decrees a
seat controls); the Shield Decree moves the pawn when control changes hands (:func:`_changed`).
"""

from __future__ import annotations

from typing import Any

from replay.events import Event
from replay.problems import Problem

from .pack import Agora, Effect
from .rules import (
    _bare,
    _won,
    build,
    check_taken,
    expected,
    expected_words,
    judge_wonder,
    military,
    problem,
    refuse,
    settle,
    unseen_tokens,
)
from .state import DRAFT, PENDING, PLAY, State, chamber_decrees

CONSPIRACY_EFFECTS = frozenset({"shields", "take_half_coins", "coins_per_influence", "place_influence",
                                "remove_influence", "move_influence", "destroy", "steal", "steal_wonder",
                                "return_wonder", "conspire", "progress_any_from_box", "build_from_last_row",
                                "lock_progress_token", "discard_available", "build_from_removed", "swap_card",
                                "move_decree"})
"""Conspiracy effects implemented (every one the shipped packs' conspiracies have); a pack's own
conspiracy with any other effect may be drawn and prepared, but triggering it is refused
(``swd.agora.unimplemented``) rather than doing nothing."""

AGORA_RULES: dict[str, str] = {
    "swd.agora.decrees": "At the setup, the chambers whose Decree lies face up each get a different Decree of the pack.",
    "swd.agora.decree": "A face-down Decree is turned up when its chamber is first controlled, and it is a Decree "
                        "not yet seen.",
    "swd.agora.senators": "Senators come in the Age decks as the pack sets them up: each Senator card once a game, "
                          "at most the Age's number of them.",
    "swd.agora.recruit": "A Senator is recruited (not constructed) for as many coins as Senators its player already "
                         "has (none with Corruption); only a Senator is recruited.",
    "swd.agora.prepare": "A card taken to prepare a conspiracy goes under one of its player's conspiracies not yet "
                         "prepared.",
    "swd.agora.trigger": "Before taking the turn's card, the player may trigger one of their prepared conspiracies "
                         "(any of theirs with Curia Julia built), one a turn.",
    "swd.agora.unimplemented": "A conspiracy with an effect conspiracies are not implemented for (a pack's own) may be "
                               "drawn and prepared, but triggering it is refused.",
    "swd.agora.place": "A cube is placed from the player's own supply of 12: a Politician's in its section's two "
                       "chambers, any other in any chamber.",
    "swd.agora.move": "A cube moved is one of the player's own, to the chamber next to it.",
    "swd.agora.remove": "A cube removed is one of the opponent's, from a chamber where they have one.",
    "swd.agora.conspire": "Conspiring is a Conspirator's choice, and only while the conspiracy deck has cards.",
    "swd.agora.skip": "A senate action is let go only when it is optional (a move) or impossible.",
    "swd.agora.draw": "A conspiring player draws two conspiracies from the top of the deck (those known to lie on "
                      "top first).",
    "swd.agora.choose": "Of the conspiracies drawn one is kept and the other goes on top or at the bottom of the deck "
                        "(with Organized Crime, or a single one drawn, all are kept).",
    "swd.agora.target": "A conspiracy takes a card of the opponent's city of its colours, one of their Wonders "
                        "(not yet built to steal, built to return), a card of the structure's row 1 that is not a "
                        "Senator (to build), a progress token on the board or the opponent's (to lock away), an "
                        "available card (to discard, up to two, one at a time: none stops), or nothing when there "
                        "is none.",
    "swd.agora.removed": "Treason turns up the cards removed from the Age's deck at its setup: as many as were "
                         "removed, cards of the Age's deck (no guild or Grand Temple) not seen in its structure.",
    "swd.agora.swap": "Coercion swaps a card of the opponent's city of its colours for one of the player's own of "
                      "the same colour, or nothing when no colour has a card on both sides.",
    "swd.agora.decree_move": "Insider Influence moves a Decree of a chamber (a face-down one unseen) under the "
                             "Decree of another chamber.",
    "swd.agora.coin_symbol": "A card's coin cost is left out only by a Decree of one cost symbol less for its colour, "
                             "under the pack option decree_coin_symbol: coins, and all of it (the coins are one "
                             "symbol); it is then that Decree's symbol, so one resource fewer is left out.",
}

TASK_EVENTS = {"decree": "decree_revealed", "draw": "conspiracies_drawn", "choose": "conspiracy_chosen",
               "target": "conspiracy_target", "politician": "senate_action", "conspirator": "senate_action",
               "place": "senate_action", "remove": "senate_action", "move": "senate_action",
               "removed": "removed_revealed", "swap": "cards_swapped", "decree_move": "decree_moved"}

Option = tuple[str, str | None, str | None]
"""A senate action: (action, chamber, origin)."""


def part(state: State) -> Agora:
    assert state.pack.agora is not None
    return state.pack.agora


def ag(state: State) -> dict[str, Any]:
    assert state.agora is not None
    return state.agora


def setup(state: State) -> None:
    """The Senate empty, Agora's military tokens on each side (``_first``: the first seat's side)."""
    agora = part(state)
    side = {state.first: "_first", 1 - state.first: "_second"}
    state.loot = [[t.id for t in agora.military_tokens if t.id.endswith(side[s])] for s in (0, 1)]
    state.agora = {
        "influence": {ch.id: [0, 0] for ch in agora.chambers}, "decrees": {ch.id: None for ch in agora.chambers},
        "placed": False, "tasks": [], "deferred": False, "interrupt": False, "senators": [[], []],
        "senators_seen": [], "set_aside": [], "hands": [[], []], "triggered": [[], []], "drawn": [], "top": [],
        "bottom": [], "last_trigger": -1, "final_control": None, "locked": [],
    }


# ----------------------------------------------------------------------------- the Senate


def senator_cards(state: State) -> dict[str, Any]:
    """Each Senator card of the box: ``<senator id>_<copy>`` -> its Senator (worked out once a pack)."""
    agora = part(state)
    cached = _SENATORS.get(id(agora))
    if cached is None or cached[0] is not agora:
        cached = _SENATORS[id(agora)] = (agora, {f"{s.id}_{k}": s for s in agora.senators for k in range(1, s.copies + 1)})
    return cached[1]


_SENATORS: dict[int, tuple[Agora, dict[str, Any]]] = {}


def is_senator(state: State, card_id: str | None) -> bool:
    return state.agora is not None and card_id is not None and card_id in senator_cards(state)


def controller(state: State, chamber: str) -> int | None:
    a, b = ag(state)["influence"][chamber]
    return 0 if a > b else 1 if b > a else None


def controls(state: State) -> dict[str, int | None]:
    return {ch: controller(state, ch) for ch in ag(state)["influence"]}


def controlled(state: State, seat: int) -> list[str]:
    return [ch for ch, who in controls(state).items() if who == seat]


def cubes_left(state: State, seat: int) -> int:
    placed: int = sum(v[seat] for v in ag(state)["influence"].values())
    return part(state).components.influence_cubes_per_player - placed


def decree_effects(state: State, seat: int) -> list[tuple[str, Effect]]:
    """(chamber, effect) of the revealed Decrees of the chambers ``seat`` controls."""
    return state.decree_effects(seat)


def _adjacent(state: State, a: str, b: str) -> bool:
    number = {ch.id: ch.number for ch in part(state).chambers}
    return abs(number[a] - number[b]) == 1


def options(state: State, task: list[Any]) -> list[Option]:
    """The senate actions a task allows now (listed for the bots, checked for the record)."""
    what, seat, detail = task
    chambers = [ch.id for ch in part(state).chambers]
    influence = ag(state)["influence"]
    places: list[Option] = [("place", ch, None) for ch in chambers] if cubes_left(state, seat) > 0 else []
    moves: list[Option] = [("move", to, origin) for origin in chambers if influence[origin][seat] > 0
                           for to in chambers if _adjacent(state, origin, to)]
    out: list[Option] = []
    if what == "politician":
        section = {ch.id: ch.section for ch in part(state).chambers}
        out = [o for o in places if section[o[1] or ""] == detail["section"]] + moves
    elif what == "conspirator":
        out = places + ([("conspire", None, None)] if deck_size(state) else [])
    elif what == "place":
        out = places
    elif what == "remove":
        out = [("remove", ch, None) for ch in chambers if influence[ch][1 - seat] > 0]
    elif what == "move":
        out = [*moves, ("skip", None, None)]
    return out or [("skip", None, None)]


def politician_actions(state: State, seat: int, effect: Effect) -> int:
    """How many senate actions a Politician gives: by the seat's blue cards (more with a Decree)."""
    blue = state.colour_count(seat, "blue") + sum(e.amount for _, e in state.effects(seat) if e.type == "senate_blue_bonus")
    return max(int(actions) for least, actions in effect.steps if blue >= least)


def _changed(state: State, before: dict[str, int | None]) -> None:
    """After cubes changed: reveal a Decree first controlled, move the pawn for the Shield Decree,
    and end the game at once when one seat controls every chamber."""
    after = controls(state)
    agora = ag(state)
    reveals = []
    for ch, now in after.items():
        was = before[ch]
        if now == was:
            continue
        held = chamber_decrees(agora, ch)
        if now is not None:
            waiting = sum(1 for t in agora["tasks"] if t[0] == "decree" and t[2] == ch)
            reveals += [["decree", None, ch]] * (held.count(None) - waiting)
        for decree in held:
            if decree is not None:
                _shield_decree(state, decree, was, now)
    agora["tasks"][0:0] = reveals
    for seat in (0, 1):
        if len(controlled(state, seat)) >= part(state).components.political_supremacy:
            _won(state, seat, "political")


def _shield_decree(state: State, decree: str, was: int | None, now: int | None) -> None:
    """Ruling: control lost moves the pawn as the opponent's shields would; control gained as the
    new controller's (so one space each way, two when control passes straight to the opponent)."""
    effects = next(d.effects for d in part(state).decrees if d.id == decree)
    for e in effects:
        if e.type != "shield_while_controlled":
            continue
        if was is not None and state.victory is None:
            military(state, 1 - was, e.amount)
        if now is not None and state.victory is None:
            military(state, now, e.amount)


def deck_size(state: State) -> int:
    return len(_middle(state)) + len(ag(state)["top"]) + len(ag(state)["bottom"])


def _middle(state: State) -> list[str]:
    """The conspiracies of the deck whose place in it nobody knows."""
    agora = ag(state)
    out = {c["id"] for hand in agora["hands"] for c in hand} | {c for t in agora["triggered"] for c in t}
    out |= set(agora["drawn"]) | {c for c, _ in agora["top"]} | {c for c, _ in agora["bottom"]}
    return sorted(c.id for c in part(state).conspiracies if c.id not in out)


def draw_shape(state: State, k: int) -> tuple[list[str], list[str], int, list[str]]:
    """What a draw of ``k`` must be: (the known top cards, the unknown middle, how many of it, the
    known bottom cards reached)."""
    agora = ag(state)
    top = [c for c, _ in reversed(agora["top"])][:k]
    middle = _middle(state)
    m = min(k - len(top), len(middle))
    bottom = [c for c, _ in reversed(agora["bottom"])][:k - len(top) - m]
    return top, middle, m, bottom


# ----------------------------------------------------------------------------- what is expected


def expected_task(state: State) -> tuple[str, int | None] | None:
    """The event Agora waits for before anything else (None: nothing)."""
    if state.victory is not None or state.agora is None:
        return None
    if state.phase == DRAFT and not state.agora["placed"]:
        return "decrees_placed", None
    if state.agora["tasks"]:
        what, seat, _ = state.agora["tasks"][0]
        return TASK_EVENTS[what], seat
    return None


def defer(state: State) -> bool:
    """Called by the base ``settle``: while Agora's tasks wait, the turn is not settled yet."""
    agora = ag(state)
    if state.victory is not None:
        return False
    if agora["tasks"]:
        agora["deferred"] = True
        return True
    if agora["interrupt"]:
        _resume(state)
        return True
    return False


def _resume(state: State) -> None:
    """A triggered conspiracy's effects are done: its base tasks (Espionage's tokens) if any, then the
    same player takes the turn's card (the Age ends if the conspiracy took its last card)."""
    agora = ag(state)
    if state.queue:
        state.phase = PENDING
        return
    agora["interrupt"] = False
    if len(state.taken) < len(state.slots):
        state.phase = PLAY
    else:
        settle(state)


def _after(state: State) -> None:
    """After an Agora event: settle the turn its tasks held up, or go on with the same player."""
    agora = ag(state)
    if state.victory is not None:
        agora["tasks"] = []
        settle(state)
    elif agora["tasks"]:
        return
    elif agora["deferred"]:
        agora["deferred"] = False
        settle(state)
    elif agora["interrupt"]:
        _resume(state)


# ----------------------------------------------------------------------------- checking


def check(state: State, event: Event) -> int | None:
    """Raise RuleViolation if the Agora ``event`` may not come now; for a recruit, its cost."""
    t, p = event.type, event.payload
    if t == "conspiracy_triggered":
        _check_trigger(state, event)
        return None
    wanted, seat = expected(state)
    turn = t in ("senator_recruited", "conspiracy_prepared")
    if (wanted != "card_played") if turn else (t != wanted):
        raise refuse(state, event, "swd.expected", expected_words(state), t, p.get("seat"))
    if seat is not None and p.get("seat") != seat:
        raise refuse(state, event, "swd.turn" if turn else "swd.expected", expected_words(state),
                     f"{t} by seat {p.get('seat')}", p.get("seat"))
    if turn:
        return check_turn(state, event)
    if t == "decrees_placed":
        _check_placed(state, event)
    elif t == "decree_revealed":
        _check_decree(state, event)
    elif t == "senate_action":
        _check_senate(state, event)
    elif t == "conspiracies_drawn":
        _check_drawn(state, event)
    elif t == "conspiracy_chosen":
        _check_chosen(state, event)
    elif t == "conspiracy_target":
        _check_target(state, event)
    elif t == "removed_revealed":
        plots.check_removed(state, event)
    elif t == "cards_swapped":
        plots.check_swap(state, event)
    elif t == "decree_moved":
        plots.check_decree_move(state, event)
    return None


def check_turn(state: State, event: Event) -> int | None:
    """A recruit or a conspiracy prepared: a turn, on an available card (``card_played``'s place)."""
    p, seat = event.payload, event.payload["seat"]
    check_taken(state, event)
    if event.type == "conspiracy_prepared":
        hand = [c["id"] for c in ag(state)["hands"][seat] if not c["prepared"]]
        if p["conspiracy"] not in hand:
            raise refuse(state, event, "swd.agora.prepare", "one of " + (", ".join(hand) or "none (no unprepared conspiracy)"),
                         p["conspiracy"], seat)
        return None
    if not is_senator(state, p["card"]):
        raise refuse(state, event, "swd.agora.recruit", "a Senator", p["card"], seat)
    cost = recruit_cost(state, seat)
    if cost > state.spendable(seat):
        raise refuse(state, event, "swd.agora.recruit", f"{cost} coins (one a Senator recruited)",
                     f"{state.spendable(seat)} coins", seat)
    return cost


def _spend(state: State, seat: int, amount: int) -> None:
    """Pay coins; with Pantheon Astarte's coins may pay too, after the treasury's (Pantheon's ruling)."""
    if state.pantheon is not None:  # Pantheon
        from .pantheon import spend

        spend(state, seat, amount)
    else:
        state.coins[seat] -= amount


def recruit_cost(state: State, seat: int) -> int:
    return 0 if state.has(seat, "senators_free") else len(ag(state)["senators"][seat])


def _check_trigger(state: State, event: Event) -> None:
    p, seat = event.payload, event.payload["seat"]
    wanted, who = expected(state)
    if wanted != "card_played" or who != seat:
        raise refuse(state, event, "swd.agora.trigger", f"{expected_words(state)} (a conspiracy is triggered before "
                     "the turn's card)", f"conspiracy_triggered by seat {seat}", seat)
    if ag(state)["last_trigger"] == state.turn:
        raise refuse(state, event, "swd.agora.trigger", "one conspiracy a turn", "a second one", seat)
    ready = triggerable(state, seat, implemented_only=False)
    if p["conspiracy"] not in ready:
        raise refuse(state, event, "swd.agora.trigger", "one of " + (", ".join(ready) or "none"), p["conspiracy"], seat)
    missing = unimplemented(state, p["conspiracy"])
    if missing:
        raise refuse(state, event, "swd.agora.unimplemented", "a conspiracy whose effects are implemented",
                     f"{p['conspiracy']} ({', '.join(missing)} not implemented yet)", seat)


def triggerable(state: State, seat: int, implemented_only: bool = True) -> list[str]:
    """``seat``'s conspiracies it may trigger now: prepared ones (any, with Curia Julia built)."""
    anyway = state.has(seat, "trigger_unprepared_conspiracy")
    return [c["id"] for c in ag(state)["hands"][seat] if (c["prepared"] or anyway)
            and not (implemented_only and unimplemented(state, c["id"]))]


def unimplemented(state: State, conspiracy: str) -> list[str]:
    effects = next(c.effects for c in part(state).conspiracies if c.id == conspiracy)
    return [e.type for e in effects if e.type not in CONSPIRACY_EFFECTS]


def _check_placed(state: State, event: Event) -> None:
    decrees = event.payload["decrees"]
    agora = part(state)
    face_up = set(agora.setup.decrees_face_up)
    known = {d.id for d in agora.decrees}
    values = list(decrees.values())
    if set(decrees) != face_up or len(set(values)) != len(values) or not set(values) <= known:
        raise refuse(state, event, "swd.agora.decrees", "different Decrees of the pack on the face-up chambers "
                     + ", ".join(sorted(face_up)), ", ".join(f"{c}: {d}" for c, d in sorted(decrees.items())))


def _check_decree(state: State, event: Event) -> None:
    p = event.payload
    chamber = ag(state)["tasks"][0][2]
    fresh = unseen_decrees(state)
    if p["chamber"] != chamber or p["decree"] not in fresh:
        raise refuse(state, event, "swd.agora.decree", f"{chamber}: a Decree not yet seen", f"{p['chamber']}: {p['decree']}")


def unseen_decrees(state: State) -> list[str]:
    """The Decrees of the pack not turned up yet (a face-down one is one of them)."""
    agora = ag(state)
    seen = {d for ch in agora["decrees"] for d in chamber_decrees(agora, ch) if d}
    return sorted(d.id for d in part(state).decrees if d.id not in seen)


def _check_senate(state: State, event: Event) -> None:
    p = event.payload
    task = ag(state)["tasks"][0]
    allowed = options(state, task)
    got = (p["action"], p.get("chamber"), p.get("origin"))
    if got not in allowed:
        rule = {"place": "swd.agora.place", "move": "swd.agora.move", "remove": "swd.agora.remove",
                "conspire": "swd.agora.conspire", "skip": "swd.agora.skip"}[p["action"]]
        words = "; ".join(" ".join(x for x in o if x) for o in allowed)
        raise refuse(state, event, rule, f"for a {task[0]} task one of: {words}", " ".join(x for x in got if x), p["seat"])


def _check_drawn(state: State, event: Event) -> None:
    p = event.payload
    k = ag(state)["tasks"][0][2]
    top, middle, m, bottom = draw_shape(state, k)
    drawn = p["conspiracies"]
    rest = [c for c in drawn if c not in top and c not in bottom]
    if len(drawn) != len(top) + m + len(bottom) or len(set(drawn)) != len(drawn) or not set(top) <= set(drawn) \
            or not set(bottom) <= set(drawn) or not set(rest) <= set(middle):
        want = f"{len(top) + m + len(bottom)} conspiracies of the deck" + (f", with the top ones {', '.join(top)}" if top else "")
        raise refuse(state, event, "swd.agora.draw", want, ", ".join(drawn), p["seat"])


def _check_chosen(state: State, event: Event) -> None:
    p, seat = event.payload, event.payload["seat"]
    drawn = ag(state)["drawn"]
    both = state.has(seat, "keep_both_conspiracies") or len(drawn) == 1
    keep, place = p["keep"], p.get("place")
    if both:
        ok = sorted(keep) == sorted(drawn) and place is None
        want = f"all of {', '.join(drawn)} kept, none put back"
    else:
        ok = len(keep) == 1 and keep[0] in drawn and place is not None
        want = f"one of {', '.join(drawn)} kept, the other on top or bottom of the deck"
    if not ok:
        raise refuse(state, event, "swd.agora.choose", want, f"{', '.join(keep)} kept, {place or 'none'} put back", seat)


def target_options(state: State, task: list[Any]) -> list[str]:
    effect, colours = task[2][0], task[2][1]
    seat = task[1]
    opponent = 1 - seat
    if effect in ("destroy", "steal"):
        return sorted(c.id for c in state.cards(opponent) if c.colour in colours)
    if effect == "steal_wonder":
        return sorted(w for w in state.wonders[opponent] if w not in state.built_wonders[opponent]
                      and w not in state.wonders_out)
    if effect == "build_from_last_row":
        row = [s.id for s in state.pack.layout(state.age).slots if s.row == 1 and s.id not in state.taken]
        return sorted(c for s in row if (c := state.slots.get(s)) is not None and not is_senator(state, c))
    if effect == "lock_progress_token":
        return sorted(state.board_tokens + state.tokens[opponent])
    if effect == "discard_available":
        return sorted(c for s in state.available() if (c := state.slots.get(s)) is not None)
    if effect == "build_from_removed":
        return sorted(ag(state)["removed"]["cards"]) if "removed" in ag(state) else []
    return sorted(state.built_wonders[opponent])


def target_task(state: State) -> list[Any]:
    """The conspiracy's choice waited for: Agora's first task, or (Turn of Events, whose discards come one
    at a time, each after the cards it uncovers are turned up) the base queue's ``agora_discard``."""
    tasks = ag(state)["tasks"]
    if tasks:
        return list(tasks[0])
    _, seat, left = state.queue[0]
    return ["target", seat, ["discard_available", [], left]]


def _check_target(state: State, event: Event) -> None:
    p = event.payload
    task = target_task(state)
    allowed = target_options(state, task)
    optional = task[2][0] == "discard_available"  # "up to" two cards: None stops
    if p["effect"] != task[2][0] or (p["target"] is None and allowed and not optional) \
            or (p["target"] is not None and p["target"] not in allowed):
        raise refuse(state, event, "swd.agora.target", f"{task[2][0]}: one of " + (", ".join(allowed) or "none"),
                     f"{p['effect']}: {p['target']}", p["seat"])


# ----------------------------------------------------------------------------- applying


def perform(state: State, event: Event, paid: int | None) -> list[Problem]:
    t, p = event.type, event.payload
    agora = ag(state)
    found: list[Problem] = []
    if t == "decrees_placed":
        agora["decrees"].update(p["decrees"])
        agora["placed"] = True
        return found
    if t == "conspiracy_triggered":
        _trigger(state, p["seat"], p["conspiracy"])
    elif t in ("senator_recruited", "conspiracy_prepared"):
        return _turn(state, event, paid)
    else:
        task = agora["tasks"].pop(0) if agora["tasks"] else state.queue.pop(0)
        before = controls(state)
        if t == "decree_revealed":
            _reveal_decree(agora, p["chamber"], p["decree"])
            who = controller(state, p["chamber"])
            if who is not None:
                _shield_decree(state, p["decree"], None, who)
        elif t == "senate_action":
            _senate(state, task, p)
        elif t == "conspiracies_drawn":
            agora["drawn"] = list(p["conspiracies"])
            agora["top"] = [x for x in agora["top"] if x[0] not in p["conspiracies"]]
            agora["bottom"] = [x for x in agora["bottom"] if x[0] not in p["conspiracies"]]
        elif t == "conspiracy_chosen":
            _chosen(state, p)
        elif t == "conspiracy_target":
            _target(state, p, task[2] if task[0] == "agora_discard" else 0)
        elif t == "removed_revealed":
            agora["removed"] = {"seat": p["seat"], "age": p["age"], "cards": list(p["cards"])}
        elif t == "cards_swapped":
            plots.swap(state, p)
        elif t == "decree_moved":
            plots.move_decree(state, p)
        if state.victory is None:
            _changed(state, before)
    _after(state)
    return found


def _reveal_decree(agora: dict[str, Any], chamber: str, decree: str) -> None:
    """A face-down Decree of ``chamber`` turned up (with two there, the first face-down one)."""
    held = agora["decrees"][chamber]
    if isinstance(held, list):
        held[held.index(None)] = decree
    else:
        agora["decrees"][chamber] = decree


def _senate(state: State, task: list[Any], p: dict[str, Any]) -> None:
    influence, seat = ag(state)["influence"], p["seat"]
    action = p["action"]
    if action == "place":
        influence[p["chamber"]][seat] += 1
    elif action == "move":
        influence[p["origin"]][seat] -= 1
        influence[p["chamber"]][seat] += 1
    elif action == "remove":
        influence[p["chamber"]][1 - seat] -= 1
    elif action == "conspire":
        _conspire(state, seat, front=True)
    if task[0] == "politician" and task[2]["left"] > 1:
        ag(state)["tasks"].insert(0, [task[0], task[1], {**task[2], "left": task[2]["left"] - 1}])


def _conspire(state: State, seat: int, front: bool = False) -> None:
    """Draw (chance) then choose; nothing when the deck is empty."""
    k = min(part(state).components.conspiracy_draw, deck_size(state))
    if not k:
        return
    tasks = [["draw", seat, k], ["choose", seat, None]]
    queue = ag(state)["tasks"]
    if front:
        queue[0:0] = tasks
    else:
        queue += tasks


def _chosen(state: State, p: dict[str, Any]) -> None:
    agora, seat = ag(state), p["seat"]
    for c in p["keep"]:
        agora["hands"][seat].append({"id": c, "prepared": False, "under": None})
    back = [c for c in agora["drawn"] if c not in p["keep"]]
    for c in back:
        if p.get("place") == "top":
            agora["top"].append([c, seat])
        else:
            agora["bottom"].insert(0, [c, seat])
    agora["drawn"] = []


def _discard_available(state: State, seat: int, card: str, left: int) -> None:
    """Turn of Events: an available card to the discard pile (a Senator set aside), the cards it uncovers
    turned up, then the next discard, if any is left."""
    state.taken.append(next(s for s in state.available() if state.slots[s] == card))
    if state.pantheon is not None:  # Pantheon: a token under a card this uncovers is the discarder's
        state.last_taker = seat
    (ag(state)["set_aside"] if is_senator(state, card) else state.discard).append(card)
    _reveals(state)
    if left > 1 and len(state.taken) < len(state.slots):
        state.queue.append(["agora_discard", seat, left - 1])


def _target(state: State, p: dict[str, Any], left: int = 0) -> None:
    seat, target = p["seat"], p["target"]
    if target is None:
        return
    opponent = 1 - seat
    effect = p["effect"]
    if effect == "destroy":
        state.built[opponent].remove(target)
        state.discard.append(target)
    elif effect == "steal":
        state.built[opponent].remove(target)
        state.built[seat].append(target)
    elif effect == "steal_wonder":
        state.wonders[opponent].remove(target)
        state.wonders[seat].append(target)
    elif effect == "build_from_last_row":
        state.taken.append(next(s for s, c in state.slots.items() if c == target and s not in state.taken))
        build(state, seat, state.card(target))
    elif effect == "lock_progress_token":
        (state.board_tokens if target in state.board_tokens else state.tokens[opponent]).remove(target)
        ag(state)["locked"].append(target)
    elif effect == "discard_available":
        _discard_available(state, seat, target, left)
    elif effect == "build_from_removed":
        ag(state)["removed"]["cards"].remove(target)
        build(state, seat, state.card(target))
    else:
        k = state.built_wonders[opponent].index(target)
        state.built_wonders[opponent].pop(k)
        state.under[opponent].pop(k)
        state.wonders[opponent].remove(target)


def _trigger(state: State, seat: int, conspiracy: str) -> None:
    agora = ag(state)
    hand = agora["hands"][seat]
    hand.pop(next(i for i, c in enumerate(hand) if c["id"] == conspiracy))
    agora["triggered"][seat].append(conspiracy)
    agora["last_trigger"] = state.turn
    agora["interrupt"] = True
    before = controls(state)
    effects = next(c.effects for c in part(state).conspiracies if c.id == conspiracy)
    apply_effects(state, seat, effects)
    if state.victory is None:
        _changed(state, before)


def apply_effects(state: State, seat: int, effects: tuple[Effect, ...], when: str = "built") -> None:
    """Apply Agora effects: coins and shields at once, the choices they need as tasks, in order."""
    agora = ag(state)
    opponent = 1 - seat
    for e in effects:
        if e.when != when or state.victory is not None:
            continue
        if e.type == "shields":
            military(state, seat, e.amount)
        elif e.type == "take_half_coins":
            half = (state.coins[opponent] + 1) // 2
            state.coins[opponent] -= half
            state.coins[seat] += half
        elif e.type == "coins_per_influence":
            state.coins[seat] += sum(v[seat] for v in agora["influence"].values())
            loss = sum(v[opponent] for v in agora["influence"].values())
            state.coins[opponent] -= min(loss, state.coins[opponent])
        elif e.type in ("place_influence", "remove_influence"):
            agora["tasks"] += [["place" if e.type == "place_influence" else "remove", seat, None]] * e.amount
        elif e.type == "move_influence":
            agora["tasks"].append(["move", seat, None])
        elif e.type in ("destroy", "steal", "steal_wonder", "return_wonder", "build_from_last_row", "lock_progress_token"):
            agora["tasks"].append(["target", seat, [e.type, list(e.colours)]])
        elif e.type == "discard_available":
            state.queue.append(["agora_discard", seat, e.amount])
        elif e.type == "build_from_removed" and state.pack.numbers.removed_per_age:
            agora["tasks"] += [["removed", seat, None], ["target", seat, [e.type, []]]]
        elif e.type == "swap_card":
            agora["tasks"].append(["swap", seat, list(e.colours)])
        elif e.type == "move_decree":
            agora["tasks"].append(["decree_move", seat, None])
        elif e.type == "progress_any_from_box" and unseen_tokens(state):
            state.queue += [["draw", seat, len(unseen_tokens(state))], ["library", seat, None]]
        elif e.type == "conspire":
            _conspire(state, seat)


def _take(state: State, seat: int, slot: str) -> None:
    """Take a slot's card for a turn, as the base turn does (the cards it uncovers to be turned up)."""
    state.taken.append(slot)
    state.last_taker = seat
    state.turn += 1


def _reveals(state: State) -> None:
    if state.victory is None:
        layout = state.pack.layout(state.age)
        state.queue += [["reveal", None, s] for s in layout.available(frozenset(state.taken)) if state.slots[s] is None]


def _turn(state: State, event: Event, paid: int | None) -> list[Problem]:
    p, seat = event.payload, event.payload["seat"]
    agora = ag(state)
    _take(state, seat, p["slot"])
    found: list[Problem] = []
    if event.type == "conspiracy_prepared":
        entry = next(c for c in agora["hands"][seat] if c["id"] == p["conspiracy"])
        entry["prepared"], entry["under"] = True, p["card"]
    else:
        assert paid is not None
        _spend(state, seat, paid)
        agora["senators"][seat].append(p["card"])
        senator = senator_cards(state)[p["card"]]
        for e in senator.effects:
            if e.type == "senate_actions":
                agora["tasks"].append(["politician", seat, {"left": politician_actions(state, seat, e),
                                                            "section": senator.section}])
            elif e.type == "influence_or_conspire":
                agora["tasks"].append(["conspirator", seat, None])
        if senator.kind == "conspirator" and any(e.type == "replay_after_conspirator" for _, e in state.effects(seat)):
            state.again = True
        if p.get("paid") is not None and p["paid"] != paid:
            found.append(problem(state, event, "swd.claim.paid", f"{paid} coins", f"{p['paid']} coins", seat))
    _reveals(state)
    settle(state)
    return found


# ----------------------------------------------------------------------------- hooks of the base rules


def judge_senator_card(state: State, seat: int, p: dict[str, Any]) -> Problem | int:
    """A Senator card in a ``card_played``: discarded for coins or put under a Wonder, never constructed."""
    action = p["action"]
    if action == "construct":
        return _bare("swd.agora.recruit", "a Senator recruited (senator_recruited), not constructed", p["card"])
    paid_for = bool(p.get("choices") or p.get("discount") or p.get("bought"))
    if p.get("free") is not None:
        return _bare("swd.chain", "a Senator with nothing free", "free by chain")
    if action == "discard":
        return _bare("swd.pay.free", "nothing chosen, left out or bought", "a payment") if paid_for else \
            _bare("swd.wonder", "no Wonder for a card to discard", p["wonder"]) if p.get("wonder") else 0
    return judge_wonder(state, seat, p)


def resolve_senator_card(state: State, p: dict[str, Any], paid: int) -> int:
    """A Senator card discarded (set aside, ruling) or under a Wonder; the coins looted."""
    from .rules import _wonder_built

    seat = p["seat"]
    _take(state, seat, p["slot"])
    looted = 0
    if p["action"] == "discard":
        agora, numbers = ag(state), state.pack.numbers
        agora["set_aside"].append(p["card"])
        state.coins[seat] += numbers.discard_coins + numbers.discard_coins_per_yellow * state.colour_count(seat, "yellow")
        state.coins[seat] += sum(e.amount for _, e in state.effects(seat) if e.type == "discard_bonus")
    else:
        _spend(state, seat, paid)
        looted = _wonder_built(state, seat, p["wonder"], p["card"])
    _reveals(state)
    return looted


def on_built(state: State, colour: str | None, wonder: bool = False) -> None:
    """A card of ``colour`` (or a Wonder) built by either seat: each Decree of Age coins pays its controller."""
    for seat in (0, 1):
        for _, e in decree_effects(state, seat):
            if e.type == "age_coins_per_build" and ((wonder and e.target == "wonder")
                                                    or (not wonder and colour is not None and colour in e.colours)):
                state.coins[seat] += state.age


def wonder_built(state: State, seat: int, wonder: str) -> None:
    on_built(state, None, wonder=True)
    before = controls(state)
    apply_effects(state, seat, tuple(e for e in state.pack.wonder_by_id[wonder].effects
                                     if e.type in ("place_influence", "move_influence", "remove_influence", "conspire")))
    if state.victory is None:
        _changed(state, before)


def wonder_picked(state: State, seat: int, wonder: str) -> None:
    apply_effects(state, seat, state.pack.wonder_by_id[wonder].effects, when="selected")


def military_tokens(state: State, seat: int, distance: int) -> None:
    """Agora's military tokens reached by ``seat``'s shields: their Senate actions, each once."""
    opponent = 1 - seat
    for token in part(state).military_tokens:
        if token.id in state.loot[opponent] and distance >= token.space:
            state.loot[opponent].remove(token.id)
            apply_effects(state, seat, token.effects)


def seen_cards(state: State, event: Event) -> None:
    """Note the Senators turned up (each copy comes once a game); a new Age's deal puts Treason's
    removed cards of the Age before out of mind (they never come back)."""
    p = event.payload
    if event.type == "age_dealt":
        ag(state).pop("removed", None)
    cards = list(p["cards"].values()) if event.type == "age_dealt" else [p["card"]]
    ag(state)["senators_seen"] += [c for c in cards if is_senator(state, c)]


def check_senators(state: State, event: Event) -> None:
    """The Senators of a deal or a reveal: Senator cards of the box, each once a game, at most the Age's number."""
    p = event.payload
    cards = list(p["cards"].values()) if event.type == "age_dealt" else [p["card"]]
    senators = [c for c in cards if is_senator(state, c)]
    if not senators:
        return
    age = p["age"]
    earlier = ag(state)["senators_seen"]
    this_age = [c for c in state.seen if is_senator(state, c)] if event.type == "card_revealed" else []
    twice = [c for c in senators if c in earlier]
    limit = part(state).setup.senators_per_age[age - 1]
    if twice or len(set(senators)) != len(senators) or len(this_age) + len(senators) > limit:
        raise refuse(state, event, "swd.agora.senators", f"at most {limit} Senators in Age {age}, each card once a game",
                     ", ".join(senators) + (f" ({', '.join(twice)} seen before)" if twice else ""))


def without_senators(state_pack: Any, seen: list[str]) -> list[str]:
    """The Age cards of ``seen``, Senators left out (they are checked apart: :func:`check_senators`)."""
    agora = state_pack.agora
    if agora is None:
        return seen
    ids = {f"{s.id}_{k}" for s in agora.senators for k in range(1, s.copies + 1)}
    return [c for c in seen if c not in ids]


def senate_points(state: State, seat: int) -> int:
    vp = {ch.id: ch.vp for ch in part(state).chambers}
    return sum(vp[ch] for ch in controlled(state, seat))


def add_score(state: State, seat: int, out: dict[str, int]) -> None:
    out["senate"] = senate_points(state, seat)
    out["total"] += out["senate"]


def at_end(state: State) -> None:
    """Record, for analytics, the chambers each seat controls at the end."""
    ag(state)["final_control"] = [controlled(state, 0), controlled(state, 1)]


__all__ = ["AGORA_RULES", "CONSPIRACY_EFFECTS", "check", "perform", "setup"]

# --- Treason, Coercion and Insider Influence (agora_plots.py): imported last, as it uses this module's helpers
from . import agora_plots as plots  # noqa: E402
