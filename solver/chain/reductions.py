"""The chain of reductions from a recruitment to the seat pools an engine fills, and back: each stage an object
with `accepts`, `apply` and `invert`, and `Chain` a sequence of them that is itself a reduction (after cvxpy's
`Reduction` and `Chain`).

    policy + inputs --BarAppointedPosts, KeepToCalls--> each candidate's posts open to him
        --DerivePromotion--> policy --DetermineVacancies--> seats          (DETERMINE)
        --PlaceOverallMinimums--> seats --BuildPools--> pools                          (SINGLE_CADRE)
        or --DrawRecommendationList--> the list as one cadre --BuildPools--> pools     (RECOMMENDATION_LIST)
           --(engine)--> invert: Selection --AllocateServices--> pools of the service allocation
    pools --(engine: greedy | CP-SAT)--> Answer --invert--> Result --> verify --> reports

`accepts` returns why a stage refuses its input (a combination of rules not implemented), or None: the
refusals that can be told before a stage runs are all here, each with its reason (exit 3). A few depend on
what the stage computes and are raised while it applies (a roster the cadre cannot give:
`solver.chain.vacancy.determine.check_cadre`; a model too big for the machine: `solver.chain.engines.cpsat.size`), and
the engines' own limits are `solver.chain.engines.support`.

`apply` returns the next stage's input and the inverse data; `invert` maps the next stage's answer back into
the terms of this one. The pools' inverse turns an engine's `Answer` into a `Result` (the law's terms); the
recommendation list's turns the merged cadre's `Result` into the `Selection` of each candidate; the other
stages keep the candidates and posts as they are, so their inverse is the identity.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..exam.appointed import appointed_posts, bar_appointed
from ..exam.called import kept_to_calls, restricted
from .compartment import held_vacancies
from .engines import Assignment
from ..errors import Unsupported
from ..data.kinds import Recruitment
from .overall import PREFERENCES, distribute
from ..policy import Policy
from ..policy.promotion import promotion_policy
from .pools import Pools, build_pools
from ..data.problem import SUBCATEGORIES, Problem
from ..outcome.result import Result
from .selection import Selection, allocation_pools, merged
from .vacancy import SeatTable, YearState, determine_seats


@dataclass(frozen=True)
class StageData:
    """What passes between the stages: the inputs, and what the stages so far made of them."""

    policy: Policy
    problem: Problem
    state: YearState | None = None       # the register's view before the year, if any
    seats: SeatTable | None = None       # after vacancy determination
    pools: Pools | None = None           # after the pools are built
    # an earlier solve's lists over more candidates (`solver.chain.pools.reuse`), and where this one's candidates
    # sit among theirs: the preference lists are read off those where the pools are alike (`Pools.take_lists`)
    earlier: tuple | None = None


@dataclass(frozen=True)
class Answer:
    """An engine's answer for the pools it filled, and the engine's name (the `Result`'s label)."""

    assignment: Assignment
    engine: str


class Reduction:
    """A stage of the chain: `apply` gives the next stage's input and the inverse data `invert` needs to carry
    the next stage's answer back into this stage's terms."""

    name = ""

    def accepts(self, data: StageData) -> str | None:
        """Why the stage refuses `data`, or None when it takes it."""
        return None

    def apply(self, data: StageData) -> tuple[StageData, object]:
        """The next stage's input and the inverse data."""
        raise NotImplementedError

    def invert(self, answer, inverse):
        """The next stage's answer in this stage's terms: unchanged unless the stage changed the problem."""
        return answer

    def __call__(self, data: StageData) -> tuple[StageData, object]:
        """`apply`, after `accepts` (a refusal raises Unsupported with its reason)."""
        reason = self.accepts(data)
        if reason is not None:
            raise Unsupported(reason)
        return self.apply(data)


class Chain(Reduction):
    """Reductions applied in order, itself a reduction (after cvxpy's `Chain`): `apply` runs each stage on the
    one before's output (each checked by its `accepts`) and keeps every stage's inverse data; `invert` walks
    them back in reverse.

    Example
    -------
    >>> [r.name for r in DIRECT.reductions]
    ['upgrade only', "the shortlist's lists", 'promotion', 'vacancy determination', 'overall horizontal minimums', 'seat pools']
    """

    name = "chain"

    def __init__(self, reductions):
        self.reductions = tuple(reductions)

    def accepts(self, data: StageData) -> str | None:
        return self.reductions[0].accepts(data) if self.reductions else None

    def apply(self, data: StageData) -> tuple[StageData, list]:
        inverse = []
        for stage in self.reductions:
            data, inv = stage(data)
            inverse.append(inv)
        return data, inverse

    def invert(self, answer, inverse):
        for stage, inv in zip(reversed(self.reductions), reversed(inverse)):
            answer = stage.invert(answer, inv)
        return answer

    def __add__(self, other: "Chain") -> "Chain":
        return Chain([*self.reductions, *other.reductions])


class BarAppointedPosts(Reduction):
    """The upgrade-only rule (`solver.exam.appointed`): a candidate who holds a post already is offered only posts he
    ranks above it. The candidates and posts are unchanged, so the inverse is the identity."""

    name = "upgrade only"

    def accepts(self, data: StageData) -> str | None:
        m = data.policy.migration
        if m.selection_list and m.allocate_unranked and (appointed_posts(data.problem) >= 0).any():
            return ("the appointed column with migration.allocate_unranked = true is not implemented: the recommended "
                    "without a ranked service would be given posts the upgrade-only rule bars; set it to false")
        return None

    def apply(self, data: StageData) -> tuple[StageData, None]:
        return replace(data, problem=bar_appointed(data.problem)), None


class KeepToCalls(Reduction):
    """A shortlist's lists called apart (`solver.exam.called`): a candidate called in some of them only is offered
    only their posts. The candidates and posts are unchanged, so the inverse is the identity."""

    name = "the shortlist's lists"

    def accepts(self, data: StageData) -> str | None:
        m = data.policy.migration
        if m.selection_list and m.allocate_unranked and restricted(data.problem).any():
            return ("a shortlist of lists called apart with migration.allocate_unranked = true is not implemented: "
                    "the recommended without a ranked service would be given posts of lists they were not called "
                    "in; set it to false")
        return None

    def apply(self, data: StageData) -> tuple[StageData, None]:
        return replace(data, problem=kept_to_calls(data.policy, data.problem)), None


class DerivePromotion(Reduction):
    """A promotion's policy (`solver.policy.promotion.promotion_policy`: its categories, shares, roster and
    de-reservation) in place of the policy given; a direct recruitment passes unchanged. Idempotent, so a policy
    `load_policy` already derived passes through as it is."""

    name = "promotion"

    def apply(self, data: StageData) -> tuple[StageData, None]:
        if data.policy.recruitment != Recruitment.PROMOTION:
            return data, None
        return replace(data, policy=promotion_policy(data.policy)), None


class DetermineVacancies(Reduction):
    """Stage 1: TOTAL rows split by the running roster (DoPT OM 02.07.1997), carried vacancies joined from the
    register, the ceiling applied (Art. 16(4B)): `solver.chain.vacancy.determine_seats`."""

    name = "vacancy determination"

    def apply(self, data: StageData) -> tuple[StageData, None]:
        # (no inverse data: the seats are the problem's own, the candidates and posts unchanged)
        return replace(data, seats=determine_seats(data.policy, data.problem, state=data.state)), None


class PlaceOverallMinimums(Reduction):
    """Overall horizontal minimums (Anil Kumar Gupta 1995, para 18) turned into compartment minimums:
    `solver.chain.overall.distribute`."""

    name = "overall horizontal minimums"

    def accepts(self, data: StageData) -> str | None:
        if data.seats.overall and data.problem.preferences is not None:
            return PREFERENCES
        if data.seats.overall and any(data.problem.post_lists):
            return ("horizontal.mode = \"overall\" with several merit lists is not built: a post's minimums are "
                    "placed down one merit order (Anil Kumar Gupta 1995, para 18), where its compartments rank by "
                    "lists of their own")
        return None

    def apply(self, data: StageData) -> tuple[StageData, None]:
        return replace(data, seats=distribute(data.policy, data.problem, data.seats)), None


class BuildPools(Reduction):
    """Stage 2: the seat pools in phases (`solver.chain.pools.build_pools`). `invert` reads an engine's `Answer` back
    in the law's terms, a `Result`: each appointee's seat, counted-as category and route, every vacancy's
    disposition (`solver.outcome.result`)."""

    name = "seat pools"

    def apply(self, data: StageData) -> tuple[StageData, StageData]:
        pools = build_pools(data.policy, data.problem, data.seats)
        if data.earlier is not None:
            pools.take_lists(*data.earlier)
        out = replace(data, pools=pools)
        return out, out

    def invert(self, answer: Answer, inverse: StageData) -> Result:
        return Result(inverse.policy, inverse.problem, inverse.seats, inverse.pools, answer.assignment, answer.engine)


class DrawRecommendationList(Reduction):
    """A recommendation list drawn before service allocation (CSE Rule 16(2); Ramesh Ram 2010): every post's
    vacancies as one cadre (`solver.chain.selection.merged`), whose pools an engine fills. `invert` reads the
    recommendation off that cadre's result: each candidate's category and route."""

    name = "recommendation list"

    def accepts(self, data: StageData) -> str | None:
        policy, seats = data.policy, data.seats
        if seats.exchangeable:
            return ("carried vacancies open to exchange partners together with a recommendation list "
                    "(migration.selection_list) are not implemented")
        if data.state is not None and (seats.minimums or seats.carried_horizontal):
            return ("horizontal minimums with a recommendation list and a register are not implemented: the "
                    "register counts a compartment's horizontal seats, which the service allocation holds per post "
                    "as seats of their own (docs/pipeline.md)")
        return _horizontal_refusal(policy, seats) or _crossing_refusal(policy)

    def apply(self, data: StageData) -> tuple[StageData, int]:
        problem, seats = merged(data.policy, data.problem, data.seats)
        return replace(data, problem=problem, seats=seats, state=None, earlier=None), data.problem.n

    def invert(self, stage: Result, n: int) -> Selection:
        """The recommendation, from the merged cadre's `Result`."""
        kept: dict[str, int] = {}
        for p, v in zip(stage.pools.pools, held_vacancies(stage.pools, stage.assignment.pool).tolist()):
            if v:
                kept[p.category] = kept.get(p.category, 0) + v
        return Selection(np.where(stage.selected, stage.seat_category, ""),
                         np.array([stage.route(i) if stage.selected[i] else "" for i in range(n)], dtype=object),
                         stage, kept)


def _horizontal_refusal(policy: Policy, seats: SeatTable) -> str | None:
    """What the two stages do not take together with horizontal minimums."""
    if seats.overall:
        return ("horizontal.mode = \"overall\" with a recommendation list is not implemented: services are "
                "allocated by preference, and overall minimums are refused with preferences "
                "(docs/horizontal.md); use \"compartmentalised\"")
    if not seats.minimums:
        return None
    if policy.horizontal.multi_trait_counts_each:
        return ("horizontal.multi_trait_counts_each = true with a recommendation list is not implemented: services "
                "are allocated by preference, where it is refused (docs/horizontal.md)")
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
                "for)")
    return None


class AllocateServices(BuildPools):
    """Services allocated among the recommended, merit-cum-preference, in phases
    (`solver.chain.selection.allocation_pools`); `invert` as the seat pools' (the `Result` reads the recommendation
    off `pools.selection`)."""

    name = "service allocation"

    def __init__(self, selection: Selection):
        self.selection = selection

    def apply(self, data: StageData) -> tuple[StageData, StageData]:
        out = replace(data, pools=allocation_pools(data.policy, data.problem, data.seats, self.selection))
        return out, out


# The chains `solve` and the audit run: the year's seats, then the pools of a single cadre, or the
# recommendation list's merged cadre (its answer inverted into a `Selection`, which `AllocateServices` takes).
DETERMINE = Chain([BarAppointedPosts(), KeepToCalls(), DerivePromotion(), DetermineVacancies()])
SINGLE_CADRE = Chain([PlaceOverallMinimums(), BuildPools()])
RECOMMENDATION_LIST = Chain([DrawRecommendationList(), BuildPools()])
DIRECT = DETERMINE + SINGLE_CADRE
