"""preferences.csv read and checked (SPEC.md, "Input tables"): each candidate's posts in order, vectorised for tens
of millions of rows, and the `Ranking` views the read makes on the way."""
from __future__ import annotations

import numpy as np

from ..data.sorting import sorted_by
from .cells import _first_bad, _int32s, _numbers
from .tables import Table, read_table


def _lookup(t: Table, column: str, index: dict[str, int], what: str, hint: str = "") -> np.ndarray:
    """`index[value]` for each cell of a dictionary-encoded `column` (int32); an error names the first unknown
    cell. Matched on the distinct values (a dict: JoSAA's 177,000 values, against 19.4 million cells), then one
    gather per row."""
    enc = t.encoded[column]
    found = np.fromiter((index.get(v, -1) for v in enc.values.tolist()), dtype=np.int32, count=len(enc.values))
    out = enc.take(found)
    if (found < 0).any() and (k := _first_bad(out < 0)) is not None:
        raise t.error(k, column, f"unknown {what} {str(enc.value(k))!r}{hint}")
    return out


def _cell(t: Table, column: str, row: int) -> str:
    return t.encoded[column].value(row)


def _first_repeat(a: np.ndarray, b: np.ndarray) -> tuple[int, int] | None:
    """First pair of rows (earlier, later in the file) with equal (a, b), or None."""
    srt = sorted_by([a, b])   # (stable: equal pairs stay in file order)
    same = (a[srt][1:] == a[srt][:-1]) & (b[srt][1:] == b[srt][:-1])
    if not same.any():
        return None
    later = srt[1:][same]
    k = int(later.min())
    first = int(srt[:-1][same][np.argmin(later)])
    return first, k


