"""End-of-game VP by category and the winners with the published tie-breaks (most launched boats,
then most fish crates on boats); a tie that survives both is shared (docs/games/fleet.md)."""

from __future__ import annotations

from .state import State

CATEGORIES = ("licenses", "boats", "fish", "crab_captains", "crab_fish", "crab_licenses", "gone_fishin")


def license_types(state: State, seat: int) -> int:
    """Different license types owned, every King Crab license counting as one type."""
    return len({"crab" if x.startswith("crab") else x for x in state.licenses[seat]})


def vp(state: State, seat: int) -> dict[str, int]:
    pack, b = state.pack, state.pack.bonuses
    owned = set(state.licenses[seat])
    fish = sum(x[2] for x in state.boats[seat])
    out = {
        "licenses": sum(pack.license[x].vp for x in state.licenses[seat]),
        "boats": sum(pack.boat[x[0]].vp for x in state.boats[seat] if x[0] in pack.boat),
        "fish": fish,
        "crab_captains": min(b.crab_cap, state.captains(seat)) if "crab_captains" in owned else 0,
        "crab_fish": min(b.crab_cap, fish // b.crab_fish_per_vp) if "crab_fish" in owned else 0,
        "crab_licenses": 0,
        "gone_fishin": state.hand[seat].count("gone_fishin") * pack.gone_fishin.vp,
    }
    if "crab_licenses" in owned:
        types = license_types(state, seat)
        rows = [r.vp for r in b.crab_types if r.types <= types]
        out["crab_licenses"] = min(b.crab_cap, max(rows, default=0))
    return out


CLAIMED = ("licenses", "boats", "fish", "king_crab", "gone_fishin")
"""The categories a final score sheet writes down (the three King Crab bonuses as one)."""


def claimed(state: State, seat: int) -> dict[str, int]:
    """VP by the categories a score sheet writes down."""
    v = vp(state, seat)
    return {"licenses": v["licenses"], "boats": v["boats"], "fish": v["fish"],
            "king_crab": v["crab_captains"] + v["crab_fish"] + v["crab_licenses"], "gone_fishin": v["gone_fishin"]}


def total(state: State, seat: int) -> int:
    return sum(vp(state, seat).values())


def tie_key(state: State, seat: int) -> tuple[int, int, int]:
    return total(state, seat), len(state.boats[seat]), sum(x[2] for x in state.boats[seat])


def winners(state: State) -> tuple[list[int], str]:
    """The winners and the tie-break that decided (none, boats, fish, shared)."""
    keys = [tie_key(state, s) for s in range(state.n)]
    best = max(k[0] for k in keys)
    tied = [s for s in range(state.n) if keys[s][0] == best]
    if len(tied) == 1:
        return tied, "none"
    for depth, name in ((1, "boats"), (2, "fish")):
        top = max(keys[s][depth] for s in tied)
        tied = [s for s in tied if keys[s][depth] == top]
        if len(tied) == 1:
            return tied, name
    return tied, "shared"
