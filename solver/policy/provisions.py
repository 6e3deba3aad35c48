"""The policy's tables for the rest of the Acts, around the allocation itself: promotion, probation, district
shares, caste schedules, the surrender of employees, the recruitment year, the grounds of exemption, each
rule's authority, the exchanged community's claim, and the open questions the law leaves."""
from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, model_validator

from .base import Strict, _named


class PromotionShare(Strict):
    """A category reserved in promotion. `share`: "direct" for the direct-recruitment share (Bihar Act 1991
    s.4(2), second proviso: "in the same proportion"), a number as prescribed, or unset where the Act takes it
    from data the policy must be given (Manipur Act 1976 s.4(2)(b): the category's share of the lower grade
    on 1 April 1976). `cap`: the most it may be (Manipur s.4(2)(b): not above the population share)."""

    code: str
    share: float | Literal["direct"] | None = Field(None)
    cap: float | None = Field(None, ge=0, le=1)
    source: str = ""

    @model_validator(mode="after")
    def _share_range(self) -> "PromotionShare":
        if isinstance(self.share, float | int) and not 0 <= self.share <= 1:
            raise ValueError(f"promotion share of {self.code} must lie in [0, 1], not {self.share}")
        return self


class Promotion(Strict):
    """Reservation in promotion, which every Act makes differently from direct recruitment: fewer categories
    (Bihar s.4(2) second proviso, Bill 2004 s.3(2): SC and ST), its own roster (Bihar s.6: 50 points), and the
    method: by selection (merit-cum-seniority: an SC or ST officer selected on merit holds an unreserved
    vacancy, Bill 2004 s.5(2)) or by non-selection (seniority-cum-fitness: "not treated as made on the basis of
    merit", s.5(2) proviso, so an SC or ST officer promoted by seniority counts against a reserved vacancy)."""

    method: Literal["selection", "non_selection"] = "selection"
    categories: list[PromotionShare] = Field(min_length=1)
    roster_points: int | None = Field(None, ge=1)
    # The most a grade's direct recruitment may be for its promotions to be reserved, per method (Bill 2004
    # s.3(2): 75%; Manipur s.10: by selection, 50%); a method absent is reserved whatever the share. The share
    # is the `direct_share` of each post in vacancies.csv.
    direct_share_limit: dict[Literal["selection", "non_selection"], float] = {}
    # None: as `unfilled.dereserve`; false where reserved promotion vacancies go to SC and ST only (Bill 2004
    # s.11(2)).
    dereserve: bool | None = None
    # Post classes (vacancies.csv `post_class`) where SC/ST officers senior enough to be within the number of
    # vacancies are included in the select list unless unfit (Bill 2004 s.3(3): selection from one Group A post
    # to another up to Director's pay). Not modelled: such a post is refused (exit 3).
    senior_included_classes: list[str] = []
    # Per method, the promotions that are reserved, by the post's class (vacancies.csv `post_class`, its Group)
    # and the class it is filled from (`feeder_class`): "B" any promotion to a Group B post, "B->A" one from
    # Group B to Group A (Bill 2004 s.3(2)(b): by selection "from Group B post to Group A post or in Group B,
    # Group C or Group D posts"; (c): by non-selection in any Group). A post of a class named nowhere here is
    # not reserved (its vacancies open, outside the Act); a method absent, or a post without a class, is not
    # checked.
    reserved_classes: dict[Literal["selection", "non_selection"], list[str]] = {}
    source: str = ""

    def check_codes(self, known: set[str]) -> None:
        named = [p.code for p in self.categories]
        _named("promotion", named, known)
        if len(set(named)) != len(named):
            raise ValueError(f"promotion names a category twice: {named}")
        if any(not 0 <= v <= 1 for v in self.direct_share_limit.values()):
            raise ValueError("promotion.direct_share_limit values must lie in [0, 1]")


class Probation(Strict):
    """Manipur Act 1976 s.8(3), second proviso: "in the case of reserved vacancies in non technical and
    quasi-technical Class III and the Class IV posts the Scheduled Tribe and Scheduled Caste candidates who
    fulfil the prescribed educational qualification but have failed the prescribed test may be recruited on
    probation against the remaining reserved vacancies". Those candidates are `failed_test` = true in
    candidates.csv; the posts are those whose `post_class` in vacancies.csv is listed here. They take their own
    category's vacancies left after every other way of filling them (own category, exchange, fallback) and
    before de-reservation."""

    categories: list[str] = Field(min_length=1)
    post_classes: list[str] = Field(min_length=1)
    source: str = ""

    def check_codes(self, known: set[str]) -> None:
        _named("probation", self.categories, known)


class District(Strict):
    """A district's own percentages for its district-level posts (Bihar Act 1991 s.4(2), first proviso:
    "different percentage for different districts in accordance with the percentage of population ... in such
    districts"; Maharashtra Act 2001 s.4(2), first proviso (ii): "concerned district, in the case of district
    cadre posts", and its third proviso: the additional ST reservation kept in named districts for Groups C and
    D). `shares` replaces the State's share of each category it names; `post_classes`, where given, limits it
    to posts of those classes (vacancies.csv `post_class`, e.g. "C", "D")."""

    shares: dict[str, float]
    post_classes: list[str] | None = None
    source: str = ""

    def check_codes(self, known: set[str], name: str, categories) -> None:
        _named(f"districts.{name}", self.shares, known)
        if any(not 0 <= v <= 1 for v in self.shares.values()):
            raise ValueError(f"districts.{name}: each share must lie in [0, 1]")
        if sum(self.shares.get(c.code, c.share) for c in categories) > 1 + 1e-9:
            raise ValueError(f"districts.{name}: the shares add up to more than 1")


