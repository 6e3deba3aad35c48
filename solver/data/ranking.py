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
    >>> r.ranks([0, 0, 1], [1, 0, 0]).tolist() == [0, 1, NOT_RANKED]   # read off the lists
    True
    >>> r.post_rank.tolist() == [[1, 0], [NOT_RANKED, 0]], r.ranked_by_post.tolist()
    (True, [[True, False], [True, True]])
    """

    preferences: tuple[np.ndarray, ...] | None
    n: int
    posts: int

    @cached_property
    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """(candidate, post) of every ranked post, candidate by candidate, each list in order (int32: JoSAA's
        19.4 million rows, 155 MB)."""
        if self.preferences is None:
            return (np.repeat(np.arange(self.n, dtype=np.int32), self.posts),
                    np.tile(np.arange(self.posts, dtype=np.int32), self.n))
        start, end = self.bounds
        posts = np.concatenate(self.preferences).astype(np.int32, copy=False) if self.n else np.zeros(0, np.int32)
        return np.repeat(np.arange(self.n, dtype=np.int32), end - start), posts

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

    def rows_by_post(self) -> tuple[np.ndarray, np.ndarray]:
        """(bounds, order): the ranked rows post by post, `order[bounds[j]:bounds[j + 1]]` the rows of post j in
        merit order (a stable radix sort by post; made afresh each call: 155 MB at JoSAA size)."""
        _, post_row = self.rows
        order = np.argsort(post_row.astype(np.uint16) if self.posts < 1 << 16 else post_row, kind="stable")
        return np.r_[0, np.cumsum(np.bincount(post_row, minlength=self.posts))], order

    def seed(self, **views: np.ndarray) -> None:
        """Give views already made elsewhere (the reader's P x n who-ranked bitmap), so they are not made again.
        They must be what the property would compute."""
        for name, value in views.items():
            if not isinstance(getattr(type(self), name, None), cached_property):
                raise AttributeError(f"Ranking has no view {name!r}")
            self.__dict__[name] = value

    def rank(self, i: int, post: int) -> int:
        """Position of `post` in candidate i's list (0 = first), NOT_RANKED if she did not rank it."""
        return int(self.ranks(np.array([i]), np.array([post]))[0])

    def ranks(self, cands: np.ndarray, posts: np.ndarray) -> np.ndarray:
        """`rank` of many (candidate, post) pairs at once. Where the matrix has not been made, each pair walks its
        candidate's list from the top, all pairs a step at a time: the pairs asked about (the reasons' missed
        cutoffs, the posts held) sit near the top of the lists, so this costs far less than the matrix."""
        cands, posts = np.asarray(cands, np.int64), np.asarray(posts, np.int64)
        if "post_rank" in self.__dict__ or self.preferences is None:
            return self.post_rank[cands, posts].astype(np.int64)
        start, end = (b[cands] for b in self.bounds)
        at = first_match(self.rows[1], start, end, posts)
        return np.where(at < end, at - start, NOT_RANKED)

    @cached_property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Where each candidate's rows start and end."""
        lens = np.fromiter((len(x) for x in self.preferences), dtype=np.int64, count=self.n) \
            if self.preferences is not None else np.full(self.n, self.posts, dtype=np.int64)
        end = np.cumsum(lens)
        return end - lens, end

    def places(self, cands, posts, group: np.ndarray) -> np.ndarray:
        """`ranks`, counting runs of one `group` (each post's) as one place: where a candidate ranked programs and
        each stands in his list for the seat pools of it he may hold, one after another
        (`solver.data.seat_pools.expand`), the place he gave the pool's program. Walks each list from its
        start to the post, as `ranks` finds it.

        Example
        -------
        >>> r = Ranking((np.array([0, 1, 2, 3]), np.array([2, 3])), n=2, posts=4)   # posts 0, 1: program 0
        >>> r.places([0, 0, 0, 1, 1], [1, 2, 3, 3, 0], np.array([0, 0, 1, 1])).tolist() == [0, 1, 1, 0, NOT_RANKED]
        True
        """
        at = self.ranks(cands, posts)
        ok = np.flatnonzero(at < NOT_RANKED)
        base, pos = self.bounds[0][np.asarray(cands, np.int64)[ok]], at[ok]
        place, live, rows = np.zeros(len(ok), dtype=np.int64), np.arange(len(ok)), self.rows[1]
        for j in range(1, int(pos.max(initial=0)) + 1):
            live = live[pos[live] >= j]
            row = base[live] + j
            place[live] += group[rows[row]] != group[rows[row - 1]]
        at[ok] = place
        return at

    def _positions(self) -> np.ndarray:
        start, end = self.bounds
        return (np.arange(int(end[-1]) if self.n else 0) - np.repeat(start, end - start)).astype(np.int32)


def first_match(values: np.ndarray, start: np.ndarray, end: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Where in each run `values[start[k]:end[k]]` the value `target[k]` first stands (`end[k]` where it does
    not), walking every run a step at a time from its start: cheap where the targets sit near the starts (a
    candidate's held pool, the posts her reasons name), against a comparison of every value.

    Example
    -------
    >>> first_match(np.array([5, 7, 9, 7]), np.array([0, 2]), np.array([2, 4]), np.array([7, 8])).tolist()
    [1, 4]
    """
    out = np.array(end, dtype=np.int64)
    todo = np.flatnonzero(start < end)
    at = start[todo]
    while len(todo):
        hit = values[at] == target[todo]
        out[todo[hit]] = at[hit]
        todo, at = todo[~hit], at[~hit] + 1
        live = at < end[todo]
        todo, at = todo[live], at[live]
    return out
