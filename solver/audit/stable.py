"""Deferred acceptance with the proposing side a parameter (Gale and Shapley 1962; the shape of
`deferred_acceptance` in QuantEcon's MatchingMarkets.jl: one loop, a heap per responder bounded by its quota,
keyed by its ranking). Candidates proposing give the candidate-optimal stable allocation, the engines' answer;
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
minimum, no shared bound): `supported`."""
from __future__ import annotations

import heapq
from bisect import insort
from collections import deque

import numpy as np

from ..chain.pools import Pools


def supported(pools: Pools) -> bool:
    """Whether the pools are a college admissions market the two-sided procedure applies to."""
    return not pools.shared and pools.selection is None and len({p.phase for p in pools}) <= 1 and \
        not any(p.minus or p.minimums or p.serves for p in pools)


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
    ci, pi = pools.preference_lists()
    start, end = pools.runs
    rank = {}                                   # (candidate, pool) -> her place for it
    wants = [[] for _ in range(n)]
    for w, s, e in zip(ci[start].tolist(), start.tolist(), end.tolist()):
        wants[w] = pi[s:e].tolist()
        rank.update({(w, k): r for r, k in enumerate(wants[w])})
    cap = [p.capacity(np.zeros(len(pools), dtype=np.int64)) for p in pools.pools]
    place = [p.place if p.place is not None else np.arange(n) for p in pools.pools]
    # (the same-rank rule: a pool's level for each candidate, equal for those of one rank on its list)
    level = [pools.lists.levels(p.merit_list) for p in pools.pools] if pools.same_rank else None
    out = np.full(n, -1, dtype=np.int64)
    if proposing == "candidates":
        if level is None:
            held = _gale_shapley(wants, [1] * n, lambda k, w: int(place[k][w]), cap)
        else:
            held = _candidates_propose(wants, lambda k, w: (int(level[k][w]), int(place[k][w])), cap)
        for k, heap in enumerate(held):
            for _, w in heap:
                out[w] = k
        return out
    # (a pool's list: those who may hold it and want it, in its merit list's order)
    members = [[] for _ in pools.pools]
    for w, k in zip(ci.tolist(), pi.tolist()):
        members[k].append(w)
    lists = [p.in_order(np.array(m, dtype=np.int64)).tolist() for p, m in zip(pools.pools, members)]
    if level is None:
        for w, heap in enumerate(_gale_shapley(lists, cap, lambda w, k: rank[(w, k)], [1] * n)):
            for _, k in heap:
                out[w] = k
        return out
    return _pools_propose(lists, cap, lambda k, w: int(level[k][w]), rank, n)


def _gale_shapley(lists, quota, key, room) -> list[list]:
    """Proposers walk their `lists`, each holding at most `quota[p]` acceptances at a time; responder r keeps
    its `room[r]` best by `key(r, p)` (smaller better) in a bounded heap. Returns each responder's heap of
    (-key, proposer)."""
    held = [[] for _ in range(len(room))]
    holds = [0] * len(lists)
    nxt = [0] * len(lists)
    free = deque(range(len(lists)))
    while free:
        p = free.popleft()
        while holds[p] < quota[p] and nxt[p] < len(lists[p]):
            r = lists[p][nxt[p]]
            nxt[p] += 1
            k, heap = key(r, p), held[r]
            if len(heap) < room[r]:
                heapq.heappush(heap, (-k, p))
                holds[p] += 1
            elif heap and -heap[0][0] > k:
                _, out = heapq.heapreplace(heap, (-k, p))
                holds[p] += 1
                holds[out] -= 1
                free.append(out)
    return held


def _candidates_propose(wants, key, cap) -> list[list]:
    """Candidate-proposing deferred acceptance under the same-rank rule: pool k holds its `cap[k]` best by
    `key(k, w)` = (level, place), and everyone of the level of the last of them. Returns each pool's holders as
    a sorted list of (key, candidate)."""
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


def _pools_propose(lists, cap, level, rank: dict, n: int) -> np.ndarray:
    """Pools-proposing deferred acceptance under the same-rank rule: pool k offers its seats down its list to
    those who have not turned it down, until `cap[k]` hold them and the next is not of the level of the last
    of those; a candidate keeps the offer she ranks highest (`rank[(w, k)]`, smaller is better). The offers
    held are a prefix of those not turned down, so a pool turned down only offers further."""
    holding: list[list[int]] = [[] for _ in cap]     # per pool, those holding its offer, in its list's order
    at = {}                                         # candidate -> (her place for the pool, pool) she holds
    nxt = [0] * len(lists)
    place = [{w: r for r, w in enumerate(m)} for m in lists]
    free = deque(k for k in range(len(lists)) if cap[k] > 0)
    while free:
        k = free.popleft()
        h, c = holding[k], cap[k]
        while nxt[k] < len(lists[k]) and (len(h) < c or level(k, lists[k][nxt[k]]) == level(k, h[c - 1])):
            w = lists[k][nxt[k]]
            nxt[k] += 1
            mine = rank[(w, k)]
            if w in at and at[w][0] < mine:
                continue                                     # (she holds a pool she ranks higher)
            if w in at:
                old = at[w][1]
                holding[old].remove(w)
                free.append(old)
            at[w] = (mine, k)
            insort(h, w, key=lambda x, k=k: place[k][x])
    out = np.full(n, -1, dtype=np.int64)
    for w, (_, k) in at.items():
        out[w] = k
    return out
