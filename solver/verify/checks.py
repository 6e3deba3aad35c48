"""Check an allocation against the policy, rule by rule, naming the rule and its source for each breach.

Deliberately written from the policy text, not from `solver.pools`: eligibility, preference and the
phases of the procedure are derived here again, so a bug in the shared reduction cannot hide itself.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..io.tables import read_table
from ..policy import Policy
from ..problem import Problem
from ..vacancy.determine import SeatTable, ceiling_use, determine_seats

ROUTES = ("open_merit", "reserved", "exchange", "fallback", "dereserved", "horizontal_adjustment", "upgrade")
PHASE = {"open_merit": 0, "reserved": 0, "horizontal_adjustment": 0, "upgrade": 0, "exchange": 1,
         "fallback": 2, "dereserved": 9}
SRC_OPEN = "Indra Sawhney 1992; Saurav Yadav 2020; central Bill 2004 s.5(2)"
SRC_HORIZONTAL = "Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007"


@dataclass(frozen=True)
class Violation:
    rule: str
    candidate: str
    post: str
    detail: str
    source: str

    def row(self):
        return [self.rule, self.candidate, self.post, self.detail, self.source]


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
            raise t.error(k, "candidate_id", f"unknown candidate {cid!r}")
        if p not in posts:
            raise t.error(k, "post", f"unknown post {p!r}")
        if t["seat_category"][k] not in codes:
            raise t.error(k, "seat_category", f"unknown category {t['seat_category'][k]!r}")
        if t["route"][k] not in ROUTES:
            raise t.error(k, "route", f"unknown route {t['route'][k]!r}; expected one of {list(ROUTES)}")
        cand.append(index[cid])
        post.append(posts[p])
    hz = list(t["horizontal"]) if t.has("horizontal") else [""] * len(t)
    return Allocation(np.array(cand, dtype=np.int64), np.array(post, dtype=np.int64), list(t["seat_category"]),
                      list(t["counted_as"]), hz, list(t["route"]), [str(x) for x in t["candidate_id"]])


def _may_hold(policy: Policy, problem: Problem, code: str) -> np.ndarray:
    c = problem.candidates
    if code == policy.open:
        return np.ones(len(c), bool) if policy.migration.relaxed_may_take_open else ~c.relaxed
    cat = policy.category(code)
    if cat.eligible:
        ok = np.isin(c.category, cat.eligible.categories)
        if cat.eligible.gender:
            ok &= np.isin(np.where(c.female, "F", "M"), cat.eligible.gender)
    else:
        ok = c.category == code
    return ok & ~c.creamy if cat.creamy_layer_excluded else ok


def verify(policy: Policy, problem: Problem, alloc: Allocation, seats: SeatTable | None = None) -> list[Violation]:
    seats = seats or determine_seats(policy, problem, enforce_ceiling=False)
    c = problem.candidates
    n, posts = len(c), problem.posts
    out: list[Violation] = []
    ids = c.ids

    def v(rule, i, j, detail, source):
        out.append(Violation(rule, ids[i] if i is not None else "", posts[j] if j is not None else "", detail, source))

    held = np.full(n, -1)  # row index per candidate
    for r, i in enumerate(alloc.cand):
        if held[i] >= 0:
            v("selected twice", i, alloc.post[r], "the candidate holds more than one vacancy", "SPEC.md allocation.csv")
        held[i] = r
    may = {code: _may_hold(policy, problem, code) for code in [policy.open, *policy.reserved_codes]}
    own_members = {code: may[code] for code in policy.reserved_codes}
    order = [policy.open] + [x.code for x in policy.categories if x.eligible is None] + \
            [x.code for x in policy.categories if x.eligible is not None]
    prec = {code: k for k, code in enumerate(order)}
    post_rank = problem.post_ranks()
    selected = held >= 0

    # Capacity and route eligibility.
    count: dict[tuple[int, str], int] = {}
    for r, i in enumerate(alloc.cand):
        j, seat, route = int(alloc.post[r]), alloc.seat[r], alloc.route[r]
        count[(j, seat)] = count.get((j, seat), 0) + 1
        if post_rank[i, j] >= (1 << 20) and not (policy.migration.selection_list and policy.migration.allocate_unranked):
            v("post not applied for", i, j, "the candidate did not rank this post", "SPEC.md preferences.csv")
        own = c.category[i]
        if route == "open_merit":
            if seat != policy.open:
                v("wrong category", i, j, f"open_merit route on a {seat} vacancy", SRC_OPEN)
            elif not may[policy.open][i]:
                v("relaxed candidate on an open vacancy", i, j, "availed a relaxed standard",
                  "DoPT OM 01.07.1998, 04.04.2018; Deepa E.V. v. Union of India 2017")
        elif route in ("reserved", "horizontal_adjustment") and seat != policy.open:
            if not may[seat][i]:
                if c.creamy[i] and policy.category(seat).creamy_layer_excluded and own == seat:
                    v("creamy layer on a reserved vacancy", i, j, f"creamy-layer {own} candidate on a {seat} vacancy",
                      "central Bill 2004 s.3(1); Indra Sawhney 1992")
                else:
                    v("wrong category", i, j, f"{own} candidate on a {seat} vacancy by route {route}",
                      "central Bill 2004 s.11; Maharashtra Act 2001 s.4(1)")
        elif route == "horizontal_adjustment" and seat == policy.open and not may[policy.open][i]:
            v("relaxed candidate on an open vacancy", i, j, "availed a relaxed standard", "DoPT OM 01.07.1998")
        elif route == "exchange":
            groups = [g for g in policy.exchange if g.after_years == 0 and seat in g.categories
                      and any(own_members[x][i] for x in g.categories if x != seat)]
            if not groups:
                v("exchange not allowed", i, j, f"{own} candidate on a {seat} vacancy: no same-year exchange group",
                  "Maharashtra Act 2001 s.4(3); Manipur Act 1976 s.4")
        elif route == "fallback":
            chains = [f for f in policy.fallback if f.from_ == seat and any(own_members[x][i] for x in f.to)]
            if not chains:
                v("fallback not allowed", i, j, f"no fallback chain from {seat} to {own}", "Bihar Act 1991 s.4(6)")
        elif route == "dereserved":
            if not policy.unfilled.dereserve:
                v("de-reservation forbidden", i, j, f"{seat} vacancy de-reserved",
                  policy.unfilled.source or "DoPT OM 20.07.2000")
            elif not may[policy.open][i]:
                v("relaxed candidate on an open vacancy", i, j, "de-reserved vacancies are open", "DoPT OM 01.07.1998")
        elif route == "upgrade" and not policy.migration.upgrade:
            v("upgrade not allowed", i, j, "the policy has no Rule 16(2) upgrade", "CSE Rule 16(2)")
        elif route == "upgrade" and (seat == policy.open or not may[seat][i]):
            v("wrong category", i, j, f"{own} candidate upgraded to a {seat} vacancy", "CSE Rule 16(2)")
        expect = {"open_merit": policy.open, "dereserved": policy.open, "reserved": seat,
                  "exchange": own, "fallback": own}.get(route)
        if policy.migration.selection_list and (route == "upgrade" or (route == "reserved" and seat == policy.open)):
            as_reserved = policy.migration.upgraded_counts_as == "reserved"
            expect = (seat if route == "upgrade" else policy.open) if as_reserved else \
                     (policy.open if route == "upgrade" else own)
        if expect is not None and alloc.counted[r] != expect:
            v("counted against the wrong category", i, j, f"counted as {alloc.counted[r]}, expected {expect}",
              SRC_OPEN if route == "open_merit" else "central Bill 2004 s.5(2)")
    for (j, seat), k in sorted(count.items()):
        if k > seats.cap(posts[j], seat):
            v("over capacity", None, j, f"{k} appointees on {seats.cap(posts[j], seat)} {seat} vacancies",
              "vacancies.csv")

    # Merit: justified envy and wasted vacancies, compartment by compartment (phase 0 routes).
    if policy.migration.selection_list:
        sel = _recommended_as(policy, problem, alloc)
        out.extend(_recommendation_list(policy, problem, seats, alloc, sel))
        out.extend(_service_allocation(policy, problem, seats, alloc, sel))

    def my_key(i):
        r = held[i]
        if r < 0:
            return (99, 0, 0)
        return (PHASE[alloc.route[r]], post_rank[i, alloc.post[r]], prec.get(alloc.seat[r], 0))

    keys = np.array([my_key(i) for i in range(n)], dtype=np.int64) if n else np.zeros((0, 3), np.int64)
    route_arr = np.array(alloc.route, dtype=object)
    seat_arr = np.array(alloc.seat, dtype=object)
    for j, post in enumerate([] if policy.migration.selection_list else posts):
        for code in order:
            cap = seats.cap(post, code)
            rows = np.flatnonzero((alloc.post == j) & (seat_arr == code) & np.isin(route_arr,
                                  ["open_merit", "reserved", "horizontal_adjustment", "upgrade"]))
            holders = alloc.cand[rows]
            k = (0, post_rank[:, j], prec[code])
            prefers = (keys[:, 0] > 0) | ((keys[:, 0] == 0) & ((keys[:, 1] > k[1]) | ((keys[:, 1] == k[1]) & (keys[:, 2] > k[2]))))
            want = may[code] & prefers & (post_rank[:, j] < (1 << 20))
            if len(holders) < cap and cap > 0:
                later = np.flatnonzero(want)
                for i in later[:5]:
                    v("vacancy left while an eligible candidate wanted it", i, j,
                      f"{cap - len(holders)} {code} vacancies unfilled", SRC_OPEN)
                continue
            ben = _beneficiaries(policy, problem, seats, post, code)
            if ben is None and len(holders):
                worst = holders.max()
                for i in np.flatnonzero(want[:worst]):
                    v("justified envy", i, j, f"rank {i + 1} passed over for rank {worst + 1} ({ids[worst]}) "
                      f"on a {code} vacancy", SRC_OPEN if code == policy.open else "merit within the category")
            out.extend(_horizontal(policy, problem, seats, j, code, holders, route_arr[rows], want, ids))

    # Later phases: exchange, fallback and de-reservation only after the own category ran out.
    for r, i in enumerate([] if policy.migration.selection_list else alloc.cand):
        route, seat, j = alloc.route[r], alloc.seat[r], int(alloc.post[r])
        if route in ("exchange", "fallback", "dereserved"):
            waiting = np.flatnonzero(own_members[seat] & ~selected & (post_rank[:, j] < (1 << 20)))
            if len(waiting):
                v(f"{route} before the own category ran out", i, j,
                  f"{seat} candidate {ids[waiting[0]]} (rank {waiting[0] + 1}) was not selected", 
                  {"exchange": "Maharashtra Act 2001 s.4(3); Manipur Act 1976 s.4", "fallback": "Bihar Act 1991 s.4(6)",
                   "dereserved": policy.unfilled.source or "de-reservation rules"}[route])
        if route == "fallback":
            chain = next((f for f in policy.fallback if f.from_ == seat), None)
            if chain:
                before = [x for x in chain.to[: next((k for k, x in enumerate(chain.to) if own_members[x][i]), 0)]]
                for x in before:
                    waiting = np.flatnonzero(own_members[x] & ~selected & (post_rank[:, j] < (1 << 20)))
                    if len(waiting):
                        v("fallback order", i, j, f"{x} comes first in the chain and {ids[waiting[0]]} was not selected",
                          "Bihar Act 1991 s.4(6)")
        if route in ("exchange", "fallback", "dereserved"):
            pool = may[policy.open] if route == "dereserved" else may[c.category[i]] if c.category[i] in may else None
            if pool is not None:
                better = np.flatnonzero(pool[:i] & ~selected[:i] & (post_rank[:i, j] < (1 << 20)))
                if route == "exchange":
                    better = better[c.category[better] == c.category[i]]
                if len(better):
                    v("justified envy", better[0], j, f"rank {better[0] + 1} not selected while rank {i + 1} "
                      f"holds a {route} vacancy", "merit order within the route")

    # Later phases may not leave vacancies unfilled while someone they are for waits (non-wastefulness).
    for j, post in enumerate([] if policy.migration.selection_list else posts):
        left = {code: seats.cap(post, code) - count.get((j, code), 0) for code in policy.reserved_codes}
        applied = post_rank[:, j] < (1 << 20)
        stages = [(1, "exchange", g.categories, [x for x in g.categories], g.source)
                  for g in policy.exchange if g.after_years == 0]
        stages += [(2, "fallback", [f.from_], f.to, f.source) for f in policy.fallback]
        if policy.unfilled.dereserve:
            stages.append((9, "dereserved", [x.code for x in policy.categories if x.carry_forward], None,
                           policy.unfilled.source))
        for phase, route, sources, takers, source in stages:
            if sum(max(0, left[x]) for x in sources) <= 0:
                continue
            pool = may[policy.open] if takers is None else np.any([own_members[x] for x in takers], axis=0)
            waiting = np.flatnonzero(pool & applied & (keys[:, 0] > phase))
            if len(waiting):
                v("vacancy left while an eligible candidate wanted it", waiting[0], j,
                  f"{'/'.join(sources)} vacancies unfilled after {route}", source or route)

    # The ceiling on the year's vacancies (Art. 16(4B); central Bill 2004 s.10).
    for post in posts:
        used, total = ceiling_use(policy, seats.seats, post)
        if used > policy.ceiling.share * total + 1e-9:
            v("ceiling broken", None, posts.index(post), f"{used} of {total} vacancies reserved",
              policy.ceiling.source or "Art. 16(4B)")
    counted_in = {x.code for x in policy.categories if x.in_ceiling}
    for j, post in enumerate(posts):
        k = sum(1 for r in range(len(alloc.cand)) if alloc.post[r] == j and alloc.counted[r] in counted_in)
        _, total = ceiling_use(policy, seats.seats, post)
        if k > policy.ceiling.share * total + 1e-9:
            v("ceiling broken", None, j, f"{k} of {total} appointments count as reserved",
              policy.ceiling.source or "Art. 16(4B)")
    return out


def _service_allocation(policy, problem, seats, alloc, sel) -> list[Violation]:
    """Service allocation among the recommended (CSE Rule 16(2); Ramesh Ram 2010), merit-cum-preference:
    open-selected candidates choose first (open vacancies, or an own-category vacancy at a post they prefer);
    then reserved-selected candidates (own category, or open vacancies freed by upgrades into their category,
    no more than those upgrades). Posts a candidate did not rank come after all ranked ones."""
    out: list[Violation] = []
    c = problem.candidates
    n, posts, ids = len(c), problem.posts, c.ids
    src = "CSE Rule 16(2); Union of India v. Ramesh Ram 2010"
    ranked = problem.post_ranks() < (1 << 20)
    rank = np.where(ranked, problem.post_ranks(), (1 << 20) + np.arange(len(posts)))
    extra = policy.migration.allocate_unranked
    sel_open = sel == policy.open
    upgrade = policy.migration.upgrade
    member = {code: _may_hold(policy, problem, code) for code in policy.reserved_codes}
    seat_of = {int(i): (int(alloc.post[r]), alloc.seat[r]) for r, i in enumerate(alloc.cand)}
    freed_by = {code: 0 for code in policy.reserved_codes}     # upgrades into each category
    freed_to = {code: 0 for code in policy.reserved_codes}     # its reserved-selected on open vacancies
    for i, (j, seat) in seat_of.items():
        if sel_open[i] and seat != policy.open:
            freed_by[seat] += 1
        if not sel_open[i] and seat == policy.open:
            freed_to[sel[i]] += 1
    for code in policy.reserved_codes:
        if freed_to[code] > freed_by[code]:
            out.append(Violation("open vacancies beyond those upgrades freed", "", "",
                                 f"{freed_to[code]} {code}-selected on open vacancies, {freed_by[code]} upgrades "
                                 f"into {code}", src))

    def options(i):
        """Seats candidate i may hold, best first: (post rank, place at post, post, category)."""
        if sel[i] == "":
            return []
        opts = []
        for j in range(len(posts)):
            if not ranked[i, j] and not extra:
                continue
            if sel_open[i]:
                opts.append((rank[i, j], 0, j, policy.open))
                if upgrade and ranked[i, j]:
                    opts += [(rank[i, j], 1, j, code) for code in policy.reserved_codes if member[code][i]]
            else:
                opts += [(rank[i, j], 0, j, sel[i]), (rank[i, j], 1, j, policy.open)]
        return sorted(opts)

    holders: dict[tuple[int, str], list[int]] = {}
    for i, (j, seat) in seat_of.items():
        holders.setdefault((j, seat), []).append(i)
    for i in np.flatnonzero(sel != ""):
        i = int(i)
        mine = seat_of.get(i)
        for r_, place, j, code in options(i):
            if mine is not None and (j, code) == mine:
                break
            cap = seats.cap(posts[j], code)
            if cap == 0:
                continue
            hs = holders.get((j, code), [])
            late_i = not ranked[i, j]
            if code == policy.open and not sel_open[i]:
                # A freed open vacancy: only while upgrades into the category left one, against reserved holders.
                better_same = sum(1 for h, (jj, ss) in seat_of.items()
                                  if ss == policy.open and sel[h] == sel[i] and h < i)
                if better_same >= freed_by[sel[i]]:
                    continue
                rivals = [h for h in hs if not sel_open[h] and (ranked[h, j], -h) < (not late_i, -i)]
            elif code == policy.open:
                rivals = [h for h in hs if not sel_open[h] or (ranked[h, j], -h) < (not late_i, -i)]
            elif sel_open[i]:
                rivals = [h for h in hs if not sel_open[h] or h > i]
            else:
                rivals = [h for h in hs if not sel_open[h] and (ranked[h, j], -h) < (not late_i, -i)]
            if len(hs) < cap:
                out.append(Violation("vacancy left while an eligible candidate wanted it", ids[i], posts[j],
                                     f"{cap - len(hs)} {code} vacancies unfilled", src))
            elif rivals:
                h = max(rivals)
                out.append(Violation("justified envy", ids[i], posts[j], f"rank {i + 1} passed over for rank "
                                     f"{h + 1} ({ids[h]}) on a {code} vacancy", src))
    return out


def _recommended_as(policy: Policy, problem: Problem, alloc: Allocation) -> np.ndarray:
    """The category each appointee was recommended against, read off the allocation: open for open merit,
    de-reservation and upgrades (Rule 16(2) upgrades open-selected candidates); a reserved-selected candidate
    on an open vacancy freed by an upgrade was recommended against their own category; a de-reserved
    appointee against the reserved vacancy it fills."""
    sel = np.full(len(problem.candidates), "", dtype=object)
    for r, i in enumerate(alloc.cand):
        route, seat = alloc.route[r], alloc.seat[r]
        if route in ("open_merit", "upgrade"):
            sel[i] = policy.open
        elif route == "reserved" and seat == policy.open:
            sel[i] = problem.candidates.category[i]
        else:
            sel[i] = seat
    return sel


def _recommendation_list(policy, problem, seats, alloc, sel) -> list[Violation]:
    """The recommendation list is a single-cadre recruitment over every post's vacancies: check it as one."""
    totals: dict[tuple[str, str], int] = {}
    for (_, code), k in seats.seats.items():
        totals[("ALL", code)] = totals.get(("ALL", code), 0) + k
    prefs = None
    if not policy.migration.allocate_unranked:
        # Only candidates who could hold a vacancy at a post they ranked compete for the list.
        ranked = problem.post_ranks() < (1 << 20)
        can = np.zeros(len(problem.candidates), dtype=bool)
        for code in [policy.open, *policy.reserved_codes]:
            has = np.array([seats.cap(p, code) > 0 for p in problem.posts])
            can |= _may_hold(policy, problem, code) & (ranked & has).any(axis=1)
        prefs = tuple(np.array([0] if ok else [], dtype=np.int32) for ok in can)
    merged_problem = Problem(problem.candidates, ("ALL",), (), prefs, problem.sources)
    merged_seats = SeatTable(("ALL",), totals, {})
    rows = np.flatnonzero(sel[alloc.cand] != "")
    route = []
    for r in rows:
        original = alloc.route[r]
        route.append("open_merit" if original == "upgrade" else "reserved" if original == "reserved" else original)
    seat = [sel[alloc.cand[r]] for r in rows]
    counted = [policy.open if s == policy.open or alloc.route[r] == "dereserved" else
               (problem.candidates.category[alloc.cand[r]] if alloc.route[r] in ("exchange", "fallback") else s)
               for r, s in zip(rows, seat)]
    merged = Allocation(alloc.cand[rows], np.zeros(len(rows), dtype=np.int64), seat, counted, [""] * len(rows),
                        route, [alloc.ids[r] for r in rows])
    single = policy.model_copy(update={"migration": policy.migration.model_copy(update={"selection_list": False})})
    found = verify(single, merged_problem, merged, merged_seats)
    return [Violation(f"recommendation list: {x.rule}", x.candidate, "", x.detail, x.source) for x in found
            if x.rule != "ceiling broken"]


