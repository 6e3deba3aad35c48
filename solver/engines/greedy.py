"""The reference greedy: the official procedure, pool by pool (stage 3, reference engine).

Without preferences every candidate ranks posts alike, so filling pools one after another in the global
order (phase, post, precedence) is serial dictatorship down the merit list, vectorised with numpy. With
preferences, each phase runs serial dictatorship candidate by candidate (merit-cum-preference).
Horizontal minimums (Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007): fill the compartment on merit,
count beneficiaries, and only on a shortfall replace the lowest non-beneficiaries with the best remaining
beneficiaries; never remove anyone for an excess.
"""
from __future__ import annotations

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
        if p.minimums and not pools.common_order:
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
    if pools.common_order:
        for pool in sorted(pools, key=lambda p: (p.phase, p.post, p.precedence)):
            chosen, adj = fill_compartment(pool, assign < 0, capacity(pool, filled))
            assign[chosen] = pool.index
            adjusted[chosen] = adj
            filled[pool.index] = len(chosen)
    else:
        for phase in sorted({p.phase for p in pools}):
            members = [p for p in pools if p.phase == phase]
            caps = {p.index: capacity(p, filled) for p in members}
            elig = np.stack([p.eligible for p in members], axis=1)
            posts = np.array([p.post for p in members])
            prec = np.array([p.precedence for p in members])
            idx = np.array([p.index for p in members])
            for i in np.flatnonzero((assign < 0) & elig.any(axis=1)):
                cand = np.flatnonzero(elig[i])
                order = cand[np.lexsort((prec[cand], pools.post_rank[i, posts[cand]]))]
                for k in order:
                    if caps[idx[k]] > 0:
                        caps[idx[k]] -= 1
                        assign[i] = idx[k]
                        filled[idx[k]] += 1
                        break
    return Assignment(assign, adjusted, "greedy", {"seconds": time.perf_counter() - t0})
