"""Seeded 7 Wonders Duel games between bots. Every chance outcome (the first player, the progress
tokens on the board, the Wonders of the draft, each Age's deck with its three removed cards and
Age III's guilds, where each card lies, the Great Library's draw) is drawn here from
``random.Random(seed)`` and recorded when the table would see it: a face-down card only when it
is turned up. Every other event is a bot's choice or follows from the rules.

The simulation drives the real rules (each event applied as it is made, strictly), so a
simulated game audits clean by construction and the same seed gives byte-identical events.

Bots: ``random`` (any legal play), ``military`` and ``science`` (favour red cards and the Wonders
with shields, or green cards and the Law token; then any building, then a Wonder; the cheapest
payment; a discard last).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from replay.contract import Bots
from replay.driver import Recording
from replay.errors import ReplayError
from replay.events import Event, EventPayload, Provenance, Seat

from . import events as ev
from . import pantheon, pantheon_play
from .agora_events import AGORA_ACTIONS
from .agora_play import agora_chance, agora_payload, agora_value
from .city import COINS, trade_coins
from .legal import Play, legal_plays, payload_of
from .pack import DuelPack
from .rules import claims_of, expected, unseen_tokens
from .scoring import scores, winners
from .state import State

BOTS = ("random", "military", "science")
FAVOURED = {"military": ("red", "shields", "strategy"), "science": ("green", "science", "law")}


def choose(bot: str, state: State, seat: int, plays: list[Play], rng: random.Random) -> Play:
    """A bot's play among the legal ones."""
    if bot == "random":
        return plays[rng.randrange(len(plays))]
    colour, effect, token = FAVOURED[bot]

    def value(p: Play) -> tuple[int, int]:
        if p[0] == "divinity_activated":  # Pantheon
            return pantheon_play.value(bot, state, seat, p)
        if p[0] in AGORA_ACTIONS:  # Agora
            return agora_value(bot, state, seat, p)
        if p[0] == "progress_taken":
            return (1 if p[1] == token else 0), 0
        if p[0] != "card_played":
            return 0, 0
        action, coins = p[3], -_coins(state, seat, p)
        if action == "construct":
            return (4 if state.card(p[2]).colour == colour else 3), coins
        if action == "wonder":
            strong = any(e.type == effect for e in state.pack.wonder_by_id[p[4]].effects)
            return (4 if strong else 2), coins
        return 0, 0

    best = max(value(p) for p in plays)
    tied = [p for p in plays if value(p) == best]
    return tied[rng.randrange(len(tied))]


def _coins(state: State, seat: int, p: Play) -> int:
    """The coins a play costs beyond the card's own coin cost: the trade, less a coin cost a Decree left
    out (Agora, ``options.decree_coin_symbol: coins``), so that the bots prefer a waived coin cost
    when it saves more than the resource it could have waived instead."""
    return trade_coins(state, seat, dict(p[8])) - int(dict(p[7]).get(COINS, 0))


def simulate_game(game_id: str, names: Sequence[str], seed: int, bots: Sequence[str] = ("random",),
                  pack: DuelPack | None = None) -> list[Event]:
    """One complete game; ``bots`` is cycled over the two seats."""
    from . import GAME

    pack = pack or GAME.pack()  # type: ignore[assignment]
    assert isinstance(pack, DuelPack)
    unknown = [b for b in bots if b not in BOTS]
    if not bots or unknown:
        raise ReplayError(f"unknown 7 Wonders Duel bot {', '.join(unknown) or '(none)'} (choose from {', '.join(BOTS)})")
    if len(names) != 2:
        raise ReplayError(f"7 Wonders Duel is played by 2 players, not {len(names)}")
    rng = random.Random(seed)
    players = [bots[i % len(bots)] for i in range(2)]
    game: Recording[State] = Recording(GAME, game_id, pack)
    game.emit(ev.GameStarted(ruleset=pack.pin, seats=[Seat(seat=i, name=n) for i, n in enumerate(names)],
                             first=rng.randrange(2),
                             provenance=Provenance(source="simulated", detail=f"replay.games.seven_wonders_duel "
                                                   f"seed={seed} bots={','.join(bots)}")))
    hidden: dict[str, str] = {}
    wonders = rng.sample(sorted(w.id for w in pack.all_wonders), 2 * pack.numbers.wonders_per_player)
    state = game.state
    while state.phase != "over":
        game.emit(_next(state, players, rng, hidden, wonders))
    return game.events


