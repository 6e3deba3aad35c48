"""Deferred acceptance with the proposing side a parameter (Gale and Shapley 1962): a loop in Python with the
candidates proposing, rounds over arrays with the pools proposing (JoSAA size). Candidates proposing give the candidate-optimal stable allocation, the engines' answer;
pools proposing give the institution-optimal one. Every stable allocation lies between the two in every
candidate's preference, so the stable allocation is unique exactly when they agree, and a candidate whose seat
is the same in both has it in every stable allocation (the lattice of stable matchings; Roth and Sotomayor 1990,
Theorem 5.35 for many-to-one).

With the same-rank rule (`merit.same_rank = "supernumerary"`) a pool chooses its best up to capacity and
everyone of the same rank as the last of them. That choice is path-independent (substitutable, and a candidate
it turns away changes nothing), so the stable allocations still form a lattice and deferred acceptance from
either side gives that side's optimum (Chambers and Yenmez 2017, "Choice and matching"). It does not satisfy
the law of aggregate demand: a better candidate can shrink a pool's intake (two of one rank at the last seat are
both taken; add a better one and only she and one other are), so the number a pool admits may differ between
stable allocations (no rural hospitals theorem).

For pools each filled on its own (one phase, no capacity following another pool's fill, no horizontal
minimum, no shared bound): `supported`. A compartment's horizontal minimums make its choice the minimum
guarantee (`solver.chain.compartment.choose`): substitutable, and of the size min(capacity, applicants), so the
stable allocations still form a lattice with a best and a worst for every candidate (Hatfield and Milgrom 2005;
Sonmez and Yenmez 2022 for the minimum guarantee); `lattice_supported` takes them, and the pools-proposing side
then runs the choices themselves (`_pools_choose`)."""
from __future__ import annotations

from bisect import insort
from collections import deque

import numpy as np

from ..chain.pools import Pools, places_on_lists


def supported(pools: Pools) -> bool:
    """Whether the pools are a college admissions market the two-sided procedure applies to."""
    return not pools.shared and pools.selection is None and len({p.phase for p in pools}) <= 1 and \
        not any(p.minus or p.minimums or p.serves for p in pools)


def lattice_supported(pools: Pools) -> bool:
    """`supported`, or such pools where some have horizontal minimums (each appointee counting for one trait,
    every beneficiary open to adjustment, no same-rank rule beside them): the two extremes `stable_allocation`
    gives bound every stable allocation."""
    return not pools.shared and pools.selection is None and len({p.phase for p in pools}) <= 1 and \
        not any(p.minus or p.serves or p.counts_each or p.incoming for p in pools) and \
        not (pools.same_rank and any(p.minimums for p in pools))


def strict(problem) -> bool:
    """No two candidates tied on merit with only their ids to order them (`Candidates.tie_blocks`): the lists
    are then strict, as the two extremes need. A tie an id settles is no rule of law, so where one exists either
    order is lawful, and the model of every lawful allocation, which admits both, decides instead."""
    return int(problem.candidates.tie_blocks().max(initial=-1)) < 0


def stable_allocation(pools: Pools, n: int, proposing: str = "candidates") -> np.ndarray:
    """The pool each candidate holds (-1 none) in the candidate-optimal (`proposing="candidates"`) or the
    institution-optimal (`"pools"`) stable allocation. A pool ranks those it admits who ranked its post in its
    merit list's order; a candidate ranks the pools she may hold as `Pools.preference_lists` orders them.

    Example
    -------
    >>> import numpy as np
    >>> from solver.chain.pools import Pool, Pools
    >>> from solver.data.ranking import Ranking
    >>> both = np.ones(2, dtype=bool)
    >>> x = Pool(0, 0, "open_merit", 0, 0, ("UR",), both, 1)
    >>> y = Pool(1, 1, "open_merit", 0, 0, ("UR",), both, 1, place=np.array([1, 0]))   # Y ranks B first
    >>> prefs = (np.array([1, 0]), np.array([0, 1]))          # A wants Y first, B wants X first
    >>> pools = Pools((x, y), Ranking(prefs, 2, 2), False)
    >>> stable_allocation(pools, 2).tolist(), stable_allocation(pools, 2, "pools").tolist()
    ([1, 0], [0, 1])
    """
    if proposing == "pools":
        return _pools_choose(pools, n) if any(p.minimums for p in pools) else pools_propose(pools, n)
    ci, pi = pools.preference_lists()
    start, end = pools.runs
    wants = [[] for _ in range(n)]
    for w, s, e in zip(ci[start].tolist(), start.tolist(), end.tolist()):
        wants[w] = pi[s:e].tolist()
    cap = [p.capacity(np.zeros(len(pools), dtype=np.int64)) for p in pools.pools]
    place = [p.place if p.place is not None else np.arange(n) for p in pools.pools]
    # (the same-rank rule: a pool's level for each candidate, equal for those of one rank on its list; without
    # it, her place: no two alike, and the choice is the best up to capacity)
    level = [pools.lists.levels(p.merit_list) for p in pools.pools] if pools.same_rank else place
    out = np.full(n, -1, dtype=np.int64)
    for k, holders in enumerate(_candidates_propose(wants, lambda k, w: (int(level[k][w]), int(place[k][w])), cap)):
        for _, w in holders:
            out[w] = k
    return out


