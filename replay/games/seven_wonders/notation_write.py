"""Writing 7 Wonders' notation: events to the canonical text, ``read(write(events)).events == events``
(notation.py says the format)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from replay.events import Event
from replay.notation import Writer, escape, raw_text

from .events import KIND
from .notation_syntax import STRUCTURAL, WRITTEN_CATEGORY, Context, find_pack, normal, sayable
from .pack import SevenWondersPack


class _Writer(Writer):
    """Events to the canonical text (:class:`replay.notation.Writer`)."""

    def __init__(self) -> None:
        super().__init__()
        self.pack: SevenWondersPack | None = None
        self.at = Context()

    def follow(self, event: Event) -> None:
        self.at.apply(event)

    # -- what can be said

    def card(self, card: str) -> bool:
        """Whether the reader gives ``card`` back from its id."""
        return normal(card) == card and (self.pack is None or card in self.pack.by_id)

    def source(self, source: str, seat: int) -> bool:
        """Whether a choice card's id reads back as itself (not as a side or a neighbour's name)."""
        n = len(self.names)
        neighbours = {self.names[(seat + 1) % n].lower(), self.names[(seat - 1) % n].lower()}
        return normal(source) == source and source not in ("left", "right") and source not in neighbours

    # -- events

    def event(self, e: Event) -> bool:
        """Write ``e`` compactly; False if it has no compact form here."""
        p = e.payload
        if e.type == "game_started":
            return self.header(e)
        if e.type == "age_dealt":
            return self.deal(p)
        if e.type == "card_played":
            return self.play(p)
        if e.type == "discard_built":
            name = self.name(p["seat"])
            if name is None or (p["card"] is not None and not self.card(p["card"])):
                return False
            self.lines.append(f"{name}: from discard {p['card'] or 'nothing'}")
            return True
        if e.type == "age_ended":
            return self.conflicts(p)
        if e.type == "game_ended":
            return self.over(p)
        return False

    def header(self, e: Event) -> bool:
        p = e.payload
        if self.lines:
            return False
        seats = sorted(p["seats"], key=lambda s: s["seat"])
        r = p["ruleset"]
        self.names = [s["name"] for s in seats]
        self.pack = find_pack([r["id"], r["version"], r["content_hash"]])
        self.sayable = all(map(sayable, self.names)) and len({n.lower() for n in self.names}) == len(self.names)
        self.lines += [f'[Game "{escape(e.game_id)}"]', f'[Kind "{KIND}"]']
        tags = p.get("tags") or {}
        detail = p["provenance"]["detail"]
        plain = self.sayable and all(self.tag(k, v, STRUCTURAL) for k, v in tags.items()) \
            and self.tag("SourceDetail", detail, STRUCTURAL) \
            and all(normal(s["wonder"]) == s["wonder"] and (self.pack is None or s["wonder"] in self.pack.wonder_by_id)
                    for s in seats)
        if plain:
            self.lines += [f'[{k} "{escape(v)}"]' for k, v in tags.items()]
        self.lines += [f'[Ruleset "{r["id"]} {r["version"]} {r["content_hash"]}"]']
        if not plain:
            self.lines += ["", raw_text(e)]
            return True
        self.lines.append(f'[Source "{p["provenance"]["source"]}"]')
        if detail:
            self.lines.append(f'[SourceDetail "{escape(detail)}"]')
        self.lines += [f'[Seat "{s["seat"]} {s["name"]} {s["wonder"]} {s["side"].upper()}"]' for s in seats]
        return True

    def deal(self, p: dict[str, Any]) -> bool:
        names = [self.name(s) for s in range(len(p["hands"]))]
        if len(p["hands"]) != len(self.names) or None in names or not all(self.card(c) for h in p["hands"] for c in h):
            return False
        self.lines += ["", f"age {p['age']}"]
        self.lines += [f"deal {name}: {', '.join(hand)}" for name, hand in zip(names, p["hands"])]
        return True

    def play(self, p: dict[str, Any]) -> bool:
        seat = p["seat"]
        name = self.name(seat)
        if name is None or p["age"] != self.at.age or not self.at.age or not self.card(p["card"]):
            return False
        if not all(self.source(s, seat) for s in p["choices"]):
            return False
        if p["turn"] != self.at.turn or seat in self.at.played:
            self.lines.append(f"turn {p['turn']}")
            self.at.turn_line(p["turn"])
        words = [f"{name}: {p['action']} {p['card']}"]
        if p["free"]:
            words.append(f"free {p['free']}")
        payment = [f"buy {self.amounts(p[side])} from {side}" for side in ("left", "right") if p[side]]
        payment += [f"{resource} from {source}" for source, resource in p["choices"].items()]
        if payment:
            words.append(f"({'; '.join(payment)})")
        paid = p.get("paid")
        if paid == {"to_left": 0, "to_right": 0}:
            words.append("{paid nothing}")
        elif paid is not None:
            claims = [f"{paid[f'to_{side}']} to {side}" for side in ("left", "right") if paid[f"to_{side}"] is not None]
            words.append("{" + ("paid " if claims else "") + ", ".join(claims) + "}")
        self.lines.append(" ".join(words))
        return True

    def conflicts(self, p: dict[str, Any]) -> bool:
        tokens = p["tokens"]
        if tokens is None:
            self.lines.append(f"conflicts age {p['age']}")
            return True
        names = [self.name(s) for s in range(len(tokens))]
        if len(tokens) != len(self.names) or None in names:
            return False
        said = [f"{name} {' '.join(f'{t:+d}' for t in won) or 'none'}" for name, won in zip(names, tokens)]
        self.lines.append(f"conflicts age {p['age']}: {', '.join(said)}")
        return True

    def over(self, p: dict[str, Any]) -> bool:
        scores = p["scores"]
        names = [self.name(s["seat"]) for s in scores]
        if None in names:
            return False
        self.lines += ["", "game over"]
        self.scores([str(n) for n in names], scores, WRITTEN_CATEGORY)
        return True


def write(events: Iterable[Event]) -> str:
    """The canonical notation of a game: ``read(write(events)).events == events``."""
    return _Writer().write(events)
