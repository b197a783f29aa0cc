"""7 Wonders Dice's derived tables (SQL schema ``wonders_dice``), gathered while a game is replayed.

The core derives ``games`` and ``players`` for every kind; this game adds, per game:
one ``wonders_dice.players`` row per seat (city, coins, VP by category), one
``turn_states`` row per turn and seat (the table at the end of the turn), one
``actions`` row per action (what was chosen, what it cost, what it scored) and one
``dice`` row per die rolled (the chance outcomes, flat, for fast counting). Every
value comes from the rules' replay, never from hand-kept counters.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import eq
from typing import Any

import pyarrow as pa

from replay.contract import Analytics, Step, TableObserver
from replay.events import Event

from . import rows_compiled
from .engine import construction_coins, defence, die_cost, forum_cost
from .rules_data import Building, default_ruleset
from .scoring import end_rates, final_scores
from .state import GameState, PlayerState

BUILDINGS = tuple(default_ruleset().buildings_of("giza"))
_CROSSED = tuple((f"crossed_{b}", b) for b in BUILDINGS)
CATEGORIES = ("warehouse", "military", "agora", "market", "university", "guild", "gallery", "wonder", "bonus")

TABLES: dict[str, pa.Schema] = {
    "players": pa.schema(
        [("game_id", pa.string()), ("seat", pa.int32()), ("name", pa.string()), ("city", pa.string()),
         ("players", pa.int32()), ("total", pa.int32()), ("coins", pa.int32()), ("rank", pa.int32()), ("won", pa.bool_())]
        + [(f"vp_{c}", pa.int32()) for c in CATEGORIES]
    ),
    "turn_states": pa.schema(
        [("game_id", pa.string()), ("turn", pa.int32()), ("seat", pa.int32()), ("name", pa.string()),
         ("players", pa.int32()), ("coins", pa.int32()), ("resources", pa.int32()), ("vp", pa.int32()),
         ("bonuses", pa.int32()), ("unlocked", pa.list_(pa.string())), ("completed", pa.list_(pa.string()))]
        + [(f"crossed_{b}", pa.int32()) for b in BUILDINGS]
    ),
    "dice": pa.schema([
        ("game_id", pa.string()), ("turn", pa.int32()), ("die", pa.string()), ("colour", pa.string()),
        ("face", pa.string()), ("section", pa.int32()),
    ]),
    "actions": pa.schema([
        ("game_id", pa.string()), ("seq", pa.int64()), ("turn", pa.int32()), ("seat", pa.int32()), ("name", pa.string()),
        ("city", pa.string()), ("players", pa.int32()), ("kind", pa.string()), ("die", pa.string()), ("colour", pa.string()),
        ("section", pa.int32()), ("forum_cost", pa.int32()), ("die_cost", pa.int32()), ("construction_coins", pa.int32()),
        ("paid", pa.int32()), ("building", pa.string()), ("lane", pa.string()), ("space", pa.string()),
        ("vp_gained", pa.int32()), ("attack_printed", pa.int32()), ("defender_shields", pa.int32()),
        ("effects", pa.list_(pa.string())), ("steps", pa.int32()), ("bonus_slot", pa.int32()),
    ]),
}


NAMES: dict[str, tuple[str, ...]] = {name: tuple(schema.names) for name, schema in TABLES.items()}
_EMPTY = repeat(())


class _Rows(TableObserver):
    """The derived rows of one game, gathered as it is replayed: each row a tuple of its values in
    its table's column order (:meth:`records`), which the projection turns into Arrow columns
    without a dict per row; :meth:`rows` gives the same rows as dicts."""

    after_types = frozenset({"action_taken", "dice_rolled", "turn_ended"})
    """The events that make rows (the start, the swaps and the end make none: no step for them)."""

    def __init__(self, start: Event) -> None:
        self.game_id = start.game_id
        self.out: dict[str, list[tuple[Any, ...]]] = {name: [] for name in TABLES}
        self.pending: tuple[Any, ...] | None = None
        rows = rows_compiled.ROWS
        if rows is not None:  # the two methods below in C (_crows.glue), the methods themselves where they decline
            out = self.out
            glue = rows.glue(Event, self.game_id, out["actions"], out["dice"], out["turn_states"], BUILDINGS,
                             _action_before, _action_after, _dice_rows, _late_turn_row)
            self.before, self.after = glue.before, glue.after  # type: ignore[method-assign]

    def before(self, state: GameState, event: Event) -> None:
        self.pending = None
        if event.type == "action_taken":
            try:
                self.pending = _action_before(state, event)
            except (KeyError, IndexError, TypeError):
                pass  # an illegal action: the rules refuse it, and it has no row

    def after(self, step: Step) -> None:
        e, state = step.event, step.state
        if step.refused:
            return
        kind = e.type
        if kind == "action_taken":
            if self.pending is not None:
                self.out["actions"].append(_action_after(state, e, self.pending))
        elif kind == "dice_rolled":
            game_id, turn, forum, out = self.game_id, e.payload["turn"], state.forum, self.out["dice"]
            rows = rows_compiled.ROWS
            if rows is None or not rows.dice_rows(out, game_id, turn, forum, state.roll):
                _dice_rows(out, game_id, turn, forum, state.roll)
        elif kind == "turn_ended":
            game_id, turn, out = self.game_id, e.payload["turn"], self.out["turn_states"]
            rows = rows_compiled.ROWS
            if rows is not None:
                rows.turn_rows(out, state, game_id, turn, BUILDINGS, lambda p: _turn_row(state, game_id, turn, p))
            else:
                out.extend([_turn_row(state, game_id, turn, p) for p in state.players])

    def finish(self, state: GameState | None) -> None:
        if state is None:
            return
        result = state.result or final_scores(state)
        n = len(state.players)
        order = sorted(result["scores"], key=lambda s: (-s["total"], -s["coins"]))
        for s in result["scores"]:
            p = state.players[s["seat"]]
            rank = 1 + sum(1 for o in order if (o["total"], o["coins"]) > (s["total"], s["coins"]))
            categories = s["categories"]
            self.out["players"].append((self.game_id, p.seat, p.name, p.city, n, s["total"], s["coins"], rank,
                                        s["seat"] in result["winners"]) + tuple(categories.get(c, 0) for c in CATEGORIES))

    def records(self) -> dict[str, list[tuple[Any, ...]]]:
        return self.out

    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return {t: [dict(zip(NAMES[t], r)) for r in records] for t, records in self.out.items()}


def _dice_rows(out: list[tuple[Any, ...]], game_id: str, turn: int, forum: dict[str, str],
               roll: dict[str, tuple[str, int]]) -> None:
    """A roll's dice rows appended to ``out``."""
    out.extend([(game_id, turn, d, forum[d], face, section) for d, (face, section) in roll.items()])


