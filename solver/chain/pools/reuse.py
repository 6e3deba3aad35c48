"""The preference lists of a solve read off an earlier solve's over more candidates: a round of counselling
solved again without a few floaters (`solver.exam.slide`) has the same pools, and each candidate left the same
list, so the lists are the earlier ones less those candidates' pairs (JoSAA: 70,000 candidates' lists, about
1 s each time made afresh, against 0.2 s read off)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .types import Pool, Pools


@dataclass(frozen=True)
class EarlierLists:
    """What a later solve reads of an earlier one's pools: each pool's shape, the sets its rules admitted
    (packed bits, one per distinct mask) and the preference lists. Not the pools themselves: their rows of who
    ranked each post are views of an n x P matrix (600 MB for JoSAA's 108,000 floaters)."""

    n: int
    shapes: tuple[tuple, ...]
    which: tuple[int, ...]             # each pool's admitted set, an index into `admitted`
    admitted: tuple[np.ndarray, ...]   # np.packbits of each distinct mask
    ci: np.ndarray
    pi: np.ndarray


def earlier_lists(pools: Pools) -> EarlierLists | None:
    """The record of `pools` a later solve reads its lists off; None where their lists were never made."""
    if "_all_lists" not in pools.__dict__:
        return None
    distinct: dict[int, int] = {}
    admitted, which = [], []
    for p in pools.pools:
        k = distinct.setdefault(id(p.admits), len(admitted))
        if k == len(admitted):
            admitted.append(np.packbits(p.admits))
        which.append(k)
    ci, pi = pools.preference_lists()
    return EarlierLists(pools.ranking.n, tuple(shape(p) for p in pools.pools), tuple(which), tuple(admitted), ci,
                        pi)


def lists_of_fewer(pools: Pools, earlier: EarlierLists, kept: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """`pools`' preference lists read off `earlier`'s: pools alike, one for one (post, phase, place, route,
    sources, list), over fewer candidates, `pools`' candidates being `earlier`'s at positions `kept`
    (ascending). A candidate's list rests on her own ranked posts and on which pools admit her, so hers are
    her pairs in `earlier`, renumbered. None where the pools differ or a pool admits, of the kept, others
    than it did.

    Example
    -------
    >>> from solver.chain.pools.types import Pool, Pools
    >>> from solver.data.ranking import Ranking
    >>> def pools(admits, lists):
    ...     ranking = Ranking(lists, n=len(lists), posts=2)
    ...     return Pools(tuple(Pool(k, k, "open_merit", 0, 0, ("UR",), a, 1, ranked_by=ranking)
    ...                        for k, a in enumerate(admits)), ranking, False)
    >>> three = pools([np.array([True, True, True]), np.array([True, False, True])],
    ...               (np.array([1, 0]), np.array([0]), np.array([0, 1])))
    >>> [a.tolist() for a in three.preference_lists()]
    [[0, 0, 1, 2, 2], [1, 0, 0, 0, 1]]
    >>> two = pools([np.array([True, True]), np.array([True, True])], (np.array([1, 0]), np.array([0, 1])))
    >>> [a.tolist() for a in lists_of_fewer(two, earlier_lists(three), np.array([0, 2]))]
    [[0, 0, 1, 1], [1, 0, 0, 1]]
    >>> lists_of_fewer(two, earlier_lists(three), np.array([0, 1])) is None   # candidate 1 was not admitted to pool 1
    True
    """
    if earlier is None or pools.ranking.n != len(kept) or len(pools.pools) != len(earlier.shapes) or \
            any(shape(p) != s for p, s in zip(pools.pools, earlier.shapes)):
        return None
    # (masks shared by many pools compared once)
    masks = {(id(p.admits), k): p.admits for p, k in zip(pools.pools, earlier.which)}
    if any(not np.array_equal(mine, np.unpackbits(earlier.admitted[k], count=earlier.n).view(bool)[kept])
           for (_, k), mine in masks.items()):
        return None
    # (her pairs are one run of the lists, candidates in order: each candidate's run kept whole or dropped)
    run = np.bincount(earlier.ci, minlength=earlier.n)
    stays = np.zeros(earlier.n, dtype=bool)
    stays[kept] = True
    return np.repeat(np.arange(len(kept), dtype=np.int32), run[kept]), earlier.pi[np.repeat(stays, run)]


def shape(p: Pool) -> tuple:
    """What places a pool in the candidates' lists and decides who it admits, but its admitted set."""
    return p.post, p.phase, p.precedence, p.route, p.sources, p.merit_list, p.ranked_by is None


def with_cut(pools: Pools, cut: np.ndarray) -> Pools:
    """`pools` with `cut[k]` fewer seats at pool k: the pools alike but for their seats, so the preference
    lists and their runs, made already, are carried over (a round of counselling resumed after a cut:
    `solver.chain.engines.greedy.resume`)."""
    from dataclasses import replace
    out = replace(pools, pools=tuple(replace(p, base=p.base - int(cut[p.index])) if cut[p.index] else p
                                     for p in pools.pools))
    for name in ("_all_lists", "runs"):
        if name in pools.__dict__:
            out.__dict__[name] = pools.__dict__[name]
    return out
