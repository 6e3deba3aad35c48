"""The names every stage shares: the route by which a vacancy is filled, the phases pools are filled in, and
the rank of a post a candidate did not apply for.

A route is what `allocation.csv`'s `route` column says (SPEC.md); its string value is that column's word, so
a `Route` compares equal to the text read from a file.
"""
from __future__ import annotations

from enum import IntEnum, StrEnum


class Route(StrEnum):
    OPEN_MERIT = "open_merit"                        # open vacancy, on merit (Indra Sawhney 1992)
    RESERVED = "reserved"                            # own category's vacancy
    EXCHANGE = "exchange"                            # a partner's unfilled vacancy (Maharashtra s.4(3); Manipur s.4)
    FALLBACK = "fallback"                            # down a fallback chain (Bihar s.4(6))
    DERESERVED = "dereserved"                        # a reserved vacancy de-reserved to open
    HORIZONTAL_ADJUSTMENT = "horizontal_adjustment"  # in by a minimum's shortfall (Rajesh Kumar Daria 2007)
    UPGRADE = "upgrade"                              # open-selected on an own-category vacancy (CSE Rule 16(2))
    PROBATION = "probation"                          # failed the test, recruited on probation (Manipur s.8(3))


# Routes that take only what the candidates' own compartments left unfilled.
LATER_ROUTES = (Route.EXCHANGE, Route.FALLBACK, Route.PROBATION, Route.DERESERVED)


class Phase(IntEnum):
    """The order pools are filled in (solver.chain.pools): each phase takes only what the earlier ones left.
    Fallback chains have one phase per step, FALLBACK + step; recruitment on probation (Manipur s.8(3)) comes after
    the longest chain, and de-reservation after it."""

    OWN = 0          # open, then each reserved category (open first)
    EXCHANGE = 1     # same-year exchange within a group
    FALLBACK = 2     # the first step of every fallback chain


# post_rank of a post the candidate did not rank (Problem.post_rank); any rank below it is a ranked post.
NOT_RANKED = 1 << 20
