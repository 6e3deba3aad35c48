"""The policy file schema: one declarative TOML file per rule set (SPEC.md, "Policy models").

Every model forbids unknown keys, so a misspelt option is an error naming the key instead of a silent
default. Field docs name the rule of ../shared/RULES.md they expose.
"""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Strict(BaseModel):
    # strict: no coercion (`--set ceiling.share=true` is an error, not 1.0; a whole number is still a number)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Eligibility(Strict):
    """Who may hold a category's vacancy besides its own members, e.g. Bihar WBC: women of SC, ST, EBC, BC."""

    categories: list[str]
    gender: list[Literal["M", "F", "T"]] | None = None


class Category(Strict):
    code: str
    share: float = Field(ge=0, le=1)
    source: str = ""
    # Creamy-layer members are removed from this category and compete as open (central Bill 2004 s.3(1)).
    creamy_layer_excluded: bool = False
    # When set, the category has no members of its own code; these people are eligible instead.
    eligible: Eligibility | None = None
    in_ceiling: bool = True
    # Never carried forward (EWS: OM 31.01.2019).
    carry_forward: bool = True


class Migration(Strict):
    """Open first (Indra Sawhney 1992; Saurav Yadav 2020) and its exceptions."""

    # DoPT OM 01.07.1998 / 04.04.2018; Deepa E.V. 2017: relaxed-standard candidates may not take open vacancies.
    relaxed_may_take_open: bool = True
    # CSE Rule 16(2); Ramesh Ram 2010.
    upgrade: bool = False
    upgraded_counts_as: Literal["open", "reserved"] = "reserved"
    # Recommendation list drawn before post allocation (UPSC practice).
    selection_list: bool = False
    # Recommended candidates with no vacancy at a post they ranked get remaining vacancies after everyone
    # else (UPSC practice); otherwise only those who could be placed at a ranked post are recommended.
    allocate_unranked: bool = False


def _named(what: str, names, known: set[str]) -> None:
    """A table's category names are all known (ValueError naming the unknown ones)."""
    bad = set(names) - known
    if bad:
        raise ValueError(f"{what} names unknown categories {sorted(bad)}")


class Exchange(Strict):
    """A group of categories whose unfilled vacancies pass to each other (Maharashtra s.4(3), Manipur)."""

    categories: list[str] = Field(min_length=2)
    after_years: int = Field(0, ge=0)
    # Recruitment years a community keeps its claim on a vacancy a partner filled by exchange: it takes the
    # partner's next vacancy at the post back, and in the year after these the exchange is settled (Manipur
    # s.6: "shall continue to be reserved for that community only for two recruitment years"). 0: no claim.
    claim_years: int = Field(0, ge=0)
    source: str = ""

    def check_codes(self, known: set[str]) -> None:
        _named("exchange", self.categories, known)
        if len(set(self.categories)) != len(self.categories):
            raise ValueError(f"exchange group {self.categories} names a category twice")


class Fallback(Strict):
    """An ordered chain: unfilled vacancies of `from_` go to `to[0]`, then `to[1]`, ... (Bihar WBC)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    from_: str = Field(alias="from")
    to: list[str] = Field(min_length=1)
    source: str = ""

    def check_codes(self, known: set[str]) -> None:
        _named("fallback", [self.from_, *self.to], known)
        if self.from_ in self.to or len(set(self.to)) != len(self.to):
            raise ValueError(f"fallback from {self.from_} to {self.to}: a chain may not name its own category or "
                             "one category twice")


class Unfilled(Strict):
    """What happens to reserved vacancies still unfilled after exchange and fallback."""

    # Fill them this year from the open list (states) or keep them vacant (centre since 1989).
    dereserve: bool = False
    # Which unfilled reserved vacancies are de-reserved: any of the year's ("same_year": Manipur s.7 read
    # alone), only carried ones still unfilled after the exchange their age opened ("after_exchange": Bihar
    # s.4(6)(d), "even after exchange formula the remaining backlog vacancies may be filled by general
    # candidates after de-reserving them"), or what the year's fresh recruitment from the reserved categories
    # leaves ("after_special_round": Manipur s.8(4)-(5): a fresh recruitment "only from candidates belonging to
    # the Scheduled Castes or the Scheduled Tribes", and what "remain unfilled shall be filled by general
    # candidates in accordance with the procedure laid down in sections 6 and 7"): the first round keeps them
    # vacant, the special round de-reserves its remainder. Either way the reservation is carried `carry_years`
    # recruitment years.
    dereserve_when: Literal["same_year", "after_exchange", "after_special_round"] = "same_year"
    # Years a reservation is carried; None keeps it as backlog indefinitely.
    carry_years: int | None = Field(None, ge=0)
    source: str = ""

    @property
    def in_first_round(self) -> bool:
        """Whether a year's first round de-reserves what its reserved categories leave (not where a fresh
        recruitment from the reserved categories comes first: "after_special_round")."""
        return self.dereserve and self.dereserve_when != "after_special_round"


class Ceiling(Strict):
    """Art. 16(4B); central Bill 2004 s.10; Manipur Act 1976: reserved share of a year's vacancies."""

    share: float = Field(0.5, ge=0, le=1)
    backlog_counts: bool = False
    # With backlog_counts false: the categories whose carried (backlog) vacancies the ceiling does not see;
    # None: every category the ceiling counts (Art. 16(4B); DoPT OM 20.07.2000). Bill 2004 s.10 proviso: SC, ST.
    backlog_excluded: list[str] | None = None
    excess: Literal["refuse", "carry_forward"] = "refuse"
    source: str = ""

    def check_codes(self, known: set[str]) -> None:
        if self.backlog_excluded is None:
            return
        _named("ceiling.backlog_excluded", self.backlog_excluded, known)
        if self.backlog_counts:
            raise ValueError("ceiling.backlog_excluded lists categories whose backlog the ceiling does not count, "
                             "but ceiling.backlog_counts = true counts every backlog; set one of them")


