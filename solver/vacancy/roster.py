"""Post-based reservation rosters (DoPT OM 02.07.1997; R.K. Sabharwal v. State of Punjab 1995).

The due-point rule: at point n a category is due when floor(n x share) exceeds the points it already holds;
simultaneous dues are served in turn (by `roster.tie`), the rest wait for later points.
With SC 15, ST 7.5, OBC 27 a 20-post cadre reserves OBC 4, 8, 12, 16, 19; SC 7, 15, 20; ST 14.
"""
from __future__ import annotations

import math

from ..policy import Policy


def roster(policy: Policy, points: int, start: int = 1) -> list[str]:
    """Category of each roster point ``start .. start+points-1`` (the open code where none is due)."""
    cats = policy.categories
    held = {c.code: 0 for c in cats}
    out: list[str] = []
    for n in range(1, start + points):
        deficits = [(math.floor(n * c.share + 1e-9) - held[c.code], k, c.code) for k, c in enumerate(cats)]
        due = [d for d in deficits if d[0] > 0]
        if not due:
            code = policy.open
        elif policy.roster.tie == "largest_deficit":
            code = max(due, key=lambda d: (d[0], -d[1]))[2]
        elif policy.roster.tie == "relative_deficit":
            code = max(due, key=lambda d: (n - held[d[2]] / cats[d[1]].share, -d[1]))[2]
        else:
            code = min(due, key=lambda d: d[1])[2]
        if code != policy.open:
            held[code] += 1
        if n >= start:
            out.append(code)
    return out


def running(policy: Policy, start: int, count: int) -> list[str]:
    """Categories of `count` vacancies from point `start` of a running roster (DoPT OM 02.07.1997): each year
    resumes at the next unused point, and after the last point of the cycle the roster starts again at 1."""
    cycle = roster(policy, policy.roster.points)
    return [cycle[(start - 1 + k) % len(cycle)] for k in range(count)]


def replacement(policy: Policy, vacated: list[int]) -> list[str]:
    """Once a cadre's roster is fully operated, a vacancy goes to the category of the point whose holder left
    (R.K. Sabharwal v. State of Punjab 1995, para 6: the roster does not run again; it is the replacement rule)."""
    cycle = roster(policy, policy.roster.points)
    bad = [p for p in vacated if not 1 <= p <= len(cycle)]
    if bad:
        raise ValueError(f"vacated points {bad} are outside the {len(cycle)}-point roster")
    return [cycle[p - 1] for p in vacated]
