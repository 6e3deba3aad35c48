"""The seats a round of counselling leaves unfilled, made over for the next round by the policy's conversions
(`seat_pools.conversions`: the Business Rules' "De-reservation of unfilled seats", PwD seats to non-PwD ones
within the category, OBC-NCL and GEN-EWS to OPEN, as RULES.md summarises them; the section's text was not
read; a quota's seats to another quota's at the same program, as CSAB's "State Quota Seats Conversion" is
headed, its text not read)."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..errors import Unsupported
from ..policy import Policy
from ..data.problem import Problem


def seats_left(policy: Policy, problem: Problem, held) -> Counter:
    """(post, category) -> seats no one holds after the round, once converted. `held`: the (post, category) of
    every seat held after it. A seat a conversion made over and a later round filled is the one it was made
    into: the arithmetic runs on what each (post, category) lacks or has over its rows (an excess absorbs what
    a conversion brought).

    Example
    -------
    >>> from solver import load_policy
    >>> from solver.data.problem import Candidates, Problem, VacancyRow
    >>> import numpy as np
    >>> pol = load_policy("josaa-2025")
    >>> c = Candidates(*[np.zeros(0, dtype=object)] * 7, None, np.zeros(0, int))
    >>> prob = Problem(c, ("P",), (VacancyRow("P", "OPEN", 2), VacancyRow("P", "OBC-NCL", 1)))
    >>> dict(seats_left(pol, prob, [("P", "OPEN")]))     # OBC-NCL's unfilled seat is OPEN's now
    {('P', 'OPEN'): 2}
    """
    if any(r.category == "TOTAL" for r in problem.vacancy_rows):
        raise Unsupported("a round offering the seats the last one left needs vacancies.csv per category (the "
                          "seat matrix), not TOTAL rows")
    free = Counter()
    for r in problem.vacancy_rows:
        free[(r.post, r.category)] += r.vacancies
    for key in held:
        free[key] -= 1
    pools = dict(zip(problem.posts, problem.post_pools))
    for rule in policy.seat_pools.conversions:
        for (post, cat), k in sorted(free.items()):
            if k <= 0:
                continue
            if rule.category:
                if cat != rule.category:
                    continue
                to = (post, rule.to)
            else:
                into = _made_into(rule, pools.get(post))
                if into not in pools:       # (not touched, or the program has no such pool)
                    continue
                to = (into, cat)
            free[to] += k
            free[(post, cat)] = 0
    return Counter({key: k for key, k in free.items() if k > 0})


def _made_into(rule, pool) -> str | None:
    """The post a trait's or a quota's conversion makes `pool`'s seats into: the same program's pool without the
    trait, or of the other quota (the rest alike); None where the rule does not touch the pool."""
    if pool is None:
        return None
    if rule.trait:
        return replace(pool, trait="").name if pool.trait == rule.trait else None
    return replace(pool, quota=rule.to).name if pool.quota == rule.quota else None
