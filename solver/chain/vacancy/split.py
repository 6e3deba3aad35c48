"""A year's vacancy rows as seats: exempt rows open and outside the Act, TOTAL rows split by the cadre's running
roster (DoPT OM 02.07.1997; R.K. Sabharwal 1995) or, for two vacancies, by the carry-over of the preceding years
(Manipur s.4(2)(a) proviso), per-category rows as given; a promotion row reserved only where the Act reserves it."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

from ...errors import InputError, Unsupported
from ...policy import Policy
from ...data.problem import Problem, VacancyRow
from ...io.vacancies import LAST_ROSTER_POINT, too_long
from .carried import YearState
from .roster import running


def split_rows(policy: Policy, problem: Problem, state: YearState | None, notes: list[str]):
    """(seats, minimums, exempt, roster_used) of the year's rows, before the register's carried items join."""
    seats: dict[tuple[str, str], int] = {}
    minimums: dict[tuple[str, str, str], int] = {}
    roster_used: dict[str, tuple[int, int, int | None]] = {}
    exempt: dict[str, int] = {}
    for row in map(lambda r: promotion_row(policy, problem, r), problem.vacancy_rows):
        if row.exempt:
            # Bill 2004 s.4; Manipur s.3; Bihar s.3: outside the Act, so open, no roster point, no ceiling.
            seats[(row.post, policy.open)] = seats.get((row.post, policy.open), 0) + row.vacancies
            exempt[row.post] = exempt.get(row.post, 0) + row.vacancies
            ground = policy.exemptions.ground(row.exempt)
            under = f"; {policy.exemptions.source}, {ground.source}" if ground and ground.source else ""
            notes.append(f"{row.post}: {row.vacancies} vacancies exempt from reservation ({row.exempt}{under}), "
                         f"filled as {policy.open}; the ceiling does not count them")
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
            for c in policy.seat_codes:
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
    return seats, minimums, exempt, roster_used


def promotion_row(policy: Policy, problem: Problem, row: VacancyRow) -> VacancyRow:
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
    row = _by_class(policy, problem, row)
    limit = prom.direct_share_limit.get(prom.method)
    if limit is None or row.exempt:
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


def _by_class(policy: Policy, problem: Problem, row: VacancyRow) -> VacancyRow:
    """A promotion row by the post's Group and the Group it is filled from (`promotion.reserved_classes`; Bill
    2004 s.3(2)(b): by selection "from Group B post to Group A post or in Group B, Group C or Group D posts"): a
    promotion s.3(2) does not reserve (Group A from Group A by selection) is open vacancies outside the Act."""
    prom = policy.promotion
    allowed = prom.reserved_classes.get(prom.method)
    if allowed is None or not row.post_class or row.exempt:
        return row
    path = problem.sources.get("vacancies", "vacancies.csv")
    method = prom.method.replace("_", "-")
    if row.post_class in allowed or f"{row.feeder_class}->{row.post_class}" in allowed:
        return row
    feeders = [x.split("->")[0] for x in allowed if x.endswith(f"->{row.post_class}")]
    if feeders and not row.feeder_class:
        raise InputError(path, row.line, "feeder_class", f"promotion by {method} to a {row.post_class} post is "
                         f"reserved only from {', '.join(feeders)} ({prom.source or 'promotion.reserved_classes'}): "
                         "give the class of the grade it is filled from")
    ground = (f"promotion by {method} to a {row.post_class} post" + (f" from {row.feeder_class}" if row.feeder_class
              else "") + f": not reserved ({prom.source or 'promotion.reserved_classes'})")
    if row.category not in ("TOTAL", policy.open):
        raise InputError(path, row.line, "category", f"{row.category} vacancies at {row.post}, where {ground}; give "
                         f"them as {policy.open} or TOTAL")
    return replace(row, category=policy.open, exempt=ground[:200])


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
                         "register that holds them (register=, year=)")
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
    if start + row.vacancies - 1 > LAST_ROSTER_POINT:   # (the register's point, past the row's own check)
        raise InputError(problem.sources.get("vacancies", "vacancies.csv"), row.line, "vacancies",
                         too_long(start, row.vacancies))
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
                          "of the DoPT table was found (docs/limits.md); give per-category rows, "
                          "or override roster.small_cadre=\"none\" to use the due-point roster")
    if start + count - 1 > cadre:
        raise Unsupported(f"{what}: {count} vacancies from point {start} pass the end of the cadre's "
                          f"{cadre}-point roster: a fully operated roster does not run again, each vacancy goes to "
                          "the category of the post vacated (R.K. Sabharwal 1995, para 6); give per-category rows "
                          "(`aarakshan roster --vacated` lists the categories)")
