"""The recommendation list drawn before post allocation (UPSC practice; CSE Rule 16(2); Union of India v.
Ramesh Ram 2010).

Forward: every post's vacancies are summed per category and the single-cadre procedure selects who is
recommended and against which category (open first). Then services are allocated among the recommended on
merit-cum-preference: an open-selected candidate holds open vacancies and, under Rule 16(2), a vacancy of
their own reserved category at a post they prefer (an *upgrade*); a reserved-selected candidate holds their
category's vacancies and the open vacancies that upgrades free, after every open-selected candidate.
Inverse: `Selection` keeps each candidate's recommendation category and route so the allocation can say
against what each appointment counts.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .errors import Unsupported
from .policy import Policy
from .pools import OPEN_MERIT, RESERVED, Pool, Pools, Shared, member_mask, open_mask
from .problem import Problem, VacancyRow
from .vacancy import SeatTable

UPGRADE = "upgrade"
MERGED = "recommendation list"


@dataclass(frozen=True)
class Selection:
    category: np.ndarray   # object per candidate: the category recommended against ('' = not recommended)
    route: np.ndarray      # object per candidate: route in the recommendation list
    stage: "object"        # the Result of the recommendation stage (for reasons)


def merged(policy: Policy, problem: Problem, seats: SeatTable) -> tuple[Problem, SeatTable]:
    """One cadre holding every post's vacancies, per category."""
    if seats.minimums or seats.overall:
        raise Unsupported("horizontal minimums together with a recommendation list are not implemented yet (issue 4)")
    if policy.unfilled.dereserve or policy.fallback or any(g.after_years == 0 for g in policy.exchange):
        raise Unsupported("a recommendation list together with same-year exchange, fallback or de-reservation "
                          "is not implemented (the allocation could not say which category a crossing appointee "
                          "was recommended for); see the note on issue 5")
    totals: dict[str, int] = {}
    for (_, code), v in seats.seats.items():
        totals[code] = totals.get(code, 0) + v
    rows = tuple(VacancyRow(MERGED, code, v) for code, v in totals.items())
    prefs = None
    if not policy.migration.allocate_unranked:
        # Only those who could hold a vacancy at a post they ranked compete for the list.
        ranked = problem.post_rank < (1 << 20)
        can = np.zeros(problem.n, dtype=bool)
        for code in [policy.open, *policy.reserved_codes]:
            where = np.array([seats.cap(p, code) > 0 for p in problem.posts])
            mask = open_mask(policy, problem) if code == policy.open else member_mask(policy, problem, code)
            can |= mask & (ranked & where).any(axis=1)
        prefs = tuple(np.array([0] if ok else [], dtype=np.int32) for ok in can)
    prob = replace(problem, posts=(MERGED,), vacancy_rows=rows, preferences=prefs)
    return prob, SeatTable((MERGED,), {(MERGED, c): v for c, v in totals.items()}, {})


def allocation_pools(policy: Policy, problem: Problem, seats: SeatTable, sel: Selection) -> Pools:
    """Pools of the service allocation among the recommended, in phases each chosen by merit alone:

    0. open-selected candidates at posts they ranked: open vacancies, then (Rule 16(2)) a vacancy of their
       own reserved category at that post;
    1. open-selected candidates whom their ranked posts could not place: open vacancies left anywhere;
    2. reserved-selected candidates at posts they ranked: their category's vacancies, then open vacancies
       that upgrades into their category freed (as many as upgrades took of its vacancies);
    3. reserved-selected candidates left over: the same, anywhere.
    Phases 1 and 3 exist when the policy gives unplaced candidates the remaining vacancies (UPSC practice).
    """
    post_rank = problem.post_rank
    ranked = post_rank < (1 << 20)
    sel_open = sel.category == policy.open
    reserved = [c for c in policy.reserved_codes if (sel.category == c).any()]
    pools: list[Pool] = []
    shared: list[Shared] = []
    extra = policy.migration.allocate_unranked
    at: dict[tuple, int] = {}  # (phase, post, kind, category) -> pool index

    def add(phase, j, prec, code, route, elig, base, minus=()):
        pool = Pool(len(pools), j, route, phase, prec, (code,), elig, base, tuple(minus))
        pools.append(pool)
        return pool.index

    for phase, where in ((0, ranked), (1, ~ranked)):
        if phase == 1 and not extra:
            continue
        for j, post in enumerate(problem.posts):
            minus = [at[(0, j, "open", policy.open)]] if phase == 1 else []
            at[(phase, j, "open", policy.open)] = add(phase, j, 0, policy.open, OPEN_MERIT, sel_open & where[:, j],
                                                      seats.cap(post, policy.open), minus)
            if phase == 0 and policy.migration.upgrade:
                for k, code in enumerate(policy.reserved_codes, 1):
                    elig = sel_open & member_mask(policy, problem, code) & where[:, j]
                    at[(0, j, UPGRADE, code)] = add(0, j, k, code, RESERVED, elig, seats.cap(post, code))
    opened = [k for key, k in at.items() if key[2] == "open"]
    for phase, where in ((2, ranked), (3, ~ranked)):
        if phase == 3 and not extra:
            continue
        for j, post in enumerate(problem.posts):
            for k, code in enumerate(reserved, 1):
                mine = (sel.category == code) & where[:, j]
                minus = [at[key] for key in at if key[1] == j and key[3] == code and key[2] in (UPGRADE, "own")]
                at[(phase, j, "own", code)] = add(phase, j, k, code, RESERVED, mine, seats.cap(post, code), minus)
            for k, code in enumerate(reserved, 1):
                mine = (sel.category == code) & where[:, j]
                at[(phase, j, "freed", code)] = add(phase, j, len(reserved) + k, policy.open, OPEN_MERIT, mine,
                                                    seats.cap(post, policy.open))
    # Shared bounds live within one phase (where merit alone decides); a later phase gets what is left.
    for phase in (2, 3):
        earlier = [k for key, k in at.items() if key[2] == "freed" and key[0] < phase]
        for j, post in enumerate(problem.posts):
            freed = tuple(k for key, k in at.items() if key[2] == "freed" and key[1] == j and key[0] == phase)
            if freed:
                used = tuple(k for k in opened + earlier if pools[k].post == j)
                shared.append(Shared(freed, seats.cap(post, policy.open), minus=used))
        for code in reserved:
            freed = tuple(k for key, k in at.items() if key[2] == "freed" and key[3] == code and key[0] == phase)
            upgrades = tuple(k for key, k in at.items() if key[2] == UPGRADE and key[3] == code)
            spent = tuple(k for key, k in at.items() if key[2] == "freed" and key[3] == code and key[0] < phase)
            if freed:
                shared.append(Shared(freed, 0, plus=upgrades, minus=spent))
    return Pools(tuple(pools), post_rank, problem.preferences is None, sel, tuple(shared))
