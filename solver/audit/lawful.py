"""The set of lawful allocations as a CP-SAT model, for questions the greedy cannot answer: is the official
allocation the only one, and is there one that selects (or leaves out) a given candidate?

The model is the engine's (`solver.chain.engines.cpsat.build.build`) with three changes. Its objective is dropped:
where horizontal minimums meet preferences several stable allocations are lawful, and the candidate-optimal
one is the official choice among them, not the only lawful one. Candidates tied on merit whom only their ids
order are admitted in any order (an id is not a rule of law). And rule instances an audit asks about are
literals (`Rules`): a pool's capacity, its non-wastefulness, and a candidate's eligibility for a pool she
may not hold (a relaxed standard, the creamy layer), so that on a "no" CP-SAT names the rules in the way.
"""
from __future__ import annotations

import numpy as np
from ortools.sat.python import cp_model

from ..chain.engines.assignment import Assignment
from ..chain.engines.cpsat.build import build
from ..chain.engines.cpsat.model import Model, Names, Rules
from ..chain.engines.cpsat.size import check_model_size
from ..chain.engines.cpsat.solve import decode
from ..policy import Policy
from ..chain.pools import DERESERVED, OPEN_MERIT, RESERVED, Pools
from ..data.problem import Problem

SRC_RELAXED = "DoPT OM 01.07.1998, 04.04.2018; Deepa E.V. v. Union of India 2017"


def relaxable(policy: Policy, problem: Problem, pools: Pools, i: int) -> tuple[Pools, dict]:
    """The pools with candidate i added where she ranked the post but a rule the audit can name bars her: an
    open vacancy for one who availed a relaxed standard, her own category's for its creamy layer. Returns the
    pools and, per (pool, i) added, the rule (text, source)."""
    from dataclasses import replace

    c, out, why = problem.candidates, [], {}
    relaxed = c.relaxed_at(policy.migration.bars_open.final)
    for p in pools:
        if p.eligible[i] or not problem.ranked[i, p.post] or p.minimums or p.serves:
            out.append(p)
            continue
        rule = None
        if p.route in (OPEN_MERIT, DERESERVED) and relaxed[i] and not policy.migration.relaxed_may_take_open:
            rule = (f"{c.ids[i]} availed a relaxed standard and may not hold an open vacancy", SRC_RELAXED)
        elif p.route == RESERVED and p.category == c.category[i] and c.creamy[i] and \
                policy.category(p.category).creamy_layer_excluded:
            rule = (f"{c.ids[i]} is of the creamy layer and may not hold a {p.category} vacancy",
                    "; ".join(x for x in (policy.authorities.creamy_layer, "Indra Sawhney 1992") if x))
        if rule is None:
            out.append(p)
            continue
        elig = p.eligible.copy()
        elig[i] = True
        out.append(replace(p, admits=elig, ranked_by=None))
        why[(p.index, i)] = rule
    return replace(pools, pools=tuple(out)), why


def lawful_model(pools: Pools, problem: Problem, rules: Rules) -> Model:
    """The model of every lawful allocation of `pools`, its variables named as the law."""
    check_model_size(pools)
    model = build(pools, Names(problem.posts), rules)
    model.m.clear_objective()
    return model


def solution(model: Model, solver: cp_model.CpSolver, n: int) -> Assignment:
    """The solution's assignment (`engines.cpsat.solve.decode`), adjustments marked."""
    return Assignment(*decode(model, solver, n, adjust=True), "audit")


def differs(model: Model, official: np.ndarray, who) -> list:
    """Literals of which one must hold for some candidate in `who` to fare otherwise than officially."""
    out = []
    for p, xs in enumerate(model.holds):
        for i, x in xs.items():
            if i in who:
                out.append(x.Not() if official[i] == p else x)
    return out
