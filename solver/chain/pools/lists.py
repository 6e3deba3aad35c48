"""The candidates' preference lists over the pools, as flat arrays (candidate, pool) in the order each prefers:
read off the ranked rows phase by phase (`_lists_by_rows`), or by one sort of keys where a pool admits those who
did not rank its post (`_lists_by_sort`); and the walks over them the engines and reasons share."""
from __future__ import annotations

import collections
from typing import TYPE_CHECKING

import numpy as np

from ...data.ranking import first_match
from ...data.sorting import signatures, sorted_by
from ...data.walks import first_k

if TYPE_CHECKING:
    from .types import Pools


def _lists_by_rows(pools: Pools) -> tuple[np.ndarray, np.ndarray] | None:
    """The preference lists read off the candidates' ranked rows, phase by phase. Candidates fall into a few
    types by which pools' rules admit them (`admit_types`), so each (post, type) offers a fixed sequence of
    the post's pools of the phase, in their place (precedence, then index); the rows, candidate by candidate
    and each list in order, then give the pairs in order with no sort of 31 million keys and no read of an
    eligibility mask per pool (JoSAA: 0.6-0.8 s, against 2.9 s pool by pool and 5.9 s sorting). None where a
    pool admits someone who did not rank its post (where the policy allocates unranked posts), or where the
    types are too many for the table: then the sort decides."""
    ranking = pools.ranking
    n, n_posts = ranking.n, ranking.posts
    if ranking.preferences is None:
        # Everyone applies to every post in file order: the rows of the posts these pools fill only (a group of
        # pools filled in turn covers one post; the full rows of 5,000 posts read for each made it quadratic).
        here = np.unique(pools.columns[1]).astype(np.int32)
        cand_row, post_row = np.repeat(np.arange(n, dtype=np.int32), len(here)), np.tile(here, n)
    else:
        cand_row, post_row = ranking.rows
    if any(p.members is not None for p in pools.pools) or ranking.preferences is not None and any(
            p.ranked_by is None and (p.admits & ~ranking.ranked_by_post[p.post]).any() for p in pools.pools):
        return None      # (`members` are not read off the rows: a certificate's pools are seeded with their lists)
    kind, admitted = admit_types([p.admits for p in pools.pools])
    n_types = admitted.shape[0]
    phases = sorted({p.phase for p in pools.pools})
    slots = {f: max(collections.Counter(p.post for p in pools.pools if p.phase == f).values()) for f in phases}
    if n_posts * n_types * max(slots.values()) > _TABLE_CELLS:
        return None
    at = _row_cells(kind, cand_row, post_row, n_posts * n_types, n_posts)
    # (the rows come candidate by candidate: each pair's candidate is her run's, repeated for her pairs)
    first = np.flatnonzero(np.r_[True, cand_row[1:] != cand_row[:-1]]) if len(cand_row) else np.zeros(0, np.int64)
    out_c, out_p = [], []
    for f in phases:
        table, count = _phase_table(pools, f, admitted, n_posts, n_types, slots[f])
        per_row = count[at]                                  # pools each ranked row offers
        out_p.append(first_k(table, at, per_row))         # (a row's k pools: its cell's first k slots)
        per_run = np.add.reduceat(per_row, first, dtype=np.int64) if len(first) else first
        out_c.append(np.repeat(cand_row[first], per_run))
    del at
    if len(out_c) == 1:
        return out_c[0], out_p[0]
    return _merged(out_c, out_p, n)


def _row_cells(kind: np.ndarray, cand_row: np.ndarray, post_row: np.ndarray, cells: int, n_posts: int) -> np.ndarray:
    """Each ranked row's (type, post), the row of the tables it reads: made a block at a time into one array
    (whole-array temporaries cost JoSAA 0.4 s, most of it the kernel handing out fresh pages)."""
    wide = np.int64 if cells >= 1 << 31 else np.int32
    kind = kind.astype(wide)
    at = np.empty(len(post_row), wide)
    for r0 in range(0, len(at), _ROWS_AT_ONCE):
        r1 = min(r0 + _ROWS_AT_ONCE, len(at))
        np.multiply(kind[cand_row[r0:r1]], n_posts, out=at[r0:r1], dtype=wide)
        at[r0:r1] += post_row[r0:r1]
    return at


