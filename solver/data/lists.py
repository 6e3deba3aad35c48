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
    # level[L, i]: the place of the first of those tied with candidate i on list L (the same rank: JoSAA's
    # "Multiple student - same rank rule"); None where no list has a tie, every level its position.
    level: np.ndarray | None = None

    @classmethod
    def of(cls, n: int, lists: dict[str, np.ndarray], levels: dict[str, np.ndarray] | None = None) -> "MeritLists":
        rows = [np.arange(n, dtype=np.int64)] + [np.asarray(v, dtype=np.int64) for v in lists.values()]
        position = np.vstack(rows) if rows else np.zeros((1, n), np.int64)
        position.flags.writeable = False
        level = None
        if levels and any((levels[k] != lists[k]).any() for k in levels):
            level = position.copy()
            for k, name in enumerate(lists, 1):
                if name in levels:
                    level[k] = levels[name]
            level.flags.writeable = False
        return cls(("", *lists), position, level)

    def levels(self, k: int) -> np.ndarray:
        """Each candidate's level on list k: equal for those of the same rank (their position without ties)."""
        return self.position[k] if self.level is None else self.level[k]

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
        level = None
        if self.level is not None:
            level = self.level[:, order].copy()
            level[0] = moved[0]
            level.flags.writeable = False
        return MeritLists(self.names, moved, level)
