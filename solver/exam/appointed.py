"""The upgrade-only rule across recruitment cycles (MPSC circular of 13 May 2026, read from press summaries; the
circular's text was not read): a candidate already appointed to a post (candidates.csv `appointed`) "is not
recommended for that post or for any post lower in his preference order". His preference list ends before that
post. Without a preferences file every candidate applies to every post in the file's order of posts (formats.md,
preferences.csv), which is then his preference order: the posts before his are open to him, his and those after
it barred."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..data.problem import Problem

SOURCE = "MPSC circular of 13 May 2026 (upgrade only; read from press summaries)"


def appointed_posts(problem: Problem) -> np.ndarray:
    """Per candidate the index of the post he holds already, -1 for none (or one not among these posts)."""
    a = problem.candidates.appointed
    out = np.full(problem.n, -1, dtype=np.int64)
    if a is None:
        return out
    index = problem.post_index
    for i in np.flatnonzero(a != "").tolist():
        out[i] = index.get(a[i], -1)
    return out


def bar_appointed(problem: Problem) -> Problem:
    """The problem with each appointed candidate's preferences cut before his post (see the module's text);
    the same problem where nobody holds one of these posts."""
    held = appointed_posts(problem)
    who = np.flatnonzero(held >= 0)
    if not len(who):
        return problem
    every = np.arange(len(problem.posts), dtype=np.int32)
    prefs = list(problem.preferences) if problem.preferences is not None else [every] * problem.n
    for i in who.tolist():
        row, j = prefs[i], held[i]
        at = np.flatnonzero(row == j)
        prefs[i] = row[:at[0]] if len(at) else row
    return replace(problem, preferences=tuple(prefs), file_order=problem.file_order or problem.preferences is None)
