"""The policy's table of seat pools (`[seat_pools]`): which pools of a program a candidate may hold and the order a
choice's pools are tried in, as data (the engines know no pool type).

A program's seats are split along several dimensions besides the category: a quota by home state, a gender pool,
and seats held for a trait (PwD). Each combination of those is a pool of its own with its categories inside it
(`solver.data.seat_pools`); a candidate who ranks the program ranks, in its place, the pools she may hold in
the order `order` gives, and within each pool the categories as everywhere else (open before her own).
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from .base import Strict

DIMENSIONS = ("quota", "gender_pool", "trait")
GENDER_POOLS = ("neutral", "female")


class Quota(Strict):
    """Who may hold a quota's seats: everyone (`all`), those whose home state is the program's `state` (`home`),
    or those whose home state is another, or not given (`other`)."""

    holders: Literal["all", "home", "other"]
    source: str = ""


class Conversion(Strict):
    """Seats a round left unfilled, made others' for the next round: a category's (`category` -> `to`, e.g.
    OBC-NCL -> OPEN at the same pool), those held for a trait (`trait`: to the same program's pool without it,
    same quota, gender pool and category: PwD seats to non-PwD ones), or a quota's (`quota` -> `to`: to the
    same program's pool of that quota, same gender pool, trait and category: Home State seats to Other State
    ones)."""

    category: str = ""
    to: str = ""
    trait: str = ""
    quota: str = ""
    source: str = ""

    @model_validator(mode="after")
    def _one_kind(self) -> "Conversion":
        if [bool(self.category), bool(self.trait), bool(self.quota)].count(True) != 1 or \
                bool(self.to) == bool(self.trait):
            raise ValueError("a seat_pools conversion gives either category and to, quota and to, or trait")
        return self

    def describe(self) -> str:
        """What it converts, in words (the policy's description, `solver.policy.describe`)."""
        if self.trait:
            return f"seats for {self.trait} to the same seats without it"
        return f"{self.category} to {self.to}" if self.category else f"{self.quota} seats to {self.to} seats"


class SeatPools(Strict):
    """The order of a choice's pools (`order`: dimensions, the outermost first; within a dimension, quotas in the
    order `quotas` lists them, `neutral` before `female`, seats for no trait before those for one), and who may
    hold each quota (`quotas`). The defaults keep every existing input's meaning: one quota, `AI`, for all.

    Example
    -------
    >>> SeatPools().rank(quota="AI", gender_pool="female", trait="")
    (0, 1, 0)
    >>> SeatPools(order=["trait", "gender_pool", "quota"]).rank(quota="AI", gender_pool="female", trait="pwbd")
    (1, 1, 0)
    """

    order: list[Literal["quota", "gender_pool", "trait"]] = Field(default_factory=lambda: list(DIMENSIONS))
    quotas: dict[str, Quota] = Field(default_factory=lambda: {"AI": Quota(holders="all")})
    # Made between rounds, in this order, where the sliding round offers the seats a round left
    # (`slide.unfilled_offered`).
    conversions: list[Conversion] = []
    source: str = ("JoSAA Business Rules, \"Division of seats into program-sections\" and \"Sequence in which seat "
                   "categories are considered for seat allocation\" (the headings were read, not the sections' "
                   "text: the order is as the issue and RULES.md summarise it, a female candidate tried for "
                   "gender-neutral seats before female-only ones, open seats before her category's, PwD seats "
                   "after those)")

    @model_validator(mode="after")
    def _each_dimension_once(self) -> "SeatPools":
        if sorted(self.order) != sorted(DIMENSIONS):
            raise ValueError(f"seat_pools.order must name each of {', '.join(DIMENSIONS)} once, got {self.order}")
        if not self.quotas:
            raise ValueError("seat_pools.quotas names no quota")
        for c in self.conversions:
            if c.quota and not {c.quota, c.to} <= set(self.quotas):
                raise ValueError(f"seat_pools.conversions: {c.quota} to {c.to} names a quota seat_pools.quotas does "
                                 f"not (its quotas: {', '.join(self.quotas)})")
        return self

    def rank(self, quota: str, gender_pool: str, trait: str) -> tuple[int, ...]:
        """The place of a pool among a program's pools, as a sort key (smaller is tried first)."""
        place = {"quota": list(self.quotas).index(quota), "gender_pool": GENDER_POOLS.index(gender_pool),
                 "trait": 0 if not trait else 1}
        return tuple(place[d] for d in self.order)
