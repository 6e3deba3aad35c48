"""The reference greedy: the official procedure, pool by pool (stage 3, reference engine).

Without preferences every candidate ranks posts alike, so filling pools one after another in the global
order (phase, post, precedence) is serial dictatorship down the merit list, vectorised with numpy. With
preferences, or when a pool ranks some candidates ahead of merit (the recommendation list), each phase runs
candidate-proposing deferred acceptance (merit-cum-preference).
Horizontal minimums (Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007): fill the compartment on merit,
count beneficiaries, and only on a shortfall replace the lowest non-beneficiaries with the best remaining
beneficiaries; never remove anyone for an excess.
"""
from __future__ import annotations

import heapq
import time

import numpy as np

from ..errors import Unsupported
from ..pools import Pool, Pools
from .assignment import Assignment


def capacity(pool: Pool, filled: np.ndarray) -> int:
    return max(0, pool.base - int(sum(filled[q] for q in pool.minus)))


def check_supported(pools: Pools) -> None:
    for p in pools:
        if len(p.minimums) > 1:
            raise Unsupported(f"post {p.post}: minimums for several horizontal traits {sorted(p.minimums)} in one "
                              "compartment are not implemented yet (issue 4)")
        if p.minimums and not pools.merit_only:
            raise Unsupported("horizontal minimums with ranked preferences are not implemented yet (issues 4, 5)")


def fill_compartment(pool: Pool, free: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """Chosen candidates (sorted, merit order) and which of them came in by horizontal adjustment."""
    avail = np.flatnonzero(pool.eligible & free)
    chosen = avail[:cap]
    adjusted = np.zeros(len(chosen), dtype=bool)
    for trait, minimum in pool.minimums.items():
        ben = pool.beneficiary[trait]
        have = int(ben[chosen].sum())
        if have >= minimum:
            continue
        rest = avail[cap:]
        incoming = rest[ben[rest]][: minimum - have]
        outgoing = chosen[~ben[chosen]][::-1][: len(incoming)]
        incoming = incoming[: len(outgoing)]
        keep = ~np.isin(chosen, outgoing)
        chosen = np.concatenate([chosen[keep], incoming])
        adjusted = np.concatenate([adjusted[keep], np.ones(len(incoming), dtype=bool)])
        order = np.argsort(chosen, kind="stable")
        chosen, adjusted = chosen[order], adjusted[order]
    return chosen, adjusted


def solve_greedy(pools: Pools, n: int) -> Assignment:
    check_supported(pools)
    t0 = time.perf_counter()
    assign = np.full(n, -1, dtype=np.int64)
    adjusted = np.zeros(n, dtype=bool)
    filled = np.zeros(len(pools), dtype=np.int64)
    if pools.merit_only:
        for pool in sorted(pools, key=lambda p: (p.phase, p.post, p.precedence)):
            chosen, adj = fill_compartment(pool, assign < 0, capacity(pool, filled))
            assign[chosen] = pool.index
            adjusted[chosen] = adj
            filled[pool.index] = len(chosen)
    else:
        for phase in sorted({p.phase for p in pools}):
            members = [p.index for p in pools if p.phase == phase]
            caps = {k: capacity(pools.pools[k], filled) for k in members}
            _deferred_acceptance(pools, members, caps, assign)
            filled = np.bincount(assign[assign >= 0], minlength=len(pools))
    return Assignment(assign, adjusted, "greedy", {"seconds": time.perf_counter() - t0})


def _deferred_acceptance(pools: Pools, members: list[int], caps: dict[int, int], assign: np.ndarray) -> None:
    """Candidate-proposing deferred acceptance (Gale and Shapley 1962) among the still unassigned.

    Pools choose by (priority tier, merit); with merit alone this is serial dictatorship down the merit list,
    i.e. merit-cum-preference. Its outcome is the candidate-optimal stable assignment."""
    ci, pi = pools.preference_lists(members)
    keep = assign[ci] < 0
    ci, pi = ci[keep], pi[keep]
    starts = np.flatnonzero(np.r_[True, ci[1:] != ci[:-1]]) if len(ci) else np.zeros(0, np.int64)
    ends = np.r_[starts[1:], len(ci)]
    nxt = dict(zip(ci[starts].tolist(), starts.tolist()))
    end = dict(zip(ci[starts].tolist(), ends.tolist()))
    tier = {k: pools.pools[k].priority for k in members}
    holders: dict[int, list] = {k: [] for k in members}  # max-heap of (-tier, -merit) per pool
    free = sorted(nxt, reverse=True)
    while free:
        i = free.pop()
        while nxt[i] < end[i]:
            k = int(pi[nxt[i]])
            nxt[i] += 1
            if caps[k] <= 0:
                continue
            key = (-(int(tier[k][i]) if tier[k] is not None else 0), -i)
            h = holders[k]
            if len(h) < caps[k]:
                heapq.heappush(h, key)
                assign[i] = k
                break
            if key > h[0]:
                worst = -heapq.heapreplace(h, key)[1]
                assign[i] = k
                assign[worst] = -1
                free.append(worst)
                break
