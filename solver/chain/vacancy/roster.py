"""Post-based reservation rosters (DoPT OM 02.07.1997; R.K. Sabharwal v. State of Punjab 1995).

The due-point rule: at point n a category is due when floor(n x share) exceeds the points it already holds;
simultaneous dues are served in turn (by `roster.tie`), the rest wait for later points.
With SC 15, ST 7.5, OBC 27 a 20-post cadre reserves OBC 4, 8, 12, 16, 19; SC 7, 15, 20; ST 14.
"""
from __future__ import annotations

import math

from ...policy import Policy


def roster(policy: Policy, points: int, start: int = 1) -> list[str]:
    """Category of each point ``start .. start+points-1`` of a ``points``-point roster (the open code where
    none is due).

    At point n a category is due when floor(n x share) exceeds the points it holds; simultaneous dues are served
    by `roster.tie`, the others at the next points. A post-based roster exists to reach the prescribed shares
    (R.K. Sabharwal 1995; DoPT OM 02.07.1997), so at the end of the cycle every category holds exactly
    floor(points x share): once the reserved points still owed fill every point left, a point goes to a
    reserved category even if it is not yet due (the one due soonest), never to the open category. (Exact
    whenever a cycle has at least as many unreserved points as categories, as every model's roster has; a
    smaller cycle may end a point short per category, caught up in the next.)

    Parameters
    ----------
    policy : the categories, their shares and ``roster.tie``.
    points : the roster's length (its cycle).
    start : the first point returned (points past the cycle's end run on into further cycles, as `running`).

    Returns
    -------
    list of category codes, one per point.

    Example
    -------
    >>> from solver import load_policy
    >>> r = roster(load_policy("central-2004"), 20)
    >>> [k + 1 for k, c in enumerate(r) if c == "SC"], [k + 1 for k, c in enumerate(r) if c == "ST"]
    ([7, 15, 20], [14])
    >>> from collections import Counter
    >>> sorted(Counter(roster(load_policy("bihar-1991"), 100)).items())
    [('BC', 12), ('EBC', 18), ('SC', 16), ('ST', 1), ('UR', 50), ('WBC', 3)]
    """
    return _sequence(policy, points, start + points - 1)[start - 1:]


def _sequence(policy: Policy, cycle: int, upto: int) -> list[str]:
    """Points 1 .. upto of a running roster whose every cycle of `cycle` points ends with each category holding
    floor(points so far x share): dues are counted over the whole run, so a share's fraction left over at the
    end of one cycle (Maharashtra NT-B 2.5 of 100) is a point of the next."""
    cats = policy.categories
    held = {c.code: 0 for c in cats}
    out: list[str] = []
    for n in range(1, upto + 1):
        end = -(-n // cycle) * cycle
        quota = {c.code: math.floor(end * c.share + 1e-9) for c in cats}
        owing = [(k, c) for k, c in enumerate(cats) if held[c.code] < quota[c.code]]
        due = [(math.floor(n * c.share + 1e-9) - held[c.code], k, c.code) for k, c in owing]
        due = [d for d in due if d[0] > 0]
        forced = sum(quota[c.code] - held[c.code] for _, c in owing) >= end - n + 1
        if not due and forced:
            # Ahead of its due point: the category whose next point falls due soonest, policy order on a tie.
            code = min(owing, key=lambda kc: (math.ceil((held[kc[1].code] + 1) / kc[1].share - 1e-9), kc[0]))[1].code
        elif not due:
            code = policy.open
        elif policy.roster.tie == "largest_deficit":
            code = max(due, key=lambda d: (d[0], -d[1]))[2]
        elif policy.roster.tie == "relative_deficit":
            code = max(due, key=lambda d: (n - held[d[2]] / cats[d[1]].share, -d[1]))[2]
        else:
            code = min(due, key=lambda d: d[1])[2]
        if code != policy.open:
            held[code] += 1
        out.append(code)
    return out


def running(policy: Policy, start: int, count: int) -> list[str]:
    """Categories of `count` vacancies from point `start` of a running roster (DoPT OM 02.07.1997): each year
    resumes at the next unused point, and the roster runs on into its next cycle, which catches up the fractions
    of a share the last one could not give (each cycle's end holds floor(points so far x share))."""
    return _sequence(policy, policy.roster.points, start + count - 1)[start - 1:]


def replacement(policy: Policy, vacated: list[int]) -> list[str]:
    """Once a cadre's roster is fully operated, a vacancy goes to the category of the point whose holder left
    (R.K. Sabharwal v. State of Punjab 1995, para 6: the roster does not run again; it is the replacement rule)."""
    cycle = roster(policy, policy.roster.points)
    bad = [p for p in vacated if not 1 <= p <= len(cycle)]
    if bad:
        raise ValueError(f"vacated points {bad} are outside the {len(cycle)}-point roster")
    return [cycle[p - 1] for p in vacated]
