"""`verify --stage fill`: the fill from the reserve list (CSE Rule 16(5); Rule 20(5) as amended 14.11.2025), its
rules derived from the policy and the inputs (never from `solver.exam.fill`). Returns the broken rules in words,
empty when all hold."""
from __future__ import annotations

from ..policy import Policy
from ..data.problem import Problem
from ..errors import Unsupported
from .allocation import Allocation, Broken, held_as, may_hold
from ..data.words import article

Key = tuple[int, str]   # (post index, seat category)


def check_fill(policy: Policy, problem: Problem, before: Allocation, listed: dict[str, str], declined: dict[str, str],
               filled: Allocation, parts: dict[str, str] | None = None) -> list[str]:
    """The fill's rules (CSE Rule 16(5); Rule 20(5) as amended 14.11.2025): only the vacancies the declined left
    are filled, each by one on the reserve list, by one on the Extended List only where the vacancy was left for
    a reason `reserve_list.extended_reasons` names; each filler may hold the vacancy and ranked its post; nobody
    on the list who may hold a vacancy and ranked its post is passed over for one below him in merit (one on
    the Extended List only for another of it), save for a trait's beneficiary on a vacancy that served the
    trait; no vacancy is left while such a candidate is without one. `listed`: id -> "reserve" or
    "extended"; `declined`: id -> reason; `parts`: id -> the part of the list he is in.

    With `reserve_list.fill = "by_part"` a vacancy is filled only from the list's part of its category, or from
    a trait's part where the vacancy served the trait (UPSC's account of the list: each part is sized by the
    recommended it stands for), and each rule above is read within those parts."""
    rule = policy.reserve_list
    if rule.fill == "by_part" and parts is None:
        raise Unsupported("reserve_list.fill = \"by_part\": the fill is checked part by part, which needs each "
                          "listed candidate's part (reserve_list.csv's category column)")
    vacated, extended_ok = _vacated(before, declined, rule.extended_reasons)
    taken: dict[Key, list[int]] = {}
    for r, j in enumerate(filled.post.tolist()):
        taken.setdefault((j, filled.seat[r]), []).append(r)
    out = [v for r in range(len(filled.cand)) for v in _filler(policy, problem, set(before.ids), listed, filled, r,
                                                               vacated, parts)]
    for key, rows in taken.items():
        j, seat = key
        if len(rows) > len(vacated.get(key, [])):
            out.append(Broken(f"{len(rows)} fill the {seat} vacancies at {problem.posts[j]}, of which "
                              f"{len(vacated.get(key, []))} were left by the declined", post=problem.posts[j]))
        ext = [filled.ids[r] for r in rows if listed.get(filled.ids[r]) == "extended"]
        if len(ext) > extended_ok.get(key, 0):
            out.append(Broken(f"{ext[0]} of the Extended List fills {article(seat)} {seat} vacancy at {problem.posts[j]} left for a reason "
                       f"only the reserve list serves ({rule.source})", candidate=ext[0], post=problem.posts[j]))
        out += _held_filled(policy, problem, filled, key, rows, vacated.get(key, []))
    out += _passed_over(policy, problem, listed, filled, extended_ok, vacated, taken, parts)
    return out


def _vacated(before: Allocation, declined: dict[str, str], extended_reasons) -> tuple[dict[Key, list[set]], dict]:
    """The vacancies the declined left, per post and seat category: the traits each served (one set per vacancy),
    and how many of them the Extended List may fill (left for one of `extended_reasons`)."""
    vacated: dict[Key, list[set]] = {}
    extended_ok: dict[Key, int] = {}
    for r in range(len(before.cand)):
        reason = declined.get(before.ids[r])
        if reason is not None:
            key = (int(before.post[r]), before.seat[r])
            vacated.setdefault(key, []).append({t for t in before.horizontal[r].split(";") if t})
            extended_ok[key] = extended_ok.get(key, 0) + (reason in extended_reasons)
    return vacated, extended_ok


