"""The Agora expansion's plays both ways: what a seat may choose (legal plays, as small tuples
like the base game's), the payload of a chosen play, what a bot prefers, and the chance outcomes
a simulated game draws (the Decrees, the conspiracies drawn, the Senators shuffled into the Age
decks). The rules check the same choices (:func:`.agora.options`, :func:`.agora.target_options`),
so every listed play is accepted.

Plays: ``("senator_recruited", slot, card)``, ``("conspiracy_prepared", slot, card, conspiracy)``,
``("conspiracy_triggered", conspiracy)``, ``("senate_action", action, chamber, origin)``,
``("conspiracy_chosen", keep, place)`` (keep: a sorted tuple), ``("conspiracy_target",
effect, target)``, ``("cards_swapped", take, give)`` (Coercion) and ``("decree_moved", origin,
chamber, decree)`` (Insider Influence). A Senator card discarded or put under a Wonder is a base ``card_played``.
"""

from __future__ import annotations

import random

from replay.events import Event, EventPayload

from . import agora_events as av
from . import events as ev
from .agora import (
    ag,
    controller,
    draw_shape,
    options,
    recruit_cost,
    senator_cards,
    target_options,
    target_task,
    triggerable,
    unseen_decrees,
)
from .agora_plots import decree_moves, removed_count, removed_pool, swap_options
from .city import payments
from .legal import Play, play
from .pantheon import third_age
from .rules import buildable_wonders
from .scoring import scores, winners
from .state import State


def agora_play_of(event: Event) -> Play:
    p, t = event.payload, event.type
    if t == "senator_recruited":
        return (t, p["slot"], p["card"])
    if t == "conspiracy_prepared":
        return (t, p["slot"], p["card"], p["conspiracy"])
    if t == "conspiracy_triggered":
        return (t, p["conspiracy"])
    if t == "senate_action":
        return (t, p["action"], p.get("chamber"), p.get("origin"))
    if t == "conspiracy_chosen":
        return (t, tuple(sorted(p["keep"])), p.get("place"))
    if t == "cards_swapped":
        return (t, p.get("take"), p.get("give"))
    if t == "decree_moved":
        return (t, p["origin"], p["chamber"], p.get("decree"))
    return (t, p["effect"], p.get("target"))


def agora_choices(state: State, seat: int, t: str) -> list[Play]:
    """The choices of an Agora task waiting for ``seat``."""
    agora = ag(state)
    task = target_task(state) if t == "conspiracy_target" else agora["tasks"][0]
    if t == "cards_swapped":
        return [(t, take, give) for take, give in swap_options(state, seat, task[2])] or [(t, None, None)]
    if t == "decree_moved":
        return [(t, *m) for m in decree_moves(state)]
    if t == "senate_action":
        return [(t, *o) for o in options(state, task)]
    if t == "conspiracy_chosen":
        drawn = agora["drawn"]
        if len(drawn) == 1 or state.has(seat, "keep_both_conspiracies"):
            return [(t, tuple(sorted(drawn)), None)]
        return [(t, (c,), place) for c in sorted(drawn) for place in ("top", "bottom")]
    allowed = target_options(state, task)
    if task[2][0] == "discard_available":  # up to two: stopping is a choice too
        return [(t, task[2][0], x) for x in allowed] + [(t, task[2][0], None)]
    return [(t, task[2][0], x) for x in allowed] or [(t, task[2][0], None)]


def agora_turn_plays(state: State, seat: int) -> list[Play]:
    """The Agora plays of a turn: triggering a conspiracy, recruiting a Senator, preparing a
    conspiracy with any available card, and a Senator card discarded or put under a Wonder."""
    agora = ag(state)
    out: list[Play] = []
    if agora["last_trigger"] != state.turn:
        out += [("conspiracy_triggered", c) for c in triggerable(state, seat)]
    senators = senator_cards(state)
    unprepared = [c["id"] for c in agora["hands"][seat] if not c["prepared"]]
    cost = recruit_cost(state, seat)
    for slot in state.available():
        card = state.slots[slot]
        if card is None:
            continue
        out += [("conspiracy_prepared", slot, card, c) for c in unprepared]
        if card not in senators:
            continue
        if cost <= state.spendable(seat):
            out.append(("senator_recruited", slot, card))
        out.append(play(slot, card, "discard"))
        for w in buildable_wonders(state, seat):
            wonder_cost = state.pack.wonder_by_id[w].cost
            assert wonder_cost is not None
            out += [play(slot, card, "wonder", w, payment=p) for p in payments(state, seat, wonder_cost, "wonder")]
    return out


def agora_payload(state: State, seat: int, chosen: Play) -> EventPayload:
    t = chosen[0]
    if t == "senator_recruited":
        return av.SenatorRecruited(seat=seat, age=state.age, slot=chosen[1], card=chosen[2],
                                   paid=recruit_cost(state, seat))
    if t == "conspiracy_prepared":
        return av.ConspiracyPrepared(seat=seat, age=state.age, slot=chosen[1], card=chosen[2], conspiracy=chosen[3])
    if t == "conspiracy_triggered":
        return av.ConspiracyTriggered(seat=seat, conspiracy=chosen[1])
    if t == "senate_action":
        return av.SenateAction(seat=seat, action=chosen[1], chamber=chosen[2], origin=chosen[3])
    if t == "conspiracy_chosen":
        return av.ConspiracyChosen(seat=seat, keep=list(chosen[1]), place=chosen[2])
    if t == "cards_swapped":
        return av.CardsSwapped(seat=seat, take=chosen[1], give=chosen[2])
    if t == "decree_moved":
        return av.DecreeMoved(seat=seat, origin=chosen[1], chamber=chosen[2], decree=chosen[3])
    return av.ConspiracyTarget(seat=seat, effect=chosen[1], target=chosen[2])


