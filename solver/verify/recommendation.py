"""Two-stage checks for a recommendation list drawn before service allocation (CSE Rule 16(2); Union of
India v. Ramesh Ram 2010)."""
from __future__ import annotations

import numpy as np

from ..policy import Policy
from ..problem import Problem
from ..vacancy.determine import SeatTable
from .allocation import Allocation, Violation, may_hold
from .cadre import verify_cadre
from .horizontal import trait_masks
from .reading import Reading
from ..routes import NOT_RANKED


def service_allocation(policy, problem, seats, alloc, sel) -> list[Violation]:
    """Service allocation among the recommended (CSE Rule 16(2); Ramesh Ram 2010), merit-cum-preference:
    open-selected candidates choose first (open vacancies, or an own-category vacancy at a post they prefer);
    then reserved-selected candidates (own category, or open vacancies freed by upgrades into their category,
    no more than those upgrades). Posts a candidate did not rank come after all ranked ones.

    A post's horizontal minimums are seats of their own in the compartment (the allocation's `horizontal`
    column names the trait a holder's seat is held for), for beneficiaries recommended against it, taken
    before the compartment's other seats at that post; upgrades and freed open vacancies take neither them
    nor a candidate recommended by horizontal adjustment. Held seats nobody took revert after every other
    allocation to the compartment's candidates still without a post (open-selected first).

    Each candidate's options are classes of seats (post, category, kind: a trait's held seats, the other
    seats, or the reverted ones) in the order the procedure offers them: phase (0 open-selected at ranked
    posts, 1 at others, 2 reserved-selected at ranked posts, 3 at others, 4 and 5 the reverted seats), then
    the post's place in the candidate's list, then the seat's place at the post. Nobody may be passed over for
    a class they come to before their own seat while it has room or a holder who came to it later."""
    out: list[Violation] = []
    c = problem.candidates
    posts, ids = problem.posts, c.ids
    src = "CSE Rule 16(2); Union of India v. Ramesh Ram 2010"
    src_h = "Anil Kumar Gupta 1995; OM 15.01.2018; CSE Rule 16(2)"
    ranked = problem.ranked
    rank = np.where(ranked, problem.post_rank, NOT_RANKED + np.arange(len(posts)))
    extra = policy.migration.allocate_unranked
    sel_open = sel == policy.open
    upgrade = policy.migration.upgrade
    member = {code: may_hold(policy, problem, code) for code in policy.reserved_codes}
    route_of = {int(i): alloc.route[r] for r, i in enumerate(alloc.cand)}
    on_merit = np.array([route_of.get(i) != "horizontal_adjustment" for i in range(len(c))])
    # (post, category) -> trait -> (minimum, who counts): the compartment's minimums as one cadre reads them
    masks = {(j, code): trait_masks(policy, problem, seats, post, code)
             for j, post in enumerate(posts) for code in [policy.open, *policy.reserved_codes]}
    held_for = {key: {t: m[0] for t, m in ms.items()} for key, ms in masks.items()}

    def ben(j, code, t):
        return masks[(j, code)][t][1]

    def phase(i, j, code, kind) -> int:
        """The phase in which candidate i comes to the class (post j, code, kind)."""
        if kind == "revert":
            return 4 if sel_open[i] else 5
        if sel_open[i]:
            return 0 if ranked[i, j] or code != policy.open else 1
        return 2 if ranked[i, j] else 3

    # Each holder's class: a held seat by the `horizontal` column, else the other seats, or, beyond them, the
    # reverted ones (those who came last to the post's compartment).
    seat_of: dict[int, tuple[int, str, str]] = {}
    rows_at: dict[tuple[int, str], list[int]] = {}
    for r, i in enumerate(alloc.cand):
        i, j, code, t = int(i), int(alloc.post[r]), alloc.seat[r], alloc.horizontal[r]
        if t and t in held_for[(j, code)]:
            seat_of[i] = (j, code, t)
            if not (ben(j, code, t)[i] and sel[i] == code):
                out.append(Violation("held horizontal seat of one not recommended for it", ids[i], posts[j],
                                     f"a {code} seat held for {t}: the candidate is not a {t} beneficiary "
                                     f"recommended against {code}", src_h))
        else:
            if t:
                out.append(Violation("horizontal seat without a minimum", ids[i], posts[j],
                                     f"no {t} minimum in {code} at {posts[j]}", src_h))
            rows_at.setdefault((j, code), []).append(i)
    for (j, code), hs in rows_at.items():
        general = seats.cap(posts[j], code) - sum(held_for[(j, code)].values())
        hs.sort(key=lambda h: (phase(h, j, code, "general"), h))
        for k, h in enumerate(hs):
            seat_of[h] = (j, code, "general" if k < general else "revert")
    holders: dict[tuple[int, str, str], list[int]] = {}
    for i, key in seat_of.items():
        holders.setdefault(key, []).append(i)

    def capacity(j, code, kind) -> int:
        mins = held_for[(j, code)]
        if kind == "general":
            return seats.cap(posts[j], code) - sum(mins.values())
        if kind == "revert":
            return sum(mins.values()) - sum(len(holders.get((j, code, t), ())) for t in mins)
        return mins.get(kind, 0)

    for (j, code, kind), hs in sorted(holders.items()):
        if len(hs) > capacity(j, code, kind):
            what = "seats reverted from unfilled held seats" if kind == "revert" else f"{kind} seats"
            out.append(Violation("over capacity", "", posts[j], f"{len(hs)} appointees on {capacity(j, code, kind)} "
                                 f"{code} {what}", src_h))

    # Rule 16(2)'s budget: reserved-selected candidates on open seats, no more than upgrades into their category.
    freed_by = {code: 0 for code in policy.reserved_codes}
    freed_to: dict[str, list[int]] = {code: [] for code in policy.reserved_codes}
    for i, (j, code, kind) in seat_of.items():
        if sel_open[i] and code != policy.open:
            freed_by[code] += 1
        if not sel_open[i] and code == policy.open:
            freed_to[sel[i]].append(i)
    for code in policy.reserved_codes:
        if len(freed_to[code]) > freed_by[code]:
            out.append(Violation("open vacancies beyond those upgrades freed", "", "",
                                 f"{len(freed_to[code])} {code}-selected on open vacancies, {freed_by[code]} upgrades "
                                 f"into {code}", src))

    def options(i):
        """Classes candidate i may hold, in the order the procedure offers them."""
        if sel[i] == "":
            return []
        opts = []
        for j in range(len(posts)):
            if not ranked[i, j] and not extra:
                continue
            mine = sel[i]
            traits = held_for[(j, mine)]
            for u, t in enumerate(traits):
                if ben(j, mine, t)[i]:
                    opts.append((phase(i, j, mine, t), rank[i, j], u, j, mine, t))
            opts.append((phase(i, j, mine, "general"), rank[i, j], len(traits), j, mine, "general"))
            if traits:
                opts.append((phase(i, j, mine, "revert"), rank[i, j], 0, j, mine, "revert"))
            if not on_merit[i]:
                continue
            if sel_open[i] and upgrade and ranked[i, j]:
                opts += [(0, rank[i, j], len(traits) + k, j, code, "general")
                         for k, code in enumerate(policy.reserved_codes, 1) if member[code][i]]
            elif not sel_open[i]:
                opts.append((phase(i, j, policy.open, "general"), rank[i, j], 1 << 10, j, policy.open, "general"))
                if held_for[(j, policy.open)]:
                    opts.append((5, rank[i, j], 1 << 10, j, policy.open, "revert"))
        return sorted(opts)

    for i in np.flatnonzero(sel != ""):
        i = int(i)
        mine = seat_of.get(i)
        for ph, _, _, j, code, kind in options(i):
            if (j, code, kind) == mine:
                break
            cap = capacity(j, code, kind)
            if cap <= 0:
                continue
            if code == policy.open and not sel_open[i]:
                # A freed open vacancy: only while upgrades into the category left one to those ahead of i.
                ahead = sum(1 for h in freed_to[sel[i]] if h != i and (phase(h, *seat_of[h]), h) < (ph, i))
                if ahead >= freed_by[sel[i]]:
                    continue
            hs = holders.get((j, code, kind), [])
            rivals = [h for h in hs if (phase(h, j, code, kind), h) > (ph, i)]
            what = f"{code} vacancies" + ("" if kind == "general" else " reverted from held seats" if kind == "revert"
                                          else f" held for {kind}")
            if len(hs) < cap:
                out.append(Violation("vacancy left while an eligible candidate wanted it", ids[i], posts[j],
                                     f"{cap - len(hs)} {what} unfilled", src if kind == "general" else src_h))
            elif rivals:
                h = max(rivals)
                out.append(Violation("justified envy", ids[i], posts[j], f"rank {i + 1} passed over for rank "
                                     f"{h + 1} ({ids[h]}) on {what}", src if kind == "general" else src_h))
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
        ranked = problem.ranked
        can = np.zeros(len(problem.candidates), dtype=bool)
        for code in [policy.open, *policy.reserved_codes]:
            has = np.array([seats.cap(p, code) > 0 for p in problem.posts])
            can |= may_hold(policy, problem, code) & (ranked & has).any(axis=1)
        prefs = tuple(np.array([0] if ok else [], dtype=np.int32) for ok in can)
    merged_problem = Problem(problem.candidates, ("ALL",), (), prefs, problem.sources)
    minimums: dict[tuple[str, str, str], int] = {}
    for (_, code, t), m in seats.minimums.items():
        minimums[("ALL", code, t)] = minimums.get(("ALL", code, t), 0) + m
    merged_seats = SeatTable(("ALL",), totals, minimums)
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
    found = verify_cadre(single, merged_problem, merged, merged_seats)  # the merged list is one cadre
    return [Violation(f"recommendation list: {x.rule}", x.candidate, "", x.detail, x.source) for x in found
            if x.rule != "ceiling broken"]


def two_stages(r: Reading) -> list[Violation]:
    """A recommendation list and the service allocation among the recommended, each checked by its rules
    (CSE Rule 16(2); Union of India v. Ramesh Ram 2010)."""
    sel = recommended_as(r.policy, r.problem, r.alloc)
    return [*recommendation_list(r.policy, r.problem, r.seats, r.alloc, sel),
            *service_allocation(r.policy, r.problem, r.seats, r.alloc, sel)]