def _phase_table(pools: Pools, f: int, admitted: np.ndarray, n_posts: int, n_types: int, slots: int):
    """Per (type, post): the phase's pools it offers, in their place (precedence, then index), -1 past them;
    and how many. Type by type, so that one candidate's rows read one type's block (a counselling's 5,493
    programs in 55 KB, which the processor's cache holds), not cells strewn over the whole table (63 MB). Made
    from the (type, pool) pairs admitted, the pools in (post, precedence, index) order: a pair's slot is its
    place among its (type, post)'s pairs (a pass per pool took 0.6-0.9 s for a counselling's 27,465)."""
    table = np.full((n_types, n_posts, slots), -1, dtype=np.int16 if len(pools.pools) < 1 << 15 else np.int32)
    mine = [p for p in pools.pools if p.phase == f]
    post, index = (np.array([getattr(p, a) for p in mine], dtype=np.int64) for a in ("post", "index"))
    order = np.lexsort((index, [p.precedence for p in mine], post))
    post, index = post[order], index[order]
    filled = np.zeros(n_types * n_posts, dtype=np.int64)
    for t0 in range(0, n_types, _TYPES_AT_ONCE):      # (the pairs of a few types at a time)
        block = admitted[t0:t0 + _TYPES_AT_ONCE, index]
        t, m = np.nonzero(block)
        cell = t * n_posts + post[m]                  # (ascending: by type, then post)
        first = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]])
        slot = np.arange(len(cell)) - np.repeat(first, np.diff(np.r_[first, len(cell)]))
        base = t0 * n_posts
        table.reshape(-1, slots)[base + cell, slot] = index[m]
        filled[base:base + len(block) * n_posts] = np.bincount(cell, minlength=len(block) * n_posts)
    return table.reshape(n_posts * n_types, slots), filled.astype(np.uint8 if slots < 256 else np.int64)


_TYPES_AT_ONCE = 64


def _merged(out_c: list, out_p: list, n: int):
    """Phases merged by candidate: a pair's place is its candidate's start, her pairs of earlier phases, and its
    place among her pairs of this phase."""
    counts = np.array([np.bincount(c, minlength=n) for c in out_c])
    start = np.r_[0, np.cumsum(counts.sum(axis=0))[:-1]]
    before = np.cumsum(counts, axis=0) - counts
    size = int(counts.sum())
    ci, pi = np.empty(size, np.int32), np.empty(size, np.int32)
    for f, (c, p) in enumerate(zip(out_c, out_p)):
        first = np.cumsum(counts[f]) - counts[f]   # her first pair's index in this phase's pairs
        where = (start + before[f] - first)[c] + np.arange(len(c))
        ci[where], pi[where] = c, p
    return ci, pi


_TABLE_CELLS = 1 << 26      # (post, type, slot) cells of one phase's table: 128 MB of int16 at most
_ROWS_AT_ONCE = 1 << 22     # ranked rows read at a time (JoSAA's 19.4 million in 5 blocks)


