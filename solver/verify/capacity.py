"""How many vacancies each route may fill: the vacancy table's capacities, and the carried vacancies that
exchange and de-reservation may take under the Acts that limit them to the backlog."""
from __future__ import annotations

from .allocation import Violation
from .reading import Reading, tied_past


def capacity(r: Reading) -> list[Violation]:
    """No more appointees on a post's category than its vacancies (vacancies.csv, after vacancy
    determination)."""
    out = []
    for (j, seat), k in sorted(r.count.items()):
        cap = r.seats.cap(r.problem.posts[j], seat)
        if k > cap and not _same_rank(r, j, seat, cap):
            out.append(r.violation("over capacity", None, j, f"{k} appointees on {cap} {seat} vacancies", "vacancies.csv"))
    return out


def _same_rank(r: Reading, j: int, seat: str, cap: int) -> bool:
    """Holders past the capacity are all of the same rank on the post's list as the last within it: seats over
    the number, as the same-rank rule makes them (JoSAA Business Rules, "Multiple student - same rank rule", as
    summarised; the policy's `merit.same_rank`)."""
    level = r.level(j, seat)
    return level is not None and tied_past(level[r.alloc.cand[(r.alloc.post == j) & (r.seat == seat)]], cap)


def exchange_within_carried(r: Reading) -> list[Violation]:
    """Exchange groups that pass only carried vacancies (`after_years`, Bihar Act 1991 s.4(6)) take no more
    than the carried vacancies old enough that the category's own candidates left: its own appointees clear
    the oldest carried vacancies first."""
    out = []
    for (j, seat), k in sorted(r.after_years_exchange.items()):
        room = max(0, r.seats.exchangeable.get((r.problem.posts[j], seat), 0) - r.own_fills.get((j, seat), 0))
        if k > room:
            out.append(r.violation("exchange beyond the carried vacancies", None, j, f"{k} {seat} vacancies "
                                   f"exchanged; only {room} carried vacancies old enough were left by {seat} "
                                   "candidates", r.cite("exchange")))
    return out


def dereservation_within_backlog(r: Reading) -> list[Violation]:
    """Where de-reservation comes only after exchange (`unfilled.dereserve_when = "after_exchange"`), only
    backlog vacancies still unfilled "even after exchange formula" are de-reserved (Bihar Act 1991 s.4(6)(d))."""
    if r.policy.unfilled.dereserve_when != "after_exchange":
        return []
    out = []
    for (j, seat), k in sorted(r.dereserved.items()):
        room = max(0, r.backlog_left(j, seat))
        if k > room:
            out.append(r.violation("de-reservation beyond the backlog left after exchange", None, j,
                                   f"{k} {seat} vacancies de-reserved; only {room} carried vacancies old enough to "
                                   "exchange were left unfilled", r.cite("dereserve")))
    return out
