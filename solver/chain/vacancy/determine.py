"""From vacancy rows to the seats of each post and category (stage 1 of the chain), in order: the rows split
(`split`: exempt, TOTAL by the roster, per category), the register's items joined (`carry_in`), the ceiling
applied (`ceiling`), the horizontal minimums made (`minimums`).

Inverse: `SeatTable.rows()` gives back per-category rows that, read again, determine the same seats.
"""
from __future__ import annotations

from dataclasses import replace

from ...policy import Policy
from ...data.problem import Problem
from .carried import YearState
from .carry_in import carry_in, carry_in_horizontal
from .ceiling import trim_to_ceiling
from .minimums import cut_to_compartments, held_within, minimums_from_shares, overall_minimums
from .seats import SeatTable
from .split import split_rows


def determine_seats(policy: Policy, problem: Problem, enforce_ceiling: bool = True,
                    state: YearState | None = None) -> SeatTable:
    """`enforce_ceiling=False` lets `verify` report a broken ceiling as a violation instead of refusing.
    `state` is the register's view before the year: roster positions and carried vacancies."""
    notes: list[str] = []
    seats, minimums, exempt, roster_used = split_rows(policy, problem, state, notes)
    table = SeatTable(problem.posts, seats, minimums, exempt=exempt,
                      roster_used=roster_used)
    if state is not None:
        table = carry_in(policy, problem, table, state, notes)
        seats = dict(table.seats)
    programs = {post: pool.program for post, pool in zip(problem.posts, problem.post_pools) if pool is not None}
    carried = trim_to_ceiling(policy, table, seats, enforce_ceiling, notes, programs)
    minimums_from_shares(policy, seats, minimums, notes)
    cut_to_compartments(table, seats, minimums, notes)
    if policy.migration.selection_list:
        held_within(minimums, seats, notes)
    table = replace(table, seats=seats, minimums=minimums, carried_excess=carried, notes=tuple(notes))
    if policy.horizontal.mode == "overall":
        return overall_minimums(policy, table, minimums, notes)
    if state is not None:
        table = carry_in_horizontal(policy, table, state)
    return table