def admit_types(masks: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Candidates grouped by which of `masks` (bool over candidates, one per pool) admit them: eligibility
    rests on a candidate's category and flags, so a few types stand for 172,782 candidates. Masks shared by
    several pools (one object, or equal ones) are read once.

    Returns
    -------
    (kind, admitted): each candidate's type (0 to T - 1, int64), and T x len(masks) bool: whether each mask
    admits each type.

    Example
    -------
    >>> every, some = np.array([True, True, True]), np.array([True, False, True])
    >>> kind, admitted = admit_types([every, some, every])
    >>> kind.tolist(), admitted.astype(int).tolist()
    ([1, 0, 1], [[1, 0, 1], [1, 1, 1]])
    """
    by_id: dict[int, int] = {}
    by_value: dict[bytes, int] = {}
    distinct: list[np.ndarray] = []
    which = []
    for m in masks:
        k = by_id.get(id(m))
        if k is None:
            k = by_id[id(m)] = by_value.setdefault(np.packbits(m).tobytes(), len(distinct))
            if k == len(distinct):
                distinct.append(m)
        which.append(k)
    if not distinct:
        return np.zeros(0, np.int64), np.zeros((0, 0), bool)
    first, kind = signatures(distinct)
    return kind.astype(np.int64), np.stack([m[first] for m in distinct]).T[:, which]


def _lists_by_sort(pools: Pools) -> tuple[np.ndarray, np.ndarray]:
    """The preference lists by sorting every eligible pair on (candidate, phase, rank, place)."""
    members = list(range(len(pools.pools)))
    # Pool-major, each pool's eligible found on its own (stacking the masks first copied 800 MB at JoSAA
    # size: 4.1 s against 0.5 s).
    found = [pools.pools[k].who() for k in members]
    counts = [len(f) for f in found]
    ci = np.concatenate(found).astype(np.int64, copy=False)
    m = np.array(members)
    phase_m, post_m, prec_m = (col[m] for col in pools.columns)
    # A pool's place among pools at equal phase and rank: by post, precedence, then index (the order the
    # stable sort by (candidate, phase, rank, post, precedence) gave, equal keys in pool order).
    by_place = np.lexsort((m, prec_m, post_m))
    place = np.empty(len(m), dtype=np.int64)
    place[by_place] = np.arange(len(m))
    # Unranked posts (offered only when the policy says so) come last, in file order.
    ranks = pools.post_rank
    rank = ranks.reshape(-1)[ci * ranks.shape[1] + np.repeat(post_m, counts)] if ranks.flags.c_contiguous \
        else ranks[ci, np.repeat(post_m, counts)]
    rank = rank.astype(np.int64, copy=False)
    phase_m = (phase_m - phase_m.min()).astype(np.int64)
    wc, wr, wp = (max(1, int(x).bit_length()) for x in (len(m), rank.max(initial=0), phase_m.max(initial=0)))
    if int(ci.max(initial=0)).bit_length() + wp + wr + wc > 63:
        order = sorted_by([ci, np.repeat(phase_m, counts), rank, np.repeat(place, counts)])
        return ci[order], np.repeat(m, counts)[order]
    # One packed key per pair, sorted as values and unpacked: no argsort, no gathers by it. A pool's phase and
    # place are one constant of it.
    key = ci << (wp + wr + wc)
    key |= rank << wc
    key |= np.repeat(phase_m << (wr + wc) | place, counts)
    key.sort()
    return key >> (wp + wr + wc), m[by_place][key & ((1 << wc) - 1)]


def held_positions(pools: Pools, held: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate with pairs (`Pools.runs`): where her pairs start and end in `preference_lists()`, and
    where the pair of the pool she holds under `held` (a pool per candidate, -1 for none) sits (her end if
    she holds none). Each holder's pair is found by walking her list from the top (`ranking.first_match`:
    held pools sit near it), not by comparing all 31 million pairs."""
    ci, pi = pools.preference_lists()
    start, end = pools.runs
    who = ci[start]
    at_held = end.copy()
    todo = np.flatnonzero(held[who] >= 0)
    at_held[todo] = first_match(pi, start[todo], end[todo], held[who[todo]])
    return start, end, at_held


def pairs_before(mask: np.ndarray, pi: np.ndarray, start: np.ndarray, at_held: np.ndarray, most: int) -> np.ndarray:
    """Positions in the preference lists (`Pools.preference_lists`' pi) of the pools in `mask` (bool per pool) that
    each candidate ranks above the pair she holds (`held_positions`), at most `most` each, in her order: every
    list walked at once from the top, a step per place, until `most` are found or the held pair is reached.

    Example
    -------
    >>> pairs_before(np.array([True, False, True]), np.array([0, 1, 2, 2, 0]), np.array([0, 3]),
    ...              np.array([3, 5]), 1).tolist()         # the first: pools 0, 1, 2; the second: 2, 0
    [0, 3]
    """
    found, count = [], np.zeros(len(start), dtype=np.int64)
    todo, at = np.flatnonzero(at_held > start), start.copy()
    while len(todo):
        j = at[todo]
        hit = mask[pi[j]]
        found.append(j[hit])
        count[todo[hit]] += 1
        at[todo] += 1
        todo = todo[(at[todo] < at_held[todo]) & (count[todo] < most)]
    return np.sort(np.concatenate(found)) if found else np.zeros(0, np.int64)


def preferred_pairs(pools: Pools, held: np.ndarray):
    """The eligibility pairs in preference order (`Pools.preference_lists`), which of them each candidate holds
    under `held` (a pool per candidate, -1 for none), and which she ranks above the pool she holds (every pair
    of one not selected). Returns (ci, pi, holds, wanted)."""
    ci, pi = pools.preference_lists()
    start, end, at_held = held_positions(pools, held)
    h = at_held[at_held < end]
    holds = np.zeros(len(ci), dtype=bool)
    holds[h] = True
    # "Before it": one running count, +1 at the held pair and -1 at her list's end (no end twice).
    step = np.zeros(len(ci) + 1, dtype=np.int8)
    step[h] = 1
    step[end[at_held < end]] -= 1
    return ci, pi, holds, np.cumsum(step[:-1], dtype=np.int8) == 0


def runs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end of each run of equal values in sorted `keys` (one candidate's pairs, say)."""
    if not len(keys):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    start = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return start, np.r_[start[1:], len(keys)]


def places_on_lists(pools: Pools, ci: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """Each (candidate, pool) pair's candidate's place on the list of its pool (`Pool.place`, one per merit list;
    the candidates' own order, their index, where the pool has none), a pass per list: what the certificate and
    the audit sort a pool's candidates by."""
    key = ci.astype(np.int64)
    lists = {p.merit_list: p.place for p in pools.pools if p.place is not None}
    if not lists:
        return key
    code = {m: k + 1 for k, m in enumerate(lists)}
    # (a byte per pair where the lists are few: the certificate's 20 million pairs)
    which = np.array([code[p.merit_list] if p.place is not None else 0 for p in pools.pools],
                     dtype=np.uint8 if len(lists) < 255 else np.int32)[pi]
    for k, place in enumerate(lists.values(), 1):
        at = np.flatnonzero(which == k)
        key[at] = place[ci[at]]
    return key
