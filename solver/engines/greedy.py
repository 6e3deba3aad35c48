"""The reference greedy: the official procedure, pool by pool (stage 3, reference engine).

Without preferences every candidate ranks posts alike, so filling pools one after another in the global
order (phase, post, precedence) is serial dictatorship down the merit list, vectorised with numpy. With
preferences, each phase runs serial dictatorship candidate by candidate (merit-cum-preference), which with
one merit list for every pool is the unique stable assignment.
Horizontal minimums (Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007): fill the compartment on merit,
count beneficiaries, and only on a shortfall replace the lowest non-beneficiaries with the best remaining
beneficiaries; never remove anyone for an excess.
"""
from __future__ import annotations

import time

import numpy as np

from ..pools import Pool, Pools, exchanges, hall_terms, runs, signatures
from .assignment import Assignment, mark_adjusted
from .support import check_supported


def fill_compartment(pool: Pool, free: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """Chosen candidates (sorted, merit order) and which of them came in by horizontal adjustment."""
    return choose(pool, np.flatnonzero(pool.eligible & free), cap)


def choose(pool: Pool, avail: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """The compartment's choice among `avail` (merit order): the best `cap`, then, only on a shortfall of a
    horizontal minimum, the lowest non-beneficiaries replaced by the best remaining beneficiaries. Those who
    count but may not come in by adjustment (`Pool.incoming`) are in only if the best `cap` include them
    (such pools exist only where posts are filled in turn: see `solver.overall`)."""
    if pool.incoming:
        fixed = np.any([pool.beneficiary[t][avail] & ~inc[avail] for t, inc in pool.incoming.items()], axis=0)
        avail = avail[~fixed | (np.arange(len(avail)) < cap)]
    if pool.counts_each:
        chosen = _best_counting_each(pool, avail, cap)
        return chosen, ~np.isin(chosen, avail[:cap])
    if len(pool.minimums) > 1:
        chosen = _lexmax(pool, avail, cap)
        return chosen, ~np.isin(chosen, avail[:cap])
    return procedure(pool, avail, cap)


def procedure(pool: Pool, avail: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """The minimum-guarantee procedure as written (Rajesh Kumar Daria 2007): the best `cap` of `avail`, then,
    trait by trait, on a shortfall the lowest appointees who count for none of the compartment's minimums
    replaced by the best remaining beneficiaries. With one trait this is the rule; with several, each
    appointee counting for every trait they have, it can stop short of the merit-best set (see
    `_best_counting_each`), and `Result.procedure_differences` reports where."""
    chosen = avail[:cap]
    adjusted = np.zeros(len(chosen), dtype=bool)
    counts = np.any([pool.beneficiary[t] for t in pool.minimums], axis=0) if pool.minimums else None
    for trait, minimum in pool.minimums.items():
        ben = pool.beneficiary[trait]
        have = int(ben[chosen].sum())
        if have >= minimum:
            continue
        rest = avail[~np.isin(avail, chosen)]
        incoming = rest[ben[rest]][: minimum - have]
        outgoing = chosen[~counts[chosen]][::-1][: len(incoming)]
        incoming = incoming[: len(outgoing)]
        keep = ~np.isin(chosen, outgoing)
        chosen = np.concatenate([chosen[keep], incoming])
        adjusted = np.concatenate([adjusted[keep], np.ones(len(incoming), dtype=bool)])
        order = np.argsort(chosen, kind="stable")
        chosen, adjusted = chosen[order], adjusted[order]
    return chosen, adjusted


def _lexmax(pool: Pool, avail: np.ndarray, cap: int) -> np.ndarray:
    """Several traits in one compartment, each appointee counting for one of them: the merit-best set of `cap`
    whose beneficiaries can be matched to the minimums' seats as fully as `avail` allows.

    Such sets are the bases of a matroid (a transversal matroid joined with a free one), so going down the
    merit list and taking whoever keeps the best matching reachable gives the merit-lexicographic best
    (Edmonds 1971). Reachability is Hall's condition on counts: for every set Y of traits, the seats of Y are
    at most those already taken by Y-beneficiaries plus the later Y-beneficiaries the remaining seats can take.
    With one trait this is the minimum-guarantee procedure above, which is kept for its speed."""
    sig = signatures(pool, avail)
    ys, need, meets = hall_terms(pool)
    later = np.cumsum(meets[:, sig][:, ::-1], axis=1)[:, ::-1]   # Y-beneficiaries from position k on
    later = np.c_[later, np.zeros(len(ys), dtype=np.int64)]
    total = int(need[-1]) if len(need) else 0

    def reach(taken: np.ndarray, k: int, room: int) -> int:
        return int(np.min(total - need + taken + np.minimum(room, later[:, k])))
    target = min(total, reach(np.zeros(len(ys), dtype=np.int64), 0, cap))
    taken = np.zeros(len(ys), dtype=np.int64)
    out = []
    for k in range(len(avail)):
        if len(out) == cap:
            break
        step = meets[:, sig[k]]
        if min(total, reach(taken + step, k + 1, cap - len(out) - 1)) == target:
            out.append(avail[k])
            taken += step
    return np.array(out, dtype=np.int64)


def _best_counting_each(pool: Pool, avail: np.ndarray, cap: int) -> np.ndarray:
    """Several traits in one compartment, each appointee counting for every trait they have (policy option
    `multi_trait_counts_each`): of the sets of `min(cap, len(avail))`, first those filling the most of the
    minimums' seats (sum over traits of min(minimum, count)), then the merit-lexicographic best among them.

    The procedure of replacing the lowest non-beneficiaries trait by trait can stop short of it (merit a
    (neither) > b (woman) > c (pwbd) > d (both), two seats, minimums 1 and 1: it gives {b, c}; the best set
    is {a, d}), and issue 4 makes the merit-lexicographic rule the definition. Such sets are not the bases
    of a matroid, so the greedy down the merit list does not apply; instead, from the compartment's merit
    top, make the best improving exchange of `solver.pools.exchanges` until none improves. Every class's
    holders stay a merit prefix, so the state is one count per class."""
    size = min(cap, len(avail))
    sig = signatures(pool, avail)
    classes = np.unique(sig)
    where = [np.flatnonzero(sig == s) for s in classes]            # positions in `avail`, merit order
    held = np.array([int((w < size).sum()) for w in where])
    mins = np.array(list(pool.minimums.values()))
    bits = (classes[:, None] >> np.arange(len(mins))[None, :]) & 1   # class x trait
    moves = exchanges(classes.tolist())
    if not moves:
        return avail[:size]
    of = {int(s): k for k, s in enumerate(classes)}
    outs = np.zeros((len(moves), len(classes)), dtype=bool)
    ins = np.zeros_like(outs)
    for k, (o, i) in enumerate(moves):
        outs[k, [of[s] for s in o]] = True
        ins[k, [of[s] for s in i]] = True
    delta = (ins.astype(np.int64) - outs) @ bits                     # move x trait: change of each count
    big = len(avail)
    while True:
        worst = np.array([w[h - 1] if h else -1 for w, h in zip(where, held)])
        best = np.array([w[h] if h < len(w) else big for w, h in zip(where, held)])
        cov = held @ bits
        gain = (np.minimum(mins, cov + delta) - np.minimum(mins, cov)).sum(axis=1)
        possible = ~(outs & (worst < 0)).any(axis=1) & ~(ins & (best >= big)).any(axis=1)
        first_in = np.where(ins, best, big).min(axis=1)
        first_out = np.where(outs, worst, big).min(axis=1)
        better = possible & ((gain > 0) | ((gain == 0) & (first_in < first_out)))
        if not better.any():
            break
        k = np.lexsort((first_in, -gain, ~better))[0]
        held += ins[k].astype(np.int64) - outs[k]
    return avail[np.sort(np.concatenate([w[:h] for w, h in zip(where, held)]))]


def solve_greedy(pools: Pools, n: int) -> Assignment:
    check_supported(pools)
    t0 = time.perf_counter()
    assign = np.full(n, -1, dtype=np.int64)
    adjusted = np.zeros(n, dtype=bool)
    filled = np.zeros(len(pools), dtype=np.int64)
    if pools.merit_only:
        for pool in sorted(pools, key=lambda p: (p.phase, p.post, p.precedence)):
            chosen, adj = fill_compartment(pool, assign < 0, pool.capacity(filled))
            assign[chosen] = pool.index
            adjusted[chosen] = adj
            filled[pool.index] = len(chosen)
    else:
        for phase in sorted({p.phase for p in pools}):
            members = [p.index for p in pools if p.phase == phase]
            if any(k in g.members for g in pools.shared for k in members):
                _serial_dictatorship(pools, members, assign, filled)
            else:
                _deferred_acceptance(pools, members, assign, filled, adjusted)
    return Assignment(assign, adjusted, "greedy", {"seconds": time.perf_counter() - t0})


def _deferred_acceptance(pools: Pools, members: list[int], assign: np.ndarray, filled: np.ndarray,
                         adjusted: np.ndarray) -> None:
    """Candidate-proposing deferred acceptance (Gale and Shapley 1962), vectorised by rounds: every unplaced
    candidate proposes to the next pool on their list, every pool keeps the best of its holders and proposers
    by merit up to capacity. With one merit list for every pool its outcome is serial dictatorship's (the
    unique stable assignment), without a Python loop over (candidate, pool) pairs. A compartment with a
    horizontal minimum chooses among its holders and proposers by `choose` (minimum guarantee)."""
    ci, pi = pools.preference_lists(members)
    keep = assign[ci] < 0
    ci, pi = ci[keep], pi[keep]
    if not len(ci):
        return
    cap = np.zeros(len(pools), dtype=np.int64)
    for k in members:
        cap[k] = pools.pools[k].capacity(filled)
    start, end = runs(ci)
    who = ci[start]                      # candidates, in merit order
    ptr = start.copy()                   # next pair each candidate will propose
    held = np.full(len(who), -1)         # pool each candidate holds (-1 none)
    horizontal = [k for k in members if pools.pools[k].minimums]
    while True:
        free = np.flatnonzero((held < 0) & (ptr < end))
        if not len(free):
            break
        holding = np.flatnonzero(held >= 0)
        cand = np.r_[holding, free]
        pool = np.r_[held[holding], pi[ptr[free]]]
        order = np.lexsort((cand, pool))            # by pool, then merit (smaller index = better)
        cand, pool = cand[order], pool[order]
        first = np.r_[0, np.flatnonzero(pool[1:] != pool[:-1]) + 1]
        within = np.arange(len(pool)) - np.repeat(first, np.diff(np.r_[first, len(pool)]))
        kept = within < cap[pool]
        for k in horizontal:
            at = np.flatnonzero(pool == k)
            if len(at):
                chosen, _ = choose(pools.pools[k], who[cand[at]], int(cap[k]))
                kept[at] = np.isin(who[cand[at]], chosen)
        held[cand[kept]] = pool[kept]
        out = cand[~kept]
        held[out] = -1
        ptr[out] += 1                # the rejected, and displaced holders, move on to their next pool
    got = held >= 0
    assign[who[got]] = held[got]
    if horizontal:
        mark_adjusted(pools, assign, adjusted)
    filled += np.bincount(held[got], minlength=len(filled))


def _serial_dictatorship(pools: Pools, members: list[int], assign: np.ndarray, filled: np.ndarray) -> None:
    """Down the merit list, each unassigned candidate takes the most preferred pool with room
    (merit-cum-preference); room is the pool's own capacity and that of every bound it shares."""
    caps = {k: pools.pools[k].capacity(filled) for k in members}
    groups = {k: [g for g in pools.shared if k in g.members] for k in members}
    ci, pi = pools.preference_lists(members)
    keep = assign[ci] < 0
    ci, pi = ci[keep], pi[keep]
    for k, i in zip(pi.tolist(), ci.tolist()):
        if assign[i] >= 0 or caps[k] <= 0 or any(g.room(filled) <= 0 for g in groups[k]):
            continue
        assign[i] = k
        caps[k] -= 1
        filled[k] += 1
