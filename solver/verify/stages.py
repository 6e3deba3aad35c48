"""`verify --stage shortlist|reserve`: each stage's own rules, derived from the policy and the inputs (never from
`solver.exam.shortlist` or `solver.exam.reserve`). Each check returns the broken rules in words, empty when all hold."""
from __future__ import annotations

import math

import numpy as np

from ..policy import Policy
from ..data.problem import Problem
from ..data.kinds import shortlist_ratio
from ..errors import Unsupported
from .allocation import Allocation, Broken, _may_hold, may_hold
from .roster import by_category

GENERAL_STANDARD = ("open_merit", "upgrade")   # allocation.csv routes of a recommendation on merit


def compartments(policy: Policy, problem: Problem) -> dict[tuple[str, str], int]:
    """Each post and category's vacancies as notified: the rows' own (an exempt row's are open), a TOTAL row's
    split by verify's own reading of the roster (`solver.verify.roster`; DoPT OM 02.07.1997) from its
    `roster_start` or point 1: a stage before the final list is read without a register."""
    out: dict[tuple[str, str], int] = {}
    for row in problem.vacancy_rows:
        by_code = by_category(policy, row, None)
        if by_code is None:
            raise Unsupported(f"post {row.post}: its TOTAL row's split needs the register's preceding years or "
                              "the promotion rules, which a stage's check does not read; give per-category rows")
        for code, k in by_code.items():
            out[(row.post, code)] = out.get((row.post, code), 0) + k
    return out


def notified(policy: Policy, problem: Problem, posts=None) -> dict[str, int]:
    """Each category's vacancies as notified, every post (of `posts`, where given) together (`compartments`
    summed)."""
    out: dict[str, int] = {}
    for (post, code), k in compartments(policy, problem).items():
        if posts is None or post in posts:
            out[code] = out.get(code, 0) + k
    return out


def notified_minimum(policy: Policy, problem: Problem, trait: str, posts=None) -> int:
    """A horizontal trait's vacancies as notified, every post (of `posts`, where given) and category together:
    vacancies.csv's own column for it where its rows give one, else the policy's share of each compartment
    (rounded as the policy says, never more than the compartment)."""
    rows = [row for row in problem.vacancy_rows if posts is None or row.post in posts]
    if any(trait in row.minimums for row in problem.vacancy_rows):
        return sum(row.minimums.get(trait, 0) for row in rows)
    share = next((t.share for t in policy.horizontal.traits if t.name == trait), 0.0)
    rounding = {"round": lambda x: math.floor(x + 0.5 + 1e-9), "floor": lambda x: math.floor(x + 1e-9),
                "ceil": lambda x: math.ceil(x - 1e-9)}[policy.horizontal.rounding]
    return sum(min(v, rounding(share * v)) for (post, _), v in compartments(policy, problem).items()
               if v and (posts is None or post in posts))


def check_shortlists(policy: Policy, problem: Problem, ratio: float, lists: dict[str, dict[str, str]]) -> list[str]:
    """Each list of a shortlist checked on its own posts (`check_shortlist`): the policy's groups of posts called
    apart (`shortlist.separate`) among these vacancies, every other post in `others`; one list, named "", where
    no group's post is here. `lists`: list name -> candidate id -> the category list counted in."""
    from .called import groups as lists_of
    groups = lists_of(policy, problem)
    calls = ", ".join(repr(g) for g in groups) if groups != {"": None} else "one list, without a list column"
    out = [Broken(f"the shortlist's list {name!r} is not one the policy calls for these posts ({calls})")
           for name in lists if name not in groups]
    for name, posts in groups.items():
        out += check_shortlist(policy, problem, ratio, lists.get(name, {}), posts, name)
    return out


