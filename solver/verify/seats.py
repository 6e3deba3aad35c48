"""The seats the year was solved with, checked against the vacancy rows on verify's own reading of them (not the
vacancy stage's code): what every other rule of `verify` counts capacity against must itself be what the
inputs give.

Per post, from `vacancies.csv` and the items the seat table says the register carried in:
- the post's vacancies are its rows' vacancies, plus one for each kept-vacant post carried in (a carried
  reservation or an exchanged community's claim turns one of the year's vacancies into its category's; it adds
  none; Bihar s.4(6), Manipur s.5-7);
- a category given a row of its own has that row's vacancies, plus its carried items, less a partner's
  vacancy a claim took back (Manipur s.6) and less what the ceiling moved to open (Art. 16(4B); Manipur s.5);
- exempt vacancies are open (Bill 2004 s.4; Manipur s.3; Bihar s.3).
A TOTAL row's split is verify's own reading of the running roster (`solver.verify.roster`; DoPT OM 02.07.1997),
from the row's `roster_start` or the point the register records; where that reading needs more than the rows
(two vacancies carried over, Manipur s.4(2)(a) proviso; promotion) only the sum is checked. A lapsed kept-vacant
post is one open vacancy more.
"""
from __future__ import annotations

from .allocation import Violation
from .reading import Reading
from .roster import by_category

SOURCE = "vacancies.csv and the register (SPEC.md, \"vacancies.csv\")"


def _rows_read(r: Reading) -> tuple[dict[str, int], dict[tuple[str, str], int], set[str]]:
    """(per post, its rows' vacancies; per post and category, the vacancies the rows give it; the posts whose
    TOTAL row is read for its sum only)."""
    policy, seats = r.policy, r.seats
    rows: dict[str, int] = {}
    own: dict[tuple[str, str], int] = {}
    split: set[str] = set()
    for row in r.problem.vacancy_rows:
        rows[row.post] = rows.get(row.post, 0) + row.vacancies
        by_code = by_category(policy, row, seats.roster_used.get(row.post, (None,))[0])
        if by_code is None:
            split.add(row.post)
            continue
        for code, k in by_code.items():
            own[(row.post, code)] = own.get((row.post, code), 0) + k
    return rows, own, split


def seats_as_given(r: Reading) -> list[Violation]:
    """Each post's vacancies, and each category's with a row of its own, as the rows and carried items give
    them."""
    policy, seats, out = r.policy, r.seats, []
    rows, own, split = _rows_read(r)
    carried: dict[tuple[str, str], int] = {}
    taken: dict[str, int] = {}          # per post, the partner vacancies claims took back
    added: dict[str, int] = {}          # per post, the kept-vacant posts carried in
    for (post, code), items in seats.carried.items():
        carried[(post, code)] = len(items)
        added[post] = added.get(post, 0) + sum(1 for x in items if x.kind == "vacancy")
        taken[post] = taken.get(post, 0) + sum(1 for x in items if x.kind in ("reservation", "claim"))
    for x in seats.lapsed:
        if x.kind == "vacancy":
            added[x.post] = added.get(x.post, 0) + 1
            own[(x.post, policy.open)] = own.get((x.post, policy.open), 0) + 1
    moved = dict(seats.carried_excess)
    to_open: dict[str, int] = {}        # per post, the reserved vacancies the ceiling moved to open
    for (post, _), v in moved.items():
        to_open[post] = to_open.get(post, 0) + v
    totals: dict[str, int] = {}         # per post, the vacancies solved for (one pass over the seat table)
    for (post, _), v in seats.seats.items():
        totals[post] = totals.get(post, 0) + v
    for j, post in enumerate(r.problem.posts):
        total = totals.get(post, 0)
        want = rows.get(post, 0) + added.get(post, 0)
        if total != want:
            out.append(r.violation("seats not as given", None, j, f"{total} vacancies solved for, where the rows "
                                   f"give {rows.get(post, 0)} and the register carried in {added.get(post, 0)}",
                                   r.cite("carried", SOURCE)))
            continue
        if post in split or taken.get(post):
            continue   # (a split read for its sum only, or carried reservations and claims moving vacancies)
        for code in policy.seat_codes:
            if code == policy.open:
                want = own.get((post, code), 0) + to_open.get(post, 0)
            else:
                want = own.get((post, code), 0) + carried.get((post, code), 0) - moved.get((post, code), 0)
            if seats.cap(post, code) != want:
                out.append(r.violation("seats not as given", None, j, f"{seats.cap(post, code)} {code} vacancies "
                                       f"solved for, where the rows and the register give {want}", r.cite("carried", SOURCE)))
    return out
