"""The whole model of a set of pools, in the order its rules are stated: chains (`model.Chains`), preferences
(`model.link_preferences`), shared bounds, capacities, horizontal minimums (`horizontal.minimums`), objective."""
from __future__ import annotations

from ortools.sat.python import cp_model

from ...pools import Pools
from .horizontal import held_vacancy, minimums
from .model import Chains, GroupChain, Model, Names, Rules, capacity, guard, link_preferences, shared_bounds


def chain_depths(pools: Pools) -> list[int]:
    """Each pool's sound depth (`model.depth`, which states it pool by pool), for all pools at once: pools are
    grouped by which types of candidate they admit (few groups: eligibility rests on category and flags), and
    within each group a running sum of capacities in the order pools are preferred answers "the capacity of the
    pools of this group some candidate may prefer to that one" by one binary search. Pool by pool it was
    quadratic: 5,000 one-vacancy posts made 25 million comparisons."""
    import numpy as np

    if not len(pools):
        return []
    ps = pools.pools
    base = np.array([q.base for q in ps], dtype=np.int64) + _over_the_number(pools)
    phase = np.array([q.phase for q in ps], dtype=np.int64)
    if pools.common_order:     # preferred: an earlier phase, then an earlier post, then a higher precedence
        keys = (np.array([q.precedence for q in ps]), np.array([q.post for q in ps]), phase)
    else:                      # preferred: an earlier phase, or any other pool of the same phase
        keys = (phase,)
    order = np.lexsort(keys)
    rank = np.empty(len(ps), dtype=np.int64)
    sorted_keys = np.stack([k[order] for k in keys[::-1]], axis=1)
    rank[order] = np.concatenate([[0], np.cumsum(np.any(sorted_keys[1:] != sorted_keys[:-1], axis=1))])
    if not pools.merit_only:   # (`model.overlaps`: with preferences or shared bounds every pool may count)
        sig, meets = np.zeros(len(ps), dtype=np.int64), np.ones((1, 1), dtype=bool)
    else:    # two groups meet where some type of candidate is admitted by both (never a pools x pools matrix)
        from ...pools.lists import admit_types
        cols = admit_types([q.eligible for q in ps])[1].T
        kinds, sig = np.unique(cols, axis=0, return_inverse=True)
        sig = sig.reshape(-1)
        meets = (kinds.astype(np.int64) @ kinds.T.astype(np.int64)) > 0
    out = base.copy()
    for s in range(meets.shape[0]):
        mine = np.flatnonzero(sig == s)
        by = mine[np.argsort(rank[mine], kind="stable")]
        r, run = rank[by], np.concatenate([[0], np.cumsum(base[by])])
        who = np.flatnonzero(meets[s, sig])          # pools some candidate of group s may also be admitted to
        side = "left" if pools.common_order else "right"
        got = run[np.searchsorted(r, rank[who], side=side)]
        if not pools.common_order:                   # (the pool itself is not preferred to itself)
            got = got - np.where(sig[who] == s, base[who], 0)
        out[who] += got
    return out.tolist()


def _over_the_number(pools: Pools):
    """Per pool, the most seats the same-rank rule may add to it: one fewer than the largest number of candidates
    of one rank on its list (0 where no list has a tie). A chain's depth counts them with the capacities."""
    import numpy as np

    from ....data.lists import ABSENT

    if not pools.same_rank:
        return 0
    most = {}
    for k in {p.merit_list for p in pools.pools}:
        level = pools.lists.levels(k)
        level = level[level < ABSENT]
        most[k] = int(np.unique(level, return_counts=True)[1].max(initial=1)) - 1 if len(level) else 0
    return np.array([0 if p.minimums else most[p.merit_list] for p in pools.pools], dtype=np.int64)


def build(pools: Pools, names: Names | None = None, rules: Rules | None = None, objective: bool = True,
          depths: list[int] | None = None) -> Model:
    """The whole model of `pools`: chains, preferences, shared bounds, capacities and minimums, objective.
    `rules`: the rule instances an audit may switch off (None: every rule a hard constraint). Each chain is
    cut at its sound depth (`chain_depths`), or at `depths`: a certificate's, computed on the pools its own
    were cut down from (a chain of fewer members admits no more of them). `objective`: False leaves it out (a
    certificate, which states candidate-optimality as feasibility)."""
    names = names or Names()
    m = cp_model.CpModel()
    if rules is not None:
        rules.m = m
    if depths is None:
        depths = chain_depths(pools)
    levels = (lambda p: pools.lists.levels(p.merit_list)) if pools.same_rank else (lambda p: None)
    model = Model(m, pools, names, [Chains(m, p, d, names, rules, levels(p)) for p, d in zip(pools, depths)],
                  [GroupChain(m, pools, g, names) for g in pools.shared], rules=rules)
    link_preferences(model)
    sums = model.sums()
    for p in pools:
        if p.held:
            sums[p.index] = sums[p.index] + held_vacancy(model, p)
    shared_bounds(model, sums)
    for p, ch in zip(pools, model.chains):
        capacity(model, p, ch, sums)
        if p.minimums:
            start = len(m.proto.constraints)
            minimums(model, p, ch, p.base - sum(sums[q] for q in p.minus))
            if rules is not None and rules.minimums:
                guard(m, rules.lit(("minimum", p.index)), start)
    if model.objective and objective:
        m.maximize(cp_model.LinearExpr.sum(model.gain))
    return model
