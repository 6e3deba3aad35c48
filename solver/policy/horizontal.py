"""The horizontal minimums of a policy (`[horizontal]`): the women's, PwBD and ex-servicemen's minimums inside
each vertical compartment or over a post, and what becomes of a seat nobody eligible fills."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from .base import Strict
from .stages import TRAIT


class Trait(Strict):
    # pwbd_a .. pwbd_de: the sub-categories of RPwD Act 2016 s.34(1), 1% each in central practice.
    name: TRAIT
    share: float = Field(0.0, ge=0, le=1)


class Horizontal(Strict):
    """Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007; Saurav Yadav 2020.

    A trait's `share` sets the minimum of every vertical compartment (post x category) that vacancies.csv
    leaves without one: `rounding` of share x vacancies."""

    mode: Literal["compartmentalised", "overall"] = "compartmentalised"
    rounding: Literal["round", "floor", "ceil"] = "round"
    open_compartment_for_all: bool = True
    multi_trait_counts_each: bool = False
    # An unfilled horizontal seat reverts to the compartment this year; with "carry_forward" the register
    # also carries it `carry_years` years, a PwBD sub-category's seat then open to every sub-category
    # (OM 15.01.2018: interchange in the subsequent recruitment year, then anyone).
    unfilled: Literal["revert", "carry_forward"] = "revert"
    carry_years: int = Field(1, ge=0)
    traits: list[Trait] = []
    # Traits whose seats nobody eligible fills stay vacant and are carried `carry_years` years, the next year
    # open to every PwBD sub-category, then to anyone (PwD Act 1995 s.36; RPwD Act 2016 s.34(2) as
    # summarised: docs/horizontal.md). `unfilled` applies to the other traits.
    held: list[TRAIT] = []
    held_source: str = "PwD Act 1995 s.36; RPwD Act 2016 s.34(2) as summarised"

    @model_validator(mode="after")
    def _held(self) -> "Horizontal":
        if len(set(self.held)) != len(self.held) or (self.held and self.carry_years == 0):
            raise ValueError(f"horizontal.held = {self.held}: a trait named twice, or carry_years = 0 where a held "
                             "seat is kept vacant to be carried (set carry_years to 1 or more)")
        return self
