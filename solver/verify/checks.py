"""`verify`: check an allocation against the policy, rule by rule, naming the rule and its source for each
breach.

Deliberately written from the policy text, not from `solver.chain.pools`: eligibility, preference and the phases of
the procedure are derived here again (`solver.verify.reading`), so a bug in the shared reduction cannot hide
itself. The rules are functions of their own, grouped by what they check (`solver.verify.cadre` lists them).
"""
from __future__ import annotations

from ..policy import Policy
from ..data.problem import Problem
from ..chain.vacancy.seats import SeatTable
from .allocation import Allocation, Violation
from .appointed import offered, upgrades_only
from .called import called_posts, offered_called, open_posts
from .cadre import ROW_RULES, reading, verify_cadre
from .ceiling import ceiling
from .recommendation import two_stages
from .seats import seats_as_given


def verify(policy: Policy, problem: Problem, alloc: Allocation, seats: SeatTable | None = None,
           calls: dict[str, dict[str, str]] | None = None) -> list[Violation]:
    """Every breach of the policy's rules by `alloc`.

    Parameters
    ----------
    policy, problem : the recruitment.
    alloc : the allocation, as `read_allocation` reads allocation.csv.
    seats : the seat table to check against; by default determined from the problem with the ceiling
        reported rather than enforced.
    calls : the shortlist that called these candidates (`solver.exam.shortlist.calls_in`: list name -> candidate
        id -> category list): each appointee's post must be one of his lists' (`solver.verify.called`; "" one
        list, every post). None: no shortlist.

    Returns
    -------
    list of Violation (rule, candidate, post, detail, source); empty when every rule holds.

    Example
    -------
    >>> import numpy as np
    >>> from solver import load_policy
    >>> from solver.data.problem import Candidates, Problem, VacancyRow
    >>> pol = load_policy("central-dopt")
    >>> c = Candidates(np.array(["A", "B"], dtype=object), np.array(["OBC", "UR"], dtype=object),
    ...                np.zeros(2, bool), np.zeros(2, bool), np.zeros(2, bool), np.array(["", ""], dtype=object),
    ...                np.zeros(2, bool), None, np.array([2, 3]))
    >>> prob = Problem(c, ("P",), (VacancyRow("P", "UR", 1),))
    >>> alloc = Allocation(np.array([1]), np.array([0]), ["UR"], ["UR"], [""], ["open_merit"], ["B"])
    >>> [v.rule for v in verify(pol, prob, alloc)]    # A ranks above B and wanted the open vacancy
    ['justified envy']
    """
    _lists_judged(policy, problem, alloc)
    barred = upgrades_only(problem, alloc)
    problem = offered(problem)
    if calls is not None:
        opened = open_posts(policy, problem, calls)
        barred += called_posts(policy, problem, alloc, opened)
        problem = offered_called(problem, opened)
    if not policy.migration.selection_list:
        found = verify_cadre(policy, problem, alloc, seats)
    else:
        r = reading(policy, problem, alloc, seats)
        found = [v for rule in (seats_as_given, *ROW_RULES, two_stages, ceiling) for v in rule(r)]
    # (a post the upgrade-only rule or the shortlist's lists bar is cut from what the other rules read as his
    # preferences: the breach is the bar, not a post he did not rank)
    named = {(v.candidate, v.post) for v in barred}
    return barred + [v for v in found if not (v.rule == "post not applied for" and (v.candidate, v.post) in named)]


def _lists_judged(policy: Policy, problem: Problem, alloc: Allocation) -> None:
    """Several merit lists are judged where every holder is in an own compartment (open on merit, or his
    category's), a compartment's horizontal minimums on its own list: the rules of the later phases, a
    recommendation list and overall minimums read one merit order, and are refused with several lists rather
    than judged by the wrong one."""
    from ..errors import Unsupported
    if problem.lists is None or not any(problem.post_lists):
        return
    if policy.migration.selection_list:
        raise Unsupported("verifying several merit lists with a recommendation list is not built yet: its list "
                          "is drawn on one merit order")
    if policy.horizontal.mode == "overall" and (policy.horizontal.traits or
                                                any(row.minimums for row in problem.vacancy_rows)):
        raise Unsupported("verifying several merit lists with overall horizontal minimums is not built: a post's "
                          "minimums are placed down one merit order (Anil Kumar Gupta 1995, para 18)")
    other = sorted(set(alloc.route) - {"open_merit", "reserved", "horizontal_adjustment"})
    if other:
        raise Unsupported(f"verifying several merit lists where vacancies pass by {', '.join(other)} is not built "
                          "yet: those phases read one merit order")
