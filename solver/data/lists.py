"""Several merit lists: a post may rank its applicants by a list of its own (SSC CGL ranks the JSO and Statistical
Investigator posts on Tier-II Paper-II, the others on Paper-I; JoSAA ranks IIT seats by JEE (Advanced), the
others by JEE (Main)). List 0 is the candidates file's own merit (the candidates' order); the others come from a
ranks file (`solver.io.ranks`). A candidate absent from a list may not hold a post it ranks."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ABSENT = np.iinfo(np.int64).max // 4      # the place of one absent from a list: after everyone on it


@dataclass(frozen=True)
class MeritLists:
    """`names[L]` and `position[L, i]`: candidate i's place in list L (0 the best; `ABSENT` where he is not on
    it). `names[0]` is "" and `position[0]` the candidates' own order.

    Example
    -------
    >>> m = MeritLists.of(3, {"paper2": np.array([2, 0, ABSENT])})
    >>> m.names, m.index("paper2"), m.on(1).tolist(), m.position[0].tolist()
    (('', 'paper2'), 1, [True, True, False], [0, 1, 2])
    """

    names: tuple[str, ...]
    position: np.ndarray

    @classmethod
    def of(cls, n: int, lists: dict[str, np.ndarray]) -> "MeritLists":
        rows = [np.arange(n, dtype=np.int64)] + [np.asarray(v, dtype=np.int64) for v in lists.values()]
        position = np.vstack(rows) if rows else np.zeros((1, n), np.int64)
        position.flags.writeable = False
        return cls(("", *lists), position)

    def index(self, name: str) -> int:
        return self.names.index(name)

    def on(self, k: int) -> np.ndarray:
        """bool over candidates: who is on list k."""
        return self.position[k] < ABSENT

    def reordered(self, order: np.ndarray) -> "MeritLists":
        """The lists for the candidates put in `order` (`Problem.reordered`): list 0 stays the new order."""
        moved = self.position[:, order].copy()
        moved[0] = np.arange(len(order))
        moved.flags.writeable = False
        return MeritLists(self.names, moved)