def check_shortlist(policy: Policy, problem: Problem, ratio: float, called: dict[str, str], posts=None,
                    group: str = "") -> list[str]:
    """The shortlist's rules: nobody counted in a list he may not be in; each list within its places (ties
    aside); nobody left out who scores above someone called in a list he may be in (migration: the open list
    first); everyone tied with a list's last called, called. `called`: candidate id -> the list counted in.
    `posts`: the posts whose vacancies the call counts (None: all), of the list `group`."""
    ratio = shortlist_ratio(ratio)
    # (the kinds of relaxation that bar the open list at a shortlisting stage: migration.bars_open.shortlist)
    policy = policy.at_shortlist()
    c = problem.candidates
    index = {cid: i for i, cid in enumerate(c.ids)}
    out = [f"{cid} is called but not among the candidates" for cid in called if cid not in index]
    rule = policy.shortlist
    names = {*policy.seat_codes, *rule.traits}
    out += [Broken(f"{cid} is counted in a list {v!r} the policy does not have", candidate=cid)
            for cid, v in called.items() if v not in names]
    vacancies = notified(policy, problem, posts)
    of = f" of {group}" if group else ""
    qualified = c.score >= np.array([rule.qualifying.get(x, -math.inf) for x in c.category], dtype=float)
    lists = {code: [index[x] for x, v in called.items() if v == code and x in index]
             for code in policy.seat_codes}
    done = np.zeros(len(c), dtype=bool)
    for code in policy.seat_codes:
        own = np.array(sorted(lists[code]), dtype=np.int64)
        may = _may_hold(policy, c, code) & (c.score >= rule.qualifying.get(code, -math.inf)) & qualified & ~done
        out += _counted(c, own, may, code + of) + _within(c, own, may, math.ceil(ratio * vacancies.get(code, 0) - 1e-9),
                                                          rule, code + of)
        done[own] = True
    for trait in rule.traits:
        own = np.array(sorted(index[x] for x, v in called.items() if v == trait and x in index), dtype=np.int64)
        may = c.trait(trait) & qualified & ~done
        places = math.ceil(ratio * notified_minimum(policy, problem, trait, posts) - 1e-9)
        out += _counted(c, own, may, trait + of) + _within(c, own, may, places, rule, trait + of)
        done[own] = True
    return out


def _counted(c, own: np.ndarray, may: np.ndarray, name: str) -> list[str]:
    """Nobody counted in a list he may not be in (the first named, with how many)."""
    bad = [c.ids[i] for i in own if not may[i]]
    return [Broken(f"{bad[0]} is counted in the {name} list, which he may not be in ({len(bad)} such)",
                   candidate=bad[0])] if bad else []


def _within(c, own: np.ndarray, may: np.ndarray, places: int, rule, name: str) -> list[str]:
    """A list's places (ties aside) and its cut-off: nobody it may hold left out scoring above its last called."""
    out = []
    if len(own) > places and not (rule.include_ties and len({c.score[i] for i in own[places - 1:]}) == 1):
        out.append(f"the {name} list calls {len(own)} for {places} places")
    if len(own):
        last = c.score[own].min()
        listed = np.zeros(len(c), dtype=bool)
        listed[own] = True
        above = may & ~listed & ((c.score > last) | ((c.score == last) & rule.include_ties))
        if above.any():
            i = int(np.flatnonzero(above)[0])
            out.append(Broken(f"{c.ids[i]} (score {c.score[i]:g}) is left out of the {name} list, whose last called "
                       f"scores {last:g} ({rule.source or 'shortlist'})", candidate=c.ids[i]))
    elif places and may.any():
        out.append(f"the {name} list calls nobody for {places} places")
    return out


def reserve_sizes(policy: Policy, problem: Problem, alloc: Allocation) -> dict[str, int]:
    """Each part's size in the reserve list: a reserved category's, its members recommended at the general
    standard; a trait's, its beneficiaries so recommended; the open part's, the sum of the others."""
    c = problem.candidates
    general = np.zeros(len(c), dtype=bool)
    general[[i for r, i in enumerate(alloc.cand.tolist()) if alloc.route[r] in GENERAL_STANDARD]] = True
    sizes = {code: int((general & (c.category == code)).sum()) for code in policy.reserved_codes}
    sizes.update({t: int((general & c.trait(t)).sum()) for t in policy.reserve_list.traits})
    return {policy.open: sum(sizes.values()), **sizes}


