"""Solving the model: in the turn the pools are filled, each group's model built (`build.build`), hinted
with the greedy's answer (`hint.add_hint`), given its parameters, solved, and decoded into an `Assignment`."""
from __future__ import annotations

import time

import numpy as np
from ortools.sat.python import cp_model

from ....errors import PolicyConflict, TimeLimit, Unsupported
from ...pools import Pools, group
from ..assignment import Assignment, mark_adjusted
from ..support import check_supported
from .hint import add_hint
from .build import build, chain_depths
from .certificate import certificate_pools, dominance_pools, no_better
from .model import Model, Names
from .parameters import parameters, solve_stoppably
from .size import check_model_size


def solve_cpsat(pools: Pools, n: int, hint: Assignment | None = None, time_limit: float | None = None,
                workers: int = 1, progress=None, names: tuple[str, ...] | None = None,
                posts: tuple[str, ...] = ()) -> Assignment:
    """The stable assignment the model defines.

    Solved in the turn the pools are filled (`turn_groups`): one group at a time with the earlier groups' result
    fixed. Every candidate prefers an earlier group, so a later group's constraints never restrict an
    earlier one (any input has a stable completion), and the whole model's solution is the groups' in
    sequence. Each group's model is the same model, its chains cut at a depth that counts only the group's own
    pools. Where posts are filled in turn (`Pools.merit_only`) a group is a (phase, post); with preferences,
    a phase; with a recommendation list's shared bounds, the whole model.

    Parameters
    ----------
    pools : the seat pools (`solver.chain.pools.build_pools`), which the engine support check has accepted.
    n : the number of candidates.
    hint : the greedy's assignment; with it CP-SAT certifies that assignment (or, should it break a rule of
        the model, solves for real). None: an independent solve.
    time_limit : seconds for the whole solve, or None.
    workers : CP-SAT's threads (the answer is the same for any number).
    progress : called with a short text per group, or None.
    names : post names, to give every variable a name that reads as the law (``admit[OBC@P01][rank 812]``);
        None (the default) leaves them unnamed, which is faster.
    posts : post names, to name the rules in conflict should the model be infeasible.

    Returns
    -------
    Assignment, status "optimal" (or "feasible"; "time_limit" with the hint's answer when time ran out).

    Raises
    ------
    PolicyConflict : the model is infeasible (exit 3), naming the rules in conflict (`conflict.conflict`).
    TimeLimit : time ran out with no hint to fall back on.
    """
    check_supported(pools)
    turns = turn_groups(pools)
    if turns is None:
        return solve_model(pools, n, hint, time_limit, workers, names=names, posts=posts)
    t0 = time.perf_counter()
    assign = np.full(n, -1, dtype=np.int64)
    filled = np.zeros(len(pools), dtype=np.int64)
    runs = batches(pools, turns)
    stats = {"build_seconds": 0.0, "solve_seconds": 0.0, "variables": 0, "constraints": 0,
             "hinted": hint is not None, "groups": len(turns), "models": len(runs)}
    status = "optimal"
    for k, members in enumerate(runs):
        if progress is not None:
            p = pools.pools[members[0]]
            progress(f"CP-SAT, model {k + 1} of {len(runs)} (from phase {p.phase}"
                     + (f", post {p.post + 1})" if pools.merit_only else ")"))
        sub = group(pools, members, assign < 0, filled)
        sub_hint = None
        if hint is not None:
            local = np.full(len(pools) + 1, -1, dtype=np.int64)
            local[members] = np.arange(len(members))
            sub_hint = Assignment(local[hint.pool], hint.adjusted, "greedy")
        left = None if time_limit is None else max(0.01, time_limit - (time.perf_counter() - t0))
        a = solve_model(sub, n, sub_hint, left, workers, adjust=False, names=names, posts=posts)
        for key in ("build_seconds", "solve_seconds", "variables", "constraints"):
            stats[key] += a.stats[key]
        if a.stats.get("hint_rejected"):
            stats["hint_rejected"] = True
        for key in ("certificate", "candidate_optimal"):
            if key in a.stats:
                stats[key] = a.stats[key]
        if a.status == "time_limit":
            return Assignment(hint.pool, hint.adjusted, "time_limit", stats)
        if a.status == "feasible":
            status = "feasible"
        got = a.pool >= 0
        assign[got] = np.asarray(members)[a.pool[got]]
        filled[members] = np.bincount(a.pool[got], minlength=len(members))
    adjusted = np.zeros(n, dtype=bool)
    mark_adjusted(pools, assign, adjusted)
    stats["seconds"] = time.perf_counter() - t0
    return Assignment(assign, adjusted, status, stats)


