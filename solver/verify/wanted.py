"""`verify --stage slide`: which seat rows each candidate taking part in a round wanted, read down the candidates'
lists as arrays (a Python walk of JoSAA's 170,000 takers down lists of 112 programs took about 40 s).

A taker wanted post j in the round when he ranked it, the round offered it (not a post of a closed list), he
prefers it to what he holds after the round, a floater only up to his own post and a slider only at his own
institute; then each seat row at j is one he may have been passed over on."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data.lists import ABSENT
from ..data.problem import Problem
from ..data.ranking import first_match

_TAKERS_AT_ONCE = 20_000     # (JoSAA's unplaced read their whole lists: 2 million pairs a block)


@dataclass(frozen=True)
class Round:
    """What a round's check reads of it, by candidate id: `was` id -> (post, seat, ...) before the round, `now`
    id -> (post, seat, ...) after it, `answer` id -> response; `closed` the posts not offered; `site` each post's
    institute."""

    was: dict
    now: dict
    answer: dict
    closed: frozenset
    site: list


def wanted_seats(problem: Problem, index: dict, takers: list[str], rnd: Round, seat_rows: list[tuple[int, str]],
                 may: dict[str, np.ndarray], open_to: np.ndarray):
    """The (taker, seat row) pairs on which a taker could have been passed over: he wanted the row's post (as
    above), may hold its seats (`may`: seat category -> mask over candidates) and is on its list, and the row
    has a holder below him or an empty seat (`open_to[s]`: the place on the row's list of its worst holder, or
    `ABSENT` with a seat empty; -1 where neither). Yields (candidate id, candidate index, place on the row's
    list, seat row index), takers in their order, each down his list, a post's rows in `seat_rows` order."""
    _, post_row = problem.ranking.rows
    start, end = problem.ranking.bounds
    n_posts = len(problem.posts)
    key_post = np.array([j for j, _ in seat_rows], dtype=np.int64)
    by_post = np.argsort(key_post, kind="stable")
    first_row = np.r_[0, np.cumsum(np.bincount(key_post, minlength=n_posts))]
    names = sorted(may)
    seat_kind = np.array([names.index(seat) for _, seat in seat_rows], dtype=np.int64)
    may_matrix = np.stack([may[name] for name in names]) if names else np.zeros((0, len(index)), bool)
    lists = [problem.list_of(j, seat) for j, seat in seat_rows] if problem.lists is not None else [0] * len(seat_rows)
    row_list = np.array(lists, dtype=np.int64)
    closed = np.zeros(n_posts, dtype=bool)
    closed[list(rnd.closed)] = True
    _, site = np.unique(np.array(rnd.site, dtype=object).astype(str), return_inverse=True)
    reach = _reach(problem, key_post, row_list, open_to, n_posts)
    for b in range(0, len(takers), _TAKERS_AT_ONCE):
        block = takers[b:b + _TAKERS_AT_ONCE]
        u, t, j = _down_lists(problem, index, block, rnd, post_row, start, end, closed, site)
        u, t, j = _within_reach(problem, reach, u, t, j)
        # each (taker, post) pair once per seat row at the post, in `seat_rows` order
        k = first_row[j + 1] - first_row[j]
        pair = np.repeat(np.arange(len(j)), k)
        s = by_post[_ranges(first_row[j], k)]
        who = u[pair]
        place = who.copy()
        listed = row_list[s] > 0
        if listed.any():
            place[listed] = problem.lists.position[row_list[s[listed]], who[listed]]
        hit = np.flatnonzero(may_matrix[seat_kind[s], who] & (place < ABSENT) & (open_to[s] > place))
        for h in hit.tolist():
            yield block[t[pair[h]]], int(who[h]), int(place[h]), int(s[h])


def _reach(problem: Problem, key_post: np.ndarray, row_list: np.ndarray, open_to: np.ndarray, n_posts: int):
    """Per merit list L and post j, the largest `open_to` of j's seat rows ranked by L (-1 where none): a taker
    whose place on L is not below it cannot be passed over at j on any of them."""
    n_lists = int(row_list.max(initial=0)) + 1
    reach = np.full((n_lists, n_posts), -1, dtype=np.int64)
    np.maximum.at(reach, (row_list, key_post), open_to)
    return reach


def _within_reach(problem: Problem, reach: np.ndarray, u: np.ndarray, t: np.ndarray, j: np.ndarray):
    """The (candidate, taker, post) triples of `_down_lists` whose candidate is above the reach (`_reach`) of
    some list at the post: the others are passed over on none of its seat rows, and are not expanded into them."""
    keep = np.zeros(len(u), dtype=bool)
    for k in range(len(reach)):
        place = u if k == 0 else problem.lists.position[k, u]
        keep |= place < reach[k, j]
    return u[keep], t[keep], j[keep]


def _down_lists(problem, index, block, rnd: Round, post_row, start, end, closed, site):
    """The (candidate, taker's place in `block`, post) of every post each taker of `block` wanted, in order."""
    u = np.array([index[cid] for cid in block], dtype=np.int64)
    limit = end[u].copy()
    floats = [k for k, cid in enumerate(block) if rnd.answer.get(cid) in ("float", "slide")]
    holds = [k for k, cid in enumerate(block) if cid in rnd.now]
    own = np.full(len(block), -1, dtype=np.int64)
    if floats:   # (a floater is offered his own post and those he ranks above it)
        f = np.array(floats)
        own[f] = [rnd.was[block[k]][0] for k in floats]
        limit[f] = np.minimum(limit[f], first_match(post_row, start[u[f]], end[u[f]], own[f]) + 1)
    if holds:    # (he wanted only posts he ranks above the one he holds after the round)
        h = np.array(holds)
        mine = np.array([rnd.now[block[k]][0] for k in holds], dtype=np.int64)
        limit[h] = np.minimum(limit[h], first_match(post_row, start[u[h]], end[u[h]], mine))
    size = np.maximum(limit - start[u], 0)
    t = np.repeat(np.arange(len(block)), size)
    j = post_row[_ranges(start[u], size)].astype(np.int64)
    keep = ~closed[j]
    slides = np.array([rnd.answer.get(cid) == "slide" for cid in block], dtype=bool)
    if slides.any():      # (a slider, only posts of his own institute)
        keep &= ~slides[t] | (site[j] == site[np.maximum(own[t], 0)])
    return u[t[keep]], t[keep], j[keep]


def _ranges(start: np.ndarray, size: np.ndarray) -> np.ndarray:
    """start[k], start[k] + 1, ..., start[k] + size[k] - 1 for each k in turn, as one array.

    >>> _ranges(np.array([5, 0]), np.array([2, 3])).tolist()
    [5, 6, 0, 1, 2]
    """
    return np.repeat(start, size) + np.arange(int(size.sum())) - np.repeat(np.cumsum(size) - size, size)
