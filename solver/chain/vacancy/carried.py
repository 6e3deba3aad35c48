"""Vacancies and reservations carried from earlier recruitment years (the register's part of stage 1).

Two kinds, by what the policy did with an unfilled reserved vacancy:
- ``vacancy``: the post was kept vacant for its category (backlog; central practice since 1989, Bihar s.4(6)).
  It comes back as one more vacancy of that category, and after ``exchange.after_years`` also for the
  partners of its exchange group (Bihar s.4(6): SC<->ST, EBC<->BC after three years).
- ``reservation``: the post was de-reserved and filled from the open list, and the reservation is carried
  (Manipur Act 1976 s.4): it turns one open vacancy of a later year into one of its category.
- ``claim``: a vacancy of its category that an exchange partner filled (Manipur s.6): for
  `exchange.claim_years` recruitment years it takes the partner's next vacancy at the post back.
- ``horizontal``: a horizontal minimum's seat nobody could fill (`horizontal.unfilled = "carry_forward"`):
  one more seat of that minimum in the same compartment later, a PwBD sub-category's seat open to every
  sub-category (OM 15.01.2018), for `horizontal.carry_years` years.

Both lapse once older than ``unfilled.carry_years`` (None: never). Whether they count against the year's
ceiling is ``ceiling.backlog_counts`` (Art. 16(4B): SC/ST backlog is a separate class; Manipur s.5 counts it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...data.frozen import freeze_dicts
from ...policy import Policy

Kind = Literal["vacancy", "reservation", "horizontal", "claim"]


@dataclass(frozen=True)
class Carried:
    id: int
    post: str
    category: str
    origin_year: int
    kind: Kind
    trait: str = ""     # horizontal items: the trait whose seat is carried
    # Recruitment years of its cadre the register recorded after its origin and before this one; None for an
    # item made without a register (its age then counts calendar years).
    recruitments: int | None = None

    def age(self, year: int) -> int:
        """Recruitment years since the item's origin, this one included (Bihar s.2(e), Manipur s.2(b): the
        recruitment year is the year in which a recruitment is actually made, so a year the cadre did not
        recruit does not age its backlog). Only a cadre recruiting this year is offered its items."""
        return year - self.origin_year if self.recruitments is None else self.recruitments + 1


@dataclass(frozen=True)
class YearState:
    """What the register knows before a year is solved."""

    year: int
    roster_next: dict[str, int] = field(default_factory=dict)   # post -> next unused roster point
    items: tuple[Carried, ...] = ()                              # live items, oldest first
    cadres: dict[str, int] = field(default_factory=dict)        # post -> sanctioned posts, as last recorded
    # post -> its earlier recruitment years, oldest first: (year, {category: the year's own vacancies}), the
    # dict None where the register did not tally the year (written before schema 4)
    recent: dict[str, tuple[tuple[int, dict | None], ...]] = field(default_factory=dict)

    def __post_init__(self):
        freeze_dicts(self)


def claim_partners(policy: Policy, code: str) -> tuple[list[str], int]:
    """The exchange partners a claim of `code` takes a vacancy back from, and for how many recruitment years."""
    for g in policy.exchange:
        if g.claim_years and code in g.categories:
            return [x for x in g.categories if x != code], g.claim_years
    return [], 0


def lapses(policy: Policy, item: Carried, year: int) -> bool:
    if item.kind == "claim":
        return item.age(year) > claim_partners(policy, item.category)[1]
    years = policy.horizontal.carry_years if item.kind == "horizontal" else policy.unfilled.carry_years
    return years is not None and item.age(year) > years


def exchangeable(policy: Policy, item: Carried, year: int) -> bool:
    """A kept-vacant post whose category's exchange group opens it to the partners by now. Where only backlog
    left after the exchange is de-reserved (Bihar s.4(6)(d)), a reservation carried from a de-reservation has
    been through its exchange already: it is offered the same way (own category, partners, then general)."""
    if item.kind == "reservation" and policy.unfilled.dereserve and \
            policy.unfilled.dereserve_when == "after_exchange":
        return any(item.category in g.categories and g.after_years for g in policy.exchange)
    return item.kind == "vacancy" and any(
        g.after_years and item.category in g.categories and item.age(year) >= g.after_years
        for g in policy.exchange)


def carries(policy: Policy, code: str) -> bool:
    """Whether an unfilled vacancy of reserved category `code` is carried at all (EWS never is: OM 31.01.2019)."""
    return policy.unfilled.carry_years != 0 and policy.category(code).carry_forward


def carried_trait(item: Carried) -> str:
    """The minimum a carried horizontal seat joins: its own trait, or any PwBD sub-category for a
    sub-category's seat (OM 15.01.2018: interchange among sub-categories in the subsequent year)."""
    return "pwbd" if item.trait.startswith("pwbd_") else item.trait
