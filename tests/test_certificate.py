"""The reduced certificate (issue 19): CP-SAT certifies the greedy's assignment on the pairs that can refute
it (`solver.engines.cpsat.certificate`). It must accept exactly what the full model accepts: checked on random
recruitments, the greedy's assignment and planted violations of it (a candidate moved to another pool, left
out, or placed where she is not eligible)."""
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from solver import solve
from solver.engines.assignment import Assignment
from solver.engines.cpsat.build import build
from solver.engines.cpsat.certificate import certificate_pools
from solver.engines.cpsat.solve import assume, decode, parameters, solve_model
from strategies import instances, materialise

PROFILE = settings(max_examples=int(__import__("os").environ.get("AARAKSHAN_EXAMPLES", "300")) // 2 or 1,
                   deadline=None, suppress_health_check=[HealthCheck.too_slow])


def certifies(pools, held: np.ndarray, reduced: bool) -> bool:
    """Whether the (full or reduced) model, with `held` assumed, has a solution, and that solution is `held`.
    (The full model's chains are cut at a depth, so a pair past it has no literal to assume: a candidate
    planted there comes out unplaced, which is a rejection too.)"""
    model = build(certificate_pools(pools, held) if reduced else pools, cut=not reduced)
    assume(model, Assignment(held, np.zeros(len(held), bool), "planted"))
    solver = parameters(True, True, None, 1)
    if solver.solve(model.m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return False
    return np.array_equal(decode(model, solver, len(held), False)[0], held)


@PROFILE
@given(st.one_of(instances(), instances(traits=True, max_n=30), instances(overall=True, max_n=30)), st.data())
def test_the_reduced_certificate_accepts_exactly_what_the_full_model_accepts(inst, data):
    pol, prob = materialise(Path(tempfile.mkdtemp()), inst)
    res = solve(pol, prob, "greedy").result
    pools = res.pools
    if pools.minimums_with_preferences or pools.shared:
        return   # (an objective, or a recommendation list's bounds: certified on the full model)
    held = res.assignment.pool.copy()
    assert certifies(pools, held, True) and certifies(pools, held, False)
    moves = data.draw(st.lists(st.tuples(st.integers(0, prob.n - 1), st.integers(-1, len(pools) - 1)),
                               min_size=1, max_size=3))
    for i, p in moves:
        held[i] = p
    assert certifies(pools, held, True) == certifies(pools, held, False), moves


def test_a_planted_violation_is_rejected_by_the_reduced_certificate_and_solved_for_real():
    """One post with 1 open vacancy; A (rank 1) and B. The planted assignment gives the seat to B: A is
    eligible, wants it and ranks above B (no justified envy). The reduced certificate keeps B (the holder)
    and A (the best left out) and rejects it; the full model is then solved, and gives the seat to A."""
    from solver.pools import Pool, Pools
    pool = Pool(0, 0, "open_merit", 0, 0, ("UR",), np.ones(2, bool), 1)
    pools = Pools((pool,), np.zeros((2, 1), np.int64), True)
    planted = np.array([-1, 0])
    assert certificate_pools(pools, planted).pools[0].eligible.tolist() == [True, True]
    assert not certifies(pools, planted, True) and not certifies(pools, planted, False)
    a = solve_model(pools, 2, Assignment(planted, np.zeros(2, bool), "greedy"), None, 1)
    assert a.pool.tolist() == [0, -1] and a.stats["hint_rejected"] and "certificate" not in a.stats
    a = solve_model(pools, 2, Assignment(np.array([0, -1]), np.zeros(2, bool), "greedy"), None, 1)
    assert a.pool.tolist() == [0, -1] and a.stats["certificate"] == "reduced"
