"""Seat pools: the reduction from (policy, seats, candidates) to an assignment problem (stage 2 of the chain).

A pool is a set of vacancies at one post filled on merit from one eligible set. Pools come in phases, each
filled only after the earlier ones are final, because their capacity is what earlier phases left unfilled:

0. open, then each reserved category (open first: Indra Sawhney 1992; Saurav Yadav 2020; Bihar s.4(3);
   central Bill 2004 s.5(2)); horizontal minimums apply here (Rajesh Kumar Daria 2007);
1. same-year exchange within a group (Maharashtra s.4(3); Manipur s.4);
2+k. step k of each fallback chain (Bihar s.4(6): WBC -> SC, ST, EBC, BC);
then recruitment on probation of those who failed the test (Manipur s.8(3), at the posts it names);
last. de-reservation to open (states whose policy allows it).

A candidate prefers an earlier phase, then (within a phase) a more preferred post, then the earlier pool of
that post: open before own category before extra eligibility. Capacity of a pool is linear in earlier pools'
fills: ``base - sum(filled[q] for q in minus)``; both engines and the reports read it from here.
"""
from .build import build_pools, dereserved_pool, exchange_pools, fallback_pools, own_compartments, probation_pools, \
    with_minimums
from .lists import admit_types, held_positions, places_on_lists, preferred_pairs, runs
from .types import DERESERVED, EXCHANGE, FALLBACK, OPEN_MERIT, PROBATION, RESERVED, Pool, Pools, Shared, group

__all__ = ["DERESERVED", "EXCHANGE", "FALLBACK", "OPEN_MERIT", "PROBATION", "RESERVED", "Pool", "Pools", "Shared",
           "admit_types", "build_pools", "dereserved_pool", "exchange_pools", "fallback_pools", "group",
           "held_positions", "own_compartments", "places_on_lists", "preferred_pairs", "probation_pools", "runs",
           "with_minimums"]
