"""Ties an id alone settles, at a size the model of every lawful allocation cannot take: the lawful allocations
are then the procedure's over the orders of the tie blocks (one strict list each), so orders the question
points to are solved by the greedy instead, and what they cannot settle is said, with the model's estimated
size, rather than built."""
from __future__ import annotations

import numpy as np

from ..chain.engines.assignment import Assignment
from ..chain.engines.cpsat.size import BYTES_PER_PAIR, pairs
from ..chain.pools import Pools
from ..outcome.result import Result

# The most memory an audit's model may take before the audit answers from tie orders instead (its targets:
# a question at SSC size within 4 GiB).
MODEL_BUDGET = 4 * 2**30


def model_bytes(pools: Pools) -> int:
    """The model's estimated peak memory (`engines.cpsat.size`)."""
    return pairs(pools) * BYTES_PER_PAIR


def too_large(pools: Pools) -> bool:
    return model_bytes(pools) > MODEL_BUDGET


def tie_orders(ties: np.ndarray, first: int | None = None) -> list[np.ndarray]:
    """Orders worth trying: every tie block reversed, and with candidate `first` put first in hers (the rest as
    given, then reversed)."""
    n = len(ties)
    given = np.arange(n)
    rev = given.copy()
    for block in np.unique(ties[ties >= 0]):
        members = np.flatnonzero(ties == block)
        rev[members] = members[::-1]
    out = [rev]
    if first is not None and ties[first] >= 0:
        for base in (given, rev):
            members = np.flatnonzero(ties == ties[first])
            ahead = [first, *[m for m in base[members] if m != first]]
            o = base.copy()
            o[members] = ahead
            out.append(o)
    return out


def solved_in(order: np.ndarray, official, res: Result, state=None) -> Result:
    """The procedure's allocation with the candidates in `order`, told in the original indexing."""
    alt = official(res.policy, res.problem.reordered(order), state)
    pool = np.full(res.problem.n, -1)
    adjusted = np.zeros(res.problem.n, dtype=bool)
    pool[order] = alt.assignment.pool
    adjusted[order] = alt.assignment.adjusted
    return Result(res.policy, res.problem, res.seats, res.pools, Assignment(pool, adjusted, "greedy"), "greedy")
