"""What a recorded year must have left in the register, read from the allocation and the Acts' words.

Every Act carries forward only what was not filled: "the vacancies ... which remain unfilled ... shall be
carried forward" (Bihar Act 1991 s.4(6), Manipur Act 1976 s.5, Maharashtra Act 2001 s.5(1); DoPT OM
20.07.2000: unfilled reserved vacancies are "backlog reserved vacancies ... treated as a separate and distinct
group"); EWS vacancies are never carried (DoPT OM 31.01.2019). So, per post and reserved category, the
vacancies the allocation leaves empty are its vacancies less the appointments counted against them, whatever
the route (the category's own, an exchange, a fallback, a de-reservation, a Rule 16(2) upgrade):

- the register may hold no more of the post's vacancies of that category after the year than were left empty
  ("a vacancy filled is never carried");
- where the policy carries the category's unfilled vacancies, it holds exactly as many (none lapses within the
  year it was offered in: an item past its years lapses when the next year opens);
- where it does not, none.

Read from the register's tables alone (its items and their events), never from the code that writes it.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import InputError
from ..policy import Policy
from .allocation import Allocation, Violation

RULE = "carried forward"
# An event of the year's first round that ends a vacancy's life, and one that carries it past the year unoffered.
ENDS = ("filled", "exchanged", "lapsed", "dereserved")


def carries(policy: Policy, alloc: Allocation, seats, register: str | Path, year: int) -> list[Violation] | None:
    """The breaches of the carry-forward rules by what `register` recorded for `year`'s first round, or None when
    the register has not recorded the year (nothing to check).

    Parameters
    ----------
    policy : the policy the year was solved under.
    alloc : the year's allocation (`read_allocation`).
    seats : the seat table the year filled (the register's state before it, `runs.register_seats`).
    register, year : the register file and the recruitment year.

    Returns
    -------
    list of Violation, one per post and category whose carried vacancies differ from what was left empty.

    Example
    -------
    A post with 2 SC vacancies, one filled: the register may carry at most one, and under a policy that carries
    SC vacancies, exactly one (see `tests/verify/test_carries.py`).
    """
    live = _carried_after(register, year)
    if live is None:
        return None
    taken: dict[tuple[str, str], int] = {}
    for j, seat in zip(alloc.post.tolist(), alloc.seat):
        key = (seats.posts[j], seat)
        taken[key] = taken.get(key, 0) + 1
    out = []
    source = policy.unfilled.source or "the policy's [unfilled] table"
    for post in seats.posts:
        for code in policy.reserved_codes:
            empty = max(0, seats.cap(post, code) - taken.get((post, code), 0))
            held = live.get((post, code), 0)
            carried = policy.unfilled.carry_years != 0 and policy.category(code).carry_forward
            want = empty if carried else 0
            if held > empty:
                out.append(Violation(RULE, "", post, f"the register carries {held} {code} vacancies out of {year} "
                                     f"where the allocation left {empty} of its {seats.cap(post, code)} empty: "
                                     "a filled vacancy is carried", source))
            elif held != want:
                why = (f"the policy carries {code}'s unfilled vacancies" if carried else
                       f"the policy does not carry {code}'s unfilled vacancies")
                out.append(Violation(RULE, "", post, f"the register carries {held} {code} vacancies out of {year} "
                                     f"where {want} were due: {empty} left empty and {why}", source))
    return out


def _carried_after(register: str | Path, year: int) -> dict[tuple[str, str], int] | None:
    """Per (post, category): the register's vacancies offered in `year`'s first round and still live after it
    (not ended by one of its events, not deferred past it); None when the year is not recorded."""
    path = Path(register)
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise InputError(path, None, None, f"cannot open the register: {e}") from None
    try:
        if db.execute("SELECT 1 FROM years WHERE year = ?", (year,)).fetchone() is None:
            return None
        marks = ",".join("?" * len(ENDS))
        rows = db.execute(
            "SELECT post, category, COUNT(*) FROM items i WHERE kind = 'vacancy' AND origin_year <= ? "
            "AND (closed_year IS NULL OR closed_year >= ?) AND NOT EXISTS (SELECT 1 FROM events e WHERE "
            "e.item_id = i.id AND e.year = ? AND e.round = 'main' AND (e.event = 'deferred' "
            f"OR e.event IN ({marks}))) GROUP BY post, category", (year, year, year, *ENDS)).fetchall()
    except sqlite3.Error as e:
        raise InputError(path, None, None, f"the register cannot be read: {e}") from None
    finally:
        db.close()
    return {(post, code): k for post, code, k in rows}
