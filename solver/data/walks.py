"""Two walks over the candidates' lists that numpy can only write as passes over whole arrays with temporaries
the size of the lists, compiled as one loop each (`solver/_core.c`): each ranked row's first k entries of its
cell in a table (a program's seat pools a candidate may hold, a post's pools a type of candidate is offered),
and deferred acceptance's skip past the pools that would turn a candidate away unasked. At JoSAA's size (19.4
million ranked rows, 37 million candidate-pool pairs) numpy's passes took 0.6-0.9 s each, most of it the
kernel handing out fresh pages for the temporaries."""
from __future__ import annotations

import numpy as np

from .. import _core


def first_k(table: np.ndarray, at: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The first `k[r]` entries of row `at[r]` of the 2-D `table`, row after row, as one int32 array.

    Parameters
    ----------
    table : 2-D integer array, a row per cell.
    at : each row's cell (integer array).
    k : how many of the cell's entries each row takes (at most the table's width).

    Example
    -------
    >>> table = np.array([[5, 6, -1], [7, -1, -1]], dtype=np.int16)
    >>> first_k(table, np.array([1, 0, 0]), np.array([1, 2, 0], dtype=np.uint8)).tolist()
    [7, 5, 6]
    """
    table = np.ascontiguousarray(table)
    out = np.empty(int(np.sum(k, dtype=np.int64)), dtype=np.int32)
    _core.first_k(table.reshape(-1), table.shape[1], np.ascontiguousarray(at), np.ascontiguousarray(k), out)
    return out


def skip_full(pi: np.ndarray, free: np.ndarray, ptr: np.ndarray, end: np.ndarray, cutoff: np.ndarray,
              lists: np.ndarray | None = None, place: np.ndarray | None = None) -> np.ndarray:
    """Move each candidate of `free` (positions, ascending) past the pairs of her list (`pi[ptr[f]:end[f]]`,
    pools) that would turn her away unasked: those whose pool's `cutoff` (the place of its worst holder once it
    is full) is smaller, a better place, than hers on the pool's list: `place[lists[pool] + f]`, or `f` itself
    where every pool ranks by one order (`lists` None). `ptr` (int64) is moved in place. Returns those
    of `free` left with a pool to propose to, ascending.

    Example
    -------
    >>> pi, ptr = np.array([0, 1, 1, 0]), np.array([0, 2])      # candidate 0: pools 0, 1; candidate 1: 1, 0
    >>> skip_full(pi, np.array([0, 1]), ptr, np.array([2, 4]), np.array([-1, 5])).tolist(), ptr.tolist()
    ([0, 1], [1, 2])
    """
    _core.skip_full(np.ascontiguousarray(pi), np.ascontiguousarray(free), ptr, np.ascontiguousarray(end),
                    np.ascontiguousarray(cutoff), lists, place)
    return free[ptr[free] < end[free]]