def deal(pack: DuelPack, age: int, rng: random.Random) -> dict[str, str]:
    """Each slot's card: the Age's deck less the removed cards (Age III with the guilds drawn), shuffled."""
    cards = sorted(pack.deck(age))
    rng.shuffle(cards)
    cards = cards[pack.numbers.removed_per_age:]
    if age == 3:
        extra, count = pantheon.third_age(pack)  # Pantheon: Grand Temples instead of guilds
        cards += rng.sample(sorted(extra), count)
        rng.shuffle(cards)
    return {slot.id: card for slot, card in zip(pack.layout(age).slots, cards)}


def _next(state: State, players: list[str], rng: random.Random, hidden: dict[str, str], wonders: list[str]) -> EventPayload:
    t, seat = expected(state)
    pack = state.pack
    if state.agora is not None:  # Agora: its chance outcomes, and the Age decks with their Senators
        made = agora_chance(state, t, rng, hidden)
        if made is not None:
            return made
    if t == "tokens_revealed":
        return ev.TokensRevealed(tokens=rng.sample(sorted(tok.id for tok in pack.all_progress_tokens),
                                                   pack.numbers.progress_on_board))
    if t == "wonders_revealed":
        k = pack.numbers.wonders_per_player
        return ev.WondersRevealed(set=state.draft_set + 1, wonders=wonders[state.draft_set * k:(state.draft_set + 1) * k])
    if t == "age_dealt":
        cards = deal(pack, state.age + 1, rng)
        face_up = {s.id for s in pack.layout(state.age + 1).slots if s.face_up}
        hidden.clear()
        hidden.update({s: c for s, c in cards.items() if s not in face_up})
        return ev.AgeDealt(age=state.age + 1, cards={s: c for s, c in cards.items() if s in face_up})
    if t == "card_revealed":
        slot = state.queue[0][2]
        return ev.CardRevealed(age=state.age, slot=slot, card=hidden[slot])
    if t == "tokens_drawn":
        assert seat is not None
        pool = unseen_tokens(state)
        return ev.TokensDrawn(seat=seat, tokens=rng.sample(pool, min(state.queue[0][2], len(pool))))
    if t in pantheon_play.CHANCE:  # Pantheon
        return pantheon_play.chance(state, t, rng)
    if t == "game_ended":
        final = scores(state)
        return ev.GameEnded(victory=state.victory, winners=winners(state),  # type: ignore[arg-type]
                            scores=[ev.SeatScore(seat=i, **s) for i, s in enumerate(final)])
    assert seat is not None
    chosen = choose(players[seat], state, seat, legal_plays(state, seat), rng)
    return _payload(state, seat, chosen)


def _payload(state: State, seat: int, chosen: Play) -> EventPayload:
    t = chosen[0]
    if t in AGORA_ACTIONS:  # Agora
        return agora_payload(state, seat, chosen)
    if t == "card_played":
        payload = payload_of(state, seat, chosen)
        return ev.CardPlayed.model_validate({**payload, **claims_of(state, payload)})
    if t == "wonder_picked":
        return ev.WonderPicked(seat=seat, wonder=chosen[1])
    if t == "progress_taken":
        return ev.ProgressTaken(seat=seat, token=chosen[1], source=chosen[2])
    if t == "card_destroyed":
        return ev.CardDestroyed(seat=seat, card=chosen[1])
    if t == "discard_built":
        return ev.DiscardBuilt(seat=seat, card=chosen[1])
    if t in pantheon_play.ACTIONS:  # Pantheon
        return pantheon_play.payload(state, seat, chosen)
    return ev.StarterChosen(seat=seat, starts=chosen[1])


class DuelBots(Bots):
    names = BOTS
    default = ("military", "science")

    def simulate(self, game_id: str, names: Sequence[str], seed: int, bots: Sequence[str], pack: Any) -> list[Event]:
        return simulate_game(game_id, names, seed, bots, pack)
