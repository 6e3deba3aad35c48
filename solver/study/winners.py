"""Winners and losers of a what-if, by group: who gains a post, loses it, or moves up or down his own list of
preferences, counted by own category x horizontal trait (women, PwBD, ex-servicemen), as the policy simulators
analysts use report them (PolicyEngine's winners and losers by group). The per-candidate rows stay in
changes.csv; these are their counts."""
from __future__ import annotations

from collections import Counter

KINDS = ["gains a post", "loses the post", "moves up", "moves down", "moves to another post",
         "another seat at the post", "another route to the seat"]


def change_kind(a, b, ranked=None) -> str | None:
    """How one candidate's outcome changed from A to B: `a`, `b` are (post, seat category) or None (not
    selected); `ranked` his posts in order of preference (None: no preferences, a move has no direction).

    Example
    -------
    >>> change_kind(None, ("X", "UR")), change_kind(("X", "UR"), ("Y", "UR"), ["Y", "X"])
    ('gains a post', 'moves up')
    """
    if a == b:
        return None
    if a is None:
        return "gains a post"
    if b is None:
        return "loses the post"
    if a[0] == b[0]:
        return "another seat at the post"
    if ranked is not None and a[0] in ranked and b[0] in ranked:
        return "moves up" if ranked.index(b[0]) < ranked.index(a[0]) else "moves down"
    return "moves to another post"


def traits_label(female: bool, pwbd: str, ex_serviceman: bool) -> str:
    """The horizontal traits a candidate has, as a group's name ("none" for none)."""
    have = [name for name, has in (("women", female), ("pwbd", bool(pwbd)), ("ex_serviceman", ex_serviceman))
            if has]
    return ";".join(have) or "none"


def tally(changes, order: list[str]) -> list[dict]:
    """`changes`: (own category, traits, kind) per candidate who fares otherwise. One row per group that has a
    change, categories in `order` (the policy's), each kind's count and the net gain in posts."""
    counts = Counter(changes)
    groups = sorted({(c, t) for c, t, _ in counts}, key=lambda g: (order.index(g[0]) if g[0] in order
                                                                    else len(order), g[0], g[1] != "none", g[1]))
    out = []
    for code, traits in groups:
        row = {"category": code, "traits": traits, **{k: counts[(code, traits, k)] for k in KINDS}}
        row["net"] = row["gains a post"] - row["loses the post"]
        out.append(row)
    return out
