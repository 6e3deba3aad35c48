"""The whole model of a set of pools, in the order its rules are stated: chains (`model.Chains`), preferences
(`model.link_preferences`), shared bounds, capacities, horizontal minimums (`horizontal.minimums`), objective."""
from __future__ import annotations

from ortools.sat.python import cp_model

from ...pools import Pools
from .horizontal import minimums
from .model import Chains, GroupChain, Model, Names, Rules, capacity, depth, guard, link_preferences, overlaps, \
    shared_bounds


def chain_depths(pools: Pools) -> list[int]:
    """Each pool's sound depth (`model.depth`)."""
    overlap = overlaps(pools)
    return [depth(pools, p, overlap) for p in pools]


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
    model = Model(m, pools, names, [Chains(m, p, d, names, rules) for p, d in zip(pools, depths)],
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