def _late_turn_row(state: GameState, game_id: str, turn: int, p: PlayerState) -> tuple[Any, ...]:
    """:func:`_turn_row`, looked up when called (what the compiled glue asks for a row it does not make)."""
    return _turn_row(state, game_id, turn, p)


def _turn_row(state: GameState, game_id: str, turn: int, p: PlayerState) -> tuple[Any, ...]:
    """A player's turn_states row: the table at the end of a turn."""
    get = p.crossed.get
    counts = tuple(map(len, map(get, BUILDINGS, _EMPTY)))
    aligned = _aligned(p.board)
    if aligned is not None:  # the board's buildings are the columns': completed in the same order
        completed = list(compress(BUILDINGS, map(eq, counts, aligned)))
    else:
        completed = [b for b, size in _sizes(p.board) if len(get(b, ())) == size]
    return (game_id, turn, p.seat, p.name, len(state.players), p.coins, max(0, p.resources), _vp(state, p),
            sum(p.bonuses), sorted(p.unlocked), completed) + counts


_SIZES: dict[int, tuple[dict[str, Building], tuple[tuple[str, int], ...]]] = {}


def _sizes(board: dict[str, Building]) -> tuple[tuple[str, int], ...]:
    """(building, number of spaces) of a board, in board order: rules data, computed once per board."""
    found = _SIZES.get(id(board))
    if found is None or found[0] is not board:
        if len(_SIZES) > 64:
            _SIZES.clear()
        found = _SIZES[id(board)] = (board, tuple((b, len(building.spaces)) for b, building in board.items()))
    return found[1]


_ALIGNED: dict[int, tuple[dict[str, Building], tuple[int, ...] | None]] = {}


