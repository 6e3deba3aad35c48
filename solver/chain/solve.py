"""`solve()`: the chain (`solver.chain.reductions`), an engine, and the chain inverted: policy + inputs -> seats -> pools
-> engine -> result."""
from __future__ import annotations

import time
from functools import partial
from dataclasses import dataclass
from pathlib import Path

from .reductions import DETERMINE, RECOMMENDATION_LIST, SINGLE_CADRE, AllocateServices, Answer, Chain, StageData
from .engines import Assignment
from .engines.greedy import solve_greedy
from ..errors import TimeLimit
from ..data.kinds import Engine
from ..policy import Policy
from ..data.problem import Problem
from ..outcome.result import Result
from .vacancy import YearState


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


def solve(policy: Policy | str, problem: Problem | None = None, engine: Engine | str = Engine.CPSAT,
          time_limit: float | None = None, workers: int = 1, hint: bool = True, state: YearState | None = None, progress=None, *,
          candidates=None, vacancies=None, preferences=None, ranks=None, earlier=None) -> Solution:
    """The allocation the law requires: the chain of `solver.chain.reductions`, then an engine, then the result.

    Parameters
    ----------
    policy : the policy (`load_policy`), or a policy file or bundled model's name.
    problem : candidates in merit order, vacancy rows, preferences (`solver.io.readers.read_problem`); or None
        with `candidates` and `vacancies` (and `preferences`, and `ranks`: the merit lists posts rank by,
        `solver.io.ranks`): each a path, a pandas DataFrame or an Arrow table, read and validated as the files
        are.
    engine : `Engine` or its word: "cpsat" (the default: CP-SAT certifies the greedy's answer), "greedy" (the
        reference procedure) or "both" (CP-SAT's answer, the greedy's beside it in `Solution.other`); any other
        word raises OptionError.
    time_limit : seconds CP-SAT may take, or None; on expiry the greedy's answer, with status "time_limit".
    workers : CP-SAT's threads; the answer is the same for any number.
    hint : give CP-SAT the greedy's answer to certify (True); False solves independently.
    state : the register's view before the year (roster positions, carried vacancies), if any.
    progress : called with a short text as the engines move on (the command line's status line), or None.
    earlier : (lists, kept): `solver.chain.pools.reuse.earlier_lists` of an earlier solve of the same vacancies
        over more candidates, this problem's candidates being those at positions `kept` of its (ascending): the
        preference lists are read off those where the pools are alike (a round of counselling solved again
        without some floaters), else made.

    Returns
    -------
    Solution: the `Result` (allocation, dispositions, reasons), the other engine's when both ran, timings.

    Raises
    ------
    OptionError (an engine not among `Engine`); Unsupported, PolicyConflict (exit 3); TimeLimit (exit 4) when
    CP-SAT solves independently and finds nothing.

    Example
    -------
    >>> from solver import load_policy
    >>> from solver.data.instances import generate, write_instance
    >>> from solver.io.readers import read_problem
    >>> import tempfile
    >>> pol = load_policy("central-dopt")
    >>> folder = write_instance(tempfile.mkdtemp(), *generate(pol, 200, 20, seed=1))
    >>> prob = read_problem(pol, folder / "candidates.csv", folder / "vacancies.csv")
    >>> sol = solve(pol, prob, engine="both")
    >>> int(sol.result.selected.sum()), sol.differences, sol.result.assignment.status
    (20, 0, 'optimal')
    >>> import pandas as pd
    >>> c = pd.DataFrame({"id": ["A", "B", "C"], "rank": [1, 2, 3], "category": ["OBC", "UR", "OBC"]})
    >>> v = pd.DataFrame({"post": ["X", "X"], "category": ["UR", "OBC"], "vacancies": [1, 1]})
    >>> solve("central-dopt", candidates=c, vacancies=v, engine="greedy").result.to_frames()["allocation"]
      candidate_id post seat_category counted_as horizontal       route  rank
    0            A    X            UR         UR             open_merit     1
    1            C    X           OBC        OBC               reserved     3
    """
    policy, problem = _inputs(policy, problem, candidates, vacancies, preferences, ranks)
    fill = partial(run_engine, Engine.parse(engine), time_limit=time_limit, workers=workers, hint=hint,
                   progress=progress)
    t0 = time.perf_counter()
    determined, determine_inverse = DETERMINE(StageData(policy, problem, state, earlier=earlier))
    timings: dict = {}
    if determined.policy.migration.selection_list:
        # The recommendation list is itself a single-cadre recruitment: same engines, same chain.
        listed, list_inverse = RECOMMENDATION_LIST(determined)
        answers, listing = fill(listed)
        timings["recommendation"] = sum(listing.values())
        selection = RECOMMENDATION_LIST.invert(answers[0], list_inverse)
        back = Chain([AllocateServices(selection)])
    else:
        back = SINGLE_CADRE
    pooled, back_inverse = back(determined)
    answers, engine_timings = fill(pooled)
    results = [DETERMINE.invert(back.invert(a, back_inverse), determine_inverse) for a in answers]
    if "recommendation" in timings:
        timings = {**timings, **engine_timings, "total": time.perf_counter() - t0}
    else:
        timings = {"determine_and_pools": time.perf_counter() - t0 - sum(engine_timings.values()), **engine_timings}
    return Solution(results[0], results[1] if len(results) > 1 else None, _round(timings))