def turn_groups(pools: Pools) -> list[list[int]] | None:
    """The groups of pools in the order they are filled, when there is more than one: (phase, post) where
    posts are filled in turn, else phase (every candidate prefers an earlier phase: exchange, fallback and
    de-reservation fill only what the phases before them left). None with a shared bound (a recommendation
    list), which ties pools across groups."""
    if pools.shared:
        return None
    key = (lambda p: (p.phase, p.post)) if pools.merit_only else (lambda p: (p.phase,))
    groups: dict[tuple, list[int]] = {}
    for p in pools:      # (one pass: 5,000 one-vacancy posts are 5,000 groups)
        groups.setdefault(key(p), []).append(p.index)
    if len(groups) < 2:
        return None
    return [groups[k] for k in sorted(groups)]


# Consecutive groups are solved as one model while their eligible pairs stay this few: a model costs about 2 ms
# to build and solve however small, so 5,000 one-vacancy posts solved one by one took 10 s where the greedy takes
# 1. Groups solved together give the groups' result in sequence (every candidate prefers an earlier group), as
# the whole model does.
BATCH_PAIRS = 20_000


def batches(pools: Pools, turns: list[list[int]]) -> list[list[int]]:
    """The turn groups joined, in order, into runs of at most `BATCH_PAIRS` eligible pairs (a larger group alone)."""
    out: list[list[int]] = []
    size = 0
    for members in turns:
        k = sum(int(pools.pools[i].admits.sum()) for i in members)
        if not out or size + k > BATCH_PAIRS:
            out.append([])
            size = 0
        out[-1].extend(members)
        size += k
    return out


def solve_model(pools: Pools, n: int, hint: Assignment | None, time_limit: float | None, workers: int,
                adjust: bool = True, names: tuple[str, ...] | None = None, posts: tuple[str, ...] = ()) -> Assignment:
    """The model of `pools`, built and solved in one go. `adjust`: mark who came in by horizontal adjustment
    (a group solved in turn leaves that to the whole assignment).

    With a hint, CP-SAT first certifies it on the reduced model (`certificate`); only where that rejects it
    (or a recommendation list's shared bounds need every pair) is the full model built and solved."""
    t0 = time.perf_counter()
    named = Names(names) if names is not None else None
    stats = {"build_seconds": 0.0, "solve_seconds": 0.0, "variables": 0, "constraints": 0, "hinted": hint is not None}
    if hint is not None and not pools.shared:
        verdict = _certify(pools, hint, named, time_limit, workers, stats)
        if verdict == "time_limit":
            return Assignment(hint.pool, hint.adjusted, "time_limit", stats)
        if verdict is not None:
            adjusted = np.zeros(n, dtype=bool)
            if adjust:
                mark_adjusted(pools, hint.pool, adjusted)
            stats["seconds"] = time.perf_counter() - t0
            return Assignment(hint.pool.copy(), adjusted, verdict, stats)
    t = time.perf_counter()
    model = _built(pools, named, hint)
    stats["build_seconds"] += time.perf_counter() - t
    # (without an objective the model has one solution: with the hint assumed, a certificate; a recommendation
    # list comes here, as does a hint the reduced certificate rejected, which is solved unaided)
    certify = hint is not None and not model.m.has_objective() and not stats.get("hint_rejected")
    solver = parameters(hint is not None, certify, time_limit, workers)
    if certify:
        assume(model, hint)
    status = solve_stoppably(solver, model.m)
    stats["solve_seconds"] += solver.wall_time
    if certify and status == cp_model.INFEASIBLE:
        stats["hint_rejected"] = True
        model.m.clear_assumptions()
        status = solve_stoppably(solver, model.m)
        stats["solve_seconds"] += solver.wall_time
    stats["variables"] += len(model.m.proto.variables)
    stats["constraints"] += len(model.m.proto.constraints)
    if status == cp_model.MODEL_INVALID:
        raise Unsupported(f"CP-SAT rejected the model as invalid ({solver.status_name(status)}): a defect of "
                          "Aarakshan's, not of the input or the law; engine=greedy gives the reference answer "
                          "(please report the inputs)")
    if status == cp_model.INFEASIBLE:
        from .conflict import conflict
        raise PolicyConflict("no allocation satisfies every rule at once (CP-SAT proved the model infeasible): "
                             + conflict(pools, posts or names or (), time_limit, workers))
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if hint is None:
            raise TimeLimit("time limit reached before CP-SAT found an allocation")
        return Assignment(hint.pool, hint.adjusted, "time_limit", stats)
    assign, adjusted = decode(model, solver, n, adjust)
    stats["seconds"] = time.perf_counter() - t0
    return Assignment(assign, adjusted, "optimal" if status == cp_model.OPTIMAL else "feasible", stats)


