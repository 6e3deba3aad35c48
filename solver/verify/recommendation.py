"""Two-stage checks for a recommendation list drawn before service allocation (CSE Rule 16(2); Union of
India v. Ramesh Ram 2010)."""
from __future__ import annotations

import numpy as np

from ..policy import Policy
from ..problem import Problem
from ..vacancy.determine import SeatTable
from .allocation import Allocation, Violation, may_hold


def service_allocation(policy, problem, seats, alloc, sel) -> list[Violation]:
    """Service allocation among the recommended (CSE Rule 16(2); Ramesh Ram 2010), merit-cum-preference:
    open-selected candidates choose first (open vacancies, or an own-category vacancy at a post they prefer);
    then reserved-selected candidates (own category, or open vacancies freed by upgrades into their category,
    no more than those upgrades). Posts a candidate did not rank come after all ranked ones."""
    out: list[Violation] = []
    c = problem.candidates
    posts, ids = problem.posts, c.ids
    src = "CSE Rule 16(2); Union of India v. Ramesh Ram 2010"
    ranked = problem.post_rank < (1 << 20)
    rank = np.where(ranked, problem.post_rank, (1 << 20) + np.arange(len(posts)))
    extra = policy.migration.allocate_unranked
    sel_open = sel == policy.open
    upgrade = policy.migration.upgrade
    member = {code: may_hold(policy, problem, code) for code in policy.reserved_codes}
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
                # Those ahead of i for it: on a post they ranked while this one is unranked for i, or on the
                # same footing and of better merit (posts nobody ranked are filled after every ranked one).
                better_same = sum(1 for h, (jj, ss) in seat_of.items()
                                  if ss == policy.open and sel[h] == sel[i] and h != i
                                  and (ranked[h, jj], -h) > (not late_i, -i))
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


def recommended_as(policy: Policy, problem: Problem, alloc: Allocation) -> np.ndarray:
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


def recommendation_list(policy, problem, seats, alloc, sel) -> list[Violation]:
    """The recommendation list is a single-cadre recruitment over every post's vacancies: check it as one."""
    totals: dict[tuple[str, str], int] = {}
    for (_, code), k in seats.seats.items():
        totals[("ALL", code)] = totals.get(("ALL", code), 0) + k
    prefs = None
    if not policy.migration.allocate_unranked:
        # Only candidates who could hold a vacancy at a post they ranked compete for the list.
        ranked = problem.post_rank < (1 << 20)
        can = np.zeros(len(problem.candidates), dtype=bool)
        for code in [policy.open, *policy.reserved_codes]:
            has = np.array([seats.cap(p, code) > 0 for p in problem.posts])
            can |= may_hold(policy, problem, code) & (ranked & has).any(axis=1)
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
    from .checks import verify  # the merged list is checked as a single cadre
    found = verify(single, merged_problem, merged, merged_seats)
    return [Violation(f"recommendation list: {x.rule}", x.candidate, "", x.detail, x.source) for x in found
            if x.rule != "ceiling broken"]
