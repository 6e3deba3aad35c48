"""Each candidate's ranked posts (preferences.csv), and the views of them the stages read: the ranked rows in
order, the n x P rank matrix, and who ranked each post. Each view is made once, when first asked for: at JoSAA
size (172,782 candidates, 927 posts, 19.4 million rows) the rank matrix alone is 640 MB, and the greedy's
path needs only the rows and who ranked each post."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .routes import NOT_RANKED


@dataclass(frozen=True, eq=False)
class Ranking:
    """`preferences[i]`: candidate i's posts (indices), most wanted first; None: every candidate ranks every
    post in file order (no preferences file).

    Example
    -------
    >>> r = Ranking((np.array([1, 0]), np.array([1])), n=2, posts=2)
    >>> r.post_rank.tolist() == [[1, 0], [NOT_RANKED, 0]], r.ranked_by_post.tolist()
    (True, [[True, False], [True, True]])
    """

    preferences: tuple[np.ndarray, ...] | None
    n: int
    posts: int

    @cached_property
    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """(candidate, post) of every ranked post, candidate by candidate, each list in order (int64)."""
        if self.preferences is None:
            return np.repeat(np.arange(self.n), self.posts), np.tile(np.arange(self.posts), self.n)
        lens = np.fromiter((len(x) for x in self.preferences), dtype=np.int64, count=self.n)
        posts = np.concatenate(self.preferences).astype(np.int64) if self.n else np.zeros(0, np.int64)
        return np.repeat(np.arange(self.n), lens), posts

    @cached_property
    def post_rank(self) -> np.ndarray:
        """n x P int32: position of post p in candidate i's list (0 = first), NOT_RANKED when not ranked."""
        if self.preferences is None:
            return np.broadcast_to(np.arange(self.posts, dtype=np.int32), (self.n, self.posts))
        out = np.full((self.n, self.posts), NOT_RANKED, dtype=np.int32)
        cand, post = self.rows
        if len(cand):
            out[cand, post] = self._positions()
        return out

    @cached_property
    def rank_by_post(self) -> np.ndarray:
        """P x n int32: `post_rank` transposed, made from the rows (a post's ranks contiguous)."""
        if self.preferences is None:
            return np.ascontiguousarray(self.post_rank.T)
        out = np.full((self.posts, self.n), NOT_RANKED, dtype=np.int32)
        cand, post = self.rows
        if len(cand):
            out[post, cand] = self._positions()
        return out

    @cached_property
    def ranked(self) -> np.ndarray:
        """n x P bool: whether candidate i ranked post p (everyone ranks every post without preferences)."""
        if self.preferences is None:
            return np.broadcast_to(np.True_, (self.n, self.posts))
        out = np.zeros((self.n, self.posts), dtype=bool)
        out[self.rows] = True
        return out

    @cached_property
    def ranked_by_post(self) -> np.ndarray:
        """P x n bool: `ranked` transposed (who ranked each post, a row per post), made from the rows."""
        if self.preferences is None:
            return np.broadcast_to(np.True_, (self.posts, self.n))
        out = np.zeros((self.posts, self.n), dtype=bool)
        cand, post = self.rows
        out[post, cand] = True
        return out

    def rank(self, i: int, post: int) -> int:
        """Position of `post` in candidate i's list (0 = first), NOT_RANKED if she did not rank it; read from
        her list where the matrix has not been made."""
        if "post_rank" in self.__dict__ or self.preferences is None:
            return int(self.post_rank[i, post])
        at = np.flatnonzero(self.preferences[i] == post)
        return int(at[0]) if len(at) else NOT_RANKED

    def _positions(self) -> np.ndarray:
        lens = np.fromiter((len(x) for x in self.preferences), dtype=np.int64, count=self.n)
        return (np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)).astype(np.int32)
