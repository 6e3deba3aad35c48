"""The upgrade-only rule, read again from its words (MPSC circular of 13 May 2026, press summaries): one already
appointed to a post "is not recommended for that post or for any post lower in his preference order". verify
checks the rule on the preferences as given, then checks every other rule on what was open to each candidate:
his preferences above the post he holds. Without a preferences file every candidate applies to every post in the
file's order of posts (formats.md, preferences.csv): that order is his preference order."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..data.problem import Problem
from .allocation import Allocation, Violation

SOURCE = "MPSC circular of 13 May 2026 (upgrade only; press summaries, the circular's text not read)"


def _held(problem: Problem) -> dict[int, int]:
    a = problem.candidates.appointed
    if a is None:
        return {}
    posts = problem.post_index
    return {i: posts[a[i]] for i in range(problem.n) if a[i] in posts}


def upgrades_only(problem: Problem, alloc: Allocation) -> list[Violation]:
    """Nobody is appointed to the post he holds, or to one he ranks below it."""
    held, out = _held(problem), []
    ids = problem.candidates.ids
    for i, j in zip(alloc.cand.tolist(), alloc.post.tolist()):
        if i not in held:
            continue
        h = held[i]
        mine = problem.preferences[i].tolist() if problem.preferences is not None else list(range(len(problem.posts)))
        if j == h:
            detail = f"he holds {problem.posts[h]} already"
        elif h in mine and (j not in mine or mine.index(j) > mine.index(h)):
            detail = f"he holds {problem.posts[h]} already, which he ranks above this post"
        else:
            continue
        out.append(Violation("upgrade only", str(ids[i]), problem.posts[j], detail, SOURCE))
    return out


def offered(problem: Problem) -> Problem:
    """The problem as the other rules must read it: each appointed candidate's preferences above his post."""
    held = _held(problem)
    if not held:
        return problem
    prefs = list(problem.preferences) if problem.preferences is not None else \
        [np.arange(len(problem.posts), dtype=np.int32) for _ in range(problem.n)]
    for i, h in held.items():
        mine = prefs[i].tolist()
        if h in mine:
            mine = mine[:mine.index(h)]
        prefs[i] = np.array(mine, dtype=np.int32)
    return replace(problem, preferences=tuple(prefs))
