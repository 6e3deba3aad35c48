"""The ceiling on reservation in a year's vacancies: Art. 16(4B) and M.R. Balaji 1962 / Indra Sawhney 1992
(50%), central Bill 2004 s.10 (the backlog of SC and ST outside it)."""
from __future__ import annotations

import numpy as np

from ..vacancy.determine import ceiling_uses
from .allocation import Violation
from .reading import Reading


def ceiling(r: Reading) -> list[Violation]:
    """Neither the reserved vacancies of a post's year nor the appointments counted against reserved
    categories exceed `ceiling.share` of its vacancies; carried vacancies whose backlog stands outside the
    ceiling (`ceiling.backlog_excluded`) and exempt vacancies are not counted (Art. 16(4B))."""
    policy, out = r.policy, []
    source = policy.ceiling.source or "Art. 16(4B)"
    uses = ceiling_uses(policy, r.seats)
    for j, post in enumerate(r.problem.posts):
        used, total = uses[post]
        if used > policy.ceiling.share * total + 1e-9:
            out.append(r.violation("ceiling broken", None, j, f"{used} of {total} vacancies reserved", source))
    counted_in = sorted(x.code for x in policy.categories if x.in_ceiling)
    rows = np.asarray(list(r.rows), dtype=np.int64)
    counted = np.asarray(r.alloc.counted, dtype=str)
    mine = rows[np.isin(counted[rows], counted_in)] if len(rows) else rows
    per_post = np.bincount(np.asarray(r.alloc.post, dtype=np.int64)[mine], minlength=len(r.problem.posts))
    for j, post in enumerate(r.problem.posts):
        k = int(per_post[j])
        _, total = uses[post]
        outside, _ = r.seats.outside_ceiling(post, policy)  # appointees on backlog vacancies (Art. 16(4B))
        if k > policy.ceiling.share * total + outside + 1e-9:
            out.append(r.violation("ceiling broken", None, j, f"{k} of {total} appointments count as reserved", source))
    return out
