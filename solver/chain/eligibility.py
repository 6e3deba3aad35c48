"""Who may hold which vacancies, as the pools read it: open vacancies (barring a relaxed standard), each
reserved category's members less its creamy layer, and the horizontal fields of a compartment (its minimums,
who counts for each, who may come in by adjustment)."""
from __future__ import annotations

import numpy as np

from ..policy import Policy
from ..data.problem import Problem
from .vacancy import SeatTable


def member_mask(policy: Policy, problem: Problem, code: str) -> np.ndarray:
    """Who may hold a vacancy of reserved category `code` (own members or the policy's extra eligibility),
    less the creamy layer where the category excludes it (central Bill 2004 s.3(1)); of those eligible beyond
    their own code only the backward classes' creamy layer (`Policy.creamy_layer_codes`); never one found
    unfit (Bill 2004 s.8(2) proviso; Manipur Act 1976 s.9)."""
    c = problem.candidates
    cat = policy.category(code)
    if cat.eligible is None:
        mask = c.in_categories(code)
    else:
        mask = c.in_categories(*cat.eligible.categories)
        if cat.eligible.gender is not None:
            gender = np.where(c.female, "F", "M")
            mask &= np.isin(gender, cat.eligible.gender)
    if cat.creamy_layer_excluded:
        mask &= ~(c.creamy & c.in_categories(*policy.creamy_layer_codes(code)))
    return mask & c.qualified


def open_mask(policy: Policy, problem: Problem) -> np.ndarray:
    """Open vacancies are open to all, except those who availed a relaxed standard where the policy bars them
    (DoPT OM 01.07.1998, 04.04.2018; Deepa E.V. 2017); no vacancy is open to one found unfit (Bill 2004 s.8(2)
    proviso)."""
    c = problem.candidates
    if policy.migration.relaxed_may_take_open:
        return c.qualified
    return ~c.relaxed_at(policy.migration.bars_open.final) & c.qualified


def probation_mask(policy: Policy, problem: Problem, code: str) -> np.ndarray:
    """Who may be recruited on probation against a vacancy of `code` (Manipur Act 1976 s.8(3), second proviso):
    its own members, fit, who have the educational qualification but failed the prescribed test."""
    c = problem.candidates
    failed = c.failed_test if c.failed_test is not None else np.zeros(len(c), dtype=bool)
    return c.in_categories(code) & failed & c.fit


def homes(policy: Policy, problem: Problem, seats: SeatTable, post: str, members: dict) -> np.ndarray:
    """Per candidate, the compartment at `post` a horizontal adjustment under overall minimums places them in
    (Anil Kumar Gupta 1995: "adjusted against their respective social reservation categories"): their own
    reserved category if it has vacancies there, else open. As an index into [open, *reserved codes]; -1 when
    neither admits them. `members`: `member_mask` per reserved code."""
    out = np.where(open_mask(policy, problem), 0, -1).astype(np.int8)
    cat = problem.candidates.category
    for k, code in enumerate(policy.reserved_codes, 1):
        if seats.cap(post, code) - seats.exchangeable.get((post, code), 0) > 0:
            out[members[code] & (cat == code)] = k
    return out


def horizontal_fields(policy: Policy, problem: Problem, seats: SeatTable, post: str, code: str,
                      home: np.ndarray | None) -> tuple[dict, dict, dict]:
    """A compartment's horizontal minimums, who counts for each, and who may come in by adjustment where not
    everyone who counts may (`home`: `homes` of the post under overall minimums, else None)."""
    c = problem.candidates
    mins = dict(seats.minimums_of(post, code))
    ben, inc = {}, {}
    elsewhere = None
    if home is not None and seats.merit_held.get(post):
        # Anil Kumar Gupta 1995, para 18: the adjustment takes the best *remaining* beneficiaries; one merit put
        # in another compartment of the post (a woman selected against Bihar's WBC) is not drawn from there.
        held = seats.merit_held[post]
        elsewhere = np.zeros(len(c), dtype=bool)
        elsewhere[[i for i, cc in held.items() if cc != code]] = True
    for t in mins:
        mask = c.trait(t)
        if home is not None and code == policy.open:
            inc[t] = mask & (home == 0)
        elif code == policy.open and not policy.horizontal.open_compartment_for_all:
            mask = mask & c.in_categories(policy.open)
        if elsewhere is not None and elsewhere[mask].any():
            inc[t] = inc.get(t, mask) & ~elsewhere
        ben[t] = mask
    return mins, ben, inc
