"""From vacancy rows to the seats of each post and category (stage 1 of the chain).

Forward: TOTAL rows are split by the (running) roster, carried vacancies join, the ceiling is applied.
Inverse: `SeatTable.rows()` gives back per-category rows that, read again, determine the same seats.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace

from ..errors import InputError, PolicyConflict, Unsupported
from ..frozen import FrozenDict, freeze_dicts
from ..policy import Policy
from ..problem import SUBCATEGORIES, Problem, VacancyRow
from .carried import Carried, YearState, carried_trait, claim_partners, exchangeable, lapses
from .roster import running


@dataclass(frozen=True)
class SeatTable:
    posts: tuple[str, ...]
    seats: dict[tuple[str, str], int]                 # (post, category) -> vacancies, open code included
    minimums: dict[tuple[str, str, str], int]         # (post, category, trait) -> horizontal minimum
    # horizontal.mode = "overall": (post, trait) -> minimum of the whole post; `solver.overall` turns it into
    # compartment minimums before the engines run.
    overall: dict[tuple[str, str], int] = field(default_factory=dict)
    # Under overall minimums, post -> {candidate: compartment} for each beneficiary merit put at the post: no
    # other compartment of the post may take her by adjustment (only the remaining beneficiaries are adjusted).
    merit_held: dict[str, dict[int, str]] = field(default_factory=dict)
    carried_excess: dict[tuple[str, str], int] = field(default_factory=dict)  # ceiling excess carried forward
    notes: tuple[str, ...] = ()
    # From the register; empty without one.
    carried: dict[tuple[str, str], tuple[Carried, ...]] = field(default_factory=dict)  # offered this year, oldest first
    exchangeable: dict[tuple[str, str], int] = field(default_factory=dict)  # of them, open to exchange partners
    carried_horizontal: dict[tuple[str, str, str], tuple[Carried, ...]] = field(default_factory=dict)
    lapsed: tuple[Carried, ...] = ()
    deferred: tuple[tuple[Carried, str], ...] = ()       # live but not offered this year, with the reason
    exempt: dict[str, int] = field(default_factory=dict)   # post -> open vacancies exempt from reservation
    # post -> (first point, points, cadre or None) of the running roster a TOTAL row used
    roster_used: dict[str, tuple[int, int, int | None]] = field(default_factory=dict)

    def __post_init__(self):
        freeze_dicts(self)
        if any(not isinstance(v, FrozenDict) for v in self.merit_held.values()):
            object.__setattr__(self, "merit_held", FrozenDict({k: FrozenDict(v) for k, v in self.merit_held.items()}))

    def cap(self, post: str, cat: str) -> int:
        return self.seats.get((post, cat), 0)

    def rows(self) -> list[tuple[str, str, int]]:
        return [(p, c, v) for (p, c), v in self.seats.items()]


    def outside_ceiling(self, post: str, policy: Policy) -> tuple[int, int]:
        """(reserved, all) vacancies of a post that the ceiling does not see: carried ones under Art. 16(4B), of
        the categories `ceiling.backlog_excluded` names (Bill 2004 s.10 proviso: SC and ST), and exempt ones."""
        return _outside(policy, self.carried, post, self.exempt.get(post, 0))


def _outside(policy: Policy, carried: dict, post: str, exempt: int) -> tuple[int, int]:
    """(reserved, all) vacancies of `post` outside the ceiling, from its carried items and its exempt vacancies."""
    items = [x for (p, c), xs in carried.items() if p == post and policy.backlog_outside_ceiling(c) for x in xs]
    return len(items), sum(x.kind == "vacancy" for x in items) + exempt


def ceiling_use(policy: Policy, table: SeatTable, post: str) -> tuple[int, int]:
    """(reserved vacancies that count against the ceiling, all vacancies) of one post's year."""
    return _ceiling_use(policy, table.seats, post, table.outside_ceiling(post, policy))


