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
    """allocation.csv as verify reads it, each cell checked against the inputs and the policy: the first row with
    an unknown candidate, post, category, route or trait is named (its first such cell, in that order). Column by
    column, not cell by cell (a JoSAA round's 78,000 rows: 0.4 s a cell at a time)."""
    t = read_table(path, ["candidate_id", "post", "seat_category", "counted_as", "route"], ["horizontal", "rank"])
    index = {cid: i for i, cid in enumerate(np.asarray(problem.candidates.ids).tolist())}
    posts = problem.post_index
    codes = set(policy.seat_codes)
    ids, names = t["candidate_id"].tolist(), t["post"].tolist()
    seat, counted, route = t["seat_category"].tolist(), t["counted_as"].tolist(), t["route"].tolist()
    hz = t["horizontal"].tolist() if t.has("horizontal") else [""] * len(t)
    cand = np.array([index.get(x, -1) for x in ids], dtype=np.int64)
    post = np.array([posts.get(x, -1) for x in names], dtype=np.int64)
    traits = {h: set(h.split(";")) <= set(HORIZONTAL_LABELS) for h in set(hz)}
    known = lambda cells, allowed: np.fromiter((x in allowed for x in cells), dtype=bool, count=len(cells))
    checks = [
        ("candidate_id", cand >= 0, lambda k: f"unknown candidate {ids[k]!r}"),
        ("post", post >= 0, lambda k: f"unknown post {names[k]!r}"),
        ("seat_category", known(seat, codes), lambda k: f"unknown category {seat[k]!r}"),
        ("route", known(route, ROUTES), lambda k: f"unknown route {route[k]!r}; expected one of {list(ROUTES)}"),
        ("counted_as", known(counted, codes), lambda k: f"unknown category {counted[k]!r}"),
        ("horizontal", np.fromiter((traits[h] for h in hz), dtype=bool, count=len(hz)),
         lambda k: f"unknown trait {hz[k]!r}; expected empty or one of {list(HORIZONTAL_LABELS[1:])}")]
    bad = ~np.logical_and.reduce([ok for _, ok, _ in checks]) if len(t) else np.zeros(0, dtype=bool)
    if bad.any():
        k = int(np.argmax(bad))
        column, _, say = next(c for c in checks if not c[1][k])
        raise t.error(k, column, say(k))
    return Allocation(cand, post, seat, counted, hz, route, ids)


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


def held_as(policy: Policy, seat: str, route: str, own: str) -> str:
    """The category whose eligibility a vacancy is held by: a de-reserved one's open; one taken by exchange or
    fallback, or an open one a Rule 16(2) upgrade freed for a reserved-selected candidate, his own."""
    if route == "dereserved":
        return policy.open
    if route in ("exchange", "fallback") or (route == "reserved" and seat == policy.open and own != policy.open):
        return own
    return seat
