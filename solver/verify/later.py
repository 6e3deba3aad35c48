"""The later phases: exchange, fallback and de-reservation fill only what the candidates' own categories could
not, in the order the Acts give, on merit within each route, and leave nothing unfilled while someone they
are for waits."""
from __future__ import annotations

import numpy as np

from ..data.routes import LATER_ROUTES, Route
from .allocation import Violation
from .horizontal import held_names
from .reading import Reading
from ..data.words import article

# Each later route's rule in `Policy.authorities`.
RULE_OF = {Route.EXCHANGE: "exchange", Route.FALLBACK: "fallback", Route.PROBATION: "probation",
           Route.DERESERVED: "dereserve"}


def after_own_category(r: Reading) -> list[Violation]:
    """A vacancy of category X passes by exchange, fallback or de-reservation only once X's own candidates
    who applied for the post are exhausted ("not available": Maharashtra s.4(3); Manipur s.4; Bihar s.4(6))."""
    out = []
    for row in _later_rows(r):
        route, seat, j = r.alloc.route[row], r.alloc.seat[row], int(r.alloc.post[row])
        waiting = np.flatnonzero(_earlier_takers(r, route, seat, j) & ~r.selected & r.applied(j))
        if len(waiting):
            out.append(r.violation(f"{route} before the own category ran out", r.alloc.cand[row], j,
                                   f"{seat} candidate {r.problem.candidates.ids[waiting[0]]} (rank {waiting[0] + 1}) "
                                   "was not selected", r.cite(RULE_OF[route])))
    return out


def _earlier_takers(r: Reading, route: str, seat: str, j: int) -> np.ndarray:
    """Who a vacancy of `seat` at post j goes to before it may pass by `route`: its own qualified members; before
    probation also its same-year exchange partners and fallback takers ("the remaining reserved vacancies",
    Manipur s.8(3)); before de-reservation also those who may be recruited on probation."""
    mask = r.may[seat].copy()
    if route == Route.PROBATION:
        for g in r.policy.exchange:
            if g.after_years == 0 and seat in g.categories:
                mask |= np.any([r.may[x] for x in g.categories], axis=0)
        for f in r.policy.fallback:
            if f.from_ == seat:
                mask |= np.any([r.may[x] for x in f.to], axis=0)
    if route == Route.DERESERVED and r.probation_post(j):
        mask |= r.on_probation[seat]
    return mask


def fallback_order(r: Reading) -> list[Violation]:
    """Down a fallback chain in its order: WBC's unfilled vacancies go to SC, then ST, then EBC, then BC
    (Bihar Act 1991 s.4(6)); a later step only when nobody of the earlier ones is left."""
    out = []
    for row in _later_rows(r, Route.FALLBACK):
        i, seat, j = r.alloc.cand[row], r.alloc.seat[row], int(r.alloc.post[row])
        chain = next((f for f in r.policy.fallback if f.from_ == seat), None)
        if chain is None:
            continue
        mine = next((k for k, x in enumerate(chain.to) if r.may[x][i]), 0)
        for x in chain.to[:mine]:
            waiting = np.flatnonzero(r.may[x] & ~r.selected & r.applied(j))
            if len(waiting):
                out.append(r.violation("fallback order", i, j, f"{x} comes first in the chain and "
                                       f"{r.problem.candidates.ids[waiting[0]]} was not selected", r.cite("fallback")))
    return out


def merit_within_route(r: Reading) -> list[Violation]:
    """Within a later route, merit decides who of those it is for takes the vacancy: open merit for a
    de-reserved one, the holder's own category for exchange and fallback."""
    c, out = r.problem.candidates, []
    for row in _later_rows(r):
        i, route, j = r.alloc.cand[row], r.alloc.route[row], int(r.alloc.post[row])
        pool = r.may[r.policy.open] if route == Route.DERESERVED else \
            r.on_probation.get(r.alloc.seat[row]) if route == Route.PROBATION else r.may.get(c.category[i])
        if pool is None:
            continue
        better = np.flatnonzero(pool[:i] & ~r.selected[:i] & r.applied(j)[:i])
        if route == Route.EXCHANGE:
            better = better[c.category[better] == c.category[i]]
        if len(better):
            out.append(r.violation("justified envy", better[0], j, f"rank {better[0] + 1} not selected while rank "
                                   f"{i + 1} holds {article(route)} {route} vacancy", "merit order within the route"))
    return out