def _candidates_propose(wants, key, cap) -> list[list]:
    """Candidate-proposing deferred acceptance, one loop (the shape of `deferred_acceptance` in QuantEcon's
    MatchingMarkets.jl): pool k holds its `cap[k]` best by `key(k, w)` = (level, place), and everyone of the
    level of the last of them (the same-rank rule; with every level distinct, its best `cap[k]`). Returns each
    pool's holders as a sorted list of (key, candidate)."""
    held = [[] for _ in cap]
    nxt = [0] * len(wants)
    free = deque(w for w in range(len(wants)) if wants[w])
    while free:
        w = free.popleft()
        while nxt[w] < len(wants[w]):
            k = wants[w][nxt[w]]
            nxt[w] += 1
            h, c, mine = held[k], cap[k], key(k, w)
            if c <= 0 or (len(h) >= c and mine[0] > h[c - 1][0][0]):
                continue                       # (turned away: below the level of the pool's last seat)
            insort(h, (mine, w))
            while len(h) > c and h[-1][0][0] > h[c - 1][0][0]:
                free.append(h.pop()[1])        # (pushed below the level of the last seat: moves on)
            break
    return held


def _by_pool(pools: Pools) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The (candidate, pool) pairs grouped by pool, each pool's in its merit list's order: the candidate, her
    place for the pool in her own list, the pool, and where each pool's run starts (one past the last: the end)."""
    ci, pi = pools.preference_lists()
    start, end = pools.runs
    mine = np.arange(len(ci), dtype=np.int64) - np.repeat(start, end - start)     # her place for the pool
    order = np.lexsort((places_on_lists(pools, ci, pi), pi))
    of = pi[order]
    return ci[order].astype(np.int64), mine[order], of, np.searchsorted(of, np.arange(len(pools) + 1))


def pools_propose(pools: Pools, n: int) -> np.ndarray:
    """Pools-proposing deferred acceptance over arrays, in rounds: each pool offers its seats down its list (those
    who may hold it and ranked it, in its merit list's order) to as many as it has seats not held, and, under the
    same-rank rule, to the next one where he is of the rank of the last of its holders; each candidate keeps the
    offer she ranks highest and turns the others down. The offers a pool holds are always a prefix of those who
    have not turned it down, within its choice of them, so it only ever offers further down; it stops when no
    pool offers. Returns the pool each candidate holds (-1 none). At JoSAA size (37 million pairs) a loop in
    Python over the pairs took more than 24 GB."""
    who, place, of, first = _by_pool(pools)
    if not len(who):
        return np.full(n, -1, dtype=np.int64)
    merit = np.array([p.merit_list for p in pools.pools], dtype=np.int64)
    level = pools.lists.level[merit[of], who] if pools.same_rank else None
    ptr, stop = first[:-1].copy(), first[1:]
    cap = np.array([p.capacity(np.zeros(len(pools), dtype=np.int64)) for p in pools.pools], dtype=np.int64)
    held = np.full(n, -1, dtype=np.int64)
    rank = np.full(n, np.iinfo(np.int64).max)   # her place for the pool she holds
    at = np.full(n, -1, dtype=np.int64)         # where in the pool's list she holds it
    while True:
        count = np.bincount(held[held >= 0], minlength=len(pools))
        width = np.clip(np.minimum(cap - count, stop - ptr), 0, None)
        if level is not None:
            width += _tied_next(held, at, level, cap, count, ptr, stop) & (width == 0)
        k = np.flatnonzero(width)
        if not len(k):
            break
        size = width[k]                          # (pool k's offers: its list's places ptr[k], ptr[k] + 1, ...)
        offer = np.repeat(ptr[k] - (np.cumsum(size) - size), size) + np.arange(int(size.sum()))
        ptr[k] += size
        w, r = who[offer], place[offer]
        best = np.lexsort((r, w))                # each candidate's best offer of the round
        w, r, offer = w[best], r[best], offer[best]
        firsts = np.r_[True, w[1:] != w[:-1]]
        w, r, offer = w[firsts], r[firsts], offer[firsts]
        take = r < rank[w]
        w, r, offer = w[take], r[take], offer[take]
        held[w], rank[w], at[w] = of[offer], r, offer
    return held


