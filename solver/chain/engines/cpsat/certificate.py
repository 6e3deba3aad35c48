"""The certificate model: the pairs of the model that can refute the greedy's assignment, and no others.

With the assignment assumed, most of the full model does nothing. A pair after the pool a candidate holds is
never reached, so it is empty. A pair before it (or any pair of one left out) only says "this pool does not
admit her", and a pool's admissions are a merit prefix: where the best such candidate is not admitted, no
worse one is. So a pool without horizontal minimums needs only its holders and its best candidate left out
who wanted it. A pool with minimums keeps every candidate who wanted it, because its constraints count who
was free to take it (Rajesh Kumar Daria 2007: the best remaining beneficiaries). Chains are cut at the full
pools' depths (`build.chain_depths`): a chain of fewer members admits no more of them.

The reduced model accepts an assignment exactly when the full one does (`tests/engines/test_certificate.py` plants
violations and compares the two); `--independent` still builds the full model, without the assignment.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...pools import Pools, places_on_lists, preferred_pairs, runs


def _restricted(pools: Pools, n: int, ci: np.ndarray, pi: np.ndarray, keep: np.ndarray) -> Pools:
    """The pools with eligibility cut down to the pairs `keep` (each pool's `members`: a mask per pool was 4.7 GB
    of a JoSAA-size certificate), and their preference lists those pairs, in the order of the full lists (made
    afresh, the lists of 27,000 pools read a dense candidates x posts matrix of ranks: 3.8 GB more)."""
    kp, kc = pi[keep], ci[keep]
    order = np.lexsort((kc, kp))
    kp, kc = kp[order], kc[order]
    members = [kc[:0]] * len(pools.pools)
    for s, e in zip(*runs(kp)):
        members[int(kp[s])] = kc[s:e]
    out = replace(pools, pools=tuple(replace(p, members=m, ranked_by=None) for p, m in zip(pools.pools, members)))
    out.seed_lists(ci[keep], pi[keep])
    return out


def certificate_pools(pools: Pools, held: np.ndarray) -> Pools:
    """The pools with each one's eligible candidates cut down to those that can refute `held` (per
    candidate, the pool held, -1 for none): its holders and its best candidate who wanted it and was left
    out, or, under horizontal minimums, every candidate who wanted it.

    Parameters
    ----------
    pools : the seat pools (no shared bound: a recommendation list's bounds read every member's list).
    held : the assignment to certify, a pool index per candidate (-1: not selected).

    Returns
    -------
    Pools, the same pools in the same order, each with its `members`: the eligible cut down.

    Example
    -------
    >>> import numpy as np
    >>> from solver.chain.pools import Pool, Pools
    >>> from solver.data.ranking import Ranking
    >>> one = Pool(0, 0, "open_merit", 0, 0, ("UR",), np.ones(4, bool), 2)
    >>> pools = Pools((one,), Ranking(None, n=4, posts=1), True)
    >>> certificate_pools(pools, np.array([0, 0, -1, -1])).pools[0].eligible.tolist()
    [True, True, True, False]
    """
    ci, pi, holds, wanted = preferred_pairs(pools, held)
    keep = holds.copy()
    minimums = np.array([bool(p.minimums) for p in pools.pools])
    keep |= wanted & minimums[pi]
    # the best candidate who wanted each pool without minimums: the first of its pairs by (pool, merit), merit
    # being the pool's own list where it has one
    keep[_best_per_pool(pools, ci, pi, np.flatnonzero(wanted & ~minimums[pi]))] = True
    return _restricted(pools, len(held), ci, pi, keep)


def contested_pools(pools: Pools, held: np.ndarray, free: np.ndarray) -> Pools:
    """The pools cut down to what decides the candidates `free` (a bool per candidate) where everyone else keeps
    the pool `held` gives him (-1 none): every pair of the free candidates, each other one's held pair, and per
    pool the best other candidate who wanted it (a pool admits a merit prefix, so keeping him out keeps out every
    worse one). For pools without minimums or shared bounds (`solver.audit.stable.supported`): with the others
    fixed, the model of these pools has the same lawful allocations as the whole one."""
    fixed = np.where(free, -1, held)
    ci, pi, holds, wanted = preferred_pairs(pools, fixed)
    mine = free[ci]
    keep = (holds & ~mine) | mine
    keep[_best_per_pool(pools, ci, pi, np.flatnonzero(wanted & ~mine))] = True
    return _restricted(pools, len(held), ci, pi, keep)


def _best_per_pool(pools: Pools, ci: np.ndarray, pi: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Of the pairs `w`, each pool's first by its merit list (`places_on_lists`): its best candidate among them.
    A least place per pool, then the pairs at it (no sort: 20 million pairs at JoSAA size, 3.2 s to lexsort)."""
    if not len(w):
        return w
    place, pool = places_on_lists(pools, ci[w], pi[w]), pi[w]
    least = np.full(len(pools.pools), np.iinfo(np.int64).max)
    np.minimum.at(least, pool, place)
    return w[place == least[pool]]


def dominance_pools(pools: Pools, held: np.ndarray) -> Pools:
    """The pools with each candidate's list cut after the pool she holds in `held`: where nobody may do worse
    than there, a pair past it is never reached (`no_better`)."""
    ci, pi, holds, wanted = preferred_pairs(pools, held)
    return _restricted(pools, len(held), ci, pi, holds | wanted)


def no_better(model, held: np.ndarray) -> bool:
    """Candidate-optimality as feasibility: nobody does worse than in `held` and someone does better. Where
    horizontal minimums meet preferences, the candidate-optimal stable assignment is the one every candidate
    weakly prefers to every other (Gale and Shapley 1962), so a stable `held` is it exactly when this is
    infeasible. Built on `dominance_pools(pools, held)`, where every pair of a candidate is at least as good
    as the pool she holds. Returns False (nothing added) where a holder's pair is not in the model (past a
    chain's depth: `held` is then not stable, and the certificate has already said so)."""
    m = model.m
    placed = np.flatnonzero(held >= 0)
    if any(int(i) not in model.holds[held[i]] for i in placed.tolist()):
        return False
    mine: dict[int, list] = {}
    for p, xs in enumerate(model.holds):
        for i, x in xs.items():
            mine.setdefault(i, []).append((p, x))
    better = []
    for i, pairs in mine.items():
        if held[i] >= 0:
            m.add_bool_or([x for _, x in pairs])          # placed at least as well (her pool or a better one)
            better += [x for p, x in pairs if p != held[i]]
        else:
            better += [x for _, x in pairs]
    m.add_bool_or(better)
    return True