class Trait(Strict):
    # pwbd_a .. pwbd_de: the sub-categories of RPwD Act 2016 s.34(1), 1% each in central practice.
    name: Literal["women", "pwbd", "ex_serviceman", "pwbd_a", "pwbd_b", "pwbd_c", "pwbd_de"]
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


class Roster(Strict):
    """DoPT OM 02.07.1997; R.K. Sabharwal 1995."""

    points: int = Field(200, ge=1)
    # Simultaneous dues: the category most overdue relative to its share (n - held/share) first, which
    # reproduces the DoPT 200-point roster (ST 14, SC 15); or policy order; or the largest absolute deficit.
    tie: Literal["relative_deficit", "policy_order", "largest_deficit"] = "relative_deficit"
    small_cadre: Literal["l_shaped", "none"] = "l_shaped"
    # A year of only two vacancies at a cadre: the running roster's next two points ("roster"), or "carry_over"
    # (Manipur Act 1976 s.4(2)(a) proviso: "if there be only two vacancies, the roster points must be ensured
    # after taking into account the carry-over of the percentage of the preceding three recruitment years"):
    # category c gets floor(share x (the window's vacancies + 2)) less what it got in the window, the window
    # being the cadre's preceding `carry_over_years` recruitment years in the register.
    two_vacancies: Literal["roster", "carry_over"] = "roster"
    carry_over_years: int = Field(3, ge=1)
    source: str = ""


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
    """The schedules of backward classes a candidate's `caste` is read against (`solver.castes`): a CSV beside
    the policy file (Bihar Act 1991 Schedules I and II, s.2(j))."""

    file: str
    source: str = ""


class SurrenderRule(Strict):
    """Bill 2004 s.12: when posts of a cadre are abolished, no employee of a `protected` category is surrendered
    if that lowers the category's representation below its percentage (`solver.surrender`)."""

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
    # What the option decides: an allocation (the audit solves its sides) or a surrender of employees (the
    # `surrender` command's; it cannot change an allocation, so the audit leaves it out and says so).
    decides: Literal["allocation", "surrender"] = "allocation"


class Merit(Strict):
    tie_breaks: list[Literal["birth_date", "id"]] = ["birth_date", "id"]