def _pools_choose(pools: Pools, n: int) -> np.ndarray:
    """Pools-proposing deferred acceptance with each pool's choice (Hatfield and Milgrom 2005): every pool
    offers its seats to its choice (`choose`: the best up to capacity, under minimums the minimum guarantee) of
    those who may hold it, ranked it and have not turned it down; each candidate keeps the offer she ranks
    highest and turns the others down; a pool turned down chooses again. A substitutable choice never drops one
    still there, so offers only grow; it stops when nobody turns anyone down. Returns the pool each candidate
    holds (-1 none)."""
    from ..chain.compartment import choose
    who, place, _, first = _by_pool(pools)
    applicants = [who[first[k]:first[k + 1]] for k in range(len(pools))]      # (each in its list's order)
    ranks = [place[first[k]:first[k + 1]].tolist() for k in range(len(pools))]  # (the pool's place in each one's list)
    where = [{w: k for k, w in enumerate(a.tolist())} for a in applicants]
    alive = [np.ones(len(a), dtype=bool) for a in applicants]
    cap = [p.capacity(np.zeros(len(pools), dtype=np.int64)) for p in pools.pools]
    offered: list[set[int]] = [set() for _ in pools.pools]   # (each pool's offers standing)
    held: dict[int, tuple[int, int]] = {}                     # (her place for the pool she holds, the pool)
    dirty = set(range(len(pools)))
    while dirty:
        new = []
        for k in sorted(dirty):
            chosen = choose(pools.pools[k], applicants[k][alive[k]], cap[k])[0].tolist() if cap[k] > 0 else []
            new += [(w, k) for w in chosen if w not in offered[k]]
            offered[k].update(chosen)
        dirty = set()
        for w, k in new:      # (she keeps the better of the offer she holds and the new one)
            offer = (ranks[k][where[k][w]], k)
            keep, drop = (offer, held.get(w)) if w not in held or offer < held[w] else (held[w], offer)
            held[w] = keep
            if drop is not None:
                alive[drop[1]][where[drop[1]][w]] = False
                offered[drop[1]].discard(w)
                dirty.add(drop[1])
    out = np.full(n, -1, dtype=np.int64)
    for w, (_, k) in held.items():
        out[w] = k
    return out


def _tied_next(held, at, level, cap, count, ptr, stop) -> np.ndarray:
    """1 for each pool holding at least its capacity whose next on its list is of the rank (level) of the last of
    its best `cap` holders: the same-rank rule's choice takes him too; else 0."""
    out = np.zeros(len(cap), dtype=np.int64)
    full = (cap > 0) & (count >= cap) & (ptr < stop)
    if not full.any():
        return out
    h = np.flatnonzero(held >= 0)
    h = h[np.lexsort((at[h], held[h]))]          # holders by pool, in its list's order
    pool = held[h]
    begin = np.searchsorted(pool, np.arange(len(cap)))
    k = np.flatnonzero(full)
    last = at[h[begin[k] + cap[k] - 1]]          # the place of each full pool's cap-th holder
    out[k] = level[ptr[k]] == level[last]
    return out
