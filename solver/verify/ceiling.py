"""The ceiling on reservation in a year's vacancies: Art. 16(4B) and M.R. Balaji 1962 / Indra Sawhney 1992
(50%), central Bill 2004 s.10 (the backlog of SC and ST outside it)."""
from __future__ import annotations

import numpy as np

from .allocation import Violation
from .reading import Reading


def _year_share(r: Reading) -> dict[str, tuple[int, int]]:
    """Per post, verify's own count (not the vacancy stage's) of what the ceiling is a share of: (the reserved
    vacancies of the categories it covers, the year's vacancies). Art. 16(4B) makes the backlog a separate
    class "not considered together with the vacancies of the year" (of the categories
    `ceiling.backlog_excluded` names; Bill 2004 s.10 proviso: SC and ST), so a carried vacancy of theirs is in
    neither count (a carried reservation only in the first: its post is one of the year's own); exempt posts
    are outside the Act (Bill 2004 s.4) and in neither."""
    policy, seats = r.policy, r.seats
    covered = {c.code for c in policy.categories if c.in_ceiling}
    reserved = dict.fromkeys(r.problem.posts, 0)
    year = {post: -seats.exempt.get(post, 0) for post in r.problem.posts}
    for (post, code), v in seats.seats.items():
        year[post] += v
        reserved[post] += v if code in covered else 0
    for (post, code), items in seats.carried.items():
        if policy.backlog_outside_ceiling(code):
            reserved[post] -= len(items)
            year[post] -= sum(1 for x in items if x.kind == "vacancy")
    out = {post: (reserved[post], year[post]) for post in r.problem.posts}
    return out


def ceiling(r: Reading) -> list[Violation]:
    """Neither the reserved vacancies of a post's year nor the appointments counted against reserved
    categories exceed `ceiling.share` of its vacancies; carried vacancies whose backlog stands outside the
    ceiling (`ceiling.backlog_excluded`) and exempt vacancies are not counted (Art. 16(4B)). A seat pool's
    ceiling is its program's (`_programs`)."""
    policy, out = r.policy, []
    source = policy.ceiling.source or "Art. 16(4B)"
    uses = _year_share(r)
    # ceiling.roster_window = "roster_governs": a year that is a window of a post's running roster (a TOTAL row)
    # is left to the roster's points (R.K. Sabharwal 1995), which verify.roster checks
    windowed = {row.post for row in r.problem.vacancy_rows if row.category == "TOTAL" and not row.exempt} \
        if policy.ceiling.roster_window == "roster_governs" else set()
    program = {row.post: row.pool.program for row in r.problem.vacancy_rows if row.pool is not None}
    per_post = _reserved_appointments(r)
    for j, post in enumerate(r.problem.posts):
        if post in windowed or post in program:
            continue      # (a pool's figures: its program's, below)
        used, total = uses[post]
        if used > policy.ceiling.share * total + 1e-9:
            out.append(r.violation("ceiling broken", None, j, f"{used} of {total} vacancies reserved", source))
        k = int(per_post[j])
        outside, _ = r.seats.outside_ceiling(post, policy)  # appointees on backlog vacancies (Art. 16(4B))
        if k > policy.ceiling.share * total + outside + 1e-9:
            out.append(r.violation("ceiling broken", None, j, f"{k} of {total} appointments count as reserved", source))
    return out + _programs(r, uses, program, per_post, source)


def _reserved_appointments(r: Reading) -> np.ndarray:
    """Per post, the appointments counted against a category within the ceiling. Seats the same-rank rule adds
    over the number (`merit.same_rank = "supernumerary"`; JoSAA Business Rules, "Multiple student - same rank
    rule", as summarised) are not of the notified vacancies, so holders of a reserved seat past its vacancies are
    not counted (whether they may be there is the capacity check's)."""
    counted_in = sorted(x.code for x in r.policy.categories if x.in_ceiling)
    rows = np.asarray(list(r.rows), dtype=np.int64)
    counted = np.asarray(r.alloc.counted, dtype=str)
    mine = rows[np.isin(counted[rows], counted_in)] if len(rows) else rows
    out = np.bincount(np.asarray(r.alloc.post, dtype=np.int64)[mine], minlength=len(r.problem.posts))
    if r.policy.merit.same_rank == "supernumerary":   # (holders past a reserved seat's capacity: `capacity`'s count)
        for (j, seat), k in r.count.items():
            if seat in counted_in:
                out[j] -= max(0, k - r.seats.cap(r.problem.posts[j], seat))
    return out


def _programs(r: Reading, uses: dict, program: dict[str, str], per_post: np.ndarray, source: str) -> list[Violation]:
    """Seat pools: the ceiling is a share of a program's seats, all its pools together (JoSAA's seat matrix: a
    pool of one PwD seat may be all reserved), for its vacancies and its appointments alike."""
    index = r.problem.post_index
    pools_of: dict[str, list[int]] = {}
    for post, name in program.items():
        pools_of.setdefault(name, []).append(index[post])
    out, share = [], r.policy.ceiling.share
    for name, posts in pools_of.items():
        used = sum(uses[r.problem.posts[j]][0] for j in posts)
        total = sum(uses[r.problem.posts[j]][1] for j in posts)
        k = int(per_post[posts].sum())
        if used > share * total + 1e-9:
            out.append(r.violation("ceiling broken", None, posts[0], f"{used} of {total} vacancies reserved (program "
                                   f"{name}, all its pools)", source))
        if k > share * total + 1e-9:
            out.append(r.violation("ceiling broken", None, posts[0], f"{k} of {total} appointments of program {name} "
                                   "(all its pools) count as reserved", source))
    return out
