"""A stage after a shortlist of lists called apart (`shortlist.separate`: SSC CGL calls Junior Statistical Officer
and Statistical Investigator Grade-II candidates on cut-offs of their own, every other post on another; the
2023 Tier-I result notice, para. 2, as reproduced by secondary pages, its text not read). One called in some
lists but not in every one sat the next stage for their posts only: he may hold a post of a list he was called
in, none of the others. His preference list is cut to those posts (in his order; without a preferences file
every candidate ranks every post in the file's order, formats.md), as the upgrade-only rule cuts an appointed
candidate's (`solver.exam.appointed`), so every engine reads the same bar. Who was called where is the shortlist
stage's own output, read by `solver.exam.shortlist.only_called`."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..data.problem import Problem
from ..errors import InputError
from ..policy import Policy
from ..policy.stages import OTHERS


def post_groups(policy: Policy, problem: Problem) -> dict[str, frozenset[str]]:
    """The lists of `shortlist.separate` among these posts, each its posts, and `others` the rest; {} where no
    group's post is here."""
    groups = {name: frozenset(p for p in posts if p in problem.posts)
              for name, posts in policy.shortlist.separate.items()}
    groups = {name: posts for name, posts in groups.items() if posts}
    rest = frozenset(problem.posts) - frozenset().union(*groups.values()) if groups else frozenset()
    return groups | ({OTHERS: rest} if rest else {})


def with_calls(policy: Policy, problem: Problem, lists: dict[str, dict[str, str]], shortlist) -> Problem:
    """The problem with each candidate's lists called in (`Candidates.called_in`), where the shortlist has lists
    called apart; a list the policy does not call for these posts is bad input (exit 2).

    Parameters
    ----------
    policy, problem : the stage's policy and problem, its candidates all called in some list.
    lists : the shortlist read (`solver.exam.shortlist.calls_in`): list name -> candidate id -> category list.
    shortlist : the shortlist file, for messages.
    """
    groups = post_groups(policy, problem)
    unknown = sorted(set(lists) - set(groups))
    if unknown:
        name = unknown[0]
        named = policy.shortlist.separate.get(name)
        why = (f"none of its posts ({', '.join(named)}) is among these vacancies, though the shortlist called for "
               "them") if named else "the policy calls " + (', '.join(repr(g) for g in groups) or
                                                            "one list: shortlist.separate names none of these posts")
        raise InputError(shortlist, None, "list", f"list {name!r} is not one the policy calls for these posts: {why}")
    names = tuple(name for name in groups if name in lists)
    every = tuple(groups)
    called = np.empty(problem.n, dtype=object)
    for i, cid in enumerate(np.asarray(problem.candidates.ids).tolist()):
        mine = tuple(name for name in names if cid in lists[name])
        called[i] = () if mine == every else mine
    return replace(problem, candidates=replace(problem.candidates, called_in=called))


def kept_to_calls(policy: Policy, problem: Problem) -> Problem:
    """The problem with each candidate called in some lists only offered only their posts: his preferences cut
    to them (see the module's text); the same problem where everyone was called in every list.

    Example
    -------
    >>> from solver import load_policy
    >>> from solver.data.problem import Candidates, VacancyRow
    >>> c = Candidates(np.array(["A", "B"], dtype=object), np.array(["UR", "UR"], dtype=object),
    ...                *[np.zeros(2, bool)] * 3, np.array(["", ""], dtype=object), np.zeros(2, bool), None,
    ...                np.array([2, 3]), called_in=np.array([(), ("JSO",)], dtype=object))
    >>> p = Problem(c, ("AAO", "JSO"), (VacancyRow("AAO", "UR", 1), VacancyRow("JSO", "UR", 1)))
    >>> [x.tolist() for x in kept_to_calls(load_policy("ssc-cgl"), p).preferences]   # B: JSO only
    [[0, 1], [1]]
    """
    kept = np.flatnonzero(restricted(problem)).tolist()
    if not kept:
        return problem
    called = problem.candidates.called_in
    groups = post_groups(policy, problem)
    at = problem.post_index
    every = np.arange(len(problem.posts), dtype=np.int32)
    prefs = list(problem.preferences) if problem.preferences is not None else [every] * problem.n
    open_to: dict[tuple, np.ndarray] = {}    # (a mask over the posts per set of lists, not per candidate)
    for i in kept:
        names = called[i]
        if names not in open_to:
            open_to[names] = np.zeros(len(problem.posts), dtype=bool)
            open_to[names][[at[p] for name in names for p in groups.get(name, ())]] = True
        prefs[i] = prefs[i][open_to[names][prefs[i]]]
    stated = problem.stated or (problem.preferences if problem.preferences is not None else (every,) * problem.n)
    return replace(problem, preferences=tuple(prefs), stated=stated,
                   file_order=problem.file_order or problem.preferences is None)


def restricted(problem: Problem) -> np.ndarray:
    """bool per candidate: called in some lists of a shortlist but not in every one."""
    called = problem.candidates.called_in
    if called is None:
        return np.zeros(problem.n, dtype=bool)
    return np.array([bool(x) for x in called.tolist()], dtype=bool)
