"""A compartment's choice: which of the candidates available to a pool it takes, under its horizontal
minimums (Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007; Saurav Yadav 2020).

This is the rule itself, not an engine: the greedy fills pools with it, `solver.chain.overall` places a post's
minimums with it, the allocation's reports compare against the procedure as written (`procedure`), and the
CP-SAT model states the same choice as constraints on the trait signatures and Hall terms defined here.
"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import numpy as np

from .pools import Pool, Pools


def signatures(pool: Pool, who: np.ndarray) -> np.ndarray:
    """Bit t set when the candidate counts for the pool's t-th trait (in `pool.minimums` order); bit T (the
    number of traits) when they count but may not come in by adjustment (see `Pool.incoming`)."""
    sig = np.zeros(len(who), dtype=np.int64)
    fixed = np.zeros(len(who), dtype=bool)
    for t, trait in enumerate(pool.minimums):
        ben = pool.beneficiary[trait][who]
        sig |= ben.astype(np.int64) << t
        if trait in pool.incoming:
            fixed |= ben & ~pool.incoming[trait][who]
    return sig | (fixed.astype(np.int64) << len(pool.minimums))


def merit_only_class(pool: Pool, sig) -> bool:
    """Signature of those who count for the minimums but enter only on merit (bit T of `signatures`)."""
    return bool(int(sig) >> len(pool.minimums) & 1)


def hall_terms(pool: Pool):
    """Every non-empty set Y of the pool's traits (as bits, the full set last), the seats Y's minimums
    reserve, and `meets[y, s]`: whether a candidate of signature s counts for some trait of Y."""
    mins = list(pool.minimums.values())
    T = len(mins)
    ys = np.arange(1, 1 << T)
    need = np.array([sum(m for t, m in enumerate(mins) if y >> t & 1) for y in ys], dtype=np.int64)
    meets = ((ys[:, None] & np.arange(2 << T)[None, :]) != 0).astype(np.int64)
    return ys, need, meets


def exchanges(sigs: list[int]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The exchanges that decide whether a compartment whose appointees count for every trait they have holds
    its best set: one or two signature classes out (each class's worst holder), as many other classes in
    (each one's best waiting candidate); `sigs` are the classes' trait bits (`signatures`). Within a class
    the holders are a merit prefix, so these are the only moves to look at: the set is the best one (first
    most of the minimums' seats filled, then merit-lexicographic) exactly when no such exchange improves it.
    Exchanges of one alone do not suffice: merit a (neither) > b (woman) > c (pwbd) > d (both), two seats,
    minimums 1 and 1: {b, c} admits none, {a, d} is best. An exchange of two is kept only where it is not
    two exchanges of one that move every count the same way (for separable concave objectives the conformally
    minimal moves suffice: Murota, Saito and Weismantel 2004). Checked against every set of small random
    compartments (tests/rules/test_counts_each.py)."""
    def delta(a: int, b: int) -> list[int]:
        return [(b >> t & 1) - (a >> t & 1) for t in range(max(sigs, default=0).bit_length())]

    def conflict(x: list[int], y: list[int]) -> bool:
        return any(p * q < 0 for p, q in zip(x, y))

    out = [((a,), (b,)) for a in sigs for b in sigs if a != b]
    for o1, o2 in combinations(sigs, 2):
        for i1, i2 in combinations([s for s in sigs if s not in (o1, o2)], 2):
            if conflict(delta(o1, i1), delta(o2, i2)) and conflict(delta(o1, i2), delta(o2, i1)):
                out.append(((o1, o2), (i1, i2)))
    return out