def ceiling_uses(policy: Policy, table: SeatTable) -> dict[str, tuple[int, int]]:
    """`ceiling_use` of every post, in one pass over the seats and the carried items (post by post, each
    call scanned them all: 4 s of a JoSAA-size verify)."""
    counted = {c.code for c in policy.categories if c.in_ceiling}
    used = dict.fromkeys(table.posts, 0)
    total = dict.fromkeys(table.posts, 0)
    for (p, c), v in table.seats.items():
        total[p] = total.get(p, 0) + v
        if c in counted:
            used[p] = used.get(p, 0) + v
    out_reserved = dict.fromkeys(total, 0)
    out_all = {p: table.exempt.get(p, 0) for p in total}
    for (p, c), xs in table.carried.items():
        if policy.backlog_outside_ceiling(c):
            out_reserved[p] = out_reserved.get(p, 0) + len(xs)
            out_all[p] = out_all.get(p, 0) + sum(x.kind == "vacancy" for x in xs)
    return {p: (used[p] - out_reserved.get(p, 0), total[p] - out_all.get(p, 0)) for p in total}


def _ceiling_use(policy: Policy, seats: dict, post: str, outside: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    counted = {c.code for c in policy.categories if c.in_ceiling}
    total = sum(v for (p, _), v in seats.items() if p == post)
    used = sum(v for (p, c), v in seats.items() if p == post and c in counted)
    return used - outside[0], total - outside[1]


def _reserved_in_promotion(policy: Policy, problem: Problem, row: VacancyRow) -> VacancyRow:
    """A promotion row as the Act reserves it: promotions to a grade whose direct recruitment is above the
    policy's limit for the method are not reserved (Bill 2004 s.3(2): "where element of direct recruitment does
    not exceed seventy-five per cent"; Manipur Act 1976 s.10: by selection, fifty), so the row becomes open
    vacancies outside the Act, as an exempt row is; a reserved row there contradicts the Act."""
    if policy.recruitment != "promotion" or row.exempt:
        return row
    prom = policy.promotion
    path = problem.sources.get("vacancies", "vacancies.csv")
    if row.category in policy.reserved_codes and row.vacancies and \
            row.category not in {p.code for p in prom.categories}:
        raise InputError(path, row.line, "category", f"{row.category} is not reserved in promotion "
                         f"({prom.source or 'promotion.categories'}); give its vacancies as {policy.open} or TOTAL")
    if row.post_class and row.post_class in prom.senior_included_classes and prom.method == "selection":
        raise Unsupported(f"{path}, line {row.line}: post {row.post} is of class {row.post_class}, where SC and ST "
                          "officers senior enough to be within the number of vacancies are included in the select "
                          "list unless found unfit (Bill 2004 s.3(3)); that inclusion is not implemented")
    if row.minimums:
        raise Unsupported(f"{path}, line {row.line}: horizontal minimums in promotion: the four Acts reserve "
                          "horizontally at direct recruitment only, and reservation for persons with disabilities in "
                          "promotion (RPwD Act 2016 s.34; Siddaraju 2021) is not implemented")
    limit = prom.direct_share_limit.get(prom.method)
    if limit is None:
        return row
    if row.direct_share is None:
        why = prom.source or "promotion.direct_share_limit"
        raise InputError(path, row.line, "direct_share", f"promotion by {prom.method.replace('_', '-')} is reserved "
                         f"only where direct recruitment is at most {limit:.0%} of the grade ({why}): give the "
                         "post's direct_share")
    if row.direct_share <= limit + 1e-12:
        return row
    ground = f"direct recruitment {row.direct_share:.0%} of the grade, above {limit:.0%}: no reservation in " \
             f"promotion ({prom.source or 'promotion.direct_share_limit'})"
    if row.category not in ("TOTAL", policy.open):
        raise InputError(path, row.line, "category", f"{row.category} vacancies in promotion at {row.post}, "
                         f"where {ground}; give them as {policy.open} or TOTAL")
    return replace(row, category=policy.open, exempt=ground[:200])


def determine_seats(policy: Policy, problem: Problem, enforce_ceiling: bool = True,
                    state: YearState | None = None) -> SeatTable:
    """`enforce_ceiling=False` lets `verify` report a broken ceiling as a violation instead of refusing.
    `state` is the register's view before the year: roster positions and carried vacancies."""
    seats: dict[tuple[str, str], int] = {}
    minimums: dict[tuple[str, str, str], int] = {}
    notes: list[str] = []
    roster_used: dict[str, tuple[int, int, int | None]] = {}
    exempt: dict[str, int] = {}
    for row in map(lambda r: _reserved_in_promotion(policy, problem, r), problem.vacancy_rows):
        if row.exempt:
            # Bill 2004 s.4; Manipur s.3; Bihar s.3: outside the Act, so open, no roster point, no ceiling.
            seats[(row.post, policy.open)] = seats.get((row.post, policy.open), 0) + row.vacancies
            exempt[row.post] = exempt.get(row.post, 0) + row.vacancies
            notes.append(f"{row.post}: {row.vacancies} vacancies exempt from reservation ({row.exempt}), filled as "
                         f"{policy.open}; the ceiling does not count them")
            continue
        if row.category == "TOTAL":
            local = policy.for_row(row.district, row.post_class)
            start, cadre = _roster_position(local, problem, row, state)
            split = Counter(running(local, start, row.vacancies))
            if row.vacancies == 2 and policy.roster.two_vacancies == "carry_over":
                split = _carried_over(local, problem, row, state, notes)
            if row.district:
                notes.append(f"{row.post}: a district-level post of {row.district}, split by "
                             + (f"the district's percentages ({local.districts[row.district].source or 'districts'})"
                                if local is not policy else "the State's percentages (the policy gives the district "
                                "none of its own)"))
            roster_used[row.post] = (start, row.vacancies, cadre)
            for c in [policy.open, *policy.reserved_codes]:
                seats[(row.post, c)] = split.get(c, 0)
            notes.append(f"{row.post}: {row.vacancies} vacancies split by the {policy.roster.points}-point "
                         f"roster from point {start}" + (f" (cadre of {cadre})" if cadre else "") + ": "
                         + ", ".join(f"{c} {k}" for c, k in split.items()))
        else:
            seats[(row.post, row.category)] = row.vacancies
            for trait, m in row.minimums.items():
                minimums[(row.post, row.category, trait)] = m
    for post in problem.posts:
        seats.setdefault((post, policy.open), 0)
    table = SeatTable(problem.posts, seats, minimums, exempt=exempt,
                      roster_used=roster_used)
    if state is not None:
        table = _carry_in(policy, problem, table, state, notes)
        seats = dict(table.seats)
    carried: dict[tuple[str, str], int] = {}
    uses = ceiling_uses(policy, table)
    for post in problem.posts:
        used, total = uses[post]
        limit = policy.ceiling.share * total
        if used <= limit + 1e-9 or not enforce_ceiling:
            continue
        if policy.ceiling.excess == "refuse":
            n_counted = sum(len(xs) for (p, c), xs in table.carried.items()
                            if p == post and not policy.backlog_outside_ceiling(c))
            with_backlog = f", {n_counted} of them carried from earlier years (ceiling.backlog_counts, " \
                "ceiling.backlog_excluded)" if n_counted else ""
            raise PolicyConflict(
                f"post {post}: {used} of {total} vacancies are reserved under the ceiling{with_backlog}, more than "
                f"{policy.ceiling.share:.0%} ({policy.ceiling.source or 'ceiling.share'}); "
                f"lower the reserved rows or set ceiling.excess=\"carry_forward\"")
        excess = used - int(limit + 1e-9)
        counted = [c.code for c in policy.categories if c.in_ceiling]

        def current(c: str) -> int:
            # (a claim, Manipur s.6, relabels one of this year's vacancies: it stays a current one)
            return seats.get((post, c), 0) - sum(x.kind != "claim" for x in table.carried.get((post, c), ()))
        for _ in range(excess):
            # Trim the largest current reserved row (carried vacancies stay as the register has them); ties
            # go to the category listed last (the most recent claim).
            # (carry-in admitted carried vacancies only within the ceiling, so current ones are what passes it)
            code = max(counted, key=lambda c: (current(c), counted.index(c)))
            if current(code) <= 0:
                break  # (nothing current left to trim: the carried vacancies were admitted within the ceiling)
            seats[(post, code)] -= 1
            seats[(post, policy.open)] = seats.get((post, policy.open), 0) + 1
            carried[(post, code)] = carried.get((post, code), 0) + 1
        notes.append(f"{post}: {excess} reserved vacancies above the {policy.ceiling.share:.0%} ceiling carried "
                     f"forward and filled as open this year ({policy.ceiling.source})")
    _minimums_from_shares(policy, seats, minimums, notes)
    for (post, code, trait), m in list(minimums.items()):
        # Carried vacancies and the ceiling may have shrunk a compartment below a minimum vacancies.csv gave.
        size = seats.get((post, code), 0) - table.exchangeable.get((post, code), 0)
        if m > size:
            minimums[(post, code, trait)] = size
            notes.append(f"{post}: the {trait} minimum of {code} cut from {m} to the compartment's {size} vacancies")
    if policy.migration.selection_list:
        _held_within(minimums, seats, notes)
    table = replace(table, seats=seats, minimums=minimums, carried_excess=carried, notes=tuple(notes))
    if policy.horizontal.mode == "overall":
        return _overall(policy, table, minimums, notes)
    if state is not None:
        table = _carry_in_horizontal(policy, table, state)
    return table


def _carried_over(policy: Policy, problem: Problem, row: VacancyRow, state: YearState | None,
                  notes: list[str]) -> Counter:
    """The two vacancies of a year that has only two (Manipur Act 1976 s.4(2)(a) proviso: "the roster points
    must be ensured after taking into account the carry-over of the percentage of the preceding three
    recruitment years"): over the window of the cadre's preceding `roster.carry_over_years` recruitment years
    and this one, category c is owed floor(share x vacancies) less the vacancies it had in the window; the two
    go to the categories owed most (policy order on a tie), the rest are open.

    Example: ST 31%, and the three years before had 2 vacancies each, none ST: floor(0.31 x 8) = 2, so both
    vacancies are ST."""
    path = problem.sources.get("vacancies", "vacancies.csv")
    n = policy.roster.carry_over_years
    why = policy.roster.source or "roster.two_vacancies"
    if state is None:
        raise InputError(path, row.line, "vacancies", f"post {row.post} has only two vacancies, whose roster points "
                         f"take the carry-over of the preceding {n} recruitment years ({why}): solve against the "
                         "register (--register, --year) that holds them")
    window = state.recent.get(row.post, ())[-n:]
    if any(v is None for _, v in window):
        raise InputError(path, row.line, "vacancies", f"post {row.post}: the register holds years "
                         f"{[y for y, v in window if v is None]} without their vacancies per category (written "
                         "before schema 4), so the carry-over of the two-vacancy rule cannot be taken")
    total = 2 + sum(sum(v.values()) for _, v in window)
    owed = [(math.floor(c.share * total + 1e-9) - sum(v.get(c.code, 0) for _, v in window), -k, c.code)
            for k, c in enumerate(policy.categories)]
    split = Counter({policy.open: 2})
    for due, _, code in sorted(owed, reverse=True):
        take = min(max(due, 0), split[policy.open])
        if take:
            split[code] += take
            split[policy.open] -= take
    notes.append(f"{row.post}: only two vacancies, so their roster points take the carry-over of the preceding "
                 f"{len(window)} recruitment years ({', '.join(str(y) for y, _ in window) or 'none recorded'}; "
                 f"{total - 2} vacancies): " + ", ".join(f"{c} {k}" for c, k in split.items() if k)
                 + f" ({why})")
    return +split


def _roster_position(policy: Policy, problem: Problem, row, state: YearState | None) -> tuple[int, int | None]:
    """Where a TOTAL row's vacancies enter the cadre's running roster (DoPT OM 02.07.1997: the roster belongs to
    the cadre, its sanctioned posts; a year's vacancies take its next unused points) and the cadre's size.
    vacancies.csv's `cadre` and `roster_start` serve without a register; with one, the register holds both
    and a `roster_start` that disagrees with it is refused."""
    recorded = state.roster_next.get(row.post) if state else None
    if row.roster_start is not None and recorded is not None and row.roster_start != recorded:
        raise InputError(problem.sources.get("vacancies", "vacancies.csv"), row.line, "roster_start",
                         f"post {row.post}: roster_start {row.roster_start}, but the register's roster of the "
                         f"cadre is at point {recorded}; leave roster_start empty with a register")
    start = row.roster_start or recorded or 1
    cadre = row.cadre or (state.cadres.get(row.post) if state else None)
    if cadre is not None:
        check_cadre(policy, f"post {row.post}", cadre, start, row.vacancies)
    return start, cadre


def check_cadre(policy: Policy, what: str, cadre: int, start: int, count: int) -> None:
    """Refuse what a cadre's roster cannot give: a cadre of 2-13 posts takes the L-shaped roster (DoPT OM
    02.07.1997; not encoded), and past the cadre's last point the roster is fully operated."""
    if 2 <= cadre <= 13 and policy.roster.small_cadre == "l_shaped":
        raise Unsupported(f"{what}: a cadre of {cadre} posts takes the L-shaped roster "
                          "(roster.small_cadre; DoPT OM 02.07.1997), which is not encoded: no authoritative copy "
                          "of the DoPT table was found (README, 'What is not built yet'); give per-category rows, "
                          "or --set roster.small_cadre=\"none\" to use the due-point roster")
    if start + count - 1 > cadre:
        raise Unsupported(f"{what}: {count} vacancies from point {start} pass the end of the cadre's "
                          f"{cadre}-point roster: a fully operated roster does not run again, each vacancy goes to "
                          "the category of the post vacated (R.K. Sabharwal 1995, para 6); give per-category rows "
                          "(`aarakshan roster --vacated` lists the categories)")


def _overall(policy: Policy, table: SeatTable, minimums: dict, notes: list[str]) -> SeatTable:
    """Overall horizontal reservation (Anil Kumar Gupta 1995, para 18): the minimum belongs to the post, not to
    each compartment: the sum of vacancies.csv's minimums for the post, or the share of the post's vacancies
    (carried vacancies open to exchange partners are filled as a class of their own and are left out)."""
    if policy.horizontal.unfilled == "carry_forward":
        raise Unsupported("horizontal.unfilled = \"carry_forward\" with horizontal.mode = \"overall\" is not "
                          "implemented: the register carries a horizontal seat per compartment; use \"revert\"")
    given: dict[tuple[str, str], int] = {}
    for (post, _, trait), m in minimums.items():
        given[(post, trait)] = given.get((post, trait), 0) + m
    overall: dict[tuple[str, str], int] = {}
    for post in table.posts:
        size = sum(v for (p, _), v in table.seats.items() if p == post) - \
            sum(v for (p, _), v in table.exchangeable.items() if p == post)
        for t in policy.horizontal.traits:
            m = given.get((post, t.name), _rounded(policy, t.share * size) if t.share > 0 else 0)
            if m > size:
                notes.append(f"{post}: the overall {t.name} minimum cut from {m} to the post's {size} vacancies")
                m = size
            if m > 0:
                overall[(post, t.name)] = m
        for (p, _, trait), m in minimums.items():
            if p == post and all(t.name != trait for t in policy.horizontal.traits) and m > 0:
                overall[(post, trait)] = min(size, given[(post, trait)])
    traits = {p: [t for (q, t) in overall if q == p] for (p, _) in overall}
    overlap = next((ts for ts in traits.values() if len(ts) > 1 and not all(t in SUBCATEGORIES for t in ts)), None)
    if overlap:
        raise Unsupported(f"horizontal.mode = \"overall\" with the traits {', '.join(overlap)} at one post is not "
                          "implemented: one appointee may have two of them, and no rule says how the post's minimums "
                          "then share her; several overall traits are taken when they cannot overlap (the PwBD "
                          "sub-categories pwbd_a, pwbd_b, pwbd_c, pwbd_de); or use \"compartmentalised\"")
    if overall:
        notes.append("horizontal minimums are overall, per post (Anil Kumar Gupta 1995): " + ", ".join(
            f"{p} {t} {m}" for (p, t), m in overall.items()))
    return replace(table, minimums={}, overall=overall, notes=tuple(notes))


def _held_within(minimums: dict, seats: dict, notes: list[str]) -> None:
    """After a recommendation list a post's minimums are seats held in the compartment (`solver.selection`), so
    together they fit in its vacancies: traits are served in name order (for the PwBD sub-categories that is
    RPwD Act 2016 s.34's a, b, c, d+e) and a trait that does not fit is cut."""
    room: dict[tuple[str, str], int] = {}
    for (post, code, trait) in sorted(minimums):
        left = room.setdefault((post, code), seats.get((post, code), 0))
        m = minimums[(post, code, trait)]
        if m > left:
            minimums[(post, code, trait)] = left
            notes.append(f"{post}: the {trait} minimum of {code} cut from {m} to {left}: the compartment's held "
                         f"seats for the minimums before it in name order leave no more")
        room[(post, code)] = left - minimums[(post, code, trait)]


def _rounded(policy: Policy, x: float) -> int:
    r = policy.horizontal.rounding
    return {"round": lambda: math.floor(x + 0.5 + 1e-9), "floor": lambda: math.floor(x + 1e-9),
            "ceil": lambda: math.ceil(x - 1e-9)}[r]()


def _carry_in_horizontal(policy: Policy, table: SeatTable, state: YearState) -> SeatTable:
    """Carried horizontal seats join their compartment's minimum (at most its size); a compartment without
    vacancies this year keeps them waiting."""
    minimums = dict(table.minimums)
    carried: dict[tuple[str, str, str], list[Carried]] = {}
    lapsed, deferred = list(table.lapsed), list(table.deferred)
    for item in sorted((x for x in state.items if x.kind == "horizontal"), key=lambda x: (x.origin_year, x.id)):
        if item.post not in table.posts:
            deferred.append((item, "the post has no vacancies.csv row this year (no recruitment: it does not age)"))
            continue
        if lapses(policy, item, state.year):
            lapsed.append(item)
            continue
        size = table.cap(item.post, item.category) - table.exchangeable.get((item.post, item.category), 0)
        key = (item.post, item.category, carried_trait(item))
        if minimums.get(key, 0) >= size:
            deferred.append((item, f"the {item.category} compartment at {item.post} has no seat for it this year"))
            continue
        minimums[key] = minimums.get(key, 0) + 1
        carried.setdefault(key, []).append(item)
    return replace(table, minimums=minimums, carried_horizontal={k: tuple(v) for k, v in carried.items()}, lapsed=tuple(lapsed),
                   deferred=tuple(deferred))


def _carry_in(policy: Policy, problem: Problem, table: SeatTable, state: YearState, notes: list[str]) -> SeatTable:
    """Add the register's live items to the year, oldest first. A kept-vacant post is one more vacancy of its
    category; a carried reservation turns an open vacancy into one of its category. Where carried vacancies
    count against the ceiling and its excess is carried (Manipur s.5), an item that would pass it waits for a
    later year; where the excess is refused, the ceiling check after this refuses the year. An item older
    than `unfilled.carry_years` lapses, and a kept-vacant post whose reservation lapses is offered as open."""
    seats = dict(table.seats)
    carried: dict[tuple[str, str], list[Carried]] = {}
    exch: dict[tuple[str, str], int] = {}
    lapsed: list[Carried] = []
    deferred: list[tuple[Carried, str]] = []
    posts = set(problem.posts)
    for item in sorted(state.items, key=lambda x: (x.origin_year, x.id)):
        key = (item.post, item.category)
        if item.kind == "horizontal":
            continue  # joins the minimums, once they are known
        if item.post not in posts:
            # Bihar s.2(e), Manipur s.2(b): no recruitment for the cadre this year, so no recruitment year passes.
            deferred.append((item, "the post has no vacancies.csv row this year (no recruitment: it does not age)"))
            continue
        if lapses(policy, item, state.year):
            lapsed.append(item)
            if item.kind == "vacancy":
                seats[(item.post, policy.open)] += 1
            continue
        if item.category not in policy.reserved_codes:
            deferred.append((item, f"the policy has no category {item.category}"))
            continue
        if item.kind == "reservation" and seats[(item.post, policy.open)] == 0:
            deferred.append((item, "no open vacancy this year to carry the reservation into"))
            continue
        if item.kind == "claim":
            # Manipur s.6: the community takes back the partner's next vacancy at the post (the reserved total
            # stays the same, so the ceiling does not move).
            partner = next((x for x in claim_partners(policy, item.category)[0]
                            if seats.get((item.post, x), 0) - len(carried.get((item.post, x), ())) > 0), None)
            if partner is None:
                deferred.append((item, "no vacancy of an exchange partner this year to take back"))
                continue
            seats[(item.post, partner)] -= 1
            seats[key] = seats.get(key, 0) + 1
            carried.setdefault(key, []).append(item)
            continue
        waits = not policy.backlog_outside_ceiling(item.category) and policy.ceiling.excess == "carry_forward" \
            and policy.category(item.category).in_ceiling
        if waits:
            # (the post's ceiling use is summed only where carried vacancies count against it; those of the
            # categories whose backlog stands outside are left out of it)
            used, total = _ceiling_use(policy, seats, item.post,
                                       _outside(policy, carried, item.post, table.exempt.get(item.post, 0)))
            waits = used + 1 > policy.ceiling.share * (total + (item.kind == "vacancy")) + 1e-9
        if waits:
            deferred.append((item, f"current and carried reserved vacancies would pass the "
                                   f"{policy.ceiling.share:.0%} ceiling ({policy.ceiling.source})"))
            continue
        if item.kind == "reservation":
            seats[(item.post, policy.open)] -= 1
        seats[key] = seats.get(key, 0) + 1
        carried.setdefault(key, []).append(item)
        if exchangeable(policy, item, state.year):
            exch[key] = exch.get(key, 0) + 1
    if carried or lapsed or deferred:
        notes.append(f"register before {state.year}: {sum(map(len, carried.values()))} carried vacancies offered"
                     f" ({sum(exch.values())} open to exchange partners), {len(lapsed)} lapsed, {len(deferred)} "
                     "carried further")
    return replace(table, seats=seats, carried={k: tuple(v) for k, v in carried.items()}, exchangeable=exch,
                   lapsed=tuple(lapsed), deferred=tuple(deferred))


def _minimums_from_shares(policy: Policy, seats, minimums, notes) -> None:
    """Horizontal minimums from policy shares where vacancies.csv gave none (women 30-35% in many states;
    PwBD 4%: RPwD Act 2016 s.34). Compartmentalised: each post x category gets its own minimum."""
    traits = [t for t in policy.horizontal.traits if t.share > 0]
    if not traits:
        return
    if policy.horizontal.mode == "overall":
        return
    given = {(p, c) for (p, c, _) in minimums}
    for (post, code), v in seats.items():
        if (post, code) in given or v == 0:
            continue
        for t in traits:
            m = min(v, _rounded(policy, t.share * v))
            if m > 0:
                minimums[(post, code, t.name)] = m
    notes.append("horizontal minimums from policy shares: " + ", ".join(f"{t.name} {t.share:.0%}" for t in traits)
                 + f" of each compartment, {policy.horizontal.rounding}ed")
