"""What an engine returns: the pool of each candidate and which selections were horizontal adjustments."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..compartment import held_vacancies
from ..pools import Pools


@dataclass(frozen=True)
class Assignment:
    pool: np.ndarray            # int per candidate: pool index, -1 when not selected
    adjusted: np.ndarray        # bool per candidate: selected by a horizontal adjustment
    status: str                 # optimal | feasible | greedy | time_limit
    stats: dict = field(default_factory=dict)

    def filled(self, n_pools: int) -> np.ndarray:
        sel = self.pool[self.pool >= 0]
        return np.bincount(sel, minlength=n_pools)


def free_for(pools: Pools, assign: np.ndarray, pool, i: int) -> bool:
    """Candidate i holds no pool they prefer to `pool`."""
    return assign[i] < 0 or pools.order_key(pools.pools[assign[i]], i) >= pools.order_key(pool, i)


def natural_tops(pools: Pools, assign: np.ndarray, vacant: np.ndarray | None = None) -> dict[int, np.ndarray]:
    """Per pool with horizontal minimums, its natural merit top: the best `capacity` of those eligible who
    hold no pool they prefer (Rajesh Kumar Daria 2007: the compartment is filled on merit first), less `vacant`,
    per pool the seats a held minimum keeps vacant (`horizontal.held`: they were never offered on merit; None:
    `held_vacancies` of `assign`)."""
    filled = np.bincount(assign[assign >= 0], minlength=len(pools))
    vacant = held_vacancies(pools, assign) if vacant is None else vacant
    return {pool.index: available(pools, assign, pool)[:pool.capacity(filled) - int(vacant[pool.index])]
            for pool in pools if pool.minimums}


def available(pools: Pools, assign: np.ndarray, pool) -> np.ndarray:
    """Those eligible for `pool` who hold no pool they prefer, in the order of its merit list (`free_for`,
    vectorised)."""
    e = pool.who()
    k = assign[e]
    phase, post, prec = (col[np.maximum(k, 0)] for col in pools.columns)
    rank = pools.post_rank[e, post]
    mine = pools.post_rank[e, pool.post]
    later = (phase > pool.phase) | ((phase == pool.phase) & ((rank > mine) | ((rank == mine) & (prec >= pool.precedence))))
    return pool.in_order(e[(k < 0) | later])


def mark_adjusted(pools: Pools, assign: np.ndarray, adjusted: np.ndarray) -> None:
    """Who holds a compartment by horizontal adjustment: holders outside its natural merit top. One definition
    for both engines."""
    for k, natural in natural_tops(pools, assign).items():
        holders = np.flatnonzero(assign == k)
        adjusted[holders] = ~np.isin(holders, natural)
