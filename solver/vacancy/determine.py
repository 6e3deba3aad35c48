"""From vacancy rows to the seats of each post and category (stage 1 of the chain).

Forward: TOTAL rows are split by the roster, the ceiling is applied. Inverse: `SeatTable.rows()` gives back
per-category rows that, read again, determine the same seats.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from ..errors import PolicyConflict, Unsupported
from ..policy import Policy
from ..problem import Problem
from .roster import roster


@dataclass(frozen=True)
class SeatTable:
    posts: tuple[str, ...]
    seats: dict[tuple[str, str], int]                 # (post, category) -> vacancies, open code included
    minimums: dict[tuple[str, str, str], int]         # (post, category, trait) -> horizontal minimum
    carried_excess: dict[tuple[str, str], int] = field(default_factory=dict)  # ceiling excess carried forward
    notes: tuple[str, ...] = ()

    def cap(self, post: str, cat: str) -> int:
        return self.seats.get((post, cat), 0)

    def rows(self) -> list[tuple[str, str, int]]:
        return [(p, c, v) for (p, c), v in self.seats.items()]


def ceiling_use(policy: Policy, seats: dict[tuple[str, str], int], post: str) -> tuple[int, int]:
    """(reserved vacancies that count against the ceiling, all vacancies) of one post's year."""
    counted = {c.code for c in policy.categories if c.in_ceiling}
    total = sum(v for (p, _), v in seats.items() if p == post)
    used = sum(v for (p, c), v in seats.items() if p == post and c in counted)
    return used, total


def determine_seats(policy: Policy, problem: Problem, enforce_ceiling: bool = True) -> SeatTable:
    """`enforce_ceiling=False` lets `verify` report a broken ceiling as a violation instead of refusing."""
    seats: dict[tuple[str, str], int] = {}
    minimums: dict[tuple[str, str, str], int] = {}
    notes: list[str] = []
    for row in problem.vacancy_rows:
        if row.category == "TOTAL":
            if 2 <= row.vacancies <= 13 and policy.roster.small_cadre == "l_shaped":
                raise Unsupported(f"post {row.post}: a cadre of {row.vacancies} posts takes the L-shaped roster "
                                  "(roster.small_cadre), which is not implemented yet (issue 6); give per-category "
                                  "rows, or --set roster.small_cadre=\"none\" to use the due-point roster")
            split = Counter(roster(policy, row.vacancies)) if row.vacancies else Counter()
            for c in [policy.open, *policy.reserved_codes]:
                seats[(row.post, c)] = split.get(c, 0)
            notes.append(f"{row.post}: {row.vacancies} vacancies split by the {policy.roster.points}-point "
                         f"roster from point 1: " + ", ".join(f"{c} {k}" for c, k in split.items()))
        else:
            seats[(row.post, row.category)] = row.vacancies
            for trait, m in row.minimums.items():
                minimums[(row.post, row.category, trait)] = m
    carried: dict[tuple[str, str], int] = {}
    for post in problem.posts:
        used, total = ceiling_use(policy, seats, post)
        limit = policy.ceiling.share * total
        if used <= limit + 1e-9 or not enforce_ceiling:
            continue
        if policy.ceiling.excess == "refuse":
            raise PolicyConflict(
                f"post {post}: {used} of {total} vacancies are reserved under the ceiling, more than "
                f"{policy.ceiling.share:.0%} ({policy.ceiling.source or 'ceiling.share'}); "
                f"lower the reserved rows or set ceiling.excess=\"carry_forward\"")
        excess = used - int(limit + 1e-9)
        counted = [c.code for c in policy.categories if c.in_ceiling]
        for _ in range(excess):
            # Trim the largest reserved row; ties go to the category listed last (the most recent claim).
            code = max(counted, key=lambda c: (seats.get((post, c), 0), counted.index(c)))
            seats[(post, code)] -= 1
            seats[(post, policy.open)] = seats.get((post, policy.open), 0) + 1
            carried[(post, code)] = carried.get((post, code), 0) + 1
        notes.append(f"{post}: {excess} reserved vacancies above the {policy.ceiling.share:.0%} ceiling carried "
                     f"forward and filled as open this year ({policy.ceiling.source})")
    for post in problem.posts:
        seats.setdefault((post, policy.open), 0)
    _minimums_from_shares(policy, seats, minimums, notes)
    if minimums and policy.horizontal.unfilled == "carry_forward":
        raise Unsupported("horizontal.unfilled = \"carry_forward\" needs the carry-forward register (issue 6)")
    return SeatTable(problem.posts, seats, minimums, carried, tuple(notes))


def _minimums_from_shares(policy: Policy, seats, minimums, notes) -> None:
    """Horizontal minimums from policy shares where vacancies.csv gave none (women 30-35% in many states;
    PwBD 4%: RPwD Act 2016 s.34). Compartmentalised: each post x category gets its own minimum."""
    traits = [t for t in policy.horizontal.traits if t.share > 0]
    if not traits:
        return
    if policy.horizontal.mode != "compartmentalised":
        raise Unsupported("horizontal.mode = \"overall\" is not implemented yet (issue 4)")
    given = {(p, c) for (p, c, _) in minimums}
    rnd = {"round": lambda x: math.floor(x + 0.5), "floor": math.floor, "ceil": math.ceil}[policy.horizontal.rounding]
    for (post, code), v in seats.items():
        if (post, code) in given or v == 0:
            continue
        for t in traits:
            m = min(v, rnd(t.share * v - 1e-9 if policy.horizontal.rounding == "ceil" else t.share * v + 1e-9))
            if m > 0:
                minimums[(post, code, t.name)] = m
    notes.append("horizontal minimums from policy shares: " + ", ".join(f"{t.name} {t.share:.0%}" for t in traits)
                 + f" of each compartment, {policy.horizontal.rounding}ed")
