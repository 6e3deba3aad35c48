"""Verification of one cadre's allocation, rule by rule: the checks `verify` runs, in order, each a function
named after its rule (`solver.verify.eligibility`, `.capacity`, `.merit`, `.later`, `.ceiling`).

A recommendation list drawn before service allocation is two such stages (`solver.verify.recommendation`):
its list is checked as one cadre here, its service allocation by its own rules.
"""
from __future__ import annotations

from ..policy import Policy
from ..data.problem import Problem
from ..chain.vacancy.determine import determine_seats
from ..chain.vacancy.seats import SeatTable
from .allocation import Allocation, Violation
from .capacity import capacity, dereservation_within_backlog, exchange_within_carried
from .ceiling import ceiling
from .seat_pools import pool_holders
from .eligibility import (applied_for, counted_against, fitness, horizontal_labels, on_the_list, route_eligibility,
                          selected_once)
from .later import after_own_category, fallback_order, held_seats_kept, merit_within_route, no_wasted_vacancies
from .merit import merit_within_compartments
from .reading import Reading
from .seats import seats_as_given

# Rules of any allocation row: who may hold what, by which route, counted against what, within capacity.
ROW_RULES = (selected_once, applied_for, on_the_list, pool_holders, fitness, horizontal_labels, route_eligibility, counted_against, capacity,
             exchange_within_carried, dereservation_within_backlog)
# Rules of the order in which one cadre's vacancies are filled: merit within each compartment (open first),
# then the later phases.
CADRE_RULES = (merit_within_compartments, after_own_category, fallback_order, merit_within_route,
               held_seats_kept, no_wasted_vacancies)


def reading(policy: Policy, problem: Problem, alloc: Allocation, seats: SeatTable | None = None) -> Reading:
    """The allocation and the seat table it is checked against (vacancy determination with the ceiling
    reported, not enforced, so that a broken ceiling is a violation rather than a refusal)."""
    return Reading(policy, problem, seats or determine_seats(policy, problem, enforce_ceiling=False), alloc)


def verify_cadre(policy: Policy, problem: Problem, alloc: Allocation, seats: SeatTable | None = None) -> list[Violation]:
    """Every rule of a single-cadre recruitment, in order: the seats as the rows give them, `ROW_RULES`,
    `CADRE_RULES`, the ceiling."""
    r = reading(policy, problem, alloc, seats)
    return [v for rule in (seats_as_given, *ROW_RULES, *CADRE_RULES, ceiling) for v in rule(r)]
