"""What the engines take: pool combinations neither engine solves are refused here, once, with the reason."""
from __future__ import annotations

from ...errors import Unsupported
from ..pools import Pools


COUNTS_EACH_WITH_PREFERENCES = (
    "horizontal.multi_trait_counts_each = true with a preferences file is refused: a compartment's best set, "
    "each appointee counting for every trait they have, is not substitutable (two seats, minimums women 1 and "
    "pwbd 1, merit a (neither) > b (woman) > c (pwbd) > d (both): from a, b, c, d it takes a and d, from a, b, c "
    "it takes b and c, dropping a when d leaves), so candidates proposing down their lists need not reach a "
    "stable allocation. Without preferences posts are filled in turn and the rule is well defined.")


def check_supported(pools: Pools) -> None:
    for p in pools:
        if p.minimums and pools.shared:
            # The service allocation holds a post's minimums as seats of their own (solver.chain.selection).
            raise Unsupported("a compartment's minimum guarantee among pools that share a bound is not implemented")
        if p.counts_each and not pools.merit_only:
            raise Unsupported(COUNTS_EACH_WITH_PREFERENCES)
