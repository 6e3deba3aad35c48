"""What an engine returns: the pool of each candidate and which selections were horizontal adjustments."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Assignment:
    pool: np.ndarray            # int per candidate: pool index, -1 when not selected
    adjusted: np.ndarray        # bool per candidate: selected by a horizontal adjustment
    status: str                 # optimal | feasible | greedy | time_limit
    stats: dict = field(default_factory=dict)

    def filled(self, n_pools: int) -> np.ndarray:
        sel = self.pool[self.pool >= 0]
        return np.bincount(sel, minlength=n_pools)

    def same_as(self, other: "Assignment") -> bool:
        return bool(np.array_equal(self.pool, other.pool) and np.array_equal(self.adjusted, other.adjusted))
