"""A later round of a recruitment (`solver.exam.fill`, `solver.exam.slide`): some of its candidates against some of its
vacancies, under the year's own rules, as a recruitment of its own."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np

from ..policy import Policy
from ..data.problem import Problem, VacancyRow
from ..chain.solve import Solution, solve


def round_policy(policy: Policy) -> Policy:
    """The policy for a later round. The 50% ceiling was the recruitment's, and a later round changes no vacancy's
    category, so it is not applied again to the few vacancies the round has; the horizontal minimums are the
    round's seats that served a trait (given with its vacancies), not the policy's shares of them again."""
    return policy.model_copy(update={"ceiling": policy.ceiling.model_copy(update={"share": 1.0}),
                                     "horizontal": policy.horizontal.model_copy(update={"traits": []})})


def later_round(policy: Policy, problem: Problem, pool: np.ndarray, counts: Counter, mins: dict, engine,
                time_limit=None, workers: int = 1, preferences=None) -> tuple[list[list], str, int]:
    """The candidates `pool` (merit positions, ascending) against `counts` vacancies per (post, category), with
    `mins` trait minimums per (post, category); `preferences`: the pool's own lists (default: theirs as given).
    Returns allocation.csv rows (ranks in the whole list), the engine's status, and the engines' differences."""
    sol = later_solution(policy, problem, pool, counts, mins, engine, time_limit, workers, preferences)
    return round_rows(sol, pool), sol.result.assignment.status, sol.differences


def later_solution(policy: Policy, problem: Problem, pool: np.ndarray, counts: Counter, mins: dict, engine,
                   time_limit=None, workers: int = 1, preferences=None, earlier=None) -> Solution:
    """`later_round`'s solution, of the round's own problem (its candidates `pool`, in their order). `earlier`:
    (`EarlierLists`, pool) of the same round solved before with more candidates (`solve`'s `earlier`)."""
    # (each post keeps its seat pool, and each category the list that ranked it: a round of counselling ranks as
    # the first did, a category's own rank list included)
    at = problem.post_index

    def like(p: str, s: str) -> dict:
        return {"merit_list": problem.list_name(at[p], s), "pool": problem.post_pools[at[p]]}
    rows = [VacancyRow(p, s, k, dict(mins.get((p, s), {})), **like(p, s)) for (p, s), k in sorted(counts.items())]
    used = {p for p, _ in counts}
    rows += [VacancyRow(p, policy.open, 0, **like(p, policy.open)) for p in problem.posts if p not in used]
    sub = problem.reordered(pool)
    whole = problem.candidates.merit_rank
    ranks = replace(sub.candidates, merit_rank=(pool + 1 if whole is None else whole[pool]).astype(np.int64))
    # (where a round cut the lists, each as he gave it stays `stated`: the reasons say where he ranked a post)
    cut = preferences is not None
    stated = (sub.stated if sub.stated is not None else sub.preferences) if cut else sub.stated
    sub = Problem(ranks, problem.posts, tuple(sorted(rows, key=lambda r: at[r.post])),
                  tuple(preferences) if cut else sub.preferences, problem.sources, sub.lists, stated=stated,
                  file_order=problem.file_order or (cut and problem.preferences is None), unheld=sub.unheld)
    if earlier is not None:
        lists, their_pool = earlier
        earlier = lists, np.searchsorted(their_pool, pool)
    return solve(policy, sub, engine, time_limit=time_limit, workers=workers, earlier=earlier)


def round_rows(sol: Solution, pool: np.ndarray) -> list[list]:
    """allocation.csv's rows of a later round's solution, ranks in the whole list."""
    return [[*row[:-1], int(pool[row[-1] - 1]) + 1] for row in sol.result.allocation_rows()]


def placed_posts(sol: Solution, pool: np.ndarray) -> dict[int, str]:
    """Candidate (merit position in the whole list) -> the post a later round's solution gives him: read off the
    assignment, without working out each one's vacancy."""
    result = sol.result
    post_of = [result.problem.posts[p.post] for p in result.pools.pools]
    held = result.assignment.pool
    return {int(pool[i]): post_of[held[i]] for i in np.flatnonzero(held >= 0).tolist()}
