"""Two-stage checks for a recommendation list drawn before service allocation (CSE Rule 16(2); Union of
India v. Ramesh Ram 2010)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..policy import Policy
from ..data.problem import Problem
from ..data.routes import Route
from ..chain.vacancy.seats import SeatTable
from .allocation import Allocation, Violation
from .cadre import verify_cadre
from .listed import competes_for_list, listed_unplaced
from .reading import Reading
from .service_seats import GENERAL, REVERT, SRC_HELD, SRC_SERVICE, ServiceSeats
from ..data.words import article


def held_seats_to_their_beneficiaries(s: ServiceSeats) -> list[Violation]:
    """A seat held for a post's minimum goes to a beneficiary recommended against its compartment; a
    `horizontal` label names a minimum the compartment has (Anil Kumar Gupta 1995; OM 15.01.2018)."""
    a, posts, ids, out = s.alloc, s.problem.posts, s.problem.candidates.ids, []
    for r, i in enumerate(a.cand.tolist()):
        j, code, t = int(a.post[r]), a.seat[r], a.horizontal[r]
        if t and t in s.held_for[(j, code)]:
            if not (s.counts(j, code, t)[i] and s.sel[i] == code):
                out.append(Violation("held horizontal seat of one not recommended for it", ids[i], posts[j],
                                     f"{article(code)} {code} seat held for {t}: the candidate is not {article(t)} {t} beneficiary "
                                     f"recommended against {code}", SRC_HELD))
        elif t:
            out.append(Violation("horizontal seat without a minimum", ids[i], posts[j], f"no {t} minimum in {code} "
                                 f"at {posts[j]}", SRC_HELD))
    return out


def class_capacities(s: ServiceSeats) -> list[Violation]:
    """No class holds more than its seats: a trait's held seats, the other seats, the reverted ones."""
    out = []
    for (j, code, kind), hs in sorted(s.holders.items()):
        cap = s.capacity(j, code, kind)
        if len(hs) > cap:
            what = "seats reverted from unfilled held seats" if kind == REVERT else f"{kind} seats"
            out.append(Violation("over capacity", "", s.problem.posts[j], f"{len(hs)} appointees on {cap} {code} "
                                 f"{what}", SRC_HELD))
    for code, (total, vacant, traits) in s.kept.items():
        taken = s.held_taken(code)
        if len(taken) > total - vacant:
            i = max(taken, key=lambda h: (s.phase(h, *s.seat_of[h]), h))
            out.append(Violation("held horizontal seat filled by another", s.problem.candidates.ids[i],
                                 s.problem.posts[s.seat_of[i][0]], f"{len(taken)} of the {total} {code} seats held "
                                 f"for {traits} are filled, where the list recommended beneficiaries for "
                                 f"{total - vacant}: {vacant} stay vacant", s.policy.horizontal.held_source))
    return out


def upgrade_budget(s: ServiceSeats) -> list[Violation]:
    """Rule 16(2)'s budget: reserved-selected candidates on open vacancies, no more than the upgrades into
    their category freed."""
    by, to = s.freed
    return [Violation("open vacancies beyond those upgrades freed", "", "", f"{len(to[code])} {code}-selected on "
                      f"open vacancies, {by[code]} upgrades into {code}", SRC_SERVICE)
            for code in s.policy.reserved_codes if len(to[code]) > by[code]]


def merit_cum_preference(s: ServiceSeats) -> list[Violation]:
    """Nobody is passed over for a class they come to before their own seat while it has room (a wasted
    vacancy) or a holder who came to it later (justified envy)."""
    out = []
    for i in np.flatnonzero(s.sel != "").tolist():
        mine = s.seat_of.get(i)
        for ph, _, _, j, code, kind in s.options(i):
            if (j, code, kind) == mine:
                break
            if (found := _passed_over(s, i, ph, j, code, kind)) is not None:
                out.append(found)
    return out


