"""The compiled walks over the preference lists (`solver.data.walks`, `solver/_core.c`) against the same walks
written plainly in Python, on random arrays of every integer type the callers hold, and refusing what would
read or write outside an array (a ValueError, not a crash)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.data.walks import first_k, skip_full

INTS = [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint32]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(1, 9), st.lists(st.tuples(st.integers(0, 99), st.integers(0, 6)), max_size=40),
       st.sampled_from([np.int16, np.int32]), st.sampled_from([np.int32, np.int64]), st.sampled_from(INTS),
       st.integers(0, 2 ** 16))
def test_first_k_is_each_rows_first_k_entries(slots, cells, rows, table_type, at_type, k_type, seed):
    rng = np.random.default_rng(seed)
    table = rng.integers(-1, 1000, (cells, slots)).astype(table_type)
    at = np.array([c % cells for c, _ in rows], dtype=at_type)
    k = np.array([min(n, slots) for _, n in rows], dtype=k_type)
    plain = [int(table[c, s]) for c, n in zip(at.tolist(), k.tolist()) for s in range(n)]
    got = first_k(table, at, k)
    assert got.dtype == np.int32 and got.tolist() == plain


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), max_size=6), min_size=1, max_size=8), st.booleans(),
       st.sampled_from([np.int32, np.int64]), st.integers(0, 2 ** 16))
def test_skip_full_moves_past_the_pools_that_would_turn_each_away(lists_, several, pi_type, seed):
    """Each free candidate moves past the pools (in her list's order) whose cutoff is below her key, and stops
    at the first that is not, or at her list's end; those left with a pool are returned, ascending."""
    rng = np.random.default_rng(seed)
    n, pools = len(lists_), 5
    pi = np.array([p for row in lists_ for p in row], dtype=pi_type)
    end = np.cumsum([len(row) for row in lists_]).astype(np.int64)
    start = end - [len(row) for row in lists_]
    ptr = start + np.array([rng.integers(0, len(row) + 1) for row in lists_], dtype=np.int64)
    free = np.flatnonzero(rng.random(n) < 0.7)
    cutoff = rng.integers(-1, n + 1, pools).astype(np.int64)
    lists = rng.integers(0, 2, pools).astype(np.int64) * n if several else None
    place = rng.permutation(2 * n).astype(np.int64) if several else None

    def key(pool, f):
        return place[lists[pool] + f] if several else f
    want = ptr.copy()
    for f in free.tolist():
        while want[f] < end[f] and cutoff[pi[want[f]]] < key(pi[want[f]], f):
            want[f] += 1
    left = skip_full(pi, free, ptr, end, cutoff, lists, place)
    assert ptr.tolist() == want.tolist()
    assert left.tolist() == [f for f in free.tolist() if want[f] < end[f]]


def test_what_would_read_or_write_outside_an_array_is_refused():
    table = np.zeros((2, 3), dtype=np.int16)
    with pytest.raises(ValueError, match="outside the table"):
        first_k(table, np.array([2], dtype=np.int32), np.array([1], dtype=np.uint8))      # no third cell
    with pytest.raises(ValueError, match="outside the table"):
        first_k(table, np.array([0], dtype=np.int32), np.array([4], dtype=np.uint8))      # four of three slots
    with pytest.raises(ValueError, match="outside its array"):
        skip_full(np.array([7]), np.array([0]), np.array([0]), np.array([1]), np.array([5, 5]))   # pool 7 of 2
    with pytest.raises(ValueError, match="ptr is not int64"):
        skip_full(np.array([0]), np.array([0]), np.array([0], dtype=np.int32), np.array([1]), np.array([5]))
    with pytest.raises(TypeError, match="integer items"):
        first_k(table.astype(float), np.array([0], dtype=np.int32), np.array([1], dtype=np.uint8))