def _certify(pools: Pools, hint: Assignment, names: Names | None, time_limit: float | None, workers: int,
             stats: dict) -> str | None:
    """Certify the greedy's assignment: stable, on a reduced model with the assignment assumed
    (`certificate.certificate_pools`), and where the model has an objective also candidate-optimal, as
    feasibility (`certificate.no_better`: infeasible exactly when no stable assignment is better for someone
    and worse for nobody). That model's pools (`dominance_pools`) serve both questions, so it is built once.
    Returns "optimal" (certified), "time_limit", or None: rejected (stats["hint_rejected"]) or not optimal,
    for the full model to solve."""
    t0 = time.perf_counter()
    optimal = pools.minimums_with_preferences
    cut = (dominance_pools if optimal else certificate_pools)(pools, hint.pool)
    model = _built(cut, names, hint, objective=False, depths=chain_depths(pools))
    stats["build_seconds"] += time.perf_counter() - t0
    try:
        solver = parameters(True, True, time_limit, workers)
        assume(model, hint)
        status = solve_stoppably(solver, model.m)
        stats["solve_seconds"] += solver.wall_time
        if status == cp_model.INFEASIBLE:
            stats["hint_rejected"] = True
            return None
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "time_limit"
        if optimal:
            model.m.clear_assumptions()
            if not no_better(model, hint.pool):
                return None
            left = None if time_limit is None else max(0.01, time_limit - (time.perf_counter() - t0))
            # (the proof is a search: presolve and the LP relaxation took 35 of bpsc-70-horizontal's 59 s)
            solver = parameters(True, False, left, workers)
            status = solve_stoppably(solver, model.m)
            stats["solve_seconds"] += solver.wall_time
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return None   # (a stable assignment better than the greedy's: a defect the full model settles)
            if status != cp_model.INFEASIBLE:
                return "time_limit"
            stats["candidate_optimal"] = "no stable assignment is better for someone and worse for nobody"
        stats["certificate"] = "reduced"
        return "optimal"
    finally:   # (the certificate's size, whatever its verdict)
        stats["variables"] += len(model.m.proto.variables)
        stats["constraints"] += len(model.m.proto.constraints)


def _built(pools: Pools, names: Names | None, hint: Assignment | None, objective: bool = True,
           depths: list[int] | None = None) -> Model:
    check_model_size(pools)
    model = build(pools, names, objective=objective, depths=depths)
    if hint is not None:
        add_hint(model, hint)
    return model


def assume(model: Model, hint: Assignment) -> None:
    """Without an objective the model has one solution (one merit list for every pool), so with the greedy's
    assignment assumed CP-SAT has only to find cutoffs that make it stable and check every constraint: a
    certificate, not a search. Should the greedy's assignment break a rule of the model, the assumptions are
    cleared and the model solved for real."""
    # (literal indices straight into the proto: a negated literal is -index-1; half a million add_assumption
    # calls took 1.5 s of bpsc-70's build)
    model.m.proto.assumptions.extend([x.index if hint.pool[i] == p else -x.index - 1
                                      for p, xs in enumerate(model.holds) for i, x in xs.items()])


def decode(model: Model, solver: cp_model.CpSolver, n: int, adjust: bool) -> tuple[np.ndarray, np.ndarray]:
    """Who holds which pool in the solution, and who of them came in by horizontal adjustment."""
    assign = np.full(n, -1, dtype=np.int64)
    adjusted = np.zeros(n, dtype=bool)
    for p in model.pools:
        for i, x in model.holds[p.index].items():
            if solver.boolean_value(x):
                assign[i] = p.index
    if adjust:
        mark_adjusted(model.pools, assign, adjusted)
    return assign, adjusted
