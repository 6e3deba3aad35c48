"""`solve()`: the whole chain, policy + inputs -> seats -> pools -> engine -> result."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .engines import Assignment
from .engines.cpsat import solve_cpsat
from .engines.greedy import solve_greedy
from .policy import Policy
from .overall import distribute
from .pools import build_pools
from .selection import Selection, allocation_pools, merged
from .problem import Problem
from .result import Result
from .errors import TimeLimit, Unsupported
from .vacancy import YearState, determine_seats


@dataclass
class Solution:
    result: Result                  # the engine asked for (cpsat when both ran)
    other: Result | None            # the greedy, when both ran
    timings: dict

    @property
    def differences(self) -> int:
        if self.other is None:
            return 0
        a, b = self.result.assignment, self.other.assignment
        return int(((a.pool != b.pool) | (a.adjusted != b.adjusted)).sum())


def solve(policy: Policy, problem: Problem, engine: str = "cpsat", time_limit: float | None = None,
          workers: int = 1, hint: bool = True, state: YearState | None = None, progress=None) -> Solution:
    """`state`: the register's view before the year (roster positions, carried vacancies), if any;
    `progress`: called with a short text as the engines move on (the command line's status line)."""
    t0 = time.perf_counter()
    seats = determine_seats(policy, problem, state=state)
    if policy.migration.selection_list:
        if seats.exchangeable:
            raise Unsupported("carried vacancies open to exchange partners together with a recommendation list "
                              "(migration.selection_list) are not implemented")
        if state is not None and (seats.minimums or seats.carried_horizontal):
            raise Unsupported("horizontal minimums with a recommendation list and a register are not implemented: "
                              "the register counts a compartment's horizontal seats, which the service allocation "
                              "holds per post as seats of their own (README)")
        # The recommendation list is itself a single-cadre recruitment: same engines, same chain.
        mprob, mseats = merged(policy, problem, seats)
        first = solve_pools(policy, mprob, mseats, build_pools(policy, mprob, mseats), engine, time_limit, workers,
                            hint, progress)
        stage = first.result
        sel = Selection(np.where(stage.selected, stage.seat_category, ""),
                        np.array([stage.route(i) if stage.selected[i] else "" for i in range(problem.n)], dtype=object),
                        stage)
        pools = allocation_pools(policy, problem, seats, sel)
        out = solve_pools(policy, problem, seats, pools, engine, time_limit, workers, hint, progress)
        out.timings = _round({"recommendation": sum(first.timings.values()), **out.timings,
                              "total": time.perf_counter() - t0})
        return out
    seats = distribute(policy, problem, seats)
    pools = build_pools(policy, problem, seats)
    out = solve_pools(policy, problem, seats, pools, engine, time_limit, workers, hint, progress)
    out.timings = _round({"determine_and_pools": time.perf_counter() - t0 - sum(out.timings.values()),
                          **out.timings})
    return out


def solve_pools(policy: Policy, problem: Problem, seats, pools, engine: str, time_limit, workers, hint,
                progress=None) -> Solution:
    timings: dict = {}
    greedy: Assignment | None = None
    # The greedy runs for CP-SAT too: its certificate, or (solving independently) the answer written should the
    # time limit expire first (SPEC: the best answer is still written, status time_limit, exit 4).
    if engine in ("greedy", "both", "cpsat"):
        if progress is not None:
            progress("greedy")
        t = time.perf_counter()
        greedy = solve_greedy(pools, problem.n)
        timings["greedy"] = time.perf_counter() - t
    if engine == "greedy":
        return Solution(Result(policy, problem, seats, pools, greedy, "greedy"), None, timings)
    if progress is not None:
        progress("CP-SAT")
    t = time.perf_counter()
    try:
        cp = solve_cpsat(pools, problem.n, hint=greedy if hint else None, time_limit=time_limit, workers=workers,
                         progress=progress)
    except TimeLimit:
        cp = Assignment(greedy.pool, greedy.adjusted, "time_limit", {"hinted": False})
    timings["cpsat"] = time.perf_counter() - t
    main = Result(policy, problem, seats, pools, cp, "cpsat")
    other = Result(policy, problem, seats, pools, greedy, "greedy") if engine == "both" else None
    return Solution(main, other, timings)


def _round(t: dict) -> dict:
    return {k: round(v, 4) for k, v in t.items()}