def check_reserve(policy: Policy, problem: Problem, alloc: Allocation, listed: list[tuple[str, str, str, int]]) \
        -> list[str]:
    """The reserve list's rules (`Policy.reserve_list`): nobody recommended is on it, nobody twice; each part,
    drawn in order (open, the reserved categories, the traits; then the Extended List the same way), holds the
    best in merit of those not recommended or listed before who may be in it, as many as its size or all there
    are. `listed`: (candidate id, part, list, line) per row of reserve_list.csv."""
    c, rule = problem.candidates, policy.reserve_list
    index = {cid: i for i, cid in enumerate(c.ids)}
    out, seen = _listed_once(listed, index)
    free = np.ones(len(c), dtype=bool)
    free[alloc.cand] = False
    for cid in seen:
        if not free[index[cid]]:
            out.append(Broken(f"{cid} was recommended, yet is on the reserve list", candidate=cid))
    sizes = reserve_sizes(policy, problem, alloc)
    extended = {p: math.ceil(rule.extended * k - 1e-9) for p, k in sizes.items()}
    failed = c.failed_test if c.failed_test is not None else np.zeros(len(c), dtype=bool)
    may = {policy.open: may_hold(policy, problem, policy.open),
           **{code: may_hold(policy, problem, code) for code in policy.reserved_codes},
           **{t: c.trait(t) & c.fit & ~failed for t in rule.traits}}
    parts = [*policy.seat_codes, *rule.traits]
    known = set(parts)
    for cid, part, kind, line in listed:
        if part not in known or kind not in ("reserve", "extended"):
            out.append(Broken(f"line {line}: {cid} is in part {part!r} of list {kind!r}; the parts are {parts}, the lists "
                       "reserve and extended", candidate=cid))
    for kind, want in (("reserve", sizes), ("extended", extended)):
        for p in parts:
            got = np.array(sorted(index[x] for x, q, k, _ in listed if q == p and k == kind and x in index),
                           dtype=np.int64)
            expected = np.flatnonzero(may[p] & free)[:want[p]]
            out += _part(c.ids, p, kind, got, expected, may[p], want[p])
            # later parts are judged against this part as the rule draws it, not as listed: one row missing
            # here is one finding, not one here and two more where the later parts shift up
            free[expected] = False
    return out


def _listed_once(listed: list, index: dict) -> tuple[list[str], dict]:
    """Each row's candidate is known and listed once: the problems, and each listed candidate's line."""
    out, seen = [], {}
    for cid, part, kind, line in listed:
        if cid not in index:
            out.append(Broken(f"line {line}: {cid} is not among the candidates", candidate=cid))
        elif cid in seen:
            out.append(Broken(f"line {line}: {cid} is listed twice (first on line {seen[cid]})", candidate=cid))
        else:
            seen[cid] = line
    return out, seen


def _part(ids, p: str, kind: str, got: np.ndarray, expected: np.ndarray, may: np.ndarray, want: int) -> list[str]:
    """One part of a list against the best in merit of those who may be in it: the first wrong and the first
    missing named, with how many."""
    out = []
    missing = np.setdiff1d(expected, got)
    wrong = np.setdiff1d(got, expected)
    for i in wrong[:1].tolist():
        why = "which he may not be in" if not may[i] else \
            f"not among the first {want} in merit order of those who may be in it"
        out.append(Broken(f"{ids[i]} is in the {p} part of the {kind} list, {why} ({len(wrong)} such)", candidate=ids[i]))
    for i in missing[:1].tolist():
        out.append(Broken(f"{ids[i]} (merit position {i + 1}) is left out of the {p} part of the {kind} list, "
                   f"of size {want} ({len(missing)} such)", candidate=ids[i]))
    return out
