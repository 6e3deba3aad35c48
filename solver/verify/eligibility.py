"""Row by row: may this appointee hold this vacancy by this route, and does it count against the right category.

Each function checks one rule over every allocation row and returns its breaches (`Violation`s).
"""
from __future__ import annotations

from ..data.routes import NOT_RANKED, Route
from ..data.lists import ABSENT
from .allocation import Violation
from .seat_pools import PoolBars
from .reading import OPEN_MERIT, Reading
from ..data.words import article

SRC_RELAXED = "DoPT OM 01.07.1998, 04.04.2018; Deepa E.V. v. Union of India 2017"


def selected_once(r: Reading) -> list[Violation]:
    """Nobody holds two vacancies (SPEC.md, allocation.csv: one row per appointee)."""
    seen, out = set(), []
    for row, i in enumerate(r.alloc.cand.tolist()):
        if i in seen:
            out.append(r.violation("selected twice", i, r.alloc.post[row], "the candidate holds more than one "
                                   "vacancy", "SPEC.md allocation.csv"))
        seen.add(i)
    return out


def applied_for(r: Reading) -> list[Violation]:
    """An appointee holds a post they ranked, unless the policy allocates the recommended to unranked posts
    (SPEC.md, preferences.csv)."""
    m = r.policy.migration
    if m.selection_list and m.allocate_unranked or r.problem.preferences is None:
        return []
    # (each pair read off its candidate's list: the n x P matrix of who ranked what is 950 MB at JoSAA's size)
    unranked = r.problem.ranking.ranks(r.alloc.cand, r.alloc.post) == NOT_RANKED
    # (a seat pool of a program he ranked, which bars him: the bar is the breach, `pool_holders`)
    bars = PoolBars(r.policy, r.problem)
    return [r.violation("post not applied for", i, j, "the candidate did not rank this post", "SPEC.md preferences.csv")
            for i, j in zip(r.alloc.cand[unranked].tolist(), r.alloc.post[unranked].tolist())
            if not bars.of_ranked_program(i, j)]


def on_the_list(r: Reading) -> list[Violation]:
    """An appointee to a post ranked by a merit list of its own is on that list (a candidate the list does not
    rank has no place in the post's order of merit: the notice's post-specific merit list, e.g. SSC CGL's JSO
    on Tier-II Paper-II)."""
    out = []
    for i, j, seat in zip(r.alloc.cand.tolist(), r.alloc.post.tolist(), r.alloc.seat):
        place, listed = r.place(j, seat)
        if listed and place[i] >= ABSENT:
            out.append(r.violation("not on the post's merit list", i, j, f"the post ranks by list {listed}, which "
                                   "does not rank the candidate", "the recruitment's notice (post-specific merit list)"))
    return out


def horizontal_labels(r: Reading) -> list[Violation]:
    """A seat labelled for a horizontal trait is held by one who has it (Anil Kumar Gupta 1995; Rajesh Kumar
    Daria 2007)."""
    c, out = r.problem.candidates, []
    for row in r.rows:
        i, j = r.alloc.cand[row], r.alloc.post[row]
        for label in filter(None, r.alloc.horizontal[row].split(";")):
            if not c.trait(label)[i]:
                out.append(r.violation("horizontal seat held by a non-beneficiary", i, j, f"labelled {label}, which "
                                       "the candidate is not", "Anil Kumar Gupta 1995; Rajesh Kumar Daria 2007"))
    return out


def fitness(r: Reading) -> list[Violation]:
    """Nobody found unfit (`fit` = false) is appointed: Bill 2004 s.8(2) proviso ("no candidate who is found
    unfit to hold the post shall be appointed"), s.3(3) ("provided they are not found unfit"); Manipur Act 1976
    s.9 (promoted "provided they posses the minimum qualifications")."""
    fit = r.problem.candidates.fit
    return [r.violation("appointed though found unfit", i, j, "fit = false in the candidates file",
                        r.cite("fitness"))
            for i, j in zip(r.alloc.cand.tolist(), r.alloc.post.tolist()) if not fit[i]]


