"""The chain of reductions from a recruitment to the seat pools an engine fills, each stage an object with
`accepts`, `apply` and `invert` (after cvxpy's `Reduction`).

    policy + inputs --DetermineVacancies--> seats --PlaceOverallMinimums--> seats --BuildPools--> pools
                     \\--DrawRecommendationList--> the list as one cadre --(engine)--> Selection
                          --AllocateServices--> pools of the service allocation
    pools --(engine: greedy | CP-SAT)--> Assignment --(Result: invert)--> allocation --> verify --> reports

`accepts` returns why a stage refuses its input (a combination of rules not implemented), or None: the
refusals that can be told before a stage runs are all here, each with its reason (exit 3). A few depend on
what the stage computes and are raised while it applies (a roster the cadre cannot give:
`solver.vacancy.determine.check_cadre`; a model too big for the machine: `solver.engines.cpsat.size`), and
the engines' own limits are `solver.engines.support`.

`apply` returns the next stage's input; `invert` maps the next stage's answer back into the terms of this
one. Every stage here but the recommendation list keeps the candidates and posts as they are, so its
inverse is the identity: the allocation of the pools is one of the original recruitment.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .errors import Unsupported
from .overall import PREFERENCES, distribute
from .policy import Policy
from .pools import Pools, build_pools
from .problem import SUBCATEGORIES, Problem
from .selection import Selection, allocation_pools, merged
from .vacancy import SeatTable, YearState, determine_seats


@dataclass(frozen=True)
class Recruitment:
    """What passes between the stages: the inputs, and what the stages so far made of them."""

    policy: Policy
    problem: Problem
    state: YearState | None = None       # the register's view before the year, if any
    seats: SeatTable | None = None       # after vacancy determination
    pools: Pools | None = None           # after the pools are built


class Reduction:
    """A stage of the chain."""

    name = ""

    def accepts(self, data: Recruitment) -> str | None:
        """Why the stage refuses `data`, or None when it takes it."""
        return None

    def apply(self, data: Recruitment) -> Recruitment:
        raise NotImplementedError

    def invert(self, answer, data: Recruitment):
        """The next stage's answer in this stage's terms: unchanged unless the stage changed the problem."""
        return answer

    def __call__(self, data: Recruitment) -> Recruitment:
        """`apply`, after `accepts` (a refusal raises Unsupported with its reason)."""
        reason = self.accepts(data)
        if reason is not None:
            raise Unsupported(reason)
        return self.apply(data)


class DetermineVacancies(Reduction):
    """Stage 1: TOTAL rows split by the running roster (DoPT OM 02.07.1997), carried vacancies joined from the
    register, the ceiling applied (Art. 16(4B)): `solver.vacancy.determine_seats`."""

    name = "vacancy determination"

    def apply(self, data: Recruitment) -> Recruitment:
        return replace(data, seats=determine_seats(data.policy, data.problem, state=data.state))


class PlaceOverallMinimums(Reduction):
    """Overall horizontal minimums (Anil Kumar Gupta 1995, para 18) turned into compartment minimums:
    `solver.overall.distribute`."""

    name = "overall horizontal minimums"

    def accepts(self, data: Recruitment) -> str | None:
        if data.seats.overall and data.problem.preferences is not None:
            return PREFERENCES
        return None

    def apply(self, data: Recruitment) -> Recruitment:
        return replace(data, seats=distribute(data.policy, data.problem, data.seats))


class BuildPools(Reduction):
    """Stage 2: the seat pools in phases (`solver.pools.build_pools`)."""

    name = "seat pools"

    def apply(self, data: Recruitment) -> Recruitment:
        return replace(data, pools=build_pools(data.policy, data.problem, data.seats))


class DrawRecommendationList(Reduction):
    """A recommendation list drawn before service allocation (CSE Rule 16(2); Ramesh Ram 2010): every post's
    vacancies as one cadre (`solver.selection.merged`), whose pools an engine fills. `invert` reads the
    recommendation off that cadre's result: each candidate's category and route."""

    name = "recommendation list"

    def accepts(self, data: Recruitment) -> str | None:
        policy, seats = data.policy, data.seats
        if seats.exchangeable:
            return ("carried vacancies open to exchange partners together with a recommendation list "
                    "(migration.selection_list) are not implemented")
        if data.state is not None and (seats.minimums or seats.carried_horizontal):
            return ("horizontal minimums with a recommendation list and a register are not implemented: the "
                    "register counts a compartment's horizontal seats, which the service allocation holds per post "
                    "as seats of their own (README)")
        return _horizontal_refusal(policy, seats) or _crossing_refusal(policy)

    def apply(self, data: Recruitment) -> Recruitment:
        problem, seats = merged(data.policy, data.problem, data.seats)
        return BuildPools().apply(replace(data, problem=problem, seats=seats, state=None))

    def invert(self, stage, data: Recruitment) -> Selection:
        """The recommendation, from the merged cadre's `Result`."""
        return Selection(np.where(stage.selected, stage.seat_category, ""),
                         np.array([stage.route(i) if stage.selected[i] else "" for i in range(data.problem.n)],
                                  dtype=object), stage)


def _horizontal_refusal(policy: Policy, seats: SeatTable) -> str | None:
    """What the two stages do not take together with horizontal minimums."""
    if seats.overall:
        return ("horizontal.mode = \"overall\" with a recommendation list is not implemented: services are "
                "allocated by preference, and overall minimums are refused with preferences (README, \"Overall "
                "horizontal minimums\"); use \"compartmentalised\"")
    if not seats.minimums:
        return None
    if policy.horizontal.multi_trait_counts_each:
        return ("horizontal.multi_trait_counts_each = true with a recommendation list is not implemented: services "
                "are allocated by preference, where it is refused (README)")
    traits = {t for (_, _, t), m in seats.minimums.items() if m > 0}
    if len(traits) > 1 and not traits <= set(SUBCATEGORIES):
        return (f"horizontal minimums for {', '.join(sorted(traits))} with a recommendation list are not "
                "implemented: a post's minimums are seats held for each trait's beneficiaries, and one appointee "
                "with two of the traits could take either; traits that cannot overlap are taken (one trait, or "
                "the PwBD sub-categories pwbd_a, pwbd_b, pwbd_c, pwbd_de)")
    return None


def _crossing_refusal(policy: Policy) -> str | None:
    if policy.unfilled.dereserve or policy.fallback or any(g.after_years == 0 for g in policy.exchange):
        return ("a recommendation list together with same-year exchange, fallback or de-reservation is not "
                "implemented (the allocation could not say which category a crossing appointee was recommended "
                "for); see the note on issue 5")
    return None


class AllocateServices(Reduction):
    """Services allocated among the recommended, merit-cum-preference, in phases
    (`solver.selection.allocation_pools`)."""

    name = "service allocation"

    def __init__(self, selection: Selection):
        self.selection = selection

    def apply(self, data: Recruitment) -> Recruitment:
        return replace(data, pools=allocation_pools(data.policy, data.problem, data.seats, self.selection))