class Policy(Strict):
    name: str
    source: str
    open: str = "UR"
    categories: list[Category]
    migration: Migration = Migration()
    exchange: list[Exchange] = []
    fallback: list[Fallback] = []
    unfilled: Unfilled = Unfilled()
    ceiling: Ceiling = Ceiling()
    horizontal: Horizontal = Horizontal()
    roster: Roster = Roster()
    merit: Merit = Merit()
    year: RecruitmentYear = RecruitmentYear()
    probation: Probation | None = None
    surrender: SurrenderRule | None = None
    districts: dict[str, District] = {}
    castes: CasteSchedules | None = None
    # The folder of the policy file, which `castes.file` is read from (set by `load_policy`).
    folder: str = Field("", exclude=True)
    # "promotion": the policy as `solver.policy.promotion.promotion_policy` derived it from `promotion`.
    recruitment: Literal["direct", "promotion"] = "direct"
    promotion: Promotion | None = None
    open_questions: list[OpenQuestion] = []
    authorities: Authorities = Authorities()
    claims: Claims = Claims()
    exemptions: Exemptions = Exemptions()

    @model_validator(mode="after")
    def _codes_known(self) -> "Policy":
        """Every category a table names is one of the policy's; each table checks its own (`check_codes`)."""
        codes = [c.code for c in self.categories]
        if self.open in codes:
            raise ValueError(f"open category {self.open!r} must not also be listed as reserved")
        if len(set(codes)) != len(codes):
            raise ValueError(f"duplicate category codes in {codes}")
        known = set(codes)
        members = {c.code for c in self.categories if c.eligible is None} | {self.open}
        for c in self.categories:
            if c.eligible:
                _named(f"category {c.code}: eligible", c.eligible.categories, members)
        tables = [*self.exchange, *self.fallback, self.ceiling, self.promotion, self.surrender, self.probation]
        for table in tables:
            if table is not None:
                table.check_codes(known)
        for f in self.fallback:
            if any(f.from_ in g.categories and g.after_years == 0 for g in self.exchange):
                # Which vacancies an exchange pool took from which category would be ambiguous.
                raise ValueError(f"fallback from {f.from_}: a category with a fallback chain may not also be in a "
                                 "same-year exchange group")
        for name, d in self.districts.items():
            d.check_codes(known, name, self.categories)
        if sum(c.share for c in self.categories) > 1 + 1e-9:
            raise ValueError("category shares add up to more than 1")
        return self

    @model_validator(mode="after")
    def _questions_distinct(self) -> "Policy":
        keys = [q.key for q in self.open_questions]
        if len(set(keys)) != len(keys):
            raise ValueError(f"open_questions names an option twice: {keys}")
        for q in self.open_questions:
            values = [s.value for s in q.sides]
            if len({(type(v), v) for v in values}) != len(values):
                raise ValueError(f"open_questions {q.key}: a side is given twice: {values}")
        return self

    # Derived views used throughout the chain; kept here so every stage reads the same answer.
    @property
    def reserved_codes(self) -> list[str]:
        return [c.code for c in self.categories]

    @property
    def compartment_order(self) -> list[str]:
        """The compartments of a post in the order a candidate who may hold several takes them: open first
        (Indra Sawhney 1992; Saurav Yadav 2020; Bill 2004 s.5(2)), then own categories, then those of extra
        eligibility (Bihar's WBC). In promotion by non-selection the reserved compartments come before open:
        seniority is "not ... merit" (Bill 2004 s.5(2) proviso), so an SC or ST officer promoted by seniority
        is adjusted against a reserved vacancy, and only those beyond the reserved vacancies compete for open."""
        own = [c.code for c in self.categories if c.eligible is None]
        extra = [c.code for c in self.categories if c.eligible is not None]
        if self.seniority_counts_against_reserved:
            first = [code for code in own if code in {p.code for p in self.promotion.categories}]
            return first + [self.open] + [code for code in own if code not in first] + extra
        return [self.open] + own + extra

    @property
    def seniority_counts_against_reserved(self) -> bool:
        return self.recruitment == "promotion" and self.promotion is not None and \
            self.promotion.method == "non_selection"

    @property
    def member_codes(self) -> list[str]:
        """Codes a candidate may carry in candidates.csv."""
        return [self.open] + [c.code for c in self.categories if c.eligible is None]

    def creamy_layer_codes(self, code: str) -> list[str]:
        """Own codes whose creamy layer a vacancy of `code` turns away (none unless it excludes the creamy
        layer). The creamy layer is a test of backward classes only (Indra Sawhney 1992; Maharashtra Act 2001
        s.4(2), second proviso), so a category open to others (Bihar's WBC: women of SC, ST, EBC and BC)
        removes only members of categories that themselves exclude it: an EBC or BC woman, never an SC or ST
        one."""
        cat = self.category(code)
        if not cat.creamy_layer_excluded:
            return []
        if cat.eligible is None:
            return [code]
        return [x for x in cat.eligible.categories if x != self.open and self.category(x).creamy_layer_excluded]

    def exchange_source(self, code: str) -> str:
        return next((g.source for g in self.exchange if code in g.categories and g.source), "exchange")

    def backlog_outside_ceiling(self, code: str) -> bool:
        """Whether carried vacancies of `code` stand outside the year's ceiling (Art. 16(4B); Bill 2004 s.10
        proviso: the SC and ST backlog only)."""
        c = self.ceiling
        return not c.backlog_counts and self.category(code).in_ceiling and \
            (c.backlog_excluded is None or code in c.backlog_excluded)

    def for_row(self, district: str, post_class: str = "") -> "Policy":
        """The policy whose shares split a district-level row's vacancies: the district's own where the policy
        gives them (`districts`) for the post's class, the State's otherwise."""
        d = self.districts.get(district) if district else None
        if d is None or (d.post_classes is not None and post_class not in d.post_classes):
            return self
        cats = [c.model_copy(update={"share": d.shares[c.code], "source": d.source or c.source})
                if c.code in d.shares else c for c in self.categories]
        return self.model_copy(update={"categories": cats})

    def category(self, code: str) -> Category:
        for c in self.categories:
            if c.code == code:
                return c
        raise KeyError(code)
