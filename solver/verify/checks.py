"""Check an allocation against the policy, rule by rule, naming the rule and its source for each breach.

Deliberately written from the policy text, not from `solver.pools`: eligibility, preference and the
phases of the procedure are derived here again, so a bug in the shared reduction cannot hide itself.
"""
from __future__ import annotations

import numpy as np

from ..policy import Policy
from ..problem import Problem
from ..vacancy.determine import SeatTable, ceiling_use, determine_seats
from .allocation import Allocation, Violation, may_hold
from .horizontal import homes, horizontal, trait_masks
from .recommendation import recommendation_list, recommended_as, service_allocation

PHASE = {"open_merit": 0, "reserved": 0, "horizontal_adjustment": 0, "upgrade": 0, "exchange": 1,
         "fallback": 2, "dereserved": 9}
SRC_OPEN = "Indra Sawhney 1992; Saurav Yadav 2020; central Bill 2004 s.5(2)"


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
    may = {code: may_hold(policy, problem, code) for code in [policy.open, *policy.reserved_codes]}
    own_members = {code: may[code] for code in policy.reserved_codes}
    order = [policy.open] + [x.code for x in policy.categories if x.eligible is None] + \
            [x.code for x in policy.categories if x.eligible is not None]
    prec = {code: k for k, code in enumerate(order)}
    post_rank = problem.post_rank
    selected = held >= 0

    # Capacity and route eligibility.
    count: dict[tuple[int, str], int] = {}
    after_years_exchange: dict[tuple[int, str], int] = {}
    dereserved: dict[tuple[int, str], int] = {}
    misrouted: set[int] = set()   # rows whose route cannot fill their seat: reported once, then left alone
    only_backlog = policy.unfilled.dereserve_when == "after_exchange"
    for r, i in enumerate(alloc.cand):
        j, seat, route = int(alloc.post[r]), alloc.seat[r], alloc.route[r]
        count[(j, seat)] = count.get((j, seat), 0) + 1
        if post_rank[i, j] >= (1 << 20) and not (policy.migration.selection_list and policy.migration.allocate_unranked):
            v("post not applied for", i, j, "the candidate did not rank this post", "SPEC.md preferences.csv")
        own = c.category[i]
        for label in filter(None, alloc.horizontal[r].split(";")):
            if not c.trait(label)[i]:
                v("horizontal seat held by a non-beneficiary", i, j, f"labelled {label}, which the candidate is "
                  "not", "Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007")
        if route in ("exchange", "fallback", "dereserved") and seat == policy.open:
            v("wrong route", i, j, f"route {route} on an open vacancy: it fills reserved vacancies only",
              "SPEC.md allocation.csv")
            misrouted.add(r)
            continue
        if route == "reserved" and seat == policy.open and not policy.migration.selection_list:
            v("wrong route", i, j, "route reserved on an open vacancy (open vacancies are filled on merit: "
              "open_merit)", SRC_OPEN)
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
            carried_x = seats.exchangeable.get((posts[j], seat), 0)
            groups = [g for g in policy.exchange if (g.after_years == 0 or carried_x) and seat in g.categories
                      and any(own_members[x][i] for x in g.categories if x != seat)]
            if not groups:
                v("exchange not allowed", i, j, f"{own} candidate on a {seat} vacancy: no same-year exchange group"
                  " and no carried vacancy old enough to exchange", "Maharashtra Act 2001 s.4(3); Manipur Act 1976 "
                  "s.4; Bihar Act 1991 s.4(6)")
            elif all(g.after_years for g in groups):
                after_years_exchange[(j, seat)] = after_years_exchange.get((j, seat), 0) + 1
        elif route == "fallback":
            chains = [f for f in policy.fallback if f.from_ == seat and any(own_members[x][i] for x in f.to)]
            if not chains:
                v("fallback not allowed", i, j, f"no fallback chain from {seat} to {own}", "Bihar Act 1991 s.4(6)")
        elif route == "dereserved":
            dereserved[(j, seat)] = dereserved.get((j, seat), 0) + 1
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
    own_fills: dict[tuple[int, str], int] = {}
    for r in range(len(alloc.cand)):
        if PHASE[alloc.route[r]] == 0:
            key = (int(alloc.post[r]), alloc.seat[r])
            own_fills[key] = own_fills.get(key, 0) + 1
    for (j, seat), k in sorted(after_years_exchange.items()):
        # Own appointees clear the oldest carried vacancies first; partners may take only what is left of them.
        room = max(0, seats.exchangeable.get((posts[j], seat), 0) - own_fills.get((j, seat), 0))
        if k > room:
            v("exchange beyond the carried vacancies", None, j, f"{k} {seat} vacancies exchanged; only {room} "
              f"carried vacancies old enough were left by {seat} candidates", "Bihar Act 1991 s.4(6)")

    if only_backlog:
        for (j, seat), k in sorted(dereserved.items()):
            # Bihar s.4(6)(d): only backlog vacancies still unfilled "even after exchange formula".
            room = max(0, seats.exchangeable.get((posts[j], seat), 0) - own_fills.get((j, seat), 0)
                       - after_years_exchange.get((j, seat), 0))
            if k > room:
                v("de-reservation beyond the backlog left after exchange", None, j,
                  f"{k} {seat} vacancies de-reserved; only {room} carried vacancies old enough to exchange were "
                  "left unfilled", policy.unfilled.source or "Bihar Act 1991 s.4(6)(d)")

    # Merit: justified envy and wasted vacancies, compartment by compartment (phase 0 routes).
    if policy.migration.selection_list:
        sel = recommended_as(policy, problem, alloc)
        out.extend(recommendation_list(policy, problem, seats, alloc, sel))
        out.extend(service_allocation(policy, problem, seats, alloc, sel))

    def my_key(i):
        r = held[i]
        if r < 0:
            return (99, 0, 0)
        return (PHASE[alloc.route[r]], post_rank[i, alloc.post[r]], prec.get(alloc.seat[r], 0))

    keys = np.array([my_key(i) for i in range(n)], dtype=np.int64) if n else np.zeros((0, 3), np.int64)
    route_arr = np.array(alloc.route, dtype=object)
    phase0 = np.array([PHASE[x] == 0 for x in alloc.route], dtype=bool)
    seat_arr = np.array(alloc.seat, dtype=object)
    for j, post in enumerate([] if policy.migration.selection_list else posts):
        home = homes(policy, problem, seats, post, may) if seats.overall else None
        at_post = alloc.cand[(alloc.post == j) & phase0]
        merit_seat = None
        if seats.overall:
            merit_seat = np.full(n, "", dtype=object)
            on_merit = np.flatnonzero((alloc.post == j) & phase0 & (route_arr != "horizontal_adjustment"))
            merit_seat[alloc.cand[on_merit]] = seat_arr[on_merit]
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
            # Carried vacancies open to exchange partners are a separate class filled first, on merit (Art.
            # 16(4B)); the compartment's horizontal minimums apply to the year's own vacancies, held by the rest.
            by_merit = np.argsort(holders, kind="stable")[seats.exchangeable.get((post, code), 0):]
            masks = trait_masks(policy, problem, seats, post, code, holders[by_merit], at_post, home,
                                merit_seat)
            if not masks and len(holders):
                worst = holders.max()
                for i in np.flatnonzero(want[:worst]):
                    v("justified envy", i, j, f"rank {i + 1} passed over for rank {worst + 1} ({ids[worst]}) "
                      f"on a {code} vacancy", SRC_OPEN if code == policy.open else "merit within the category")
            out.extend(horizontal(masks, post, code, holders[by_merit], route_arr[rows][by_merit], want, ids,
                                  policy.horizontal.multi_trait_counts_each))

    # Later phases: exchange, fallback and de-reservation only after the own category ran out.
    for r, i in enumerate([] if policy.migration.selection_list else alloc.cand):
        route, seat, j = alloc.route[r], alloc.seat[r], int(alloc.post[r])
        if r in misrouted:
            continue
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
        for g in policy.exchange:
            if g.after_years:
                rest = {x: max(0, min(left[x], seats.exchangeable.get((post, x), 0) - own_fills.get((j, x), 0)
                                      - after_years_exchange.get((j, x), 0))) for x in g.categories}
                if sum(rest.values()):
                    stages.append((1, "exchange", [x for x in g.categories if rest[x]], g.categories, g.source))
        stages += [(2, "fallback", [f.from_], f.to, f.source) for f in policy.fallback]
        if policy.unfilled.dereserve:
            stages.append((9, "dereserved", [x.code for x in policy.categories if x.carry_forward], None,
                           policy.unfilled.source))
        for phase, route, sources, takers, source in stages:
            if route == "dereserved" and only_backlog:
                rest = {x: min(left[x], seats.exchangeable.get((post, x), 0) - own_fills.get((j, x), 0)
                               - after_years_exchange.get((j, x), 0) - dereserved.get((j, x), 0)) for x in sources}
            else:
                rest = left
            if sum(max(0, rest[x]) for x in sources) <= 0:
                continue
            pool = may[policy.open] if takers is None else np.any([own_members[x] for x in takers], axis=0)
            waiting = np.flatnonzero(pool & applied & (keys[:, 0] > phase))
            if len(waiting):
                v("vacancy left while an eligible candidate wanted it", waiting[0], j,
                  f"{'/'.join(sources)} vacancies unfilled after {route}", source or route)

    # The ceiling on the year's vacancies (Art. 16(4B); central Bill 2004 s.10).
    for post in posts:
        used, total = ceiling_use(policy, seats, post)
        if used > policy.ceiling.share * total + 1e-9:
            v("ceiling broken", None, posts.index(post), f"{used} of {total} vacancies reserved",
              policy.ceiling.source or "Art. 16(4B)")
    counted_in = {x.code for x in policy.categories if x.in_ceiling}
    for j, post in enumerate(posts):
        k = sum(1 for r in range(len(alloc.cand)) if alloc.post[r] == j and alloc.counted[r] in counted_in)
        _, total = ceiling_use(policy, seats, post)
        outside, _ = seats.outside_ceiling(post, policy)  # appointees on backlog vacancies (Art. 16(4B))
        if k > policy.ceiling.share * total + outside + 1e-9:
            v("ceiling broken", None, j, f"{k} of {total} appointments count as reserved",
              policy.ceiling.source or "Art. 16(4B)")
    return out


