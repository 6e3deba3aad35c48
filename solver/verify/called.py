"""A stage after a shortlist of lists called apart, read again from its words: the policy's groups of posts
(`shortlist.separate`; SSC CGL calls JSO and Statistical Investigator Grade-II candidates on cut-offs of their own,
the other posts on another: the 2023 Tier-I result notice, para. 2, as reproduced by secondary pages, the notice's
text not read) each have a list of callees, and one called in a list sat the next stage for its posts. verify
derives each list's posts from the policy and vacancies.csv itself, checks that every appointee was called in
the list of his post, and reads every other rule on what was open to each candidate: his preferences among the
posts of his lists (without a preferences file every post in the file's order, formats.md)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..data.problem import Problem
from ..errors import InputError
from ..policy import Policy
from .allocation import Allocation, Violation

RULE = "not called for this post"


def groups(policy: Policy, problem: Problem) -> dict[str, frozenset[str]]:
    """The lists a shortlist has for these posts: each group of `shortlist.separate` with a post among these
    vacancies, and `others` the rest of the posts; {"": None} (one list, every post) where no group's post is
    here."""
    from ..policy.stages import OTHERS
    out = {name: frozenset(posts) & frozenset(problem.posts) for name, posts in policy.shortlist.separate.items()}
    out = {name: posts for name, posts in out.items() if posts}
    if out and (rest := frozenset(problem.posts).difference(*out.values())):
        out[OTHERS] = rest
    return out or {"": None}


def open_posts(policy: Policy, problem: Problem, lists: dict[str, dict[str, str]]) -> list[frozenset[int]]:
    """Per candidate (merit order), the posts (indices) of the shortlist's lists he was called in; `lists`:
    list name -> candidate id -> the category list he is counted in ("": one list, every post). A list the
    policy does not call for these posts is bad input (exit 2), named as the problem's sources name the
    shortlist."""
    at = problem.post_index
    every = frozenset(range(len(problem.posts)))
    posts = {name: every if members is None else frozenset(at[p] for p in members)
             for name, members in groups(policy, problem).items()}
    posts[""] = every
    unknown = sorted(set(lists) - set(posts))
    if unknown:
        named = ", ".join(repr(g) for g in posts if g) or "none: one list"
        raise InputError(problem.sources.get("shortlist", "shortlist.csv"), None, "list",
                         f"list {unknown[0]!r} is not one the policy calls for these posts ({named})")
    out = []
    for cid in np.asarray(problem.candidates.ids).tolist():
        out.append(frozenset().union(*[posts[name] for name, calls in lists.items() if cid in calls and name in posts]))
    return out


def called_posts(policy: Policy, problem: Problem, alloc: Allocation, opened: list[frozenset[int]]) -> list[Violation]:
    """Every appointee holds a post of a list he was called in."""
    source = policy.shortlist.separate_source or "shortlist.separate (the policy's lists of posts called apart)"
    out = []
    for i, j in zip(alloc.cand.tolist(), alloc.post.tolist()):
        if j not in opened[i]:
            detail = ("he was called in no list of the shortlist" if not opened[i] else
                      f"he was called for {', '.join(sorted(problem.posts[k] for k in opened[i]))} only")
            out.append(Violation(RULE, str(problem.candidates.ids[i]), problem.posts[j], detail, source))
    return out


def offered_called(problem: Problem, opened: list[frozenset[int]]) -> Problem:
    """The problem as the other rules must read it: each candidate's preferences among his lists' posts."""
    every = np.arange(len(problem.posts), dtype=np.int32)
    prefs = problem.preferences if problem.preferences is not None else (every,) * problem.n
    masks: dict[frozenset[int], np.ndarray] = {}     # (one mask over the posts per set of lists' posts)
    cut = []
    for row, posts in zip(prefs, opened):
        if posts not in masks:
            masks[posts] = np.isin(every, list(posts))
        row = np.asarray(row)
        cut.append(row[masks[posts][row]])
    return replace(problem, preferences=tuple(cut))
