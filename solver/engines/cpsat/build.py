"""The whole model of a set of pools, in the order its rules are stated: chains (`model.Chains`), preferences
(`model.link_preferences`), shared bounds, capacities, horizontal minimums (`horizontal.minimums`), objective."""
from __future__ import annotations

from ortools.sat.python import cp_model

from ...pools import Pools
from .horizontal import minimums
from .model import Chains, GroupChain, Model, Names, Rules, capacity, depth, guard, link_preferences, overlaps, \
    shared_bounds


def build(pools: Pools, names: Names | None = None, rules: Rules | None = None, cut: bool = True,
          objective: bool = True) -> Model:
    """The whole model of `pools`: chains, preferences, shared bounds, capacities and minimums, objective.
    `rules`: the rule instances an audit may switch off (None: every rule a hard constraint). `cut`: cut each
    chain at its sound depth (`model.depth`); the certificate's few members need no cut. `objective`: False
    leaves it out (a certificate, which states candidate-optimality as feasibility)."""
    names = names or Names()
    m = cp_model.CpModel()
    if rules is not None:
        rules.m = m
    overlap = overlaps(pools) if cut else None
    deep = [depth(pools, p, overlap) if cut else int(p.eligible.sum()) for p in pools]
    model = Model(m, pools, names, [Chains(m, p, d, names, rules) for p, d in zip(pools, deep)],
                  [GroupChain(m, pools, g, names) for g in pools.shared], rules=rules)
    link_preferences(model)
    sums = model.sums()
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
