"""Overall horizontal minimums turned into compartment minimums (between stages 1 and 2 of the chain).

Anil Kumar Gupta v. State of U.P. (1995), para 18, for horizontal reservation that is not divided among the
vertical categories: fill the open and reserved compartments on merit, count the beneficiaries selected;
if fewer than required, take the required number of the best remaining beneficiaries and adjust each
against her own category (open for a candidate of no reserved category), removing the lowest
non-beneficiary of that compartment. Nobody is removed for an excess.

The count is of the post's open and own-category seats (phase 0 of `solver.pools`), where horizontal rules
act; exchange, fallback and de-reserved seats fill what the categories left.

Forward (`distribute`), post by post in file order (without preferences a post's phase-0 seats depend only
on the posts before it): solve with the minimums fixed so far (the greedy; with one merit list the stable
assignment is unique, so any engine gives it); if the post is short, give each of its compartments a
minimum: the beneficiaries it already holds, plus one for each best remaining beneficiary adjusted into it.
Compartment minimums are what both engines and their minimum-guarantee semantics already implement, so the
engines then agree by construction. A man an adjustment removes may move down to his own compartment and
push a counted woman out; her compartment's minimum keeps her, and the step repeats until the post meets
its minimum or nobody is left to adjust (minimums only grow, so this ends).
Inverse: none needed; the allocation is one of the original problem. The derived minimums are kept in
the seat table's notes so that a reader can see where each adjustment was placed.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .engines.greedy import solve_greedy
from .errors import Unsupported
from .policy import Policy
from .pools import build_pools, homes, member_mask, with_minimums
from .problem import Problem
from .vacancy import SeatTable

PREFERENCES = (
    "horizontal.mode = \"overall\" with a preferences file is refused: the open compartment counts a woman of "
    "a reserved category only while she is within its merit top (she entered on merit, and her own compartment "
    "is where an adjustment would place her), so whether it must take a woman of no reserved category depends "
    "on who else applies (open, 3 seats, minimum 3: applicants U1 > R2 > N3 > R4 > U5 give U1, R2, U5; without "
    "N3 they give U1, R2, R4). That choice is not substitutable (Hatfield and Milgrom 2005) and merit-cum-"
    "preference allocation need not reach a stable result. Without preferences every post is filled in turn "
    "and the rule is well defined; or use \"compartmentalised\".")


def distribute(policy: Policy, problem: Problem, seats: SeatTable) -> SeatTable:
    if not seats.overall:
        return seats
    if problem.preferences is not None:
        raise Unsupported(PREFERENCES)
    mins: dict[tuple[str, str, str], int] = {}
    members = {code: member_mask(policy, problem, code) for code in policy.reserved_codes}
    pools = build_pools(policy, problem, seats)
    for post in seats.posts:   # in turn: a post's phase-0 seats depend only on the posts before it
        wanted = {t: m for (p, t), m in seats.overall.items() if p == post}
        if wanted:
            pools = _place(policy, problem, seats, pools, members, mins, post, wanted)
    mins = {k: m for k, m in mins.items() if m > 0}
    note = "overall horizontal minimums placed in compartments (Anil Kumar Gupta 1995): " + (", ".join(
        f"{p} {code} {t} {m}" for (p, code, t), m in mins.items()) or "every post met them on merit")
    return replace(seats, minimums=mins, notes=(*seats.notes, note))


def _place(policy: Policy, problem: Problem, seats: SeatTable, pools, members: dict, mins: dict, post: str,
           wanted: dict):
    """Give the compartments of one post the minimums that meet the post's own, adding one adjustment at a time
    for the best remaining beneficiary, and re-solving until nothing changes (a man an adjustment removes may
    push a counted woman out of another compartment of the post; the minimum given to each compartment that
    was short keeps the women it held)."""
    j = seats.posts.index(post)
    home_of = homes(policy, problem, seats, post, members)
    codes = [policy.open, *policy.reserved_codes]
    for _ in range(1 + sum(wanted.values())):
        pools = with_minimums(policy, problem, pools, replace(seats, minimums=mins), j, members)
        assign = solve_greedy(pools, problem.n).pool
        main = {p.category: p for p in pools if p.post == j and p.phase == 0 and not p.carried}
        here = np.isin(assign, [p.index for p in pools if p.post == j and p.phase == 0])
        ben = {t: problem.candidates.trait(t) for t in wanted}
        short = {t: m - int(ben[t][here].sum()) for t, m in wanted.items()}
        short = {t: k for t, k in short.items() if k > 0}
        if short:
            # Every compartment keeps the beneficiaries the post needs (the best, up to the minimum): a man an
            # adjustment removes, moving down, may not push one of them out.
            for trait, minimum in wanted.items():
                needed = np.flatnonzero(ben[trait] & here)[:minimum]
                for code, pool in main.items():
                    key = (post, code, trait)
                    mins[key] = max(mins.get(key, 0), int((assign[needed] == pool.index).sum()))
        # The best remaining beneficiaries, in merit order (one minimum per post: several overall traits are
        # refused when seats are determined).
        grown = False
        mask = np.any([ben[t] for t in short], axis=0) if short else np.zeros(problem.n, dtype=bool)
        for i in _waiting(pools, assign, j, mask & (home_of >= 0)):
            trait = next((t for t in short if ben[t][i] and short[t] > 0), None)
            pool = main.get(codes[home_of[i]])
            if trait is None or pool is None or not pool.eligible[i]:
                continue
            if sum(m for (p, cc, _), m in mins.items() if p == post and cc == pool.category) >= pool.base:
                continue
            mins[(post, pool.category, trait)] += 1
            short[trait] -= 1
            grown = True
        if not grown:
            return pools
    return pools


def _waiting(pools, assign: np.ndarray, j: int, mask: np.ndarray) -> np.ndarray:
    """Candidates in `mask`, in merit order, who would take a phase-0 seat at post j over what they hold
    (nothing, a later phase, or a post they rank lower)."""
    who = np.flatnonzero(mask)
    k = assign[who]
    phase = np.array([p.phase for p in pools] + [99])[k]
    post = np.array([p.post for p in pools] + [-1])[k]
    rank = pools.post_rank[who, np.maximum(post, 0)]
    return who[(k < 0) | (phase > 0) | (rank > pools.post_rank[who, j])]
