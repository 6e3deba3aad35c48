"""The ceiling on reservation in a year's vacancies: Art. 16(4B) and M.R. Balaji 1962 / Indra Sawhney 1992
(50%), central Bill 2004 s.10 (the backlog of SC and ST outside it)."""
from __future__ import annotations

from ..vacancy.determine import ceiling_use
from .allocation import Violation
from .reading import Reading


def ceiling(r: Reading) -> list[Violation]:
    """Neither the reserved vacancies of a post's year nor the appointments counted against reserved
    categories exceed `ceiling.share` of its vacancies; carried vacancies whose backlog stands outside the
    ceiling (`ceiling.backlog_excluded`) and exempt vacancies are not counted (Art. 16(4B))."""
    policy, out = r.policy, []
    source = policy.ceiling.source or "Art. 16(4B)"
    for j, post in enumerate(r.problem.posts):
        used, total = ceiling_use(policy, r.seats, post)
        if used > policy.ceiling.share * total + 1e-9:
            out.append(r.violation("ceiling broken", None, j, f"{used} of {total} vacancies reserved", source))
    counted_in = {x.code for x in policy.categories if x.in_ceiling}
    for j, post in enumerate(r.problem.posts):
        k = sum(1 for row in r.rows if r.alloc.post[row] == j and r.alloc.counted[row] in counted_in)
        _, total = ceiling_use(policy, r.seats, post)
        outside, _ = r.seats.outside_ceiling(post, policy)  # appointees on backlog vacancies (Art. 16(4B))
        if k > policy.ceiling.share * total + outside + 1e-9:
            out.append(r.violation("ceiling broken", None, j, f"{k} of {total} appointments count as reserved", source))
    return out