def agora_value(bot: str, state: State, seat: int, p: Play) -> tuple[int, int]:
    """How much a strategy bot likes an Agora play (its base plays score 0 to 4): a conspiracy
    triggered is taken at once, a Senator over a Wonder of no use, preparing over a discard; in the
    Senate, what gains the most chambers on the opponent; Coercion's swap that gains the most VP;
    Insider Influence's Decree moved from a chamber the bot does not control to one it does (a tie
    is drawn at random)."""
    if p[0] == "conspiracy_triggered":
        return 5, 0
    if p[0] == "senator_recruited":
        return 2, -recruit_cost(state, seat)
    if p[0] == "conspiracy_prepared":
        return 1, 0
    if p[0] == "senate_action" and p[1] in ("place", "move", "remove"):
        return 0, _chambers_gained(state, seat, p[1], p[2], p[3])
    if p[0] == "cards_swapped" and p[1] is not None:
        return 0, _vp(state, p[1]) - _vp(state, p[2])
    if p[0] == "decree_moved":
        return 0, (controller(state, p[2]) == seat) - (controller(state, p[1]) == seat)
    return 0, 0


def _vp(state: State, card: str) -> int:
    return sum(e.amount for e in state.card(card).effects if e.type == "vp")


def _chambers_gained(state: State, seat: int, action: str, chamber: str, origin: str | None) -> int:
    """Chambers ``seat`` controls less the opponent's, after a senate action, against before."""
    influence = ag(state)["influence"]

    def margin(cubes: dict[str, list[int]]) -> int:
        return sum((a[seat] > a[1 - seat]) - (a[1 - seat] > a[seat]) for a in cubes.values())

    after = {ch: list(v) for ch, v in influence.items()}
    if action == "remove":
        after[chamber][1 - seat] -= 1
    else:
        after[chamber][seat] += 1
        if origin is not None:
            after[origin][seat] -= 1
    return margin(after) - margin(influence)


def agora_chance(state: State, t: str, rng: random.Random, hidden: dict[str, str]) -> EventPayload | None:
    """A simulated game's Agora chance outcome (None: not Agora's)."""
    agora = ag(state)
    pack = state.pack
    assert pack.agora is not None
    if t == "decrees_placed":
        decrees = rng.sample(sorted(d.id for d in pack.agora.decrees), len(pack.agora.chambers))
        face_up = set(pack.agora.setup.decrees_face_up)
        return av.DecreesPlaced(decrees={ch.id: d for ch, d in zip(pack.agora.chambers, decrees) if ch.id in face_up})
    if t == "decree_revealed":
        return av.DecreeRevealed(chamber=agora["tasks"][0][2], decree=rng.choice(unseen_decrees(state)))
    if t == "removed_revealed":  # Treason: the cards of the Age's deck that were not dealt
        dealt = set(hidden.values()) | {c for c in state.slots.values() if c is not None}
        removed = [c for c in removed_pool(state) if c not in dealt]
        return av.RemovedRevealed(seat=agora["tasks"][0][1], age=state.age,
                                  cards=rng.sample(removed, min(removed_count(state), len(removed))))
    if t == "conspiracies_drawn":
        top, middle, m, bottom = draw_shape(state, agora["tasks"][0][2])
        return av.ConspiraciesDrawn(seat=agora["tasks"][0][1], conspiracies=top + rng.sample(middle, m) + bottom)
    if t == "game_ended":  # the scores as claims; the Senate's points are in the total (no category of its own)
        final = scores(state)
        return ev.GameEnded(victory=state.victory, winners=winners(state),  # type: ignore[arg-type]
                            scores=[ev.SeatScore(seat=i, **{k: v for k, v in s.items() if k != "senate"})
                                    for i, s in enumerate(final)])
    if t == "age_dealt":
        cards = deal(state, state.age + 1, rng)
        face_up = {s.id for s in pack.layout(state.age + 1).slots if s.face_up}
        hidden.clear()
        hidden.update({s: c for s, c in cards.items() if s not in face_up})
        return ev.AgeDealt(age=state.age + 1, cards={s: c for s, c in cards.items() if s in face_up})
    return None


def deal(state: State, age: int, rng: random.Random) -> dict[str, str]:
    """Each slot's card: the Age's deck less the removed cards, the Age's Senators drawn from those
    not yet seen (Age III: and the guilds, or Pantheon's Grand Temples), shuffled."""
    pack = state.pack
    assert pack.agora is not None
    cards = sorted(pack.deck(age))
    rng.shuffle(cards)
    cards = cards[pack.numbers.removed_per_age:]
    left = sorted(c for c in senator_cards(state) if c not in ag(state)["senators_seen"])
    cards += rng.sample(left, pack.agora.setup.senators_per_age[age - 1])
    if age == 3:  # the guilds (with Pantheon: its Grand Temples instead)
        extra, count = third_age(pack)
        cards += rng.sample(sorted(extra), count)
    rng.shuffle(cards)
    return {slot.id: card for slot, card in zip(pack.layout(age).slots, cards)}