def _beneficiaries(policy, problem, seats, post, code):
    """Mask of who counts for the compartment's horizontal minimum, or None when it has none."""
    for (p, cc, trait), minimum in seats.minimums.items():
        if p == post and cc == code and minimum > 0:
            ben = problem.candidates.trait(trait)
            if code == policy.open and not policy.horizontal.open_compartment_for_all:
                ben = ben & (problem.candidates.category == policy.open)
            return ben
    return None


def _horizontal(policy, problem, seats, j, code, holders, routes, want, ids) -> list[Violation]:
    """Minimum-guarantee semantics inside one compartment (Rajesh Kumar Daria 2007; Saurav Yadav 2020):
    a beneficiary is passed over only by better merit; a non-beneficiary only by better non-beneficiaries,
    or by beneficiaries while the compartment holds no more of them than its minimum."""
    out = []
    post = problem.posts[j]
    for (p, cc, trait), minimum in seats.minimums.items():
        if p != post or cc != code or minimum <= 0:
            continue
        ben = _beneficiaries(policy, problem, seats, post, code)
        have = int(ben[holders].sum())
        adjusted = holders[routes == "horizontal_adjustment"]
        for i in adjusted:
            if not ben[i]:
                out.append(Violation("horizontal adjustment of a non-beneficiary", ids[i], post,
                                     f"not a {trait} beneficiary", SRC_HORIZONTAL))
        if len(adjusted) and have > minimum:
            out.append(Violation("removal for excess", ids[adjusted[-1]], post,
                                 f"{have} {trait} beneficiaries exceed the minimum {minimum}, yet "
                                 f"{len(adjusted)} were placed by adjustment", SRC_HORIZONTAL))
        if have < minimum:
            waiting = np.flatnonzero(want & ben)
            if len(waiting) and (~ben[holders]).any():
                out.append(Violation("horizontal shortfall that could have been met", ids[waiting[0]], post,
                                     f"{have} of {minimum} {trait} in {code}; rank {waiting[0] + 1} was available",
                                     SRC_HORIZONTAL))
        if not len(holders):
            continue
        worst = holders.max()
        for i in np.flatnonzero(want[:worst] & ben[:worst]):
            out.append(Violation("justified envy", ids[i], post, f"{trait} beneficiary rank {i + 1} passed over "
                                 f"for rank {worst + 1} in {code}", SRC_HORIZONTAL))
        others = holders[~ben[holders]]
        limit = (int(others.max()) if len(others) else 0) if have <= minimum else int(worst)
        for i in np.flatnonzero(want[:limit] & ~ben[:limit]):
            out.append(Violation("justified envy", ids[i], post, f"rank {i + 1} passed over for rank {limit + 1} in "
                                 f"{code} ({have} {trait} beneficiaries, minimum {minimum})", SRC_HORIZONTAL))
    return out
