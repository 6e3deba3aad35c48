"""The policy file schema: one declarative TOML file per rule set (SPEC.md, "Policy models").

Every model forbids unknown keys, so a misspelt option is an error naming the key instead of a silent
default. Field docs name the rule of ../shared/RULES.md they expose.
"""
from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from .base import Strict, _named
from .provisions import (Authorities, CasteSchedules, Claims, District, Exemptions, OpenQuestion, Probation,
                         Promotion, RecruitmentYear, SurrenderRule)
from .counselling import SeatPools
from .horizontal import Horizontal
from .stages import CadreRule, ReserveListRule, ShortlistRule, SlideRule


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


RELAXATION = Literal["age", "attempts", "fee", "qualifying", "standard"]


class RelaxationBars(Strict):
    """Which relaxations a reserved candidate availed keep him off the open list, at the final list and at a
    shortlisting stage (candidates.csv `relaxed`: the kinds availed; a plain true is "standard"). Union of
    India v. Sajib Roy, 2025 INSC 1084 (9 September 2025): where the recruitment rules or the notification bar
    it (DoPT OM 01.07.1998: relaxed age, experience, qualification, chances), one who availed the relaxation may
    not migrate; where they do not, one who scored above the last unreserved candidate may. A relaxation in a
    qualifying criterion bears on eligibility, not merit (the Maharashtra TET/TAIT teachers' case, Narasimha
    and Aradhe JJ.). An embargo of a recruitment's own rules is an override of these lists."""

    final: list[RELAXATION] = ["standard"]
    shortlist: list[RELAXATION] = ["standard"]
    source: str = ""


class Migration(Strict):
    """Open first (Indra Sawhney 1992; Saurav Yadav 2020) and its exceptions."""

    # DoPT OM 01.07.1998 / 04.04.2018; Deepa E.V. 2017: a relaxed candidate may not take open vacancies (false),
    # the relaxations that bar being `bars_open`'s; true: none bars.
    relaxed_may_take_open: bool = True
    bars_open: RelaxationBars = RelaxationBars()
    # CSE Rule 16(2); Ramesh Ram 2010.
    upgrade: bool = False
    upgraded_counts_as: Literal["open", "reserved"] = "reserved"
    # Recommendation list drawn before post allocation (UPSC practice).
    selection_list: bool = False
    # Recommended candidates with no vacancy at a post they ranked get remaining vacancies after everyone
    # else (UPSC practice); otherwise only those who could be placed at a ranked post are recommended.
    allocate_unranked: bool = False


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
    # A post whose year's vacancies a TOTAL row's running roster splits: "counted", the year's window of the
    # roster is held to the share like any year's vacancies (Art. 16(4B): the ceiling is on "the vacancies of
    # that year"; Indra Sawhney 1992); "roster_governs", the roster's own points decide, the share kept over
    # the cadre's cycle of posts, not in each year's window of it (R.K. Sabharwal 1995; DoPT OM 02.07.1997).
    # An open question where the models declare it.
    roster_window: Literal["counted", "roster_governs"] = "counted"
    source: str = ""

    def check_codes(self, known: set[str]) -> None:
        if self.backlog_excluded is None:
            return
        _named("ceiling.backlog_excluded", self.backlog_excluded, known)
        if self.backlog_counts:
            raise ValueError("ceiling.backlog_excluded lists categories whose backlog the ceiling does not count, "
                             "but ceiling.backlog_counts = true counts every backlog; set one of them")


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


# A tie-break of equal final scores, in order: "birth_date" (the older first), "name" (alphabetical order, as
# the SSC's notices put it), "id" (no rule of law: what is left to it the audit calls contested), or stage
# scores, "STAGE" or "STAGE+STAGE" (more marks first: each a candidates.csv column score_STAGE, which
# `aarakshan merit` writes for every stage it is given).
TIE_BREAK = r"^(birth_date|name|id|[a-z][a-z0-9_]*(\+[a-z][a-z0-9_]*)*)$"


class Merit(Strict):
    tie_breaks: list[str] = Field(["birth_date", "id"], min_length=1)
    tie_breaks_source: str = ""
    # The examination stages whose scores the final order of merit adds (`solver.exam.merit`): empty, every stage
    # given. CSE: the main examination (written) and the interview; the preliminary marks are "not counted for
    # determining their final order of merit" (CSE Rules, Plan of Examination, as quoted on secondary pages).
    stages: list[str] = []
    stages_source: str = ""
    # The list (of a ranks file) that ranks a post's applicants where vacancies.csv's `merit_list` is empty: post
    # (or program) as vacancies.csv names it -> list. SSC CGL: JSO and Statistical Investigator on Tier-II Paper-II.
    post_lists: dict[str, str] = {}
    post_lists_source: str = ""
    # Candidates of equal rank on a ranks file's list: refused as input ("refuse"), or of the same rank, every one
    # of them tied at a pool's last seat admitted on a supernumerary seat ("supernumerary": JoSAA's "Multiple
    # student - same rank rule", built in deferred acceptance).
    same_rank: Literal["refuse", "supernumerary"] = "refuse"
    same_rank_source: str = ""

    @model_validator(mode="after")
    def _tie_breaks(self):
        import re
        words = {"birth_date", "name", "id"}
        for key in self.tie_breaks:
            if not re.match(TIE_BREAK, key) or (key not in words and words & set(key.split("+"))):
                raise ValueError(f"merit.tie_breaks: {key!r} is not birth_date, name, id or stage scores "
                                 "(STAGE or STAGE+STAGE, lower case)")
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise ValueError(f"merit.tie_breaks names a break twice: {self.tie_breaks}")
        return self

    def stage_columns(self) -> list[str]:
        """The candidates.csv columns the stage-score tie-breaks read (score_STAGE)."""
        return [f"score_{s}" for key in self.tie_breaks if key not in ("birth_date", "name", "id")
                for s in key.split("+")]


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
    # Where the policy came from (set by `load_policy`): the model file, and for a policy read back from a run's
    # summary.json that run's own lineage, so that a reform reproduced from its outputs keeps its identity.
    lineage: dict = Field(default_factory=dict, exclude=True)
    # "promotion": the policy as `solver.policy.promotion.promotion_policy` derived it from `promotion`.
    recruitment: Literal["direct", "promotion"] = "direct"
    promotion: Promotion | None = None
    open_questions: list[OpenQuestion] = []
    authorities: Authorities = Authorities()
    claims: Claims = Claims()
    shortlist: ShortlistRule = ShortlistRule()
    reserve_list: ReserveListRule = ReserveListRule()
    slide: SlideRule = SlideRule()
    cadre: CadreRule = CadreRule()
    seat_pools: SeatPools = SeatPools()
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
        self.shortlist.check_codes(known, self.open)
        _named("seat_pools.conversions",
               [x for c in self.seat_pools.conversions if c.category for x in (c.category, c.to)],
               known | {self.open})
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
    def seat_codes(self) -> list[str]:
        """The categories a vacancy may be of: open, then each reserved category in the policy's order (the order
        of every per-category table the outputs write)."""
        return [self.open, *self.reserved_codes]

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

    def at_shortlist(self) -> "Policy":
        """The policy as a shortlisting stage reads it: the relaxations that bar the open list are the stage's
        (`migration.bars_open.shortlist`), the rest as given."""
        bars = self.migration.bars_open
        return self.model_copy(update={"migration": self.migration.model_copy(update={
            "bars_open": bars.model_copy(update={"final": list(bars.shortlist)})})})

    def category(self, code: str) -> Category:
        for c in self.categories:
            if c.code == code:
                return c
        raise KeyError(code)
