"""Sorting rows by several integer keys fast: the preference lists of millions of (candidate, pool) pairs and
the checks of a preferences file of tens of millions of rows sort this way."""
from __future__ import annotations

import numpy as np


def sorted_by(keys: list[np.ndarray]) -> np.ndarray:
    """The stable order of rows by several integer keys, the first major: one packed int64 key and one argsort
    where their ranges fit in 63 bits (a 5-key lexsort over 31 million pairs took 26 s; this, about 1 s), else
    `np.lexsort`. Negative values are shifted by the key's minimum."""
    if not len(keys[0]):
        return np.zeros(0, np.int64)
    lows = [int(k.min()) for k in keys]
    widths = [max(1, int(int(k.max()) - lo).bit_length()) for k, lo in zip(keys, lows)]
    if sum(widths) > 63:
        return np.lexsort(tuple(reversed(keys)))
    packed = np.zeros(len(keys[0]), dtype=np.int64)
    for k, lo, w in zip(keys, lows, widths):
        packed <<= w
        packed |= (k.astype(np.int64) - lo)
    return np.argsort(packed, kind="stable")
