"""The consolidated reserve list kept below the final list, and the Extended List below it (UPSC CSE Rule 16(4)-(5);
Rule 20(4)-(6) as amended 14 November 2025; `Policy.reserve_list` says what was read and what is a reading).

Drawn against the allocation written, after service allocation and its Rule 16(2) upgrades (which freed open
vacancies go within the recommendation list: Union of India v. Ramesh Ram 2010, as the project's worked case
`service-upgrade` has it). Part by part, in order - the open part, each reserved category in the policy's
order, then each trait of `reserve_list.traits` - the candidates not recommended who may be in that part, in
merit order, none in two parts (the open part is drawn first, as the open list is: a reserved candidate high
enough is in it):
- a reserved category's part: as many as its members recommended at the general standard (routes open_merit
  and upgrade);
- a trait's part: as many as its beneficiaries so recommended;
- the open part: the sum of the others (the published CSE 2025 list: 129 = 26 + 86 + 8 + 6 + 1 + 2).
The Extended List follows in the same order: `reserve_list.extended` times each part's size.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..chain.eligibility import member_mask, open_mask
from ..data.problem import Problem
from ..errors import Unsupported
from ..policy import Policy
from ..outcome.result import Result
from ..data.routes import Route

RESERVE_COLUMNS = ["candidate_id", "category", "list", "position", "rank"]   # category: the part (a code or trait)
GENERAL_STANDARD = (Route.OPEN_MERIT, Route.UPGRADE)   # recommended without a relaxed standard, on merit


@dataclass(frozen=True)
class ReserveList:
    part: np.ndarray       # object per candidate (merit order): the part he is listed in ('' none)
    list: np.ndarray       # object per candidate: "reserve", "extended" or ''
    sizes: dict[str, int]  # part -> its size in the reserve list
    extended: dict[str, int]   # part -> its size in the Extended List
    parts: tuple[str, ...]     # in the order drawn

    def rows(self, ids: np.ndarray):
        """reserve_list.csv: the reserve list, then the Extended List, each part by part in merit order."""
        for kind in ("reserve", "extended"):
            for part in self.parts:
                who = np.flatnonzero((self.part == part) & (self.list == kind))
                for k, i in enumerate(who.tolist()):
                    yield [ids[i], part, kind, k + 1, i + 1]

    def counts(self) -> dict:
        """summary.json's account: each part's size in either list, and how many could be found for it."""
        return {kind: {p: {"size": sizes[p], "listed": int(((self.part == p) & (self.list == kind)).sum())}
                       for p in self.parts}
                for kind, sizes in (("reserve", self.sizes), ("extended", self.extended))}


def at_general_standard(result: Result) -> np.ndarray:
    """Who was recommended at the general standard: on open merit, or open-selected and upgraded (Rule 16(2))."""
    out = np.zeros(result.problem.n, dtype=bool)
    for i in np.flatnonzero(result.selected).tolist():
        out[i] = result.route(i) in GENERAL_STANDARD
    return out


def on_one_merit(problem: Problem, folder=None) -> None:
    """Refuse (Unsupported, exit 3) a reserve list, or a fill or check of one, where posts rank by several merit
    lists (a ranks file): the list is drawn on the candidates' own merit, where a post of another list would
    take its reserves in that list's order (CSE Rule 16(4) speaks of one order of merit), which is not built;
    likewise where candidates were called in some lists of a shortlist only (`solver.exam.called`)."""
    if problem.lists is not None and any(problem.post_lists):   # (a ranks file no post ranks by changes nothing)
        where = f"the run in {folder}" if folder is not None else "these posts"
        raise Unsupported(f"{where} rank by several merit lists (a ranks file): a reserve list, and a fill from "
                          "it, are drawn on one merit and are not built for several lists")
    from .called import restricted
    if restricted(problem).any():
        where = f"the run in {folder}" if folder is not None else "these candidates"
        raise Unsupported(f"{where} came from a shortlist of lists called apart, some called in some lists only: a "
                          "reserve list, and a fill from it, are drawn across every post and are not built for "
                          "candidates kept to some posts")


def reserve_list(policy: Policy, result: Result) -> ReserveList:
    """The reserve list and the Extended List below `result`'s allocation (see the module's text). Refused where
    posts rank by several merit lists (`on_one_merit`).

    Example
    -------
    >>> import tempfile, pathlib
    >>> from solver import load_policy
    >>> from solver.chain.solve import solve
    >>> from solver.io.readers import read_problem
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "c.csv").write_text("id,score,category\\nA,90,OBC\\nB,80,UR\\nC,70,OBC\\nD,60,UR\\nE,50,OBC\\n")
    >>> _ = (d / "v.csv").write_text("post,category,vacancies\\nX,UR,1\\nX,OBC,1\\n")
    >>> pol = load_policy("central-dopt")
    >>> res = solve(pol, read_problem(pol, d / "c.csv", d / "v.csv"), "greedy").result
    >>> r = reserve_list(pol, res)   # A (OBC) was recommended on open merit: one OBC place, one open place
    >>> [row[:3] for row in r.rows(res.problem.candidates.ids)]
    [['B', 'UR', 'reserve'], ['E', 'OBC', 'reserve'], ['D', 'UR', 'extended']]
    """
    problem, rule = result.problem, policy.reserve_list
    on_one_merit(problem)
    c = problem.candidates
    general = at_general_standard(result)
    codes = list(policy.reserved_codes)
    sizes = {code: int((general & c.in_categories(code)).sum()) for code in codes}
    sizes.update({t: int((general & c.trait(t)).sum()) for t in rule.traits})
    parts = (policy.open, *codes, *rule.traits)
    sizes = {policy.open: sum(sizes.values()), **sizes}
    extended = {p: math.ceil(rule.extended * k - 1e-9) for p, k in sizes.items()}
    may = {policy.open: open_mask(policy, problem),
           **{code: member_mask(policy, problem, code) for code in codes},
           **{t: c.trait(t) & c.qualified for t in rule.traits}}
    part = np.full(problem.n, "", dtype=object)
    kind = np.full(problem.n, "", dtype=object)
    free = ~result.selected
    for name, want in (("reserve", sizes), ("extended", extended)):
        for p in parts:
            chosen = np.flatnonzero(may[p] & free)[:want[p]]
            part[chosen], kind[chosen] = p, name
            free[chosen] = False
    return ReserveList(part, kind, sizes, extended, parts)