def _aligned(board: dict[str, Building]) -> tuple[int, ...] | None:
    """The number of spaces of each building of :data:`BUILDINGS` when the board has exactly those
    buildings in that order (every shipped city's), else None: rules data, computed once per board."""
    found = _ALIGNED.get(id(board))
    if found is None or found[0] is not board:
        if len(_ALIGNED) > 64:
            _ALIGNED.clear()
        sizes = _sizes(board)
        same = tuple(b for b, _ in sizes) == BUILDINGS
        found = _ALIGNED[id(board)] = (board, tuple(size for _, size in sizes) if same else None)
    return found[1]


def _vp(state: GameState, p: PlayerState) -> int:
    """``sum(player_categories(state, p).values())``: the player's VP as it stands, without the
    dict by category (the end effects are the rare part, and taken the rules' own way)."""
    total = sum(p.vp.values())
    if not p.end_effects:
        return total
    crossed = p.crossed
    for (_, counted), vp in end_rates(state, p).items():
        if counted == "leaders":
            gallery = p.board.get("gallery")
            total += vp * (sum(1 for s in crossed.get("gallery", ()) if gallery.space[s].leader) if gallery else 0)
        else:
            total += vp * len(crossed.get(counted, ()))
    return total


def _action_before(state: GameState, e: Event) -> tuple[Any, ...]:
    """Describe an action from the table before it: (the row's first 14 values, building, lane, space,
    attack_printed, defender_shields, steps; and the player's VP, coins and spaces crossed this turn)."""
    p = e.payload
    rows = rows_compiled.ROWS
    if rows is not None:
        made = rows.action_before(state, p, e.game_id, e.seq)
        if made is not None:
            return made  # type: ignore[no-any-return]
    player = state.players[p["player"]]
    steps = p["steps"]
    main = steps[0]
    kind = main["kind"]
    colour = section = forum = die_cost_ = coins = attack = shields = None
    if kind in ("build", "wonder"):
        space = player.board[main["building"]].space[main["space"]]
        coins = construction_coins(player, space.cost)
        if kind == "build":
            die = main["die"]
            colour = state.forum[die]
            section = state.roll[die][1]
            forum = forum_cost(state, die)
            die_cost_ = die_cost(state, player, die, False)
        for x in space.effects:  # the first attack printed
            if x.type == "attack":
                attack = x.vp
                break
        if attack is not None:
            shields = defence(state, player.seat, main["building"])
    head = (e.game_id, e.seq, p["turn"], player.seat, player.name, player.city, len(state.players), kind, main.get("die"),
            colour, section, forum, die_cost_, coins)
    return (head, main.get("building"), main.get("lane"), main.get("space"), attack, shields, len(steps),
            sum(player.vp.values()), player.coins, len(player.this_turn))


def _action_after(state: GameState, e: Event, before: tuple[Any, ...]) -> tuple[Any, ...]:
    """An action's row: what :func:`_action_before` saw, completed from the table after it."""
    p = e.payload
    rows = rows_compiled.ROWS
    if rows is not None:
        made = rows.action_after(state, p, before)
        if made is not None:
            return made  # type: ignore[no-any-return]
    head: tuple[Any, ...] = before[0]
    building, lane, space, attack, shields, steps, before_vp, before_coins, crossed_before = before[1:]
    player = state.players[p["player"]]
    board = player.board
    effects = [x.type for b, s in player.this_turn[crossed_before:] for x in board[b].space[s].effects]
    slots = [s["slot"] for s in p["steps"] if s["kind"] == "bonus"]
    paid = (p.get("claims") or {}).get("paid")
    if paid is None:
        paid = max(0, before_coins - player.coins)
    return head + (paid, building, lane, space, sum(player.vp.values()) - before_vp, attack, shields, effects, steps,
                   slots[0] if slots else None)


def reference_tables() -> dict[str, pa.Table]:
    """Rules data for SQL, from the default pack: ``dice_faces`` (colour, face, sides showing it)."""
    rows: list[dict[str, Any]] = []
    for die in default_ruleset().dice:
        counts: dict[str, int] = {}
        for f in die.faces:
            counts[f.face] = counts.get(f.face, 0) + 1
        rows.extend({"colour": die.colour, "face": face, "sides": n} for face, n in counts.items())
    return {"dice_faces": pa.Table.from_pylist(rows, schema=pa.schema([("colour", pa.string()), ("face", pa.string()),
                                                                       ("sides", pa.int32())]))}


class WondersDiceAnalytics(Analytics):
    schema = "wonders_dice"
    tables = TABLES

    def observer(self, start: Event) -> TableObserver:
        return _Rows(start)

    def reference_tables(self) -> dict[str, pa.Table]:
        return reference_tables()
