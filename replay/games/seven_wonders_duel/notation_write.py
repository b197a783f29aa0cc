"""Writing 7 Wonders Duel's notation: events to the canonical text, ``read(write(events)).events ==
events`` (notation.py says the format)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from replay.events import Event
from replay.notation import Writer, escape, raw_text

from .events import KIND
from .notation_syntax import (
    FACE_DOWN,
    NOTHING,
    STRUCTURAL,
    WRITTEN_CATEGORY,
    Context,
    card_ids,
    expansion_ids,
    find_pack,
    normal,
    sayable,
)
from .pack import DuelPack
from .pantheon_events import POWER_FIELDS

PANTHEON_SAID = ("divinities_drawn", "divinity_chosen", "divinity_activated", "divinity_power")


class _Writer(Writer):
    """Events to the canonical text (:class:`replay.notation.Writer`)."""

    def __init__(self) -> None:
        super().__init__()
        self.pack: DuelPack | None = None
        self.at = Context()

    def follow(self, event: Event) -> None:
        self.at.apply(event)

    # -- what can be said

    def known(self, word: str, ids: Iterable[str] | None) -> bool:
        """Whether the reader gives ``word`` back from its id (``ids``: the pack's, when it is known)."""
        return normal(word) == word and (ids is None or word in ids)

    def card(self, card: str) -> bool:
        return self.known(card, None if self.pack is None else card_ids(self.pack))

    def piece(self, what: str, word: str | None) -> bool:
        """Whether an expansion's piece (``divinity``, ``conspiracy``, ``decree``, ``chamber``) reads back."""
        return word is not None and self.known(word, expansion_ids(self.pack, what))

    def wonder(self, wonder: str) -> bool:
        return self.known(wonder, None if self.pack is None else self.pack.wonder_by_id)

    def token(self, token: str) -> bool:
        return self.known(token, None if self.pack is None else [t.id for t in self.pack.all_progress_tokens])

    # -- events

    def event(self, e: Event) -> bool:
        """Write ``e`` compactly; False if it has no compact form here."""
        p, t = e.payload, e.type
        if t == "game_started":
            return self.header(e)
        if t in ("tokens_revealed", "wonders_revealed"):
            ok = self.token if t == "tokens_revealed" else self.wonder
            listed = p["tokens"] if t == "tokens_revealed" else p["wonders"]
            if not all(ok(x) for x in listed):
                return False
            self.lines += ["", f"tokens {', '.join(listed)}" if t == "tokens_revealed"
                           else f"wonders {p['set']}: {', '.join(listed)}"]
            return True
        if t == "age_dealt":
            if not all(self.card(c) for c in p["cards"].values()):
                return False
            self.lines += ["", f"age {p['age']}: " + ", ".join(f"{s} {c}" for s, c in p["cards"].items())]
            return True
        if t == "card_revealed":
            if p["age"] != self.at.age or not self.card(p["card"]):
                return False
            self.lines.append(f"reveal {p['slot']} {p['card']}")
            return True
        if t == "game_ended":
            return self.over(p)
        if (said := self.chance(t, p)) is not None:
            self.lines.append(said)
            return True
        name = self.name(p.get("seat"))
        if name is None:
            return False
        said = self.seat_event(t, p)
        if said is None:
            return False
        self.lines.append(f"{name}: {said}")
        return True

    def seat_event(self, t: str, p: dict[str, Any]) -> str | None:
        """What a seat's line says after ``<name>:``, or None when it cannot be said."""
        if t == "wonder_picked":
            return f"pick {p['wonder']}" if self.wonder(p["wonder"]) else None
        if t == "card_played":
            return self.play(p)
        if t == "progress_taken":
            return f"progress {p['token']}" + (" from box" if p["source"] == "box" else "") if self.token(p["token"]) \
                else None
        if t == "tokens_drawn":
            return f"draws {', '.join(p['tokens'])}" if all(map(self.token, p["tokens"])) else None
        if t in ("card_destroyed", "discard_built"):
            verb = "destroys" if t == "card_destroyed" else "from discard"
            if p["card"] is not None and not self.card(p["card"]):
                return None
            return f"{verb} {p['card'] or 'nothing'}"
        if t == "starter_chosen":
            starts = self.name(p["starts"])
            return f"starter {starts}" if starts is not None else None
        return self.pantheon_event(t, p) if t in PANTHEON_SAID else self.agora_event(t, p)

    def chance(self, t: str, p: dict[str, Any]) -> str | None:
        """An expansion's chance line (``pantheon N: ...``, ``enki ...``, ``decrees ...``, ``decree ...``), or None."""
        if t == "pantheon_tokens_placed" and all(normal(x) == x for x in p["tokens"].values()):
            return f"pantheon {p['age']}: " + ", ".join(f"{s} {x}" for s, x in p["tokens"].items())
        if t == "enki_drawn" and all(map(self.token, p["tokens"])):
            return f"enki {', '.join(p['tokens'])}"
        if t == "decrees_placed" and all(self.piece("chamber", c) and self.piece("decree", d) for c, d in p["decrees"].items()):
            return "decrees " + (", ".join(f"{c} {d}" for c, d in p["decrees"].items()) or "none")
        if t == "decree_revealed" and self.piece("chamber", p["chamber"]) and self.piece("decree", p["decree"]):
            return f"decree {p['chamber']} {p['decree']}"
        return None

    def pantheon_event(self, t: str, p: dict[str, Any]) -> str | None:
        """A Pantheon seat line after ``<name>:``, or None."""
        if t == "divinities_drawn":
            source = p["mythology"] or "gate"
            ok = all(self.piece("divinity", d) for d in p["divinities"]) and p["mythology"] != "gate"
            return f"divinities {', '.join(p['divinities'])} from {source}" if ok else None
        if not self.piece("divinity", p["divinity"]):
            return None
        if t == "divinity_chosen":
            return f"choose {p['divinity']}" + (f" space {p['space']}" if p["space"] is not None else "")
        if t == "divinity_activated":
            if p["age"] != self.at.age:
                return None
            offerings = f" offering {', '.join(map(str, p['offerings']))}" if p["offerings"] else ""
            return f"activate {p['divinity']}{offerings}" + (f" {{paid {p['paid']}}}" if p["paid"] is not None else "")
        if not all(self.power_value(k, p[k]) for k in POWER_FIELDS if p[k] is not None):
            return None
        said = [f"{k} {self.military_token(p[k]) if k in ('discarded', 'applied') else p[k]}"
                for k in POWER_FIELDS if p[k] is not None]
        return f"power {p['divinity']} {', '.join(said) or 'nothing'}"

    def power_value(self, field: str, value: Any) -> bool:
        """Whether a Divinity power's value reads back as itself."""
        if field == "card":
            return self.card(value)
        if field == "wonder":
            return self.wonder(value)
        if field == "token":
            return self.token(value)
        if field in ("discarded", "applied"):
            side, _, token = str(value).partition(":")
            return side in ("0", "1") and bool(token) and normal(token) == token
        return field in ("slot", "space")

    def military_token(self, value: str) -> str:
        """Neptune's ``<side>:<token>`` (the event's seat number) as ``<name>:<token>``, as every
        other line names a seat."""
        side, _, token = value.partition(":")
        return f"{self.names[int(side)]}:{token}"

    def agora_event(self, t: str, p: dict[str, Any]) -> str | None:
        """An Agora seat line after ``<name>:``, or None."""
        if t in ("senator_recruited", "conspiracy_prepared"):
            if p["age"] != self.at.age or not self.card(p["card"]) or \
                    (t == "conspiracy_prepared" and not self.piece("conspiracy", p["conspiracy"])):
                return None
            where = "" if self.at.where.get(p["card"]) == p["slot"] else f" @{p['slot']}"
            if t == "conspiracy_prepared":
                return f"prepare {p['conspiracy']} with {p['card']}{where}"
            return f"recruit {p['card']}{where}" + (f" {{paid {p['paid']}}}" if p["paid"] is not None else "")
        if t == "conspiracy_triggered":
            return f"trigger {p['conspiracy']}" if self.piece("conspiracy", p["conspiracy"]) else None
        if t in ("conspiracies_drawn", "conspiracy_chosen"):
            listed = p["conspiracies"] if t == "conspiracies_drawn" else p["keep"]
            if not all(self.piece("conspiracy", c) for c in listed):
                return None
            if t == "conspiracies_drawn":
                return f"conspiracies {', '.join(listed)}"
            return f"keep {', '.join(listed)}" + (f" (other on {p['place']})" if p["place"] else "")
        if t == "senate_action":
            return self.senate(p)
        if t == "removed_revealed":
            return f"removed {', '.join(p['cards'])}" if p["age"] == self.at.age and all(map(self.card, p["cards"])) \
                else None
        if t == "cards_swapped":
            if p["take"] is None or p["give"] is None:
                return "swap nothing" if p["take"] is None and p["give"] is None else None
            return f"swap {p['take']} for {p['give']}" if self.card(p["take"]) and self.card(p["give"]) else None
        if t == "decree_moved":
            decree = p["decree"]
            ok = self.piece("chamber", p["origin"]) and self.piece("chamber", p["chamber"]) \
                and (decree is None or self.piece("decree", decree))
            return f"moves decree {decree or FACE_DOWN} from {p['origin']} to {p['chamber']}" if ok else None
        if t == "conspiracy_target":
            target = p["target"]
            return f"target {p['effect']} {target or 'nothing'}" if target is None or normal(target) == target \
                and target not in NOTHING else None
        return None

    def senate(self, p: dict[str, Any]) -> str | None:
        """``senate place|remove <chamber>``, ``senate move <chamber> to <chamber>``, ``senate conspire|skip``."""
        action, chamber, origin = p["action"], p["chamber"], p["origin"]
        if action in ("conspire", "skip"):
            return f"senate {action}" if chamber is None and origin is None else None
        if not self.piece("chamber", chamber) or (origin is not None) != (action == "move"):
            return None
        if action == "move":
            return f"senate move {origin} to {chamber}" if self.piece("chamber", origin) else None
        return f"senate {action} {chamber}"

    def header(self, e: Event) -> bool:
        p = e.payload
        if self.lines:
            return False
        seats = sorted(p["seats"], key=lambda s: s["seat"])
        r = p["ruleset"]
        self.names = [s["name"] for s in seats]
        self.pack = find_pack([r["id"], r["version"], r["content_hash"]])
        self.sayable = (all(map(sayable, self.names)) and len({n.lower() for n in self.names}) == 2
                        and [s["seat"] for s in seats] == [0, 1])
        self.lines += [f'[Game "{escape(e.game_id)}"]', f'[Kind "{KIND}"]']
        tags = p.get("tags") or {}
        detail = p["provenance"]["detail"]
        plain = self.sayable and all(self.tag(k, v, STRUCTURAL) for k, v in tags.items()) \
            and self.tag("SourceDetail", detail, STRUCTURAL)
        if plain:
            self.lines += [f'[{k} "{escape(v)}"]' for k, v in tags.items()]
        self.lines += [f'[Ruleset "{r["id"]} {r["version"]} {r["content_hash"]}"]']
        if not plain:
            self.lines += ["", raw_text(e)]
            return True
        self.lines.append(f'[Source "{p["provenance"]["source"]}"]')
        if detail:
            self.lines.append(f'[SourceDetail "{escape(detail)}"]')
        self.lines += [f'[Seat "{s["seat"]} {s["name"]}"]' for s in seats]
        self.lines.append(f'[First "{self.names[p["first"]]}"]')
        return True

    def play(self, p: dict[str, Any]) -> str | None:
        if p["age"] != self.at.age or not self.card(p["card"]):
            return None
        if p["action"] == "wonder" and (p["wonder"] is None or not self.wonder(p["wonder"])):
            return None
        if p["action"] != "wonder" and p["wonder"] is not None:
            return None
        if not all(normal(source) == source for source in p["choices"]):
            return None
        words = [f"wonder {p['wonder']} with {p['card']}" if p["action"] == "wonder" else f"{p['action']} {p['card']}"]
        if self.at.where.get(p["card"]) != p["slot"]:
            words.append(f"@{p['slot']}")
        if p["free"]:
            words.append(f"free {p['free']}")
        payment = [f"buy {self.amounts(p['bought'])}"] if p["bought"] else []
        payment += [f"discount {self.amounts(p['discount'])}"] if p["discount"] else []
        payment += [f"{resource} from {source}" for source, resource in p["choices"].items()]
        if payment:
            words.append(f"({'; '.join(payment)})")
        claims = [f"paid {p['paid']}" if p["paid"] is not None else "",
                  (f"pawn {p['pawn']:+d}" if p["pawn"] else "pawn 0") if p["pawn"] is not None else "",
                  f"looted {p['looted']}" if p["looted"] is not None else ""]
        if any(claims):
            words.append("{" + ", ".join(c for c in claims if c) + "}")
        return " ".join(words)

    def over(self, p: dict[str, Any]) -> bool:
        scores = p["scores"]
        names = [self.name(s["seat"]) for s in scores]
        winners = [self.name(s) for s in p["winners"] or []]
        if None in names or None in winners or len(set(winners)) != len(winners) \
                or len({s["seat"] for s in scores}) != len(scores):
            return False
        self.lines += ["", "game over"]
        if p["victory"] is not None:
            self.lines.append(f"victory {p['victory']}")
        if p["winners"] is not None:
            self.lines.append(f"winners {', '.join(str(w) for w in winners) or 'none'}")
        self.scores([str(n) for n in names], scores, WRITTEN_CATEGORY)
        return True


def write(events: Iterable[Event]) -> str:
    """The canonical notation of a game: ``read(write(events)).events == events``."""
    return _Writer().write(events)
