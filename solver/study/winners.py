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

    A seat pool's post ("NIT-K-CSE [OS, female]": `solver.data.seat_pools`) is read as its program where the
    preferences rank programs: another pool of the same program is another seat at the post.

    Example
    -------
    >>> change_kind(None, ("X", "UR")), change_kind(("X", "UR"), ("Y", "UR"), ["Y", "X"])
    ('gains a post', 'moves up')
    >>> change_kind(("NIT-K-ME [OS]", "OPEN"), ("NIT-K-CSE [HS, female]", "OPEN"), ["NIT-K-CSE", "NIT-K-ME"])
    'moves up'
    >>> change_kind(("NIT-K-CSE [OS]", "OPEN"), ("NIT-K-CSE [OS, female]", "OPEN"), ["NIT-K-CSE"])
    'another seat at the post'
    """
    if a == b:
        return None
    if a is None:
        return "gains a post"
    if b is None:
        return "loses the post"
    was, now = (_program(x[0], ranked) for x in (a, b))
    if was == now:
        return "another seat at the post"
    if ranked is not None and was in ranked and now in ranked:
        return "moves up" if ranked.index(now) < ranked.index(was) else "moves down"
    return "moves to another post"


def _program(post: str, ranked) -> str:
    """The post as the preferences name it: a seat pool's post is its program, the name before its last " [",
    where the post itself is not ranked (a program's own name may hold brackets)."""
    if ranked is None or post in ranked or " [" not in post:
        return post
    return post.rpartition(" [")[0]


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