def _passed_over(s: ServiceSeats, i: int, ph: int, j: int, code: str, kind: str) -> Violation | None:
    """Candidate i, coming to the class (post j, code, kind) in phase `ph` before his own seat, left out of it
    while it had room or held by one who came later; None where not."""
    posts, ids = s.problem.posts, s.problem.candidates.ids
    cap = s.capacity(j, code, kind)
    if cap <= 0:
        return None
    if code == s.policy.open and not s.sel_open[i]:
        # A freed open vacancy: only while upgrades into the category left one to those ahead of i.
        by, to = s.freed
        ahead = sum(1 for h in to[s.sel[i]] if h != i and (s.phase(h, *s.seat_of[h]), h) < (ph, i))
        if ahead >= by[s.sel[i]]:
            return None
    hs = s.holders.get((j, code, kind), [])
    rivals = [h for h in hs if (s.phase(h, j, code, kind), h) > (ph, i)]
    if kind == REVERT and s.held_full(code, i):
        # (the compartment's held seats as filled as the list lets them: no waste, but envy of any on them)
        cap = len(hs)
        rivals = [h for h in s.held_taken(code) if s.seat_of[h][2] == REVERT and (s.phase(h, *s.seat_of[h]), h) > (ph, i)]
    what = f"{code} vacancies" + ("" if kind == GENERAL else " reverted from held seats" if kind == REVERT
                                  else f" held for {kind}")
    source = SRC_SERVICE if kind == GENERAL else SRC_HELD
    if len(hs) < cap:
        return Violation("vacancy left while an eligible candidate wanted it", ids[i], posts[j],
                         f"{cap - len(hs)} {what} unfilled", source)
    if rivals:
        h = max(rivals)
        return Violation("justified envy", ids[i], posts[j], f"rank {i + 1} passed over for rank {h + 1} ({ids[h]}) on "
                         f"{what}", source)
    return None


SERVICE_RULES = (held_seats_to_their_beneficiaries, class_capacities, upgrade_budget, merit_cum_preference)


def recommended_as(policy: Policy, problem: Problem, alloc: Allocation) -> np.ndarray:
    """The category each appointee was recommended against, read off the allocation: open for open merit,
    de-reservation and upgrades (Rule 16(2) upgrades open-selected candidates); a reserved-selected candidate
    on an open vacancy freed by an upgrade was recommended against their own category; a de-reserved
    appointee against the reserved vacancy it fills."""
    sel = np.full(len(problem.candidates), "", dtype=object)
    for r, i in enumerate(alloc.cand):
        route, seat = alloc.route[r], alloc.seat[r]
        if route in (Route.OPEN_MERIT, Route.UPGRADE):
            sel[i] = policy.open
        elif route == Route.RESERVED and seat == policy.open:
            sel[i] = problem.candidates.category[i]
        else:
            sel[i] = seat
    return sel


def recommendation_list(policy, problem, seats, alloc, sel, unplaced=()) -> list[Violation]:
    """The recommendation list is a single-cadre recruitment over every post's vacancies: check it as one, with
    the recommended whom no ranked post could take (`listed_unplaced`) on it."""
    totals: dict[tuple[str, str], int] = {}
    for (_, code), k in seats.seats.items():
        totals[("ALL", code)] = totals.get(("ALL", code), 0) + k
    prefs = None
    if not policy.migration.allocate_unranked:
        prefs = tuple(np.array([0] if ok else [], dtype=np.int32) for ok in competes_for_list(policy, problem, seats))
    merged_problem = Problem(problem.candidates, ("ALL",), (), prefs, problem.sources)
    minimums: dict[tuple[str, str, str], int] = {}
    for (_, code, t), m in seats.minimums.items():
        minimums[("ALL", code, t)] = minimums.get(("ALL", code, t), 0) + m
    merged_seats = SeatTable(("ALL",), totals, minimums)
    merged = _merged_allocation(policy, problem, alloc, sel, unplaced)
    single = policy.model_copy(update={"migration": policy.migration.model_copy(update={"selection_list": False})})
    found = verify_cadre(single, merged_problem, merged, merged_seats)  # the merged list is one cadre
    return [Violation(f"recommendation list: {x.rule}", x.candidate, "", x.detail, x.source) for x in found
            if x.rule not in ("ceiling broken", "seats not as given")]   # (both checked on the posts' own seats)


