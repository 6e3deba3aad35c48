"""What a solved year does to the register: the inverse of `vacancy.carried` carry-in.

Slots of a category at a post are filled in this order: carried items oldest first, then the year's own
vacancies. So a category's own appointees clear its oldest carried vacancies first, and what passes to
exchange partners or the open list, or stays unfilled, is its newest.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..chain.pools import DERESERVED, EXCHANGE, FALLBACK, PROBATION
from ..outcome.result import Result
from ..chain.vacancy.carried import Carried, carried_trait, carries, claim_partners, exchangeable

# Events that end an item's life; "dereserved" ends it only for a kept-vacant post (filled from the open
# list), while a carried reservation survives its de-reservation (Manipur s.4).
CLOSING = {"filled", "exchanged", "lapsed"}


@dataclass
class YearRecord:
    year: int
    roster_used: dict[str, tuple[int, int, int | None]]
    posts: tuple[str, ...] = ()     # the cadres this year recruited for
    events: list[tuple[Carried, str, str]] = field(default_factory=list)      # (item, event, detail)
    # (post, category, kind, detail[, trait])
    new_items: list[tuple] = field(default_factory=list)
    table: dict[str, dict[str, int]] = field(default_factory=dict)            # category -> column -> count
    by_post: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)  # (post, category) -> ...
    recruitment: str = "direct"

    def count(self, post: str, code: str, column: str, k: int = 1) -> None:
        """Count `k` under `column` for `code`'s row of the simulation table and its post's row of the tally."""
        row = self.table.setdefault(code, dict.fromkeys(TABLE_COLUMNS, 0))
        row[column] += k
        self.note(post, code, column, k)

    def note(self, post: str, code: str, what: str, k: int = 1) -> None:
        """Count `k` under `what` in the tally only (the annual report's appointments by route)."""
        at = self.by_post.setdefault((post, code), {})
        at[what] = at.get(what, 0) + k


TABLE_COLUMNS = ["vacancies", "carried_in", "filled", "exchanged", "dereserved", "carried_out", "lapsed"]


def row_name(item: Carried) -> str:
    """The simulation table's row: the category, or the category and trait of a horizontal seat."""
    return f"{item.category} {carried_trait(item)}" if item.kind == "horizontal" else item.category


def closes(item: Carried, event: str) -> bool:
    """Whether an event ends an item. A claim (Manipur s.6) ends when its community fills the vacancy it took
    back, or lapses; taken by the partner again, it keeps its years."""
    if item.kind == "claim":
        return event in ("filled", "lapsed")
    return event in CLOSING or (event == "dereserved" and item.kind == "vacancy")


def year_record(result: Result, year: int) -> YearRecord:
    policy, seats = result.policy, result.seats
    rec = YearRecord(year, dict(seats.roster_used), tuple(seats.posts), recruitment=policy.recruitment)
    _appointments(rec, result)
    _carried_on(rec, policy, seats, year)
    groups = _vacancy_groups(result)
    minimums: dict[str, list] = {}
    for (p, code, trait), m in seats.minimums.items():
        minimums.setdefault(p, []).append((code, trait, m))
    overall = result.horizontal_report() if seats.overall else []
    for j, post in enumerate(seats.posts):
        for code in policy.reserved_codes:
            items = seats.carried.get((post, code), ())
            rec.count(post, code, "vacancies", seats.cap(post, code))
            rec.count(post, code, "carried_in", len(items))
            for carried, base, events in groups.get((j, code), ()):
                mine = [x for x in items if exchangeable(policy, x, year) == carried]
                _settle(rec, policy, post, code, mine + [None] * (base - len(mine)), events, year)
        if seats.overall:
            _overall(rec, [row for row in overall if row["post"] == post])
        elif post in minimums:
            _horizontal(rec, result, j, minimums[post], post, year)
        for (p, code), k in seats.carried_excess.items():
            if p == post:
                _above_ceiling(rec, policy, post, code, k, year)
    return rec


def _carried_on(rec: YearRecord, policy, seats, year: int) -> None:
    """The items that lapse this year, and those deferred (carried in and out again)."""
    for item in seats.lapsed:
        # carried in, and ends here: one year's carried_out is the next recruitment year's carried_in
        rec.count(item.post, row_name(item), "carried_in")
        _lapse(rec, policy, item, year)
    for item, why in seats.deferred:
        rec.events.append((item, "deferred", why))
        rec.count(item.post, row_name(item), "carried_in")
        rec.count(item.post, row_name(item), "carried_out")


def _vacancy_groups(result: Result) -> dict[tuple[int, str], list[tuple[bool, int, list[str]]]]:
    """Per (post index, reserved category): its vacancies in groups (carried-exchangeable or not, how many),
    each with what became of them, in order: filled by the category's own, exchanged, de-reserved.

    In one cadre each phase-0 pool is a group and later phases take from it (`Result.source_pool`). After a
    recommendation list every phase fills its own category's vacancies (phase 0 the Rule 16(2) upgrades,
    phases 2, 3 and 5 the reserved-selected, `chain.selection.allocation_pools`): the category's vacancies at
    a post are one group, filled by everyone whose seat counts against it there (`Result.seat_category`)."""
    pools, seats = result.pools, result.seats
    if pools.selection is not None:
        post_of = result.held_post
        groups = {}
        for j, post in enumerate(seats.posts):
            for code in result.policy.reserved_codes:
                filled = int(((post_of == j) & (result.seat_category == code)).sum())
                groups[(j, code)] = [(False, seats.cap(post, code), ["filled"] * filled)]
        return groups
    own, took = _fills(result)
    groups: dict[tuple[int, str], list] = {}
    for q in sorted(pools.pools, key=lambda q: q.precedence):
        if q.phase == 0:
            events = ["filled"] * int(own[q.index] + took["probation"][q.index]) \
                + ["exchanged"] * int(took["exchanged"][q.index]) \
                + ["dereserved"] * int(took["dereserved"][q.index])
            groups.setdefault((q.post, q.category), []).append((q.carried, q.base, events))
    return groups


def _fills(result: Result):
    """Per phase-0 pool: its own appointees, and the vacancies later phases took from it, by route."""
    pools, assigned = result.pools, result.assignment.pool
    n_pools = len(pools.pools)
    own = np.bincount(assigned[assigned >= 0], minlength=n_pools)
    later = (assigned >= 0) & (result.source_pool != assigned)
    route_of = np.array([p.route for p in pools.pools], dtype=object)[assigned[later]]
    took = {kind: np.bincount(result.source_pool[later][np.isin(route_of, routes)], minlength=n_pools)
            for kind, routes in (("exchanged", [EXCHANGE, FALLBACK]), ("dereserved", [DERESERVED]),
                                 ("probation", [PROBATION]))}
    return own, took


def _above_ceiling(rec: YearRecord, policy, post: str, code: str, k: int, year: int) -> None:
    """Reservations above the ceiling, carried to a later year (Manipur s.5)."""
    for _ in range(k):
        rec.new_items.append((post, code, "reservation", f"above the {policy.ceiling.share:.0%} ceiling "
                              f"in {year} ({policy.ceiling.source or 'ceiling.excess'})"))
    rec.count(post, code, "carried_out", k)


def _lapse(rec: YearRecord, policy, item: Carried, year: int) -> None:
    """An item past its years. A kept-vacant post whose years are over is offered as an open vacancy this year
    (`vacancy.carry_in`); where the policy de-reserves and carries the reservation, that is a de-reservation
    (Bihar s.4(6)(d): "the remaining backlog vacancies may be filled by general candidates after de-reserving
    them but the vacancies so de-reserved shall be carried forward for three recruitment years"; Manipur s.7
    likewise), whichever year it falls in, so the reservation is carried from this year."""
    name = row_name(item)
    if item.kind == "vacancy" and policy.unfilled.dereserve and carries(policy, item.category):
        rec.events.append((item, "dereserved", f"kept {policy.unfilled.carry_years} recruitment years "
                           f"(unfilled.carry_years); in {year} offered to general candidates at {item.post} "
                           f"and its reservation carried ({policy.unfilled.source or 'unfilled.dereserve'})"))
        rec.new_items.append((item.post, item.category, "reservation", f"backlog of {item.origin_year} "
                              f"de-reserved in {year} when its years ran out; reservation carried"))
        rec.count(item.post, name, "dereserved")
        rec.count(item.post, name, "carried_out")
        return
    if item.kind == "horizontal":
        why = f"older than {policy.horizontal.carry_years} recruitment years (horizontal.carry_years)"
    elif item.kind == "claim":
        why = f"older than {claim_partners(policy, item.category)[1]} recruitment years (exchange.claim_years)"
    else:
        why = f"older than {policy.unfilled.carry_years} recruitment years (unfilled.carry_years)"
        if item.kind == "vacancy":
            why += f"; in {year} offered as an open vacancy, no reservation carried"
    rec.events.append((item, "lapsed", why))
    rec.count(item.post, name, "lapsed")


def _appointments(rec: YearRecord, result: Result) -> None:
    """The tally's appointments: per post, by seat category and route, and by the appointees' own category;
    the open vacancies (the reserved ones are counted with their carried items)."""
    policy, posts = result.policy, result.seats.posts
    for post in posts:
        rec.note(post, policy.open, "vacancies", result.seats.cap(post, policy.open))
        rec.note(post, policy.open, "exempt", result.seats.exempt.get(post, 0))
    for _, post, seat, _, _, route, _ in result.allocation_rows():
        rec.note(post, seat, f"appointed:{route}")
    for (post, code), k in result.selected_by_own_category().items():
        rec.note(post, code, "appointees", k)


def _settle(rec: YearRecord, policy, post, code, slots, events, year) -> None:
    """Walk one pool's slots (carried items oldest first, then the year's own vacancies as None) against what
    happened to its vacancies: own appointees first, then what later phases took, then the unfilled rest."""
    claim_years = claim_partners(policy, code)[1]
    for slot, event in zip(slots, events):
        rec.count(post, code, event)
        if event == "exchanged" and claim_years and (slot is None or slot.kind != "claim"):
            rec.new_items.append((post, code, "claim", f"filled by exchange in {year}; {code} keeps its claim "
                                  f"{claim_years} recruitment years ({policy.exchange_source(code)})"))
            rec.count(post, code, "carried_out")
        if slot is not None:
            rec.events.append((slot, event, f"in {year} at {post}"))
            if not closes(slot, event):
                # a carried reservation de-reserved again, a claim its partner took again: it lives on
                rec.count(post, code, "carried_out")
            elif event == "dereserved" and slot.kind == "vacancy" and carries(policy, code):
                # Bihar s.4(6)(d): "the vacancies so de-reserved shall be carried forward for three recruitment
                # years": the kept-vacant post is filled, its reservation carried on.
                rec.new_items.append((post, code, "reservation", f"backlog of {slot.origin_year} de-reserved in "
                                      f"{year}; reservation carried ({policy.unfilled.source or 'unfilled'})"))
                rec.count(post, code, "carried_out")
        elif event == "dereserved" and carries(policy, code):
            rec.new_items.append((post, code, "reservation", f"de-reserved in {year}; reservation carried "
                                  f"({policy.unfilled.source or 'unfilled.carry_years'})"))
            rec.count(post, code, "carried_out")
    for slot in slots[len(events):]:
        if slot is not None:
            rec.events.append((slot, "unfilled", f"in {year} at {post}; carried further"))
            rec.count(post, code, "carried_out")
        elif carries(policy, code):
            rec.new_items.append((post, code, "vacancy", f"unfilled in {year}; kept for {code}"))
            rec.count(post, code, "carried_out")
        else:
            rec.count(post, code, "lapsed")


def _horizontal(rec: YearRecord, result: Result, j: int, minimums: list, post: str, year: int) -> None:
    """Carried horizontal seats are served first, oldest first; a seat of this year's minimum nobody could fill
    is carried when the policy says so (`horizontal.unfilled`). A seat serves the minimum of the category it
    counts against at its post: a phase-0 compartment's in one cadre, a held seat after a recommendation list.
    A trait the policy holds (`horizontal.held`) is carried whatever `horizontal.unfilled` says."""
    policy, seats = result.policy, result.seats
    post_of = result.held_post
    label = {}
    for i in np.flatnonzero(post_of == j):
        for t in result.serves(int(i)):
            label.setdefault((result.seat_category[i], t), []).append(int(i))
    carry_all = policy.horizontal.unfilled == "carry_forward" and policy.horizontal.carry_years > 0
    for code, trait, minimum in minimums:
        # (a held trait's seats its beneficiaries did not fill were kept vacant to be carried: `horizontal.held`)
        carry = carry_all or (trait in policy.horizontal.held and policy.horizontal.carry_years > 0)
        items = seats.carried_horizontal.get((post, code, trait), ())
        got = len(label.get((code, trait), ()))
        name = f"{code} {trait}"
        rec.count(post, name, "vacancies", minimum)
        rec.count(post, name, "carried_in", len(items))
        for k, item in enumerate(items):
            served = k < got
            rec.events.append((item, "filled" if served else "unfilled", f"in {year} at {post} ({trait})"))
            rec.count(post, name, "filled" if served else "carried_out")
        short = (minimum - len(items)) - max(0, got - len(items))
        rec.count(post, name, "filled", max(0, got - len(items)))
        for _ in range(max(0, short)):
            if carry:
                rec.new_items.append((post, code, "horizontal", f"{trait} seat unfilled in {year}", trait))
            rec.count(post, name, "carried_out" if carry else "lapsed")


def _overall(rec: YearRecord, rows: list[dict]) -> None:
    """Overall minimums are the post's (Anil Kumar Gupta 1995): one row per trait, "all women"; a seat nobody
    could fill reverts to the compartments (carrying is refused with overall minimums)."""
    for row in rows:
        name = f"all {row['trait']}"
        rec.count(row["post"], name, "vacancies", row["minimum"])
        rec.count(row["post"], name, "filled", row["minimum"] - row["short"])
        rec.count(row["post"], name, "lapsed", row["short"])
