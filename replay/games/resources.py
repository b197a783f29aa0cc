"""Resources that cities produce and costs paid with them: what 7 Wonders and 7 Wonders Duel share.

A city's production is fixed resources (all of them, every turn) and choice producers (each
gives one of its resources a turn). :func:`can_supply` says whether a production gives what is
wanted in one turn; :func:`own_uses` lists the ways a city's choice producers cover part of a
need, for the games' payment listings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Production:
    fixed: Counter[str]
    choices: tuple[tuple[str, tuple[str, ...]], ...]
    """(source, the resources it may give one of), in the order the city has them."""


@dataclass(frozen=True)
class PaymentProblem:
    """Why a recorded payment does not pay (a game's rules turn it into a located problem)."""

    rule_id: str
    expected: str
    found: str


def choice_problem(own: Production, choices: Mapping[str, str], rule_id: str, noun: str) -> PaymentProblem | None:
    """The first of a payment's ``choices`` (producer → resource) that the city's own choice
    producers cannot give; ``noun`` names a producer in the game's words."""
    offered = dict(own.choices)
    for source, resource in choices.items():
        if resource not in offered.get(source, ()):
            what = f"one of {', '.join(offered[source])} from {source}" if source in offered else \
                f"a {noun} the city has: " + (", ".join(offered) or "none")
            return PaymentProblem(rule_id, what, f"{resource} from {source}")
    return None


def production_of(effects: Iterable[tuple[str, Any]], keep: Callable[[Any], bool] = lambda e: True) -> Production:
    """The production of a city's (source, effect) pairs: each ``produce`` effect that ``keep``
    admits, fixed (all its resources) or a choice (one of them a turn)."""
    fixed: Counter[str] = Counter()
    choices = []
    for source, e in effects:
        if e.type != "produce" or not keep(e):
            continue
        if e.choice:
            choices.append((source, tuple(e.resources)))
        else:
            fixed.update(e.resources)
    return Production(fixed, tuple(choices))


def can_supply(prod: Production, wanted: Mapping[str, int]) -> bool:
    """Whether ``prod`` gives all of ``wanted`` in one turn (each choice producer once)."""
    rest = Counter(wanted) - prod.fixed
    need = [r for r, k in rest.items() for _ in range(k)]
    producers = [options for _, options in prod.choices]
    if len(need) > len(producers):
        return False
    return _assign(need, producers, 0, [False] * len(producers))


def _assign(need: list[str], producers: list[tuple[str, ...]], i: int, used: list[bool]) -> bool:
    if i == len(need):
        return True
    for j, options in enumerate(producers):
        if not used[j] and need[i] in options:
            used[j] = True
            if _assign(need, producers, i + 1, used):
                return True
            used[j] = False
    return False


def own_uses(need: Counter[str], producers: list[tuple[str, tuple[str, ...]]]) -> Iterator[tuple[dict[str, str], Counter[str]]]:
    """Each way to cover part of ``need`` with the city's choice producers (each once, or unused):
    (which producer gave what, what is still needed). Covering more is never worse, so a producer
    is left unused only when nothing it gives is still needed."""
    seen: set[tuple[tuple[str, int], ...]] = set()

    def walk(i: int, need: Counter[str], used: dict[str, str]) -> Iterator[tuple[dict[str, str], Counter[str]]]:
        if i == len(producers) or not need:
            key = tuple(sorted(need.items()))
            if key not in seen:
                seen.add(key)
                yield dict(used), Counter(need)
            return
        source, options = producers[i]
        useful = [r for r in options if need[r] > 0]
        for r in useful:
            need[r] -= 1
            used[source] = r
            yield from walk(i + 1, +need, used)
            del used[source]
            need[r] += 1
        if not useful:
            yield from walk(i + 1, need, used)

    yield from walk(0, Counter(need), {})


def counts(resources: Mapping[Any, int]) -> str:
    """``{"wood": 2, "clay": 1}`` in words: "clay, 2 wood" ("nothing" when empty)."""
    parts = [f"{k} {r}" if k > 1 else r for r, k in sorted(resources.items()) if k]
    return ", ".join(parts) or "nothing"


def production_words(prod: Production) -> str:
    parts = [counts(prod.fixed)] if prod.fixed else []
    parts += ["/".join(options) for _, options in prod.choices]
    return ", ".join(parts) or "nothing"
