"""Which rules conflict, where CP-SAT proves a model infeasible: each rule instance a literal (`model.Rules`),
assumed, and the core of the assumptions CP-SAT names shrunk by a deletion filter. The audit asks with it
why a candidate cannot be selected; `solve` asks with it why no allocation satisfies every rule."""
from __future__ import annotations

from ortools.sat.python import cp_model

from ...pools import Pools
from .build import build
from .model import Model, Names, Rules
from .parameters import parameters, solve_stoppably

# What each kind of rule instance says, and its source, for a conflict named in `solve`.
SAYS = {
    "capacity": ("holds no more candidates than its vacancies", "vacancies.csv"),
    "waste": ("leaves an eligible candidate who wants it out only when it is full",
              "non-wastefulness; Saurav Yadav 2020"),
    "minimum": ("meets its horizontal minimums as far as its beneficiaries allow",
                "Rajesh Kumar Daria 2007; Saurav Yadav 2020"),
}
KIND_NAME = {"capacity": "capacity", "waste": "non_wastefulness", "minimum": "minimum"}
# A deletion filter costs one solve per rule of the core, each about as long as the model is big: it runs
# where rules x variables stay within this (single-10k's questions: ~0.5 M; UPSC-like, 24 posts: 7.8 M, 24
# solves of 4 s each, where the core unfiltered already names one capacity per post she ranked).
FILTER_BUDGET = 3_000_000


def worth_filtering(model: Model, found: list) -> bool:
    """Whether a deletion filter of the core `found` is cheap enough to run (`FILTER_BUDGET`)."""
    return len(found) * len(model.m.proto.variables) <= FILTER_BUDGET


def run(model: Model, assumptions: list, time_limit: float | None, workers: int = 1, presolve: bool | None = None):
    """Solve under `assumptions` (literals); returns (status name, solver). `presolve`: whether CP-SAT presolves
    (by default only without assumptions)."""
    m = model.m
    m.clear_assumptions()
    m.add_assumptions(assumptions)
    solver = parameters(False, False, time_limit, workers)
    # Presolve may prove infeasibility before the search sees the assumptions, and then names no core.
    solver.parameters.cp_model_presolve = not assumptions if presolve is None else presolve
    status = solve_stoppably(solver, m)
    name = {cp_model.OPTIMAL: "feasible", cp_model.FEASIBLE: "feasible", cp_model.INFEASIBLE: "infeasible"}.get(
        status, "time_limit")
    return name, solver


def core(model: Model, rules: Rules, time_limit: float | None, workers: int):
    """Solve with every rule instance of `rules` assumed. Returns (status name, solver, core): the core is
    the rule instances (keys of `rules.lits`) CP-SAT names as infeasible together, or None when the model
    is feasible with every rule on (or time ran out)."""
    keys = sorted(rules.lits, key=str)
    status, solver = run(model, [rules.lits[k] for k in keys], time_limit, workers)
    if status != "infeasible":
        return status, solver, None
    index = {rules.lits[k].index: k for k in keys}
    return status, solver, [index[x] for x in solver.sufficient_assumptions_for_infeasibility() if x in index]


def shrunk(model: Model, rules: Rules, found: list, time_limit, workers) -> tuple[list, bool]:
    """The core `found` shrunk to a minimal one where that is cheap (`worth_filtering`), and whether it was."""
    if not worth_filtering(model, found):
        return found, False
    return deletion_filter(model, rules, found, time_limit, workers), True


def deletion_filter(model: Model, rules: Rules, found: list, time_limit, workers) -> list:
    """Drop every rule of the core without which the model is still infeasible: what is left is minimal."""
    kept = list(found)
    for k in list(found):
        trial = [x for x in kept if x != k]
        # (no presolve even with no rule left assumed: only the status is read, and at SSC size presolving
        # the audit's model took longer than the search)
        status, _ = run(model, [rules.lits[x] for x in trial], time_limit, workers, presolve=False)
        if status == "infeasible":
            kept = trial
    return kept


def conflict(pools: Pools, posts: tuple[str, ...], time_limit: float | None = None, workers: int = 1) -> str:
    """Why no allocation of `pools` satisfies every rule: the model rebuilt with each pool's capacity,
    non-wastefulness and horizontal minimums as assumed literals, and the core CP-SAT names (minimal where
    it is short enough to filter). The merit order within each pool and each candidate's preferences stay
    hard: a conflict among them alone is named as such."""
    names = Names(posts)
    rules = Rules(capacity=True, waste=True, minimums=True)
    model = build(pools, names, rules)
    model.m.clear_objective()
    _, _, found = core(model, rules, time_limit, workers)
    if found is None:
        return "CP-SAT proved the model infeasible, but not with its rules as assumptions (time limit?)"
    if not found:
        return ("the merit order within the pools and the candidates' preferences conflict by themselves, "
                "which no input should cause: a defect of Aarakshan's (please report the inputs)")
    found, minimal = shrunk(model, rules, found, time_limit, workers)
    parts = []
    for kind, p in found:
        says, source = SAYS[kind]
        parts.append(f"{KIND_NAME[kind]}[{names.pool(pools.pools[p])}]: the pool {says} ({source})")
    what = "the rule that cannot hold" if len(found) == 1 else f"{len(found)} rules in conflict"
    return f"{what} ({'a minimal core' if minimal else 'a core, not shrunk to a minimal one'}): " + "; ".join(parts)
