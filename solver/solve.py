"""`solve()`: the whole chain, policy + inputs -> seats -> pools -> engine -> result."""
from __future__ import annotations

import time
from dataclasses import dataclass

from .engines import Assignment
from .engines.cpsat import solve_cpsat
from .engines.greedy import solve_greedy
from .policy import Policy
from .pools import build_pools
from .problem import Problem
from .result import Result
from .vacancy import determine_seats


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
          workers: int = 1, hint: bool = True) -> Solution:
    t0 = time.perf_counter()
    seats = determine_seats(policy, problem)
    pools = build_pools(policy, problem, seats)
    timings = {"determine_and_pools": time.perf_counter() - t0}
    greedy: Assignment | None = None
    if engine in ("greedy", "both") or (engine == "cpsat" and hint):
        t = time.perf_counter()
        greedy = solve_greedy(pools, problem.n)
        timings["greedy"] = time.perf_counter() - t
    if engine == "greedy":
        return Solution(Result(policy, problem, seats, pools, greedy, "greedy"), None, _round(timings))
    t = time.perf_counter()
    cp = solve_cpsat(pools, problem.n, hint=greedy if hint else None, time_limit=time_limit, workers=workers)
    timings["cpsat"] = time.perf_counter() - t
    main = Result(policy, problem, seats, pools, cp, "cpsat")
    other = Result(policy, problem, seats, pools, greedy, "greedy") if engine == "both" else None
    return Solution(main, other, _round(timings))


def _round(t: dict) -> dict:
    return {k: round(v, 4) for k, v in t.items()}
