"""choices.npy: each candidate's ranked posts as a run read them (its preferences file checked, looked up, and a
program's place taken by the seat pools the candidate may hold), written beside the run's outputs so that the
stage after it (a sliding round, a fill) takes them instead of reading and expanding the file again: at JoSAA's
size 19.4 million choices, 23.9 million ranked seat pools, about 4.5 s of every round.

The later stage takes the file only where every check of the chain of custody holds: the inputs' SHA-256 are
those the run's summary.json records, this file's SHA-256 is the one it records among its outputs, the run was
made by this version of the package (whose reading the file holds), and the round reads them under the run's own
policy and preferences. Otherwise it reads the preferences file again, as before.

The layout is one int32 array (`numpy.save`: no pickle, the same bytes for the same choices): a format number,
the number of candidates n, each candidate's count of ranked posts (n of them, in merit order), then the ranked
posts (indices into the problem's posts), candidate after candidate.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

CHOICES = "choices.npy"
FORMAT = 1


def write_choices(path: str | Path, preferences: tuple[np.ndarray, ...]) -> None:
    """Write each candidate's ranked posts (`Problem.preferences`) to `path`.

    Example
    -------
    >>> import tempfile, numpy as np
    >>> f = Path(tempfile.mkdtemp()) / CHOICES
    >>> write_choices(f, (np.array([2, 0]), np.array([], int), np.array([1])))
    >>> [x.tolist() for x in read_choices(f, 3, 3)]
    [[2, 0], [], [1]]
    """
    sizes = np.fromiter((len(p) for p in preferences), dtype=np.int64, count=len(preferences))
    flat = np.concatenate(preferences).astype(np.int32, copy=False) if len(preferences) else np.zeros(0, np.int32)
    out = np.empty(2 + len(sizes) + len(flat), dtype=np.int32)
    out[0], out[1] = FORMAT, len(sizes)
    out[2:2 + len(sizes)] = sizes
    out[2 + len(sizes):] = flat
    with open(path, "wb") as fh:
        np.save(fh, out, allow_pickle=False)


def read_choices(path: str | Path, n: int, posts: int) -> tuple[np.ndarray, ...] | None:
    """The choices `write_choices` wrote, for a problem of `n` candidates and `posts` posts; None where the file
    does not hold such choices (another format, another number of candidates, a post out of range): the caller
    then reads the preferences file."""
    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if data.dtype != np.int32 or data.ndim != 1 or len(data) < 2 or data[0] != FORMAT or data[1] != n:
        return None
    sizes = data[2:2 + n]
    flat = data[2 + n:]
    if len(sizes) != n or (sizes < 0).any() or int(sizes.sum(dtype=np.int64)) != len(flat) or \
            (len(flat) and (flat.min() < 0 or flat.max() >= posts)):
        return None
    bounds = np.r_[0, np.cumsum(sizes, dtype=np.int64)].tolist()
    return tuple(flat[bounds[i]:bounds[i + 1]] for i in range(n))
