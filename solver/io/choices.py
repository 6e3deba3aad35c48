"""choices.npy: each candidate's ranked posts as a run read them (its preferences file checked, looked up, and a
program's place taken by the seat pools the candidate may hold), written beside the run's outputs so that the
stage after it (a sliding round, a fill) takes them instead of reading and expanding the file again: at JoSAA's
size 19.4 million choices, 23.9 million ranked seat pools, about 4.5 s of every round.

The later stage takes the file only where every check of the chain of custody holds: the inputs' SHA-256 are
those the run's summary.json records, this file's SHA-256 is the one it records among its outputs, the run was
made by this version of the package (whose reading the file holds), and the round reads them under the run's own
policy and preferences. Otherwise it reads the preferences file again, as before.

The layout is one int32 array (`numpy.save`'s format: no pickle, the same bytes for the same choices): a format
number, the number of candidates n, the number of ranked posts, each candidate's count of them (n, in merit
order), then the ranked posts (indices into the problem's posts) candidate after candidate: as int32 (format 3),
or where every index is below 65,536, as uint16 two to a cell, the last padded (format 4: JoSAA's 23.9 million
ranked seat pools in 48 MB, written, hashed and read in half the time); then the programs ranked that stand for
no seat pool the candidate may hold (`solver.data.seat_pools.Unheld`): their number m, the m candidates, for
each the number of his programs kept before it, and a seat pool of it. (Formats 1 and 2, of earlier versions, had no such part: their
files are not taken.)
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..data.seat_pools import Unheld

CHOICES = "choices.npy"
WIDE, NARROW = 3, 4          # the formats: posts as int32, or as uint16 two to a cell


def write_choices(path: str | Path, preferences: tuple[np.ndarray, ...], unheld: Unheld | None = None) -> None:
    """Write each candidate's ranked posts (`Problem.preferences`) and the programs left out of them (`unheld`)
    to `path`, piece by piece (no copy of the whole in memory).

    Example
    -------
    >>> import tempfile, numpy as np
    >>> f = Path(tempfile.mkdtemp()) / CHOICES
    >>> write_choices(f, (np.array([2, 0]), np.array([], int), np.array([1])), Unheld(*np.array([[2], [0], [1]])))
    >>> prefs, unheld = read_choices(f, 3, 3)
    >>> [x.tolist() for x in prefs], unheld.who.tolist(), unheld.kept.tolist(), unheld.post.tolist()
    ([[2, 0], [], [1]], [2], [0], [1])
    """
    n = len(preferences)
    sizes = np.fromiter((len(p) for p in preferences), dtype=np.int64, count=n)
    flat = np.concatenate(preferences) if n else np.zeros(0, np.int32)
    narrow = not len(flat) or flat.max() < 1 << 16
    body = flat.astype(np.uint16) if narrow else flat.astype(np.int32, copy=False)
    cells = (len(body) + 1) // 2 if narrow else len(body)
    with open(path, "wb") as fh:
        m = 0 if unheld is None else len(unheld.who)
        np.lib.format.write_array_header_1_0(fh, {"descr": np.dtype(np.int32).str, "fortran_order": False,
                                                  "shape": (3 + n + cells + 1 + 3 * m,)})
        # (the arrays' own buffers written: a bytes copy of the body was 48 MB of fresh memory at JoSAA size)
        fh.write(np.array([NARROW if narrow else WIDE, n, len(flat)], dtype=np.int32))
        fh.write(sizes.astype(np.int32))
        fh.write(np.ascontiguousarray(body))
        if narrow and len(body) % 2:
            fh.write(b"\0\0")
        fh.write(np.array([0 if unheld is None else len(unheld.who)], dtype=np.int32))
        if unheld is not None:
            fh.write(unheld.who.astype(np.int32))
            fh.write(unheld.kept.astype(np.int32))
            fh.write(unheld.post.astype(np.int32))


def keep_choices(folder: str | Path, problem) -> None:
    """Write the problem's choices to `folder`'s choices.npy where they were read from a preferences file (the
    stage after a run takes them from there: `solve`'s and `slide`'s outputs)."""
    if "preferences" in problem.sources:    # (as given, where a rule cut them: the next stage cuts them again)
        write_choices(Path(folder) / CHOICES, problem.stated if problem.stated is not None else problem.preferences,
                      problem.unheld)


def read_choices(path: str | Path, n: int, posts: int) -> tuple[tuple[np.ndarray, ...], Unheld | None] | None:
    """The choices `write_choices` wrote, for a problem of `n` candidates and `posts` posts (int32 views of one
    array), and the programs left out of them; None where the file does not hold such choices (another format,
    another number of candidates, a post out of range): the caller then reads the preferences file."""
    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if data.dtype != np.int32 or data.ndim != 1 or len(data) < 3 or data[0] not in (WIDE, NARROW) or data[1] != n:
        return None
    total, sizes = int(data[2]), data[3:3 + n]
    cells = total if data[0] == WIDE else (total + 1) // 2
    body, rest = data[3 + n:3 + n + cells], data[3 + n + cells:]
    if len(sizes) != n or (sizes < 0).any() or int(sizes.sum(dtype=np.int64)) != total or len(body) != cells \
            or (unheld := _unheld(rest, sizes, posts)) is False:
        return None
    flat = body if data[0] == WIDE else body.view(np.uint16)[:total].astype(np.int32)
    if total and (flat.min() < 0 or flat.max() >= posts):
        return None
    bounds = np.r_[0, np.cumsum(sizes, dtype=np.int64)].tolist()
    return tuple(flat[bounds[i]:bounds[i + 1]] for i in range(n)), unheld


def _unheld(rest: np.ndarray, sizes: np.ndarray, posts: int) -> Unheld | None | bool:
    """The file's last part (`write_choices`) as `Unheld` (None: none); False where it is not one: a length
    that does not match, a candidate or post out of range, a place past his list, or out of order."""
    if not len(rest) or rest[0] < 0 or len(rest) != 1 + 3 * int(rest[0]):
        return False
    m = int(rest[0])
    if not m:
        return None
    who, kept, post = (rest[1 + k * m:1 + (k + 1) * m].astype(np.int64) for k in range(3))
    if who.min() < 0 or who.max() >= len(sizes) or (kept < 0).any() or (kept > sizes[who]).any() or \
            post.min() < 0 or post.max() >= posts:
        return False
    if ((np.diff(who) < 0) | ((np.diff(who) == 0) & (np.diff(kept) < 0))).any():
        return False
    return Unheld(who, kept, post)