def _later_rows(r: Reading, *routes) -> list[int]:
    routes = routes or LATER_ROUTES
    return [row for row in r.rows if r.alloc.route[row] in routes and row not in r.misrouted]


def held_seats_kept(r: Reading) -> list[Violation]:
    """A seat a held horizontal minimum keeps vacant (`Reading.held_vacant`) is no later phase's to fill: the
    exchange, fallback or de-reservation of the category's unfilled vacancies takes only the others (PwD Act 1995
    s.36: the vacancy "shall be carried forward")."""
    out = []
    for (j, code), vacant in r.held_vacant.items():
        post = r.problem.posts[j]
        if r.count.get((j, code), 0) + vacant > r.seats.cap(post, code):
            later = [row for row in _later_rows(r) if r.alloc.post[row] == j and r.seat[row] == code]
            for row in later[:1]:
                out.append(r.violation("held horizontal seat filled by another", int(r.alloc.cand[row]), j,
                                       f"{vacant} of the {code} seats are held for "
                                       f"{held_names(r.policy, r.seats, post, code)} and no beneficiary holds them, "
                                       f"yet {r.alloc.route[row]} filled one", r.policy.horizontal.held_source))
    return out


def no_wasted_vacancies(r: Reading) -> list[Violation]:
    """Non-wastefulness of the later phases: a reserved vacancy the own category left is not left unfilled
    while one it may pass to (an exchange partner, the next step of a fallback chain, anyone eligible for
    open where de-reservation is allowed) waits without a better seat."""
    out = []
    for j in range(len(r.problem.posts)):
        out.extend(_wasted_at(r, j))
    return out


def _wasted_at(r: Reading, j: int) -> list[Violation]:
    policy, post = r.policy, r.problem.posts[j]
    left = {code: r.seats.cap(post, code) - r.count.get((j, code), 0) - r.held_vacant.get((j, code), 0)
            for code in policy.reserved_codes}
    out = []
    for phase, route, sources, takers, source in _stages(r, j, left):
        if route == Route.DERESERVED and policy.unfilled.dereserve_when == "after_exchange":
            rest = {x: min(left[x], r.backlog_left(j, x) - r.dereserved.get((j, x), 0)) for x in sources}
        else:
            rest = left
        if sum(max(0, rest[x]) for x in sources) <= 0:
            continue
        waiting = np.flatnonzero(takers & r.applied(j) & (r.keys[:, 0] > phase))
        if len(waiting):
            out.append(r.violation("vacancy left while an eligible candidate wanted it", waiting[0], j,
                                   f"{'/'.join(sources)} vacancies unfilled after {route}", source or route))
    return out


def _stages(r: Reading, j: int, left: dict) -> list[tuple]:
    """The later phases at post j in order: (phase, route, the categories whose vacancies pass, who may take
    them, source)."""
    policy = r.policy

    def anyone(codes):
        return np.any([r.may[x] for x in codes], axis=0)
    stages = [(1, Route.EXCHANGE, g.categories, anyone(g.categories), g.source)
              for g in policy.exchange if g.after_years == 0]
    for g in policy.exchange:
        if g.after_years:
            rest = {x: max(0, min(left[x], r.backlog_left(j, x))) for x in g.categories}
            if sum(rest.values()):
                stages.append((1, Route.EXCHANGE, [x for x in g.categories if rest[x]], anyone(g.categories),
                               g.source))
    stages += [(2, Route.FALLBACK, [f.from_], anyone(f.to), f.source) for f in policy.fallback]
    if r.probation_post(j):
        stages += [(8, Route.PROBATION, [code], r.on_probation[code], policy.probation.source)
                   for code in policy.probation.categories]
    if policy.unfilled.in_first_round:
        stages.append((9, Route.DERESERVED, [x.code for x in policy.categories if x.carry_forward],
                       r.may[policy.open], policy.unfilled.source))
    return stages