def route_eligibility(r: Reading) -> list[Violation]:
    """The route may fill the seat, and the holder may take it by that route: open vacancies on merit to all
    but those who availed a relaxed standard; reserved vacancies to the category's members less its creamy
    layer; exchange, fallback and de-reservation only as the policy's groups, chains and rules allow."""
    c = r.problem.candidates
    out, fit = [], c.fit
    for row in r.rows:
        route, seat = r.alloc.route[row], r.alloc.seat[row]
        if not fit[r.alloc.cand[row]]:
            continue   # `fitness` names it: one found unfit may hold nothing by any route
        if c.failed_test is not None and c.failed_test[r.alloc.cand[row]] and route != Route.PROBATION:
            out.append(r.violation("failed the test, appointed other than on probation", r.alloc.cand[row],
                                   r.alloc.post[row], f"failed_test = true, route {route}", r.cite("probation")))
            continue
        if row in r.misrouted:
            out.append(r.violation("wrong route", r.alloc.cand[row], r.alloc.post[row], f"route {route} on an open "
                                   "vacancy: it fills reserved vacancies only", "SPEC.md allocation.csv"))
            continue
        out.extend(_BY_ROUTE[route](r, row, r.alloc.cand[row], int(r.alloc.post[row]), seat))
    return out


def _open_merit(r: Reading, row: int, i: int, j: int, seat: str) -> list[Violation]:
    if seat != r.policy.open:
        return [r.violation("wrong category", i, j, f"open_merit route on {article(seat)} {seat} vacancy", r.cite("open_merit", OPEN_MERIT))]
    if not r.may[r.policy.open][i]:
        return [r.violation("relaxed candidate on an open vacancy", i, j, "availed a relaxed standard", SRC_RELAXED)]
    return []


def _reserved(r: Reading, row: int, i: int, j: int, seat: str) -> list[Violation]:
    if seat == r.policy.open:
        if r.policy.migration.selection_list:
            return []   # a reserved-selected candidate on an open vacancy an upgrade freed (CSE Rule 16(2))
        return [r.violation("wrong route", i, j, "route reserved on an open vacancy (open vacancies are filled on "
                            "merit: open_merit)", r.cite("open_merit", OPEN_MERIT))]
    return _member(r, i, j, seat, Route.RESERVED)


def _member(r: Reading, i: int, j: int, seat: str, route: str) -> list[Violation]:
    """The holder of a reserved vacancy by their own compartment's route is a member of its category."""
    if r.may[seat][i]:
        return []
    own = r.problem.candidates.category[i]
    if r.problem.candidates.creamy[i] and r.policy.category(seat).creamy_layer_excluded and own == seat:
        return [r.violation("creamy layer on a reserved vacancy", i, j, f"creamy-layer {own} candidate on {article(seat)} {seat} "
                            "vacancy", r.cite("creamy_layer", "Indra Sawhney 1992"))]
    return [r.violation("wrong category", i, j, f"{own} candidate on {article(seat)} {seat} vacancy by route {route}",
                        r.cite("reserved_only"))]


def _horizontal_adjustment(r: Reading, row: int, i: int, j: int, seat: str) -> list[Violation]:
    if seat != r.policy.open:
        return _member(r, i, j, seat, Route.HORIZONTAL_ADJUSTMENT)
    if not r.may[r.policy.open][i]:
        return [r.violation("relaxed candidate on an open vacancy", i, j, "availed a relaxed standard",
                            "DoPT OM 01.07.1998")]
    return []


def _exchange(r: Reading, row: int, i: int, j: int, seat: str) -> list[Violation]:
    if r.exchange_groups[row]:
        return []
    own = r.problem.candidates.category[i]
    return [r.violation("exchange not allowed", i, j, f"{own} candidate on {article(seat)} {seat} vacancy: no same-year exchange "
                        "group and no carried vacancy old enough to exchange", r.cite("exchange"))]