def _filler(policy: Policy, problem: Problem, had: set, listed: dict, filled: Allocation, r: int,
            vacated: dict[Key, list[set]], parts) -> list[str]:
    """Row r of the fill: one on the list, without a vacancy before, who may hold it, ranked its post (unless the
    unranked are allocated) and stands in a part of the list that fills it."""
    rule, out = policy.reserve_list, []
    cid, i, j, seat = filled.ids[r], int(filled.cand[r]), int(filled.post[r]), filled.seat[r]
    if cid in had:
        out.append(Broken(f"{cid} held a vacancy already, yet fills another", candidate=cid))
    if cid not in listed:
        out.append(Broken(f"{cid} fills a vacancy at {problem.posts[j]} but is on neither the reserve nor the Extended "
                   f"List ({rule.source})", candidate=cid, post=problem.posts[j]))
    if not may_hold(policy, problem, held_as(policy, seat, filled.route[r], problem.candidates.category[i]))[i]:
        out.append(Broken(f"{cid} may not hold the {seat} vacancy at {problem.posts[j]}", candidate=cid, post=problem.posts[j]))
    if problem.preferences is not None and not policy.migration.allocate_unranked and not problem.ranked[i, j]:
        out.append(Broken(f"{cid} fills a vacancy at {problem.posts[j]}, a post he did not rank", candidate=cid, post=problem.posts[j]))
    if not _part_serves(rule, parts, cid, seat, set().union(*vacated.get((j, seat), []))):
        out.append(Broken(f"{cid} of the list's {parts.get(cid, '')} part fills {article(seat)} {seat} vacancy at {problem.posts[j]}: "
                   f"a vacancy is filled from its own category's part ({rule.source})", candidate=cid, post=problem.posts[j]))
    return out


def _contends(policy, parts, u, u_id: str, may, seat: str, served: set) -> bool:
    """Whether one on the list (merit index u, None where not a candidate) contends for a vacancy of `seat`:
    he may hold it, and his part of the list may fill it."""
    return u is not None and bool(may[u]) and _part_serves(policy.reserve_list, parts, u_id, seat, served)


def _part_serves(rule, parts: dict[str, str] | None, cid: str, seat: str, served: set) -> bool:
    """Whether one on the list may fill a vacancy of `seat` that served `served` traits: anyone, read as one pool;
    by part, one of the seat's own part or of a trait part the vacancy served."""
    return rule.fill != "by_part" or parts.get(cid) == seat or parts.get(cid) in served


def _held_filled(policy: Policy, problem: Problem, filled: Allocation, key: Key, rows: list[int],
                 served: list[set]) -> list[str]:
    """A vacancy that served a held trait (`horizontal.held`) is filled only by one of its beneficiaries: of a
    post's and category's vacancies left, those who lack a held trait fill no more than the ones that did not
    serve it."""
    c, (j, seat) = problem.candidates, key
    for t in sorted(set(policy.horizontal.held) & set().union(*served)):
        others = [r for r in rows if not c.trait(t)[filled.cand[r]]]
        if len(others) > sum(1 for s in served if t not in s):
            return [Broken(f"{filled.ids[others[-1]]} fills {article(seat)} {seat} vacancy at {problem.posts[j]} that served {t}, held "
                           f"for its beneficiaries: held horizontal seat filled by another ({policy.horizontal.held_source})",
                           candidate=filled.ids[others[-1]], post=problem.posts[j])]
    return []


