"""verify's own reading of a post-based roster (DoPT OM 02.07.1997; R.K. Sabharwal v. State of Punjab 1995),
written from the rule's words, not from `solver.chain.vacancy.roster`, so that a TOTAL row's split is checked
category by category and not only for its sum.

The rule as RULES.md and the OM state it: a category is due at point n when floor(n x share) exceeds the points
it holds; simultaneous dues are served in turn (`roster.tie`: the category most behind relative to its share,
policy order, or the largest absolute deficit), and a cycle of the roster ends with each category holding
floor(points x share) of it, so once the reserved points owed by the cycle's end fill every point left, the
point goes to the category whose next point falls due soonest. A running roster resumes each year at its next
unused point and runs on into its next cycle.
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from ..policy import Policy

# Shares are decimals in the policy (0.075, or 1/3 written 0.3333...); as the nearest fractions of small
# denominator over one common denominator D, share = a / D, floor(n x share) is the whole-number (n x a) // D,
# free of rounding where a multiple is whole (n = 40, share 0.075: 3).
_DENOMINATOR = 10**6


def _shares(policy: Policy) -> tuple[list[tuple[str, int]], int]:
    """The reserved categories in policy order, each with its share's numerator a over the common D; and D."""
    exact = [(c.code, Fraction(c.share).limit_denominator(_DENOMINATOR))
             for c in policy.categories if c.code != policy.open and c.share > 0]
    d = math.lcm(*(x.denominator for _, x in exact)) if exact else 1
    return [(code, int(x * d)) for code, x in exact], d


def _pick(tie: str, n: int, held: Counter, d: int, behind: list[tuple[int, str, int]]) -> str:
    """Among the categories due at point n (`behind`: order, code, share numerator a), the one the tie rule
    serves."""
    if tie == "policy_order":
        return behind[0][1]
    if tie == "largest_deficit":
        return max(behind, key=lambda b: (n * b[2] // d - held[b[1]], -b[0]))[1]
    # relative_deficit: how many points behind its share the category stands, n - held / share
    return max(behind, key=lambda b: (n - Fraction(held[b[1]] * d, b[2]), -b[0]))[1]


def roster_points(policy: Policy, start: int, count: int) -> list[str]:
    """The category of each of `count` points from point `start` of the policy's running roster.

    Parameters
    ----------
    policy : its categories' shares, `roster.points` (the cycle) and `roster.tie`.
    start, count : the first point (1-based) and how many.

    Returns
    -------
    list of category codes (the open code where no reserved category takes the point).

    Example
    -------
    >>> from solver import load_policy
    >>> r = roster_points(load_policy("central-2004"), 1, 20)
    >>> [n for n, c in enumerate(r, 1) if c != "UR"]    # RULES.md's 20-post cadre
    [4, 7, 8, 12, 14, 15, 16, 19, 20]
    """
    cycle, tie, (shares, d) = policy.roster.points, policy.roster.tie, _shares(policy)
    held: Counter = Counter()
    points: list[str] = []
    for n in range(1, start + count):
        end = -(-n // cycle) * cycle                       # the last point of n's cycle
        owing = [(k, code, a) for k, (code, a) in enumerate(shares) if held[code] < end * a // d]
        behind = [b for b in owing if n * b[2] // d > held[b[1]]]
        if len(behind) == 1:
            code = behind[0][1]
        elif behind:
            code = _pick(tie, n, held, d, behind)
        elif sum(end * a // d - held[code] for _, code, a in owing) > end - n:
            # The points owed by the cycle's end fill every point left: the category due soonest takes it,
            # its next point ceil((held + 1) / share).
            code = min(owing, key=lambda b: (-(-(held[b[1]] + 1) * d // b[2]), b[0]))[1]
        else:
            code = policy.open
        held[code] += code != policy.open
        points.append(code)
    return points[start - 1:]


def total_split(policy: Policy, row, start: int | None) -> Counter | None:
    """A TOTAL row's vacancies by category on verify's reading: the running roster from the row's own
    `roster_start`, else `start` (the point the register records for the cadre), else point 1, with the shares of
    the row's district where the policy gives them (`Policy.for_row`). None where verify checks only the row's
    sum: a year of only two vacancies under `roster.two_vacancies = "carry_over"` (Manipur s.4(2)(a) proviso,
    which reads the register's preceding years), and promotion, where the Act may leave the row unreserved
    (Bill 2004 s.3(2); Manipur s.10)."""
    if policy.recruitment == "promotion" or (row.vacancies == 2 and policy.roster.two_vacancies == "carry_over"):
        return None
    first = row.roster_start or start or 1
    return Counter(roster_points(policy.for_row(row.district, row.post_class), first, row.vacancies))


def by_category(policy: Policy, row, start: int | None) -> dict[str, int] | None:
    """A vacancy row's vacancies by category as verify reads them: an exempt row's open, a TOTAL row's by
    `total_split` (None where only its sum is read), any other row's its own category's."""
    if row.category == "TOTAL" and not row.exempt:
        return total_split(policy, row, start)
    return {policy.open if row.exempt else row.category: row.vacancies}