def _fallback(r: Reading, row: int, i: int, j: int, seat: str) -> list[Violation]:
    if any(f.from_ == seat and any(r.may[x][i] for x in f.to) for f in r.policy.fallback):
        return []
    own = r.problem.candidates.category[i]
    return [r.violation("fallback not allowed", i, j, f"no fallback chain from {seat} to {own}",
                        r.cite("fallback"))]


def _dereserved(r: Reading, row: int, i: int, j: int, seat: str) -> list[Violation]:
    if not r.policy.unfilled.in_first_round:
        why = "before the fresh recruitment from the reserved categories" if r.policy.unfilled.dereserve else ""
        return [r.violation("de-reservation forbidden", i, j, f"{seat} vacancy de-reserved {why}".strip(),
                            r.cite("dereserve", r.policy.unfilled.source))]
    if not r.may[r.policy.open][i]:
        return [r.violation("relaxed candidate on an open vacancy", i, j, "de-reserved vacancies are open",
                            "DoPT OM 01.07.1998")]
    return []


def _probation(r: Reading, row: int, i: int, j: int, seat: str) -> list[Violation]:
    if not r.probation_post(j):
        return [r.violation("probation not allowed", i, j, f"post {r.problem.posts[j]}'s class admits no recruitment "
                            "on probation (probation.post_classes)", r.cite("probation"))]
    if not r.on_probation[seat][i]:
        own = r.problem.candidates.category[i]
        return [r.violation("probation not allowed", i, j, f"{own} candidate on probation against {article(seat)} {seat} vacancy: "
                            "only a member of a probation category who failed the test", r.cite("probation"))]
    return []


def _upgrade(r: Reading, row: int, i: int, j: int, seat: str) -> list[Violation]:
    if not r.policy.migration.upgrade:
        return [r.violation("upgrade not allowed", i, j, "the policy has no Rule 16(2) upgrade", "CSE Rule 16(2)")]
    if seat == r.policy.open or not r.may[seat][i]:
        own = r.problem.candidates.category[i]
        return [r.violation("wrong category", i, j, f"{own} candidate upgraded to {article(seat)} {seat} vacancy", "CSE Rule 16(2)")]
    return []


_BY_ROUTE = {Route.OPEN_MERIT: _open_merit, Route.RESERVED: _reserved, Route.HORIZONTAL_ADJUSTMENT: _horizontal_adjustment,
             Route.EXCHANGE: _exchange, Route.FALLBACK: _fallback, Route.DERESERVED: _dereserved, Route.UPGRADE: _upgrade,
             Route.PROBATION: _probation}


def counted_against(r: Reading) -> list[Violation]:
    """The category an appointment counts against: open for open merit and de-reserved vacancies (a
    reserved candidate selected on merit is not counted against the quota: central Bill 2004 s.5(2)); the
    seat's for reserved ones; the holder's own for exchange and fallback. After a recommendation list the
    policy says how Rule 16(2) crossings count (`migration.upgraded_counts_as`; Ramesh Ram 2010)."""
    p, out = r.policy, []
    for row in r.rows:
        if row in r.misrouted:
            continue
        i, j, route, seat = r.alloc.cand[row], r.alloc.post[row], r.alloc.route[row], r.alloc.seat[row]
        own = r.problem.candidates.category[i]
        expect = {Route.OPEN_MERIT: p.open, Route.DERESERVED: p.open, Route.RESERVED: seat, Route.PROBATION: seat,
                  Route.EXCHANGE: own, Route.FALLBACK: own}.get(route)
        if p.migration.selection_list and (route == Route.UPGRADE or (route == Route.RESERVED and seat == p.open)):
            as_reserved = p.migration.upgraded_counts_as == "reserved"
            expect = (seat if route == Route.UPGRADE else p.open) if as_reserved else \
                     (p.open if route == Route.UPGRADE else own)
        if expect is not None and r.alloc.counted[row] != expect:
            out.append(r.violation("counted against the wrong category", i, j, f"counted as {r.alloc.counted[row]}, "
                                   f"expected {expect}", r.cite("open_merit", OPEN_MERIT)))
    return out