def _each_post_once(post: np.ndarray, starts: np.ndarray, posts: int, marks: int = 1 << 20) -> bool:
    """Whether every run of rows (a candidate's, `starts` where each begins) names each post at most once: a
    posts x runs scatter block by block of runs into one reused buffer of `marks` marks, where the whole P x n
    table would be fresh memory (JoSAA: 160 MB, about half a second of page faults here) that nothing reads
    after the check. Fewer marks than rows in a block means a post named twice in one of its runs. (A buffer of
    a megabyte stays in the processor's cache: JoSAA's 19.4 million rows 0.20 s, against 0.40 s with 16 MB.)

    Example
    -------
    >>> _each_post_once(np.array([0, 1, 1, 0]), np.array([0, 2]), 2), _each_post_once(np.array([0, 0]), np.array([0]), 2)
    (True, False)
    """
    ends = np.r_[starts[1:], len(post)]
    per = max(1, marks // max(posts, 1))                           # runs per block
    buf = np.zeros((posts, min(per, len(starts))), dtype=bool)
    for r0 in range(0, len(starts), per):
        r1 = min(r0 + per, len(starts))
        a, b = int(starts[r0]), int(ends[r1 - 1])
        local = np.repeat(np.arange(r1 - r0, dtype=np.int32), (ends[r0:r1] - starts[r0:r1]))
        buf[post[a:b], local] = True
        marked = np.count_nonzero(buf)
        buf[post[a:b], local] = False
        if marked < b - a:
            return False
    return True


def _who_ranked(cand: np.ndarray, post: np.ndarray, n: int, posts: int) -> np.ndarray | None:
    """P x n bool, who ranked each post (`Ranking.ranked_by_post`), by a scatter where it is small enough
    (JoSAA: 160 MB); None where it is not. Fewer marks than rows means some candidate ranks a post twice (the
    sort in `_first_repeat` then names the lines)."""
    if n * posts > 400_000_000:
        return None
    seen = np.zeros((posts, n), dtype=bool)
    seen[post, cand] = True
    return seen


def _orders(t: Table) -> np.ndarray:
    """The `order` column, each a whole number from 1 to 2**31 - 1 (int32 where Arrow read them all so), else
    the first bad cell named."""
    order = _int32s(t, "order", 1, 2**31 - 1)
    if order is None:
        order = _numbers(t, "order", integer=True)
        if len(order) and (order.min() < 1 or order.max() > 2**31 - 1):
            k = _first_bad((order < 1) | (order > 2**31 - 1))
            raise t.error(k, "order", f"order must be from 1 to {2**31 - 1}, got {t['order'][k]}")
    return order


def preferences_table(path, warn=None) -> Table:
    """preferences.csv as read, before its ids and posts are looked up (`read_preferences`)."""
    return read_table(path, ["candidate_id", "order", "post"], [], warn, encode=("candidate_id", "post"),
                      numbers=("order",))


def read_preferences(path, ids_by_input: dict[str, int], posts: tuple[str, ...], n: int, warn=None,
                     table: Table | None = None):
    """preferences.csv: candidate_id, order (1 = most wanted), post; vectorised for tens of millions of rows.
    Returns each candidate's posts in order, and the `Ranking` views the read made on the way: who ranked each
    post (P x n, where the rows were in no order and the bitmap small enough) and the ranked rows in merit order
    (where the file or the sort gave them).
    `table`: the file already read (`preferences_table`)."""
    t = table if table is not None else preferences_table(path, warn)
    order = _orders(t)
    cand = _lookup(t, "candidate_id", ids_by_input, "candidate")
    post = _lookup(t, "post", {p: j for j, p in enumerate(posts)}, "post", " (not in vacancies.csv)")
    # A file written candidate by candidate, each list in order, needs no sort (two checks, 0.2 s at JoSAA
    # size, against two sorts of 19 million rows), and then no candidate gives an order twice. (Masks only: a
    # difference of the orders is 155 MB.)
    new = np.r_[True, cand[1:] != cand[:-1]] if len(cand) else np.zeros(0, bool)
    starts = np.flatnonzero(new)
    # (grouped: no candidate's rows in two runs, counted over the runs' first rows, not all 19 million rows)
    grouped = np.bincount(cand[starts], minlength=n).max(initial=0) <= 1 and \
        not (~new[1:] & (order[1:] <= order[:-1])).any()
    if not grouped and (rep := _first_repeat(cand, order)) is not None:
        raise t.error(rep[1], "order", f"order {order[rep[1]]} given twice for candidate "
                      f"{str(_cell(t, 'candidate_id', rep[1]))!r} (also line {t.line[rep[0]]})")
    # Rows in runs are checked run by run; only rows in no order need the P x n bitmap, which is then kept as
    # `Ranking.ranked_by_post` (the greedy never reads it: made for the check alone it was 0.4 s at JoSAA size).
    if grouped:
        seen, twice = None, not _each_post_once(post, starts, len(posts))
    else:
        seen = _who_ranked(cand, post, n, len(posts))
        twice = seen is None or np.count_nonzero(seen) < len(cand)
    if twice and (rep := _first_repeat(cand, post)) is not None:
        raise t.error(rep[1], "post", f"post {str(posts[post[rep[1]]])!r} ranked twice by "
                      f"{str(_cell(t, 'candidate_id', rep[1]))!r} (also line {t.line[rep[0]]})")
    views = {"ranked_by_post": seen} if seen is not None else {}
    if grouped:
        lists = [post[:0]] * n
        for s, e in zip(starts.tolist(), np.r_[starts[1:], len(cand)].tolist()):
            lists[cand[s]] = post[s:e]
        if (np.diff(cand[starts]) > 0).all():   # (candidates in merit order too: the rows as they stand)
            views["rows"] = (cand, post)
        return tuple(lists), views
    srt = sorted_by([cand, order])
    cand, ranked = cand[srt], post[srt]
    bounds = np.searchsorted(cand, np.arange(n + 1))
    views["rows"] = (cand, ranked)
    return tuple(ranked[bounds[i]:bounds[i + 1]] for i in range(n)), views
