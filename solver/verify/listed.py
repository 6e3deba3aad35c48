"""Who the recommendation list holds beyond the allocation's rows: those who compete for it, and the recommended
whom no ranked post could take when services go only to posts ranked (`migration.allocate_unranked` false)."""
from __future__ import annotations

import numpy as np

from ..policy import Policy
from ..data.problem import Problem
from ..chain.vacancy.seats import SeatTable
from .allocation import may_hold


def competes_for_list(policy: Policy, problem: Problem, seats: SeatTable) -> np.ndarray:
    """Allocated only to posts they ranked, only those who could hold a vacancy at a post they ranked compete for
    the list."""
    can = np.zeros(len(problem.candidates), dtype=bool)
    for code in policy.seat_codes:
        has = np.array([seats.cap(p, code) > 0 for p in problem.posts])
        can |= may_hold(policy, problem, code) & (problem.ranked & has).any(axis=1)
    return can


def listed_unplaced(policy: Policy, problem: Problem, seats: SeatTable, sel, could_take,
                    minimums=None) -> list[tuple[int, str]]:
    """Allocated only to posts they ranked (`migration.allocate_unranked` false), a recommended candidate whom no
    ranked post could take is left without a post, the vacancy to the reserve list: the list holds candidates the
    allocation does not show. Each category's minimums summed over the posts (Anil Kumar Gupta 1995) are met
    first, open first (Indra Sawhney 1992), by the best beneficiaries the allocation does not show; the list's
    other empty places go, in merit order, to those not allocated whom no ranked post could take as the posts
    were filled, open places first, less the places a held trait's shortfall keeps vacant (`horizontal.held`).
    Leaving such a candidate off the list, or on it, changes no one's post.

    `could_take(i, code)`: whether candidate i, listed against `code`, would have come to a seat with room or held
    by one who came after her (`solver.verify.recommendation.could_take`): then she is not listed unplaced, and the
    service allocation's checks judge her absence. `minimums`: per category, trait -> (its minimum summed over
    the posts, who counts for it). Returns (candidate, category listed against), in merit order."""
    listing = _Listing(policy, problem, seats, sel, minimums or {})
    for code in listing.codes:     # (open first: Indra Sawhney 1992)
        mine = [i for i in listing.cands if listing.eligible[code][i]
                and code in (policy.open, str(problem.candidates.category[i]))]
        listing.shortfalls(code, mine)
        listing.by_merit(code, mine, could_take)
    return sorted(listing.out)


class _Listing:
    """The list's empty places as `listed_unplaced` fills them: per category the places left and each trait's
    shortfall [places wanted, who counts], who is listed, and who is done with (listed, or could have held a seat:
    left to the service allocation's checks)."""

    def __init__(self, policy: Policy, problem: Problem, seats: SeatTable, sel, minimums: dict):
        self.policy = policy
        self.codes = policy.seat_codes
        self.eligible = {code: may_hold(policy, problem, code) for code in self.codes}
        self.places = {code: sum(k for (_, c), k in seats.seats.items() if c == code) - int((sel == code).sum())
                       for code in self.codes}
        self.short = {code: {t: [m - int(np.count_nonzero(ben & (sel == code))), ben]
                             for t, (m, ben) in minimums.get(code, {}).items()} for code in self.codes}
        self.cands = np.flatnonzero((sel == "") & competes_for_list(policy, problem, seats)).tolist()
        self.out: list[tuple[int, str]] = []
        self.done: set[int] = set()      # listed, or could have held a seat (the service allocation's to judge)

    def listed(self, i: int, code: str) -> None:
        self.places[code] -= 1
        for d in self.short[code].values():
            d[0] -= bool(d[1][i])
        self.out.append((i, code))
        self.done.add(i)

    def shortfalls(self, code: str, mine: list[int]) -> None:
        """A shortfall is met first by the best beneficiaries the allocation does not show (the minimum guarantee
        takes them whatever their merit)."""
        for d in self.short[code].values():
            for i in [i for i in mine if i not in self.done and d[1][i]][:max(0, min(d[0], self.places[code]))]:
                self.listed(i, code)

    def by_merit(self, code: str, mine: list[int], could_take) -> None:
        """The other places in merit order, to those no ranked post could take, less those a held trait's shortfall
        keeps vacant."""
        held = self.policy.horizontal.held
        for i in mine:
            kept = sum(d for t, (d, ben) in self.short[code].items() if d > 0 and not ben[i] and t in held)
            if i in self.done or self.places[code] - kept <= 0:
                continue
            if could_take(i, code):
                self.done.add(i)
            else:
                self.listed(i, code)