def _inputs(policy, problem, candidates, vacancies, preferences, ranks=None) -> tuple[Policy, Problem]:
    """The policy loaded where named, the problem read where given as tables or files."""
    if isinstance(policy, (str, Path)):
        from ..policy import load_policy
        policy = load_policy(policy)
    if problem is None:
        if candidates is None or vacancies is None:
            raise TypeError("solve() takes a problem, or candidates= and vacancies=")
        from ..io.readers import read_problem
        problem = read_problem(policy, candidates, vacancies, preferences, ranks=ranks)
    elif ranks is not None:
        raise TypeError("solve() reads ranks= with candidates= and vacancies=; a problem read already has its lists")
    return policy, problem


def run_engine(engine: Engine, data: StageData, time_limit=None, workers: int = 1, hint: bool = True,
               progress=None) -> tuple[list[Answer], dict]:
    """The engine stage: the pools of `data` filled by the greedy, CP-SAT or both. Returns the answers (the
    engine asked for first; the greedy's second when both ran) and each engine's seconds."""
    pools, n = data.pools, data.problem.n
    timings: dict = {}
    # The greedy runs for CP-SAT too: its certificate, or (solving independently) the answer written should the
    # time limit expire first (SPEC: the best answer is still written, status time_limit, exit 4).
    if progress is not None:
        progress("greedy")
    t = time.perf_counter()
    greedy = solve_greedy(pools, n)
    timings["greedy"] = time.perf_counter() - t
    if engine == Engine.GREEDY:
        return [Answer(greedy, Engine.GREEDY.value)], timings
    if progress is not None:
        progress("CP-SAT")
    t = time.perf_counter()
    try:
        from .engines.cpsat import solve_cpsat   # (here: the greedy alone never loads OR-Tools)
        cp = solve_cpsat(pools, n, hint=greedy if hint else None, time_limit=time_limit, workers=workers,
                         progress=progress, posts=data.problem.posts)
    except TimeLimit:
        cp = Assignment(greedy.pool, greedy.adjusted, "time_limit", {"hinted": False})
    timings["cpsat"] = time.perf_counter() - t
    answers = [Answer(cp, Engine.CPSAT.value)]
    if engine == Engine.BOTH:
        answers.append(Answer(greedy, Engine.GREEDY.value))
    return answers, timings


def _round(t: dict) -> dict:
    return {k: round(v, 4) for k, v in t.items()}