class CasteSchedules(Strict):
    """The schedules of backward classes a candidate's `caste` is read against (`solver.data.castes`): a CSV beside
    the policy file (Bihar Act 1991 Schedules I and II, s.2(j))."""

    file: str
    source: str = ""


class SurrenderRule(Strict):
    """Bill 2004 s.12: when posts of a cadre are abolished, no employee of a `protected` category is surrendered
    if that lowers the category's representation below its percentage (`solver.study.surrender`)."""

    protected: list[str] = Field(min_length=1)
    # What "lowering the representation ... in relation to percentage of reservation fixed for them" bounds, an
    # open question: "roster": each category keeps the posts the roster of the smaller cadre gives it (or all it
    # has); "percentage": its percentage of the remaining strength does not fall below its percentage now
    # (it keeps at least ceil(employees x (strength - abolished) / strength), or all it has).
    reading: Literal["roster", "percentage"] = "roster"
    source: str = ""

    def check_codes(self, known: set[str]) -> None:
        _named("surrender", self.protected, known)


class RecruitmentYear(Strict):
    """What a recruitment year is (Bill 2004 s.2(k), Bihar Act 1991 s.2(e): the calendar year; Manipur Act 1976
    s.2(b): "the financial year during which a recruitment is actually made", April to March) and when its
    annual report on appointments is due, where the Act says (Manipur s.13(1): "by the end of the month of July
    of the succeeding financial year"; `report_due` "31 July" of the year after)."""

    kind: Literal["calendar", "financial"] = "calendar"
    report_due: str = ""
    source: str = ""


class Side(Strict):
    """One answer to an open question: the option's value and the authority for it."""

    value: bool | str | float | int
    authority: str = Field(min_length=1)


class Ground(Strict):
    """One ground on which the Act does not apply, as a vacancies.csv `exempt` value names it (its `key`, e.g.
    "tenure", or words beginning with it: "tenure post")."""

    key: str = Field(min_length=1)
    text: str = ""      # the Act's words
    source: str = ""


class Exemptions(Strict):
    """The Act's grounds of exemption (Bill 2004 s.4; Manipur Act 1976 s.3; Bihar Act 1991 s.3(1)). A vacancies.csv
    `exempt` value must name one of them; where none are listed, any ground is taken as given."""

    grounds: list[Ground] = []
    source: str = ""

    def ground(self, value: str) -> Ground | None:
        """The ground `value` names: its key, or words beginning with it ("Work-charged posts (s.4(ii))" names
        `work charged`); case, hyphens and underscores aside, and anything from a bracket or colon on."""
        said = _words(re.split(r"[(:;,]", value, maxsplit=1)[0])
        for g in self.grounds:
            key = _words(g.key)
            if said == key or said.startswith(key + " "):
                return g
        return None


def _words(text: str) -> str:
    return " ".join(re.sub(r"[-_]", " ", text.lower()).split())


class Claims(Strict):
    """What the claim of a community whose vacancy an exchange partner filled takes in the next recruitment
    years (Manipur Act 1976 s.6: "the vacancies reserved for a particular community shall continue to be
    reserved for that community only for two recruitment years"; `exchange.claim_years`), an open question:
    the partner's next vacancy at the post ("partner_vacancy"), or one vacancy of that year reserved for it out
    of the open ones, as a carried reservation is, within the 50% of s.7 ("reserved_vacancy"). Either way the
    exchange stands from the third recruitment year."""

    take: Literal["partner_vacancy", "reserved_vacancy"] = "partner_vacancy"
    source: str = ""


class Authorities(Strict):
    """The policy's own authority for each rule `verify` checks, written in full ("Bihar Act 1991 s.4(3)"), so a
    violation cites the law in force and never another Act; a rule left empty cites its judgments only."""

    open_merit: str = ""      # a reserved candidate selected on merit counts against an open vacancy
    reserved_only: str = ""   # a reserved vacancy goes only to its own category
    creamy_layer: str = ""    # the creamy layer of a backward class holds no reserved vacancy
    exchange: str = ""        # unfilled reserved vacancies pass to the exchange partners
    fallback: str = ""        # unfilled vacancies go down a chain of categories
    dereserve: str = ""       # unfilled reserved vacancies go to general candidates
    carried: str = ""         # unfilled reserved vacancies carried to later recruitment years
    probation: str = ""       # appointment on probation of one who failed the test
    fitness: str = ""         # nobody found unfit is appointed
    special: str = ""         # a fresh recruitment from the reserved categories only, for the backlog


class OpenQuestion(Strict):
    """An option the law leaves open under this Act (RULES.md, "Options the policy must expose"), with the
    authority on each side. `aarakshan audit` solves every side (every combination, with the others) and
    lists whose outcome turns on it; `--reading KEY=V1,V2` adds a question or narrows a declared one."""

    key: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
    question: str = ""
    sides: list[Side] = Field(min_length=2)
    # What the option decides: an allocation (the audit solves its sides), who is called at a shortlisting stage
    # (`audit --stage shortlist` solves those), or a surrender of employees (the `surrender` command's; it
    # cannot change an allocation, so the audit leaves it out and says so).
    decides: Literal["allocation", "shortlist", "surrender"] = "allocation"