def _merged_allocation(policy, problem, alloc, sel, unplaced) -> Allocation:
    """The recommendation list as one cadre's allocation, in merit order: each recommended candidate against the
    category recommended for, an upgrade read as the open selection it was, and the listed without a post."""
    rows = np.flatnonzero(sel[alloc.cand] != "")
    route = [Route.OPEN_MERIT if alloc.route[r] == Route.UPGRADE else alloc.route[r] for r in rows]
    seat = [sel[alloc.cand[r]] for r in rows]
    counted = [policy.open if s == policy.open or alloc.route[r] == Route.DERESERVED else
               (problem.candidates.category[alloc.cand[r]] if alloc.route[r] in (Route.EXCHANGE, Route.FALLBACK) else s)
               for r, s in zip(rows, seat)]
    cand, ids = alloc.cand[rows].tolist(), [alloc.ids[r] for r in rows]
    for i, code in unplaced:
        cand.append(i)
        ids.append(str(problem.candidates.ids[i]))
        seat.append(code)
        counted.append(code)
        route.append(Route.OPEN_MERIT if code == policy.open else Route.RESERVED)
    order = np.argsort(cand, kind="stable").tolist()
    return Allocation(np.array(cand, dtype=np.int64)[order], np.zeros(len(cand), dtype=np.int64),
                      [seat[k] for k in order], [counted[k] for k in order], [""] * len(cand),
                      [route[k] for k in order], [ids[k] for k in order])


def two_stages(r: Reading) -> list[Violation]:
    """A recommendation list and the service allocation among the recommended, each checked by its rules
    (CSE Rule 16(2); Union of India v. Ramesh Ram 2010)."""
    sel = recommended_as(r.policy, r.problem, r.alloc)
    s = ServiceSeats(r.policy, r.problem, r.seats, r.alloc, sel)
    unplaced = ()
    if r.problem.preferences is not None and not r.policy.migration.allocate_unranked:
        unplaced = listed_unplaced(r.policy, r.problem, r.seats, sel, lambda *a: could_take(s, *a) is not None,
                                   s.list_minimums)
        left = [_left_out(s, i, code) for i, code in unplaced]
        s = replace(s, listed=tuple(unplaced))
        return [*recommendation_list(r.policy, r.problem, r.seats, r.alloc, sel, unplaced),
                *[v for v in left if v is not None], *[v for rule in SERVICE_RULES for v in rule(s)]]
    return [*recommendation_list(r.policy, r.problem, r.seats, r.alloc, sel, unplaced),
            *[v for rule in SERVICE_RULES for v in rule(s)]]


def could_take(s: ServiceSeats, i: int, code: str, on_merit: bool = True) -> Violation | None:
    """Candidate i, holding no seat, as one recommended against `code` (on merit, or by horizontal adjustment):
    the first class of seats she would have come to with room, or held by one who came to it after her
    (`_passed_over`); None where there is none."""
    t = s.as_listed(i, code, on_merit)
    return next((v for opt in t.options(i) if (v := _passed_over(t, i, *opt[:1], *opt[3:])) is not None), None)


def _left_out(s: ServiceSeats, i: int, code: str) -> Violation | None:
    """A candidate the list must hold (a shortfall's beneficiary, `listed_unplaced`) whom the allocation does not
    show, though a seat she would have come to, even recommended by adjustment, was open to her."""
    if (v := could_take(s, i, code, on_merit=False)) is None:
        return None
    return Violation("recommended candidate left without a post", v.candidate, v.post, f"recommended against "
                     f"{code}, yet not allocated: {v.detail}", v.source)
