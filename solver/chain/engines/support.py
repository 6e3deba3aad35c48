"""What the engines take: pool combinations neither engine solves are refused here, once, with the reason."""
from __future__ import annotations

from ...data.problem import SUBCATEGORIES
from ...errors import Unsupported
from ..pools import Pools


COUNTS_EACH_WITH_PREFERENCES = (
    "horizontal.multi_trait_counts_each = true with a preferences file is refused: a compartment's best set, "
    "each appointee counting for every trait they have, is not substitutable (two seats, minimums women 1 and "
    "pwbd 1, merit a (neither) > b (woman) > c (pwbd) > d (both): from a, b, c, d it takes a and d, from a, b, c "
    "it takes b and c, dropping a when d leaves), so candidates proposing down their lists need not reach a "
    "stable allocation. Without preferences posts are filled in turn and the rule is well defined.")


def check_supported(pools: Pools) -> None:
    if pools.several_lists:
        several_lists_supported(pools)
    for p in pools:
        if p.minimums and pools.shared:
            # The service allocation holds a post's minimums as seats of their own (solver.chain.selection).
            raise Unsupported("a compartment's minimum guarantee among pools that share a bound is not implemented")
        if p.counts_each and not pools.merit_only:
            raise Unsupported(COUNTS_EACH_WITH_PREFERENCES)
        if len(p.held) > 1 and not set(p.held) <= set(SUBCATEGORIES):
            raise Unsupported(f"horizontal.held with two held minimums in one compartment ({', '.join(p.held)}) that "
                              "one candidate may count for both is not implemented: she would free two held seats "
                              "by taking one, so a beneficiary's arrival could bring in another candidate and "
                              "deferred acceptance need not be stable (docs/horizontal.md); the PwBD sub-categories "
                              "pwbd_a, pwbd_b, pwbd_c, pwbd_de cannot overlap and are taken together")
        if p.held and sum(p.minimums.values()) > p.base:
            raise Unsupported(f"horizontal.held with minimums ({', '.join(f'{t} {m}' for t, m in p.minimums.items())}) "
                              f"that add up to more than the compartment's {p.base} seats is not implemented: which "
                              "held seat an appointee of two traits leaves vacant is not settled (docs/horizontal.md); "
                              "lower a minimum in vacancies.csv, or leave the trait out of the policy's horizontal.held")
        if p.counts_each and p.held:
            raise Unsupported("horizontal.held with horizontal.multi_trait_counts_each = true is not implemented: "
                              "the best set, each appointee counting for every trait, is defined over the whole "
                              "capacity (docs/horizontal.md); leave one of them unset")


def several_lists_supported(pools: Pools) -> None:
    """Several merit lists are solved (deferred acceptance, each pool choosing by its post's list, under a
    compartment's horizontal minimums by the minimum guarantee on that list) where every pool is an own
    compartment filled in one phase: the same year's exchange, fallback and de-reservation and a recommendation
    list's shared bounds each read the one merit order, and are refused with several lists until they are built
    (overall minimums too: `solver.chain.reductions.PlaceOverallMinimums`)."""
    from ...data.routes import Phase
    if pools.shared or pools.selection is not None:
        raise Unsupported("several merit lists with a recommendation list (migration.selection_list) are not built "
                          "yet: its list is drawn on one merit order")
    if any(p.phase != Phase.OWN or p.carried for p in pools):
        raise Unsupported("several merit lists where unfilled reserved vacancies pass the same year (exchange, "
                          "fallback, de-reservation) or carried vacancies are filled are not built yet")