def _closed(policy: Policy, problem: Problem, u: int, placed: bool, served: list[set],
            fillers: list[int]) -> tuple[int, int, int]:
    """Of a post's and category's vacancies left (`served`: the traits each served), those candidate u may not
    take: (kept, how many of the kept the round's `fillers` (merit indices) may hold, reverted). A vacancy that
    served a held trait u lacks is kept for its beneficiaries (`horizontal.held`: PwD Act 1995 s.36, no
    beneficiary left, it stays vacant); after a recommendation list (`migration.selection_list`) one that served
    a trait u lacks reverts only to those the round left without a post (the service allocation's last phase),
    so not to u once the round placed him."""
    c = problem.candidates
    lacks = {t for t in set().union(*served) if not c.trait(t)[u]}
    closed = lacks & set(policy.horizontal.held)
    kept = sum(1 for s in served if s & closed)
    reverts = sum(1 for s in served if s & lacks and not s & closed) \
        if policy.migration.selection_list and placed else 0
    mine = sum(1 for f in fillers if any(c.trait(t)[f] for t in closed))
    return kept, min(kept, mine), reverts


def _passed_over(policy, problem, listed, filled, extended_ok, vacated, taken, parts) -> list[str]:
    """Merit and preference among those on the list: nobody passed over for one below him, no vacancy left while
    one who may hold it and ranked its post has none he prefers (or, with `migration.allocate_unranked`, has none
    at all), save the vacancies `_closed` keeps from him."""
    out: list[str] = []
    index = {cid: i for i, cid in enumerate(problem.candidates.ids)}
    holds = {int(i): int(filled.post[r]) for r, i in enumerate(filled.cand.tolist())}
    rank = problem.post_rank if problem.preferences is not None else None

    def wants(u: int, j: int) -> bool:
        if rank is not None and rank[u, j] >= len(problem.posts):
            return False
        if u not in holds:
            return True
        return rank is not None and rank[u, j] < rank[u, holds[u]]

    for (j, seat), gone in vacated.items():
        may = may_hold(policy, problem, seat)
        rows = taken.get((j, seat), [])
        for u_id, kind in listed.items():
            u = index.get(u_id)
            unranked = policy.migration.allocate_unranked and u is not None and u not in holds
            if _contends(policy, parts, u, u_id, may, seat, set().union(*gone)) and (wants(u, j) or unranked):
                out += _left_for(policy, problem, (u, u_id, kind), (j, seat), gone, rows, filled, listed,
                                 u in holds, wants(u, j), extended_ok.get((j, seat), 0))
    return out


def _left_for(policy: Policy, problem: Problem, who: tuple, key: Key, gone: list[set], rows: list[int],
              filled: Allocation, listed: dict, placed: bool, wanted: bool, extended_ok: int) -> list[str]:
    """Candidate u of the list (`who`: merit index, id, "reserve" or "extended"), who may hold the vacancies left
    at `key` (`gone`: the traits each served) and would take one: passed over for one below him on a vacancy he
    could take (`wanted`: he ranked the post above any he holds), or one left unfilled that he could take."""
    (u, u_id, kind), (j, seat), c = who, key, problem.candidates
    kept, on_kept, reverts = _closed(policy, problem, u, placed, gone, [int(filled.cand[r]) for r in rows])
    free = len(gone) - kept - reverts - max(0, len(rows) - on_kept - reverts)
    served = set().union(*gone)
    below = [r for r in rows if filled.cand[r] > u and (kind == "reserve" or listed.get(filled.ids[r]) ==
             "extended") and not any(not c.trait(t)[u] for t in set(filled.horizontal[r].split(";")) & served)]
    if wanted and len(below) > reverts:
        return [Broken(f"{u_id} (merit position {u + 1}) is passed over for {filled.ids[below[0]]} (merit position "
                       f"{filled.cand[below[0]] + 1}) on the {seat} vacancy at {problem.posts[j]}", candidate=u_id,
                       post=problem.posts[j])]
    if free > 0 and (kind == "reserve" or sum(listed.get(filled.ids[r]) == "extended" for r in rows) < extended_ok):
        return [Broken(f"{article(seat)} {seat} vacancy at {problem.posts[j]} is left unfilled while {u_id} of the {kind} list "
                       "could take it", candidate=u_id, post=problem.posts[j])]
    return []