def fill_compartment(pool: Pool, free: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """Chosen candidates (sorted, merit order) and which of them came in by horizontal adjustment."""
    return choose(pool, np.flatnonzero(pool.eligible & free), cap)


def held_vacant(pool: Pool, who: np.ndarray) -> dict[str, int]:
    """Per held trait (`Pool.held`), the seats of this year's minimum that stay vacant when the compartment is
    chosen from `who`: what its beneficiaries among `who` leave of the minimum, the minimum's carried seats
    served first, at most this year's seats (PwD Act 1995 s.36: "such vacancy shall be carried forward";
    RPwD Act 2016 s.34(2) as summarised). A beneficiary of a held trait counts for it even where she also counts
    for another minimum that reverts (the reading taken: docs/horizontal.md); two held traits one candidate may
    have are refused (`solver.chain.engines.support`), for she would free two held seats by taking one.

    Example
    -------
    >>> p = Pool(0, 0, "open", 0, 0, ("UR",), np.ones(3, bool), 3, minimums={"pwbd": 2}, held={"pwbd": 2},
    ...          beneficiary={"pwbd": np.array([False, True, False])})
    >>> held_vacant(p, np.array([0, 1, 2])), held_vacant(p, np.array([0, 2]))
    ({'pwbd': 1}, {'pwbd': 2})
    """
    out = {}
    for t, h in pool.held.items():
        v = min(h, max(0, pool.minimums[t] - int(np.count_nonzero(pool.beneficiary[t][who]))))
        if v:
            out[t] = v
    return out


def held_vacancies(pools: Pools, assign: np.ndarray) -> np.ndarray:
    """Per pool, its held minimums' seats left vacant under `assign` (a pool per candidate, -1 none):
    `held_vacant` of its holders. Later phases' pools do not take them (they count as filled there)."""
    out = np.zeros(len(pools), dtype=np.int64)
    held = [p.index for p in pools if p.held]
    if held:
        order = np.argsort(assign, kind="stable")
        bounds = np.searchsorted(assign[order], np.r_[held, np.array(held) + 1].reshape(2, -1))
        for k, a, b in zip(held, *bounds):
            out[k] = sum(held_vacant(pools.pools[k], order[a:b]).values())
    return out


def choose(pool: Pool, avail: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """The compartment's choice among `avail` (merit order): the best `cap`, then, only on a shortfall of a
    horizontal minimum, the lowest non-beneficiaries replaced by the best remaining beneficiaries. Those who
    count but may not come in by adjustment (`Pool.incoming`) are in only if the best `cap` include them
    (such pools exist only where posts are filled in turn: see `solver.chain.overall`). A held minimum's seats
    its beneficiaries leave (`held_vacant`) are not offered: the choice is then among `cap` less them, the
    minimum less them (which for one trait is the merit-best set with at most `cap` less the minimum who do
    not count for it, the greedy basis of a transversal matroid, so deferred acceptance stays stable)."""
    if pool.held and (vacant := held_vacant(pool, avail)):
        mins = {t: m - vacant.get(t, 0) for t, m in pool.minimums.items()}
        kept = {t: m for t, m in mins.items() if m > 0}
        narrower = replace(pool, minimums=kept, held={}, beneficiary={t: pool.beneficiary[t] for t in kept},
                           incoming={t: v for t, v in pool.incoming.items() if t in kept})
        return choose(narrower, avail, cap - sum(vacant.values()))
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
    """The minimum-guarantee procedure as written (Rajesh Kumar Daria 2007): the best `cap` of `avail` (in the
    order of the pool's merit list), then, trait by trait, on a shortfall the lowest appointees who count for none
    of the compartment's minimums replaced by the best remaining beneficiaries. With one trait this is the rule;
    with several, each appointee counting for every trait they have, it can stop short of the merit-best set (see
    `_best_counting_each`), and `Result.procedure_differences` reports where. Returns the chosen in `avail`'s
    order and which of them came in by adjustment."""
    taken = np.zeros(len(avail), dtype=bool)     # (by place in `avail`: its order is the pool's list's)
    taken[:cap] = True
    adjusted = np.zeros(len(avail), dtype=bool)
    counts = np.any([pool.beneficiary[t][avail] for t in pool.minimums], axis=0) if pool.minimums else None
    for trait, minimum in pool.minimums.items():
        ben = pool.beneficiary[trait][avail]
        have = int((ben & taken).sum())
        if have >= minimum:
            continue
        incoming = np.flatnonzero(ben & ~taken)[: minimum - have]
        outgoing = np.flatnonzero(taken & ~counts)[::-1][: len(incoming)]
        incoming = incoming[: len(outgoing)]
        taken[outgoing] = False
        taken[incoming] = adjusted[incoming] = True
    return avail[taken], adjusted[taken]


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
    is {a, d}), and the merit-lexicographic rule is taken as the definition. Such sets are not the bases
    of a matroid, so the greedy down the merit list does not apply; instead, from the compartment's merit
    top, make the best improving exchange of `exchanges` until none improves. Every class's
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


def fill_in_turn(pools: Pools, n: int, assign: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Where every candidate orders pools alike (`Pools.merit_only`): each pool in the global order (phase,
    post, precedence) takes its choice of those still unplaced, which is serial dictatorship down the merit
    list. Returns (pool per candidate, -1 none; came in by horizontal adjustment)."""
    assign = np.full(n, -1, dtype=np.int64) if assign is None else assign
    adjusted = np.zeros(n, dtype=bool)
    filled = np.zeros(len(pools), dtype=np.int64)
    for pool in sorted(pools, key=lambda p: (p.phase, p.post, p.precedence)):
        chosen, adj = fill_compartment(pool, assign < 0, pool.capacity(filled))
        assign[chosen] = pool.index
        adjusted[chosen] = adj
        filled[pool.index] = len(chosen) + (sum(held_vacant(pool, chosen).values()) if pool.held else 0)
    return assign, adjusted
