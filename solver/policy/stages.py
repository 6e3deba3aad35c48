"""The policy's tables for the stages of a combined examination around the final list: the shortlist for the
next stage, and the reserve list kept below the final list (with its Extended List)."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from .base import Strict, _named

# Why a recommended candidate's vacancy is left to be filled after service allocation (the `reason` column of
# `fill`'s declined.csv): CSE Rules 2025, Rule 20(5) as amended 14.11.2025 (gazette summary).
REASONS = ("declined", "limited_preferences", "invalid_claim", "cancelled")


# The list of the posts no group of `ShortlistRule.separate` names.
OTHERS = "others"

TRAIT = Literal["women", "pwbd", "ex_serviceman", "pwbd_a", "pwbd_b", "pwbd_c", "pwbd_de"]


class ShortlistRule(Strict):
    """Shortlisting for the next stage (`solver.exam.shortlist`): everyone tied with the last called is called
    (`include_ties`; commission practice, no rule text read), and each category's minimum qualifying score at
    the stage, applied before the ratio (`qualifying`, e.g. {UR = 40, SC = 35}).

    `traits`: horizontal traits with lists of their own (the PwBD sub-categories: the UPSC publishes a cut-off
    for each of PwBD-1 to PwBD-5 at every stage; commission practice, no rule text read). After the category
    lists, each calls the ratio times its vacancies as notified (its minimums, every post and category
    together) from its beneficiaries the category lists left out, in merit order: one called on a category's
    standard does not use up a place of the trait's list, as one called on the open list does not use up his
    category's (the migration rule read across).

    `separate`: groups of posts called apart, each on cut-offs of its own (name -> the posts, as vacancies.csv
    names them), every other post together as the list `others`: a call per list, each counting its own posts'
    vacancies, a candidate called in as many as reach him (SSC CGL: separate Tier-I cut-offs for JSO, for
    Statistical Investigator Grade-II and for all other posts; `separate_source`)."""

    include_ties: bool = True
    qualifying: dict[str, float] = {}
    traits: list[TRAIT] = []
    source: str = ""
    separate: dict[str, list[str]] = {}
    separate_source: str = ""

    @model_validator(mode="after")
    def _groups_apart(self) -> "ShortlistRule":
        seen: dict[str, str] = {}
        for name, posts in self.separate.items():
            if not name or name == OTHERS or not posts:
                raise ValueError(f"shortlist.separate: a group needs a name other than {OTHERS!r} and a post "
                                 f"(got {name!r}: {posts})")
            for post in posts:
                if post in seen:
                    raise ValueError(f"shortlist.separate: post {post!r} is in groups {seen[post]!r} and {name!r}")
                seen[post] = name
        return self

    def check_codes(self, known: set[str], open_code: str) -> None:
        _named("shortlist.qualifying", [k for k in self.qualifying if k != open_code], known)


class ReserveListRule(Strict):
    """The consolidated reserve list below the final list (`solver.exam.reserve`), as the UPSC keeps it under CSE
    Rule 16(4)-(5) (Rule 20(4)-(6) as amended 14.11.2025). The rule's own words were not found with the search
    tool; what is encoded is the press and gazette summaries' reading, hence parameters:

    - each reserved category's part holds as many of its members as were recommended at the general standard
      (on open merit or by a Rule 16(2) upgrade), each trait of `traits` as many of its beneficiaries so
      recommended, and the open part the sum of all the others (CSE 2025: 129 = 26 + 86 + 8 + 6 + 1 + 2);
    - the Extended List below it: "sufficient candidates from all categories"; `extended` times each part;
    - the reserve list fills a vacancy left for any of `REASONS`; the Extended List only those of
      `extended_reasons` (Rule 20(5)(a)(2): limited preferences, an invalid reservation claim, cancelled
      candidature; "no further requisition" for any other)."""

    traits: list[TRAIT] = []
    extended: float = Field(1.0, ge=0)
    extended_reasons: list[Literal["declined", "limited_preferences", "invalid_claim", "cancelled"]] = \
        ["limited_preferences", "invalid_claim", "cancelled"]
    # How a round fills a vacancy: from the list's part of the vacancy's category ("by_part": UPSC's account of
    # the list, each part sized by the recommended it stands for, the general part by the meritorious reserved),
    # or from everyone on the list, open first ("open_first"; the list read as one pool).
    fill: Literal["by_part", "open_first"] = "by_part"
    source: str = ("CSE Rules, Rule 16(4)-(5); Rule 20(4)-(6) as amended 14.11.2025 (read from press and gazette "
                   "summaries; the rule's text was not read)")


class SlideRule(Strict):
    """The sliding round after a first tentative allocation (`solver.exam.slide`; SSC's sliding mechanism, notice of 3
    March 2026, read from press summaries: the notice's text was not read). One who does not report is dropped;
    `fix` keeps his post; `float` may move only to a post he prefers to his own; one round, no waiting list
    after it. `newcomers`: whether candidates the first round left without a post take part (the notice's aim,
    "maximum vacancy filling", and the final result "taking into account" the vacancies absentees leave, read
    as yes); false: only the floaters move, and the posts they leave stay vacant."""

    newcomers: bool = True
    # Whether the round also offers the seats the round before it left unfilled (after `seat_pools.conversions`):
    # a round of counselling offers the whole seat matrix; SSC's round re-allocates the seats the absentees
    # and floaters freed, and what the first round left is reported again for the next cycle.
    unfilled_offered: bool = False
    # A round of its own registration (CSAB's special rounds after JoSAA's last round): only the registered take
    # part. A holder who gives no response keeps his seat (he did not register: his seat stands, where a round
    # without registration drops him as absent); one without a seat, or one who left in an earlier round, takes
    # part only by answering `register` (`newcomers` then means the registered ones, not every unplaced one).
    registration: bool = False
    # The merit lists whose posts the round does not offer (CSAB's special rounds fill the NIT+ system's seats, not
    # the IITs', ranked by JEE (Advanced)): a seat there stays with its holder, or vacant once he moves.
    closed_lists: list[str] = []
    source: str = ("SSC notice of 3 March 2026, sliding mechanism (read from press summaries; the notice's text was "
                   "not read)")


class CadreRule(Strict):
    """The cadre allocation of the All India Services after service allocation (`solver.exam.cadres`), as DoPT's
    Cadre Allocation Policy of 23 January 2026 is reported (PTI, 24 January 2026; the Telegraph, NDTV; the OM's
    own text was not found with the search tool, so each mechanism the reports leave unclear is an option):

    - the cadres in `groups`, whose order rotates by one group a year from `first_year` (the year's order is the
      order in which a candidate with no preference left is placed);
    - vacancies per cadre as insider and outsider, each split UR/SC/ST/OBC, EWS counted in UR (`counted_in`);
    - insider vacancies filled first, in merit order, only by those who opted for their home cadre;
    - an insider vacancy left unfilled becomes an outsider vacancy that year (`unfilled_insider = "outsider"`),
      not carried (or is left empty: `"lapse"`);
    - outsiders taken in cycles of `cycle` ranks (1-25, 26-50, ...); within a cycle PwBD candidates first
      (`pwbd_first = "cycle"`; `"all"`: every PwBD outsider before the first cycle; `"none"`), then by rank; each
      takes the cadre he prefers most that has an outsider vacancy of his category and, with `one_per_cycle`,
      has not yet had an outsider (of any category) in this cycle; failing that, his most preferred cadre with such a vacancy; with
      none he ranked left, the first such cadre in the year's order of groups. Nobody is an outsider in his home
      cadre."""

    groups: list[list[str]] = []
    first_year: int = 2026
    cycle: int = Field(default=25, ge=1)
    unfilled_insider: Literal["outsider", "lapse"] = "outsider"
    pwbd_first: Literal["cycle", "all", "none"] = "cycle"
    one_per_cycle: bool = True
    counted_in: dict[str, str] = {"EWS": "UR"}
    source: str = ("DoPT, Cadre Allocation Policy for the All India Services, 23 January 2026 (as reported by PTI "
                   "on 24 January 2026 and by the Telegraph and NDTV; the OM's text was not read)")

    def order(self, year: int) -> list[str]:
        """The cadres in the year's order: the groups rotated by one a year from `first_year`.

        Example
        -------
        >>> CadreRule(groups=[["A", "B"], ["C"], ["D"]]).order(2027)
        ['C', 'D', 'A', 'B']
        """
        if not self.groups:
            return []
        k = (year - self.first_year) % len(self.groups)
        return [c for g in self.groups[k:] + self.groups[:k] for c in g]
