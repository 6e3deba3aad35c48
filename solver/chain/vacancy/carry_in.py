"""The register's live items joined to a year (Bihar s.2(e), s.4(6); Manipur s.5-7; DoPT OM 20.07.2000): kept-vacant
posts and carried reservations oldest first, within the ceiling where their excess is carried; claims of an
exchanged community (Manipur s.6); lapses; carried horizontal seats joining their compartment's minimum."""
from __future__ import annotations

from dataclasses import replace

from ...policy import Policy
from ...data.problem import Problem
from .carried import Carried, YearState, carried_trait, claim_partners, exchangeable, lapses
from .ceiling import ceiling_use
from .seats import SeatTable


def carry_in(policy: Policy, problem: Problem, table: SeatTable, state: YearState, notes: list[str]) -> SeatTable:
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
        # a carried reservation, or a claim read as one (`claims.take`), turns an open vacancy into its category's
        as_reservation = item.kind == "reservation" or (item.kind == "claim" and
                                                        policy.claims.take == "reserved_vacancy")
        if as_reservation and seats[(item.post, policy.open)] == 0:
            deferred.append((item, f"no open vacancy this year to carry the {item.kind} into"))
            continue
        if item.kind == "claim" and not as_reservation:
            # Manipur s.6: the community takes back the partner's next vacancy at the post (the reserved total
            # stays the same, so the ceiling does not move).
            if not _take_back(policy, item, seats, carried):
                deferred.append((item, "no vacancy of an exchange partner this year to take back"))
            continue
        if _waits(policy, item, seats, carried, table):
            deferred.append((item, f"current and carried reserved vacancies would pass the "
                                   f"{policy.ceiling.share:.0%} ceiling ({policy.ceiling.source})"))
            continue
        if as_reservation:
            seats[(item.post, policy.open)] -= 1
        seats[key] = seats.get(key, 0) + 1
        carried.setdefault(key, []).append(item)
        if exchangeable(policy, item, state.year):
            exch[key] = exch.get(key, 0) + 1
    notes += _said(state.year, carried, exch, lapsed, deferred)
    return replace(table, seats=seats, carried={k: tuple(v) for k, v in carried.items()}, exchangeable=exch,
                   lapsed=tuple(lapsed), deferred=tuple(deferred))


def _said(year: int, carried: dict, exch: dict, lapsed: list, deferred: list) -> list[str]:
    if not (carried or lapsed or deferred):
        return []
    return [f"register before {year}: {sum(map(len, carried.values()))} carried vacancies offered "
            f"({sum(exch.values())} open to exchange partners), {len(lapsed)} lapsed, {len(deferred)} carried further"]


def _take_back(policy: Policy, item: Carried, seats: dict, carried: dict) -> bool:
    """A claim taking back the next vacancy at the post of a partner it was exchanged to (Manipur s.6); False
    where no partner has one this year."""
    partner = next((x for x in claim_partners(policy, item.category)[0]
                    if seats.get((item.post, x), 0) - len(carried.get((item.post, x), ())) > 0), None)
    if partner is None:
        return False
    key = (item.post, item.category)
    seats[(item.post, partner)] -= 1
    seats[key] = seats.get(key, 0) + 1
    carried.setdefault(key, []).append(item)
    return True


def _waits(policy: Policy, item: Carried, seats: dict, carried: dict, table: SeatTable) -> bool:
    """Whether a carried item would pass the ceiling, where carried vacancies count against it and its excess
    is carried (Manipur s.5): it then waits for a later year."""
    if policy.backlog_outside_ceiling(item.category) or policy.ceiling.excess != "carry_forward" or \
            not policy.category(item.category).in_ceiling:
        return False
    # (the post's ceiling use is summed only where carried vacancies count against it; those of the
    # categories whose backlog stands outside are left out of it)
    used, total = ceiling_use(policy, seats, carried, table.exempt, [item.post])[item.post]
    return used + 1 > policy.ceiling.share * (total + (item.kind == "vacancy")) + 1e-9


def carry_in_horizontal(policy: Policy, table: SeatTable, state: YearState) -> SeatTable:
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
