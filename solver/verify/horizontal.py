"""Minimum-guarantee checks inside a compartment (Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007;
Saurav Yadav 2020)."""
from __future__ import annotations

import numpy as np

from .allocation import Violation

SRC_HORIZONTAL = "Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007"


def beneficiaries(policy, problem, seats, post, code):
    """Mask of who counts for the compartment's horizontal minimum, or None when it has none."""
    for (p, cc, trait), minimum in seats.minimums.items():
        if p == post and cc == code and minimum > 0:
            ben = problem.candidates.trait(trait)
            if code == policy.open and not policy.horizontal.open_compartment_for_all:
                ben = ben & (problem.candidates.category == policy.open)
            return ben
    return None


def horizontal(policy, problem, seats, j, code, holders, routes, want, ids) -> list[Violation]:
    """Minimum-guarantee semantics inside one compartment (Rajesh Kumar Daria 2007; Saurav Yadav 2020):
    a beneficiary is passed over only by better merit; a non-beneficiary only by better non-beneficiaries,
    or by beneficiaries while the compartment holds no more of them than its minimum."""
    out = []
    post = problem.posts[j]
    for (p, cc, trait), minimum in seats.minimums.items():
        if p != post or cc != code or minimum <= 0:
            continue
        ben = beneficiaries(policy, problem, seats, post, code)
        have = int(ben[holders].sum())
        adjusted = holders[routes == "horizontal_adjustment"]
        for i in adjusted:
            if not ben[i]:
                out.append(Violation("horizontal adjustment of a non-beneficiary", ids[i], post,
                                     f"not a {trait} beneficiary", SRC_HORIZONTAL))
        if len(adjusted) and have > minimum:
            out.append(Violation("removal for excess", ids[adjusted[-1]], post,
                                 f"{have} {trait} beneficiaries exceed the minimum {minimum}, yet "
                                 f"{len(adjusted)} were placed by adjustment", SRC_HORIZONTAL))
        if have < minimum:
            waiting = np.flatnonzero(want & ben)
            if len(waiting) and (~ben[holders]).any():
                out.append(Violation("horizontal shortfall that could have been met", ids[waiting[0]], post,
                                     f"{have} of {minimum} {trait} in {code}; rank {waiting[0] + 1} was available",
                                     SRC_HORIZONTAL))
        if not len(holders):
            continue
        worst = holders.max()
        for i in np.flatnonzero(want[:worst] & ben[:worst]):
            out.append(Violation("justified envy", ids[i], post, f"{trait} beneficiary rank {i + 1} passed over "
                                 f"for rank {worst + 1} in {code}", SRC_HORIZONTAL))
        others = holders[~ben[holders]]
        limit = (int(others.max()) if len(others) else 0) if have <= minimum else int(worst)
        for i in np.flatnonzero(want[:limit] & ~ben[:limit]):
            out.append(Violation("justified envy", ids[i], post, f"rank {i + 1} passed over for rank {limit + 1} in "
                                 f"{code} ({have} {trait} beneficiaries, minimum {minimum})", SRC_HORIZONTAL))
    return out

