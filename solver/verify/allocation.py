"""An allocation as verify reads it, and what verify reports."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..io.tables import read_table
from ..policy import Policy
from ..data.problem import Problem
from ..data.routes import Route

# The `horizontal` column: empty, or the traits whose minimums the seat serves, joined by ";" (policy.schema.Trait's
# names).
HORIZONTAL_LABELS = ("", "women", "pwbd", "ex_serviceman", "pwbd_a", "pwbd_b", "pwbd_c", "pwbd_de")
ROUTES = tuple(r.value for r in Route)


@dataclass(frozen=True)
class Violation:
    rule: str
    candidate: str
    post: str
    detail: str
    source: str

    def row(self):
        return [self.rule, self.candidate, self.post, self.detail, self.source]


class Broken(str):
    """A stage check's finding (`solver.verify.stages`, `solver.verify.slide`): its words, with the candidate and
    the post it is about where it is about one ("" where it is about a whole list), for verify's columns.

    Example
    -------
    >>> b = Broken("C7 fills a vacancy at IAS, a post he did not rank", candidate="C7", post="IAS")
    >>> b == "C7 fills a vacancy at IAS, a post he did not rank", b.candidate, b.post
    (True, 'C7', 'IAS')
    """

    candidate: str
    post: str

    def __new__(cls, text: str, candidate: str = "", post: str = ""):
        out = super().__new__(cls, text)
        out.candidate, out.post = candidate, post
        return out


@dataclass
class Allocation:
    cand: np.ndarray      # merit index per row
    post: np.ndarray      # post index per row
    seat: list[str]
    counted: list[str]
    horizontal: list[str]
    route: list[str]
    ids: list[str]


def read_allocation(path, problem: Problem, policy: Policy) -> Allocation:
    t = read_table(path, ["candidate_id", "post", "seat_category", "counted_as", "route"], ["horizontal", "rank"])
    index = {cid: i for i, cid in enumerate(problem.candidates.ids)}
    posts = {p: j for j, p in enumerate(problem.posts)}
    codes = {policy.open, *policy.reserved_codes}
    cand, post = [], []
    for k in range(len(t)):
        cid, p = str(t["candidate_id"][k]), str(t["post"][k])
        if cid not in index:
            raise t.error(k, "candidate_id", f"unknown candidate {str(cid)!r}")
        if p not in posts:
            raise t.error(k, "post", f"unknown post {str(p)!r}")
        if t["seat_category"][k] not in codes:
            raise t.error(k, "seat_category", f"unknown category {str(t['seat_category'][k])!r}")
        if t["route"][k] not in ROUTES:
            raise t.error(k, "route", f"unknown route {str(t['route'][k])!r}; expected one of {list(ROUTES)}")
        if t["counted_as"][k] not in codes:
            raise t.error(k, "counted_as", f"unknown category {str(t['counted_as'][k])!r}")
        if t.has("horizontal") and not set(str(t["horizontal"][k]).split(";")) <= set(HORIZONTAL_LABELS):
            raise t.error(k, "horizontal", f"unknown trait {str(t['horizontal'][k])!r}; expected empty or one of "
                          f"{list(HORIZONTAL_LABELS[1:])}")
        cand.append(index[cid])
        post.append(posts[p])
    hz = list(t["horizontal"]) if t.has("horizontal") else [""] * len(t)
    return Allocation(np.array(cand, dtype=np.int64), np.array(post, dtype=np.int64), list(t["seat_category"]),
                      list(t["counted_as"]), hz, list(t["route"]), [str(x) for x in t["candidate_id"]])


def may_hold(policy: Policy, problem: Problem, code: str) -> np.ndarray:
    """Who may hold a vacancy of `code`, read from the policy text (not from solver.chain.pools), other than on
    probation. One found unfit may hold none (Bill 2004 s.8(2) proviso), which `verify.eligibility.fitness`
    reports; one who failed the prescribed test only one on probation (Manipur Act 1976 s.8(3))."""
    c = problem.candidates
    failed = c.failed_test if c.failed_test is not None else np.zeros(len(c), dtype=bool)
    return _may_hold(policy, c, code) & c.fit & ~failed


def may_hold_on_probation(policy: Policy, problem: Problem, code: str) -> np.ndarray:
    """Who may be recruited on probation against a vacancy of `code` (Manipur Act 1976 s.8(3), second proviso:
    "the Scheduled Tribe and Scheduled Caste candidates who fulfil the prescribed educational qualification but
    have failed the prescribed test"): a member of `code`, a probation category, found fit, who failed it."""
    c = problem.candidates
    if policy.probation is None or code not in policy.probation.categories or c.failed_test is None:
        return np.zeros(len(c), dtype=bool)
    return (c.category == code) & c.failed_test & c.fit


def _may_hold(policy: Policy, c, code: str) -> np.ndarray:
    if code == policy.open:
        return np.ones(len(c), bool) if policy.migration.relaxed_may_take_open else \
            ~c.relaxed_at(policy.migration.bars_open.final)
    cat = policy.category(code)
    if cat.eligible:
        ok = np.isin(c.category, cat.eligible.categories)
        if cat.eligible.gender:
            ok &= np.isin(np.where(c.female, "F", "M"), cat.eligible.gender)
    else:
        ok = c.category == code
    if not cat.creamy_layer_excluded:
        return ok
    # The creamy layer is a test of backward classes only (Indra Sawhney 1992; Maharashtra Act 2001 s.4(2),
    # second proviso): for WBC it removes an EBC or BC woman, never an SC or ST one.
    backward = [code] if cat.eligible is None else \
        [x for x in cat.eligible.categories if x != policy.open and policy.category(x).creamy_layer_excluded]
    return ok & ~(c.creamy & np.isin(c.category, backward))
